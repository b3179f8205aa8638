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
from itertools import pairwise
from typing import Any

from tutor.i18n import numbers, t
from tutor.measure.bench_report import DEFAULT_TOLERANCE
from tutor.measure.bench_report import compare as compare_bench
from tutor.progress.passes import PASS_SCORE as PASS_SCORE  # re-exported: the one pass mark
from tutor.progress.passes import ExerciseStatus, exercise_status
from tutor.progress.rows import Attempt, DoctorRun, StackLock
from tutor.results import BenchReport, ResultError

C0_LEVEL = "n0"
L4_GAP_EXERCISES = ("n0-l4-gap-fixed", "n0-l4-gap-bandwidth", "n0-l4-gap-extra")
"""The graded decomposition of the decode gap: fixed cost per step, achieved vs peak bandwidth, extra bytes."""
L4_LESSON = "n0-l4"
EXPLANATION_MIN_WORDS = 25
"""The learner's own explanation of the gap in the L4 Lab Notebook entry: at least this many words."""
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


def _score(score: float | None, lang: str) -> str:
    """A pass's score as the learner reads it (``0,85`` in Spanish)."""
    return "—" if score is None else numbers.decimal(score, lang, 2)


def _pct(fraction: float, lang: str) -> str:
    """A fraction as a percentage with one decimal (``12,5 %``)."""
    return f"{numbers.decimal(fraction * 100, lang, 1)} %"


def when(at: float | None) -> str:
    return "—" if at is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def attempt_device_kind(attempt: Attempt) -> str | None:
    """The kind of device (``cpu``, ``cuda``) a stored attempt was measured on."""
    return attempt.device_kind


def bench_report_of(run: Mapping[str, Any]) -> BenchReport | None:
    """The typed report of a stored bench run, or None when its JSON is not one (a damaged row is no evidence)."""
    try:
        return BenchReport.from_json(run.get("report"), f"bench run #{run.get('id')}")
    except ResultError:
        return None


def _mode(run: Mapping[str, Any]) -> str | None:
    report = bench_report_of(run)
    return report.mode if report is not None else None


