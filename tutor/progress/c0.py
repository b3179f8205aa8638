"""Checkpoint C0, derived from stored evidence only (SPEC.md "C0").

C0 is passed when: the stack is reproducible (the latest ``tutor doctor`` run passed and its lock matches the
environment), two ``tutor bench`` runs on the same device fingerprint agree within tolerance, the L4 gap exercise is
passed, and every Nivel 0 exercise is passed in the second pass, reproducing the first (:mod:`.passes`). When the
evidence comes from a CPU-only machine the checkpoint is "C0 (CPU)".
Every condition names the run it rests on and when it happened.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tutor.measure.bench_report import DEFAULT_TOLERANCE
from tutor.measure.bench_report import compare as compare_bench
from tutor.progress.passes import PASS_SCORE as PASS_SCORE  # re-exported: the one pass mark
from tutor.progress.passes import ExerciseStatus, exercise_status

C0_LEVEL = "n0"
L4_GAP_EXERCISE = "n0-l4-gap"
BENCH_TOLERANCE = DEFAULT_TOLERANCE
"""Two bench runs agree when every headline figure is within this ratio: the same rule ``tutor bench`` prints."""


@dataclass(frozen=True)
class Condition:
    """One line of the checklist: whether it holds, and the evidence (which run, when) in both languages."""

    key: str
    title: dict[str, str]
    passed: bool
    evidence: dict[str, str]
    at: float | None = None
    refs: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title, "passed": self.passed, "evidence": self.evidence,
                "at": self.at, "at_text": when(self.at), "refs": self.refs}


@dataclass(frozen=True)
class Checkpoint:
    """C0 (or "C0 (CPU)") and its conditions."""

    name: str
    passed: bool
    cpu_only: bool
    conditions: tuple[Condition, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "cpu_only": self.cpu_only,
                "conditions": [c.to_json() for c in self.conditions]}


def when(at: float | None) -> str:
    return "—" if at is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def attempt_device_kind(attempt: Mapping[str, Any]) -> str | None:
    m = attempt.get("measurement")
    if isinstance(m, Mapping):
        summary = m.get("summary") if isinstance(m.get("summary"), Mapping) else m
        device = summary.get("device") if isinstance(summary, Mapping) else None
        if isinstance(device, Mapping) and device.get("kind"):
            return str(device["kind"])
    return None


def _mode(run: Mapping[str, Any]) -> Any:
    report = run.get("report")
    return report.get("mode") if isinstance(report, Mapping) else None


def _headline(run: Mapping[str, Any]) -> Mapping[str, Any]:
    report = run.get("report")
    if isinstance(report, Mapping) and isinstance(report.get("headline"), Mapping):
        return report["headline"]  # type: ignore[no-any-return]
    return {}


def stack_condition(doctor_runs: Sequence[Mapping[str, Any]], env_matches: bool | None = None) -> Condition:
    title = {"en": "The stack is reproducible (tutor doctor passes, lock matches)",
             "es": "El stack es reproducible (tutor doctor pasa y el lock coincide)"}
    if not doctor_runs:
        return Condition("stack", title, False, {"en": "no tutor doctor run yet — run `tutor doctor --lock`",
                                                 "es": "aún no hay ninguna ejecución de tutor doctor — ejecuta "
                                                       "`tutor doctor --lock`"})
    run = doctor_runs[-1]
    at = float(run["created_at"])
    lock = run.get("lock_matches")
    passed = bool(run.get("passed"))
    matches = bool(lock) if env_matches is None else bool(lock) and env_matches
    ok = passed and matches
    if ok:
        ev = {"en": f"doctor run #{run['id']} on {when(at)} passed; its lock matches",
              "es": f"tutor doctor #{run['id']} del {when(at)} pasó; su lock coincide"}
    elif not passed:
        ev = {"en": f"the latest doctor run (#{run['id']}, {when(at)}) found problems",
              "es": f"la última ejecución de doctor (#{run['id']}, {when(at)}) encontró problemas"}
    elif lock is None:
        ev = {"en": f"doctor run #{run['id']} ({when(at)}) passed but had no lock to compare — "
                    "run `tutor doctor --lock`, then `tutor doctor` again",
              "es": f"doctor #{run['id']} ({when(at)}) pasó pero no tenía lock con que comparar — "
                    "ejecuta `tutor doctor --lock` y luego `tutor doctor`"}
    else:
        ev = {"en": f"doctor run #{run['id']} ({when(at)}): the environment no longer matches the lock",
              "es": f"doctor #{run['id']} ({when(at)}): el entorno ya no coincide con el lock"}
    return Condition("stack", title, ok, ev, at, {"doctor_run": run["id"]})


def bench_condition(bench_runs: Sequence[Mapping[str, Any]], tolerance: float = BENCH_TOLERANCE) -> Condition:
    title = {"en": "Two tutor bench runs on this device agree (the second reproducible pass)",
             "es": "Dos ejecuciones de tutor bench en este dispositivo coinciden (la segunda pasada reproducible)"}
    if not bench_runs:
        return Condition("bench", title, False, {"en": "no tutor bench run yet", "es": "aún no hay tutor bench"})
    latest = bench_runs[-1]
    # the second pass repeats the first: same device fingerprint and same bench mode (quick or full)
    same = [r for r in bench_runs if r["fingerprint"] == latest["fingerprint"]
            and _mode(r) == _mode(latest)]
    refs = {"fingerprint": latest["fingerprint"], "device_kind": latest.get("device_kind")}
    if len(same) < 2:
        return Condition("bench", title, False,
                         {"en": f"one bench run (#{latest['id']}, {when(latest['created_at'])}) on this fingerprint; "
                                "run `tutor bench` once more",
                          "es": f"una sola ejecución de bench (#{latest['id']}, {when(latest['created_at'])}) en "
                                "este dispositivo; ejecuta `tutor bench` otra vez"},
                         float(latest["created_at"]), refs)
    prev, last = same[-2], same[-1]
    comparison = compare_bench({"headline": _headline(last)}, {"headline": _headline(prev)}, tolerance)
    figures = comparison["figures"] if comparison else []
    agree = bool(comparison and comparison["agree"])
    worst_figure = max(figures, key=lambda f: abs(f["ratio"] - 1), default=None)
    key = worst_figure["key"] if worst_figure else None
    worst = abs(worst_figure["ratio"] - 1) if worst_figure else float("inf")
    refs.update(bench_runs=[prev["id"], last["id"]], worst_key=key, worst_difference=worst)
    if key is None:
        ev = {"en": f"bench runs #{prev['id']} and #{last['id']} have no headline figures to compare",
              "es": f"bench #{prev['id']} y #{last['id']} no tienen cifras que comparar"}
    else:
        verb_en = "agree" if agree else "disagree"
        verb_es = "coinciden" if agree else "no coinciden"
        ev = {"en": f"bench runs #{prev['id']} ({when(prev['created_at'])}) and #{last['id']} "
                    f"({when(last['created_at'])}) {verb_en}: largest difference {worst * 100:.1f} % in {key} "
                    f"(tolerance {tolerance * 100:.0f} %)",
              "es": f"bench #{prev['id']} ({when(prev['created_at'])}) y #{last['id']} ({when(last['created_at'])}) "
                    f"{verb_es}: la mayor diferencia es {worst * 100:.1f} % en {key} "
                    f"(tolerancia {tolerance * 100:.0f} %)"}
    return Condition("bench", title, agree, ev, float(last["created_at"]), refs)


def _exercise_line(status: ExerciseStatus) -> tuple[str, str]:
    """One exercise's two passes in words (en, es), naming the attempts they rest on."""
    ex, m = status.exercise_id, status.marks
    p1 = f"pass 1 #{status.pass1_attempt} {status.pass1_score:.2f}" if status.pass1_score is not None else ""
    p1_es = f"pasada 1 #{status.pass1_attempt} {status.pass1_score:.2f}" if status.pass1_score is not None else ""
    p2 = f"pass 2 #{status.pass2_attempt} {status.pass2_score:.2f}" if status.pass2_score is not None else ""
    p2_es = f"pasada 2 #{status.pass2_attempt} {status.pass2_score:.2f}" if status.pass2_score is not None else ""
    if status.pass1_score is None and status.pass2_score is None:
        return f"{ex} {m}: not attempted", f"{ex} {m}: sin intentar"
    if status.reproduced:
        return f"{ex} {m}: reproduced ({p1}, {p2})", f"{ex} {m}: reproducido ({p1_es}, {p2_es})"
    if status.pass2_score is None:
        return (f"{ex} {m}: {p1}; pass 2 not done (no hints, no theory)",
                f"{ex} {m}: {p1_es}; falta la pasada 2 (sin pistas ni teoría)")
    if not status.pass2_passed:
        return f"{ex} {m}: {p2} not passed", f"{ex} {m}: {p2_es} no aprobada"
    return (f"{ex} {m}: {p2} passed but does not reproduce pass 1 (not passed before it)",
            f"{ex} {m}: {p2_es} aprobada pero no reproduce la pasada 1 (no aprobada antes)")


