"""Checkpoint C0, derived from stored evidence only (SPEC.md "C0").

C0 is passed when: the stack is reproducible (the latest ``tutor doctor`` run passed and its lock matches the
environment), two ``tutor bench`` runs on the same device fingerprint agree within tolerance, the L4 gap exercise is
passed, and every Nivel 0 exercise is passed. When the evidence comes from a CPU-only machine the checkpoint is
"C0 (CPU)". Every condition names the run it rests on and when it happened.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tutor.measure.bench_report import DEFAULT_TOLERANCE
from tutor.measure.bench_report import compare as compare_bench

PASS_SCORE = 0.7
"""An exercise counts as passed once one graded attempt scores at least this."""

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


def best_scores(attempts: Iterable[Mapping[str, Any]]) -> dict[str, tuple[float, Mapping[str, Any]]]:
    """Per exercise, the best graded score and the attempt that earned it."""
    best: dict[str, tuple[float, Mapping[str, Any]]] = {}
    for a in attempts:
        if a.get("state") != "graded" or a.get("score") is None:
            continue
        score = float(a["score"])
        ex = str(a["exercise_id"])
        if ex not in best or score > best[ex][0]:
            best[ex] = (score, a)
    return best


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


def _exercise_line(ex: str, best: Mapping[str, tuple[float, Mapping[str, Any]]]) -> tuple[bool, str, str]:
    if ex not in best:
        return False, f"{ex}: not attempted", f"{ex}: sin intentar"
    score, attempt = best[ex]
    at = when(attempt.get("graded_at") or attempt.get("created_at"))
    mark = "passed" if score >= PASS_SCORE else "not passed"
    mark_es = "aprobado" if score >= PASS_SCORE else "no aprobado"
    return (score >= PASS_SCORE, f"{ex}: {mark}, best score {score:.2f} (attempt #{attempt['id']}, {at})",
            f"{ex}: {mark_es}, mejor nota {score:.2f} (intento #{attempt['id']}, {at})")


def gap_condition(attempts: Sequence[Mapping[str, Any]], exercise_id: str = L4_GAP_EXERCISE) -> Condition:
    title = {"en": "You explained the gap between your throughput and the limit (the L4 exercise)",
             "es": "Explicaste la brecha entre tu rendimiento y el límite (el ejercicio de L4)"}
    best = best_scores(attempts)
    ok, en, es = _exercise_line(exercise_id, best)
    at = None
    if exercise_id in best:
        a = best[exercise_id][1]
        at = float(a.get("graded_at") or a["created_at"])
    return Condition("gap", title, ok, {"en": en, "es": es}, at, {"exercise": exercise_id})


def level_condition(attempts: Sequence[Mapping[str, Any]], exercise_ids: Sequence[str]) -> Condition:
    title = {"en": "Every Nivel 0 exercise is passed", "es": "Todos los ejercicios del Nivel 0 aprobados"}
    if not exercise_ids:
        return Condition("n0", title, False, {"en": "this course has no Nivel 0 exercises",
                                              "es": "este curso no tiene ejercicios del Nivel 0"})
    best = best_scores(attempts)
    lines = [_exercise_line(ex, best) for ex in exercise_ids]
    passed = sum(1 for ok, _, _ in lines if ok)
    missing = [ex for ex, (ok, _, _) in zip(exercise_ids, lines, strict=True) if not ok]
    ev_en = f"{passed} of {len(exercise_ids)} passed"
    ev_es = f"{passed} de {len(exercise_ids)} aprobados"
    if missing:
        ev_en += f"; still to pass: {', '.join(missing)}"
        ev_es += f"; faltan: {', '.join(missing)}"
    times = [float(best[ex][1].get("graded_at") or best[ex][1]["created_at"]) for ex in exercise_ids if ex in best]
    return Condition("n0", title, not missing, {"en": ev_en, "es": ev_es}, max(times) if times else None,
                     {"exercises": {ex: (best[ex][0] if ex in best else None) for ex in exercise_ids}})


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
