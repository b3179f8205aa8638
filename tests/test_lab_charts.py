"""Every lab's "last run" view draws its chart (issue 30 item 3).

Each bundled sweep lab's plot, filled from a recorded run as the lab screen fills it, at 80×24, 160×48 and its
12-row minimum, in Spanish and English, shows points and lines in its plot area and the legend's words, never the
"does not fit" notice (plotext failed to lay out Lab 01, 02 and 03 with real data). The roofline's memory roof is a
straight line of dots, not a staircase of whole cells."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest
from rich.console import Console

from tests.support.lab import PlotApp
from tests.support.pilot import wait_for
from tutor.i18n import Lang, t
from tutor.progress.rows import LabResult
from tutor.ui.chart_geometry import Axis, Canvas, PlotArea, draw_roof, is_braille
from tutor.ui.screens.lab import plot_series_of
from tutor.ui.widgets.lab_plot import LabPlot

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "results" / "lab_runs_recorded.json").read_text())["runs"]
LABS = sorted(RECORDED)
SIZES = [(80, 24), (160, 48)]
LEGEND = {
    "f1-lab00-naive-vs-numpy": "lab.series.extrapolated",
    "f1-lab01-working-set": "plot.caches",
    "f1-lab02-gemm-sizes": "lab.plot.prediction",
    "f1-lab03-roofline": "lab.plot.roofline",
    "n0-l1-lab-roofline": "lab.plot.roofline",
}


def _legend_word(lab: str, lang: Lang) -> str:
    """The first words of the legend entry this lab's chart must show (placeholders cut off)."""
    return t(LEGEND[lab], lang, series="", caches="").split("{")[0].strip(" ():")[:12]


def _plain(renderable: object, width: int) -> str:
    """What the widget renders, as plain text."""
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _plot_of(lab_id: str, lang: Lang) -> LabPlot:
    """The lab's plot as its screen fills it from a stored run (series, caches, roofs, the locked prediction)."""
    run = RECORDED[lab_id]
    result = LabResult.from_json(run["result"])
    kind = result.measurement.name if result.measurement is not None else ""
    plot = LabPlot(kind or "", title=lab_id, x_label=t(f"plot.axis.{kind}.x", lang),
                   y_label=t(f"plot.axis.{kind}.y", lang), lang=lang)
    plot.set_series(plot_series_of(result, lang))
    if result.device is not None and result.device.caches:
        plot.set_caches(dict(result.device.caches))
    roof = result.roofline or (result.measurement.roofline if result.measurement is not None else None)
    if roof is not None:
        plot.set_roofs(peak_bandwidth_gbs=roof.peak_bandwidth_gbs, peak_gflops=roof.peak_for("float32"),
                       label=t("lab.plot.roofline", lang))
    plot.set_prediction(run["prediction"], run["unit"], t("lab.plot.prediction", lang))
    return plot


@pytest.mark.parametrize("size", [*SIZES, (60, 12)])
@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("lab_id", LABS)
async def test_the_last_run_of_each_lab_draws_its_chart(lab_id: str, lang: Lang, size: tuple[int, int]) -> None:
    app = PlotApp(_plot_of(lab_id, lang))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: app.plot.size.width > 0)
        shown = _plain(app.plot.render(), app.plot.size.width)
        assert t("plot.cannot_draw", lang) not in shown and t("plot.no_points", lang) not in shown
        drawn = app.plot.chart(app.plot.size.width, app.plot.size.height)
    rendered = drawn.text()
    area = drawn.area
    inside = [drawn.canvas.char_at(c, r) for r in range(area.top, area.bottom + 1)
              for c in range(area.left, area.right + 1)]
    assert sum(ch == "●" for ch in inside) >= 3, rendered  # the measured points, inside the plot area
    assert sum(is_braille(ch) for ch in inside) >= 5, rendered  # a line or a roof
    word = _legend_word(lab_id, lang)
    assert word in rendered, rendered
    assert word in shown  # on the screen, not only in the drawing
    # the axis names whole (no "GFLO"), the y one on the row above the plot
    assert app.plot.y_label in rendered.splitlines()[1]
    for english in ("measured", "extrapolated", "working set") if lang == "es" else ():
        assert english not in rendered, rendered


async def test_lab_01_draws_gb_s_on_a_log_axis_as_its_lesson_promises() -> None:
    plot = LabPlot("working_set", title="ws", x_label="bytes", y_label="GB/s")
    for x, y in [(16 * 2**10, 20), (2**20, 230), (32 * 2**20, 190), (512 * 2**20, 77)]:
        plot.add_point("copy", x, y)
    x, y = plot.axes()
    assert x.log and y.log


def test_the_memory_roof_is_a_straight_line_of_dots() -> None:
    x, y = Axis(0.01, 1000.0, True), Axis(0.1, 1000.0, True)
    area = PlotArea(left=6, right=85, top=1, bottom=20, x=x, y=y)
    canvas = Canvas(90, 25)
    dots = draw_roof(canvas, area, bandwidth=80.0, peak=220.0, style="red")
    ridge_sub = dots.sub_x(220.0 / 80.0)
    ramp = sorted((sx, sy) for sx, sy in dots.dots if sx < ridge_sub - 1)
    flat = {sy for sx, sy in dots.dots if sx > ridge_sub + 1}
    assert len(flat) == 1  # the compute roof: one row of dots
    assert ramp
    by_col: dict[int, list[int]] = {}
    for sx, sy in ramp:
        by_col.setdefault(sx, []).append(sy)
    # no gap: every dot column from the first to the ridge has a dot, each within a dot of the exact slope-1 line
    assert sorted(by_col) == list(range(min(by_col), max(by_col) + 1))
    for sx, rows in by_col.items():
        value = 10 ** (math.log10(x.lo) + sx / (dots.cols - 1) * (math.log10(x.hi) - math.log10(x.lo)))
        exact = dots.sub_y(value * 80.0)
        assert min(abs(r - exact) for r in rows) <= 1.0


def test_the_reveal_chart_writes_its_y_axis_name_whole() -> None:
    """The exercise's roofline wrote "GFLOP/s" in the left margin under the axis, cut to its width ("GFLO")."""
    from tutor.results import RooflineReference
    from tutor.ui.widgets.roofline_chart import RooflineChart, RooflinePoint

    chart = RooflineChart(roofline=RooflineReference(peak_bandwidth_gbs=80.0, peak_gflops={"float32": 220.0}),
                          points=[RooflinePoint("copy", 0.0, 0.0)])
    for lang in ("es", "en"):
        chart.lang = lang  # type: ignore[assignment]
        canvas, area = chart.canvas(60, 16)
        rows = [text for text, _ in canvas.rows()]
        assert t("chart.axis.gflops", lang) in rows[area.top - 1]
        assert all(is_braille(canvas.char_at(c, r)) or canvas.char_at(c, r) != "●" or
                   (area.left <= c <= area.right and area.top <= r <= area.bottom)
                   for r in range(canvas.height) for c in range(canvas.width))
