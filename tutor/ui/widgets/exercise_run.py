"""The exercise's status line, its measurement's progress bar and its Cancel button, as one panel.

:class:`ExerciseRunPanel` says what the screen tells it (:meth:`ExerciseRunPanel.say`) and, while the exercise's
measurement runs, words its progress, a class's queue and a stall itself (``device`` is set by its attempt). The
run's end (:class:`MeasurementRun.Finished` / ``Failed``) and the Cancel button's press go on to the
:class:`~tutor.ui.widgets.exercise_attempt.ExerciseAttempt` that holds it.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import var
from textual.widgets import Button, Static

from tutor.i18n import Lang, t
from tutor.measure.phases import progress_text
from tutor.practice.failures import stalled_text
from tutor.ui.exercise_text import roofline_note
from tutor.ui.plain import plain
from tutor.ui.widgets.measurement_run import MeasurementRun

EXERCISE = "exercise"


class ExerciseRunPanel(Vertical):
    """``#ex-status``, ``#ex-progress`` (the :class:`MeasurementRun`) and ``#ex-cancel``."""

    device: var[str] = var("")
    """The device the measurement runs on, as the status line names it."""

    stalled_for: var[float | None] = var(None)
    """Seconds without a sign of life from the running measurement when it was found stalled, else None."""

    def __init__(self, run: MeasurementRun, lang: Lang, *, id: str = "ex-run") -> None:
        super().__init__(id=id)
        self.run = run
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Static(id="ex-status")
        yield self.run
        yield Button(id="ex-cancel", variant="error")

    def on_mount(self) -> None:
        self.run.display = False
        self.query_one("#ex-cancel").display = False

    def render_texts(self, lang: Lang) -> None:
        self.lang = lang
        self.query_one("#ex-cancel", Button).label = t("ex.cancel", lang)

    def say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#ex-status", Static)
        status.update(plain(text))
        status.set_class(error, "error")
        if error:  # at 80×24 the line sits below the form: a refusal the learner cannot see is no answer
            status.call_after_refresh(status.scroll_visible, animate=False)

    def show_run(self, bar: bool, cancel: bool | None = None) -> None:
        """Show or hide the bar and the Cancel button (``cancel`` follows ``bar`` unless given)."""
        self.run.display = bar
        self.query_one("#ex-cancel").display = bar if cancel is None else cancel

    def running(self) -> None:
        """The exercise's measurement starts."""
        self.stalled_for = None
        self.show_run(True)
        self.say(t("ex.running", self.lang, device=self.device))

    def _watching(self, kind: str) -> bool:
        return kind == EXERCISE and self.run.running and not self.run.cancelling

    def on_measurement_run_progress(self, message: MeasurementRun.Progress) -> None:
        if self._watching(message.kind) and self.stalled_for is None:
            note = roofline_note(message.said, self.lang) if message.said is not None else None
            self.say(f"{t('ex.running', self.lang, device=self.device)}\n"
                     f"{progress_text(message.fraction, message.said, self.lang)}" + (f"\n{note}" if note else ""))

    def on_measurement_run_queued(self, message: MeasurementRun.Queued) -> None:
        from tutor.progress.lease import queue_text

        if self._watching(message.kind) and message.ahead > 0:
            self.say(queue_text(message.ahead, self.lang))

    def on_measurement_run_stalled(self, message: MeasurementRun.Stalled) -> None:
        if not self._watching(message.kind):
            return
        self.stalled_for = message.seconds
        if message.seconds is not None:
            self.say(stalled_text(message.seconds, self.lang), error=True)
            self.query_one("#ex-cancel", Button).focus()
        else:
            self.say(t("ex.running", self.lang, device=self.device))
