"""A roofline chart: the measured roofs, the datasheet roofs where the device is known, and labelled points.

Attributes in, nothing out: ``RooflineChart(roofline=..., points=[...])`` or set ``chart.roofline`` /
``chart.points`` later. ``roofline`` is the measurement engine's dict (``peak_bandwidth_gbs``, ``peak_gflops``
by dtype, ``datasheet`` with ``bandwidth_gbs`` and ``tflops`` by dtype). One plot object per widget
(``self.plt``), log-log axes: arithmetic intensity (FLOP/byte) against GFLOP/s.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from textual.app import RenderResult
from textual.reactive import reactive
from textual_plotext import PlotextPlot

from tutor.untrusted import clean_line

# A kernel with no FLOPs (a copy) has intensity 0, which a log axis cannot show: it is drawn at this intensity
# on its bandwidth line, and its label says so.
ZERO_INTENSITY_AT = 0.01


@dataclass(frozen=True)
class RooflinePoint:
    """A point on the chart: ``intensity`` in FLOP/byte, ``gflops`` in GFLOP/s."""

    label: str
    intensity: float
    gflops: float
    color: str = "orange"
    marker: str = "●"


def _peak(values: Any, dtype: str) -> float | None:
    if isinstance(values, Mapping):
        v = values.get(dtype, values.get("float32"))
        return float(v) if isinstance(v, int | float) else None
    return float(values) if isinstance(values, int | float) else None


def roofs_of(roofline: Mapping[str, Any] | None, dtype: str = "float32") -> dict[str, tuple[float, float]]:
    """``{"measured": (GB/s, GFLOP/s), "datasheet": (...)}`` for the roofs that are known."""
    out: dict[str, tuple[float, float]] = {}
    if not roofline:
        return out
    bw, flops = roofline.get("peak_bandwidth_gbs"), _peak(roofline.get("peak_gflops"), dtype)
    if isinstance(bw, int | float) and bw > 0 and flops:
        out["measured"] = (float(bw), flops)
    sheet = roofline.get("datasheet")
    if isinstance(sheet, Mapping):
        sbw = sheet.get("bandwidth_gbs")
        tflops = _peak(sheet.get("tflops"), dtype)
        if isinstance(sbw, int | float) and sbw > 0 and tflops:
            out["datasheet"] = (float(sbw), tflops * 1e3)
    return out


def plottable(point: RooflinePoint, bandwidth_gbs: float | None) -> RooflinePoint | None:
    """The point as drawn on log axes (a zero-FLOP kernel moved to :data:`ZERO_INTENSITY_AT`), or None."""
    if point.intensity > 0 and point.gflops > 0:
        return point
    if point.intensity <= 0 and bandwidth_gbs and point.gflops >= 0:
        return RooflinePoint(f"{point.label} (0 FLOP/B, drawn at {ZERO_INTENSITY_AT})", ZERO_INTENSITY_AT,
                             max(point.gflops, 0.0) or bandwidth_gbs * ZERO_INTENSITY_AT, point.color, point.marker)
    return None


class RooflineChart(PlotextPlot):
    """The roofline with the workload's point and the learner's guess."""

    DEFAULT_CSS = """
    RooflineChart {
        height: 18;
        min-height: 12;
    }
    """

    roofline: reactive[dict[str, Any] | None] = reactive(None, always_update=True)
    """The roofline dict from the measurement (measured peaks, datasheet)."""
    points: reactive[tuple[RooflinePoint, ...]] = reactive((), always_update=True)
    """Labelled points: the workload as measured, the learner's guess."""
    dtype: reactive[str] = reactive("float32")
    """Which dtype's compute roof to draw."""

    def __init__(
        self,
        *,
        roofline: Mapping[str, Any] | None = None,
        points: Sequence[RooflinePoint] = (),
        dtype: str = "float32",
        title: str = "Roofline",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.title = title
        self.set_reactive(RooflineChart.roofline, dict(roofline) if roofline else None)
        self.set_reactive(RooflineChart.points, tuple(points))
        self.set_reactive(RooflineChart.dtype, dtype)

    def on_mount(self) -> None:
        self.redraw()

    def watch_roofline(self) -> None:
        self.redraw()

    def watch_points(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        """Draw again on the next render."""
        self.refresh()

    def render(self) -> RenderResult:
        # plotext applies its log scale to the stored data in place, so a figure cannot be built twice: it is
        # rebuilt from the attributes on every render.
        self._draw()
        return super().render()

    def _draw(self) -> None:
        plt = self.plt
        plt.clear_figure()
        plt.title(clean_line(self.title))
        plt.xlabel("FLOP/byte")
        plt.ylabel("GFLOP/s")
        roofs = roofs_of(self.roofline, self.dtype)
        measured_bw = roofs.get("measured", (None, None))[0]
        drawn = [p for p in (plottable(p, measured_bw) for p in self.points) if p is not None]
        xs = [p.intensity for p in drawn]
        ridges = [f / b for b, f in roofs.values()]
        lo = min([*xs, *(r / 30 for r in ridges)], default=0.01)
        hi = max([*xs, *(r * 30 for r in ridges)], default=100.0)
        lo, hi = max(lo / 2, 1e-4), hi * 2
        if roofs or drawn:
            plt.xscale("log")
            plt.yscale("log")
        grid = [lo * (hi / lo) ** (i / 60) for i in range(61)]
        colours = {"measured": "cyan", "datasheet": "gray"}
        for name, (bw, flops) in roofs.items():
            plt.plot(grid, [min(flops, x * bw) for x in grid], color=colours[name],
                     label=f"{name}: {bw:,.0f} GB/s, {flops:,.0f} GFLOP/s", marker="braille")
        for p in drawn:
            plt.scatter([p.intensity], [p.gflops], color=p.color, marker=p.marker, label=clean_line(p.label))
        ys = [y for p in drawn for y in (p.gflops,)] + [f for _, f in roofs.values()] + [lo * b for b, _ in
                                                                                          roofs.values()]
        ys = [y for y in ys if y > 0 and math.isfinite(y)]
        if ys:
            ticks = _decades(min(ys), max(ys))
            if len(ticks) >= 2:
                plt.yticks(ticks, [_short(t) for t in ticks])
        xticks = _decades(lo, hi)
        if len(xticks) >= 2:
            plt.xticks(xticks, [_short(t) for t in xticks])


def _decades(lo: float, hi: float) -> list[float]:
    if lo <= 0 or hi <= 0:
        return []
    return [10.0**e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)]


def _short(v: float) -> str:
    if 1e-2 <= v < 1e5:
        return f"{v:g}"
    return f"{v:.0e}".replace("e+0", "e").replace("e-0", "e-")
