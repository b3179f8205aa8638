"""The progress store: transactions, migrations, and a corrupt file moved aside (never a silent reset).

Tests taking ``stores`` run once per engine (SQLite and PostgreSQL, see conftest); the ones about the SQLite file
itself (WAL, a corrupt or truncated file) are SQLite's alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Stores
from tests.support.store import set_schema_version
from tutor.progress import ProgressStore
from tutor.progress.store import SCHEMA_VERSION, StoreError


def test_fresh_store_is_migrated_to_the_current_schema(stores: Stores) -> None:
    store = stores.open()
    assert store.engine == stores.engine
    assert store.schema_version == SCHEMA_VERSION
    assert store.open_report.recovered_from_corrupt is None
    if stores.engine == "sqlite":
        journal = store._conn.execute("PRAGMA journal_mode").fetchone()[0]
        assert journal == "wal"
    else:
        with stores.admin() as conn:
            assert conn.execute("SELECT version FROM tutor_schema").fetchall() == [(SCHEMA_VERSION,)]
    store.close()
    assert stores.open().schema_version == SCHEMA_VERSION  # opening again migrates nothing


def test_sections_read_survive_reopening(stores: Stores) -> None:
    store = stores.open()
    store.mark_section_read("n0-l1", "roofline")
    store.mark_section_read("n0-l1", "roofline")  # idempotent
    store.close()
    again = stores.open()
    assert again.sections_read() == {("n0-l1", "roofline")}
    assert again.sections_read("other") == set()


def test_a_failed_transaction_leaves_nothing(stores: Stores) -> None:
    store = stores.open()
    with pytest.raises(RuntimeError), store.transaction() as conn:
        conn.execute(
            "INSERT INTO sections_read (lesson_id, section_id, read_at) VALUES ('a', 'b', 0)"
        )
        raise RuntimeError("crash mid-write")
    assert store.sections_read() == set()


def test_a_corrupt_database_is_moved_aside_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    store = ProgressStore(path)
    moved = store.open_report.recovered_from_corrupt
    assert moved is not None and moved.exists() and moved.name.startswith("p.sqlite3.corrupt-")
    assert moved.read_bytes().startswith(b"this is not a database")
    assert store.schema_version == SCHEMA_VERSION
    store.mark_section_read("a", "b")
    assert store.sections_read() == {("a", "b")}


def test_a_truncated_database_is_detected(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    store = ProgressStore(path)
    for i in range(300):
        store.mark_section_read("lesson", f"s{i}")
    store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] + b"\xff" * 512 + data[len(data) // 2 + 512 :])
    reopened = ProgressStore(path)
    report = reopened.open_report
    # either SQLite still reads it (then the rows are intact) or it was moved aside and reported
    if report.recovered_from_corrupt is None:
        assert len(reopened.sections_read()) <= 300
    else:
        assert report.reason


def test_a_newer_schema_is_refused_not_downgraded(stores: Stores) -> None:
    set_schema_version(stores, SCHEMA_VERSION + 5)
    with pytest.raises(StoreError, match="newer GPU Tutor"):
        stores.open()


KILLER = """
import sys
from tutor.progress.engines import open_store
store = open_store(sys.argv[1])
i = 0
while True:
    store.mark_section_read("lesson", f"s{i}")
    i += 1
    if i == 50:
        print("ready", flush=True)
"""


def test_killing_a_writer_loses_no_committed_row(stores: Stores) -> None:
    proc = subprocess.Popen([sys.executable, "-c", KILLER, stores.spec()], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    proc.kill()
    proc.wait(timeout=10)
    store = stores.open()
    assert store.open_report.recovered_from_corrupt is None
    read = store.sections_read()
    assert len(read) >= 50
    # committed rows are contiguous: no gap left by the kill
    assert {s for _, s in read} == {f"s{i}" for i in range(len(read))}
