"""The store's tables are described once (``tutor/progress/schema.py``) and rendered for SQLite and PostgreSQL.

A released migration never changes: the SQL each version ran is kept in
``tests/fixtures/store_schema_released.json`` (the hand-written text as it was released), and the renderers
must give it back statement by statement. Then, on both engines, a fresh store's tables are what the spec says,
and a store left at version 1 with rows in it is upgraded to the current version with its rows intact.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import Stores
from tutor.progress import schema
from tutor.progress.postgres import PG_MIGRATIONS
from tutor.progress.store import MIGRATIONS, SCHEMA_VERSION

RELEASED = json.loads((Path(__file__).parent / "fixtures" / "store_schema_released.json").read_text())


def statements(sql: str) -> list[str]:
    """``sql``'s statements with runs of white space made one space (what the server parses is the same)."""
    out = []
    for part in sql.split(";"):
        text = re.sub(r"\s+", " ", part).strip().replace("( ", "(").replace(" )", ")")
        if text:
            out.append(text)
    return out


@pytest.mark.parametrize("engine, rendered", [("sqlite", MIGRATIONS), ("postgresql", PG_MIGRATIONS)])
def test_each_released_version_is_rendered_as_it_was_released(engine: str, rendered: tuple[str, ...]) -> None:
    released = RELEASED[engine]
    assert len(rendered) >= len(released)  # versions only ever get appended
    for version, (old, new) in enumerate(zip(released, rendered, strict=False), start=1):
        assert statements(new) == statements(old), f"{engine} version {version} changed"


def test_the_spec_is_complete_and_consistent() -> None:
    assert schema.TABLES == ("sections_read", "attempts", "lab_runs", "notebook_entries", "bench_runs",
                             "doctor_runs")
    for table in schema.SPEC:
        names = table.column_names
        assert len(set(names)) == len(names), table.name
        assert set(table.primary_key) <= set(names) and all(set(i.columns) <= set(names) for i in table.indexes)
        assert table.has_id != bool(table.primary_key), table.name  # one key, never two
    # SQLite's rules check every column's type; PostgreSQL's types do that, its rules only the ranges
    for name in schema.TABLES:
        assert len(schema.sqlite_rules(name)) == len(schema.COLUMNS[name]) - ("id" in schema.COLUMNS[name])
        assert all("typeof" not in rule for rule in schema.pg_rules(name))


def _sqlite_columns(conn: sqlite3.Connection, table: str) -> list[tuple[str, str, bool]]:
    return [(r[1], r[2], bool(r[3])) for r in conn.execute(f"PRAGMA table_info({table})")]


def _pg_columns(conn: object, table: str) -> list[tuple[str, str, bool]]:
    rows = conn.execute(  # type: ignore[attr-defined]
        "SELECT column_name, data_type, is_nullable = 'NO' FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = %s ORDER BY ordinal_position", (table,))
    return [(str(a), str(b), bool(c)) for a, b, c in rows.fetchall()]


def test_a_fresh_store_has_the_spec_s_tables_on_both_engines(stores: Stores) -> None:
    store = stores.open()
    store.close()
    if stores.engine == "sqlite":
        conn = sqlite3.connect(stores.spec())
        for table in schema.SPEC:
            assert [c[0] for c in _sqlite_columns(conn, table.name)] == list(table.column_names)
            # SQLite's INTEGER PRIMARY KEY is the rowid: never NULL, though table_info does not mark it so
            assert [c[2] for c in _sqlite_columns(conn, table.name)] == [
                not c.nullable and c.kind != "id" for c in table.columns]
            indexes = {r[1] for r in conn.execute(f"PRAGMA index_list({table.name})") if r[3] == "c"}
            assert indexes == {i.name for i in table.indexes}
        conn.close()
    else:
        pg_types = {"text": "text", "real": "double precision", "integer": "integer", "ref": "bigint",
                    "id": "bigint"}
        with stores.admin() as conn:
            for table in schema.SPEC:
                found = _pg_columns(conn, table.name)
                assert [c for c in found if c[0] != "learner"] == [
                    (c.name, pg_types[c.kind], not c.nullable or c.kind == "id") for c in table.columns]
                assert ("learner", "text", True) in found
                checks = {r[0] for r in conn.execute(
                    "SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass AND contype = 'c'",
                    (table.name,)).fetchall()}
                assert checks == {f"{table.name}_rule_{i}" for i in range(len(schema.pg_rules(table.name)))}


def test_a_version_1_store_with_rows_is_upgraded_on_both_engines(stores: Stores) -> None:
    """The store as version 1 left it, with a learner's rows; opening it runs version 2 (on SQLite the
    tables are rebuilt with their CHECKs, on PostgreSQL the CHECKs are added in place) and keeps every row."""
    insert = [
        "INSERT INTO sections_read (lesson_id, section_id, read_at) VALUES ('n0-l1', 's1', 1700000000.5)",
        "INSERT INTO attempts (exercise_id, lesson_id, prediction, confidence, state, verdict, score, created_at,"
        " graded_at) VALUES ('n0-e1', 'n0-l1', '{\"choice\": \"memory\"}', 0.75, 'graded', 'correct', 1.0,"
        " 1700000001.0, 1700000002.0)",
        "INSERT INTO lab_runs (lab_id, lesson_id, result, created_at) VALUES ('f1-lab00', 'f1-00', '{}', 1700000003.0)",
        "INSERT INTO notebook_entries (lab_run_id, lab_id, entry, created_at, updated_at)"
        " VALUES (1, 'f1-lab00', '{}', 1700000004.0, 1700000005.0)",
    ]
    if stores.engine == "sqlite":
        conn = sqlite3.connect(stores.spec(), isolation_level=None)
        for statement in statements(RELEASED["sqlite"][0]) + insert:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
        conn.close()
    else:
        with stores.admin() as conn:
            conn.execute("CREATE TABLE tutor_schema (version INTEGER NOT NULL)")
            conn.execute("INSERT INTO tutor_schema VALUES (1)")
            for statement in statements(RELEASED["postgresql"][0]) + insert:
                conn.execute(statement)
    store = stores.open()
    assert store.schema_version == SCHEMA_VERSION
    assert store.sections_read() == {("n0-l1", "s1")}
    [attempt] = store.attempts()
    assert (attempt.exercise_id, attempt.confidence, attempt.verdict, attempt.score) == ("n0-e1", 0.75, "correct",
                                                                                          1.0)
    [run] = store.lab_runs()
    assert run.lab_id == "f1-lab00"
    assert [e.lab_run_id for e in store.notebook_entries()] == [run.id]
    # version 2's rules hold from now on, on both engines
    from tutor.progress.store import StoreError

    with pytest.raises(StoreError), store.transaction() as conn:
        conn.execute("UPDATE attempts SET confidence = 5")
    store.close()
