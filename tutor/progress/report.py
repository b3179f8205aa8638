"""The progress report: C0 with evidence, per-lesson status, calibration and recent history (plain JSON data).

``tutor progress`` prints it and the progress screen shows it: one function, so both say the same.
"""

from __future__ import annotations

from typing import Any

from tutor.i18n import N_


def store_notices(store: Any) -> dict[str, Any]:
    """Corrupt files moved aside and not yet acknowledged, and rows an upgrade kept aside (out of range)."""
    recoveries = store.recoveries() if hasattr(store, "recoveries") else []
    quarantined = store.quarantined_rows() if hasattr(store, "quarantined_rows") else []
    return {
        "recoveries": [{"backup": r["backup_path"], "at": r["recovered_at"], "reason": r["reason"]}
                       for r in recoveries],
        "quarantined_rows": len(quarantined),
    }


def recovery_notices(store: Any, lang: Any) -> list[str]:
    """One line per unacknowledged recovery, for the TUI's start-up notice (plain text, control characters out)."""
    import time

    from tutor.i18n import t
    from tutor.progress.store_errors import StoreError
    from tutor.untrusted import clean_line

    try:
        recoveries = store.recoveries() if hasattr(store, "recoveries") else []
    except StoreError:  # a store that cannot even list them must not stop the TUI from starting
        return []
    return [t("store.recovered", lang, backup=clean_line(r["backup_path"]),
              at=time.strftime("%Y-%m-%d %H:%M", time.localtime(r["recovered_at"]))).removeprefix("tutor: ")
            for r in recoveries]


def damaged_rows(attempts: Any, lab_runs: Any) -> list[dict[str, Any]]:
    """The stored rows whose measurement, truth or result could not be read (each left out of the report, its
    located error kept by :mod:`tutor.progress.rows`): ``{"kind": "attempt"|"lab_run", "id", "label", "where",
    "what"}``, the where without the row's own ``attempt #12`` prefix."""
    found = []
    for kind, rows in (("attempt", attempts), ("lab_run", lab_runs)):
        for row in rows:
            if not row.damaged:
                continue
            where, _, what = str(row.damaged).partition(": ")
            for prefix in (f"attempt #{row.id} ", f"lab run #{row.id} "):
                where = where.removeprefix(prefix)
            said = getattr(row, "damaged_said", None)
            found.append({"kind": kind, "id": row.id,
                          "label": row.exercise_id if kind == "attempt" else row.lab_id,
                          "where": where, "what": what, "what_said": said.as_dict() if said is not None else None})
    return found


def damaged_lines(damaged: Any, lang: Any) -> list[str]:
    """One line per damaged row, in ``lang`` (``tutor progress`` and the progress screen say the same): which row,
    the field that did not read and why, control characters removed."""
    from tutor.i18n import t
    from tutor.i18n.message import Message
    from tutor.untrusted import clean_line

    lines = []
    for row in damaged if isinstance(damaged, list) else []:
        if not isinstance(row, dict):
            continue
        key = N_("progress.damaged.lab_run") if row.get("kind") == "lab_run" else N_("progress.damaged.attempt")
        said = Message.from_dict(row.get("what_said"), clean_line)
        what = said.render(lang) if said is not None else row.get("what", "")
        lines.append(t(key, lang, id=clean_line(row.get("id", "?")), label=clean_line(row.get("label", ""))[:80],
                       where=clean_line(row.get("where", ""))[:120], what=clean_line(what)[:160]))
    return lines


def progress_report(course: Any, store: Any, env_matches: bool | None = None, history: int = 20) -> dict[str, Any]:
    """Everything ``tutor progress --json`` prints (the progress screen shows the same)."""
    from tutor.progress.c0 import evaluate_store, when
    from tutor.progress.calibration import calibration_of
    from tutor.progress.passes import lesson_statuses

    attempts = store.attempts()
    lab_runs = store.lab_runs()
    checkpoint = evaluate_store(course, store, env_matches)
    lessons = lesson_statuses(course, attempts, store.sections_read())
    recent = []
    for a in attempts[-history:][::-1]:
        device = a.device
        recent.append({
            "id": a.id, "exercise": a.exercise_id, "lesson": a.lesson_id, "pass": a.pass_number,
            "state": a.state, "verdict": a.verdict, "score": a.score, "confidence": a.confidence,
            "hints_used": a.hints_used, "prediction": a.prediction.to_json(), "at": a.created_at,
            "at_text": when(a.created_at), "device": device.name if device is not None else None, "error": a.error,
        })
    return {
        "store": store_notices(store),
        "c0": checkpoint.to_json(),
        "lessons": [s.to_json() for s in lessons],
        "calibration": calibration_of(attempts).to_json(),
        "history": recent,
        "damaged": damaged_rows(attempts, lab_runs),
        "counts": {"attempts": len(attempts), "bench_runs": len(store.bench_runs()),
                   "doctor_runs": len(store.doctor_runs()), "lab_runs": len(lab_runs)},
    }
