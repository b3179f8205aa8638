"""Checkpoint C0, derived from stored evidence only (SPEC.md "C0").

C0 is passed when: the stack is reproducible (the latest ``tutor doctor`` run passed and its lock matches the
environment), two ``tutor bench`` runs on the same device fingerprint agree within tolerance, the L4 gap exercise is
passed, and every Nivel 0 exercise is passed in the second pass, reproducing the first (:mod:`.passes`). When the
evidence comes from a CPU-only machine the checkpoint is "C0 (CPU)".
Every condition names the run it rests on and when it happened.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from tutor.grading.said import JoinedSaid, NumberSaid
from tutor.i18n import LANGS
from tutor.i18n.message import Message, Param
from tutor.measure.bench_report import DEFAULT_TOLERANCE, SpeedShift, figure_label, shift_words, speed_shift
from tutor.measure.bench_report import compare as compare_bench
from tutor.progress.passes import PASS_SCORE as PASS_SCORE  # re-exported: the one pass mark
from tutor.progress.passes import ExerciseStatus, exercise_status
from tutor.progress.rows import Attempt, BenchRun, DoctorRun, StackLock, StoredEntry
from tutor.results.wire import JsonObject

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
    """One line of the checklist: whether it holds, and the evidence (which run, when), as catalog messages the UI
    or the CLI renders in the learner's language."""

    key: str
    title: Message
    passed: bool
    evidence: Message
    at: float | None = None
    refs: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        """JSON (``tutor progress --json``, the progress screen, the class report): the title and the evidence
        rendered in both languages, their codes beside them."""
        return {"key": self.key, "title": _rendered(self.title), "passed": self.passed,
                "evidence": _rendered(self.evidence), "title_said": self.title.as_dict(),
                "evidence_said": self.evidence.as_dict(), "at": self.at, "at_text": when(self.at), "refs": self.refs}


@dataclass(frozen=True)
class Checkpoint:
    """C0 (or "C0 (CPU)") and its conditions."""

    name: str
    passed: bool
    cpu_only: bool
    conditions: tuple[Condition, ...]

    def to_json(self) -> JsonObject:
        return {"name": self.name, "passed": self.passed, "cpu_only": self.cpu_only,
                "conditions": [c.to_json() for c in self.conditions]}


def _rendered(message: Message) -> dict[str, str]:
    return {lang: message.render(lang) for lang in LANGS}


def _both(key: str, /, **fields: Param) -> Message:
    """The catalog's sentence ``key`` with its fields (each a string, a number or another message)."""
    return Message.of(key, **fields)


def _count(key: str, n: int) -> Message:
    """``key`` counted (``key.one`` for 1, ``key.other`` otherwise, as :func:`tutor.i18n.tn` chooses)."""
    return Message.of(f"{key}.one" if n == 1 else f"{key}.other", n=n)


def _score(score: float | None) -> Param:
    """A pass's score as the learner reads it (``0,85`` in Spanish)."""
    return "—" if score is None else NumberSaid.decimal(score, 2)


def _pct(fraction: float) -> Message:
    """A fraction as a percentage with one decimal (``12,5 %``)."""
    return NumberSaid.decimal(fraction * 100, 1, " %")


@dataclass(frozen=True)
class Aside(Message):
    """A message in parentheses after a space (`` (2 differences)``), in the reader's language."""

    @classmethod
    def of_message(cls, message: Message) -> Aside:
        return cls("c0.said.aside", (("text", message),))

    def render(self, lang: str) -> str:
        inner = self.param("text")
        return f" ({inner.render(lang) if isinstance(inner, Message) else inner})"


@dataclass(frozen=True)
class FigureLabel(Message):
    """A bench headline figure's label from its key (``peak_flops_tflops.float32``), in the reader's language."""

    @classmethod
    def of_key(cls, key: str) -> FigureLabel:
        return cls("c0.said.figure_label", (("key", key),))

    def render(self, lang: str) -> str:
        return figure_label(str(self.param("key") or ""), lang)


@dataclass(frozen=True)
class ShiftWords(Message):
    """Two bench runs that disagree because the machine's speed moved, in the reader's language."""

    @classmethod
    def of_shift(cls, shift: SpeedShift) -> ShiftWords:
        mem = shift.memory
        params: tuple[tuple[str, Param], ...] = (("lo", shift.compute[0]), ("hi", shift.compute[1]),
                                                 ("whole", int(shift.whole_machine)))
        if mem is not None:
            params += (("mlo", mem[0]), ("mhi", mem[1]))
        return cls("c0.said.shift", params)

    def render(self, lang: str) -> str:
        p = {k: float(v) for k, v in self.params if isinstance(v, int | float)}
        memory = (p["mlo"], p["mhi"]) if "mlo" in p and "mhi" in p else None
        return shift_words(SpeedShift((p.get("lo", 1.0), p.get("hi", 1.0)), memory, bool(p.get("whole"))), lang)


