"""Estimators for a benchmark on a noisy host: short interleaved rounds, one value per figure per round, the
headline the median of the round values and its noise the coefficient of variation across rounds (pure Python:
no torch, so the rules are unit-testable with deterministic inputs).

Why rounds, interleaved: on a shared machine (a VM, a laptop with a browser open) a burst of other work lasts
from milliseconds to seconds. Measured one figure after another, a two-second burst lands entirely on one figure
and no statistic of that figure's samples can see it. Measured round-robin — every figure a short slice in each
round — the burst spoils one or two rounds of every figure alike, and the median over the rounds ignores them.

Within a round a figure's value is the best of its few calls (:func:`best_rate`: other work only ever slows a
call down, so the fastest of a round's calls is the one nothing interrupted). Python's garbage collector is off
while the rounds run (:func:`interleave`): a full collection among the training step's many objects would land
in one round of one figure. A kernel whose first calls are slow (oneDNN choosing and JIT-compiling its bf16
kernels, AMX state) is warmed up until its time stops changing (:func:`warm_until_stable`).

This module is the one home of these statistics: :class:`tutor.measure.timing.TimedRuns` takes its CV from here.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tutor.measure.errors import CancelCheck, check_cancel
from tutor.measure.phases import Progress, said, task_label

ROUND_ESTIMATOR = "median over the rounds of each round's value"
"""How a headline figure is estimated from its rounds (said in the report's notes)."""
ROUND_CV = "CV across the rounds' values (the spread of the estimator's inputs, not of single samples)"


def cv(values: Sequence[float]) -> float:
    """Coefficient of variation (sample stdev ÷ mean) of ``values``; 0 for fewer than two or a zero mean."""
    if len(values) < 2:
        return 0.0
    mean = statistics.fmean(values)
    return statistics.stdev(values) / mean if mean else 0.0


@dataclass(frozen=True)
class RoundFigure:
    """One figure's values, one per round (a rate: higher is better), and the estimate made from them."""

    values: tuple[float, ...]

    @property
    def estimate(self) -> float:
        """The headline: the median of the round values (a burst that spoils a minority of rounds, up or down,
        does not move it)."""
        return statistics.median(self.values)

    @property
    def cv(self) -> float:
        """The noise the comparison rule uses: the CV across the round values."""
        return cv(self.values)

    @property
    def best(self) -> float:
        return max(self.values)

    def to_dict(self) -> dict[str, object]:
        return {"estimate": self.estimate, "cv": self.cv, "rounds": len(self.values), "values": list(self.values),
                "best_round": self.best, "estimator": ROUND_ESTIMATOR}


def best_rate(work: float, times_s: Sequence[float]) -> float:
    """A round's value for a kernel timed several times in a row: ``work`` ÷ the fastest time (within a round of
    a few hundred milliseconds, the fastest run is the one nothing interrupted)."""
    return work / min(times_s)


def warm_until_stable(call: Callable[[], float], *, group: int = 2, tolerance: float = 0.02, min_groups: int = 2,
                      max_calls: int = 24, max_s: float = 2.0, should_cancel: CancelCheck | None = None
                      ) -> tuple[float, int]:
    """Warm a kernel up until its time is stable: ``call`` runs it once and returns its seconds; calls come in
    groups of ``group``, and the warm-up stops once the best of a group is within ``tolerance`` of the previous
    group's best (after ``min_groups`` groups), or after ``max_calls`` calls or ``max_s`` seconds, whichever comes
    first. Returns (the last group's best seconds, calls made)."""
    calls, previous, best = 0, None, float("inf")
    started = time.perf_counter()
    for g in range(max(1, max_calls // max(1, group))):
        best = float("inf")
        for _ in range(max(1, group)):
            check_cancel(should_cancel)
            best = min(best, call())
            calls += 1
        if previous is not None and g + 1 >= min_groups and abs(best / previous - 1) <= tolerance:
            break
        if time.perf_counter() - started > max_s:
            break
        previous = best
    return best, calls


def median_rate(work: float, times_s: Sequence[float]) -> float:
    """A round's value for a sequence of steps (decode): ``work`` ÷ the median step time."""
    return work / statistics.median(times_s)


Task = Callable[[], float]


def interleave(tasks: Sequence[tuple[str, Task]], rounds: int, should_cancel: CancelCheck | None = None,
               progress: Progress | None = None) -> dict[str, RoundFigure]:
    """Run ``rounds`` rounds; each round calls every task once, in order, and records the value it returns.

    Returns each task's :class:`RoundFigure`. ``should_cancel`` is checked before every task. The garbage
    collector runs once before the rounds and not during them (it is switched back on after, as it was)."""
    if rounds < 1:
        raise ValueError("at least one round")
    values: dict[str, list[float]] = {name: [] for name, _ in tasks}
    total = rounds * len(tasks)
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for r in range(rounds):
            for i, (name, task) in enumerate(tasks):
                check_cancel(should_cancel)
                if progress is not None:
                    progress((r * len(tasks) + i) / total,
                             said("measure.progress.round", round=r + 1, rounds=rounds, task=task_label(name)))
                values[name].append(float(task()))
    finally:
        if was_enabled:
            gc.enable()
    return {name: RoundFigure(tuple(v)) for name, v in values.items()}


def combined_cv(*cvs: float | None) -> float:
    """The CV of a product or quotient of independent figures: √(Σ CVᵢ²)."""
    return sum((c or 0.0) ** 2 for c in cvs) ** 0.5
