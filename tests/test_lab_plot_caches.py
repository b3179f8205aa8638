"""Lab 01's cache markers: a last-level cache near the end of the sweep keeps its label inside the frame."""

from __future__ import annotations

from textual.app import App, ComposeResult

from tests.support.pilot import wait_for
from tutor.ui.widgets.lab_plot import LabPlot


class PlotApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LabPlot("working_set", title="ws", x_label="bytes", y_label="GB/s")


async def test_a_large_l3_near_the_last_point_keeps_its_label() -> None:
    app = PlotApp()
    async with app.run_test(size=(80, 24)) as pilot:
        plot = app.query_one(LabPlot)
        plot.set_caches({"L1d": 48 * 2**10, "L2": 2 * 2**20, "L3": 480 * 2**20})
        for x, y in [(16 * 2**10, 90), (256 * 2**10, 60), (4 * 2**20, 30), (64 * 2**20, 20), (512 * 2**20, 8)]:
            plot.add_point("copy (measured)", x, y)
        await wait_for(pilot, lambda: "L1d 48K" in app.export_screenshot().replace("&#160;", " "))  # drawn
        screen = app.export_screenshot().replace("&#160;", " ")
    for label in ("L1d 48K", "L2 2M", "L3 480M"):
        assert label in screen, label
