"""The progress store: SQLite in WAL mode, every write in one transaction, a schema version with migrations.

Only a database whose bytes are damaged (``SQLITE_CORRUPT``/``SQLITE_NOTADB``, a failed ``quick_check``) is moved
aside with a timestamp and a fresh one started; the recovery is recorded in the new store (``store_recoveries``)
so every later start can say where the old file went until the learner acknowledges it. Any other failure — locked,
disk full, read-only, an I/O error, a file that cannot be opened — is a :class:`StoreError` subclass with one line
naming the cause (see :mod:`tutor.progress.store_errors`), and the file stays where it is.

Opening is serialised between processes (an advisory lock beside the database, then ``BEGIN IMMEDIATE`` and a busy
timeout for the migrations), so two first runs on an empty data dir cannot race.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from tutor import paths
from tutor.progress.lease import MeasurementLease, local_lease
from tutor.progress.place import Place
from tutor.progress.rows import (
    Attempt,
    BenchRun,
    DoctorRun,
    LabPrediction,
    LabResult,
    LabRun,
    NotebookEntry,
    QuarantinedRow,
    StoredEntry,
    StoreRecovery,
)
from tutor.progress.schema import COLUMNS, MAX_TIMESTAMP, ROW_RULES, TABLES, sqlite_migrations
from tutor.progress.store_errors import (
    StoreBusy,
    StoreCannotOpen,
    StoreCorrupt,
    StoreError,
    StoreFull,
    StoreIOError,
    StoreNewerSchema,
    StoreNoSuchRow,
    StoreReadOnly,
    StoreRejected,
    StoreWriteError,
    classify,
    from_os_error,
    is_corruption,
)
from tutor.results import BenchReport
from tutor.results.wire import JsonObject

__all__ = [
    "COLUMNS", "MAX_TIMESTAMP", "MIGRATIONS", "ROW_RULES", "SCHEMA_VERSION", "TABLES", "ProgressStore",
    "StoreBase", "StoreBusy", "StoreCannotOpen", "StoreCorrupt",
    "StoreError", "StoreFull", "StoreIOError", "StoreNewerSchema", "StoreOpenReport", "StoreReadOnly",
    "StoreRejected", "StoreWriteError", "on_recovery",
]

# The tables, columns, value rules and migrations are described once in tutor.progress.schema (both engines).
# Each migration goes from version i to i + 1. Never change a released step; append a new one.
MIGRATIONS: tuple[str, ...] = sqlite_migrations()
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass(frozen=True)
class StoreOpenReport:
    """What happened when the store was opened: where a corrupt file was moved, if it was."""

    path: Path | str
    recovered_from_corrupt: Path | None = None
    reason: str | None = None


_recovery_listeners: list[Callable[[StoreOpenReport], None]] = []


def on_recovery(listener: Callable[[StoreOpenReport], None]) -> Callable[[], None]:
    """Call ``listener`` whenever a store in this process moves a corrupt file aside (the CLI announces it on
    stderr). Returns a function that removes the listener."""
    if listener not in _recovery_listeners:
        _recovery_listeners.append(listener)

    def remove() -> None:
        with suppress(ValueError):
            _recovery_listeners.remove(listener)

    return remove


class _IntegrityFailed(sqlite3.DatabaseError):
    """``quick_check`` did not answer ``ok``: the file is damaged even though SQLite could read its header."""


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


IMPORT_LOCK_KEY = 0x7469
"""The first key of an import's advisory lock on PostgreSQL ("ti"), beside the lease's "tu" and the migration's "tv"."""