def gap_condition(attempts: Sequence[Mapping[str, Any]], exercise_id: str = L4_GAP_EXERCISE) -> Condition:
    title = {"en": "You explained the gap between your throughput and the limit (the L4 exercise)",
             "es": "Explicaste la brecha entre tu rendimiento y el límite (el ejercicio de L4)"}
    status = exercise_status(exercise_id, attempts)
    en, es = _exercise_line(status)
    at = _attempt_time(attempts, status.pass2_attempt or status.pass1_attempt)
    return Condition("gap", title, status.passed, {"en": en, "es": es}, at, {"exercise": exercise_id})


def _attempt_time(attempts: Sequence[Mapping[str, Any]], attempt_id: int | None) -> float | None:
    for a in attempts:
        if attempt_id is not None and a.get("id") == attempt_id:
            return float(a.get("graded_at") or a["created_at"])
    return None


def level_condition(attempts: Sequence[Mapping[str, Any]], exercise_ids: Sequence[str]) -> Condition:
    """Every Nivel 0 exercise passed in pass 2 (no hints), reproducing a pass 1 passed before it."""
    title = {"en": "Every Nivel 0 exercise passed in the second pass (no hints, no theory), reproducing the first",
             "es": "Todos los ejercicios del Nivel 0 aprobados en la segunda pasada (sin pistas ni teoría), "
                   "reproduciendo la primera"}
    if not exercise_ids:
        return Condition("n0", title, False, {"en": "this course has no Nivel 0 exercises",
                                              "es": "este curso no tiene ejercicios del Nivel 0"})
    statuses = [exercise_status(ex, attempts) for ex in exercise_ids]
    done = [s for s in statuses if s.counts_for_c0]
    missing = [s for s in statuses if not s.counts_for_c0]
    ev_en = f"{len(done)} of {len(statuses)} reproduced in pass 2"
    ev_es = f"{len(done)} de {len(statuses)} reproducidos en la pasada 2"
    if missing:
        lines = [_exercise_line(s) for s in missing[:6]]
        more = len(missing) - len(lines)
        ev_en += "; still to do: " + "; ".join(en for en, _ in lines) + (f"; and {more} more" if more > 0 else "")
        ev_es += "; faltan: " + "; ".join(es for _, es in lines) + (f"; y {more} más" if more > 0 else "")
    times = [t for s in done if (t := _attempt_time(attempts, s.pass2_attempt)) is not None]
    return Condition("n0", title, not missing, {"en": ev_en, "es": ev_es}, max(times) if times else None,
                     {"exercises": {s.exercise_id: {"marks": s.marks, "pass1_attempt": s.pass1_attempt,
                                                    "pass2_attempt": s.pass2_attempt, "reproduced": s.reproduced}
                                    for s in statuses}})


