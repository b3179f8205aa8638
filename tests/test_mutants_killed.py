"""Tests that kill mutants which survived the rest of the suite (issue 29 item 8; `make mutants`, README's
development section lists what survives and why). Each test names the mutation it kills."""

from __future__ import annotations

from tutor.grading.calibration import bucket_of


def test_a_whole_per_cent_reached_by_arithmetic_stays_in_its_bucket() -> None:
    """``round(·, 6)`` before the floor: 0.7 − 0.4 is 0.29999999999999993, 30 % as typed, not 29 %. Without the
    rounding (floor alone) it falls into 20–29. A confidence carried through arithmetic (an export re-read, a mean)
    keeps the bucket its label says."""
    assert 0.7 - 0.4 < 0.3
    assert bucket_of(0.7 - 0.4) == 30
    assert bucket_of(0.3) == 30 and bucket_of(0.29) == 20
