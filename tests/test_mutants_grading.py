"""Tests that kill `make mutants` survivors in grading (issue 29 item 8; README, development section): the number
feedback word for word, with and without the measurement's own spread; a stored truth read back; the noise band."""

from __future__ import annotations

import pytest

from tests.test_grading import NUMBER, measured
from tutor.content.models import Grading
from tutor.grading import Prediction, grade, resolve_truth
from tutor.grading.noise import SIGMAS, Spread, band
from tutor.grading.verdict import ResolvedTruth
from tutor.results import Measurement


def _run(cv: float) -> Measurement:
    return measured({"achieved_gbs": 10.0, "time_s": {"median": 0.1, "cv": cv},
                     "device": {"kind": "cpu", "name": "Test CPU"}})


def _said(value: float, truth: ResolvedTruth) -> tuple[str, str, float, str]:
    v = grade(NUMBER, Prediction(value=value), truth)
    return v.feedback_in("en"), v.feedback_in("es"), v.score, v.verdict


EXACT = ResolvedTruth(source="m", value=10.0, unit="GB/s")


def test_each_number_tier_says_how_far_and_which_way_in_both_languages() -> None:
    assert _said(10.5, EXACT) == ("Within 10%: you said 10.5 GB/s, the truth is 10.0 GB/s.",
                                  "Dentro del 10\u00a0%: dijiste 10,5 GB/s, la verdad es 10,0 GB/s.", 1.0, "correct")
    assert _said(12.0, EXACT) == ("Close but high by 20%: you said 12.0 GB/s, the truth is 10.0 GB/s.",
                                  "Cerca, pero alta por 20\u00a0%: dijiste 12,0 GB/s, la verdad es 10,0 GB/s.", 0.75,
                                  "partly")
    assert _said(7.0, EXACT) == (
        "Far: low by 43%, though inside the widest band this exercise still credits (up to 2.00×): you said 7 GB/s, "
        "the truth is 10.0 GB/s.",
        "Lejos: baja por 43\u00a0%, aunque dentro del margen más ancho que este ejercicio aún puntúa (hasta 2,00×): "
        "dijiste 7 GB/s, la verdad es 10,0 GB/s.", 0.4, "partly")
    assert _said(100.0, EXACT) == ("Off by 10.00× (high): you said 100 GB/s, the truth is 10.0 GB/s.",
                                   "Te alejaste 10,00× (demasiado alta): dijiste 100 GB/s, la verdad es 10,0 GB/s.",
                                   0.0, "wrong")
    assert _said(1.0, EXACT)[0].startswith("Off by 10.00× (low)")
    verdict = grade(NUMBER, Prediction(value=100.0), EXACT)
    assert verdict.ratio == pytest.approx(10.0) and verdict.truth is EXACT and verdict.counted


WIDE_EN = ("The measurement itself varied by ±30% (σ across its own repeats), more than this exercise's tolerance: "
           "anything from 6.25 GB/s to 16.0 GB/s (truth ± 2σ) counts as the measured value. A quieter machine gives a "
           "narrower range.")
WIDE_ES = ("La propia medida varió ±30\u00a0% (σ entre sus repeticiones), más que la tolerancia de este ejercicio: "
           "todo lo que va de 6,25 GB/s a 16,0 GB/s (verdad ± 2σ) cuenta como el valor medido. Una máquina más "
           "tranquila da un intervalo más estrecho.")


def test_a_spread_wider_than_the_tolerance_widens_the_band_and_says_it() -> None:
    truth = resolve_truth(NUMBER, _run(0.3))
    assert (truth.value, truth.spread) == (10.0, pytest.approx(3.0))
    assert truth.details == {"metric": "achieved_gbs", "raw": 10.0, "raw_unit": "GB/s",
                             "spread": {"sigma": pytest.approx(3.0), "relative": 0.3, "from": ["time_s.cv"],
                                        "sigmas": SIGMAS}}
    assert _said(10.0, truth) == ("Within 10%: you said 10.0 GB/s, the truth is 10.0 GB/s. " + WIDE_EN,
                                  "Dentro del 10\u00a0%: dijiste 10,0 GB/s, la verdad es 10,0 GB/s. " + WIDE_ES, 1.0,
                                  "correct")
    # 1.5× off: outside the 10 % tolerance, inside truth ± 2σ, so full marks, and the sentence says why
    assert _said(15.0, truth) == (
        "Within what this measurement can tell apart: you said 15.0 GB/s, the truth is 10.0 GB/s. " + WIDE_EN,
        "Dentro de lo que esta medida puede distinguir: dijiste 15,0 GB/s, la verdad es 10,0 GB/s. " + WIDE_ES,
        1.0, "correct")
    assert _said(30.0, truth)[2:] == (0.0, "wrong")  # 3× is past even the widened widest band (2.91×)


