"""The lab screen: the goal, the prediction (asked before anything runs: :class:`LabPredictionForm`), the run
(:class:`LabRun`, in the session's measurement worker: each point, then ``Filed``, ``Failed`` or ``Cancelled``), the
plot and the result they feed, the telemetry beside them; F5 measures the roofline again (:class:`RoofRemeasure`).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, Static

from tutor.content import Lab, Lesson
from tutor.i18n import Lang, t
from tutor.practice.labs import LabPrediction
from tutor.practice.session import Session
from tutor.progress.rows import LabResult
from tutor.ui.keys import bindings, translate_bindings
from tutor.ui.lab_text import bench_markdown, goal_markdown, history_line, plot_series_of, series_label
from tutor.ui.layout import toggle_telemetry
from tutor.ui.plain import PackMarkdown, plain
from tutor.ui.roof_remeasure import RoofRemeasure, RunNews
from tutor.ui.screens.base import TutorScreen
from tutor.ui.screens.code import open_code
from tutor.ui.widgets.lab_prediction import LabPredictionForm
from tutor.ui.widgets.lab_result import LabResultBox, LabResultPlot, has_plot
from tutor.ui.widgets.lab_run import LabRun
from tutor.ui.widgets.measurement_run import MeasurementRun
from tutor.ui.widgets.telemetry_panel import TelemetryPanel
from tutor.untrusted import clean_line, widget_id

__all__ = ["LabScreen", "bench_markdown", "plot_series_of", "series_label"]


class LabScreen(TutorScreen[None]):
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
        self.result: LabResult | None = None
        self.entry_id: int | None = None
        self.roof = RoofRemeasure(session, measure=session.measure_fn, device=lambda: "auto", lang=lambda: self.lang,
                                  say=lambda text, running: self.lab_run.say(text),
                                  measured=lambda roof: self.plot.remeasured(roof))

    def compose(self) -> ComposeResult:
        lab, lang = self.lab, self.lang
        yield Header(show_clock=False)
        with Horizontal(id="lab-body"):
            with VerticalScroll(id="lab-main"):
                yield PackMarkdown(goal_markdown(self.lab, self.lang), id="lab-goal")
                yield LabPredictionForm(lab, lang)
                yield Static("", id="lab-locked", classes="muted")
                yield LabRun(self.session, self.lesson, lab, lang=lang)
                yield LabResultPlot(lab, lang=lang)
                yield LabResultBox(lab)
            with Vertical(id="telemetry-column"):
                yield TelemetryPanel(id="telemetry-panel")
        yield Footer()

    @property
    def plot(self) -> LabResultPlot:
        return self.query_one(LabResultPlot)

    @property
    def lab_run(self) -> LabRun:
        return self.query_one(LabRun)

    @property
    def state(self) -> str:
        return self.lab_run.state

    @property
    def roof_remeasuring(self) -> bool:
        return self.roof.remeasuring(self.lab_run.run)

    def measurement_run(self) -> MeasurementRun:
        return self.lab_run.run

    def on_mount(self) -> None:
        self.sub_title = clean_line(self.lab.title.get(self.lang))
        self.query_one("#lab-main").set_class(not has_plot(self.lab), "no-plot")  # the figures take its room
        self.query_one("#lab-prediction").focus()
        self._show_history()

    def _show_history(self) -> None:
        """Reopened: the last run of this lab (its points re-plotted from the stored result, its prediction, its
        notebook entry on N) until the learner predicts and measures again."""
        runs = self.session.lab_runs(self.lab.id)
        last = runs[-1] if runs else None
        if last is None or last.result is None:
            return
        self.result = last.result
        if last.prediction is not None:
            self.plot.predicted(last.prediction.value, last.prediction.unit)
        self._show_result(last.result)
        entries = self.session.notebook_entries()
        self.entry_id = next((e.id for e in entries if e.entry.lab_run_id == last.id), None)
        self.query_one("#lab-locked", Static).update(Text(history_line(last, len(runs), self.lang)))
        self.refresh_bindings()

    def lang_changed(self, lang: Lang) -> None:
        self.plot.reword(lang)
        self.lab_run.lang = lang
        self.sub_title = clean_line(self.lab.title.get(lang))
        self.query_one("#lab-goal", PackMarkdown).update(goal_markdown(self.lab, self.lang))
        self.query_one(LabPredictionForm).render_texts(lang)
        self._show_locked()
        if self.result is not None:
            self._show_result(self.result)

    # -- predict first, then measure; what the run says ---------------------------------------------------------

    @on(LabPredictionForm.Locked)
    def _locked(self, message: LabPredictionForm.Locked) -> None:
        self._lock_and_start(message.prediction)

    def _lock_and_start(self, prediction: LabPrediction | None) -> None:
        if prediction is None or self.state == "running":
            return
        self.prediction = prediction
        self.query_one(LabPredictionForm).display = False
        self.plot.predicted(prediction.value, prediction.unit)
        self._show_locked()
        translate_bindings(self, self.lang)
        self.start_run()

    def _show_locked(self) -> None:
        if self.prediction is not None:
            self.query_one("#lab-locked", Static).update(
                plain(t("lab.predict.locked", self.lang, prediction=self.prediction.describe(self.lang))))

    def start_run(self) -> None:
        """Run the lab's measurement (the prediction is locked by now); the doctor lab opens the doctor's screen."""
        self.result = None
        self.query_one(LabResultBox).display = False
        self.plot.start()
        self.lab_run.start(self.prediction)

    @on(LabRun.DoctorWanted)
    def _open_doctor(self) -> None:
        self.app.push_screen(_doctor_screen_class()(self.session))

    def on_screen_resume(self) -> None:
        self.lab_run.doctor_closed()  # back from the doctor (the L2 lab), or from anywhere else

    @on(LabRun.Changed)
    def _run_changed(self) -> None:
        self.refresh_bindings()

    @on(LabRun.PointMeasured)
    def _point(self, message: LabRun.PointMeasured) -> None:
        self.plot.add_sweep_point(message.point)

    @on(LabRun.Filed)
    def _filed(self, message: LabRun.Filed) -> None:
        self.entry_id, self.result = message.filed.entry_id, message.filed.result
        self.refresh_bindings()
        self._show_result(message.filed.result)
        self.action_open_entry()

    @on(LabRun.Failed)
    @on(LabRun.Cancelled)
    def _run_ended(self) -> None:
        if self.prediction is None:
            self.query_one(LabPredictionForm).offer()
        else:
            # the prediction stays locked: the box is not offered for editing again; ctrl+r measures again
            self.query_one("#lab-main").focus()
        translate_bindings(self, self.lang)

    def _show_result(self, result: LabResult) -> None:
        self.query_one(LabResultBox).show(self.prediction, result, self.lang)
        if not self.plot.show_result(result):
            self.plot.display = False

    # -- the roofline measured again on request (F5) ----------------------------------------------------------

    def action_remeasure_roof(self) -> None:
        self.roof.start(self.lab_run.run)

    @on(MeasurementRun.Progress)
    @on(MeasurementRun.Finished)
    @on(MeasurementRun.Failed)
    def _roof_news(self, message: RunNews) -> None:
        self.roof.hear(message)
        self.refresh_bindings()

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
        if self.roof.cancel(self.lab_run.run):
            self.lab_run.say(t("lab.notice.cancelled", self.lang))
        elif not self.lab_run.cancel():
            self.app.pop_screen()

    def action_run_again(self) -> None:
        if self.state == "predict":
            self._lock_and_start(self.query_one(LabPredictionForm).read())
        elif self.state in ("done", "failed", "cancelled") and self.prediction is not None:
            self.start_run()

    def action_open_entry(self) -> None:
        if self.entry_id is None:
            return
        from tutor.ui.screens.notebook import NotebookScreen

        self.app.push_screen(NotebookScreen(self.session, entry_id=self.entry_id))

    def action_toggle_telemetry(self) -> None:
        toggle_telemetry(self)


def _doctor_screen_class() -> Callable[[Session], TutorScreen[None]]:
    """The doctor's screen, which the L2 lab opens (imported when first opened; tests put a stand-in here)."""
    from tutor.ui.screens.doctor import DoctorScreen

    return DoctorScreen
