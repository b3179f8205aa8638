"""A measured number from a disturbed run can confirm an answer but not call it wrong.

Seen in `tutor exercise run n0-l1-triad-gbs --predict 60` on the busy 2-core EPYC: other programs used 1.8 of the 2
cores, the triad measured 5.55 GB/s (STREAM gives ~80 on this machine when quiet), and the learner's 60 was scored
"wrong · 0.00" and counted, while the reveal itself said "these figures may be low". A bound on a disturbed run near
the ridge was already not counted (issue 26); a number now follows the same rule: on a disturbed run a prediction
that is not a pass is not counted (verdict ``inconclusive``, reason ``disturbed``), a pass still counts, and a quiet
run grades as before.
"""

from __future__ import annotations

from typing import Any

import pytest

from tutor.content.loader import load_course
from tutor.grading import Prediction, grade, resolve_truth
from tutor.i18n import t
from tutor.paths import bundled_course
from tutor.results import Measurement

DEVICE = {"kind": "cpu", "name": "Test CPU", "fingerprint": "f"}
EXERCISE = "n0-l1-triad-gbs"


@pytest.fixture(scope="module")
def course() -> Any:
    return load_course(bundled_course())


def _triad(busy: bool) -> Measurement:
    return Measurement.from_json({
        "kind": "workload", "workload": "triad", "device": DEVICE, "achieved_gbs": 5.55,
        "time_s": {"median": 0.0726, "min": 0.0378, "cv": 0.02, "repeats": 15},
        "interference": {"seconds": 12.0, "cpus": 2, "other_cores": 1.8 if busy else 0.05, "busy": busy}})


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_wrong_number_on_a_disturbed_run_is_not_counted(course: Any, lang: str) -> None:
    exercise = course.exercises[EXERCISE]
    verdict = grade(exercise, Prediction(value=60.0, confidence=0.8), resolve_truth(exercise, _triad(busy=True)))
    assert verdict.verdict == "inconclusive" and verdict.counted is False and verdict.score == 0.0
    assert verdict.truth.inconclusive == ("disturbed",)
    said = [m.render(lang) for m in verdict.feedback]  # type: ignore[arg-type]
    assert said[-1] == t("grade.number.disturbed", lang)
    assert verdict.to_json()["counted"] is False


def test_a_pass_on_a_disturbed_run_counts_and_a_quiet_run_grades_as_before(course: Any) -> None:
    exercise = course.exercises[EXERCISE]
    close = grade(exercise, Prediction(value=5.5), resolve_truth(exercise, _triad(busy=True)))
    assert close.verdict == "correct" and close.counted
    quiet = grade(exercise, Prediction(value=60.0), resolve_truth(exercise, _triad(busy=False)))
    assert quiet.verdict == "wrong" and quiet.counted and quiet.score == 0.0


def test_a_formula_truth_is_not_disturbed_by_the_load(course: Any) -> None:
    """A number the lesson's formula gives (the 4090's ridge) does not depend on the run: the load changes nothing."""
    exercise = next(e for e in course.exercises.values() if e.kind == "number" and e.truth.source != "measurement")
    truth = resolve_truth(exercise, None)
    assert truth.disturbed is False
