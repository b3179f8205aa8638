"""Tests that kill `make mutants` survivors in theory (issue 29 item 8; README, development section): the roof
checks' margins and thresholds at their edges, with the numbers the lessons teach."""

from __future__ import annotations

import pytest

from tutor.theory.roofline import ABOVE_ROOF_FLOOR, bound_check, busy_threshold, noise_margin, ridge_band


def test_the_noise_margin_is_three_standard_errors_never_under_the_floor() -> None:
    assert noise_margin(0.1) == pytest.approx(0.3)  # 3·CV for one sample
    assert noise_margin(0.1, 4) == pytest.approx(0.15)  # 3·CV/√4
    assert noise_margin(0.1, 0) == pytest.approx(0.3)  # no samples counts as one
    assert noise_margin(0.01) == ABOVE_ROOF_FLOOR == 0.05 and noise_margin(-1.0) == 0.05


def test_a_rate_above_its_bound_is_noise_within_the_margin_and_a_surprise_beyond() -> None:
    noise = bound_check(measured=11.0, bound=10.0, cv=0.1)
    assert noise is not None and (noise.code, noise.fraction, noise.cv) == ("noise", pytest.approx(1.1), 0.1)
    assert noise.margin == pytest.approx(0.3)
    edge = bound_check(measured=13.0, bound=10.0, cv=0.1)  # exactly 1 + margin: still noise
    assert edge is not None and edge.code == "noise"
    above = bound_check(measured=20.0, bound=10.0, cv=0.1, samples=4)
    assert above is not None and (above.code, above.fraction) == ("above_bound", pytest.approx(2.0))
    assert above.margin == pytest.approx(0.15)
    assert bound_check(measured=10.0, bound=10.0, cv=0.1) is None  # at the bound is not above it
    assert bound_check(measured=1.0, bound=0.0, cv=0.0) is None  # no bound to be above


def test_a_machine_is_busy_above_half_a_load_per_core_plus_one_and_the_ridge_band_widens_to_two_sigma() -> None:
    assert busy_threshold(4) == 3.0 and busy_threshold(0) == 1.5 and busy_threshold(1) == 1.5
    assert ridge_band(2.0, None) == 2.0 and ridge_band(2.0, 0.0) == 2.0 and ridge_band(2.0, -0.1) == 2.0
    assert ridge_band(2.0, 0.4) == 2.0  # 1 + 2·0.4 = 1.8 is narrower than the exercise's band
    assert ridge_band(2.0, 0.75) == pytest.approx(2.5)  # 1 + 2·0.75
    assert ridge_band(2.0, 3.0) == 3.0  # a CV over 1 counts as 1