class StoreBase:
    """The one store interface: every read and write of a learner's progress, in SQL both engines speak.

    An engine (:class:`ProgressStore` for the embedded SQLite file, :class:`~tutor.progress.postgres.PostgresStore`
    for a class's PostgreSQL) provides the connection: ``transaction()`` (one write transaction whose ``execute``
    takes ``?`` placeholders), ``_query`` (a read), ``close()`` and ``schema_version``. Rows come back as mappings
    that also index by position. Every method raises :class:`StoreError`, never a driver's exception.
    """

    #: "sqlite" or "postgresql".
    engine: ClassVar[str] = "sqlite"
    path: Any
    open_report: StoreOpenReport

    def transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    @property
    def schema_version(self) -> int:
        raise NotImplementedError

    @property
    def learner(self) -> str | None:
        """The learner whose rows this store reads and writes (the database role in a class; None alone)."""
        return None

    @property
    def shared(self) -> bool:
        """True when several learners share this store (and its devices): measurements then take the lease."""
        return False

    def lease(self, device: str, *, on_queue: Callable[[int], None] | None = None,
              cancelled: Callable[[], bool] | None = None) -> AbstractContextManager[MeasurementLease]:
        """Hold ``device`` for one measurement. Alone (SQLite) nothing waits: the lease only records the interval."""
        return local_lease(device)

    def _changed_one(self, cur: Any, what: str, row_id: int) -> None:
        """An update by id must change that row: none changed means it is not this learner's (row-level security
        hides another's rows) or no longer exists — refused, in one line, rather than silently ignored."""
        if int(cur.rowcount) < 1:
            raise StoreNoSuchRow(path=self.path, what=what, id=row_id)

    def device_holder(self, device: str) -> str | None:
        """Who holds ``device``'s lease now (another learner measuring), or None. Alone nobody ever does."""
        return None

    @staticmethod
    def _insert_id(conn: Any, sql: str, params: tuple[Any, ...]) -> int:
        row = conn.execute(sql + " RETURNING id", params).fetchone()
        return int(row[0])


    # -- recoveries (a corrupt file moved aside) and quarantined rows --------------------------------------------

    def recoveries(self, *, include_acknowledged: bool = False) -> list[StoreRecovery]:
        """Corrupt files this store replaced (not yet acknowledged, unless ``include_acknowledged``)."""
        where = "" if include_acknowledged else " WHERE acknowledged_at IS NULL"
        return [StoreRecovery.from_row(r) for r in self._query(f"SELECT * FROM store_recoveries{where} ORDER BY id")]

    def acknowledge_recoveries(self) -> int:
        """Mark every recovery as seen (the notices stop); returns how many were marked."""
        with self.transaction() as conn:
            cur = conn.execute("UPDATE store_recoveries SET acknowledged_at = ? WHERE acknowledged_at IS NULL",
                               (time.time(),))
            return int(cur.rowcount)

    def quarantined_rows(self) -> list[QuarantinedRow]:
        """Rows an upgrade found out of range (kept as JSON, left out of every report)."""
        return [QuarantinedRow.from_row(r) for r in self._query("SELECT * FROM quarantined_rows ORDER BY id")]

    # -- sections read ----------------------------------------------------------------------------------------

    def mark_section_read(self, lesson_id: str, section_id: str) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO sections_read (lesson_id, section_id, read_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (lesson_id, section_id, time.time()),
            )

    def sections_read(self, lesson_id: str | None = None) -> set[tuple[str, str]]:
        if lesson_id is None:
            rows = self._query("SELECT lesson_id, section_id FROM sections_read")
        else:
            rows = self._query("SELECT lesson_id, section_id FROM sections_read WHERE lesson_id = ?", (lesson_id,))
        return {(r["lesson_id"], r["section_id"]) for r in rows}

    # -- the learner's last place (schema 3) -------------------------------------------------------------------

    def save_place(self, place: Place | None) -> None:
        """Remember where the learner is (None: on the map, so the next start opens there)."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM places WHERE slot = ?", ("last",))
            if place is not None:
                conn.execute(
                    'INSERT INTO places (slot, kind, lesson_id, item_id, "pass", saved_at) VALUES (?, ?, ?, ?, ?, ?)',
                    ("last", place.kind, place.lesson_id, place.item_id, place.pass_number, time.time()),
                )

    def last_place(self) -> Place | None:
        """Where the learner was when the app last showed a lesson, an exercise or a lab (None: the map)."""
        rows = self._query('SELECT kind, lesson_id, item_id, "pass" FROM places WHERE slot = ?', ("last",))
        return Place.from_row(rows[0]) if rows else None

    # -- attempts ---------------------------------------------------------------------------------------------

    def lock_prediction(
        self,
        *,
        exercise_id: str,
        lesson_id: str,
        prediction: Any,
        confidence: float,
        hints_used: int = 0,
        pass_number: int = 1,
        fingerprint: str | None = None,
    ) -> int:
        """Store a prediction before anything is measured; returns the attempt id."""
        with self.transaction() as conn:
            cur_id = self._insert_id(
                conn,
                "INSERT INTO attempts (exercise_id, lesson_id, pass, prediction, confidence, hints_used, state,"
                " fingerprint, created_at) VALUES (?, ?, ?, ?, ?, ?, 'locked', ?, ?)",
                (
                    exercise_id,
                    lesson_id,
                    pass_number,
                    _dumps(prediction),
                    confidence,
                    hints_used,
                    fingerprint,
                    time.time(),
                ),
            )
            return cur_id

    def record_grade(
        self,
        attempt_id: int,
        *,
        measurement: Any,
        truth: Any,
        verdict: str,
        score: float | None,
        fingerprint: str | None = None,
    ) -> None:
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE attempts SET state = 'graded', measurement = ?, truth = ?, verdict = ?, score = ?,"
                " fingerprint = COALESCE(?, fingerprint), graded_at = ? WHERE id = ?",
                (_dumps(measurement), _dumps(truth), verdict, score, fingerprint, time.time(), attempt_id),
            )
            self._changed_one(cur, "attempt", attempt_id)

    def record_failure(self, attempt_id: int, *, state: str, reason: str) -> None:
        """A locked attempt whose measurement failed or was cancelled keeps its prediction and says why."""
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE attempts SET state = ?, measurement = ?, graded_at = ? WHERE id = ?",
                (state, _dumps({"error": reason}), time.time(), attempt_id),
            )
            self._changed_one(cur, "attempt", attempt_id)

    def attempts(self, exercise_id: str | None = None) -> list[Attempt]:
        """The attempts (of one exercise, or all), in id order, each read once into an :class:`Attempt`."""
        sql = "SELECT * FROM attempts"
        params: tuple[Any, ...] = ()
        if exercise_id is not None:
            sql += " WHERE exercise_id = ?"
            params = (exercise_id,)
        return [Attempt.from_row(r) for r in self._query(sql + " ORDER BY id", params)]

    # -- labs and the notebook --------------------------------------------------------------------------------

    def record_lab_run(self, *, lab_id: str, lesson_id: str, result: LabResult,
                       prediction: LabPrediction | None = None) -> int:
        """Store one lab run: its typed result (as JSON, read back by :meth:`lab_runs`), the prediction locked
        before it ran, and the device fingerprint the result names."""
        with self.transaction() as conn:
            cur_id = self._insert_id(
                conn,
                "INSERT INTO lab_runs (lab_id, lesson_id, fingerprint, prediction, result, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (lab_id, lesson_id, result.fingerprint, _dumps(prediction.to_json() if prediction else None),
                 _dumps(result.to_json()), time.time()),
            )
            return cur_id

    def lab_runs(self, lab_id: str | None = None) -> list[LabRun]:
        """The lab runs (of one lab, or all), in id order, each read once into a :class:`LabRun`."""
        sql = "SELECT * FROM lab_runs"
        params: tuple[Any, ...] = ()
        if lab_id is not None:
            sql, params = sql + " WHERE lab_id = ?", (lab_id,)
        return [LabRun.from_row(r) for r in self._query(sql + " ORDER BY id", params)]

    def save_notebook_entry(self, entry: NotebookEntry, *, entry_id: int | None = None) -> int:
        """Write ``entry`` (a new row linked to its lab run when ``entry_id`` is None, else that row's entry);
        returns its id."""
        now = time.time()
        with self.transaction() as conn:
            if entry_id is None:
                cur_id = self._insert_id(
                    conn,
                    "INSERT INTO notebook_entries (lab_run_id, lab_id, entry, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (entry.lab_run_id, entry.lab_id, _dumps(entry.to_dict()), now, now),
                )
                return cur_id
            cur = conn.execute(
                "UPDATE notebook_entries SET entry = ?, updated_at = ? WHERE id = ?",
                (_dumps(entry.to_dict()), now, entry_id),
            )
            self._changed_one(cur, "notebook entry", entry_id)
            return entry_id

    def notebook_entries(self) -> list[StoredEntry]:
        """The notebook entries in id order, each read once into a :class:`StoredEntry`."""
        return [StoredEntry.from_row(r) for r in self._query("SELECT * FROM notebook_entries ORDER BY id")]

    # -- bench and doctor runs --------------------------------------------------------------------------------

    def record_bench_run(self, report: BenchReport) -> int:
        """Store one bench report (C0 evidence) under its device's fingerprint and kind."""
        with self.transaction() as conn:
            cur_id = self._insert_id(
                conn,
                "INSERT INTO bench_runs (fingerprint, device_kind, report, created_at) VALUES (?, ?, ?, ?)",
                (report.fingerprint, report.device.kind, _dumps(report.to_json()), time.time()),
            )
            return cur_id

    def bench_runs(self, fingerprint: str | None = None) -> list[BenchRun]:
        """The bench runs (on one fingerprint, or all) in id order, each read once into a :class:`BenchRun`."""
        sql = "SELECT * FROM bench_runs"
        params: tuple[Any, ...] = ()
        if fingerprint is not None:
            sql, params = sql + " WHERE fingerprint = ?", (fingerprint,)
        return [BenchRun.from_row(r) for r in self._query(sql + " ORDER BY id", params)]

    def record_doctor_run(self, *, passed: bool, report: JsonObject, lock_matches: bool | None = None) -> int:
        with self.transaction() as conn:
            cur_id = self._insert_id(
                conn,
                "INSERT INTO doctor_runs (passed, lock_matches, report, created_at) VALUES (?, ?, ?, ?)",
                (int(passed), None if lock_matches is None else int(lock_matches), _dumps(report), time.time()),
            )
            return cur_id

    def doctor_runs(self) -> list[DoctorRun]:
        """The doctor runs in id order, each read once into a :class:`DoctorRun`."""
        return [DoctorRun.from_row(r) for r in self._query("SELECT * FROM doctor_runs ORDER BY id")]

    # -- hints, resets and whole-store access (the progress screen, reset and export/import) ----------------

    def record_hints(self, attempt_id: int, hints_used: int) -> None:
        """Hints opened after the prediction was locked still count against the attempt (never decreases)."""
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE attempts SET hints_used = CASE WHEN hints_used > ? THEN hints_used ELSE ? END WHERE id = ?",
                (int(hints_used), int(hints_used), attempt_id),
            )
            self._changed_one(cur, "attempt", attempt_id)

    def attempt(self, attempt_id: int) -> Attempt | None:
        rows = self._query("SELECT * FROM attempts WHERE id = ?", (attempt_id,))
        return Attempt.from_row(rows[0]) if rows else None

    def reset_counts(self, *, exercise_id: str | None = None, lesson_id: str | None = None) -> dict[str, int]:
        """How many rows :meth:`reset` would delete with the same arguments (for the confirmation)."""
        return {table: int(self._query(f"SELECT COUNT(*) FROM {table}{where}", params)[0][0])
                for table, where, params in self._reset_targets(exercise_id, lesson_id)}

    def reset(self, *, exercise_id: str | None = None, lesson_id: str | None = None) -> dict[str, int]:
        """Delete one exercise's attempts, one lesson's progress (attempts, sections read, lab runs), or —
        with neither argument — everything in the store. One transaction; returns the rows deleted per table."""
        deleted: dict[str, int] = {}
        with self.transaction() as conn:
            for table, where, params in self._reset_targets(exercise_id, lesson_id):
                deleted[table] = int(conn.execute(f"DELETE FROM {table}{where}", params).rowcount)
        return deleted

    @staticmethod
    def _reset_targets(exercise_id: str | None, lesson_id: str | None) -> list[tuple[str, str, tuple[Any, ...]]]:
        if exercise_id is not None:
            return [("attempts", " WHERE exercise_id = ?", (exercise_id,))]
        if lesson_id is not None:
            return [(t, " WHERE lesson_id = ?", (lesson_id,)) for t in ("attempts", "sections_read", "lab_runs")]
        return [(t, "", ()) for t in TABLES]

    def rows(self, table: str) -> list[JsonObject]:
        """Every row of ``table`` as stored (JSON columns still as text), in id order, for export."""
        if table not in TABLES:
            raise StoreError(f"unknown table {table!r}")
        order = "read_at" if table == "sections_read" else "id"
        cols = ", ".join(f'"{c}"' for c in COLUMNS[table])
        return [dict(r) for r in self._query(f"SELECT {cols} FROM {table} ORDER BY {order}")]

    def is_empty(self) -> bool:
        return all(int(self._query(f"SELECT COUNT(*) FROM {t}")[0][0]) == 0 for t in TABLES)

    @contextmanager
    def import_transaction(self) -> Iterator[Any]:
        """The write transaction an import checks and writes in, held against every other import from its first
        statement, so that what it read (the store is empty, these rows are there) is still true when it commits.

        SQLite's transaction begins with ``BEGIN IMMEDIATE`` (the write lock, taken before anything is read);
        PostgreSQL's takes a transaction-level advisory lock on the importing role first (its rows are the ones it
        can see), and each later statement reads what the import it waited for committed (read committed)."""
        with self.transaction() as conn:
            if self.engine == "postgresql":
                conn.execute("SELECT pg_catalog.pg_advisory_xact_lock(?::integer, "
                             "pg_catalog.hashtext(current_user::text))", (IMPORT_LOCK_KEY,))
            yield conn



