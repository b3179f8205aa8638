"""The exercise screen: the exercise (title, prompt, set-up, hints) beside the live telemetry, composed of
:class:`ExerciseAttempt` (predict → lock → measure → grade, through the session's exercise runner; Esc cancels) and
:class:`ExerciseReveal`, which the screen fills when the attempt posts ``Revealed``: the measured figures, the
roofline chart with the workload's point and the learner's guess, the verdict, the score and the explanation. F5 on
the reveal measures the roofline again (:class:`RoofRemeasure`, through the attempt's run).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Header, Static

from tutor.content import Exercise
from tutor.i18n import Lang, t
from tutor.practice import Outcome
from tutor.practice.runner import MeasureFn
from tutor.practice.session import Session
from tutor.results import RooflineReference
from tutor.ui.exercise_text import device_text, next_pending_exercise, roofline_note, setup_text
from tutor.ui.keys import bindings
from tutor.ui.layout import toggle_telemetry
from tutor.ui.marks import CourseMarks
from tutor.ui.messages import OpenExercise
from tutor.ui.plain import PackMarkdown, styled
from tutor.ui.roof_remeasure import RoofRemeasure, RunNews
from tutor.ui.screens.base import TutorScreen
from tutor.ui.screens.code import open_code
from tutor.ui.widgets.exercise_attempt import ExerciseAttempt
from tutor.ui.widgets.exercise_reveal import ExerciseReveal
from tutor.ui.widgets.measurement_run import MeasurementRun
from tutor.ui.widgets.telemetry_panel import TelemetryPanel
from tutor.untrusted import widget_id

__all__ = ["ExerciseScreen", "next_pending_exercise", "roofline_note"]


class ExerciseScreen(TutorScreen[None]):
    """One predict-then-measure exercise."""

    CSS_PATH = "../styles/exercise.tcss"
    BINDINGS = bindings("back", "lock", "run", "hint", "telemetry", "next_pending", "view_code", "remeasure_roof",
                        "attempts", back="back_or_cancel", run="measure")

    def __init__(self, session: Session, exercise: Exercise, *, pass_number: int = 1, measure: MeasureFn | None = None,
                 device: str = "auto", budget_s: float | None = None) -> None:
        super().__init__(id=widget_id("exercise-", exercise.id))
        self.session = session
        self.exercise = exercise
        self.pass_number = pass_number
        self.device = device
        self.budget_s = budget_s
        self._measure_fn = measure  # a test's engine, handed to the attempt (None: the session's warm worker)
        self.roof = RoofRemeasure(session, measure=lambda: self.attempt.measure_fn or session.measure_fn(),
                                  device=lambda: device, lang=lambda: self.lang, say=self._roof_status,
                                  measured=self._roof_measured)
        self._remeasured_roof: RooflineReference | None = None
        """The roof F5 measured after the reveal (the chart draws it from then on)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="exercise-body"):
            with VerticalScroll(id="exercise-main"):
                yield Static(id="ex-title")
                yield PackMarkdown(id="ex-prompt")
                yield Static(id="ex-setup")
                yield ExerciseAttempt(self.session, self.exercise, lang=self.lang, pass_number=self.pass_number,
                                      measure=self._measure_fn, device=self.device, budget_s=self.budget_s)
                yield ExerciseReveal(id="ex-reveal")
            with Vertical(id="telemetry-column"):
                yield TelemetryPanel(id="telemetry-panel")
        yield Footer()

    # -- what the attempt knows, read by the keys (and the tests) ------------------------------------------------

    @property
    def attempt(self) -> ExerciseAttempt:
        return self.query_one(ExerciseAttempt)

    @property
    def state(self) -> str:
        """``predicting`` → ``locked`` → ``running`` → ``revealed`` (the attempt's)."""
        return self.attempt.state

    @property
    def outcome(self) -> Outcome | None:
        return self.attempt.outcome

    @property
    def hints_shown(self) -> int:
        return self.attempt.hints_used

    @property
    def stalled_for(self) -> float | None:
        """Seconds without a sign of life from the running measurement when it was found stalled, else None."""
        return self.attempt.panel.stalled_for

    @property
    def roof_remeasuring(self) -> bool:
        """Whether the roofline is being measured again now."""
        return self.roof.remeasuring(self.attempt.run)

    def measurement_run(self) -> MeasurementRun:
        return self.attempt.run

    # -- the words ------------------------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.query_one("#ex-reveal").display = False
        self._render_texts()

    def lang_changed(self, lang: Lang) -> None:
        self.attempt.lang = lang
        self._render_texts()
        if self.outcome is not None:
            self._show_reveal(self.outcome)

    def _render_texts(self) -> None:
        ex, lang = self.exercise, self.lang
        pass_text = f" · {t('ex.pass', lang, n=self.pass_number)}" if self.pass_number > 1 else ""
        self.query_one("#ex-title", Static).update(styled("[b]$title[/b]$suffix", title=ex.title.get(lang),
                                                          suffix=pass_text))
        self.query_one("#ex-prompt", PackMarkdown).update(ex.prompt.get(lang))
        self.attempt.device_label = device = self._device_text()
        self.query_one("#ex-setup", Static).update(setup_text(ex, self.pass_number, device, lang))
        self.query_one(ExerciseReveal).render_texts(lang)

    def _device_text(self) -> str:
        panels = self.query(TelemetryPanel)
        return device_text(self.device, panels.first().snapshot if panels else None, self.lang)

    # -- what the attempt says ----------------------------------------------------------------------------------

    @on(ExerciseAttempt.Changed)
    def _attempt_changed(self) -> None:
        self.refresh_bindings()

    @on(ExerciseAttempt.Revealed)
    def _revealed(self, message: ExerciseAttempt.Revealed) -> None:
        # The page takes the focus: the disabled Measure button passed it to a widget of the form above, whose
        # pending scroll-to-focus would otherwise win; PageUp/PageDown then read the reveal.
        page = self.query_one("#exercise-main", VerticalScroll)
        self.set_focus(page, scroll_visible=False)
        self._show_reveal(message.outcome)
        reveal = self.query_one(ExerciseReveal)
        self.call_after_refresh(reveal.bring_into_view, page, lambda: self.state == "revealed")

    def _show_reveal(self, outcome: Outcome) -> None:
        reveal = self.query_one(ExerciseReveal)
        reveal.show(outcome, self.attempt.reveal_view(outcome), self.lang, self._remeasured_roof)
        self.query_one("#exercise-main", VerticalScroll).scroll_to_widget(reveal, animate=False, top=True)
        self.refresh_bindings()

    # -- the roofline measured again on request (F5) ----------------------------------------------------------

    def action_remeasure_roof(self) -> None:
        self.roof.start(self.attempt.run)

    @on(MeasurementRun.Progress)
    @on(MeasurementRun.Finished)
    @on(MeasurementRun.Failed)
    def _roof_news(self, message: RunNews) -> None:
        self.roof.hear(message)

    def _roof_status(self, text: str, running: bool) -> None:
        self.attempt.show_run(running, cancel=False)
        self.attempt.say(text)
        self.refresh_bindings()

    def _roof_measured(self, roof: RooflineReference) -> RooflineReference | None:
        self._remeasured_roof = roof
        return self.query_one(ExerciseReveal).set_roof(roof)

    # -- the keys ---------------------------------------------------------------------------------------------

    def action_lock(self) -> None:
        self.attempt.lock_prediction()

    def action_measure(self) -> None:
        self.attempt.device_label = self._device_text()
        self.attempt.measure()

    def action_hint(self) -> None:
        self.attempt.take_hint()

    def action_back_or_cancel(self) -> None:
        if self.roof.cancel(self.attempt.run) or self.attempt.cancel():
            self.attempt.say(t("ex.cancelling", self.lang))
        elif self.state == "revealed":  # the attempt just made stays in sight: its exercise's attempts
            from tutor.ui.screens.attempts import attempts_screen

            self.app.switch_screen(attempts_screen(self.session, self.exercise))
        elif self.state != "running":
            self.app.pop_screen()

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
            return True if self.state in ("predicting", "locked") or self.attempt.inconclusive else None
        return True

    def action_next_pending(self) -> None:
        """From the reveal: open the next exercise in course order not passed yet (wrapping around)."""
        if self.state != "revealed":
            return
        following = next_pending_exercise(self.session.course, CourseMarks.load(self.session), self.exercise.id)
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

    @on(Button.Pressed, "#ex-next")
    def _next_pressed(self) -> None:
        self.action_next_pending()
