"""A number's feedback says what the ratio says (issue 30 item 5): "close" only in the band that still passes, never
beside a 3.42× miss that an exercise's wide band credits a little."""

from __future__ import annotations

from tutor.content.models import Grading
from tutor.grading.kinds import grade_number
from tutor.grading.verdict import Prediction, ResolvedTruth

TRUTH = ResolvedTruth(source="measured", value=10.0, unit="GB/s")
WIDE = Grading(full=1.1, most=1.25, some=4.0)


def test_a_miss_by_3_42x_is_not_called_close() -> None:
    v = grade_number(Prediction(value=34.2), TRUTH, WIDE)
    assert v.score is not None and 0 < v.score < 0.75  # partial credit from the wide band
    es, en = v.feedback_in("es"), v.feedback_in("en")
    assert "Cerca" not in es and "Close" not in en
    assert es.startswith("Lejos") and "3,42×" in es and "hasta 4,00×" in es
    assert en.startswith("Far") and "3.42" in en


def test_inside_the_passing_band_it_is_close() -> None:
    v = grade_number(Prediction(value=12.0), TRUTH, WIDE)
    assert v.score == 0.75
    assert v.feedback_in("es").startswith("Cerca") and v.feedback_in("en").startswith("Close")
