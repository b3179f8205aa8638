"""Estimators for a benchmark on a noisy host: short interleaved rounds, one value per figure per round, the
headline the median of the round values and its noise the coefficient of variation across rounds (pure Python:
no torch, so the rules are unit-testable with deterministic inputs).

Why rounds, interleaved: on a shared machine (a VM, a laptop with a browser open) a burst of other work lasts
from milliseconds to seconds. Measured one figure after another, a two-second burst lands entirely on one figure
and no statistic of that figure's samples can see it. Measured round-robin — every figure a short slice in each
round — the burst spoils one or two rounds of every figure alike, and the median over the rounds ignores them.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tutor.measure.timing import CancelCheck, check_cancel

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


def median_rate(work: float, times_s: Sequence[float]) -> float:
    """A round's value for a sequence of steps (decode): ``work`` ÷ the median step time."""
    return work / statistics.median(times_s)


Task = Callable[[], float]
Progress = Callable[[float, str], None]


def interleave(tasks: Sequence[tuple[str, Task]], rounds: int, should_cancel: CancelCheck | None = None,
               progress: Progress | None = None) -> dict[str, RoundFigure]:
    """Run ``rounds`` rounds; each round calls every task once, in order, and records the value it returns.

    Returns each task's :class:`RoundFigure`. ``should_cancel`` is checked before every task."""
    if rounds < 1:
        raise ValueError("at least one round")
    values: dict[str, list[float]] = {name: [] for name, _ in tasks}
    total = rounds * len(tasks)
    for r in range(rounds):
        for i, (name, task) in enumerate(tasks):
            check_cancel(should_cancel)
            if progress is not None:
                progress((r * len(tasks) + i) / total, f"round {r + 1}/{rounds}: {name}")
            values[name].append(float(task()))
    return {name: RoundFigure(tuple(v)) for name, v in values.items()}


def combined_cv(*cvs: float | None) -> float:
    """The CV of a product or quotient of independent figures: √(Σ CVᵢ²)."""
    return sum((c or 0.0) ** 2 for c in cvs) ** 0.5
