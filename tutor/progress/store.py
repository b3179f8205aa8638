"""The progress store: SQLite in WAL mode, every write in one transaction, a schema version with migrations.

A database that SQLite cannot read is moved aside with a timestamp and a fresh one is started; the open report
says where the old file went so the UI and the CLI can tell the learner (never a silent reset).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tutor import paths

# Each entry migrates from version i to i + 1. Never edit a released step; append a new one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE sections_read (
        lesson_id TEXT NOT NULL,
        section_id TEXT NOT NULL,
        read_at REAL NOT NULL,
        PRIMARY KEY (lesson_id, section_id)
    );
    CREATE TABLE attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        exercise_id TEXT NOT NULL,
        lesson_id TEXT NOT NULL,
        pass INTEGER NOT NULL DEFAULT 1,
        prediction TEXT NOT NULL,
        confidence REAL NOT NULL,
        hints_used INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT 'locked',
        measurement TEXT,
        truth TEXT,
        verdict TEXT,
        score REAL,
        fingerprint TEXT,
        created_at REAL NOT NULL,
        graded_at REAL
    );
    CREATE INDEX attempts_by_exercise ON attempts (exercise_id, pass);
    CREATE TABLE lab_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        lab_id TEXT NOT NULL,
        lesson_id TEXT NOT NULL,
        fingerprint TEXT,
        prediction TEXT,
        result TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE TABLE notebook_entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        lab_run_id INTEGER REFERENCES lab_runs (id) ON DELETE SET NULL,
        lab_id TEXT NOT NULL,
        entry TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE bench_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        fingerprint TEXT NOT NULL,
        device_kind TEXT NOT NULL,
        report TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE INDEX bench_by_fingerprint ON bench_runs (fingerprint, created_at);
    CREATE TABLE doctor_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        passed INTEGER NOT NULL,
        lock_matches INTEGER,
        report TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)

# Every table of the store (export/import and reset walk them in this order: referenced tables first).
TABLES: tuple[str, ...] = ("sections_read", "attempts", "lab_runs", "notebook_entries", "bench_runs", "doctor_runs")


class StoreError(Exception):
    """The progress store cannot be used (e.g. written by a newer tutor)."""


@dataclass(frozen=True)
class StoreOpenReport:
    """What happened when the store was opened: where a corrupt file was moved, if it was."""

    path: Path
    recovered_from_corrupt: Path | None = None
    reason: str | None = None


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class ProgressStore:
    """All reads and writes of the learner's progress.

    Safe to share between threads (one connection behind a lock): Textual thread workers record results while the
    UI reads.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else paths.progress_db()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self.open_report = self._open()

    # -- opening, recovery and migrations ---------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    def _open(self) -> StoreOpenReport:
        try:
            self._conn = self._connect()
            self._check_integrity()
            self._migrate()
            return StoreOpenReport(self.path)
        except sqlite3.DatabaseError as exc:
            moved = self._move_aside()
            self._conn = self._connect()
            self._migrate()
            return StoreOpenReport(self.path, recovered_from_corrupt=moved, reason=str(exc))

    def _check_integrity(self) -> None:
        row = self._conn.execute("PRAGMA quick_check").fetchone()
        if row is None or row[0] != "ok":
            raise sqlite3.DatabaseError(f"integrity check failed: {row[0] if row else 'no answer'}")

    def _move_aside(self) -> Path:
        conn = getattr(self, "_conn", None)
        if conn is not None:
            with suppress(sqlite3.Error):
                conn.close()
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

    def _migrate(self) -> None:
        version = int(self._conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer GPU Tutor (schema {version}, this one knows {SCHEMA_VERSION})"
            )
        for step in range(version, SCHEMA_VERSION):
            with self.transaction() as conn:
                for statement in _split_sql(MIGRATIONS[step]):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {step + 1}")

    @property
    def schema_version(self) -> int:
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything inside lands together or not at all."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return list(self._conn.execute(sql, params).fetchall())

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- sections read ----------------------------------------------------------------------------------------

    def mark_section_read(self, lesson_id: str, section_id: str) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO sections_read (lesson_id, section_id, read_at) VALUES (?, ?, ?)",
                (lesson_id, section_id, time.time()),
            )

    def sections_read(self, lesson_id: str | None = None) -> set[tuple[str, str]]:
        if lesson_id is None:
            rows = self._query("SELECT lesson_id, section_id FROM sections_read")
        else:
            rows = self._query("SELECT lesson_id, section_id FROM sections_read WHERE lesson_id = ?", (lesson_id,))
        return {(r["lesson_id"], r["section_id"]) for r in rows}

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
            cur = conn.execute(
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
            return int(cur.lastrowid or 0)

    def record_grade(
        self,
        attempt_id: int,
        *,
        measurement: Any,
        truth: Any,
        verdict: str,
        score: float,
        fingerprint: str | None = None,
    ) -> None:
        with self.transaction() as conn:
            conn.execute(
                "UPDATE attempts SET state = 'graded', measurement = ?, truth = ?, verdict = ?, score = ?,"
                " fingerprint = COALESCE(?, fingerprint), graded_at = ? WHERE id = ?",
                (_dumps(measurement), _dumps(truth), verdict, score, fingerprint, time.time(), attempt_id),
            )

    def record_failure(self, attempt_id: int, *, state: str, reason: str) -> None:
        """A locked attempt whose measurement failed or was cancelled keeps its prediction and says why."""
        with self.transaction() as conn:
            conn.execute(
                "UPDATE attempts SET state = ?, measurement = ?, graded_at = ? WHERE id = ?",
                (state, _dumps({"error": reason}), time.time(), attempt_id),
            )

    def attempts(self, exercise_id: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT * FROM attempts"
        params: tuple[Any, ...] = ()
        if exercise_id is not None:
            sql += " WHERE exercise_id = ?"
            params = (exercise_id,)
        rows = self._query(sql + " ORDER BY id", params)
        out = []
        for r in rows:
            item = dict(r)
            for key in ("prediction", "measurement", "truth"):
                item[key] = _loads(item[key])
            out.append(item)
        return out

    # -- labs and the notebook --------------------------------------------------------------------------------

    def record_lab_run(
        self, *, lab_id: str, lesson_id: str, result: Any, prediction: Any = None, fingerprint: str | None = None
    ) -> int:
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO lab_runs (lab_id, lesson_id, fingerprint, prediction, result, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (lab_id, lesson_id, fingerprint, _dumps(prediction), _dumps(result), time.time()),
            )
            return int(cur.lastrowid or 0)

    def lab_runs(self, lab_id: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT * FROM lab_runs"
        params: tuple[Any, ...] = ()
        if lab_id is not None:
            sql, params = sql + " WHERE lab_id = ?", (lab_id,)
        rows = self._query(sql + " ORDER BY id", params)
        return [{**dict(r), "prediction": _loads(r["prediction"]), "result": _loads(r["result"])} for r in rows]

    def save_notebook_entry(self, *, lab_id: str, entry: dict[str, Any], lab_run_id: int | None = None,
                            entry_id: int | None = None) -> int:
        now = time.time()
        with self.transaction() as conn:
            if entry_id is None:
                cur = conn.execute(
                    "INSERT INTO notebook_entries (lab_run_id, lab_id, entry, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (lab_run_id, lab_id, _dumps(entry), now, now),
                )
                return int(cur.lastrowid or 0)
            conn.execute(
                "UPDATE notebook_entries SET entry = ?, updated_at = ? WHERE id = ?", (_dumps(entry), now, entry_id)
            )
            return entry_id

    def notebook_entries(self) -> list[dict[str, Any]]:
        rows = self._query("SELECT * FROM notebook_entries ORDER BY id")
        return [{**dict(r), "entry": _loads(r["entry"])} for r in rows]

    # -- bench and doctor runs --------------------------------------------------------------------------------

    def record_bench_run(self, *, fingerprint: str, device_kind: str, report: dict[str, Any]) -> int:
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO bench_runs (fingerprint, device_kind, report, created_at) VALUES (?, ?, ?, ?)",
                (fingerprint, device_kind, _dumps(report), time.time()),
            )
            return int(cur.lastrowid or 0)

    def bench_runs(self, fingerprint: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT * FROM bench_runs"
        params: tuple[Any, ...] = ()
        if fingerprint is not None:
            sql, params = sql + " WHERE fingerprint = ?", (fingerprint,)
        rows = self._query(sql + " ORDER BY id", params)
        return [{**dict(r), "report": _loads(r["report"])} for r in rows]

    def record_doctor_run(self, *, passed: bool, report: dict[str, Any], lock_matches: bool | None = None) -> int:
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO doctor_runs (passed, lock_matches, report, created_at) VALUES (?, ?, ?, ?)",
                (int(passed), None if lock_matches is None else int(lock_matches), _dumps(report), time.time()),
            )
            return int(cur.lastrowid or 0)

    def doctor_runs(self) -> list[dict[str, Any]]:
        rows = self._query("SELECT * FROM doctor_runs ORDER BY id")
        return [{**dict(r), "report": _loads(r["report"])} for r in rows]

    # -- hints, resets and whole-store access (the progress screen, reset and export/import) ----------------

    def record_hints(self, attempt_id: int, hints_used: int) -> None:
        """Hints opened after the prediction was locked still count against the attempt (never decreases)."""
        with self.transaction() as conn:
            conn.execute(
                "UPDATE attempts SET hints_used = MAX(hints_used, ?) WHERE id = ?", (int(hints_used), attempt_id)
            )

    def attempt(self, attempt_id: int) -> dict[str, Any] | None:
        rows = self._query("SELECT * FROM attempts WHERE id = ?", (attempt_id,))
        if not rows:
            return None
        item = dict(rows[0])
        for key in ("prediction", "measurement", "truth"):
            item[key] = _loads(item[key])
        return item

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

    def rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of ``table`` as stored (JSON columns still as text), in id order, for export."""
        if table not in TABLES:
            raise StoreError(f"unknown table {table!r}")
        order = "read_at" if table == "sections_read" else "id"
        return [dict(r) for r in self._query(f"SELECT * FROM {table} ORDER BY {order}")]

    def is_empty(self) -> bool:
        return all(int(self._query(f"SELECT COUNT(*) FROM {t}")[0][0]) == 0 for t in TABLES)


def _split_sql(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
