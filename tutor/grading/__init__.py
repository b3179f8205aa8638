"""Grading: (exercise, prediction, measurement) → verdict, score and feedback. Pure functions; no textual, no torch.

- :mod:`.predict` reads a typed prediction; :mod:`.truth` resolves the truth from a measurement or a formula;
  :mod:`.kinds` grades each kind; :mod:`.explain` fills the explanation safely; :mod:`.calibration` scores the
  learner's confidence; :mod:`.units` converts between GB and bytes, TFLOP/s and FLOP/s, …
"""

from tutor.grading.calibration import Calibration, calibrate
from tutor.grading.explain import fill, flatten
from tutor.grading.kinds import GradingError, grade
from tutor.grading.predict import PredictionError, choices_of, parse_confidence, parse_prediction
from tutor.grading.truth import TruthError, resolve_truth
from tutor.grading.verdict import Prediction, ResolvedTruth, Verdict

__all__ = [
    "Calibration",
    "GradingError",
    "Prediction",
    "PredictionError",
    "ResolvedTruth",
    "TruthError",
    "Verdict",
    "calibrate",
    "choices_of",
    "fill",
    "flatten",
    "grade",
    "parse_confidence",
    "parse_prediction",
    "resolve_truth",
]
