"""The exercise screen: predict, lock, measure, reveal.

The prediction (a choice or a number with its unit, and a confidence) is locked — stored — before the Measure step
is available. The measurement runs through the screen's :class:`MeasurementRun` (one thread worker, the session's
warm measurement worker, Esc cancels within a second) while the telemetry panel stays live. The reveal shows the
measured figures with their spread, the roofline chart with the workload's point and the learner's guess, the
verdict, the score, where the truth came from and the explanation filled in with this run's numbers. The flow itself
lives in :class:`tutor.practice.ExerciseRunner` (through the session), shared with ``tutor exercise run``.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Header, Input, Static

from tutor.content import Exercise
from tutor.grading import Prediction, PredictionError, parse_prediction
from tutor.grading.predict import unit_read
from tutor.i18n import Lang, t
from tutor.practice import Outcome
from tutor.practice.runner import MeasureFn
from tutor.practice.session import Session
from tutor.results import RooflineReference
from tutor.ui.exercise_text import device_text, hints_text, next_pending_exercise, roofline_note, setup_text
from tutor.ui.keys import bindings
from tutor.ui.layout import toggle_telemetry
from tutor.ui.marks import CourseMarks
from tutor.ui.messages import OpenExercise, ProgressChanged
from tutor.ui.plain import PackMarkdown, styled
from tutor.ui.screens.code import open_code
from tutor.ui.screens.exercise_measuring import ExerciseMeasuring
from tutor.ui.widgets.exercise_reveal import ExerciseReveal
from tutor.ui.widgets.exercise_run import ExerciseRunPanel
from tutor.ui.widgets.measurement_run import MeasurementRun
from tutor.ui.widgets.prediction_form import PredictionForm, UnfinishedNote
from tutor.ui.widgets.telemetry_panel import TelemetryPanel
from tutor.untrusted import clean_line, widget_id

__all__ = ["ExerciseScreen", "next_pending_exercise", "roofline_note"]


class ExerciseScreen(ExerciseMeasuring):
    """One predict-then-measure exercise."""

    CSS_PATH = "../styles/exercise.tcss"
    BINDINGS = bindings("back", "lock", "run", "hint", "telemetry", "next_pending", "view_code", "remeasure_roof",
                        "attempts", back="back_or_cancel", run="measure")

    def __init__(self, session: Session, exercise: Exercise, *, pass_number: int = 1, measure: MeasureFn | None = None,
                 device: str = "auto", budget_s: float | None = None) -> None:
        super().__init__(id=widget_id("exercise-", exercise.id))
        self.session = session
        self.course = session.course
        self.exercise = exercise
        self.pass_number = pass_number
        self.device = device
        self.budget_s = budget_s
        self._measure_fn = measure
        """The engine a test injects (None: the session's warm measurement worker)."""
        self.state = "predicting"  # predicting → locked → running → revealed
        self.attempt_id: int | None = None
        self.prediction: Prediction | None = None
        self.hints_shown = 0
        self.outcome: Outcome | None = None
        self._remeasured_roof: RooflineReference | None = None
        """The roof F5 measured after the reveal (the chart draws it from then on)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="exercise-body"):
            with VerticalScroll(id="exercise-main"):
                yield Static(id="ex-title")
                yield PackMarkdown(id="ex-prompt")
                yield Static(id="ex-setup")
                yield Static(id="ex-hints")
                yield UnfinishedNote(self.session, self.exercise.id, self.pass_number)
                yield PredictionForm(self.exercise, self.lang)
                yield ExerciseRunPanel(MeasurementRun(lang=lambda: self.lang, clock=self.session.clock,
                                                      id="ex-progress"), self.lang)
                yield ExerciseReveal(id="ex-reveal")
            with Vertical(id="telemetry-column"):
                yield TelemetryPanel(id="telemetry-panel")
        yield Footer()

    @property
    def form(self) -> PredictionForm:
        return self.query_one(PredictionForm)

    def on_mount(self) -> None:
        self.query_one("#ex-reveal").display = False
        self.query_one("#ex-hints").display = False
        self._show_unfinished()
        self._render_texts()
        self.form.focus_first()

    def lang_changed(self, lang: Lang) -> None:
        self._render_texts()
        self._show_unfinished()
        if self.outcome is not None:
            self._show_reveal(self.outcome)

    def _render_texts(self) -> None:
        ex, lang = self.exercise, self.lang
        pass_text = f" · {t('ex.pass', lang, n=self.pass_number)}" if self.pass_number > 1 else ""
        self.query_one("#ex-title", Static).update(styled("[b]$title[/b]$suffix", title=ex.title.get(lang),
                                                          suffix=pass_text))
        self.query_one("#ex-prompt", PackMarkdown).update(ex.prompt.get(lang))
        self.panel.device = device = self._device_text()
        self.query_one("#ex-setup", Static).update(setup_text(ex, self.pass_number, device, lang))
        self.form.render_texts(lang, hints_offered=self.pass_number == 1 and bool(ex.hints))
        self.panel.render_texts(lang)
        self.query_one(ExerciseReveal).render_texts(lang)
        self._render_hints()

    def _device_text(self) -> str:
        panels = self.query(TelemetryPanel)
        return device_text(self.device, panels.first().snapshot if panels else None, self.lang)

    def _render_hints(self) -> None:
        box = self.query_one("#ex-hints", Static)
        box.display = self.hints_shown > 0 and bool(self.exercise.hints)
        if box.display:
            box.update(hints_text(self.exercise, self.hints_shown, self.lang))

    # -- predict and lock -----------------------------------------------------------------------------------

    def action_hint(self) -> None:
        if self.pass_number > 1:
            self.notify(t("ex.no_hints_pass2", self.lang), markup=False)
            return
        if self.hints_shown >= len(self.exercise.hints):
            self.notify(t("ex.no_more_hints", self.lang), markup=False)
            return
        self.hints_shown += 1
        self._render_hints()
        if self.attempt_id is not None:
            self.session.record_hints(self.attempt_id, self.hints_shown)

    def action_lock(self) -> None:
        if self.state != "predicting":
            return
        text, size, confidence = self.form.typed()
        try:
            prediction = parse_prediction(self.exercise, text, confidence, size)
        except PredictionError as exc:
            self._status(exc.describe(self.lang), error=True)
            return
        self.attempt_id = self.session.exercise_runner(self._measure_fn).lock(
            self.exercise, prediction, pass_number=self.pass_number, hints_used=self.hints_shown)
        read_as = unit_read(self.exercise, text)
        if read_as is not None:  # "14000 MB" for a GB exercise: say that it is graded as 14 GB
            self.notify(clean_line(read_as.render(self.lang)), timeout=8)
        self.prediction = prediction
        self._locked()
        self._status(t("ex.locked", self.lang, id=self.attempt_id))
        self.refresh_bindings()
        self.post_message(ProgressChanged())

    # -- Esc, an unfinished attempt, the keys -------------------------------------------------------------------

    def action_back_or_cancel(self) -> None:
        if self.cancel_roof_remeasure() or (self.state == "running" and self.measurement_run().cancel()):
            self._status(t("ex.cancelling", self.lang))
            return
        if self.state == "revealed":  # the attempt just made stays in sight: its exercise's attempts
            from tutor.ui.screens.attempts import attempts_screen

            self.app.switch_screen(attempts_screen(self.session, self.exercise))
        elif self.state != "running":
            self.app.pop_screen()

    def _show_unfinished(self) -> None:
        self.query_one(UnfinishedNote).offer(self.lang, besides=self.attempt_id, offered=self.state == "predicting")

    def on_unfinished_note_resume(self, message: UnfinishedNote.Resume) -> None:
        """Measure the unfinished attempt now, graded against the prediction it stored."""
        from tutor.practice.unfinished import UnfinishedError

        attempt = message.attempt
        if self.state != "predicting":
            return
        try:
            self.session.take_unfinished(attempt.id, self.exercise.id)
        except UnfinishedError as exc:
            self._status(str(exc), error=True)
            self._show_unfinished()
            return
        self.attempt_id, self.prediction = attempt.id, attempt.prediction
        self.hints_shown = max(self.hints_shown, attempt.hints_used)
        self._locked()
        self.query_one(UnfinishedNote).display = False
        self.action_measure()

    def on_unfinished_note_refused(self, message: UnfinishedNote.Refused) -> None:
        self._status(message.text, error=True)

    def on_unmount(self) -> None:
        # Textual cancels this screen's workers as it goes: a running measurement stops within a second.
        if self.state == "locked" and self.attempt_id is not None:
            self.session.release_unfinished(self.attempt_id)  # locked, never measured: shown as unfinished

    def binding_label(self, key_id: str, lang: Lang) -> str | None:
        """The footer's words for this exercise: a diagnose exercise (nothing measured) says Reveal."""
        if key_id == "run":
            return t("ex.measure" if self.exercise.measure else "ex.reveal", lang)
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        measure = self.exercise.measure
        if action == "next_pending":
            return self.state == "revealed"
        if action == "remeasure_roof":  # on the reveal of a measured exercise, one at a time
            if measure is None or measure.op == "doctor":
                return False
            return True if self.state == "revealed" and not self.roof_remeasuring else None
        if action == "view_code":
            return measure is not None
        if action == "hint":
            return self.pass_number == 1 and bool(self.exercise.hints)
        # after the reveal lock and run are shown disabled (dimmed), not silently ignored
        if action == "lock":
            return True if self.state == "predicting" else None
        if action == "measure":
            return True if self.state in ("predicting", "locked") or self._inconclusive() else None
        return True

    def action_next_pending(self) -> None:
        """From the reveal: open the next exercise in course order not passed yet (wrapping around)."""
        if self.state != "revealed":
            return
        marks = CourseMarks.load(self.session.store)
        following = next_pending_exercise(self.course, marks, self.exercise.id)
        if following is None:
            self.notify(t("ex.all_done", self.lang))
            return
        self.app.pop_screen()
        self.app.post_message(OpenExercise(following))

    def action_view_code(self) -> None:
        call = self.exercise.measure
        if call is not None:
            open_code(self, call.op, call.name, self.lang)

    def action_toggle_telemetry(self) -> None:
        toggle_telemetry(self)

    _BUTTONS = {"ex-lock": "lock", "ex-measure": "measure", "ex-hint-button": "hint", "ex-cancel": "back_or_cancel",
                "ex-next": "next_pending"}

    def on_button_pressed(self, event: Button.Pressed) -> None:
        action = self._BUTTONS.get(event.button.id or "")
        if action is not None:
            getattr(self, f"action_{action}")()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.state == "predicting":
            self.action_lock()
