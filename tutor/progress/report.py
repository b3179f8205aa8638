"""The progress report: C0 with evidence, per-lesson status, calibration and recent history.

``tutor progress`` prints it and the progress screen shows it: one function, so both say the same.
:meth:`ProgressReport.to_json` is ``tutor progress --json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tutor.grading.calibration import Calibration
from tutor.i18n import N_
from tutor.i18n.message import Message
from tutor.progress.c0 import Checkpoint
from tutor.progress.passes import LessonStatus
from tutor.progress.rows import Attempt, LabRun, StoreRecovery
from tutor.results.wire import JsonObject


@dataclass(frozen=True)
class StoreNotices:
    """Corrupt files moved aside and not yet acknowledged, and how many rows an upgrade kept aside."""

    recoveries: tuple[StoreRecovery, ...] = ()
    quarantined_rows: int = 0

    def to_json(self) -> JsonObject:
        return {"recoveries": [{"backup": r.backup_path, "at": r.recovered_at, "reason": r.reason}
                               for r in self.recoveries],
                "quarantined_rows": self.quarantined_rows}


@dataclass(frozen=True)
class DamagedRow:
    """A stored row whose measurement, truth or result could not be read (left out of the report): which row, the
    field (``where``, without the row's own ``attempt #12`` prefix) and why (``what``; ``what_said`` its catalog
    message)."""

    kind: str
    """``attempt`` or ``lab_run``."""
    id: int
    label: str
    where: str
    what: str
    what_said: Message | None = None

    def to_json(self) -> JsonObject:
        return {"kind": self.kind, "id": self.id, "label": self.label, "where": self.where, "what": self.what,
                "what_said": self.what_said.as_dict() if self.what_said is not None else None}


@dataclass(frozen=True)
class StoredCounts:
    """How many rows of each kind the store holds."""

    attempts: int
    bench_runs: int
    doctor_runs: int
    lab_runs: int

    def to_json(self) -> JsonObject:
        return {"attempts": self.attempts, "bench_runs": self.bench_runs, "doctor_runs": self.doctor_runs,
                "lab_runs": self.lab_runs}


@dataclass(frozen=True)
class ProgressReport:
    """Everything ``tutor progress`` says: the store's notices, C0, each lesson, the calibration, the latest
    attempts (newest first), the rows that could not be read, and the counts."""

    store: StoreNotices
    c0: Checkpoint
    lessons: tuple[LessonStatus, ...]
    calibration: Calibration
    history: tuple[Attempt, ...]
    damaged: tuple[DamagedRow, ...]
    counts: StoredCounts

    def to_json(self) -> JsonObject:
        return {
            "store": self.store.to_json(),
            "c0": self.c0.to_json(),
            "lessons": [s.to_json() for s in self.lessons],
            "calibration": self.calibration.to_json(),
            "history": [history_json(a) for a in self.history],
            "damaged": [d.to_json() for d in self.damaged],
            "counts": self.counts.to_json(),
        }


def history_json(a: Attempt) -> JsonObject:
    """One attempt as the report's history lists it."""
    from tutor.progress.c0 import when

    device = a.device
    return {
        "id": a.id, "exercise": a.exercise_id, "lesson": a.lesson_id, "pass": a.pass_number,
        "state": a.state, "verdict": a.verdict, "score": a.score, "confidence": a.confidence,
        "hints_used": a.hints_used, "prediction": a.prediction.to_json(), "at": a.created_at,
        "at_text": when(a.created_at), "device": device.name if device is not None else None, "error": a.error,
    }


def store_notices(store: Any) -> StoreNotices:
    """Corrupt files moved aside and not yet acknowledged, and rows an upgrade kept aside (out of range)."""
    recoveries = store.recoveries() if hasattr(store, "recoveries") else []
    quarantined = store.quarantined_rows() if hasattr(store, "quarantined_rows") else []
    return StoreNotices(tuple(recoveries), len(quarantined))


def recovery_notices(store: Any, lang: Any) -> list[str]:
    """One line per unacknowledged recovery, for the TUI's start-up notice (plain text, control characters out)."""
    import time

    from tutor.i18n import t
    from tutor.progress.store_errors import StoreError
    from tutor.untrusted import clean_line

    try:
        recoveries: list[StoreRecovery] = store.recoveries() if hasattr(store, "recoveries") else []
    except StoreError:  # a store that cannot even list them must not stop the TUI from starting
        return []
    return [t("store.recovered", lang, backup=clean_line(r.backup_path),
              at=time.strftime("%Y-%m-%d %H:%M", time.localtime(r.recovered_at))).removeprefix("tutor: ")
            for r in recoveries]


def damaged_rows(attempts: Sequence[Attempt], lab_runs: Sequence[LabRun]) -> tuple[DamagedRow, ...]:
    """The stored rows whose measurement, truth or result could not be read (each left out of the report, its
    located error kept by :mod:`tutor.progress.rows`)."""
    found = []
    rows: Sequence[Attempt | LabRun]
    for kind, rows in (("attempt", attempts), ("lab_run", lab_runs)):
        for row in rows:
            if not row.damaged:
                continue
            where, _, what = str(row.damaged).partition(": ")
            for prefix in (f"attempt #{row.id} ", f"lab run #{row.id} "):
                where = where.removeprefix(prefix)
            label = row.exercise_id if isinstance(row, Attempt) else row.lab_id
            found.append(DamagedRow(kind, row.id, label, where, what, row.damaged_said))
    return tuple(found)


def damaged_lines(damaged: Sequence[DamagedRow], lang: Any) -> list[str]:
    """One line per damaged row, in ``lang`` (``tutor progress`` and the progress screen say the same): which row,
    the field that did not read and why, control characters removed."""
    from tutor.i18n import t
    from tutor.untrusted import clean_line

    lines = []
    for row in damaged:
        key = N_("progress.damaged.lab_run") if row.kind == "lab_run" else N_("progress.damaged.attempt")
        what = row.what_said.render(lang) if row.what_said is not None else row.what
        lines.append(t(key, lang, id=clean_line(str(row.id)), label=clean_line(row.label)[:80],
                       where=clean_line(row.where)[:120], what=clean_line(what)[:160]))
    return lines


def progress_report(course: Any, store: Any, env_matches: bool | None = None, history: int = 20) -> ProgressReport:
    """Everything ``tutor progress`` says (the progress screen shows the same)."""
    from tutor.progress.c0 import evaluate_store
    from tutor.progress.calibration import calibration_of
    from tutor.progress.passes import lesson_statuses

    attempts = store.attempts()
    lab_runs = store.lab_runs()
    checkpoint = evaluate_store(course, store, env_matches)
    lessons = lesson_statuses(course, attempts, store.sections_read())
    return ProgressReport(
        store=store_notices(store),
        c0=checkpoint,
        lessons=tuple(lessons),
        calibration=calibration_of(attempts),
        history=tuple(attempts[-history:][::-1]),
        damaged=damaged_rows(attempts, lab_runs),
        counts=StoredCounts(attempts=len(attempts), bench_runs=len(store.bench_runs()),
                            doctor_runs=len(store.doctor_runs()), lab_runs=len(lab_runs)),
    )
