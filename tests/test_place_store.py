"""The learner's last place in the store (schema 3): kept per learner on both engines, and added to a store that an
earlier version left (its rows kept)."""

from __future__ import annotations

import sqlite3

import pytest

from tests.conftest import Classroom, Stores
from tests.test_store_schema import RELEASED, statements
from tutor.progress.place import Place
from tutor.progress.store import SCHEMA_VERSION


def test_the_last_place_is_kept_and_replaced(stores: Stores) -> None:
    store = stores.open()
    assert store.last_place() is None
    store.save_place(Place("lesson", "n0-l1", "s2"))
    store.save_place(Place("exercise", "n0-l1", "n0-e1", pass_number=2))
    assert store.last_place() == Place("exercise", "n0-l1", "n0-e1", pass_number=2)
    store.close()
    again = stores.open()
    assert again.last_place() == Place("exercise", "n0-l1", "n0-e1", pass_number=2)
    again.save_place(None)  # back on the map
    assert again.last_place() is None


def test_a_row_no_tutor_wrote_reads_as_no_place(stores: Stores) -> None:
    store = stores.open()
    with store.transaction() as conn:
        conn.execute('INSERT INTO places (slot, kind, lesson_id, item_id, "pass", saved_at) '
                     "VALUES ('last', 'shell', 'n0-l1', NULL, 1, 1700000000)")
    assert store.last_place() is None


def test_a_version_2_store_with_rows_gets_the_place_table_on_both_engines(stores: Stores) -> None:
    insert = [
        "INSERT INTO sections_read (lesson_id, section_id, read_at) VALUES ('n0-l1', 's1', 1700000000.5)",
        "INSERT INTO attempts (exercise_id, lesson_id, prediction, confidence, state, created_at)"
        " VALUES ('n0-e1', 'n0-l1', '{\"choice\": \"memory\"}', 0.75, 'locked', 1700000001.0)",
    ]
    released = RELEASED[stores.engine][:2]
    if stores.engine == "sqlite":
        conn = sqlite3.connect(stores.spec(), isolation_level=None)
        for statement in [s for version in released for s in statements(version)] + insert:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 2")
        conn.close()
    else:
        with stores.admin() as pg:
            pg.execute("CREATE TABLE tutor_schema (version INTEGER NOT NULL)")
            pg.execute("INSERT INTO tutor_schema VALUES (2)")
            for statement in [s for version in released for s in statements(version)] + insert:
                pg.execute(statement)
    store = stores.open()
    assert SCHEMA_VERSION >= 3 and store.schema_version == SCHEMA_VERSION
    assert store.sections_read() == {("n0-l1", "s1")}
    assert [a.exercise_id for a in store.attempts()] == ["n0-e1"]
    assert store.last_place() is None
    store.save_place(Place("lab", "f1-00", "f1-lab00"))
    assert store.last_place() == Place("lab", "f1-00", "f1-lab00")


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_in_a_class_each_learner_has_their_own_place(classroom: Classroom) -> None:
    ana, ben = classroom.store("ana"), classroom.store("ben")
    try:
        ana.save_place(Place("lesson", "n0-l1", "s3"))
        ben.save_place(Place("exercise", "n0-l2", "n0-e4"))
        assert ana.last_place() == Place("lesson", "n0-l1", "s3")
        assert ben.last_place() == Place("exercise", "n0-l2", "n0-e4")
        ben.save_place(None)  # ben's return to the map clears his place, not ana's
        assert ana.last_place() == Place("lesson", "n0-l1", "s3") and ben.last_place() is None
    finally:
        ana.close()
        ben.close()
