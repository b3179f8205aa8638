"""One attempt at an exercise, as a widget: the hints shown, the note of an unfinished attempt, the prediction form,
the status line with the measurement's progress bar and its Cancel button.

:class:`ExerciseAttempt` owns the exercise's :class:`MeasurementRun` and the whole predict → lock → measure →
grade flow, through the exercise runner of the :class:`~tutor.practice.session.Session` it is given (nothing is
read from the app). The screen sets what it knows (``lang``, ``device_label``) and hears what
happened as messages: :class:`ExerciseAttempt.Changed` at every step, then :class:`ExerciseAttempt.Revealed`
(the outcome, for the screen's reveal), :class:`ExerciseAttempt.Failed` or :class:`ExerciseAttempt.Cancelled`
(the form is offered again; a run that did not finish is one notice through the app's one error path).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import var
from textual.widgets import Button, Input, Static

from tutor.content import Exercise
from tutor.grading import Prediction, PredictionError, parse_prediction
from tutor.grading.predict import unit_read
from tutor.i18n import Lang, t
from tutor.practice import AttemptFailed, ExerciseRunner, Outcome
from tutor.practice.failures import Failure, failure_text
from tutor.practice.reveal import RevealView, build_reveal
from tutor.practice.runner import MeasureFn
from tutor.practice.session import OnStall, Session
from tutor.results import Measurement
from tutor.ui.exercise_text import hints_text
from tutor.ui.messages import ProgressChanged, WorkFailed
from tutor.ui.widgets.exercise_run import EXERCISE, ExerciseRunPanel
from tutor.ui.widgets.measurement_run import MeasurementRun, RunHooks
from tutor.ui.widgets.prediction_form import PredictionForm, UnfinishedNote
from tutor.untrusted import clean, clean_line


class ExerciseAttempt(Vertical):
    """The learner's attempt at one exercise (see the module docstring); ``id`` ``ex-attempt``."""

    state: var[str] = var("predicting", init=False)
    """Where the attempt is: ``predicting`` → ``locked`` → ``running`` → ``revealed`` (a failure or a cancel goes
    back to ``predicting``). Each change is posted as :class:`ExerciseAttempt.Changed`."""

    lang: var[Lang] = var[Lang]("es", init=False)
    """The language the attempt speaks (set by the screen; the widgets are reworded)."""

    device_label: var[str] = var("", init=False)
    """The device the measurement runs on, as the status line names it (set by the screen from the telemetry)."""

    hints_used: var[int] = var(0, init=False)
    """Hints the learner has been shown (:meth:`take_hint`); a locked attempt records the count."""

    @dataclass
    class Changed(Message):
        """The attempt moved to ``state``."""

        attempt: ExerciseAttempt
        state: str

        @property
        def control(self) -> ExerciseAttempt:
            return self.attempt

    @dataclass
    class Revealed(Message):
        """The prediction was graded: ``outcome`` is what the reveal shows."""

        attempt: ExerciseAttempt
        outcome: Outcome

        @property
        def control(self) -> ExerciseAttempt:
            return self.attempt

    @dataclass
    class Failed(Message):
        """The measurement or the grading did not finish (the notice is posted already); the form is back."""

        attempt: ExerciseAttempt
        failure: Failure

        @property
        def control(self) -> ExerciseAttempt:
            return self.attempt

    @dataclass
    class Cancelled(Message):
        """The learner stopped the measurement (the attempt is stored as cancelled); the form is back."""

        attempt: ExerciseAttempt
        failure: Failure

        @property
        def control(self) -> ExerciseAttempt:
            return self.attempt

    def __init__(self, session: Session, exercise: Exercise, *, lang: Lang, pass_number: int = 1,
                 measure: MeasureFn | None = None, device: str = "auto", budget_s: float | None = None,
                 id: str = "ex-attempt") -> None:
        super().__init__(id=id)
        self.session = session
        self.exercise = exercise
        self.pass_number = pass_number
        self.measure_fn = measure
        """The engine a test injects (None: the session's warm measurement worker)."""
        self.device = device
        self.budget_s = budget_s
        self.attempt_id: int | None = None
        self.prediction: Prediction | None = None
        self.outcome: Outcome | None = None
        self.set_reactive(ExerciseAttempt.lang, lang)
        self.run = MeasurementRun(lang=lambda: self.lang, clock=session.clock, id="ex-progress")
        """The attempt's one measurement in flight (a screen may run the roofline through it too, one at a time)."""

    def compose(self) -> ComposeResult:
        yield Static(id="ex-hints")
        yield UnfinishedNote(self.session, self.exercise.id, self.pass_number)
        yield PredictionForm(self.exercise, self.lang)
        yield ExerciseRunPanel(self.run, self.lang)

    @property
    def form(self) -> PredictionForm:
        return self.query_one(PredictionForm)

    @property
    def panel(self) -> ExerciseRunPanel:
        return self.query_one(ExerciseRunPanel)

    @property
    def inconclusive(self) -> bool:
        """Revealed, and the run could not decide: the same prediction may be measured again."""
        return self.state == "revealed" and self.outcome is not None and not self.outcome.verdict.counted

    def on_mount(self) -> None:
        self.query_one("#ex-hints").display = False
        self.render_texts()
        self.form.focus_first()

    def watch_state(self, state: str) -> None:
        self.post_message(self.Changed(self, state))

    def watch_lang(self) -> None:
        self.render_texts()

    def watch_device_label(self, label: str) -> None:
        self.panel.device = label

    def watch_hints_used(self, hints: int) -> None:
        box = self.query_one("#ex-hints", Static)
        box.display = hints > 0 and bool(self.exercise.hints)
        if box.display:
            box.update(hints_text(self.exercise, hints, self.lang))

    def take_hint(self) -> None:
        """Show the next hint (on the first pass only), counted with the attempt once it is locked."""
        if self.pass_number > 1:
            self.notify(t("ex.no_hints_pass2", self.lang), markup=False)
        elif self.hints_used >= len(self.exercise.hints):
            self.notify(t("ex.no_more_hints", self.lang), markup=False)
        else:
            self.hints_used += 1
            if self.attempt_id is not None:
                self.session.record_hints(self.attempt_id, self.hints_used)

    def render_texts(self) -> None:
        lang = self.lang
        self.form.render_texts(lang, hints_offered=self.pass_number == 1 and bool(self.exercise.hints))
        self.panel.render_texts(lang)
        self.watch_hints_used(self.hints_used)
        self._offer_unfinished()

    def reveal_view(self, outcome: Outcome) -> RevealView:
        """What the reveal shows of ``outcome``, in the attempt's language (a second pass says the first's verdict)."""
        status = self.session.exercise_status(self.exercise.id) if self.pass_number > 1 else None
        return build_reveal(outcome, self.lang, first_pass_verdict=status.pass1_verdict if status else None,
                            reproduced=status.reproduced if status else None)

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` on the status line (an error in the error colour, scrolled into view)."""
        self.panel.say(text, error)

    def show_run(self, bar: bool, cancel: bool | None = None) -> None:
        """Show or hide the progress bar and the Cancel button (for a screen's own run through :attr:`run`)."""
        self.panel.show_run(bar, cancel)

    # -- predict and lock ---------------------------------------------------------------------------------------

    def lock_prediction(self) -> None:
        """Read the form and store the prediction (refused, with the reason on the status line, if it does not
        read)."""
        if self.state != "predicting":
            return
        text, size, confidence = self.form.typed()
        try:
            prediction = parse_prediction(self.exercise, text, confidence, size)
        except PredictionError as exc:
            self.say(exc.describe(self.lang), error=True)
            return
        self.attempt_id = self._runner().lock(self.exercise, prediction, pass_number=self.pass_number,
                                              hints_used=self.hints_used)
        read_as = unit_read(self.exercise, text)
        if read_as is not None:  # "14000 MB" for a GB exercise: say that it is graded as 14 GB
            self.notify(clean_line(read_as.render(self.lang)), timeout=8)
        self.prediction = prediction
        self._locked()
        self.say(t("ex.locked", self.lang, id=self.attempt_id))
        self.post_message(ProgressChanged())

    def _locked(self) -> None:
        self.form.locked = True
        self.form.offer_measure(True)
        self.state = "locked"

    def _offer_unfinished(self) -> None:
        self.query_one(UnfinishedNote).offer(self.lang, besides=self.attempt_id, offered=self.state == "predicting")

    def on_unfinished_note_resume(self, message: UnfinishedNote.Resume) -> None:
        """Measure the unfinished attempt now, graded against the prediction it stored."""
        from tutor.practice.unfinished import UnfinishedError

        message.stop()
        attempt = message.attempt
        if self.state != "predicting":
            return
        try:
            self.session.take_unfinished(attempt.id, self.exercise.id)
        except UnfinishedError as exc:
            self.say(str(exc), error=True)
            self._offer_unfinished()
            return
        self.hints_used = max(self.hints_used, attempt.hints_used)
        self.attempt_id, self.prediction = attempt.id, attempt.prediction
        self._locked()
        self.query_one(UnfinishedNote).display = False
        self.measure()

    def on_unfinished_note_refused(self, message: UnfinishedNote.Refused) -> None:
        message.stop()
        self.say(message.text, error=True)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.lock_prediction()

    @on(Button.Pressed, "#ex-lock, #ex-measure, #ex-cancel, #ex-hint-button")
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {"ex-lock": self.lock_prediction, "ex-measure": self.measure, "ex-cancel": self.cancel,
                   "ex-hint-button": self.take_hint}
        actions[event.button.id or ""]()

    # -- measure, grade -----------------------------------------------------------------------------------------

    def measure(self) -> None:
        """Measure the locked prediction (or, revealed and inconclusive, the same prediction as a new attempt)."""
        if self.state == "predicting":
            self.say(t("ex.lock_first", self.lang), error=True)
            return
        if self.inconclusive and self.prediction is not None:
            # measured again with the prediction already locked: a new attempt, never a new answer
            self.attempt_id = self._runner().lock(self.exercise, self.prediction, pass_number=self.pass_number,
                                                  hints_used=self.hints_used)
            self.outcome = None
            self.state = "locked"
            self.say(t("ex.measure_again", self.lang, id=self.attempt_id))
            self.post_message(ProgressChanged())
        if self.state != "locked" or self.attempt_id is None:
            return
        self.form.offer_measure(False)
        if self.exercise.measure is None:
            self._grade(None, None)
            return
        self.state = "running"
        self.panel.running()
        self.run.start(EXERCISE, partial(self._measure_job, self.attempt_id))

    def cancel(self) -> bool:
        """Stop the measurement in flight (the attempt ends cancelled); whether one was."""
        if self.state != "running" or not self.run.cancel():
            return False
        self.say(t("ex.cancelling", self.lang))
        return True

    def _runner(self, on_stall: OnStall | None = None) -> ExerciseRunner:
        return self.session.exercise_runner(self.measure_fn, on_stall)

    def _measure_job(self, attempt_id: int, hooks: RunHooks) -> tuple[Measurement | None, dict[str, Any] | None]:
        """In the run's thread: the attempt measured under the device's lease, its telemetry window recorded."""
        runner = self._runner(on_stall=hooks.stalled)
        with self.session.recording():
            return runner.measure(self.exercise, attempt_id, device=self.device, on_progress=hooks.progress,
                                  cancel=hooks.cancel, budget_s=self.budget_s, on_queue=hooks.queue)

    @on(MeasurementRun.Finished)
    def _measured(self, message: MeasurementRun.Finished) -> None:
        if message.kind == EXERCISE:
            message.stop()
            if self.state == "running":
                self._grade(*message.result)

    @on(MeasurementRun.Failed)
    def _not_measured(self, message: MeasurementRun.Failed) -> None:
        if message.kind != EXERCISE:
            return
        message.stop()
        if self.state != "running":
            return
        if message.discarded and self.attempt_id is not None:  # measured, but the learner had cancelled
            self.session.cancel_attempt(self.attempt_id, message.failure)
        self._ended(message.failure)

    def _ended(self, failure: Failure) -> None:
        """The measurement failed or was cancelled: the prediction form is offered again, the reason shown."""
        self.attempt_id = None
        self.panel.show_run(False)
        self.form.locked = False
        reason = clean(failure_text(failure.code, failure.detail, self.lang))
        self.say(t("ex.failed", self.lang, reason=reason), error=True)
        self.state = "predicting"
        self.post_message(ProgressChanged())
        self.post_message(self.Cancelled(self, failure) if failure.state == "cancelled" else self.Failed(self, failure))

    def _grade(self, result: Measurement | None, telemetry: dict[str, Any] | None) -> None:
        assert self.attempt_id is not None and self.prediction is not None
        try:
            outcome = self._runner().grade(self.exercise, self.attempt_id, self.prediction, result, telemetry,
                                           pass_number=self.pass_number)
        except AttemptFailed as exc:
            failure = Failure(exc.code, exc.reason)
            self._ended(failure)
            self.post_message(WorkFailed(EXERCISE, failure.code, failure.detail))  # the app's one notice
            return
        self.outcome = outcome
        self.panel.show_run(False)
        self.say("")
        self.state = "revealed"
        self.post_message(ProgressChanged())
        self.post_message(self.Revealed(self, outcome))

    def on_unmount(self) -> None:
        # Textual cancels the run's worker as the screen goes: a running measurement stops within a second.
        if self.state == "locked" and self.attempt_id is not None:
            self.session.release_unfinished(self.attempt_id)  # locked, never measured: shown as unfinished
