"""A measured truth is graded with the measurement's own spread: truth ± 2σ counts as the measured value.

The C0 walk of bench/c0_walk.py found why: under load, n0-l4-mfu measured an MFU of 1.8 %, then 5.1 %, then 3.0 %
(CV across its steps 10–40 %), so a learner who predicted exactly what the last run had measured was "partly" right;
n0-l4-gap-fixed's fitted intercept came out 0.04 ms, then −0.54 ms (clamped to 0). The grade now says how wide the
measurement itself was and compares the prediction with the nearest value it cannot tell apart from its own.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

import pytest

from tutor.content.loader import load_course
from tutor.content.models import Grading
from tutor.grading import Prediction, grade, resolve_truth
from tutor.grading.kinds import number_score
from tutor.grading.noise import MAX_RELATIVE, band, spread_of, widened
from tutor.grading.verdict import ResolvedTruth
from tutor.paths import bundled_course
from tutor.results import Measurement

DEVICE = {"kind": "cpu", "name": "Test CPU", "fingerprint": "f"}


@pytest.fixture(scope="module")
def course() -> Any:
    return load_course(bundled_course())


def m(kind: str, **figures: Any) -> Measurement:
    return Measurement.from_json({"kind": kind, "device": DEVICE, **figures})


# -- where a figure's spread is recorded ------------------------------------------------------------------------


def test_each_kind_names_the_spread_behind_its_graded_figures() -> None:
    work = m("workload", achieved_gbs=20.0, time_s={"median": 0.1, "cv": 0.08})
    assert spread_of(work, "achieved_gbs").relative == pytest.approx(0.08)  # type: ignore[union-attr]
    decode = m("decode", bandwidth_gbs=7.0, batches={"1": {"fraction_of_bound": 0.8, "cv": 0.03}},
               feeding={"read": {"cv": 0.04}})
    both = spread_of(decode, "batches.1.fraction_of_bound")
    assert both is not None and both.relative == pytest.approx(0.05)  # √(0.03² + 0.04²): a ratio of two
    assert both.paths == ("batches.1.cv", "feeding.read.cv")
    assert spread_of(decode, "bandwidth_gbs").relative == pytest.approx(0.04)  # type: ignore[union-attr]
    gap = m("decode_gap", fit={"fixed_ms": 0.0, "fixed_ms_sd": 1.3})
    fixed = spread_of(gap, "fit.fixed_ms")
    assert fixed is not None and fixed.absolute == 1.3 and fixed.sigma(0.0) == 1.3
    train = m("train_step", mfu=0.03, cv=0.9)
    assert spread_of(train, "mfu").relative == MAX_RELATIVE  # type: ignore[union-attr]


@pytest.mark.parametrize("cv", [None, float("nan"), -0.1, True, "0.1"])
def test_no_spread_without_a_sound_recorded_one(cv: Any) -> None:
    read: dict[str, Any] = {"gbs": 7.0}
    if cv is not None:
        read["cv"] = cv
    decode = m("decode", bandwidth_gbs=7.0, feeding={"read": read})
    assert spread_of(decode, "bandwidth_gbs") is None
    assert spread_of(m("workload", achieved_gbs=1.0, time_s={"median": 0.1, "cv": 0.1}),
                     "arithmetic_intensity") is None  # a figure with no repeats behind it
    assert spread_of(m("echo", x=1.0, cv=0.1), "x") is None  # a kind with no table


def test_a_typed_timing_refuses_a_hostile_cv_at_the_boundary() -> None:
    from tutor.results import ResultError

    for bad in (True, "0.1"):
        with pytest.raises(ResultError, match=r"time_s\.cv"):
            m("workload", achieved_gbs=20.0, time_s={"median": 0.1, "cv": bad})


# -- the score ----------------------------------------------------------------------------------------------------


def test_the_tolerance_widens_to_two_sigma_only_when_the_measurement_is_wider() -> None:
    g = Grading(full=1.25, most=1.6, some=3.0)
    assert widened(g, 10.0, 1.0) is g  # 2σ = 20 % is inside the 25 % tolerance: unchanged
    wide = widened(g, 10.0, 3.5)  # 2σ = 70 %
    assert wide.full == pytest.approx(1.7) and wide.most == pytest.approx(1.6 * 1.7 / 1.25)
    assert wide.some == pytest.approx(3.0 * 1.7 / 1.25)
    assert band(10.0, 1.0, g) == pytest.approx((8.0, 12.5)) and band(10.0, 3.5, g) == pytest.approx((10 / 1.7, 17))
    assert band(0.0, 0.4, g) == (0.0, 0.8)
    assert number_score(17.0, 10.0, g)[0] == 0.4  # 1.7× off on its own
    assert number_score(17.0, 10.0, g, spread=3.5)[0] == 1.0  # inside 10 within 1.7×
    assert number_score(17.0, 10.0, g, spread=3.0)[0] == 0.75  # full 1.6×, most 2.05×
    assert number_score(11.0, 10.0, g, spread=1.0) == number_score(11.0, 10.0, g)  # a quiet run: as before
    assert number_score(17.0, 10.0, g, spread=0.0) == number_score(17.0, 10.0, g)
    assert number_score(0.5, 0.0, g, spread=0.4)[0] == 1.0  # a clamped 0 ± 0.8: 0.5 cannot be told apart
    assert number_score(0.5, 0.0, g)[0] == 0.0


def test_a_noisy_mfu_accepts_what_the_last_run_measured_and_says_why(course: Any) -> None:
    """The walk's figures: pass 1 measured 5.12 %, pass 2 measured 3.01 % with a 36 % CV across its steps."""
    exercise = course.exercises["n0-l4-mfu"]
    noisy = m("train_step", mfu=0.0301, cv=0.364, tokens_per_s=58.8)
    truth = resolve_truth(exercise, noisy)
    assert truth.value == pytest.approx(3.01) and truth.spread == pytest.approx(3.01 * 0.364)
    assert truth.details["spread"]["from"] == ["cv"]
    verdict = grade(exercise, Prediction(value=5.12), truth)
    assert (verdict.verdict, verdict.score) == ("correct", 1.0)
    assert verdict.ratio == pytest.approx(5.12 / 3.01)  # the ratio shown is still the plain one
    es, en = (verdict.feedback_in(lang).replace("\xa0", " ") for lang in ("es", "en"))
    assert "Dentro de lo que esta medida puede distinguir" in es and "±36 %" in es and "de 1,74 % a 5,2 %" in es
    assert "Within what this measurement can tell apart" in en and "from 1.74% to 5.2%" in en
    # the same prediction against a quiet run of the same truth is graded as before, with no sentence
    quiet = resolve_truth(exercise, m("train_step", mfu=0.0301, cv=0.01))
    plain = grade(exercise, Prediction(value=5.12), quiet)
    assert (plain.verdict, plain.score) == ("partly", 0.4) and "σ" not in plain.feedback_in("en")


