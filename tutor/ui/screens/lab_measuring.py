"""The lab screen's measuring half: a run started, followed point by point, filed with its notebook entry, or
ended by a failure or Esc; and the result read onto the plot and beside it.

:class:`LabMeasuring` is the base of :class:`~tutor.ui.screens.lab.LabScreen` (the layout, the prediction, the
keys); the run goes through the screen's one :class:`MeasurementRun` (kind ``lab``), and the doctor lab through
the doctor's own screen (``LabScreen._open_doctor_screen``).
"""

from __future__ import annotations

from textual import on
from textual.widgets import Static

from tutor.content import Lab, Lesson
from tutor.i18n import t
from tutor.i18n.numbers import format_number
from tutor.measure.phases import progress_text
from tutor.practice.failures import Failure, stalled_text
from tutor.practice.labs import LabPrediction
from tutor.progress.lease import queue_text
from tutor.progress.notebook import sweep_point
from tutor.progress.rows import LabResult
from tutor.results import RooflineReference, device_label
from tutor.ui.exercise_text import roofline_note
from tutor.ui.keys import translate_bindings
from tutor.ui.lab_text import cache_levels, failure_text, plot_series_of, result_markdown, series_label, set_roofs
from tutor.ui.messages import ProgressChanged
from tutor.ui.plain import PackMarkdown, plain
from tutor.ui.roof_remeasure import RoofRemeasure
from tutor.ui.widgets.lab_plot import LabPlot
from tutor.ui.widgets.lab_prediction import LabPredictionForm
from tutor.ui.widgets.measurement_run import MeasurementRun, RunHooks
from tutor.untrusted import clean_line

LAB = "lab"


