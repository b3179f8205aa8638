"""Every exercise run headless on this machine, and whether the explanation shown agrees with what was measured
(issue 11 item 2's check).

:func:`run_every_exercise` takes each exercise of a course through :class:`~tutor.practice.ExerciseRunner` — the
path ``tutor exercise run`` takes: lock a prediction, measure, grade, store — with a measuring function the caller
gives (``bench/run_every_exercise.py`` measures at the exercises' real sizes; the tests shrink each request with
:func:`small_request`), then :func:`check_outcome` reads the explanation the learner would be shown against the
measurement:

- no sentence about the learner's machine or this measurement states the side opposite to the measured one;
- each ``explanation_when`` variant is shown exactly when its condition holds, with the condition evaluated again
  here from the stored measurement (the measured side, the too-close band, the named figure);
- no placeholder of a text shown is left unfilled (``—``).

Test and bench tooling, not part of the tutor (issue 29 item 7: it lived in ``tutor/practice`` though only the
tests and ``bench/run_every_exercise.py`` used it); the attempt itself is the runner's. Importable without torch:
the measuring function brings it.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tutor.content import Course, Exercise
from tutor.content.honesty import LEARNER_WORDS as _LEARNER
from tutor.grading import Prediction, choices_of, parse_prediction
from tutor.grading.explain import MISSING
from tutor.practice.runner import AttemptFailed, ExerciseRunner, MeasureFn, Outcome, explanation_values

# -- shrinking a request for the quick check -------------------------------------------------------------------

#: Caps on a workload's parameters in the quick check (each size still above the smallest the registry allows).
SMALL_CAPS = {"n": 1 << 20, "m": 256, "k": 256, "rows": 512, "cols": 512, "seq_len": 256, "heads": 4}
SMALL_PYTHON_N = 32
#: Sweeps are kept at their sizes (their truths name points: ``points.9.gbs``, ``speedup.1024``) except these.
SMALL_SWEEPS = {"gemm_sizes": {"max_n": 256}, "gemm_share": {"max_batch": 2}}


def small_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """``request`` at the smallest sizes that keep its meaning: the tiny model and the tiny roofline to judge
    against, workloads capped by :data:`SMALL_CAPS` (a GEMV stays a GEMV: a dimension of 1 is kept) with a 0.05 s
    budget. The roofline op itself stays in quick mode (its exercises read the bf16 and fp64 peaks the tiny one
    does not measure); it is measured once and cached in the data dir."""
    out = dict(request)
    op = out.get("op")
    if op in ("decode", "decode_gap", "train_step", "bench"):
        out["mode"] = "tiny"
    if op in ("workload", "sweep", "decode", "decode_gap", "train_step"):
        out["roofline_mode"] = "tiny"
    params = dict(out.get("params") or {})
    if op == "workload":
        out["budget_s"] = 0.05
        name = out.get("name")
        for key, cap in SMALL_CAPS.items():
            if key == "n" and name in ("matmul_python", "matmul_numpy"):
                cap = SMALL_PYTHON_N if name == "matmul_python" else 256
            if isinstance(params.get(key), int) and params[key] > cap:
                params[key] = cap
        if name == "gemm" and isinstance(params.get("n"), int):
            params["n"] = min(params["n"], SMALL_CAPS["m"])  # n is a matrix side for a GEMM, not a vector length
    elif op == "sweep":
        for key, value in SMALL_SWEEPS.get(str(out.get("name")), {}).items():
            if isinstance(params.get(key), int):
                params[key] = min(params[key], value)
    if params:
        out["params"] = params
    out.pop("time_limit_s", None)
    return out


def small_measure(run_request: Callable[..., dict[str, Any]]) -> MeasureFn:
    """A measuring function that runs :func:`small_request` of each request in this process with ``run_request``
    (:func:`tutor.measure.api.run_request`)."""

    def measure(request: dict[str, Any], on_progress: Any, cancel: Any) -> dict[str, Any]:
        should_cancel = cancel.is_set if cancel is not None else None
        return run_request(small_request(request), progress=on_progress, should_cancel=should_cancel)

    return measure


# -- a prediction for every kind ---------------------------------------------------------------------------------


def default_prediction(exercise: Exercise) -> Prediction:
    """A valid prediction (the check is about the explanation, not the score): the first choice, or a number in
    the middle of the exercise's range."""
    choices = choices_of(exercise)
    if choices:
        return parse_prediction(exercise, choices[0].id, 0.8)
    lo, hi = (exercise.range or (1.0, 1.0)) if exercise.kind == "number" else (1.0, 1.0)
    value = math.sqrt(lo * hi) if lo > 0 and hi > 0 else (lo + hi) / 2
    return parse_prediction(exercise, f"{value:.6g}", 0.8)


