"""The triad's explanation follows its measured fraction of the copy roof (issue 30 item 5): "a little below copy"
only when it is (75–98 %), "far below" with what to check at 16 %, "matched copy" at or above it."""

from __future__ import annotations

import pytest

from tutor.content.loader import load_course
from tutor.grading.verdict import ResolvedTruth, Verdict
from tutor.paths import bundled_course
from tutor.practice.runner import explanation_for

VERDICT = Verdict(verdict="correct", score=1.0, feedback=(), truth=ResolvedTruth(source="measured", value=40.0,
                                                                                   unit="GB/s"))


def _values(fraction: float) -> dict[str, object]:
    return {"truth": 40.0 * fraction, "best_gbs": 42.0 * fraction, "time_s.cv": 0.02,
            "roofline.peak_bandwidth_gbs": 40.0, "classification.fraction_of_bandwidth_roof": fraction,
            "achieved_gbs": 40.0 * fraction}


@pytest.mark.parametrize(("fraction", "es", "en"), [
    (0.16, "muy por debajo del copy (16\u00a0%", "far below copy (16%"),
    (0.90, "algo por debajo del copy", "a little below copy"),
    (1.02, "a la par del copy", "matched copy"),
])
def test_the_triad_says_how_far_below_copy_it_measured(fraction: float, es: str, en: str) -> None:
    triad = load_course(bundled_course()).exercises["n0-l1-triad-gbs"]
    text = explanation_for(triad, _values(fraction), VERDICT)
    assert es in text["es"] and en in text["en"], text
    others = {"algo por debajo", "muy por debajo", "a la par"} - {next(w for w in ("algo por debajo", "muy por debajo",
                                                                             "a la par") if w in es)}
    assert not any(word in text["es"] for word in others), text["es"]
