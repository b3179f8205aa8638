"""How much a measured truth moves by itself: the spread a grader allows before calling a prediction wrong.

A measured figure is one draw from a noisy machine: a busy neighbour, a throttling laptop, a second learner on the
same device. The engine records, beside each figure, how much it varied across the run's own repeats (the CV of the
timed repeats, of the interleaved rounds, of the per-round fits). When 2σ is wider than the exercise's
full-marks tolerance, a prediction within the truth ± 2σ cannot be told apart from the measurement by the
measurement itself, so the tolerances widen to it — the same rule as the bench's comparison of two runs
(``max(5 %, 2·√(CV₁² + CV₂²))``), applied to a prediction and one run. On a quiet machine grading is unchanged; on a
noisy one the reveal says how wide the measurement was and why the band grew.

Pure: reads a :class:`~tutor.results.Measurement`'s figures, imports nothing of the engine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from tutor.content.models import Grading
from tutor.results import Measurement

#: How many standard deviations either side of the measured value count as "the measurement itself".
SIGMAS = 2.0
#: A relative spread above this is capped: a measurement this noisy says little, and the reveal says so.
MAX_RELATIVE = 0.5


@dataclass(frozen=True)
class SpreadSource:
    """Where a figure's spread is recorded: a CV (relative) or a standard deviation in the figure's own unit."""

    pattern: re.Pattern[str]
    paths: tuple[str, ...]
    absolute: bool = False


def _src(pattern: str, *paths: str, absolute: bool = False) -> SpreadSource:
    return SpreadSource(re.compile(pattern), paths, absolute)


#: For each kind of measurement, the figures the exercises grade and the recorded spreads behind them (several
#: relative spreads add in quadrature: a ratio of two measured figures). ``\1`` is the pattern's first group.
SPREADS: dict[str, tuple[SpreadSource, ...]] = {
    "workload": (
        _src(r"^(achieved_gbs|achieved_gflops|best_gbs|best_gflops|time_s\.median|time_s\.min)$", "time_s.cv"),
    ),
    "decode": (
        _src(r"^batches\.(\d+)\.fraction_of_bound$", r"batches.\1.cv", "feeding.read.cv"),
        _src(r"^batches\.(\d+)\.tokens_per_s$", r"batches.\1.cv"),
        _src(r"^(bandwidth_gbs|bound_tokens_per_s)$", "feeding.read.cv"),
        _src(r"^(tokens_per_s|fraction_of_bound)$", "cv"),
    ),
    "train_step": (
        _src(r"^(mfu|tokens_per_s|fraction_of_peak)$", "cv"),
    ),
    "decode_gap": (
        _src(r"^fit\.fixed_ms$", "fit.fixed_ms_sd", absolute=True),
        _src(r"^fit\.effective_bandwidth_gbs$", "fit.effective_bandwidth_cv"),
        _src(r"^gap\.achieved_bandwidth_pct$", "gap.achieved_bandwidth_pct_cv"),
    ),
    "roofline": (
        _src(r"^peak_bandwidth_gbs$", "bandwidth.cv"),
        _src(r"^peak_gflops\.(\w+)$", r"gemm.\1.cv"),
    ),
    "sweep": (
        _src(r"^points\.(\d+)\.(gbs|gflops)$", r"points.\1.cv"),
    ),
}


@dataclass(frozen=True)
class Spread:
    """A figure's spread: relative (σ ÷ value) when it came from CVs, or absolute (σ in the figure's unit)."""

    relative: float | None
    absolute: float | None
    paths: tuple[str, ...]

    def sigma(self, value: float) -> float:
        """σ in the figure's unit at ``value``."""
        if self.absolute is not None:
            return self.absolute
        return abs(value) * (self.relative or 0.0)


def _number(measurement: Measurement, path: str) -> float | None:
    try:
        value = measurement.figure(path)
    except KeyError:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        return None
    return float(value)


def spread_of(measurement: Measurement, metric: str) -> Spread | None:
    """The recorded spread of ``metric`` in ``measurement``, or None when the engine recorded none for it (an
    older measurement, a figure with no repeats behind it)."""
    for source in SPREADS.get(measurement.kind, ()):
        match = source.pattern.match(metric)
        if match is None:
            continue
        paths = tuple(match.expand(p) for p in source.paths)
        values = [_number(measurement, p) for p in paths]
        if any(v is None for v in values):
            return None
        if source.absolute:
            return Spread(None, values[0], paths)
        return Spread(min(MAX_RELATIVE, math.sqrt(sum(v * v for v in values if v is not None))), None, paths)
    return None


def combined(spreads: Sequence[Spread], value: float) -> Spread | None:
    """The spread of a product or quotient of measured figures (the lessons' formulas over measured inputs):
    relative spreads add in quadrature. None when no input has one."""
    if not spreads:
        return None
    relatives = [s.relative if s.relative is not None else (s.sigma(value) / abs(value) if value else 0.0)
                 for s in spreads]
    paths = tuple(p for s in spreads for p in s.paths)
    return Spread(min(MAX_RELATIVE, math.sqrt(sum(r * r for r in relatives))), None, paths)


def band(value: float, sigma: float, grading: Grading) -> tuple[float, float]:
    """The values counted as the measured ``value``: within the exercise's full-marks tolerance, or within
    ``value ± SIGMAS·σ`` as a ratio when the measurement's own spread is wider (never below 0)."""
    if value <= 0:
        return 0.0, SIGMAS * sigma
    full = widened(grading, value, sigma).full
    return value / full, value * full


def widened(grading: Grading, value: float, sigma: float) -> Grading:
    """The exercise's tolerances, widened when the measurement's own spread is wider than its full-marks band:
    ``full`` becomes ``1 + 2σ/value`` and ``most`` and ``some`` grow by the same factor (the bench's rule for two
    runs, ``max(floor, 2·spread)``, for a prediction and one run). Unchanged on a quiet run."""
    if value <= 0 or sigma <= 0:
        return grading
    full = 1 + SIGMAS * sigma / value
    if full <= grading.full:
        return grading
    factor = full / grading.full
    return grading.model_copy(update={"full": full, "most": grading.most * factor, "some": grading.some * factor})