# -- the explanation against the measurement --------------------------------------------------------------------

_MEMORY = re.compile(r"memory[- ]bound|limitad[oa]s? por (?:la )?(?:memoria|ancho de banda)|bound by memory"
                     r"|(?:lado|side)\s+(?:de la |of the )?(?:memoria|memory)|memory side", re.IGNORECASE)
_COMPUTE = re.compile(r"compute[- ]bound|limitad[oa]s? por (?:el )?cómputo|bound by compute"
                      r"|(?:lado|side)\s+(?:del |of the )?(?:cómputo|compute)|compute side", re.IGNORECASE)
# A sentence about this run (not a named GPU or a general rule).
_THIS_RUN = re.compile(r"measured|medid|this run|esta ejecución|tu medición|your measurement|\bhere\b|aquí",
                       re.IGNORECASE)
# Words that keep a side from being asserted: a negation, a condition, a contrast.
_HEDGE = re.compile(r"\b(?:not|no|ni|nor|never|nunca|would|sería|if|si|instead|en lugar|rather|unless|salvo"
                    r"|would be|podría|could|might)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]|$)", re.MULTILINE)


def _sentences(text: str) -> Iterable[str]:
    joined = re.sub(r"(?<!\n)\n(?![\n\-*|#])", " ", text)
    joined = re.sub(r"(\d)[.,](\d)", r"\1\2", joined)
    for match in _SENTENCE.finditer(joined):
        yield match.group(0).strip()


def opposite_side_sentences(text: str, side: str) -> list[str]:
    """Sentences of a shown explanation that say this run (or the learner's machine) is on the side opposite to
    ``side`` ("memory" or "compute"), with no negation or condition that would keep them from asserting it."""
    measured, other = (_MEMORY, _COMPUTE) if side == "memory" else (_COMPUTE, _MEMORY)
    found = []
    for sentence in _sentences(text):
        if not (_LEARNER.search(sentence) or _THIS_RUN.search(sentence)):
            continue
        if other.search(sentence) and not measured.search(sentence) and not _HEDGE.search(sentence):
            found.append(sentence)
    return found


def _figure(outcome: Outcome, path: str) -> float | None:
    m = outcome.measurement
    value: Any = None
    if m is not None:
        try:
            value = m.figure(path)
        except KeyError:
            value = None
    if value is None:
        value = outcome.verdict.truth.details.get(path)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _holds(outcome: Outcome, when: Any) -> bool:
    """A variant's condition evaluated again from the stored measurement (not from the runner's own values)."""
    truth = outcome.verdict.truth
    if when.bound is not None:
        if when.bound == "too_close":
            if not truth.too_close:
                return False
        elif truth.choice != when.bound or truth.inconclusive:  # a side is said only when the run decided it
            return False
    if when.metric is not None:
        value = _figure(outcome, when.metric)
        if value is None:
            return False
        if when.above is not None and not value > when.above:
            return False
        if when.below is not None and not value < when.below:
            return False
    return True


def _fragment(text: str) -> str:
    """The longest literal run of a variant's text (no placeholders, no Markdown), to find it in the explanation."""
    parts = re.split(r"\{[^{}]*\}|[*`_]", text)
    runs = [" ".join(p.split()) for p in parts]
    return max(runs, key=len) if runs else ""


def _describe(when: Any) -> str:
    if when.bound is not None:
        return f"bound={when.bound}"
    cond = []
    if when.above is not None:
        cond.append(f">{when.above:g}")
    if when.below is not None:
        cond.append(f"<{when.below:g}")
    return f"{when.metric}{''.join(cond)}"


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]{0,120})(?::[^{}]{0,20})?\}")
_LOCALIZED = {"side", "side_by_intensity", "side_by_achieved"}  # filled in the reader's language by the runner