class LabMeasuring(RoofRemeasure):
    """Run the lab and read its result (see the module docstring)."""

    lab: Lab
    lesson: Lesson
    prediction: LabPrediction | None
    state: str
    result: LabResult | None
    lab_run_id: int | None
    entry_id: int | None
    _started_at: float
    _roof: RooflineReference | None

    @property
    def plot(self) -> LabPlot:
        return self.query_one("#lab-plot", LabPlot)

    def measurement_run(self) -> MeasurementRun:
        return self.query_one(MeasurementRun)

    def _set_status(self, text: str) -> None:
        self.query_one("#lab-status", Static).update(plain(text))

    def _open_doctor_screen(self) -> None:
        raise NotImplementedError

    def action_open_entry(self) -> None:
        raise NotImplementedError

    def start_run(self) -> None:
        """Run the lab's measurement (the prediction is locked by now)."""
        self.state = "running"
        self.result = None
        self.refresh_bindings()
        self._started_at = self.session.clock()
        self.query_one("#lab-progress-row").display = True
        self.query_one("#lab-result-box").display = False
        self.measurement_run().update(total=1.0, progress=0.0)
        self._set_status(t("lab.status.starting", self.lang))
        self.plot.clear()
        if self.lab.run.name == "working_set":
            self.plot.set_caches(cache_levels(self.lang))
        if self.lab.run.op == "doctor":
            self._open_doctor_screen()
            return
        self.measurement_run().start(LAB, self._measure_job)

    def _measure_job(self, hooks: RunHooks) -> LabResult:
        """In the run's thread: the lab measured under the device's lease, its telemetry window kept with it."""
        runner = self.session.lab_runner(on_stall=hooks.stalled)
        with self.session.recording() as recorded:
            result = runner.measure(self.lab, on_progress=hooks.progress, on_point=hooks.point,
                                    cancel_event=hooks.cancel, on_queue=hooks.queue)
        if recorded is not None:
            # the telemetry over the run's window, kept with the run like an exercise's measurement
            result = result.with_figures(telemetry={dev: s.as_dict() for dev, s in recorded.summary.items()})
        return result

    def _watching(self, kind: str) -> bool:
        return kind == LAB and self.state == "running" and not self.measurement_run().cancelling

    @on(MeasurementRun.Progress)
    def _run_progress(self, message: MeasurementRun.Progress) -> None:
        if message.kind == LAB and self.state == "running" and (message.said or message.fraction is not None):
            note = roofline_note(message.said, self.lang) if message.said is not None else None
            self._set_status(t("lab.status.running", self.lang) + "\n"
                             + progress_text(message.fraction, message.said, self.lang) + (f"\n{note}" if note else ""))

    @on(MeasurementRun.Queued)
    def _run_queued(self, message: MeasurementRun.Queued) -> None:
        if self._watching(message.kind) and message.ahead > 0:
            self._set_status(queue_text(message.ahead, self.lang))

    @on(MeasurementRun.Stalled)
    def _run_stalled(self, message: MeasurementRun.Stalled) -> None:
        if self._watching(message.kind):
            self._set_status(stalled_text(message.seconds, self.lang) if message.seconds is not None
                             else t("lab.status.running", self.lang))

    @on(MeasurementRun.Point)
    def _run_point(self, message: MeasurementRun.Point) -> None:
        """A sweep point (the worker's JSON, read here into where it goes; one without a position is not drawn)."""
        sp = sweep_point(self.lab.run.name or "", message.point) if message.kind == LAB else None
        if sp is None or self.state != "running":
            return
        x, y = sp.at()
        self.plot.add_point(series_label(sp, self.lab.run.name or "", self.lang), x, y, extrapolated=sp.extrapolated,
                            name=sp.name, kind="scatter" if self.lab.run.name == "roofline_points" else "line")

    @on(MeasurementRun.Finished)
    def _run_finished(self, message: MeasurementRun.Finished) -> None:
        if message.kind == LAB and self.state == "running":
            self._finished(message.result, message.seconds)

    @on(MeasurementRun.Failed)
    def _run_failed(self, message: MeasurementRun.Failed) -> None:
        if message.kind == LAB and self.state == "running":
            self._run_ended(message.failure)

    def _finished(self, result: LabResult, seconds: float) -> None:
        self.state = "done"
        self.refresh_bindings()
        self.measurement_run().update(progress=1.0)
        # filed first: a bench run is then compared with the previous run on its fingerprint, and the screen
        # shows that comparison (the lab's step 4), not the bare report
        filed = self.session.lab_runner().file(self.lesson, self.lab, self.prediction, result, self.lang)
        self.lab_run_id, self.entry_id, self.result = filed.lab_run_id, filed.entry_id, filed.result
        self.post_message(ProgressChanged())
        self.notify(clean_line(t("lab.notice.filed", self.lang, lab=self.lab.title.get(self.lang))), timeout=4,
                    markup=False)
        self._show_result(filed.result)
        self.action_open_entry()
        self._set_status(t("lab.status.done", self.lang, device=device_label(result.device, "?"),
                           seconds=format_number(seconds, self.lang, ".1f")))

    def _run_ended(self, failure: Failure) -> None:
        """The run failed or was cancelled: nothing is stored; the locked prediction can be measured again."""
        if failure.state == "cancelled":
            self.state = "cancelled"
            self._set_status(t("lab.status.cancelled", self.lang))
        else:
            self.state = "failed"
            self._set_status(t("lab.status.failed", self.lang, reason=failure_text(failure, self.lang)))
        self.refresh_bindings()
        if self.prediction is None:
            self.query_one(LabPredictionForm).display = True
            self.query_one("#lab-prediction").focus()
        else:
            # the prediction stays locked: the box is not offered for editing again; ctrl+r measures again
            self.query_one("#lab-main").focus()
        translate_bindings(self, self.lang)

    def _show_result(self, result: LabResult) -> None:
        plot = self.plot
        final = plot_series_of(result, self.lang)
        if final:
            plot.set_series(final)
        caches = dict(result.device.caches) if result.device is not None else {}
        if caches:
            plot.set_caches(caches)
        roof = result.roofline or (result.measurement.roofline if result.measurement is not None else None)
        if roof is not None:
            self._set_roofs(roof)
        self.query_one("#lab-result", PackMarkdown).update(result_markdown(self.lab, self.prediction, result,
                                                                           self.lang))
        self.query_one("#lab-result-box").display = True
        if not final and not plot.point_count and not plot.roofs:
            plot.display = False

    def _set_roofs(self, roof: RooflineReference) -> None:
        self._roof = roof
        set_roofs(self.plot, roof, self.lab, self.lang)

