"""The progress store under faults: only corruption moves a file aside; everything else is one clear error.

Faults SQLite would raise on a full disk, a read-only file, a busy lock or an I/O error are injected through the
store's ``connection_factory`` (a small tmpfs is not available here, and root ignores ``chmod``); a read-only file
is also opened for real with SQLite's ``mode=ro``. Two processes race a first open on an empty data dir.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Stores
from tests.support.store import set_schema_version
from tutor.cli import main
from tutor.progress import ProgressStore
from tutor.progress.report import recovery_notices
from tutor.progress.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    StoreBusy,
    StoreCannotOpen,
    StoreCorrupt,
    StoreError,
    StoreFull,
    StoreIOError,
    StoreNewerSchema,
    StoreOpenReport,
    StoreReadOnly,
    StoreRejected,
    StoreWriteError,
    on_recovery,
)
from tutor.progress.store_errors import StoreDenied, StoreUnreachable

FAULTS = {
    "full": (13, "SQLITE_FULL", "database or disk is full"),
    "readonly": (8, "SQLITE_READONLY", "attempt to write a readonly database"),
    "busy": (5, "SQLITE_BUSY", "database is locked"),
    "ioerr": (10 | (3 << 8), "SQLITE_IOERR_WRITE", "disk I/O error"),
    "cantopen": (14, "SQLITE_CANTOPEN", "unable to open database file"),
    "corrupt": (11, "SQLITE_CORRUPT", "database disk image is malformed"),
}


def fault(kind: str) -> sqlite3.OperationalError:
    code, name, message = FAULTS[kind]
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorcode = code  # type: ignore[misc]
    exc.sqlite_errorname = name  # type: ignore[misc]
    return exc


class Faulty(sqlite3.Connection):
    """Raises the armed fault for every statement matching ``pattern`` (a regex) while armed."""

    armed: str | None = None
    pattern = r".*"

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        if Faulty.armed is not None and re.search(Faulty.pattern, sql, re.IGNORECASE):
            raise fault(Faulty.armed)
        return super().execute(sql, *args)


@pytest.fixture
def faulty(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[Faulty]]:
    monkeypatch.setattr(ProgressStore, "connection_factory", Faulty)
    Faulty.armed, Faulty.pattern = None, r".*"
    yield Faulty
    Faulty.armed, Faulty.pattern = None, r".*"


def healthy(path: Path) -> ProgressStore:
    store = ProgressStore(path)
    store.mark_section_read("n0-l1", "roofline")
    return store


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".corrupt-" in p.name)


@pytest.mark.parametrize(
    ("kind", "error", "words"),
    [
        ("full", StoreFull, "disk holding"),
        ("readonly", StoreReadOnly, "read-only"),
        ("busy", StoreBusy, "locked by another program"),
        ("ioerr", StoreIOError, "I/O error"),
        ("cantopen", StoreCannotOpen, "cannot open"),
    ],
)
def test_an_operational_error_at_start_up_leaves_the_database_where_it_is(
    tmp_path: Path, faulty: type[Faulty], kind: str, error: type[StoreError], words: str
) -> None:
    path = tmp_path / "p.sqlite3"
    healthy(path).close()
    before = path.read_bytes()
    faulty.armed, faulty.pattern = kind, r"quick_check"
    for _retry in range(3):  # each retry used to leave one more .corrupt-… file
        with pytest.raises(error, match=words) as caught:
            ProgressStore(path)
        assert "\n" not in str(caught.value) and str(path) in str(caught.value)
    assert leftovers(tmp_path) == []
    assert path.read_bytes() == before
    faulty.armed = None  # space freed: the learner's progress is all still there
    assert ProgressStore(path).sections_read() == {("n0-l1", "roofline")}


def test_a_full_disk_while_creating_the_store_moves_nothing(tmp_path: Path, faulty: type[Faulty]) -> None:
    faulty.armed, faulty.pattern = "full", r"CREATE TABLE"
    with pytest.raises(StoreFull):
        ProgressStore(tmp_path / "p.sqlite3")
    assert leftovers(tmp_path) == []
    faulty.armed = None
    assert ProgressStore(tmp_path / "p.sqlite3").schema_version == SCHEMA_VERSION


@pytest.mark.parametrize(("kind", "error"), [("full", StoreFull), ("readonly", StoreReadOnly),
                                              ("busy", StoreBusy), ("ioerr", StoreIOError)])
def test_a_failed_write_is_a_store_write_error_and_stores_nothing(
    tmp_path: Path, faulty: type[Faulty], kind: str, error: type[StoreError]
) -> None:
    store = healthy(tmp_path / "p.sqlite3")
    faulty.armed, faulty.pattern = kind, r"INSERT INTO attempts"
    with pytest.raises(error) as caught:
        store.lock_prediction(exercise_id="e", lesson_id="l", prediction={"value": 1.0}, confidence=0.8)
    assert isinstance(caught.value, StoreWriteError)  # the type the TUI catches to keep the prediction and retry
    assert not isinstance(caught.value, sqlite3.Error)
    faulty.armed = None
    assert store.attempts() == []
    # the retry works once the fault is gone, on the same open store
    store.lock_prediction(exercise_id="e", lesson_id="l", prediction={"value": 1.0}, confidence=0.8)
    assert len(store.attempts()) == 1


def test_a_failed_commit_is_rolled_back_and_reported(tmp_path: Path, faulty: type[Faulty]) -> None:
    store = healthy(tmp_path / "p.sqlite3")
    faulty.armed, faulty.pattern = "full", r"^COMMIT"
    with pytest.raises(StoreFull):
        store.mark_section_read("n0-l1", "ridge")
    faulty.armed = None
    assert store.sections_read() == {("n0-l1", "roofline")}
    store.mark_section_read("n0-l1", "ridge")
    assert len(store.sections_read()) == 2


def test_corruption_met_while_open_never_moves_the_live_file(tmp_path: Path, faulty: type[Faulty]) -> None:
    store = healthy(tmp_path / "p.sqlite3")
    faulty.armed, faulty.pattern = "corrupt", r"FROM sections_read"
    with pytest.raises(StoreCorrupt):
        store.sections_read()
    assert leftovers(tmp_path) == [] and (tmp_path / "p.sqlite3").exists()


class ReadOnly(sqlite3.Connection):
    """Opens the file the way a read-only mount or file would let SQLite open it."""

    def __init__(self, database: Any, *args: Any, **kwargs: Any) -> None:
        kwargs["uri"] = True
        super().__init__(f"file:{database}?mode=ro", *args, **kwargs)


def test_a_read_only_database_opens_and_refuses_writes_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "p.sqlite3"
    healthy(path).close()
    monkeypatch.setattr(ProgressStore, "connection_factory", ReadOnly)
    store = ProgressStore(path)
    assert store.sections_read() == {("n0-l1", "roofline")}
    with pytest.raises(StoreReadOnly, match="cannot be written"):
        store.mark_section_read("n0-l1", "ridge")
    assert leftovers(tmp_path) == []


def test_a_read_only_empty_folder_is_not_corruption(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ProgressStore, "connection_factory", ReadOnly)
    with pytest.raises(StoreCannotOpen, match="cannot open the progress store"):
        ProgressStore(tmp_path / "p.sqlite3")
    assert leftovers(tmp_path) == []


def test_a_folder_where_the_database_should_be_is_cannot_open(tmp_path: Path) -> None:
    (tmp_path / "p.sqlite3").mkdir()
    with pytest.raises(StoreCannotOpen, match="it is a folder, not a file"):
        ProgressStore(tmp_path / "p.sqlite3")
    assert (tmp_path / "p.sqlite3").is_dir() and leftovers(tmp_path) == []


def test_a_corrupt_header_is_moved_aside_recorded_and_announced(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    heard: list[StoreOpenReport] = []
    remove = on_recovery(heard.append)
    try:
        store = ProgressStore(path)
    finally:
        remove()
    moved = store.open_report.recovered_from_corrupt
    assert moved is not None and moved.exists() and [r.recovered_from_corrupt for r in heard] == [moved]
    (recovery,) = store.recoveries()
    assert recovery.backup_path == str(moved) and recovery.acknowledged_at is None
    store.close()
    # the next start still shows it, until acknowledged
    again = ProgressStore(path)
    assert again.open_report.recovered_from_corrupt is None
    assert [str(moved) in line for line in recovery_notices(again, "en")] == [True]
    assert again.acknowledge_recoveries() == 1
    assert recovery_notices(again, "en") == [] and len(again.recoveries(include_acknowledged=True)) == 1


def test_headless_commands_announce_a_recovery_on_stderr(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (data_dir / "progress.sqlite3").write_bytes(b"not a database at all" * 50)
    assert main(["progress", "--lang", "en"]) == 0
    captured = capsys.readouterr()
    assert "progress database was corrupt" in captured.err and ".corrupt-" in captured.err
    assert captured.err.count("\n") == 1
    # `tutor progress` keeps showing it (stdout) until acknowledged
    assert main(["progress", "--lang", "en"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "progress database was corrupt" in captured.out
    report = json.loads(_stdout(capsys, ["progress", "--json"]))
    assert len(report["store"]["recoveries"]) == 1
    assert main(["progress", "acknowledge", "--lang", "en"]) == 0
    assert "acknowledged 1" in capsys.readouterr().out
    assert main(["progress", "--lang", "en"]) == 0
    assert "corrupt" not in capsys.readouterr().out


def _stdout(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def test_a_newer_schema_is_one_line_and_a_non_zero_exit(
    stores: Stores, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    set_schema_version(stores, SCHEMA_VERSION + 3)
    with pytest.raises(StoreNewerSchema):
        stores.open()
    monkeypatch.setenv("TUTOR_STORE", stores.spec())
    assert main(["progress", "--lang", "en"]) == 2  # a store's error speaks the reader's language
    err = capsys.readouterr().err
    assert err.startswith("tutor: error:") and "newer GPU Tutor" in err and err.count("\n") == 1


def test_a_full_disk_is_one_line_in_a_headless_command(
    data_dir: Path, faulty: type[Faulty], capsys: pytest.CaptureFixture[str]
) -> None:
    healthy(data_dir / "progress.sqlite3").close()
    faulty.armed, faulty.pattern = "full", r"DELETE FROM"
    assert main(["progress", "reset", "--all", "--yes", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "disk holding" in err and err.count("\n") == 1 and "Traceback" not in err
    assert leftovers(data_dir) == []


@pytest.mark.parametrize("what", ["file", "parent-file"])
def test_a_data_dir_that_is_a_file_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str
) -> None:
    target = tmp_path / "not-a-folder"
    target.write_text("x")
    data = target if what == "file" else target / "inside"
    assert main(["progress", "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tutor: error: the data folder") and err.count("\n") == 1
    assert target.read_text() == "x"


def test_values_out_of_range_are_refused_by_the_store(stores: Stores) -> None:
    store = stores.open()
    for confidence in (1.5, -0.1, float("inf"), float("nan")):
        with pytest.raises(StoreWriteError):
            store.lock_prediction(exercise_id="e", lesson_id="l", prediction={}, confidence=confidence)
    attempt = store.lock_prediction(exercise_id="e", lesson_id="l", prediction={}, confidence=0.5)
    with pytest.raises(StoreRejected):
        store.record_grade(attempt, measurement={}, truth={}, verdict="right", score=float("inf"))
    with pytest.raises(StoreRejected), store.transaction() as conn:
        conn.execute("UPDATE attempts SET created_at = 1e300")
    with pytest.raises(StoreRejected), store.transaction() as conn:  # text where a number belongs
        conn.execute("UPDATE attempts SET score = 'high'")
    assert [a.state for a in store.attempts()] == ["locked"]


def _schema_1_store(path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[0].split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    rows = [
        ("good", 0.8, 0.9, 1_700_000_000.0),
        ("nan-ish", 0.8, "abc", 1_700_000_001.0),
        ("confidence", 1.5, 0.5, 1_700_000_002.0),
        ("far-future", 0.5, 0.5, 1e300),
        ("infinite", 0.5, float("inf"), 1_700_000_003.0),
    ]
    for ex, conf, score, at in rows:
        conn.execute(
            "INSERT INTO attempts (exercise_id, lesson_id, prediction, confidence, state, score, created_at)"
            " VALUES (?, 'l', '{}', ?, 'graded', ?, ?)", (ex, conf, score, at))
    conn.execute("INSERT INTO lab_runs (lab_id, lesson_id, result, created_at) VALUES ('lab', 'l', '{}', 1.0)")
    conn.execute("INSERT INTO notebook_entries (lab_run_id, lab_id, entry, created_at, updated_at)"
                 " VALUES (1, 'lab', '{}', 1.0, 1.0)")
    conn.close()


def test_upgrading_keeps_odd_rows_aside_and_reports_never_crash(tmp_path: Path) -> None:
    from tutor.content import load_course
    from tutor.paths import bundled_course
    from tutor.progress.report import progress_report

    path = tmp_path / "p.sqlite3"
    _schema_1_store(path)
    store = ProgressStore(path)
    assert store.schema_version == SCHEMA_VERSION
    assert [a.exercise_id for a in store.attempts()] == ["good"]
    kept = {json.loads(r.row)["exercise_id"] for r in store.quarantined_rows()}
    assert kept == {"'nan-ish'", "'confidence'", "'far-future'", "'infinite'"}
    assert store.notebook_entries()[0].lab_run_id == store.lab_runs()[0].id  # the FK survived the rebuild
    report = progress_report(load_course(bundled_course()), store)
    assert report.store.quarantined_rows == 4 and report.counts.attempts == 1


RACER = """
import sys, time
from tutor.progress.engines import open_store
go = float(sys.argv[2])
while time.time() < go:
    time.sleep(0.001)
