"""The lab's live plot: each series drawn as its points arrive, in the shape the lab's sweep calls for.

- ``working_set``: bandwidth vs working-set size, log x, the machine's L1/L2/L3 sizes marked;
- ``gemm_sizes``: GFLOP/s vs N;
- ``naive_vs_numpy``: time per matmul vs N on a log scale, the naive loop's extrapolation labelled as such;
- ``roofline_points``: the measured roofline (log-log) with a point per kernel.

One plot object per widget (``self.plt``), never the global ``plotext`` module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from rich.text import Text
from textual.app import RenderResult
from textual_plotext import PlotextPlot

from tutor.i18n import Lang, t
from tutor.i18n.numbers import decimal, format_number
from tutor.ui.chart_geometry import axis_range, cell, label_rows, linear_ticks, short_number, wants_log
from tutor.untrusted import clean_line

# Colours from plotext's palette, one per series in order.
_COLOURS = ("cyan", "orange", "green", "magenta", "blue", "red", "yellow")


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


class LabPlot(PlotextPlot):
    """A sweep's plot that redraws itself whenever a point or a mark is added."""

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
        if not _finite_positive(x) or not _finite(y):
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
        """Draw the learner's prediction where its unit is one of the plot's axes (a level, or a bandwidth roof)."""
        self.prediction = (float(value), unit or "", label) if _finite_positive(value) else None
        self.redraw()

    def clear(self) -> None:
        self.series.clear()
        self.redraw()

    @property
    def point_count(self) -> int:
        return sum(len(s.points) for s in self.series.values())

    # -- drawing -------------------------------------------------------------------------------------------

    def render(self) -> RenderResult:
        # plotext can fail on degenerate layouts (a lone point on a log axis, a tiny widget): a plot that cannot
        # be drawn must never take the app down with it; the figures are in the result table anyway.
        try:
            return super().render()
        except Exception:
            key = "plot.no_points" if not self.point_count else "plot.cannot_draw"
            return Text(t(key, self.lang), style="italic")

    def redraw(self) -> None:
        plt = self.plt
        plt.clear_figure()
        self._y_range = None
        stamp = self.roof_stamp
        plt.title(clean_line(f"{self.title} — {stamp}" if stamp else self.title))
        plt.xlabel(clean_line(self.x_label))
        plt.ylabel(clean_line(self.y_label))
        draw = {
            "working_set": self._draw_working_set,
            "naive_vs_numpy": self._draw_log_y,
            "roofline_points": self._draw_roofline,
        }.get(self.kind, self._draw_lines)
        if self.series or self.roofs:
            draw()
            self._draw_prediction()
        self._label_linear_axes()
        self.refresh()

    def _label_linear_axes(self) -> None:
        """Ticks written in the plot's language on every axis the drawing left to plotext (whose own labels have a
        decimal point in every language)."""
        pts = self._all_points()
        if self.kind != "roofline_points" and self.kind != "naive_vs_numpy":
            ys = [p[1] for p in pts]
            if self.prediction is not None and self.prediction[1] == self.y_label:
                ys.append(self.prediction[0])
            if self._y_range is not None:
                ys += list(self._y_range)
            if ys:
                lo, hi = min(ys), max(ys)
                if hi <= lo:
                    lo, hi = lo - 1, hi + 1
                ticks = linear_ticks(lo, hi, 5)
                if ticks:
                    self.plt.yticks(list(ticks), [self._num(v) for v in ticks])

    def _num(self, v: float) -> str:
        return short_number(v, self.lang)

    _y_range: tuple[float, float] | None = None

    def _draw_prediction(self) -> None:
        if self.prediction is None:
            return
        value, unit, label = self.prediction
        label = label or t("lab.plot.prediction", self.lang)
        shown = format_number(value, self.lang, "g")
        pts = self._all_points()
        if self.kind == "roofline_points" and unit == "GB/s":
            xs = [p[0] for p in pts if p[0] > 0] or [0.1, 100.0]
            lo, hi = min(xs) / 2, max(xs) * 2
            line_x = [lo * (hi / lo) ** (i / 20) for i in range(21)]
            peak = self.roofs.get("flops")
            cap = peak if _finite_positive(peak) else math.inf
            self.plt.plot(line_x, [min(cap, x * value) for x in line_x], label=clean_line(f"{label} ({shown} GB/s)"),
                          color="yellow", marker="dot")
        elif unit and unit == self.y_label:
            if self.kind not in ("naive_vs_numpy",) and pts:
                # the y axis holds the measured points and the prediction, each on its own row
                lo, hi = axis_range([p[1] for p in pts] + [value], log=False)
                self.plt.ylim(lo, hi)
                self._y_range = (lo, hi)
            self.plt.hline(value, "yellow")
            if pts:
                self.plt.text(clean_line(f"{label}: {shown} {unit}"), min(p[0] for p in pts), value, color="yellow",
                              alignment="left")

    def _all_points(self) -> list[tuple[float, float]]:
        return [p for s in self.series.values() for p in s.points]

    def _plot_series(self, *, positive_y: bool = False) -> None:
        plt = self.plt
        for i, s in enumerate(self.series.values()):
            pts = sorted(p for p in s.points if not positive_y or p[1] > 0)
            if not pts:
                continue
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            colour = _COLOURS[i % len(_COLOURS)]
            if s.kind == "scatter" or len(pts) == 1:
                plt.scatter(xs, ys, label=clean_line(s.label), color=colour, marker="●")
            else:
                plt.plot(xs, ys, label=clean_line(s.label), color=colour,
                         marker="braille" if not s.extrapolated else "dot")

    def _draw_lines(self) -> None:
        xs = sorted({p[0] for p in self._all_points()})
        if self.kind == "gemm_sizes" and len(xs) >= 2:
            self.plt.xscale("log")  # the sizes grow geometrically
        self._plot_series()
        if xs and len(xs) <= 12:
            self.plt.xticks(xs, [self._num(x) for x in xs])
        elif xs:
            many = _log_ticks(xs[0], xs[-1], 10) if self.kind == "gemm_sizes" else list(linear_ticks(xs[0], xs[-1]))
            self.plt.xticks(many, [self._num(x) for x in many])

    def _draw_working_set(self) -> None:
        plt = self.plt
        plt.xscale("log")
        self._plot_series()
        pts = self._all_points()
        if not pts:
            return
        lo = min(p[0] for p in pts)
        hi = max(p[0] for p in pts)
        ymin = min(p[1] for p in pts)
        for level, size in sorted(self.caches.items(), key=lambda kv: kv[1]):
            if lo <= size <= hi:
                plt.vline(size, "red")
                # At the foot of the line (the legend sits at the top left); a line in the right third of the axis
                # gets its label on its left, so a large L3 near the last point is not cut off by the frame.
                right = hi > lo and math.log(size / lo) / math.log(hi / lo) > 0.66
                plt.text(f"{level} {binary_size(size, self.lang)}", size, ymin, color="red",
                         alignment="right" if right else "left")
        ticks = _log_ticks(lo, hi, 4)
        if ticks:
            plt.xticks(ticks, [binary_size(tick, self.lang) for tick in ticks])

    def _draw_log_y(self) -> None:
        plt = self.plt
        plt.yscale("log")
        self._plot_series(positive_y=True)
        ys = [p[1] for p in self._all_points() if p[1] > 0]
        if ys:
            ticks = _log_ticks(min(ys), max(ys), 10)
            if len(ticks) >= 2:
                plt.yticks(ticks, [_sci(tick, self.lang) for tick in ticks])
        xs = sorted({p[0] for p in self._all_points()})
        if wants_log(xs, decades=1.0):
            plt.xscale("log")  # N from a handful to a thousand: even spacing per doubling, not a crowded left edge
        if xs and len(xs) <= 10:
            plt.xticks(xs, [self._num(x) for x in xs])
        elif xs:
            many = _log_ticks(xs[0], xs[-1], 10) if wants_log(xs, decades=1.0) else list(linear_ticks(xs[0], xs[-1]))
            plt.xticks(many, [self._num(x) for x in many])

    def _draw_roofline(self) -> None:
        plt = self.plt
        plt.xscale("log")
        plt.yscale("log")
        pts = [p for p in self._all_points() if p[1] > 0]
        bw, peak = self.roofs.get("bw"), self.roofs.get("flops")
        xs = [p[0] for p in pts]
        lo = min([*xs, 0.05]) / 2
        hi = max([*xs, 100.0]) * 2
        if _finite_positive(bw) and _finite_positive(peak):
            ridge = peak / bw
            lo, hi = min(lo, ridge / 8), max(hi, ridge * 8)
            n = 40
            roof_x = [lo * (hi / lo) ** (i / n) for i in range(n + 1)]
            roof_x = sorted({*roof_x, ridge})
            roof_y = [min(peak, x * bw) for x in roof_x]
            label = self.roofs.get("label") or t("lab.plot.roofline", self.lang)
            plt.plot(roof_x, roof_y, label=clean_line(label), color="red", marker="braille")
            plt.vline(ridge, "gray")
            floor = min([p[1] for p in pts] + [lo * bw])
            ridge_label = clean_line(t("plot.ridge", self.lang, ridge=format_number(ridge, self.lang, ".3g")))
            plt.text(ridge_label, ridge * (hi / lo) ** 0.01, floor, color="gray", alignment="left")
        for i, s in enumerate(self.series.values()):
            sp = [(x, y, n) for (x, y), n in zip(s.points, s.names or [""] * len(s.points), strict=False) if y > 0]
            if not sp:
                continue
            plt.scatter([p[0] for p in sp], [p[1] for p in sp], label=clean_line(s.label),
                        color=_COLOURS[i % len(_COLOURS)], marker="●")
            # Labels sit just right of their point, moved along their row so that none overlaps another.
            cols = max(20, (self.size.width or 80) - 10)
            rows = max(5, (self.size.height or 20) - 6)
            ys_all = [p[1] for p in pts]
            ylo, yhi = min(ys_all), max(ys_all)
            wanted = [(cell(x, lo, hi, cols, log=True) + 1, cell(y, ylo, yhi, rows, log=True), name, y)
                      for x, y, name in sp if name]
            placed = label_rows([(c, r, n) for c, r, n, _ in wanted], cols)
            y_of = {r: y for _c, r, _n, y in wanted}  # a label stays on its point's row
            for col, row, text in placed:
                x_at = lo * (hi / lo) ** (col / max(1, cols - 1))
                plt.text(clean_line(text), x_at, y_of.get(row, ylo), color=_COLOURS[i % len(_COLOURS)],
                         alignment="left")
        ticks = _log_ticks(lo, hi, 10)
        if len(ticks) >= 2:
            plt.xticks(ticks, [_sci(tick, self.lang) for tick in ticks])
        ys = [p[1] for p in pts] + ([peak, lo * bw] if _finite_positive(bw) and _finite_positive(peak) else [])
        # No explicit limits: plotext 5.3 fails to lay out a legend on log axes with limits set.
        yt = _log_ticks(min(ys), max(ys), 10) if ys else []
        if len(yt) >= 2:
            plt.yticks(yt, [_sci(tick, self.lang) for tick in yt])


def _finite(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _finite_positive(v: Any) -> TypeGuard[float]:
    return _finite(v) and v > 0
