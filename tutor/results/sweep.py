"""A sweep's points: each measured point as the engine streams it, placed on the sweep's plot."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tutor.results.reading import Reader, ResultError, expected, is_number
from tutor.results.wire import JsonObject

SWEEP_AXES: dict[str, tuple[str, str]] = {
    "working_set": ("working_set_bytes", "gbs"),
    "gemm_sizes": ("n", "gflops"),
    "naive_vs_numpy": ("n", "gflops"),
    "roofline_points": ("arithmetic_intensity", "gflops"),
    "gemm_share": ("tokens_per_step", "gemm_pct"),
}
"""Per sweep: the point's figures on the x and y axes of its plot."""


@dataclass(frozen=True)
class SweepPoint:
    """One point of a sweep: where it goes on the plot (``x``, ``y`` on the sweep's axes, None when the point has
    no such figure yet), the series it belongs to, and every figure it carries (``values``, as measured)."""

    x: float | None
    y: float | None
    series: str = "measured"
    """The plot series: ``measured``, ``kernels (measured)``, ``python (measured)``, ``python (extrapolated ∝ N³)``…"""
    extrapolated: bool = False
    name: str = ""
    """The kernel's name on a roofline-points plot (``gemm 512``)."""
    values: Mapping[str, Any] = field(default_factory=dict)

    @property
    def plottable(self) -> bool:
        return self.x is not None and self.y is not None

    def at(self) -> tuple[float, float]:
        """``(x, y)`` on the plot; ``ValueError`` for a point without them (:func:`sweep_point` returns only
        points with both)."""
        if self.x is None or self.y is None:
            raise ValueError("this sweep point has no position on its plot")
        return self.x, self.y

    def to_json(self) -> JsonObject:
        return dict(self.values)

    @classmethod
    def from_json(cls, sweep: str, data: Any, where: str = "point") -> SweepPoint:
        r = Reader(data, where)
        x_key, y_key = SWEEP_AXES.get(sweep, ("x", "y"))
        x, y = r.raw(x_key), r.raw(y_key)
        for key, value in ((x_key, x), (y_key, y)):
            if value is not None and not is_number(value):  # a figure the plot would draw must be a number
                raise expected(r.at(key), "number", value, show=True)
        extrapolated = r.flag("extrapolated")
        if sweep == "naive_vs_numpy":
            base = r.text("series", "python") or "python"
            series = f"{base} ({'extrapolated ∝ N³' if extrapolated else 'measured'})"
        elif sweep == "roofline_points":
            series = "kernels (measured)"
        else:
            series = r.text("series", "measured") or "measured"
        name = r.text("name")
        params = data.get("params")
        if name in ("gemm", "bmm") and isinstance(params, Mapping) and "n" in params:
            name = f"{name} {params['n']}"
        return cls(x=float(x) if is_number(x) else None, y=float(y) if is_number(y) else None, series=series,
                   extrapolated=extrapolated, name=name, values=dict(data))


def sweep_point(sweep: str, point: Mapping[str, Any]) -> SweepPoint | None:
    """Where ``point`` (as the measurement engine streams it) goes on ``sweep``'s plot; None if it has no x/y or
    is not a point."""
    try:
        sp = SweepPoint.from_json(sweep, point)
    except ResultError:
        return None
    return sp if sp.plottable else None