store = open_store(sys.argv[1])
store.lock_prediction(exercise_id=sys.argv[3], lesson_id="l", prediction={"value": 1.0}, confidence=0.5)
print(store.open_report.recovered_from_corrupt)
"""


@pytest.mark.parametrize("trial", range(4))
def test_two_first_runs_on_an_empty_data_dir_are_safe(stores: Stores, tmp_path: Path, trial: int) -> None:
    spec = stores.spec("progress")
    go = time.time() + 1.0
    procs = [subprocess.Popen([sys.executable, "-c", RACER, spec, str(go), f"ex{i}"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(2)]
    results = [p.communicate(timeout=60) for p in procs]
    for proc, (out, err) in zip(procs, results, strict=True):
        assert proc.returncode == 0, err
        assert out.strip() == "None"
    assert leftovers(tmp_path) == []
    store = stores.open("progress")
    assert sorted(a.exercise_id for a in store.attempts()) == ["ex0", "ex1"]
    assert store.recoveries(include_acknowledged=True) == []


async def test_the_tui_shows_an_unacknowledged_recovery_as_plain_text(tmp_path: Path) -> None:
    from tutor.content import load_course
    from tutor.ui.app import make_app

    path = tmp_path / "[b]progress[red].sqlite3"  # markup in the path must show as text
    path.write_bytes(b"garbage, not a database" * 64)
    ProgressStore(path).close()  # a headless command recovered it earlier
    store = ProgressStore(path)
    course = load_course(Path(__file__).parent / "fixtures" / "course")
    app = make_app(course=course, store=store, lang="en", telemetry="host")
    async with app.run_test(size=(150, 44)) as pilot:
        await pilot.pause()
        shown = [str(n.message) for n in app._notifications]
        assert not any(n.markup for n in app._notifications)
    assert len(shown) == 1 and "[b]progress[red].sqlite3.corrupt-" in shown[0] and "acknowledge" in shown[0]
    store.acknowledge_recoveries()
    app = make_app(course=course, store=store, lang="en", telemetry="host")
    async with app.run_test(size=(150, 44)) as pilot:
        await pilot.pause()
        assert not any("corrupt" in str(n.message) for n in app._notifications)


# -- PostgreSQL's own faults: a server that is not there, a wrong password, a connection the server dropped --------


def test_an_unreachable_server_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql://someone:secret@127.0.0.1:{port}/tutor?connect_timeout=3"
    with pytest.raises(StoreUnreachable) as caught:
        from tutor.progress.postgres import PostgresStore

        PostgresStore(url)
    assert isinstance(caught.value, StoreWriteError) and "secret" not in str(caught.value)
    monkeypatch.setenv("TUTOR_STORE", url)  # a password on the command line would add a warning (ps shows it)
    assert main(["progress", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tutor: error: the progress server postgresql://someone@127.0.0.1") and err.count("\n") == 1
    assert "secret" not in err and "Traceback" not in err


def test_a_wrong_password_is_refused_in_one_line(pg_admin_dsn: str) -> None:
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    from tutor.progress.postgres import PostgresStore

    with psycopg.connect(pg_admin_dsn, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS tutor_test_pw")
        conn.execute("CREATE ROLE tutor_test_pw LOGIN PASSWORD 'right-token'")
        port = conninfo_to_dict(pg_admin_dsn).get("port") or 5432
    try:
        with pytest.raises(StoreDenied, match="password authentication failed") as caught:
            PostgresStore(f"postgresql://tutor_test_pw:wrong-token@127.0.0.1:{port}/postgres")
        assert "\n" not in str(caught.value) and "wrong-token" not in str(caught.value)
    finally:
        with psycopg.connect(pg_admin_dsn, autocommit=True) as conn:
            conn.execute("DROP ROLE IF EXISTS tutor_test_pw")


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_a_dropped_connection_is_a_write_error_and_the_retry_works(stores: Stores) -> None:
    store = stores.open()
    store.mark_section_read("n0-l1", "roofline")
    with stores.admin() as admin:  # the server restarts, or an administrator ends the session
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'gpu-tutor'"
                      " AND pid <> pg_backend_pid()")
    with pytest.raises(StoreWriteError) as caught:
        store.lock_prediction(exercise_id="e", lesson_id="l", prediction={"value": 1.0}, confidence=0.8)
    assert "\n" not in str(caught.value)
    store.lock_prediction(exercise_id="e", lesson_id="l", prediction={"value": 1.0}, confidence=0.8)
    assert len(store.attempts()) == 1 and store.sections_read() == {("n0-l1", "roofline")}