def test_a_spread_is_mentioned_from_five_per_cent_and_widens_past_the_tolerance() -> None:
    assert _said(10.5, resolve_truth(NUMBER, _run(0.049)))[0] == (
        "Within 10%: you said 10.5 GB/s, the truth is 10.0 GB/s.")  # under 5 %: not worth a sentence
    assert _said(10.5, resolve_truth(NUMBER, _run(0.05))) == (
        "Within 10%: you said 10.5 GB/s, the truth is 10.0 GB/s. The measurement itself varied by ±5% (σ across its "
        "own repeats), within this exercise's tolerance.",
        "Dentro del 10\u00a0%: dijiste 10,5 GB/s, la verdad es 10,0 GB/s. La propia medida varió ±5\u00a0% (σ entre "
        "sus repeticiones), dentro de la tolerancia de este ejercicio.", 1.0, "correct")
    assert _said(10.5, resolve_truth(NUMBER, _run(0.06)))[0].endswith(
        "anything from 8.93 GB/s to 11.2 GB/s (truth ± 2σ) counts as the measured value. A quieter machine gives a "
        "narrower range.")


def test_a_measured_zero_with_a_spread_is_graded_against_two_sigma() -> None:
    zero = ResolvedTruth(source="m", value=0.0, unit="GB/s", spread=0.4)
    assert _said(0.5, zero) == (
        "Within what this measurement can tell apart: you said 0.5 GB/s, the truth is 0 GB/s. The measurement itself "
        "varied by ±0.4 GB/s (σ across its own repeats), more than this exercise's tolerance: anything from 0 GB/s "
        "to 0.8 GB/s (truth ± 2σ) counts as the measured value. A quieter machine gives a narrower range.",
        "Dentro de lo que esta medida puede distinguir: dijiste 0,5 GB/s, la verdad es 0 GB/s. La propia medida varió "
        "±0,4 GB/s (σ entre sus repeticiones), más que la tolerancia de este ejercicio: todo lo que va de 0 GB/s a "
        "0,8 GB/s (verdad ± 2σ) cuenta como el valor medido. Una máquina más tranquila da un intervalo más estrecho.",
        1.0, "correct")


def test_a_stored_truth_reads_back_its_reasons_and_its_spread() -> None:
    read = ResolvedTruth.from_json({"inconclusive": ["near_ridge", 3], "spread": 0})
    assert read.inconclusive == ("near_ridge", "3") and read.spread == 0.0 and isinstance(read.spread, float)
    assert ResolvedTruth.from_json({"inconclusive": "near_ridge"}).inconclusive == ()  # one string is no list
    assert ResolvedTruth.from_json({"inconclusive": ("disturbed",)}).inconclusive == ("disturbed",)
    assert ResolvedTruth.from_json({"spread": True}).spread is None
    assert ResolvedTruth.from_json({"spread": -0.1}).spread is None
    truth = ResolvedTruth(source="m", value=2.0, unit="GB", choice="memory", too_close=True, details={"a": 1},
                          spread=0.5, inconclusive=("near_ridge",))
    assert ResolvedTruth.from_json(truth.to_json()) == truth


def test_a_spread_in_the_figures_unit_or_relative_to_it() -> None:
    assert Spread(None, 0.7, ()).sigma(100.0) == 0.7  # absolute: the value does not scale it
    assert Spread(0.1, 0.7, ()).sigma(100.0) == 0.7
    assert Spread(0.1, None, ()).sigma(-20.0) == pytest.approx(2.0)  # relative to the size, never negative
    assert Spread(None, None, ()).sigma(20.0) == 0.0
    g = Grading()
    assert band(10.0, 0.1, g) == pytest.approx((10 / 1.1, 11.0))  # a quiet run: the full-marks band
    assert band(-1.0, 0.5, g) == (0.0, 1.0)
