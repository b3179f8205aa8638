"""The instructor's screen: the class report (per exercise, calibration, each learner's C0) and the class roofline,
every learner's measured roofs on one log-log chart, one colour per device fingerprint.

Shows what ``tutor class report`` prints (:mod:`tutor.progress.class_report`), from the rows the instructor's
connection reads. Learner names come from the database: shown as plain text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static
from textual_plotext import PlotextPlot

from tutor.i18n import Lang, t
from tutor.practice.session import Session
from tutor.progress.class_report import ClassReport, DeviceRoofs, render_class_report
from tutor.ui.plain import PackMarkdown
from tutor.ui.screens.base import TutorScreen

_COLORS = ("cyan", "orange", "green", "magenta", "yellow", "red", "blue", "white")


class ClassRooflinePlot(PlotextPlot):
    """Every learner's measured roofline (min(bandwidth × intensity, peak FLOP/s)), coloured by device."""

    def __init__(self, groups: Sequence[DeviceRoofs], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.groups = groups

    def replot(self) -> None:
        self.refresh()

    def render(self) -> RenderResult:
        # plotext applies its log scale to the stored data in place: the figure is rebuilt on every render.
        self._draw()
        return super().render()

    def _draw(self) -> None:
        plt = self.plt
        plt.clear_figure()
        plt.xlabel("FLOP/B")
        plt.ylabel("GFLOP/s")
        roofs = [(i, group, roof, roof.gflops) for i, group in enumerate(self.groups) for roof in group.learners
                 if roof.bandwidth_gbs and roof.gflops]
        if not roofs:
            return
        ridges = [gflops / r.bandwidth_gbs for _, _, r, gflops in roofs if gflops]
        lo, hi = max(min(ridges) / 30, 1e-4), max(ridges) * 30
        plt.xscale("log")
        plt.yscale("log")
        grid = [lo * (hi / lo) ** (k / 60) for k in range(61)]
        for i, group, roof, gflops in roofs:
            label = f"{roof.learner} · {str(group.device or group.kind)[:18]}"
            plt.plot(grid, [min(roof.bandwidth_gbs * x, gflops or 0.0) for x in grid],
                     color=_COLORS[i % len(_COLORS)], label=label[:32], marker="braille")


class ClassReportScreen(TutorScreen[None]):
    """The class report and the class roofline (Esc goes back; ``l`` switches es/en)."""

    CSS_PATH = "../styles/class_report.tcss"
    BINDINGS = [
        Binding("escape", "app.pop_screen", t("key.back", "en"), show=True, id="back"),
        Binding("l", "app.toggle_lang", t("key.lang", "en"), show=True, id="lang"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(id="class-report")
        self.session = session
        self.course = session.course
        self.report: ClassReport | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with VerticalScroll(id="class-report-body"):
            yield Static(id="class-report-chart-title", classes="section-title")
            yield ClassRooflinePlot([], id="class-report-chart")
            yield PackMarkdown(id="class-report-text")  # learners' names and answers: plain
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    def lang_changed(self, lang: Lang) -> None:
        self.reload()

    def reload(self) -> None:
        self.report = self.session.class_report()
        groups = self.report.roofline
        plotted = any(r.gflops for g in groups for r in g.learners)
        title = t("creport.chart", self.lang) if plotted else t("creport.chart_empty", self.lang)
        self.query_one("#class-report-chart-title", Static).update(Text(title))
        chart = self.query_one("#class-report-chart", ClassRooflinePlot)
        chart.display = plotted
        chart.groups = groups
        chart.replot()
        self.query_one("#class-report-text", PackMarkdown).update(render_class_report(self.report, self.lang))