class ProgressStore(StoreBase):
    """The embedded engine: all reads and writes of one learner's progress in a SQLite file.

    Safe to share between threads (one connection behind a lock): Textual thread workers record results while the
    UI reads. Every method raises :class:`StoreError` (never a raw ``sqlite3`` error); a write that did not happen
    raises :class:`StoreWriteError`, after which the caller may keep what it was saving and retry.
    """

    #: Seconds a write waits for another process's transaction before :class:`StoreBusy`.
    busy_timeout_s: float = 10.0
    #: The ``sqlite3.Connection`` class used (tests inject faults through a subclass).
    connection_factory: type[sqlite3.Connection] = sqlite3.Connection

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else paths.progress_db()
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise from_os_error(exc, self.path) from None
        with self._open_lock():
            self.open_report = self._open()
        if self.open_report.recovered_from_corrupt is not None:
            for listener in list(_recovery_listeners):
                listener(self.open_report)

    # -- opening, recovery and migrations ---------------------------------------------------------------------

    @contextmanager
    def _open_lock(self) -> Iterator[None]:
        """Hold an advisory lock beside the database while it is checked, moved aside or migrated, so a second
        process never judges (or moves) a file the first is still creating. Best effort: where the lock file
        cannot be made (a read-only folder), opening goes on and SQLite reports what is wrong."""
        try:
            import fcntl
        except ImportError:  # Windows: SQLite's own locking and BEGIN IMMEDIATE still serialise the migration
            yield
            return
        lock_path = self.path.with_name(self.path.name + ".open-lock")
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            yield
            return
        try:
            deadline = time.monotonic() + self.busy_timeout_s
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise StoreBusy(path=self.path, seconds=f"{self.busy_timeout_s:g}") from None
                    time.sleep(0.05)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path,
            isolation_level=None,
            check_same_thread=False,
            timeout=self.busy_timeout_s,
            factory=self.connection_factory,
        )
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_and_check(self) -> None:
        self._conn = self._connect()
        row = self._conn.execute("PRAGMA quick_check").fetchone()
        if row is None or row[0] != "ok":
            raise _IntegrityFailed(f"integrity check failed: {row[0] if row else 'no answer'}")
        self._migrate()

    def _open(self) -> StoreOpenReport:
        try:
            self._open_and_check()
            return StoreOpenReport(self.path)
        except sqlite3.Error as exc:
            self._close_quietly()
            if not (isinstance(exc, _IntegrityFailed) or is_corruption(exc)):
                raise classify(exc, self.path, self.busy_timeout_s) from None
            reason = str(exc)
        except BaseException:
            self._close_quietly()
            raise
        try:
            moved = self._move_aside()
        except OSError as exc:
            raise from_os_error(exc, self.path) from None
        try:
            self._open_and_check()
            self._record_recovery(moved, reason)
        except sqlite3.Error as exc:
            self._close_quietly()
            raise classify(exc, self.path, self.busy_timeout_s) from None
        return StoreOpenReport(self.path, recovered_from_corrupt=moved, reason=reason)

    def _close_quietly(self) -> None:
        if self._conn is not None:
            with suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    def _move_aside(self) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while target.exists():
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
            n += 1
        self.path.rename(target)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
        return target

    def _record_recovery(self, backup: Path, reason: str) -> None:
        conn = self._db()
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("INSERT INTO store_recoveries (backup_path, reason, recovered_at) VALUES (?, ?, ?)",
                         (str(backup), reason, time.time()))
        except BaseException:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _migrate(self) -> None:
        conn = self._db()
        # Foreign keys off while tables are rebuilt (a DROP would otherwise null the notebook's lab_run_id);
        # the pragma is ignored inside a transaction, so it is set before BEGIN and checked before COMMIT.
        if self._user_version(conn) >= SCHEMA_VERSION:
            self._refuse_newer(self._user_version(conn))
            return
        conn.execute("PRAGMA foreign_keys = OFF")
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                # Read again under the write lock: another process may have migrated while this one waited.
                version = self._user_version(conn)
                self._refuse_newer(version)
                for step in range(version, SCHEMA_VERSION):
                    for statement in _split_sql(MIGRATIONS[step]):
                        conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {step + 1}")
                broken = conn.execute("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise sqlite3.IntegrityError(f"foreign keys broken by the migration: {len(broken)} rows")
            except BaseException:
                if conn.in_transaction:
                    with suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            with suppress(sqlite3.Error):
                conn.execute("PRAGMA foreign_keys = ON")

    @staticmethod
    def _user_version(conn: sqlite3.Connection) -> int:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])

    def _refuse_newer(self, version: int) -> None:
        if version > SCHEMA_VERSION:
            raise StoreNewerSchema(path=self.path, found=version, known=SCHEMA_VERSION)

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(path=self.path, detail="the store is closed")
        return self._conn

    @property
    def schema_version(self) -> int:
        with self._lock, self._errors():
            return self._user_version(self._db())

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn any ``sqlite3`` error into the :class:`StoreError` that names its cause (corruption met while open
        is :class:`StoreCorrupt`: the live file is never moved under a running program)."""
        try:
            yield
        except sqlite3.Error as exc:
            raise classify(exc, self.path, self.busy_timeout_s) from exc

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything inside lands together or not at all.

        Raises :class:`StoreWriteError` (disk full, read-only, busy, I/O error, a refused value) when it could not
        be written; nothing of it is then stored.
        """
        with self._lock, self._errors():
            conn = self._db()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                # SQLite may already have rolled back (e.g. after SQLITE_FULL); a second ROLLBACK would raise.
                if conn.in_transaction:
                    with suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise
            try:
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    with suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock, self._errors():
            return list(self._db().execute(sql, params).fetchall())

    def close(self) -> None:
        with self._lock:
            self._close_quietly()

def _split_sql(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
