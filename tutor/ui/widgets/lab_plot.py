"""The lab's live plot: each series drawn as its points arrive, in the shape the lab's sweep calls for.

- ``working_set``: bandwidth vs working-set size, log x, the machine's L1/L2/L3 sizes marked;
- ``gemm_sizes``: GFLOP/s vs N;
- ``naive_vs_numpy``: time per matmul vs N on a log scale, the naive loop's extrapolation labelled as such;
- ``roofline_points``: the measured roofline (log-log) with a point per kernel.

Drawn on the same text canvas as the exercise's roofline chart (:mod:`tutor.ui.chart_geometry`), so a test can
say where each point lands and that nothing is empty.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from rich.console import Group
from rich.text import Text
from textual.app import RenderResult
from textual.widget import Widget

from tutor.i18n import Lang, t
from tutor.i18n.numbers import decimal, format_number
from tutor.ui.chart_geometry import (
    Axis,
    Canvas,
    Dots,
    PlotArea,
    draw_axes,
    draw_ridge,
    draw_roof,
    fit,
    is_braille,
    legend_layout,
    legend_rows,
    make_axis,
    plot_area,
    roof_points,
    short_number,
    wants_log,
)
from tutor.untrusted import clean_line

# Colours from plotext's palette, one per series in order.
_COLOURS = ("cyan", "dark_orange", "green", "magenta", "blue", "red", "yellow")


@dataclass
class PlotSeries:
    """One series of a sweep: its label and the (x, y) points measured so far."""

    label: str
    points: list[tuple[float, float]] = field(default_factory=list)
    extrapolated: bool = False
    kind: str = "line"  # "line" or "scatter"
    names: list[str] = field(default_factory=list)  # one label per point (roofline points)


def binary_size(n: float, lang: str = "en") -> str:
    """16K, 1M, 32M (``1,5M`` in Spanish): a size in bytes as the tick labels of a working-set axis."""
    for unit, scale in (("G", 2**30), ("M", 2**20), ("K", 2**10)):
        if n >= scale:
            value = n / scale
            digits = 0 if value >= 10 or value == int(value) else 1
            return f"{decimal(value, lang, digits)}{unit}"
    return decimal(n, lang, 0)


def _log_ticks(lo: float, hi: float, base: float) -> list[float]:
    if lo <= 0 or hi <= 0:
        return []
    start = math.floor(math.log(lo, base))
    stop = math.ceil(math.log(hi, base))
    return [base**e for e in range(start, stop + 1) if lo / 1.001 <= base**e <= hi * 1.001]


def _sci(v: float, lang: str = "en") -> str:
    return short_number(v, lang)


class LabPlot(Widget):
    """A sweep's plot that redraws itself whenever a point or a mark is added, drawn as text on a
    :class:`~tutor.ui.chart_geometry.Canvas` (plotext failed to lay out a legend or a zero on log axes, and a lab
    then showed no plot at all): each axis in the scale its lesson promises, lines in Braille dots, the legend
    under the plot area."""

    DEFAULT_CSS = """
    LabPlot {
        height: 1fr;
        min-height: 12;
    }
    """

    def __init__(
        self,
        kind: str,
        *,
        title: str = "",
        x_label: str = "",
        y_label: str = "",
        lang: Lang = "en",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._lang: Lang = lang
        self.kind = kind
        self.title = title
        self.x_label = x_label
        self.y_label = y_label
        self.series: dict[str, PlotSeries] = {}
        self.caches: dict[str, int] = {}
        self.roofs: dict[str, Any] = {}
        self.prediction: tuple[float, str, str] | None = None

    @property
    def lang(self) -> Lang:
        """The language of the plot's own words and numbers (set by its screen; setting it draws again)."""
        return self._lang

    @lang.setter
    def lang(self, lang: Lang) -> None:
        self._lang = lang
        self.redraw()

    # -- data in -------------------------------------------------------------------------------------------

    def add_point(
        self, series: str, x: float, y: float, *, extrapolated: bool = False, name: str = "", kind: str = "line"
    ) -> None:
        """Add one measured (or, labelled, extrapolated) point and redraw."""
        if not _finite(x) or not _finite(y) or x < 0 or (x == 0 and self.kind != "roofline_points"):
            return
        s = self.series.get(series)
        if s is None:
            s = self.series[series] = PlotSeries(series, extrapolated=extrapolated, kind=kind)
        s.points.append((float(x), float(y)))
        s.names.append(name)
        self.redraw()

    def set_series(self, series: list[PlotSeries]) -> None:
        """Replace every series (the final result, which supersedes the streamed points)."""
        self.series = {s.label: s for s in series if s.points}
        self.redraw()

    def set_caches(self, caches: dict[str, int]) -> None:
        """The machine's cache sizes in bytes (``{"L1": 49152, ...}``), marked on a working-set plot."""
        self.caches = {k: int(v) for k, v in caches.items() if isinstance(v, int | float) and v > 0}
        self.redraw()

    def set_roofs(self, *, peak_bandwidth_gbs: float | None, peak_gflops: float | None, label: str = "",
                  stamp: str = "") -> None:
        """The measured roofs drawn under a roofline plot's points; ``stamp`` says when they were measured (shown
        in the title)."""
        self.roofs = {"bw": peak_bandwidth_gbs, "flops": peak_gflops, "label": label, "stamp": stamp}
        self.redraw()

    @property
    def roof_stamp(self) -> str:
        """When the drawn roof was measured ("" when no roof is drawn or it does not say)."""
        return str(self.roofs.get("stamp") or "")

    def set_prediction(self, value: float | None, unit: str | None, label: str = "") -> None:
        """Draw the learner's prediction where its unit is one of the plot's axes (a level, a bandwidth roof, a
        ridge point)."""
        self.prediction = (float(value), unit or "", label) if _finite_positive(value) else None
        self.redraw()

    def clear(self) -> None:
        self.series.clear()
        self.redraw()

    @property
    def point_count(self) -> int:
        return sum(len(s.points) for s in self.series.values())

    def redraw(self) -> None:
        """Draw again on the next render."""
        self.refresh()

    # -- drawing -------------------------------------------------------------------------------------------

    def render(self) -> RenderResult:
        if not self.series and not self.roofs:
            return Text(t("plot.no_points", self.lang), style="italic")
        width, height = max(20, self.size.width or 80), max(8, self.size.height or 20)
        chart = self.chart(width, height)
        return Group(*chart.lines())

    def chart(self, width: int, height: int) -> DrawnChart:
        """The plot drawn on a ``width``×``height`` canvas: title, plot area, axes, legend (a test reads it)."""
        legend = self.legend_entries()
        legend_texts = legend_rows([(m, lbl) for m, lbl, _ in legend], width)
        title = clean_line(f"{self.title} — {self.roof_stamp}" if self.roof_stamp else self.title)
        canvas_height = max(7, height - len(legend_texts) - 1)
        x, y = self.axes()
        canvas = Canvas(width, canvas_height)
        area = plot_area(x, y, width, canvas_height, self.lang, self._y_format)
        draw_axes(canvas, area, clean_line(self.x_label), clean_line(self.y_label), "grey50", self.lang,
                  self._x_format, self._y_format)
        self._draw(canvas, area)
        return DrawnChart(fit(title, width), canvas, area, legend, width)

    def axes(self) -> tuple[Axis, Axis]:
        """The x and y axes: the scale each lab's lesson promises (Lab 01 log-log, Lab 00 and Lab 02 log N,
        the roofline log-log), covering every point, mark and prediction drawn."""
        pts = self._all_points()
        xs = [p[0] for p in pts if p[0] > 0]
        ys = [p[1] for p in pts]
        if self.kind == "roofline_points":
            xs = [max(x, ZERO_AT) for x in xs] + [ZERO_AT]
            ys = [y for y in ys if y > 0]
            bw, peak = self.roofs.get("bw"), self.roofs.get("flops")
            if _finite_positive(bw) and _finite_positive(peak):
                ridge = peak / bw
                xs += [ridge / 10, ridge * 10]
                ys += [peak]
                if self.prediction is not None and self.prediction[1] == "FLOP/B":
                    xs.append(self.prediction[0])
                x = make_axis(xs, log=True)
                ys.append(x.lo * bw)
            else:
                x = make_axis(xs or [0.1, 100.0], log=True)
            if self.prediction is not None and self.prediction[1] == "GB/s":
                ys += [x.lo * self.prediction[0], x.hi * self.prediction[0]]
                if _finite_positive(peak):
                    ys = [min(y, peak * 10) for y in ys]
            return x, make_axis(ys or [1.0, 1000.0], log=True)
        if self.kind == "working_set":
            xs += [v for v in self.caches.values() if xs and min(xs) <= v <= max(xs)]
        ys += self._predicted_level()
        log_x = self.kind in LOG_X or wants_log(xs)
        log_y = self.kind in LOG_Y and all(y > 0 for y in ys)
        x = make_axis(xs or [1.0, 10.0], log=log_x)
        if self.kind == "working_set":
            x = Axis(x.lo, x.hi, x.log, tuple(_log_ticks(x.lo, x.hi, 4)) if x.log else x.ticks)
        y = make_axis(ys or [0.0, 1.0], log=log_y)
        return x, y

    def _predicted_level(self) -> list[float]:
        if self.prediction is not None and self.prediction[1] == self.y_label:
            return [self.prediction[0]]
        return []

    def _x_format(self, v: float) -> str:
        return binary_size(v, self.lang) if self.kind == "working_set" else short_number(v, self.lang)

    def _y_format(self, v: float) -> str:
        return short_number(v, self.lang)

    def legend_entries(self) -> list[tuple[str, str, str]]:
        """(marker, label, style) of every series, roof, mark and prediction drawn, in the plot's language."""
        out: list[tuple[str, str, str]] = []
        lang = self.lang
        if self.kind == "roofline_points":
            bw, peak = self.roofs.get("bw"), self.roofs.get("flops")
            if _finite_positive(bw) and _finite_positive(peak):
                label = str(self.roofs.get("label") or t("lab.plot.roofline", lang))
                out.append(("⠒⠒", clean_line(f"{label}: {format_number(bw, lang, ',.3g')} GB/s, "
                                             f"{format_number(peak, lang, ',.0f')} GFLOP/s"), "red"))
                out.append(("┊", t("plot.ridge", lang, ridge=format_number(peak / bw, lang, ".3g")), "grey62"))
        for i, s in enumerate(self.series.values()):
            marker = "◌" if s.extrapolated else "●"
            out.append((marker, clean_line(s.label), _COLOURS[i % len(_COLOURS)]))
        if self.kind == "working_set":
            shown = [f"{level} {binary_size(size, lang)}" for level, size in sorted(self.caches.items(),
                                                                                    key=lambda kv: kv[1])]
            if shown and self.series:
                out.append(("┆", t("plot.caches", lang, caches=", ".join(shown)), "red"))
        if self.prediction is not None:
            value, unit, label = self.prediction
            label = label or t("lab.plot.prediction", lang)
            if self._prediction_drawn(unit):
                marker = {"GB/s": "⠒⠒", "FLOP/B": "╎"}.get(unit, "╌") if self.kind == "roofline_points" else "╌"
                out.append((marker, clean_line(f"{label} ({format_number(value, lang, 'g')} {unit})"), "yellow"))
        return out

    def _prediction_drawn(self, unit: str) -> bool:
        if self.kind == "roofline_points":
            return unit in ("GB/s", "FLOP/B")
        return bool(unit) and unit == self.y_label

    def _all_points(self) -> list[tuple[float, float]]:
        return [p for s in self.series.values() for p in s.points]

    def _draw(self, canvas: Canvas, area: PlotArea) -> None:
        if self.kind == "roofline_points":
            self._draw_roofline(canvas, area)
        else:
            self._draw_sweep(canvas, area)

    def _draw_sweep(self, canvas: Canvas, area: PlotArea) -> None:
        if self.kind == "working_set":
            xs = [p[0] for p in self._all_points()]
            for _level, size in sorted(self.caches.items(), key=lambda kv: kv[1]):
                if xs and min(xs) <= size <= max(xs):
                    col = area.col(size)
                    for row in range(area.top, area.bottom + 1):
                        canvas.put(col, row, "┆", "red")
                    canvas.write(col + 1, area.top, fit(_level, max(0, area.right - col)), "red")
        level = self._predicted_level()
        if level:
            row = area.row(level[0])
            for col in range(area.left, area.right + 1):
                if canvas.char_at(col, row) == " ":
                    canvas.put(col, row, "╌", "yellow")
        for i, s in enumerate(self.series.values()):
            colour = _COLOURS[i % len(_COLOURS)]
            pts = sorted(p for p in s.points if area.y.log is False or p[1] > 0)
            if s.kind != "scatter":
                dots = Dots(area)
                dots.polyline(pts, every=2 if s.extrapolated else 1)
                dots.paint(canvas, colour)
            for px, py in pts:
                canvas.put(area.col(px), area.row(py), "◌" if s.extrapolated else "●", f"bold {colour}")

    def _draw_roofline(self, canvas: Canvas, area: PlotArea) -> None:
        bw, peak = self.roofs.get("bw"), self.roofs.get("flops")
        if self.prediction is not None:
            value, unit, _label = self.prediction
            if unit == "GB/s":
                dots = Dots(area)
                dots.polyline(roof_points(area, value, peak if _finite_positive(peak) else area.y.hi * 10), 2)
                dots.paint(canvas, "yellow")
            elif unit == "FLOP/B" and area.x.contains(value):
                col = area.col(value)
                for row in range(area.top, area.bottom + 1):
                    canvas.put(col, row, "╎", "yellow")
        if _finite_positive(bw) and _finite_positive(peak):
            draw_roof(canvas, area, bw, peak, "red")
            draw_ridge(canvas, area, peak / bw, peak, "grey62")
        labels: list[tuple[int, int, str]] = []
        for i, s in enumerate(self.series.values()):
            colour = _COLOURS[i % len(_COLOURS)]
            for (px, py), name in zip(s.points, s.names or [""] * len(s.points), strict=False):
                if py <= 0 and px > 0:
                    continue
                px = px if px > 0 else ZERO_AT  # a copy does no FLOPs: drawn at the axis's left, on its bandwidth
                py = py if py > 0 else (bw * ZERO_AT if _finite_positive(bw) else area.y.lo)
                col, row = area.col(px), area.row(py)
                canvas.put(col, row, "●", f"bold {colour}")
                if name:
                    shown = clean_line(name) if s.points and (px, py) in s.points else t(
                        "chart.zero_flop", self.lang, label=clean_line(name), at=format_number(ZERO_AT, self.lang, "g"))
                    labels.append((col + 1, row, shown))
        # a label goes right of its point, else left of it, where it covers no marker, tick or other label;
        # one that fits on neither side is left out (the figures are in the result table)
        for col, row, text in labels:
            for start in (col, col - 2 - len(text)):
                cells = range(start, start + len(text))
                if start >= area.left and start + len(text) <= area.right + 1 and all(
                        canvas.char_at(c, row) == " " or is_braille(canvas.char_at(c, row)) for c in cells):
                    canvas.write(start, row, text, "grey85")
                    break