def stack_condition(doctor_runs: Sequence[DoctorRun], env_matches: bool | None = None,
                    now: float | None = None) -> Condition:
    """The latest ``tutor doctor --lock`` wrote a lock and what rebuilds it; a doctor run in a later process
    compared the environment with that lock (by its id) and passed. The latest such comparison counts."""
    from tutor.doctor.rebuild import age_text, pins_text

    title = {"en": "The stack is reproducible (a lock with what rebuilds it, checked by a later tutor doctor)",
             "es": "El stack es reproducible (un lock con lo que lo reconstruye, comprobado por un tutor doctor "
                   "posterior)"}
    writes = [r for r in doctor_runs if r.lock is not None and r.lock.written]
    if not writes:
        return Condition("stack", title, False, {"en": "no lock written yet — run `tutor doctor --lock`",
                                                 "es": "aún no hay lock — ejecuta `tutor doctor --lock`"})
    w = writes[-1]
    lock = w.lock or StackLock()
    w_at = w.created_at
    rebuild = lock.rebuild
    refs: dict[str, Any] = {"lock_run": w.id, "lock_id": lock.lock_id, "lock_written_at": w_at}
    if rebuild is None or not lock.lock_id:
        return Condition("stack", title, False,
                         {"en": f"the lock of doctor run #{w.id} ({when(w_at)}) records nothing that rebuilds it "
                                "— run `tutor doctor --lock` again",
                          "es": f"el lock de doctor #{w.id} ({when(w_at)}) no guarda nada con que "
                                "reconstruirlo — vuelve a ejecutar `tutor doctor --lock`"}, w_at, refs)
    refs.update(pins=dict(rebuild.pins), requirements=rebuild.requirements, dockerfile=rebuild.dockerfile)
    pinned = pins_text(rebuild.to_json())
    head_en = (f"lock #{w.id} written {age_text(w_at, 'en', now)} ago ({when(w_at)}), pins {pinned}, "
               f"rebuilds from {rebuild.requirements} or {rebuild.dockerfile}")
    head_es = (f"lock #{w.id} escrito hace {age_text(w_at, 'es', now)} ({when(w_at)}), fija {pinned}, se "
               f"reconstruye con {rebuild.requirements} o {rebuild.dockerfile}")
    checks = [r for r in doctor_runs if r.id > w.id and r.lock is not None and not r.lock.written
              and r.lock.lock_id == lock.lock_id and r.lock.matches is not None and (r.pid is None or r.pid != w.pid)]
    if not checks:
        return Condition("stack", title, False,
                         {"en": f"{head_en}; no later `tutor doctor` has checked the environment against it yet",
                          "es": f"{head_es}; ningún `tutor doctor` posterior lo ha comprobado todavía"}, w_at, refs)
    c = checks[-1]
    c_at = c.created_at
    c_lock = c.lock or StackLock()
    refs["check_run"] = c.id
    matches = bool(c_lock.matches) and env_matches is not False
    passed = c.passed
    if matches and passed:
        tail_en = f"doctor #{c.id} ({when(c_at)}, a later process) checked the environment: it matches"
        tail_es = f"doctor #{c.id} ({when(c_at)}, otro proceso posterior) comprobó el entorno: coincide"
    elif not matches:
        n = len(c_lock.differences)
        tail_en = (f"doctor #{c.id} ({when(c_at)}): the environment no longer matches the lock"
                   + (f" ({n} difference(s))" if n else ""))
        tail_es = (f"doctor #{c.id} ({when(c_at)}): el entorno ya no coincide con el lock"
                   + (f" ({n} diferencia(s))" if n else ""))
    else:
        tail_en = f"doctor #{c.id} ({when(c_at)}) matched the lock but found problems"
        tail_es = f"doctor #{c.id} ({when(c_at)}) coincide con el lock pero encontró problemas"
    return Condition("stack", title, matches and passed, {"en": f"{head_en}; {tail_en}", "es": f"{head_es}; {tail_es}"},
                     c_at, refs)


def _pair(prev: Mapping[str, Any], last: Mapping[str, Any], tolerance: float) -> dict[str, Any]:
    """Two runs compared under the noise-aware rule: agreement, and the figure furthest from its allowance."""
    now, before = bench_report_of(last), bench_report_of(prev)
    comparison = compare_bench(now, before, tolerance) if now is not None else None
    figures = comparison.figures if comparison else ()
    worst = max(figures, key=lambda f: abs(f.ratio - 1) / max(f.allowed, 1e-12), default=None)
    return {"ids": [prev["id"], last["id"]], "at": (float(prev["created_at"]), float(last["created_at"])),
            "agree": bool(comparison and comparison.agree), "key": worst.key if worst else None,
            "difference": abs(worst.ratio - 1) if worst else float("inf"),
            "allowed": worst.allowed if worst else tolerance}


def _pair_words(p: Mapping[str, Any]) -> tuple[str, str]:
    (a, b), (ta, tb) = p["ids"], p["at"]
    if p["key"] is None:
        return (f"bench runs #{a} and #{b} have no headline figures to compare",
                f"bench #{a} y #{b} no tienen cifras que comparar")
    verb_en, verb_es = ("agree", "coinciden") if p["agree"] else ("disagree", "no coinciden")
    return (f"bench runs #{a} ({when(ta)}) and #{b} ({when(tb)}) {verb_en}: the figure furthest from its allowance "
            f"is {p['key']}, {_pct(p['difference'], 'en')} apart (allowed ±{_pct(p['allowed'], 'en')})",
            f"bench #{a} ({when(ta)}) y #{b} ({when(tb)}) {verb_es}: la cifra más lejos de su margen es {p['key']}, "
            f"a {_pct(p['difference'], 'es')} (margen ±{_pct(p['allowed'], 'es')})")


