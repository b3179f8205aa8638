"""Calibration of the learner's stored predictions (a graded attempt is "right" when it scores a pass)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tutor.grading.calibration import Calibration, calibrate
from tutor.progress.passes import PASS_SCORE


def calibration_of(attempts: Iterable[Mapping[str, Any]]) -> Calibration:
    """Brier score and per-confidence hit rates over every graded attempt."""
    return calibrate(
        (float(a["confidence"]), float(a["score"]) >= PASS_SCORE)
        for a in attempts
        if a.get("state") == "graded" and a.get("score") is not None and a.get("confidence") is not None
    )