def evaluate_c0(
    *,
    attempts: Sequence[Mapping[str, Any]],
    bench_runs: Sequence[Mapping[str, Any]],
    doctor_runs: Sequence[Mapping[str, Any]],
    level_exercises: Sequence[str],
    env_matches: bool | None = None,
    gap_exercise: str = L4_GAP_EXERCISE,
    tolerance: float = BENCH_TOLERANCE,
) -> Checkpoint:
    """C0 from the store's rows (as :class:`~tutor.progress.store.ProgressStore` returns them).

    ``env_matches``, when given, is a fresh comparison of the lock with the current environment; it can only
    withdraw the stack condition, never grant it.
    """
    conditions = (
        stack_condition(doctor_runs, env_matches),
        bench_condition(bench_runs, tolerance),
        gap_condition(attempts, gap_exercise),
        level_condition(attempts, level_exercises),
    )
    kinds = {str(r.get("device_kind")) for r in bench_runs[-2:]} if bench_runs else set()
    kinds |= {k for a in attempts if (k := attempt_device_kind(a))}
    cpu_only = "cuda" not in kinds
    name = "C0 (CPU)" if cpu_only else "C0"
    return Checkpoint(name, all(c.passed for c in conditions), cpu_only, conditions)


def level_exercise_ids(course: Any, level: str = C0_LEVEL) -> list[str]:
    """The exercise ids of every lesson in ``level`` (a :class:`tutor.content.Course`), in course order."""
    ids: list[str] = []
    for lesson in course.lessons_in(level):
        ids.extend(e.id for e in course.exercises_of(lesson))
    return ids


def evaluate_store(course: Any, store: Any, env_matches: bool | None = None) -> Checkpoint:
    """C0 for ``course`` from everything ``store`` holds."""
    return evaluate_c0(
        attempts=store.attempts(),
        bench_runs=store.bench_runs(),
        doctor_runs=store.doctor_runs(),
        level_exercises=level_exercise_ids(course),
        env_matches=env_matches,
    )
