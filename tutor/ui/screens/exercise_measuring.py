"""The exercise screen's measuring half: the locked prediction measured through the screen's one
:class:`MeasurementRun` (kind ``exercise``), graded, revealed; a failure or Esc puts the form back; the roofline
measured again on request (F5) for the reveal's chart.

:class:`ExerciseMeasuring` is the base of :class:`~tutor.ui.screens.exercise.ExerciseScreen` (the layout, the
prediction, the keys). Everything it stores goes through the session's exercise runner.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from textual import on
from textual.containers import VerticalScroll

from tutor.content import Exercise
from tutor.grading import Prediction
from tutor.i18n import t
from tutor.practice import AttemptFailed, Outcome
from tutor.practice.failures import Failure, failure_text
from tutor.practice.reveal import build_reveal
from tutor.practice.roof_stamp import remeasured_text
from tutor.practice.runner import MeasureFn
from tutor.results import Measurement, RooflineReference
from tutor.ui.messages import ProgressChanged
from tutor.ui.roof_remeasure import RoofRemeasure
from tutor.ui.widgets.exercise_reveal import ExerciseReveal
from tutor.ui.widgets.exercise_run import ExerciseRunPanel
from tutor.ui.widgets.measurement_run import MeasurementRun, RunHooks
from tutor.ui.widgets.prediction_form import PredictionForm
from tutor.untrusted import clean

EXERCISE = "exercise"


class ExerciseMeasuring(RoofRemeasure):
    """Measure, grade and reveal one exercise's locked prediction (see the module docstring)."""

    exercise: Exercise
    pass_number: int
    device: str
    budget_s: float | None
    state: str
    attempt_id: int | None
    prediction: Prediction | None
    hints_shown: int
    outcome: Outcome | None
    _measure_fn: MeasureFn | None
    _remeasured_roof: RooflineReference | None

    @property
    def form(self) -> PredictionForm:
        return self.query_one(PredictionForm)

    @property
    def panel(self) -> ExerciseRunPanel:
        return self.query_one(ExerciseRunPanel)

    def measurement_run(self) -> MeasurementRun:
        return self.panel.run

    @property
    def stalled_for(self) -> float | None:
        """Seconds without a sign of life from the running measurement when it was found stalled, else None."""
        return self.panel.stalled_for

    def _status(self, text: str, error: bool = False) -> None:
        self.panel.say(text, error)

    def _device_text(self) -> str:
        raise NotImplementedError

    def _locked(self) -> None:
        self.state = "locked"
        self.form.locked = True
        self.form.offer_measure(True)

    def _inconclusive(self) -> bool:
        """Revealed, and the run could not decide: the same prediction may be measured again."""
        return self.state == "revealed" and self.outcome is not None and not self.outcome.verdict.counted

    def action_measure(self) -> None:
        if self.state == "predicting":
            self._status(t("ex.lock_first", self.lang), error=True)
            return
        if self._inconclusive() and self.prediction is not None:
            # measured again with the prediction already locked: a new attempt, never a new answer
            self.attempt_id = self.session.exercise_runner(self._measure_fn).lock(
                self.exercise, self.prediction, pass_number=self.pass_number, hints_used=self.hints_shown)
            self.outcome = None
            self.state = "locked"
            self._status(t("ex.measure_again", self.lang, id=self.attempt_id))
            self.post_message(ProgressChanged())
        if self.state != "locked" or self.attempt_id is None:
            return
        self.form.offer_measure(False)
        if self.exercise.measure is None:
            self._grade(None, None)
            return
        self.state = "running"
        self.panel.device = self._device_text()
        self.panel.running()
        self.measurement_run().start(EXERCISE, partial(self._measure_job, self.attempt_id))

    def _measure_job(self, attempt_id: int, hooks: RunHooks) -> tuple[Measurement | None, dict[str, Any] | None]:
        """In the run's thread: the attempt measured under the device's lease, its telemetry window recorded."""
        runner = self.session.exercise_runner(self._measure_fn, on_stall=hooks.stalled)
        with self.session.recording():
            return runner.measure(self.exercise, attempt_id, device=self.device, on_progress=hooks.progress,
                                  cancel=hooks.cancel, budget_s=self.budget_s, on_queue=hooks.queue)

    @on(MeasurementRun.Finished)
    def _measured(self, message: MeasurementRun.Finished) -> None:
        if message.kind == EXERCISE and self.state == "running":
            self._grade(*message.result)

    @on(MeasurementRun.Failed)
    def _not_measured(self, message: MeasurementRun.Failed) -> None:
        if message.kind != EXERCISE or self.state != "running":
            return
        if message.discarded and self.attempt_id is not None:  # measured, but the learner had cancelled
            self.session.cancel_attempt(self.attempt_id, message.failure)
        self._measurement_ended(message.failure)

    def _measurement_ended(self, failure: Failure) -> None:
        """The measurement failed or was cancelled: the prediction form is offered again, the reason shown."""
        self.state = "predicting"
        self.attempt_id = None
        self.panel.show_run(False)
        self.form.locked = False
        reason = clean(failure_text(failure.code, failure.detail, self.lang))
        self._status(t("ex.failed", self.lang, reason=reason), error=True)
        self.post_message(ProgressChanged())

    def _grade(self, result: Measurement | None, telemetry: dict[str, Any] | None) -> None:
        assert self.attempt_id is not None and self.prediction is not None
        try:
            outcome = self.session.exercise_runner(self._measure_fn).grade(
                self.exercise, self.attempt_id, self.prediction, result, telemetry, pass_number=self.pass_number)
        except AttemptFailed as exc:
            failure = Failure(exc.code, exc.reason)
            self._measurement_ended(failure)
            self.report_failure(EXERCISE, failure)
            return
        self.state = "revealed"
        self.outcome = outcome
        self.panel.show_run(False)
        self._status("")
        # The page takes the focus now (not deferred): the disabled Measure button passed it to a widget of the form
        # above, whose pending scroll-to-focus would otherwise win; PageUp/PageDown then read the reveal.
        self.set_focus(self.query_one("#exercise-main", VerticalScroll), scroll_visible=False)
        self._show_reveal(outcome)
        reveal = self.query_one(ExerciseReveal)
        page = self.query_one("#exercise-main", VerticalScroll)
        self.call_after_refresh(reveal.bring_into_view, page, lambda: self.state == "revealed")
        self.post_message(ProgressChanged())

    def _show_reveal(self, outcome: Outcome) -> None:
        status = self.session.exercise_status(self.exercise.id) if self.pass_number > 1 else None
        view = build_reveal(outcome, self.lang, first_pass_verdict=status.pass1_verdict if status else None,
                            reproduced=status.reproduced if status else None)
        reveal = self.query_one(ExerciseReveal)
        reveal.show(outcome, view, self.lang, self._remeasured_roof)
        self.query_one("#exercise-main", VerticalScroll).scroll_to_widget(reveal, animate=False, top=True)
        self.refresh_bindings()

    # -- the roofline measured again on request (F5) ----------------------------------------------------------

    def roof_measure_call(self) -> MeasureFn:
        return self._measure_fn or self.session.measure_fn()

    def roof_device(self) -> str:
        return self.device

    def roof_status(self, text: str, fraction: float | None = None) -> None:
        self.panel.show_run(self.roof_remeasuring, cancel=False)
        self._status(text)
        self.refresh_bindings()

    def roof_remeasured(self, roof: RooflineReference) -> None:
        before = self.query_one(ExerciseReveal).set_roof(roof)
        self._remeasured_roof = roof
        self.panel.show_run(False)
        self._status(remeasured_text(before, roof, self.lang))

