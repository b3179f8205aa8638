"""What a lab shows of its run: the plot, which knows its lab, and the result read beside it.

:class:`LabResultPlot` is a :class:`LabPlot` (its drawing and its tests stay the plot's) with the lab's shape,
title and axes, the learner's prediction drawn with its label, each streamed sweep point on its series, the stored
or final result, and the roof drawn at the lab's dtype (kept, so a language switch or F5 draws it again).
:class:`LabResultBox` reads the result as the lab asks (the figures, the prediction beside the figure it asked
about, the points that break the expected shape). The lab screen sets their data through these methods
(attributes down) as :class:`~tutor.ui.widgets.lab_run.LabRun` reports.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll

from tutor.content import Lab
from tutor.i18n import Lang, t
from tutor.measure.registry import SWEEPS
from tutor.practice.labs import LabPrediction
from tutor.progress.rows import LabResult
from tutor.results import RooflineReference, SweepPoint
from tutor.ui.lab_text import axis_label, cache_levels, plot_series_of, result_markdown, series_label, set_roofs
from tutor.ui.plain import PackMarkdown
from tutor.ui.widgets.lab_plot import LabPlot


def plot_kind(lab: Lab) -> str:
    """The shape of ``lab``'s plot: its sweep's, the roofline's points, or its op's (nothing to plot)."""
    run = lab.run
    sweep = SWEEPS.get(run.name or "") if run.op == "sweep" else None
    return (run.name if sweep else ("roofline_points" if run.op == "roofline" else run.op)) or "lines"


def has_plot(lab: Lab) -> bool:
    """Whether ``lab`` has something to plot (a sweep, the roofline); the others show their figures."""
    return lab.run.op in ("sweep", "roofline")


class LabResultPlot(LabPlot):
    """The plot of one lab (``id`` ``lab-plot``; see the module docstring)."""

    def __init__(self, lab: Lab, *, lang: Lang, id: str = "lab-plot") -> None:
        super().__init__(plot_kind(lab), title=lab.title.get(lang), x_label=axis_label(lab, "x", lang),
                         y_label=axis_label(lab, "y", lang), lang=lang, id=id)
        self.lab = lab
        self.roof: RooflineReference | None = None
        """The roof drawn (the lab's result's, or the one F5 measured since)."""

    def on_mount(self) -> None:
        self.display = has_plot(self.lab)

    @property
    def sweep(self) -> str:
        return self.lab.run.name or ""

    def reword(self, lang: Lang) -> None:
        """Say the plot's words in ``lang`` (and draw it again)."""
        self.title = self.lab.title.get(lang)
        self.x_label, self.y_label = axis_label(self.lab, "x", lang), axis_label(self.lab, "y", lang)
        if self.prediction is not None:
            value, unit, _label = self.prediction
            self.prediction = (value, unit, t("lab.plot.prediction", lang))
        if self.roof is not None and self.roofs:
            set_roofs(self, self.roof, self.lab, lang)
        self.lang = lang

    def predicted(self, value: float | None, unit: str | None) -> None:
        """Draw the learner's prediction, labelled as such."""
        self.set_prediction(value, unit, t("lab.plot.prediction", self.lang))

    def start(self) -> None:
        """A run starts: the streamed points start again (a working-set plot marks this machine's caches now)."""
        self.clear()
        if self.sweep == "working_set":
            self.set_caches(cache_levels(self.lang))

    def add_sweep_point(self, point: SweepPoint) -> None:
        x, y = point.at()
        self.add_point(series_label(point, self.sweep, self.lang), x, y, extrapolated=point.extrapolated,
                       name=point.name, kind="scatter" if self.sweep == "roofline_points" else "line")

    def show_result(self, result: LabResult) -> bool:
        """Draw ``result`` (its final series, its machine's caches, its roof); whether anything is drawn."""
        final = plot_series_of(result, self.lang)
        if final:
            self.set_series(final)
        caches = dict(result.device.caches) if result.device is not None else {}
        if caches:
            self.set_caches(caches)
        roof = result.roofline or (result.measurement.roofline if result.measurement is not None else None)
        if roof is not None:
            self.draw_roof(roof)
        return bool(final or self.point_count or self.roofs)

    def draw_roof(self, roof: RooflineReference) -> None:
        self.roof = roof
        set_roofs(self, roof, self.lab, self.lang)

    def remeasured(self, roof: RooflineReference) -> RooflineReference | None:
        """The roof F5 measured: drawn where a roof is drawn, kept either way; the roof known before."""
        before = self.roof
        if self.roofs:
            self.draw_roof(roof)
        self.roof = roof
        return before


class LabResultBox(VerticalScroll):
    """The result, read as the lab reads it (``id`` ``lab-result-box``; hidden until there is one)."""

    def __init__(self, lab: Lab, *, id: str = "lab-result-box") -> None:
        super().__init__(id=id)
        self.lab = lab

    def compose(self) -> ComposeResult:
        yield PackMarkdown("", id="lab-result")

    def on_mount(self) -> None:
        self.display = False

    def show(self, prediction: LabPrediction | None, result: LabResult, lang: Lang) -> None:
        self.query_one("#lab-result", PackMarkdown).update(result_markdown(self.lab, prediction, result, lang))
        self.display = True
