"""The lab screen: the goal, the learner's prediction (asked before anything runs), the sweep measured live in the
measurement worker with its plot growing point by point, the telemetry panel beside it, and at the end a Lab
Notebook entry filed for the run.

The measurement runs through the screen's :class:`MeasurementRun` (one thread worker driving the session's
measurement worker process); this screen never imports torch.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, Static

from tutor.content import Lab, Lesson
from tutor.i18n import Lang, t
from tutor.measure.registry import SWEEPS
from tutor.practice.labs import LabPrediction
from tutor.practice.roof_stamp import remeasured_text
from tutor.practice.runner import MeasureFn
from tutor.practice.session import CANCELLED, Session
from tutor.progress.notebook import load_entries
from tutor.progress.rows import LabResult
from tutor.results import RooflineReference
from tutor.ui.keys import bindings, translate_bindings
from tutor.ui.lab_text import (
    axis_label,
    bench_markdown,
    goal_markdown,
    plot_series_of,
    series_label,
)
from tutor.ui.layout import toggle_telemetry
from tutor.ui.plain import PackMarkdown, plain
from tutor.ui.screens.base import TutorScreen
from tutor.ui.screens.code import open_code
from tutor.ui.screens.lab_measuring import LAB, LabMeasuring
from tutor.ui.widgets.lab_plot import LabPlot
from tutor.ui.widgets.lab_prediction import LabPredictionForm
from tutor.ui.widgets.measurement_run import MeasurementRun
from tutor.ui.widgets.telemetry_panel import TelemetryPanel
from tutor.untrusted import clean_line, widget_id

__all__ = ["LabScreen", "bench_markdown", "plot_series_of", "series_label"]


class LabScreen(LabMeasuring):
    """One lab: predict, measure live, read the plot, file the notebook entry."""

    CSS_PATH = "../styles/lab.tcss"
    BINDINGS = bindings("back", "run", "notebook", "telemetry", "view_code", "remeasure_roof", back="cancel_or_back",
                        run="run_again", notebook="open_entry")

    def __init__(self, session: Session, lesson: Lesson, lab: Lab) -> None:
        super().__init__(id=widget_id("lab-", lab.id))
        self.session = session
        self.lesson = lesson
        self.lab = lab
        self.prediction: LabPrediction | None = None
        self.state = "predict"  # predict → running → done | failed | cancelled
        self.result: LabResult | None = None
        self.lab_run_id: int | None = None
        self.entry_id: int | None = None
        self._started_at = 0.0
        self._doctor_runs_before: int | None = None
        self._roof: RooflineReference | None = None
        """The roof the plot draws (the lab's result's, or the one F5 measured since)."""

    def compose(self) -> ComposeResult:
        lab, lang = self.lab, self.lang
        sweep = SWEEPS.get(lab.run.name or "") if lab.run.op == "sweep" else None
        plot_kind = lab.run.name if sweep else ("roofline_points" if lab.run.op == "roofline" else lab.run.op)
        yield Header(show_clock=False)
        with Horizontal(id="lab-body"):
            with VerticalScroll(id="lab-main"):
                yield PackMarkdown(goal_markdown(self.lab, self.lang), id="lab-goal")
                yield LabPredictionForm(lab, lang)
                yield Static("", id="lab-locked", classes="muted")
                with Horizontal(id="lab-progress-row"):
                    yield MeasurementRun(lang=lambda: self.lang, clock=self.session.clock, id="lab-progress")
                    yield Static(t("lab.status.waiting", lang), id="lab-status")
                yield LabPlot(plot_kind or "lines", title=lab.title.get(lang), x_label=axis_label(lab, "x", lang),
                              y_label=axis_label(lab, "y", lang), lang=lang, id="lab-plot")
                with VerticalScroll(id="lab-result-box"):
                    yield PackMarkdown("", id="lab-result")
            with Vertical(id="telemetry-column"):
                yield TelemetryPanel(id="telemetry-panel")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = clean_line(self.lab.title.get(self.lang))
        # Only sweeps and the roofline have something to plot; the others show their figures.
        plotted = self.lab.run.op in ("sweep", "roofline")
        self.plot.display = plotted
        self.query_one("#lab-main").set_class(not plotted, "no-plot")
        self.query_one("#lab-progress-row").display = False
        self.query_one("#lab-result-box").display = False
        self.query_one("#lab-prediction").focus()
        self._show_history()

    def _show_history(self) -> None:
        """Reopened: the last run of this lab (its points re-plotted from the stored result, its prediction, its
        notebook entry on N) until the learner predicts and measures again."""
        store = self.session.store
        runs = store.lab_runs(self.lab.id)
        last = runs[-1] if runs else None
        if last is None or last.result is None:
            return
        self.result = result = last.result
        prediction = last.prediction
        if prediction is not None and prediction.value is not None:
            self.plot.set_prediction(prediction.value, prediction.unit, t("lab.plot.prediction", self.lang))
        self._show_result(result)
        entry = next((e for e in load_entries(store) if e.entry.lab_run_id == last.id), None)
        self.entry_id = entry.id if entry is not None else None
        self.lab_run_id = last.id
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(last.created_at))
        shown = prediction.text if prediction is not None else None
        self.query_one("#lab-locked", Static).update(
            Text(t("lab.history", self.lang, when=when, n=len(runs), prediction=str(shown or "—"))))
        self.refresh_bindings()

    def lang_changed(self, lang: Lang) -> None:
        plot = self.plot
        plot.title = self.lab.title.get(lang)
        plot.x_label, plot.y_label = axis_label(self.lab, "x", self.lang), axis_label(self.lab, "y", self.lang)
        if plot.prediction is not None:
            value, unit, _label = plot.prediction
            plot.prediction = (value, unit, t("lab.plot.prediction", lang))
        if self._roof is not None and plot.roofs:
            self._set_roofs(self._roof)
        plot.lang = lang
        self.sub_title = clean_line(self.lab.title.get(lang))
        self.query_one("#lab-goal", PackMarkdown).update(goal_markdown(self.lab, self.lang))
        self.query_one(LabPredictionForm).render_texts(lang)
        if self.prediction is not None:
            self.query_one("#lab-locked", Static).update(
                plain(t("lab.predict.locked", lang, prediction=self.prediction.describe(lang))))
        if self.result is not None:
            self._show_result(self.result)

    # -- predict first, then measure -----------------------------------------------------------------------------

    def on_lab_prediction_form_locked(self, message: LabPredictionForm.Locked) -> None:
        self._lock_and_start(message.prediction)

    def _lock_and_start(self, prediction: LabPrediction) -> None:
        if self.state == "running":
            return
        self.prediction = prediction
        self.query_one(LabPredictionForm).display = False
        self.plot.set_prediction(self.prediction.value, self.prediction.unit, t("lab.plot.prediction", self.lang))
        self.query_one("#lab-locked", Static).update(
            plain(t("lab.predict.locked", self.lang, prediction=self.prediction.describe(self.lang))))
        translate_bindings(self, self.lang)
        self.start_run()

    # -- the roofline measured again on request (F5) ----------------------------------------------------------

    def roof_measure_call(self) -> MeasureFn:
        return self.session.measure_fn()

    def roof_status(self, text: str, fraction: float | None = None) -> None:
        self.query_one("#lab-progress-row").display = True
        self._set_status(text)
        self.refresh_bindings()

    def roof_remeasured(self, roof: RooflineReference) -> None:
        before = self._roof
        if self.plot.roofs:
            self._set_roofs(roof)
        self._roof = roof
        self._set_status(remeasured_text(before, roof, self.lang))

    # -- actions ----------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open_entry":
            return self.entry_id is not None
        if action == "run_again":
            return self.state == "predict" or (self.state in ("done", "failed", "cancelled")
                                               and self.prediction is not None)
        if action == "view_code":
            return self.lab.run.op in ("workload", "sweep")
        if action == "remeasure_roof":  # not while the lab itself measures, one at a time
            return True if self.state != "running" and not self.roof_remeasuring else None
        return True

    def binding_label(self, key_id: str, lang: Lang) -> str | None:
        if key_id == "run":
            return t("lab.predict.start" if self.prediction is None else "key.rerun", lang)
        return None

    def action_view_code(self) -> None:
        open_code(self, self.lab.run.op, self.lab.run.name, self.lang)

    def action_cancel_or_back(self) -> None:
        if self.cancel_roof_remeasure() or self.state == "running":
            self.measurement_run().cancel()
            self._set_status(t("lab.notice.cancelled", self.lang))
            return
        self.app.pop_screen()

    def action_run_again(self) -> None:
        if self.state == "predict":
            prediction = self.query_one(LabPredictionForm).read()
            if prediction is not None:
                self._lock_and_start(prediction)
        elif self.state in ("done", "failed", "cancelled") and self.prediction is not None:
            self.start_run()

    def action_open_entry(self) -> None:
        if self.entry_id is None:
            return
        from tutor.ui.screens.notebook import NotebookScreen

        self.app.push_screen(NotebookScreen(self.session, entry_id=self.entry_id))

    def action_toggle_telemetry(self) -> None:
        toggle_telemetry(self)

    # -- doctor (the L2 lab): the doctor's own screen runs and records the diagnosis ---------------------------

    def _open_doctor_screen(self) -> None:
        self._doctor_runs_before = len(self.session.store.doctor_runs())
        self.app.push_screen(_doctor_screen_class()(self.session))

    def on_screen_resume(self) -> None:
        """Back from the doctor: its newest run is the lab's result (none: the lab was cancelled)."""
        before = self._doctor_runs_before
        if before is None or self.state != "running":
            return
        self._doctor_runs_before = None
        runs = self.session.store.doctor_runs()
        if len(runs) > before:
            self._finished(LabResult.of_doctor(runs[-1].report), self.session.clock() - self._started_at)
        else:
            self._run_ended(CANCELLED)
            self.report_failure(LAB, CANCELLED)


def _doctor_screen_class() -> Callable[[Session], TutorScreen[None]]:
    """The doctor's screen, which the L2 lab opens (imported when first opened; tests put a stand-in here)."""
    from tutor.ui.screens.doctor import DoctorScreen

    return DoctorScreen