def bench_condition(bench_runs: Sequence[Mapping[str, Any]], tolerance: float = BENCH_TOLERANCE) -> Condition:
    """Two consecutive ``tutor bench`` runs (same fingerprint, same mode) agree under the noise-aware rule
    (:data:`~tutor.measure.bench_report.COMPARISON_RULE`). Once a pair agreed, a later noisy pair does not withdraw
    the condition: the evidence names the pair that holds and says how the latest pair compared."""
    title = {"en": "Two tutor bench runs on this device agree (the second reproducible pass; each figure within "
                   "max(5 %, 2·√(CV₁² + CV₂²)), at most 15 %; " + t("bench.cv_spread", "en") + ")",
             "es": "Dos ejecuciones de tutor bench en este dispositivo coinciden (la segunda pasada reproducible; "
                   "cada cifra dentro de máx(5 %, 2·√(CV₁² + CV₂²)), como mucho 15 %; " + t("bench.cv_spread", "es")
                   + ")"}
    if not bench_runs:
        return Condition("bench", title, False, {"en": "no tutor bench run yet", "es": "aún no hay tutor bench"})
    latest = bench_runs[-1]
    refs: dict[str, Any] = {"fingerprint": latest["fingerprint"], "device_kind": latest.get("device_kind")}
    pairs = []
    for mode in dict.fromkeys(_mode(r) for r in bench_runs if r["fingerprint"] == latest["fingerprint"]):
        same = [r for r in bench_runs if r["fingerprint"] == latest["fingerprint"] and _mode(r) == mode]
        pairs += [_pair(a, b, tolerance) for a, b in pairwise(same)]
    if not pairs:
        return Condition("bench", title, False,
                         {"en": f"one bench run (#{latest['id']}, {when(latest['created_at'])}) on this fingerprint; "
                                "run `tutor bench` once more",
                          "es": f"una sola ejecución de bench (#{latest['id']}, {when(latest['created_at'])}) en "
                                "este dispositivo; ejecuta `tutor bench` otra vez"},
                         float(latest["created_at"]), refs)
    pairs.sort(key=lambda p: p["ids"][1])
    last = pairs[-1]
    agreed = [p for p in pairs if p["agree"]]
    holding = agreed[-1] if agreed else last
    en, es = _pair_words(holding)
    refs.update(bench_runs=holding["ids"], worst_key=holding["key"], worst_difference=holding["difference"],
                allowed=holding["allowed"], latest_pair=last["ids"], latest_agree=last["agree"])
    if agreed and not last["agree"]:
        later_en, later_es = _pair_words(last)
        en += f"; this still holds — the later pair is noisier: {later_en}"
        es += f"; sigue valiendo — el par posterior es más ruidoso: {later_es}"
    return Condition("bench", title, bool(agreed), {"en": en, "es": es}, holding["at"][1], refs)


def _exercise_line(status: ExerciseStatus) -> tuple[str, str]:
    """One exercise's two passes in words (en, es), naming the attempts they rest on."""
    ex, m = status.exercise_id, status.marks
    p1 = f"pass 1 #{status.pass1_attempt} {_score(status.pass1_score, 'en')}" \
        if status.pass1_score is not None else ""
    p1_es = f"pasada 1 #{status.pass1_attempt} {_score(status.pass1_score, 'es')}" \
        if status.pass1_score is not None else ""
    p2 = f"pass 2 #{status.pass2_attempt} {_score(status.pass2_score, 'en')}" \
        if status.pass2_score is not None else ""
    p2_es = f"pasada 2 #{status.pass2_attempt} {_score(status.pass2_score, 'es')}" \
        if status.pass2_score is not None else ""
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