@dataclass(frozen=True)
class DrawnChart:
    """A drawn chart: its title, its canvas and plot area, its legend entries, as Rich lines."""

    title: str
    canvas: Canvas
    area: PlotArea
    legend: list[tuple[str, str, str]]
    width: int

    def lines(self) -> list[Text]:
        out = [Text(self.title, style="bold", no_wrap=True, overflow="ellipsis")]
        for text, spans in self.canvas.rows():
            line = Text(text, no_wrap=True, overflow="crop")
            for start, end, style in spans:
                line.stylize(style, start, end)
            out.append(line)
        items = [Text.assemble((marker, style), f" {label}") for marker, label, style in self.legend]
        for item in items:
            item.truncate(self.width, overflow="ellipsis")
        out += [Text("   ").join(items[i] for i in row)
                for row in legend_layout([item.cell_len for item in items], self.width)]
        return out

    def text(self) -> str:
        """Every line as plain text (what a test reads)."""
        return "\n".join(line.plain for line in self.lines())


# The scales the lessons promise: Lab 01 "size (log), GB/s (log)"; Lab 00 "on log scales"; Lab 02's sizes double.
LOG_X = frozenset({"working_set", "naive_vs_numpy", "gemm_sizes", "roofline_points"})
LOG_Y = frozenset({"working_set", "naive_vs_numpy", "roofline_points"})
# A kernel with no FLOPs (a copy) has intensity 0, which a log axis cannot show: drawn at this intensity.
ZERO_AT = 0.01


def _finite(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _finite_positive(v: Any) -> TypeGuard[float]:
    return _finite(v) and v > 0