def when(at: float | None) -> str:
    return "—" if at is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def attempt_device_kind(attempt: Attempt) -> str | None:
    """The kind of device (``cpu``, ``cuda``) a stored attempt was measured on."""
    return attempt.device_kind


def stack_condition(doctor_runs: Sequence[DoctorRun], env_matches: bool | None = None,
                    now: float | None = None) -> Condition:
    """The latest ``tutor doctor --lock`` wrote a lock and what rebuilds it; a doctor run in a later process
    compared the environment with that lock (by its id) and passed. The latest such comparison counts."""
    from tutor.doctor.rebuild import age_text, pins_text

    title = _both("c0.stack.title")
    writes = [r for r in doctor_runs if r.lock is not None and r.lock.written]
    if not writes:
        return Condition("stack", title, False, _both("c0.stack.no_lock"))
    w = writes[-1]
    lock = w.lock or StackLock()
    w_at = w.created_at
    rebuild = lock.rebuild
    refs: dict[str, Any] = {"lock_run": w.id, "lock_id": lock.lock_id, "lock_written_at": w_at}
    if rebuild is None or not lock.lock_id:
        return Condition("stack", title, False,
                         _both("c0.stack.no_rebuild", run=str(w.id), at=when(w_at)), w_at, refs)
    refs.update(pins=dict(rebuild.pins), requirements=rebuild.requirements, dockerfile=rebuild.dockerfile)
    pinned = pins_text(rebuild)
    head = _both("c0.stack.head", run=str(w.id), age=age_text(w_at, "en", now), at=when(w_at),
                 pins=pinned, requirements=str(rebuild.requirements), dockerfile=str(rebuild.dockerfile))
    checks = [r for r in doctor_runs if r.id > w.id and r.lock is not None and not r.lock.written
              and r.lock.lock_id == lock.lock_id and r.lock.matches is not None and (r.pid is None or r.pid != w.pid)]
    if not checks:
        return Condition("stack", title, False,
                         _both("c0.stack.unchecked", head=head), w_at, refs)
    c = checks[-1]
    c_at = c.created_at
    c_lock = c.lock or StackLock()
    refs["check_run"] = c.id
    matches = bool(c_lock.matches) and env_matches is not False
    passed = c.passed
    if matches and passed:
        tail = _both("c0.stack.matches", run=str(c.id), at=when(c_at))
    elif not matches:
        n = len(c_lock.differences)
        tail = _both("c0.stack.differs", run=str(c.id), at=when(c_at),
                     differences=Aside.of_message(_count("count.difference", n)) if n else "")
    else:
        tail = _both("c0.stack.problems", run=str(c.id), at=when(c_at))
    return Condition("stack", title, matches and passed, _both("c0.joined", first=head, second=tail), c_at, refs)


@dataclass(frozen=True)
class BenchPair:
    """Two consecutive bench runs compared: their ids and times, whether they agree, the figure furthest from its
    allowance (its key, how far apart as a fraction, the allowance), the runs other programs disturbed, and the
    machine's speed shift between them when that explains a disagreement."""

    ids: list[int]
    at: tuple[float, float]
    agree: bool
    key: str | None
    difference: float
    allowed: float
    disturbed: list[int]
    shift: Message | None


def _pair(prev: BenchRun, last: BenchRun, tolerance: float) -> BenchPair:
    """Two runs compared under the noise-aware rule: agreement, and the figure furthest from its allowance."""
    now, before = last.report, prev.report
    comparison = compare_bench(now, before, tolerance) if now is not None else None
    figures = comparison.figures if comparison else ()
    worst = max(figures, key=lambda f: abs(f.ratio - 1) / max(f.allowed, 1e-12), default=None)
    # a run that other programs disturbed is no evidence either way: its figures may be low
    disturbed = [run.id for run in (prev, last)
                 if run.report is not None and run.report.interference is not None and run.report.interference.busy]
    shift = speed_shift(comparison)
    return BenchPair(ids=[prev.id, last.id], at=(prev.created_at, last.created_at),
                     agree=bool(comparison and comparison.agree) and not disturbed,
                     key=worst.key if worst else None, difference=abs(worst.ratio - 1) if worst else float("inf"),
                     allowed=worst.allowed if worst else tolerance, disturbed=disturbed,
                     shift=ShiftWords.of_shift(shift) if shift is not None else None)


