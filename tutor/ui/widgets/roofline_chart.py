"""A roofline chart: the measured roofs, the datasheet roofs where the device is known, and labelled points.

Attributes in, nothing out: ``RooflineChart(roofline=..., points=[...])`` or set ``chart.roofline`` /
``chart.points`` later. ``roofline`` is the measurement engine's dict (``peak_bandwidth_gbs``, ``peak_gflops``
by dtype, ``datasheet`` with ``bandwidth_gbs`` and ``tflops`` by dtype). Log-log axes, arithmetic intensity
(FLOP/byte) against GFLOP/s, drawn as text on a :class:`~tutor.ui.chart_geometry.Canvas` so that each point lands
in the cell :mod:`tutor.ui.chart_geometry` computes (a test checks it), and the legend sits below the plot area.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group
from rich.text import Text
from textual.app import RenderResult
from textual.reactive import reactive
from textual.widget import Widget

from tutor.i18n import Lang, t
from tutor.i18n.numbers import format_number
from tutor.practice.roof_stamp import roof_stamp
from tutor.results import RooflineReference
from tutor.ui.chart_geometry import (
    Axis,
    Canvas,
    PlotArea,
    draw_axes,
    draw_ridge,
    draw_roof,
    legend_layout,
    make_axis,
    plot_area,
)
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


def roofs_of(roofline: RooflineReference | None, dtype: str = "float32") -> dict[str, tuple[float, float]]:
    """``{"measured": (GB/s, GFLOP/s), "datasheet": (...)}`` for the roofs that are known."""
    out: dict[str, tuple[float, float]] = {}
    if roofline is None:
        return out
    bw, flops = roofline.peak_bandwidth_gbs, roofline.peak_for(dtype)
    if bw > 0 and flops:
        out["measured"] = (bw, flops)
    sheet = roofline.datasheet
    if sheet is not None:
        tflops = sheet.tflops.get(dtype, sheet.tflops.get("float32"))
        if sheet.bandwidth_gbs and sheet.bandwidth_gbs > 0 and tflops:
            out["datasheet"] = (sheet.bandwidth_gbs, tflops * 1e3)
    return out


def plottable(point: RooflinePoint, bandwidth_gbs: float | None, lang: Lang = "en") -> RooflinePoint | None:
    """The point as drawn on log axes (a zero-FLOP kernel moved to :data:`ZERO_INTENSITY_AT`, its label saying so
    in ``lang``), or None."""
    if point.intensity > 0 and point.gflops > 0:
        return point
    if point.intensity <= 0 and bandwidth_gbs and point.gflops >= 0:
        label = t("chart.zero_flop", lang, label=point.label, at=format_number(ZERO_INTENSITY_AT, lang, "g"))
        return RooflinePoint(label, ZERO_INTENSITY_AT,
                             max(point.gflops, 0.0) or bandwidth_gbs * ZERO_INTENSITY_AT, point.color, point.marker)
    return None


class RooflineChart(Widget):
    """The roofline with the workload's point and the learner's guess, drawn as text: both axes log, ranges
    that hold every point and both slopes of each roof, the ridge marked, the legend below the plot area."""

    DEFAULT_CSS = """
    RooflineChart {
        height: 18;
        min-height: 12;
    }
    """

    roofline: reactive[RooflineReference | None] = reactive(None, always_update=True)
    """The roofline the measurement was judged against (measured peaks, datasheet)."""
    points: reactive[tuple[RooflinePoint, ...]] = reactive((), always_update=True)
    """Labelled points: the workload as measured, the learner's guess."""
    dtype: reactive[str] = reactive("float32")
    """Which dtype's compute roof to draw."""
    lang: reactive[Lang] = reactive[Lang]("en")
    """The language of the chart's own words (set by its screen)."""
    guess_bandwidth: reactive[tuple[float, str] | None] = reactive(None, always_update=True)
    """A guessed bandwidth (GB/s) and its legend label: drawn as the roof it would make (a dotted slope-1 line up to
    the measured compute roof), not as a point, which at one intensity could only sit above or on the real roof."""

    def __init__(
        self,
        *,
        roofline: RooflineReference | None = None,
        points: Sequence[RooflinePoint] = (),
        dtype: str = "float32",
        title: str = "Roofline",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.title = title
        self.set_reactive(RooflineChart.roofline, roofline)
        self.set_reactive(RooflineChart.points, tuple(points))
        self.set_reactive(RooflineChart.dtype, dtype)

    def watch_roofline(self) -> None:
        self.refresh()

    def watch_points(self) -> None:
        self.refresh()

    def watch_guess_bandwidth(self) -> None:
        self.refresh()

    def redraw(self) -> None:
        """Draw again on the next render."""
        self.refresh()

    def _drawn_points(self) -> list[RooflinePoint]:
        roofs = roofs_of(self.roofline, self.dtype)
        measured_bw = roofs.get("measured", (None, None))[0]
        return [p for p in (plottable(p, measured_bw, self.lang) for p in self.points) if p is not None]

    def axes(self) -> tuple[Axis, Axis]:
        """The x (FLOP/byte) and y (GFLOP/s) axes: both log, covering every point (measured and guessed), the
        roofs, and a decade either side of each ridge so both slopes show."""
        roofs = roofs_of(self.roofline, self.dtype)
        drawn = self._drawn_points()
        ridges = [f / b for b, f in roofs.values()]
        x_values = [p.intensity for p in drawn] + [r / 10 for r in ridges] + [r * 10 for r in ridges]
        x = make_axis(x_values or [0.1, 100.0], log=True)
        bandwidths = [b for b, _ in roofs.values()] + ([self.guess_bandwidth[0]] if self.guess_bandwidth else [])
        y_values = [p.gflops for p in drawn] + [f for _, f in roofs.values()] + [x.lo * b for b in bandwidths]
        y = make_axis(y_values or [1.0, 1000.0], log=True)
        return x, y

    def legend_entries(self) -> list[tuple[str, str, str]]:
        """(marker, label, style) of every roof and point, as the legend below the plot shows them (in the chart's
        language, numbers included)."""
        roofs = roofs_of(self.roofline, self.dtype)
        lang = self.lang
        entries = [(ROOF_CHARS[name], t(f"chart.roof.{name}", lang, bandwidth=format_number(bw, lang, ",.0f"),
                                        flops=format_number(flops, lang, ",.0f")), ROOF_STYLES[name])
                   for name, (bw, flops) in roofs.items()]
        if self.guess_bandwidth is not None:
            entries.append(("⠂⠂", clean_line(self.guess_bandwidth[1]), "magenta"))
        entries += [(p.marker, clean_line(p.label), _style(p.color)) for p in self._drawn_points()]
        return entries

    def canvas(self, width: int, height: int) -> tuple[Canvas, PlotArea]:
        """The chart's plot area on a ``width``×``height`` canvas (the legend is not in it)."""
        canvas = Canvas(width, height)
        area = plot_area(*self.axes(), width, height, self.lang)
        draw_axes(canvas, area, t("chart.axis.intensity", self.lang), t("chart.axis.gflops", self.lang), "grey50",
                  self.lang)
        roofs = roofs_of(self.roofline, self.dtype)
        for name in ("datasheet", "measured"):
            if name in roofs:
                bw, flops = roofs[name]
                draw_roof(canvas, area, bw, flops, ROOF_STYLES[name], every=1 if name == "measured" else 3)
        if "measured" in roofs:
            bw, flops = roofs["measured"]
            draw_ridge(canvas, area, flops / bw, flops, "grey50")
            if self.guess_bandwidth is not None and self.guess_bandwidth[0] > 0:
                draw_roof(canvas, area, self.guess_bandwidth[0], flops, "magenta", every=2)
        for p in self._drawn_points():
            canvas.put(area.col(p.intensity), area.row(p.gflops), p.marker, f"bold {_style(p.color)}")
        return canvas, area

    def roof_stamp(self) -> str | None:
        """When the drawn roof was measured, under what load and noise ("roof measured 12 min ago, load 0,4, CV
        1,2 %"), in the app's language; None when the roofline does not record it."""
        return roof_stamp(self.roofline, self.lang)

    def render(self) -> RenderResult:
        width, height = max(20, self.size.width), max(8, self.size.height)
        items = [Text.assemble((marker, style), f" {label}") for marker, label, style in self.legend_entries()]
        for item in items:
            item.truncate(width, overflow="ellipsis")
        legend = [Text("   ").join(items[i] for i in row)
                  for row in legend_layout([item.cell_len for item in items], width)]
        stamp = self.roof_stamp()
        if stamp:
            line = Text(clean_line(stamp), style="grey62 italic")
            line.truncate(width, overflow="ellipsis")
            legend.append(line)
        canvas, _area = self.canvas(width, max(6, height - len(legend)))
        lines = []
        for text, spans in canvas.rows():
            line = Text(text, no_wrap=True, overflow="crop")
            for start, end, style in spans:
                line.stylize(style, start, end)
            lines.append(line)
        return Group(*lines, *legend)


ROOF_CHARS = {"measured": "⠒⠒", "datasheet": "⠂ ⠂"}
ROOF_STYLES = {"measured": "cyan", "datasheet": "grey62"}


def _style(colour: str) -> str:
    return {"orange": "dark_orange", "gray": "grey62"}.get(colour, colour)