def _unfilled(outcome: Outcome, lang: str, values: Mapping[str, Any]) -> list[str]:
    """Placeholders of the texts shown (the explanation and the variants whose condition holds) that this run's
    values do not fill."""
    texts = [getattr(outcome.exercise.explanation, lang) or ""]
    texts += [getattr(v.text, lang) or "" for v in outcome.exercise.explanation_when if _holds(outcome, v.when)]
    names = {m.group(1) for text in texts for m in _PLACEHOLDER.finditer(text.replace("{{", "").replace("}}", ""))}
    return sorted(n for n in names if n not in values and n not in _LOCALIZED)


def check_outcome(outcome: Outcome) -> tuple[list[str], str, str]:
    """``(problems, side, variants)`` of one graded attempt: what disagrees (empty when all agrees), the measured
    side ("memory", "compute", "too close" or "—") and the ``explanation_when`` variants shown ("2/3: …")."""
    ex, truth = outcome.exercise, outcome.verdict.truth
    problems: list[str] = []
    values = explanation_values(outcome.measurement, outcome.prediction, outcome.verdict)
    side = truth.choice if ex.kind == "bound" and truth.choice in ("memory", "compute") else None
    side_text = ("too close" if truth.too_close else side) if side else "—"
    for lang in ("es", "en"):
        text = outcome.explanation.get(lang, "")
        flat = " ".join(text.split())
        if side is not None and not truth.too_close:
            for sentence in opposite_side_sentences(text, side):
                problems.append(f"{lang}: asserts the other side ({sentence[:80]!r})")
        for i, variant in enumerate(ex.explanation_when):
            fragment = _fragment(getattr(variant.text, lang) or "")
            if len(fragment) < 12:
                continue
            shown, holds = fragment in flat, _holds(outcome, variant.when)
            if shown != holds:
                state = "shown but its condition fails" if shown else "not shown but its condition holds"
                problems.append(f"{lang}: variant {i + 1} ({_describe(variant.when)}) {state}")
        for name in _unfilled(outcome, lang, values):
            problems.append(f"{lang}: placeholder {{{name}}} was left unfilled ({MISSING})")
    chosen = [_describe(v.when) for v in ex.explanation_when if _holds(outcome, v.when)]
    variants = f"{len(chosen)}/{len(ex.explanation_when)}" + (f": {', '.join(chosen)}" if chosen else "") \
        if ex.explanation_when else "—"
    return problems, side_text, variants


# -- every exercise ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExerciseCheck:
    """One exercise run headless: its truth, the measured side, the variants shown and whether all agrees."""

    exercise_id: str
    kind: str
    measured: str
    """What was measured: the op (and workload or sweep name), or ``—`` for a formula or an answer key."""
    truth: str
    side: str
    variants: str
    problems: tuple[str, ...]
    seconds: float
    setup: str = "—"
    """The working set next to the last-level cache, as the setup line under the prompt said it (``4.0× L3
    dram``), or ``—`` when the exercise has no setup line."""
    roof: str = "—"
    """Which roof bounded a decode measurement (``dram 27 GB/s``), or ``—``."""

    @property
    def agree(self) -> bool:
        return not self.problems


def _truth_text(outcome: Outcome) -> str:
    truth = outcome.verdict.truth
    if truth.choice is not None:
        return truth.choice + (" (inconclusive)" if truth.inconclusive else " (too close)" if truth.too_close else "")
    if truth.value is not None:
        return f"{truth.value:.4g} {truth.unit or ''}".strip()
    return "—"


_SETUP_KIND = (("measures DRAM", "dram"), ("bound is DRAM's", "dram"), ("part of it may stay", "partial"),
               ("part may stay", "partial"), ("measures the cache", "cache"), ("use the cache's bandwidth", "cache"))
_SETUP_MULTIPLE = re.compile(r"([\d.,]+)× your [\d.,]+ \S+ (L\d)")