def _pair_words(p: BenchPair) -> Message:
    (a, b), (ta, tb) = p.ids, p.at
    if p.key is None:
        return _both("c0.bench.nothing_to_compare", a=str(a), b=str(b))
    words = _both("c0.bench.pair", a=str(a), b=str(b), at_a=when(ta), at_b=when(tb),
                  verdict=_both("c0.bench.agree" if p.agree else "c0.bench.disagree"),
                  figure=FigureLabel.of_key(p.key), difference=_pct(p.difference), allowed=_pct(p.allowed))
    shift = p.shift
    if shift is not None:  # the machine's speed moved between the runs: say so
        words = _both("c0.bench.pair_shift", pair=words, shift=shift)
    if p.disturbed:
        words = _both("c0.bench.disturbed", pair=words, runs=", ".join(str(i) for i in p.disturbed))
    return words


def bench_condition(bench_runs: Sequence[BenchRun], tolerance: float = BENCH_TOLERANCE) -> Condition:
    """Two consecutive ``tutor bench`` runs (same fingerprint, same mode) agree under the noise-aware rule
    (:data:`~tutor.measure.bench_report.COMPARISON_RULE`). Once a pair agreed, a later noisy pair does not withdraw
    the condition: the evidence names the pair that holds and says how the latest pair compared."""
    title = _both("c0.bench.title", cv=Message("bench.cv_spread"))
    if not bench_runs:
        return Condition("bench", title, False, _both("c0.bench.none"))
    latest = bench_runs[-1]
    refs: dict[str, Any] = {"fingerprint": latest.fingerprint, "device_kind": latest.device_kind}
    pairs = []
    for mode in dict.fromkeys(r.mode for r in bench_runs if r.fingerprint == latest.fingerprint):
        same = [r for r in bench_runs if r.fingerprint == latest.fingerprint and r.mode == mode]
        pairs += [_pair(a, b, tolerance) for a, b in pairwise(same)]
    if not pairs:
        return Condition("bench", title, False,
                         _both("c0.bench.one", run=str(latest.id), at=when(latest.created_at)),
                         latest.created_at, refs)
    pairs.sort(key=lambda p: p.ids[1])
    last = pairs[-1]
    agreed = [p for p in pairs if p.agree]
    holding = agreed[-1] if agreed else last
    words = _pair_words(holding)
    refs.update(bench_runs=holding.ids, worst_key=holding.key, worst_difference=holding.difference,
                allowed=holding.allowed, latest_pair=last.ids, latest_agree=last.agree)
    if agreed and not last.agree:
        words = _both("c0.bench.still_holds", holding=words, later=_pair_words(last))
    return Condition("bench", title, bool(agreed), words, holding.at[1], refs)


def _exercise_line(status: ExerciseStatus) -> Message:
    """One exercise's two passes in words (en, es), naming the attempts they rest on."""
    ex, m = status.exercise_id, status.marks
    score1, score2 = status.pass1_score, status.pass2_score
    p1 = _both("c0.pass", n="1", attempt=str(status.pass1_attempt), score=_score(score1))
    p2 = _both("c0.pass", n="2", attempt=str(status.pass2_attempt), score=_score(score2))
    if score1 is None and score2 is None:
        return _both("c0.ex.not_attempted", ex=ex, marks=m)
    if status.reproduced:
        return _both("c0.ex.reproduced", ex=ex, marks=m, p1=p1, p2=p2)
    if score2 is None:
        return _both("c0.ex.no_pass2", ex=ex, marks=m, p1=p1)
    if not status.pass2_passed:
        return _both("c0.ex.pass2_failed", ex=ex, marks=m, p2=p2)
    return _both("c0.ex.not_reproduced", ex=ex, marks=m, p2=p2)


def _own_explanation(entries: Sequence[StoredEntry], lesson: str = L4_LESSON) -> StoredEntry | None:
    """The latest L4 Lab Notebook entry whose "gap" part holds the learner's explanation (enough words)."""
    found = None
    for row in entries:
        entry = row.entry
        # an entry of another lesson (a pack's, whatever its lab is called) is not the bundled L4's; an entry that
        # names no lesson counts by its lab's name
        if entry.lesson_id != lesson and (entry.lesson_id or not entry.lab_id.startswith(lesson + "-")):
            continue
        if len(entry.gap.split()) >= EXPLANATION_MIN_WORDS:
            found = row
    return found


