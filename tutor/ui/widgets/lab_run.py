"""One run of a lab, as a widget: its progress bar and its status line (``#lab-progress-row``).

:class:`LabRun` owns the lab's :class:`MeasurementRun` and the measure → file flow, through the lab runner of the
:class:`~tutor.practice.session.Session` it is given (nothing is read from the app): the sweep measured in the
session's warm measurement worker, its telemetry window kept with it, the run stored and its Lab Notebook entry
filed. The screen hands it the locked prediction (:meth:`LabRun.start`) and hears what happened as messages:
:class:`LabRun.PointMeasured` for each sweep point (for the screen's plot), then :class:`LabRun.Filed`,
:class:`LabRun.Failed` or :class:`LabRun.Cancelled` (nothing stored; the prediction stays locked). A run that does
not finish is one notice through the app's one error path (the run posts it).

The doctor lab is diagnosed by the doctor's own screen: the run posts :class:`LabRun.DoctorWanted`, the lab's
screen opens it, and when it is closed calls :meth:`LabRun.doctor_closed`: the doctor's newest stored run is the
lab's result (none: the run ends cancelled).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import var
from textual.widgets import Static

from tutor.content import Lab, Lesson
from tutor.i18n import Lang, t
from tutor.i18n.numbers import format_number
from tutor.measure.phases import progress_text
from tutor.practice.failures import Failure, stalled_text
from tutor.practice.labs import LabFiled, LabPrediction
from tutor.practice.session import CANCELLED, Session
from tutor.progress.lease import queue_text
from tutor.progress.rows import LabResult
from tutor.results import SweepPoint, device_label, sweep_point
from tutor.ui.exercise_text import roofline_note
from tutor.ui.lab_text import failure_text
from tutor.ui.messages import ProgressChanged, WorkFailed
from tutor.ui.plain import plain
from tutor.ui.widgets.measurement_run import MeasurementRun, RunHooks
from tutor.untrusted import clean_line

LAB = "lab"


class LabRun(Horizontal):
    """The lab's run (see the module docstring); ``id`` ``lab-progress-row``, hidden until something runs."""

    state: var[str] = var("predict", init=False)
    """``predict`` (nothing run on this visit) → ``running`` → ``done`` | ``failed`` | ``cancelled``. Each change
    is posted as :class:`LabRun.Changed`."""

    lang: var[Lang] = var[Lang]("es", init=False)
    """The language of the status line (set by the screen)."""

    @dataclass
    class Changed(Message):
        """The run moved to ``state``."""

        lab_run: LabRun
        state: str

        @property
        def control(self) -> LabRun:
            return self.lab_run

    @dataclass
    class DoctorWanted(Message):
        """A doctor lab started: the doctor's screen is to diagnose the stack (and store the run)."""

        lab_run: LabRun

        @property
        def control(self) -> LabRun:
            return self.lab_run

    @dataclass
    class PointMeasured(Message):
        """A sweep's point was measured: where it goes on the plot."""

        lab_run: LabRun
        point: SweepPoint

        @property
        def control(self) -> LabRun:
            return self.lab_run

    @dataclass
    class Filed(Message):
        """The run finished after ``seconds``: stored, and its notebook entry filed."""

        lab_run: LabRun
        filed: LabFiled
        seconds: float

        @property
        def control(self) -> LabRun:
            return self.lab_run

    @dataclass
    class Failed(Message):
        """The run did not finish (the notice is posted already); nothing is stored."""

        lab_run: LabRun
        failure: Failure

        @property
        def control(self) -> LabRun:
            return self.lab_run

    @dataclass
    class Cancelled(Message):
        """The learner stopped the run; nothing is stored."""

        lab_run: LabRun
        failure: Failure

        @property
        def control(self) -> LabRun:
            return self.lab_run

    def __init__(self, session: Session, lesson: Lesson, lab: Lab, *, lang: Lang,
                 id: str = "lab-progress-row") -> None:
        super().__init__(id=id)
        self.session = session
        self.lesson = lesson
        self.lab = lab
        self.prediction: LabPrediction | None = None
        """The prediction the run is measured against (locked before it starts)."""
        self.set_reactive(LabRun.lang, lang)
        self.run = MeasurementRun(lang=lambda: self.lang, clock=session.clock, id="lab-progress")
        """The lab's one measurement in flight (a screen may run the roofline through it too, one at a time)."""
        self._started_at = 0.0
        self._doctor_runs_before: int | None = None

    def compose(self) -> ComposeResult:
        yield self.run
        yield Static(t("lab.status.waiting", self.lang), id="lab-status")

    def on_mount(self) -> None:
        self.display = False

    def watch_state(self, state: str) -> None:
        self.post_message(self.Changed(self, state))

    def say(self, text: str) -> None:
        """Show ``text`` on the status line (and the row, for a screen's own run through :attr:`run`)."""
        self.display = True
        self.query_one("#lab-status", Static).update(plain(text))

    # -- the run ------------------------------------------------------------------------------------------------

    def start(self, prediction: LabPrediction | None) -> None:
        """Measure the lab against ``prediction`` (a doctor lab waits for :meth:`finish` from the doctor's screen)."""
        self.prediction = prediction
        self._started_at = self.session.clock()
        self.run.update(total=1.0, progress=0.0)
        self.say(t("lab.status.starting", self.lang))
        self.state = "running"
        if self.lab.run.op == "doctor":
            self._doctor_runs_before = len(self.session.doctor_runs())
            self.post_message(self.DoctorWanted(self))
        else:
            self.run.start(LAB, self._measure_job)

    def doctor_closed(self) -> None:
        """The doctor's screen was closed: its newest run is the lab's result (none: the lab was cancelled)."""
        before = self._doctor_runs_before
        if before is None or self.state != "running":
            return
        self._doctor_runs_before = None
        runs = self.session.doctor_runs()
        if len(runs) > before:
            self.finish(LabResult.of_doctor(runs[-1].report))
        else:
            self.end(CANCELLED)
            self.post_message(WorkFailed(LAB, CANCELLED.code, CANCELLED.detail))  # the app's one notice

    def cancel(self) -> bool:
        """Stop the run in flight (it ends cancelled); whether one was."""
        if self.state != "running":
            return False
        self.run.cancel()
        self.say(t("lab.notice.cancelled", self.lang))
        return True

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
        return kind == LAB and self.state == "running" and not self.run.cancelling

    @on(MeasurementRun.Progress)
    def _run_progress(self, message: MeasurementRun.Progress) -> None:
        if message.kind == LAB and self.state == "running" and (message.said or message.fraction is not None):
            note = roofline_note(message.said, self.lang) if message.said is not None else None
            self.say(t("lab.status.running", self.lang) + "\n"
                     + progress_text(message.fraction, message.said, self.lang) + (f"\n{note}" if note else ""))

    @on(MeasurementRun.Queued)
    def _run_queued(self, message: MeasurementRun.Queued) -> None:
        if self._watching(message.kind) and message.ahead > 0:
            self.say(queue_text(message.ahead, self.lang))

    @on(MeasurementRun.Stalled)
    def _run_stalled(self, message: MeasurementRun.Stalled) -> None:
        if self._watching(message.kind):
            self.say(stalled_text(message.seconds, self.lang) if message.seconds is not None
                     else t("lab.status.running", self.lang))

    @on(MeasurementRun.Point)
    def _run_point(self, message: MeasurementRun.Point) -> None:
        """A sweep point (the worker's JSON, read here into where it goes; one without a position is not drawn)."""
        if message.kind != LAB:
            return
        message.stop()
        sp = sweep_point(self.lab.run.name or "", message.point)
        if sp is not None and self.state == "running":
            self.post_message(self.PointMeasured(self, sp))

    @on(MeasurementRun.Finished)
    def _run_finished(self, message: MeasurementRun.Finished) -> None:
        if message.kind == LAB:
            message.stop()
            if self.state == "running":
                self.finish(message.result, message.seconds)

    @on(MeasurementRun.Failed)
    def _run_failed(self, message: MeasurementRun.Failed) -> None:
        if message.kind == LAB:
            message.stop()
            if self.state == "running":
                self.end(message.failure)

    def finish(self, result: LabResult, seconds: float | None = None) -> None:
        """The run's result: filed (stored, its notebook entry drafted), then posted as :class:`LabRun.Filed`."""
        seconds = self.session.clock() - self._started_at if seconds is None else seconds
        self.run.update(progress=1.0)
        # filed first: a bench run is then compared with the previous run on its fingerprint, and the screen
        # shows that comparison (the lab's step 4), not the bare report
        filed = self.session.lab_runner().file(self.lesson, self.lab, self.prediction, result, self.lang)
        self.say(t("lab.status.done", self.lang, device=device_label(result.device, "?"),
                   seconds=format_number(seconds, self.lang, ".1f")))
        self.state = "done"
        self.post_message(ProgressChanged())
        self.notify(clean_line(t("lab.notice.filed", self.lang, lab=self.lab.title.get(self.lang))), timeout=4,
                    markup=False)
        self.post_message(self.Filed(self, filed, seconds))

    def end(self, failure: Failure) -> None:
        """The run failed or was cancelled: nothing is stored; the locked prediction can be measured again."""
        if failure.state == "cancelled":
            self.say(t("lab.status.cancelled", self.lang))
            self.state = "cancelled"
            self.post_message(self.Cancelled(self, failure))
        else:
            self.say(t("lab.status.failed", self.lang, reason=failure_text(failure, self.lang)))
            self.state = "failed"
            self.post_message(self.Failed(self, failure))
