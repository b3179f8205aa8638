"""Timing statistics of a measurement's repeats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tutor.results.reading import Reader


@dataclass(frozen=True)
class TimingStats:
    """Seconds per call over the timed repeats: median, best (min), spread.

    ``inner`` is how many calls one timed repeat made (short kernels are looped so the clock can see them)."""

    median: float
    min: float
    max: float
    mean: float
    cv: float
    """Coefficient of variation (stdev ÷ mean) of the per-call times."""
    repeats: int
    inner: int = 1

    @property
    def best(self) -> float:
        """The fastest repeat (what best-of figures divide by)."""
        return self.min

    def to_json(self) -> dict[str, Any]:
        return {"median": self.median, "min": self.min, "max": self.max, "mean": self.mean, "cv": self.cv,
                "repeats": self.repeats, "inner": self.inner}

    @classmethod
    def from_json(cls, data: Any, where: str = "time_s") -> TimingStats:
        """``median`` is required; an older row without the others reads them as the median (no spread known)."""
        r = Reader(data, where)
        median = r.number("median")
        low = r.opt_number("min")
        return cls(median=median, min=median if low is None else low,
                   max=r.opt_number("max") or median, mean=r.opt_number("mean") or median,
                   cv=r.opt_number("cv") or 0.0, repeats=r.integer("repeats", 1), inner=r.integer("inner", 1))