def _own_explanation(entries: Sequence[Mapping[str, Any]], lesson: str = L4_LESSON) -> Mapping[str, Any] | None:
    """The latest L4 Lab Notebook entry whose "gap" part holds the learner's explanation (enough words)."""
    found = None
    for row in entries:
        entry = row.get("entry")
        if not isinstance(entry, Mapping):
            continue
        lab = str(entry.get("lab_id") or row.get("lab_id") or "")
        if str(entry.get("lesson_id") or "") != lesson and not lab.startswith(lesson + "-"):
            continue
        if len(str(entry.get("gap") or "").split()) >= EXPLANATION_MIN_WORDS:
            found = row
    return found


def gap_condition(attempts: Sequence[Attempt], exercise_ids: Sequence[str] = L4_GAP_EXERCISES,
                  notebook: Sequence[Mapping[str, Any]] = ()) -> Condition:
    """The gap decomposed (each part's exercise passed, graded against this machine's measurement) and explained
    in the learner's own words (the L4 Lab Notebook entry's gap part)."""
    title = {"en": "You explained the gap to the theoretical limit: its parts predicted and measured (L4), and your "
                   "own explanation in the L4 Lab Notebook entry",
             "es": "Explicaste la distancia al límite teórico: sus partes predichas y medidas (L4) y tu propia "
                   "explicación en la ficha del Lab Notebook de la L4"}
    statuses = [exercise_status(ex, attempts) for ex in exercise_ids]
    lines = [_exercise_line(s) for s in statuses]
    decomposed = bool(statuses) and all(s.passed for s in statuses)
    entry = _own_explanation(notebook)
    if entry is not None:
        words = len(str(entry["entry"].get("gap") or "").split())
        nb_en = f"notebook entry #{entry['id']} explains the gap in your words ({words} words)"
        nb_es = f"la ficha #{entry['id']} explica la distancia con tus palabras ({words} palabras)"
    else:
        nb_en = (f"no L4 Lab Notebook entry explains the gap yet (its \"gap\" part, at least {EXPLANATION_MIN_WORDS} "
                 "words of your own, written in the Lab Notebook screen: N in the TUI)")
        nb_es = (f"ninguna ficha del Lab Notebook de la L4 explica aún la distancia (su parte «diferencia», al menos "
                 f"{EXPLANATION_MIN_WORDS} palabras tuyas, escritas en la pantalla del Lab Notebook: N en la TUI)")
    times = [t for s in statuses if (t := _attempt_time(attempts, s.pass2_attempt or s.pass1_attempt)) is not None]
    if entry is not None:
        times.append(float(entry.get("updated_at") or entry.get("created_at") or 0.0))
    refs = {"exercises": list(exercise_ids), "notebook_entry": entry["id"] if entry is not None else None}
    return Condition("gap", title, decomposed and entry is not None,
                     {"en": "; ".join([*(en for en, _ in lines), nb_en]),
                      "es": "; ".join([*(es for _, es in lines), nb_es])},
                     max(times) if times else None, refs)


def _attempt_time(attempts: Sequence[Attempt], attempt_id: int | None) -> float | None:
    for a in attempts:
        if attempt_id is not None and a.id == attempt_id:
            return a.at
    return None


def level_condition(attempts: Sequence[Attempt], exercise_ids: Sequence[str]) -> Condition:
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
    attempts: Sequence[Attempt],
    bench_runs: Sequence[Mapping[str, Any]],
    doctor_runs: Sequence[DoctorRun],
    level_exercises: Sequence[str],
    env_matches: bool | None = None,
    gap_exercises: Sequence[str] = L4_GAP_EXERCISES,
    notebook: Sequence[Mapping[str, Any]] = (),
    tolerance: float = BENCH_TOLERANCE,
) -> Checkpoint:
    """C0 from the store's rows (as :class:`~tutor.progress.store.ProgressStore` returns them).

    ``env_matches``, when given, is a fresh comparison of the lock with the current environment; it can only
    withdraw the stack condition, never grant it.
    """
    conditions = (
        stack_condition(doctor_runs, env_matches),
        bench_condition(bench_runs, tolerance),
        gap_condition(attempts, gap_exercises, notebook),
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
        notebook=store.notebook_entries(),
    )