def setup_summary(exercise: Exercise) -> str:
    """The setup line of ``exercise`` in short (``4.0× L3 dram``, ``fits L2 cache``), read from its English text,
    and ``simulated`` when the cache hierarchy behind it was; ``—`` without a setup line."""
    from tutor.practice.sizing import setup_line

    line = setup_line(exercise, "en")
    if not line:
        return "—"
    kind = next((k for phrase, k in _SETUP_KIND if phrase in line), "?")
    m = _SETUP_MULTIPLE.search(line)
    level = re.search(r"MiB (L\d) \(the last level|GiB (L\d) \(the last level|KiB (L\d) \(the last level", line)
    name = next((g for g in (level.groups() if level else ()) if g), "")
    head = f"{m.group(1)}× {m.group(2)}" if m else f"fits {name}".strip()
    return f"{head} {kind}" + (" (simulated)" if "SIMULATED" in line else "")


def cache_dependent(exercise: Exercise) -> bool:
    """Whether what ``exercise`` measures or says depends on the cache hierarchy: a size taken from it (``dram``),
    decode (its model and roof), the decode gap, the working-set sweep, the roofline (its STREAM arrays), or a
    variant that reads a cache figure."""
    call = exercise.measure
    if call is not None and (call.dram is not None or call.op in ("decode", "decode_gap", "roofline")
                             or (call.op == "sweep" and call.name == "working_set")):
        return True
    return any(v.when.metric is not None and v.when.metric.startswith(("cache.", "caches.", "feeding."))
               for v in exercise.explanation_when)


def _roof_text(outcome: Outcome) -> str:
    level, gbs = _figure_raw(outcome, "feeding.level"), _figure(outcome, "feeding.bandwidth_gbs")
    if not isinstance(level, str) or gbs is None:
        return "—"
    return f"{level} {gbs:.1f} GB/s"


def _figure_raw(outcome: Outcome, path: str) -> Any:
    m = outcome.measurement
    if m is None:
        return None
    try:
        return m.figure(path)
    except KeyError:
        return None


def run_every_exercise(course: Course, runner: ExerciseRunner, *, device: str = "cpu",
                       ids: Iterable[str] | None = None, budget_s: float | None = None,
                       on_done: Callable[[ExerciseCheck], None] | None = None) -> list[ExerciseCheck]:
    """Run each exercise of ``course`` (or those in ``ids``) through ``runner`` and check its explanation."""
    checks = []
    for ex_id in (list(ids) if ids is not None else sorted(course.exercises)):
        ex = course.exercises[ex_id]
        call = ex.measure
        measured = "—" if call is None else call.op + (f" {call.name}" if call.name else "")
        started = time.monotonic()
        setup = setup_summary(ex)
        try:
            outcome = runner.run(ex, default_prediction(ex), device=device, budget_s=budget_s)
        except AttemptFailed as exc:
            check = ExerciseCheck(ex_id, ex.kind, measured, "—", "—", "—", (f"failed: {exc.reason}",),
                                  time.monotonic() - started, setup)
        else:
            problems, side, variants = check_outcome(outcome)
            check = ExerciseCheck(ex_id, ex.kind, measured, _truth_text(outcome), side, variants, tuple(problems),
                                  time.monotonic() - started, setup, _roof_text(outcome))
        checks.append(check)
        if on_done is not None:
            on_done(check)
    return checks


def render_table(checks: list[ExerciseCheck]) -> str:
    """A plain-text table: exercise, measured, truth, side, variants, agree?, seconds; then the problems."""
    header = ("exercise", "measured", "truth", "side", "setup", "decode roof", "explanation variants", "agree?", "s")
    rows = [(c.exercise_id, c.measured, c.truth, c.side, c.setup.replace(" (simulated)", ""), c.roof, c.variants,
             "yes" if c.agree else "NO", f"{c.seconds:.1f}") for c in checks]
    widths = [min(44, max(len(str(r[i])) for r in [header, *rows])) for i in range(len(header))]
    lines = ["  ".join(str(v)[:w].ljust(w) for v, w in zip(row, widths, strict=True)).rstrip()
             for row in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    agree = sum(c.agree for c in checks)
    lines.append(f"\n{agree} of {len(checks)} exercises agree; {sum(c.seconds for c in checks):.0f} s in all")
    for c in checks:
        for p in c.problems:
            lines.append(f"  {c.exercise_id}: {p}")
    return "\n".join(lines)
