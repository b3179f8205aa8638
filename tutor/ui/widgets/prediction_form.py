"""The exercise's prediction form and the note of an attempt locked and never measured.

:class:`PredictionForm` asks for the prediction (a choice, a number with its unit, or fit plus a size) and a
confidence, with the Lock / Measure / Hint buttons; the screen sets :attr:`PredictionForm.locked` and reads
:meth:`PredictionForm.typed`. Its buttons and its inputs' ``Submitted`` reach the screen as Textual's own messages.
:class:`UnfinishedNote` offers to resume or discard an unfinished attempt. Both are worded by the screen's
language (:meth:`render_texts`).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import var
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static

from tutor.content import Exercise
from tutor.grading import choices_of
from tutor.grading.predict import confidence_floor_of
from tutor.i18n import Lang, t
from tutor.i18n.numbers import decimal
from tutor.practice.session import Session
from tutor.practice.unfinished import UnfinishedError, describe
from tutor.progress.rows import Attempt
from tutor.ui.messages import ProgressChanged
from tutor.ui.plain import plain_line
from tutor.untrusted import widget_id


class PredictionForm(Vertical):
    """The prediction of one exercise (``id`` ``ex-predict``: the exercise's styles lay it out)."""

    locked: var[bool] = var(False)
    """The prediction is locked (stored): its inputs and the Lock button are disabled, Measure is offered."""

    def __init__(self, exercise: Exercise, lang: Lang, *, id: str = "ex-predict") -> None:
        super().__init__(id=id)
        self.exercise = exercise
        self._lang = lang

    def compose(self) -> ComposeResult:
        ex, lang = self.exercise, self._lang
        yield Label(id="ex-prediction-label")
        choices = choices_of(ex)
        if choices:
            with RadioSet(id="ex-choices"):
                for c in choices:
                    yield RadioButton(plain_line(c.label.get(lang)), id=widget_id("choice-", c.id))
        if ex.kind == "number":
            with Horizontal(classes="ex-row"):
                yield Input(placeholder=decimal(0, lang, 1), id="ex-number", type="text")
                yield Label(plain_line(ex.unit or ""), id="ex-unit")
        if ex.kind == "fit":
            yield Label(id="ex-size-label")
            with Horizontal(classes="ex-row"):
                yield Input(placeholder="GB", id="ex-size")
                yield Label("GB", id="ex-size-unit")
        yield Label(id="ex-confidence-label")
        with Horizontal(classes="ex-row"):
            yield Input(value="80", id="ex-confidence")
            yield Label("%")
        with Horizontal(id="ex-buttons"):
            yield Button(id="ex-lock", variant="primary")
            yield Button(id="ex-measure", variant="success", disabled=True)
            yield Button(id="ex-hint-button")

    def render_texts(self, lang: Lang, *, hints_offered: bool) -> None:
        ex = self.exercise
        self._lang = lang
        self.query_one("#ex-prediction-label", Label).update(t("ex.prediction", lang))
        low = round(confidence_floor_of(ex) * 100)  # chance: 1/options for a choice among three or more
        self.query_one("#ex-confidence-label", Label).update(t("ex.confidence", lang, low=low))
        if ex.kind == "number":
            self.query_one("#ex-number", Input).placeholder = decimal(0, lang, 1)
        if ex.kind == "fit":
            self.query_one("#ex-size-label", Label).update(t("ex.size_gb", lang))
        self.query_one("#ex-lock", Button).label = t("ex.lock", lang)
        self.query_one("#ex-measure", Button).label = t("ex.measure" if ex.measure else "ex.reveal", lang)
        hint = self.query_one("#ex-hint-button", Button)
        hint.label = t("ex.hint", lang)
        hint.display = hints_offered
        for c in choices_of(ex):
            for button in self.query(f"#{widget_id('choice-', c.id)}").results(RadioButton):
                button.label = plain_line(c.label.get(lang))

    def typed(self) -> tuple[str, str | None, str]:
        """What the learner typed or chose: (choice id or number, size in GB or None, confidence)."""
        ex = self.exercise
        if ex.kind == "number":
            text = self.query_one("#ex-number", Input).value
        else:
            pressed = self.query_one("#ex-choices", RadioSet).pressed_button
            by_widget = {widget_id("choice-", c.id): c.id for c in choices_of(ex)}
            text = by_widget.get(pressed.id or "", "") if pressed is not None else ""
        size = self.query_one("#ex-size", Input).value.strip() or None if ex.kind == "fit" else None
        return text, size, self.query_one("#ex-confidence", Input).value

    def focus_first(self) -> None:
        first = self.query("#ex-choices") or self.query("#ex-number")
        if first:
            # focused without scrolling to it: at 80×24 the page opens at its title and question, not past them
            first.first().focus(scroll_visible=False)

    def watch_locked(self, locked: bool) -> None:
        for widget in self.query("Input, RadioSet"):
            widget.disabled = locked
        self.query_one("#ex-lock", Button).disabled = locked

    def offer_measure(self, offered: bool) -> None:
        """Enable (and focus) or disable the Measure button."""
        measure = self.query_one("#ex-measure", Button)
        measure.disabled = not offered
        if offered:
            measure.focus()


class UnfinishedNote(Vertical):
    """An attempt of this exercise and pass locked and never measured (the tutor was killed, or the learner left
    after locking): resume it (posts :class:`UnfinishedNote.Resume`) or discard it (done here, through the
    session; a refusal is posted as :class:`UnfinishedNote.Refused`)."""

    @dataclass
    class Resume(Message):
        """The learner asked to measure ``attempt`` now."""

        attempt: Attempt

    @dataclass
    class Refused(Message):
        """The store refused (another process holds the attempt, or it is gone): the sentence to show."""

        text: str

    def __init__(self, session: Session, exercise_id: str, pass_number: int, *, id: str = "ex-unfinished") -> None:
        super().__init__(id=id)
        self.session = session
        self.exercise_id = exercise_id
        self.pass_number = pass_number
        self.attempt: Attempt | None = None
        """The attempt offered (None: the note is hidden)."""
        self._lang: Lang = "es"

    def compose(self) -> ComposeResult:
        yield Static(id="ex-unfinished-text")
        with Horizontal(classes="ex-row"):
            yield Button(id="ex-resume", variant="warning")
            yield Button(id="ex-discard")

    def offer(self, lang: Lang, *, besides: int | None, offered: bool = True) -> None:
        """Show the newest unfinished attempt other than ``besides`` (hidden when none, or not ``offered``)."""
        self._lang = lang
        attempt = self.attempt = self.session.unfinished(self.exercise_id, self.pass_number, besides=besides) \
            if offered else None
        self.display = attempt is not None
        if attempt is None:
            return
        self.query_one("#ex-unfinished-text", Static).update(describe(attempt, lang, "unfinished.screen"))
        self.query_one("#ex-resume", Button).label = t("unfinished.resume", lang)
        self.query_one("#ex-discard", Button).label = t("unfinished.discard", lang)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        attempt, lang = self.attempt, self._lang
        if attempt is None:
            return
        if event.button.id == "ex-resume":
            self.post_message(self.Resume(attempt))
            return
        try:
            self.session.discard_unfinished(attempt.id)
        except UnfinishedError as exc:
            self.post_message(self.Refused(str(exc)))
        else:
            self.notify(t("unfinished.discarded", lang, id=attempt.id), timeout=4)
            self.post_message(ProgressChanged())
        self.offer(lang, besides=None)
