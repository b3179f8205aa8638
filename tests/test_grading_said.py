"""Grading says what happened in codes (issue 29 item 4): a verdict's feedback is catalog messages with their
figures as parameters, rendered only when the reveal or the CLI asks for a language; stored, it reads back."""

from __future__ import annotations

import json

import pytest

from tutor.content.loader import load_course
from tutor.grading import parse_prediction
from tutor.grading.kinds import grade
from tutor.grading.said import FigureSaid, PackSaid, RatioSaid, feedback_from_json
from tutor.grading.units import format_value
from tutor.grading.verdict import Prediction, ResolvedTruth, Verdict
from tutor.i18n.catalog import messages
from tutor.i18n.message import Message
from tutor.paths import bundled_course


def _codes(message: Message) -> list[str]:
    nested = [c for _, v in message.params if isinstance(v, Message) for c in _codes(v)]
    return [message.code, *nested]


@pytest.fixture(scope="module")
def verdicts() -> list[Verdict]:
    course = load_course(bundled_course())
    number = next(e for e in course.exercises.values() if e.kind == "number")
    diagnose = next(e for e in course.exercises.values() if e.kind == "diagnose")
    wrong_choice = next(c.id for c in diagnose.choices if c.id != diagnose.answer)
    return [
        grade(number, Prediction(value=1000.0), ResolvedTruth(value=38.2, unit="GB/s", spread=1.5)),
        grade(number, Prediction(value=40.0), ResolvedTruth(value=38.2, unit="GB/s")),
        grade(diagnose, parse_prediction(diagnose, wrong_choice, 0.7), ResolvedTruth(choice=diagnose.answer)),
    ]


def test_the_feedback_is_codes_not_sentences(verdicts: list[Verdict]) -> None:
    for v in verdicts:
        assert v.feedback and all(isinstance(m, Message) for m in v.feedback)
        for m in v.feedback:
            for code in _codes(m):
                if code.startswith("grade.said."):
                    continue  # a figure, a ratio, a list or a pack's text: rendered by its own type
                assert code in messages("en") and code in messages("es"), code


def test_the_figures_are_written_in_the_reader_s_language(verdicts: list[Verdict]) -> None:
    off = verdicts[0]
    assert "1,000 GB/s" in off.feedback_in("en")
    assert format_value(1000.0, "GB/s", "es") in off.feedback_in("es")
    assert FigureSaid.of_value(16.1e9, "bytes").render("es").replace("\xa0", " ") == "16,1 GB"
    assert RatioSaid.off(3.1).render("es") == "3,10×" and RatioSaid.off(float("inf")).render("en") == "∞"


def test_stored_feedback_reads_back_and_renders_the_same(verdicts: list[Verdict]) -> None:
    for v in verdicts:
        stored = json.loads(json.dumps(v.to_json()))["feedback"]
        again = feedback_from_json(stored)
        assert again == v.feedback
        assert " ".join(m.render("es") for m in again) == v.feedback_in("es")


def test_the_older_stored_form_still_reads() -> None:
    """Rows from before this change kept the two finished sentences."""
    [said] = feedback_from_json({"es": "Correcto: memoria.", "en": "Right: memory."})
    assert isinstance(said, PackSaid)
    assert (said.render("es"), said.render("en")) == ("Correcto: memoria.", "Right: memory.")
    assert feedback_from_json(None) == () and feedback_from_json(42) == ()
