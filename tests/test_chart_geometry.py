"""Where each point lands on the terminal charts: axes that hold the measured point and the guess, log axes with
even ticks when the data spans decades, labels that never overlap, the legend outside the plot."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import pairwise

from textual.app import App, ComposeResult

from tutor.results import Datasheet, RooflineReference
from tutor.ui.chart_geometry import (
    axis_range,
    cell,
    is_braille,
    label_rows,
    legend_rows,
    linear_ticks,
    log_ticks,
    make_axis,
    spread_labels,
    wants_log,
)
from tutor.ui.widgets.roofline_chart import RooflineChart, RooflinePoint

ROOF = RooflineReference(peak_bandwidth_gbs=32.0, peak_gflops={"float32": 160.0})


def test_log_axis_when_the_data_spans_decades() -> None:
    assert wants_log([1e-6, 1e-3, 1.0])  # lab 00: the naive loop and numpy, six decades apart
    assert not wants_log([32, 64, 96])
    assert not wants_log([0.0, 10.0, 1000.0])  # a zero cannot sit on a log axis


def test_log_range_holds_every_value_and_ticks_are_even() -> None:
    lo, hi = axis_range([0.25, 121.0, 133.2], log=True)
    assert lo <= 0.25 and hi >= 133.2 and (lo, hi) == (0.1, 1000.0)
    assert log_ticks(lo, hi) == (0.1, 1.0, 10.0, 100.0, 1000.0)
    ticks = log_ticks(1e-6, 1e6, max_ticks=5)  # 13 decades, every 3rd one
    exps = [round(math.log10(t)) for t in ticks]
    assert len(ticks) <= 5 and len({b - a for a, b in pairwise(exps)}) == 1


def test_a_value_on_a_decade_is_not_drawn_on_the_frame() -> None:
    lo, hi = axis_range([10.0, 100.0], log=True)
    assert lo < 10.0 and hi > 100.0


def test_linear_ticks_are_round_and_within_the_range() -> None:
    ticks = linear_ticks(0.0, 133.2)
    assert ticks[0] >= 0 and ticks[-1] <= 133.2 and len(ticks) <= 6
    steps = {round(b - a, 9) for a, b in pairwise(ticks)}
    assert len(steps) == 1 and steps.pop() in (20.0, 25.0, 50.0)


def test_the_prediction_lands_on_its_own_row_not_the_measured_one() -> None:
    # lab 01: a prediction of 121 must not be drawn on the 133.2 row
    axis = make_axis([3.0, 12.0, 121.0, 133.2], log=False)
    rows = 20
    assert axis.cell(121.0, rows) != axis.cell(133.2, rows)
    assert axis.cell(121.0, rows) < axis.cell(133.2, rows)
    assert cell(axis.lo, axis.lo, axis.hi, rows) == 0 and cell(axis.hi, axis.lo, axis.hi, rows) == rows - 1


def test_labels_never_overlap() -> None:
    # lab 03: "gemm 5gemm 10gemm 2" — three labels whose points are a column apart
    placed = spread_labels([(10, "gemm 2"), (11, "gemm 5"), (12, "gemm 10")], width=40)
    spans = [(start, start + len(text)) for start, text in placed]
    assert [text for _, text in placed] == ["gemm 2", "gemm 5", "gemm 10"]
    assert all(a_end < b_start for (_, a_end), (b_start, _) in pairwise(spans))
    # no room left: shortened, then dropped — never drawn over the frame
    tight = spread_labels([(30, "gemm 2"), (31, "gemm 5"), (32, "gemm 10")], width=40)
    assert all(start + len(text) <= 40 for start, text in tight)
    rows = label_rows([(5, 0, "L1 48K"), (6, 0, "L2 2M"), (5, 3, "L3 32M")], width=30)
    assert rows[0][0] == 5 and rows[1][0] > 5 + len("L1 48K") - 1 and rows[2] == (5, 3, "L3 32M")


def test_legend_rows_fit_the_width() -> None:
    rows = legend_rows([("━", "measured: 32 GB/s, 160 GFLOP/s"), ("●", "your workload"), ("x", "your guess")], 40)
    assert all(len(r) <= 40 for r in rows) and "your guess" in rows[-1]


def roofline_axes(points: list[RooflinePoint]) -> tuple[object, object]:
    chart = RooflineChart(roofline=ROOF, points=points)
    return chart.axes()


def test_roofline_axes_hold_the_point_above_a_stale_roof_and_a_compute_bound_guess() -> None:
    measured = RooflinePoint("your workload", 40.0, 400.0)  # above the 160 GFLOP/s roof: the roof is stale
    guess = RooflinePoint("your guess: compute", 40.0, 160.0, "magenta", "x")
    x, y = roofline_axes([measured, guess])
    for p in (measured, guess):
        assert x.contains(p.intensity) and y.contains(p.gflops)  # type: ignore[attr-defined]
    ridge = 160.0 / 32.0
    assert x.lo <= ridge / 10 and x.hi >= ridge * 10  # both slopes of the roof show  # type: ignore[attr-defined]
    cols, rows = 60, 14
    assert x.cell(measured.intensity, cols) == x.cell(guess.intensity, cols)  # type: ignore[attr-defined]
    assert y.cell(measured.gflops, rows) > y.cell(guess.gflops, rows)  # type: ignore[attr-defined]
    assert 0 < x.cell(ridge, cols) < cols - 1  # type: ignore[attr-defined]


class ChartApp(App[None]):
    def compose(self) -> ComposeResult:
        yield RooflineChart(roofline=ROOF, points=[RooflinePoint("your workload: copy", 0.0, 20.0),
                                                   RooflinePoint("your guess", 5.0, 160.0, "magenta", "x")],
                            id="chart")


async def test_the_legend_is_drawn_below_the_plot_area() -> None:
    app = ChartApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chart = app.query_one(RooflineChart)
        rendered = chart.render()
        parts = list(rendered.renderables)  # type: ignore[attr-defined]
        assert len(parts) >= 2  # the plot, then the legend rows under it
        legend_text = " ".join(str(p) for p in parts[1:])
        assert "measured: 32 GB/s" in legend_text and "your guess" in legend_text
        assert "your workload: copy" in legend_text
        assert "your guess" not in str(parts[0])


def test_each_point_lands_in_its_cell_on_the_drawn_chart() -> None:
    roof = replace(ROOF, datasheet=Datasheet("", bandwidth_gbs=1000.0, tflops={"float32": 50.0}))
    measured = RooflinePoint("your workload", 0.25, 7.5)
    guess = RooflinePoint("your guess", 0.25, 160.0, "magenta", "x")
    chart = RooflineChart(roofline=roof, points=[measured, guess])
    canvas, area = chart.canvas(76, 16)
    assert canvas.char_at(area.col(0.25), area.row(7.5)) == "●"
    assert canvas.char_at(area.col(0.25), area.row(160.0)) == "x"
    assert area.row(160.0) < area.row(7.5)  # the guess above the measured point, as its value says
    # the ridge is marked at 160 / 32 = 5 FLOP/byte, under the flat roof
    ridge_col = area.col(5.0)
    assert "┊" in {canvas.char_at(ridge_col, r) for r in range(area.row(160.0) + 1, area.bottom + 1)}
    # both roofs are drawn, and the legend is not inside the plot area
    styles = {canvas.styles[r][c] for r in range(canvas.height) for c in range(canvas.width)
              if is_braille(canvas.char_at(c, r))}
    assert {"cyan", "grey62"} <= styles
    text = "\n".join(row for row, _ in canvas.rows())
    assert "your guess" not in text and "measured:" not in text
    # every x tick label is whole and inside the canvas
    assert "1000" in text.splitlines()[area.bottom + 2]


def test_a_degenerate_axis_puts_everything_in_the_first_cell() -> None:
    assert cell(4.0, 4.0, 4.0, 10, log=True) == 0 and cell(4.0, 4.0, 4.0, 10) == 0