def gap_condition(attempts: Sequence[Attempt], exercise_ids: Sequence[str] = L4_GAP_EXERCISES,
                  notebook: Sequence[StoredEntry] = ()) -> Condition:
    """The gap decomposed (each part's exercise passed, graded against this machine's measurement) and explained
    in the learner's own words (the L4 Lab Notebook entry's gap part)."""
    title = _both("c0.gap.title")
    statuses = [exercise_status(ex, attempts) for ex in exercise_ids]
    lines = [_exercise_line(s) for s in statuses]
    decomposed = bool(statuses) and all(s.passed for s in statuses)
    entry = _own_explanation(notebook)
    if entry is not None:
        words = len(entry.entry.gap.split())
        notebook_words = _both("c0.gap.entry", entry=str(entry.id), words=str(words))
    else:
        notebook_words = _both("c0.gap.no_entry", words=str(EXPLANATION_MIN_WORDS))
    times = [t for s in statuses if (t := _attempt_time(attempts, s.pass2_attempt or s.pass1_attempt)) is not None]
    if entry is not None:
        times.append(entry.at)
    refs = {"exercises": list(exercise_ids), "notebook_entry": entry.id if entry is not None else None}
    return Condition("gap", title, decomposed and entry is not None,
                     JoinedSaid.of_messages([*lines, notebook_words]),
                     max(times) if times else None, refs)


def _attempt_time(attempts: Sequence[Attempt], attempt_id: int | None) -> float | None:
    for a in attempts:
        if attempt_id is not None and a.id == attempt_id:
            return a.at
    return None


def level_condition(attempts: Sequence[Attempt], exercise_ids: Sequence[str]) -> Condition:
    """Every Nivel 0 exercise passed in pass 2 (no hints), reproducing a pass 1 passed before it."""
    title = _both("c0.level.title")
    if not exercise_ids:
        return Condition("n0", title, False, _both("c0.level.none"))
    statuses = [exercise_status(ex, attempts) for ex in exercise_ids]
    done = [s for s in statuses if s.counts_for_c0]
    missing = [s for s in statuses if not s.counts_for_c0]
    evidence = _both("c0.level.count", done=str(len(done)), total=str(len(statuses)))
    if missing:
        lines = [_exercise_line(s) for s in missing[:6]]
        more = len(missing) - len(lines)
        evidence = _both("c0.level.todo", count=evidence, todo=JoinedSaid.of_messages(lines),
                         more=_both("c0.level.more", n=str(more)) if more > 0 else "")
    times = [t for s in done if (t := _attempt_time(attempts, s.pass2_attempt)) is not None]
    return Condition("n0", title, not missing, evidence, max(times) if times else None,
                     {"exercises": {s.exercise_id: {"marks": s.marks, "pass1_attempt": s.pass1_attempt,
                                                    "pass2_attempt": s.pass2_attempt, "reproduced": s.reproduced}
                                    for s in statuses}})


def evaluate_c0(
    *,
    attempts: Sequence[Attempt],
    bench_runs: Sequence[BenchRun],
    doctor_runs: Sequence[DoctorRun],
    level_exercises: Sequence[str],
    env_matches: bool | None = None,
    gap_exercises: Sequence[str] = L4_GAP_EXERCISES,
    notebook: Sequence[StoredEntry] = (),
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
    kinds = {r.device_kind for r in bench_runs[-2:]}
    counted = {*level_exercises, *gap_exercises}
    kinds |= {k for a in attempts if a.exercise_id in counted and (k := attempt_device_kind(a))}
    cpu_only = "cuda" not in kinds
    name = "C0 (CPU)" if cpu_only else "C0"
    return Checkpoint(name, all(c.passed for c in conditions), cpu_only, conditions)


def level_exercise_ids(course: Any = None, level: str = C0_LEVEL) -> list[str]:
    """The exercise ids of every lesson in ``level`` of the bundled course, in course order.

    C0 is the bundled course's checkpoint whatever course is open: a pack (``--course``) that declares a level
    ``n0`` of its own adds nothing to it, and it cannot define a bundled id (:func:`tutor.content.loader.load_files`
    refuses it), so only the bundled exercises' attempts count. ``course`` is accepted for the callers that pass
    the course they show; it is not read."""
    from tutor.content.loader import bundled

    reference = bundled()
    ids: list[str] = []
    for lesson in reference.lessons_in(level):
        ids.extend(e.id for e in reference.exercises_of(lesson))
    return ids


def evaluate_store(course: Any, store: Any, env_matches: bool | None = None) -> Checkpoint:
    """C0 (the bundled course's, whatever ``course`` is open) from everything ``store`` holds."""
    return evaluate_c0(
        attempts=store.attempts(),
        bench_runs=store.bench_runs(),
        doctor_runs=store.doctor_runs(),
        level_exercises=level_exercise_ids(course),
        env_matches=env_matches,
        notebook=store.notebook_entries(),
    )
