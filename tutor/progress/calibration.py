"""Calibration of the learner's stored predictions (a graded attempt is "right" when it scores a pass)."""

from __future__ import annotations

from collections.abc import Iterable

from tutor.grading.calibration import Calibration, calibrate
from tutor.progress.rows import Attempt


def calibration_of(attempts: Iterable[Attempt]) -> Calibration:
    """Brier score and per-confidence hit rates over every graded attempt (right when it passed)."""
    return calibrate((a.confidence, a.passed) for a in attempts if a.graded)
