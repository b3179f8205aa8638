"""The lab's prediction, asked before anything runs: the question, the answer box (with the pack's unit) and
Start. A prediction that reads is posted as :class:`LabPredictionForm.Locked`; one that does not is said as a
notice in the learner's language and nothing is locked."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Label

from tutor.content import Lab
from tutor.i18n import Lang, t
from tutor.practice.labs import LabInputError, LabPrediction, lab_question, parse_lab_prediction
from tutor.ui.plain import plain, plain_line
from tutor.untrusted import clean


class LabPredictionForm(Vertical):
    """``#lab-predict``: the question (``#lab-question``), ``#lab-prediction``, the unit and ``#lab-start``."""

    @dataclass
    class Locked(Message):
        """The learner's prediction read: the run may start."""

        prediction: LabPrediction

    def __init__(self, lab: Lab, lang: Lang, *, id: str = "lab-predict") -> None:
        super().__init__(id=id)
        self.lab = lab
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Label(plain(lab_question(self.lab, self.lang)), id="lab-question")
        with Horizontal(id="lab-predict-row"):
            yield Input(placeholder=self._placeholder(), id="lab-prediction")
            if self.lab.prediction_unit:
                yield Label(plain_line(self.lab.prediction_unit), id="lab-unit")
            yield Button(t("lab.predict.start", self.lang), id="lab-start", variant="primary")

    def _placeholder(self) -> str:
        unit = self.lab.prediction_unit
        return t("lab.predict.placeholder_number", self.lang, unit=unit) if unit else t(
            "lab.predict.placeholder_text", self.lang)

    def render_texts(self, lang: Lang) -> None:
        self.lang = lang
        self.query_one("#lab-question", Label).update(plain(lab_question(self.lab, lang)))
        self.query_one("#lab-prediction", Input).placeholder = self._placeholder()
        self.query_one("#lab-start", Button).label = t("lab.predict.start", lang)

    @on(Input.Submitted, "#lab-prediction")
    @on(Button.Pressed, "#lab-start")
    def _submitted(self, event: Message) -> None:
        event.stop()
        prediction = self.read()
        if prediction is not None:
            self.post_message(self.Locked(prediction))

    def offer(self) -> None:
        """Show the form again (nothing was locked), the answer box focused."""
        self.display = True
        self.query_one("#lab-prediction", Input).focus()

    def read(self) -> LabPrediction | None:
        """The answer box read as a prediction; None (and a notice saying why) when it does not read."""
        raw = self.query_one("#lab-prediction", Input).value
        try:
            return parse_lab_prediction(raw, self.lab.prediction_unit, self.lang)
        except LabInputError as exc:
            self.notify(clean(str(exc)), severity="warning", markup=False)
            return None
