"""A choice typed in the learner's words: ``tutor exercise run n0-l1-triad-bound --predict memoria`` was refused
with "«memoria» no es una de las opciones: memory, compute", so a Spanish learner had to type the English id."""

from __future__ import annotations

import pytest

from tutor.content import load_course
from tutor.grading.predict import PredictionError, parse_prediction
from tutor.paths import bundled_course

COURSE = load_course(bundled_course())


@pytest.mark.parametrize(("exercise", "typed", "choice", "size"), [
    ("n0-l1-triad-bound", "memoria", "memory", None),
    ("n0-l1-triad-bound", "Cómputo", "compute", None),
    ("n0-l1-triad-bound", "computo", "compute", None),
    ("n0-l1-triad-bound", "limitado por memoria", "memory", None),
    ("n0-l1-triad-bound", "memory bound", "memory", None),
    ("n0-l1-triad-bound", "compute", "compute", None),
    ("n0-l3-8b-inference-fit", "no cabe", "does_not_fit", None),
    ("n0-l3-8b-inference-fit", "No cabe 40", "does_not_fit", 40.0),
    ("n0-l3-8b-inference-fit", "cabe:20", "fits", 20.0),
    ("n0-l3-8b-inference-fit", "does not fit 40000 MB", "does_not_fit", 40.0),
    ("n0-l3-8b-inference-fit", "does_not_fit:40", "does_not_fit", 40.0),
    ("n0-l3-8b-inference-fit", "40", "does_not_fit", 40.0),
    ("n0-l2-cpu-wheel", "CPU wheel", "cpu-wheel", None),
    ("n0-l2-cpu-wheel", "no sm120 kernels", "no-sm120-kernels", None),
])
def test_a_choice_is_read_in_either_language_and_spelling(exercise: str, typed: str, choice: str,
                                                          size: float | None) -> None:
    prediction = parse_prediction(COURSE.exercises[exercise], typed, 0.8)
    assert (prediction.choice, prediction.value) == (choice, size)


@pytest.mark.parametrize(("exercise", "typed"), [
    ("n0-l1-triad-bound", "mem"), ("n0-l1-triad-bound", "memoria cómputo"),
    ("n0-l3-8b-inference-fit", "does_not_fit foo"), ("n0-l3-8b-inference-fit", "quizá"),
    ("n0-l2-cpu-wheel", "wheel"),
])
def test_what_is_no_choice_is_still_refused_with_what_was_typed(exercise: str, typed: str) -> None:
    with pytest.raises(PredictionError) as refused:
        parse_prediction(COURSE.exercises[exercise], typed, 0.8)
    assert refused.value.said.code == "predict.not_a_choice"
    assert typed in refused.value.describe("es")