def test_a_formula_over_a_measured_input_carries_its_spread(course: Any) -> None:
    exercise = course.exercises["n0-l4-gap"]  # bandwidth ÷ bytes per token, both from decode's measurement
    decode = m("decode", bandwidth_gbs=5.5, batches={"1": {"bytes_per_token": 7e8, "cv": 0.2}},
               feeding={"read": {"cv": 0.17}})
    truth = resolve_truth(exercise, decode)
    assert truth.value == pytest.approx(5.5e9 / 7e8)
    assert truth.spread == pytest.approx(truth.value * 0.17)  # the bandwidth's; bytes per token is exact
    assert truth.details["spread"]["from"] == ["feeding.read.cv"]


def test_a_clamped_fixed_cost_is_graded_against_its_spread(course: Any) -> None:
    exercise = course.exercises["n0-l4-gap-fixed"]
    run = m("decode_gap", fit={"fixed_ms": 0.0, "intercept_ms": -0.54, "clamped": True, "fixed_ms_sd": 1.1,
                               "effective_bandwidth_gbs": 8.5, "r2": 0.99})
    truth = resolve_truth(exercise, run)
    assert truth.value == 0.0 and truth.spread == pytest.approx(1.1)
    near = grade(exercise, Prediction(value=0.04), truth)
    assert near.verdict == "correct" and "±1,1 ms" in near.feedback_in("es").replace("\xa0", " ")
    assert grade(exercise, Prediction(value=9.0), truth).verdict == "wrong"


def test_the_spread_is_stored_with_the_truth() -> None:
    truth = ResolvedTruth(source="measured", value=3.0, unit="%", spread=1.1)
    assert ResolvedTruth.from_json(truth.to_json()).spread == 1.1
    assert ResolvedTruth.from_json({**truth.to_json(), "spread": "x"}).spread is None
    assert ResolvedTruth.from_json({"source": "old row", "value": 1.0}).spread is None


# -- the decode-gap fit's spread across rounds ------------------------------------------------------------------


def test_the_fit_spread_is_the_line_fitted_on_each_round() -> None:
    from tutor.measure.decode_gap import fit_line, fit_spread

    xs = [1e8, 2e8, 3e8]
    exact = [[0.002 + x / 5e9 for x in xs] for _ in range(3)]
    still = fit_spread(xs, exact)
    assert still.fixed_ms_sd == pytest.approx(0.0, abs=1e-9)
    assert still.effective_bandwidth_cv is not None and still.effective_bandwidth_cv < 1e-9
    rounds = [[0.002 + x / 5e9 for x in xs], [0.004 + x / 5e9 for x in xs], [0.001 + x / 4e9 for x in xs]]
    moved = fit_spread(xs, rounds)
    fixed = [fit_line(xs, r)[3] * 1e3 for r in rounds]
    assert moved.rounds_fixed_ms == pytest.approx(fixed) and moved.fixed_ms_sd == pytest.approx(
        statistics.stdev(fixed))
    assert moved.effective_bandwidth_cv == pytest.approx(statistics.stdev([5, 5, 4]) / statistics.fmean([5, 5, 4]))
    assert fit_spread(xs, rounds[:1]).fixed_ms_sd is None  # one round: no spread to give
    assert math.isfinite(moved.fixed_ms_sd)


def test_a_spread_inside_the_tolerance_is_only_mentioned(course: Any) -> None:
    exercise = course.exercises["n0-l1-triad-gbs"]  # full marks within 20 %
    run = m("workload", achieved_gbs=20.0, time_s={"median": 0.1, "min": 0.09, "cv": 0.08})
    verdict = grade(exercise, Prediction(value=23.0), resolve_truth(exercise, run))
    assert verdict.verdict == "correct"
    assert verdict.feedback_in("en").endswith("(σ across its own repeats), within this exercise's tolerance.")
    assert "dentro de la tolerancia de este ejercicio" in verdict.feedback_in("es")
    off = grade(exercise, Prediction(value=30.0), resolve_truth(exercise, run))
    assert off.verdict == "partly"  # 2σ = 16 % does not widen a 20 % tolerance
