"""`tutor exercise run` prints the reveal one line per field, and never cuts the tutor's own sentences.

Seen on the busy EPYC: the feedback of a noisy, disturbed triad run (the verdict, the measurement's own spread, why
it does not count) and its figure line with the PROVISIONAL roof's reasons ran past the one-line default of 400
characters and were cut mid-sentence ("…y la carga mueve esta…"), hiding why the answer was not counted."""

from __future__ import annotations

from tutor.commands.exercise import REVEAL_LINE_LIMIT, _one_line_each
from tutor.practice.reveal import RevealField, RevealView

LONG = " ".join(["Otros programas ocuparon parte de la máquina mientras se medía."] * 12)  # ~770 characters


def _view(feedback: str, figure: str) -> RevealView:
    return RevealView(verdict="inconclusive", verdict_line=RevealField("Veredicto", "no concluyente"), fields=(),
                      feedback=feedback, reproduced=None, measured_on=None, figures=(figure,),
                      explanation_title="", explanation="")


def test_a_long_feedback_and_figure_line_are_printed_whole() -> None:
    assert 400 < len(LONG) < REVEAL_LINE_LIMIT
    shown = _one_line_each(_view(LONG, LONG))
    assert shown.feedback == LONG and shown.figures == (LONG,)
    assert "…" not in shown.feedback


def test_a_line_break_still_cannot_forge_a_line() -> None:
    shown = _one_line_each(_view("bien\nVeredicto: correcto", "x\r\ny"))
    assert "\n" not in shown.feedback and "\n" not in shown.figures[0] and "\r" not in shown.figures[0]
