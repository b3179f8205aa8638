"""Tests that kill `make mutants` survivors in grading (issue 29 item 8; README, development section): the number
feedback word for word, with and without the measurement's own spread; a stored truth read back; the noise band."""

from __future__ import annotations

import pytest

from tests.test_grading import NUMBER, measured
from tutor.content.models import Grading
from tutor.grading import Prediction, fill, grade, resolve_truth
from tutor.grading.noise import SIGMAS, Spread, band
from tutor.grading.verdict import ResolvedTruth
from tutor.i18n.message import Message
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


# -- kinds: the tiers' edges, the ratio, the refusals, a bound's sentences, a disturbed run ------------------------


def test_each_tier_includes_its_edge_and_the_ratio_has_no_floor_at_one() -> None:
    from tutor.grading.kinds import number_score, ratio_of

    g = Grading()
    assert number_score(125, 100, g)[0] == 0.75  # exactly 1.25×: still "most"
    assert number_score(2, 1, g) == (0.4, 2.0)  # exactly 2×: still "some"
    assert ratio_of(0.6, 0.5) == pytest.approx(1.2)  # a truth under 1 is a truth like any other
    assert number_score(0.52, 0.5, g, spread=0.01)[0] == 1.0  # and with a spread too
    assert ratio_of(1e-300, 1e300) == float("inf")  # past e^700: ∞ off, never an overflow
    assert number_score(3.0, 0.0, g, spread=0.4)[0] == 0.0  # a measured 0 ± 2σ is 0 to 0.8, not 0 to 5
    assert number_score(-1.0, 0.0, g, spread=0.0)[1] == float("inf")  # no spread: 0 is exactly 0


def test_a_number_or_bound_that_cannot_be_graded_says_why() -> None:
    from tutor.grading.kinds import GradingError, grade_bound, grade_number

    with pytest.raises(GradingError) as caught:
        grade_number(Prediction(choice="memory"), EXACT, Grading())
    assert str(caught.value) == "a number exercise needs a number as the prediction"
    with pytest.raises(GradingError) as caught:
        grade_number(Prediction(value=1.0), ResolvedTruth(source="m"), Grading())
    assert str(caught.value) == "the truth has no value"
    with pytest.raises(GradingError) as caught:
        grade_bound(Prediction(choice="cache"), ResolvedTruth(source="m", choice="memory"))
    assert str(caught.value) == "a bound prediction is 'memory' or 'compute'"
    with pytest.raises(GradingError) as caught:
        grade_bound(Prediction(choice="memory"), ResolvedTruth(source="m", choice=None))
    assert str(caught.value) == "the measurement did not classify the workload"


def _bound(choice: str, truth: ResolvedTruth) -> tuple[str, float, bool, str, str]:
    from tutor.grading.kinds import grade_bound

    v = grade_bound(Prediction(choice=choice), truth)
    return v.verdict, v.score, v.counted, v.feedback_in("en"), v.feedback_in("es")


def test_a_bound_verdict_says_what_was_said_and_what_was_measured() -> None:
    assert _bound("memory", ResolvedTruth(source="m", choice="memory")) == (
        "correct", 1.0, True, "Right: it is memory-bound.", "Correcto: está limitado por memoria.")
    assert _bound("compute", ResolvedTruth(source="m", choice="memory")) == (
        "wrong", 0.0, True, "Not this time: you said compute-bound, the measurement says memory-bound.",
        "Esta vez no: dijiste limitado por cómputo, la medición dice limitado por memoria.")
    near = _bound("memory", ResolvedTruth(source="m", choice="compute", too_close=True))
    assert near == (
        "inconclusive", 0.0, False,
        "Inconclusive on this run (its intensity is too close to your measured ridge, given the ridge's own spread; "
        "it leans compute-bound). Not counted: neither your score, your calibration nor the second pass sees it. "
        "Measure it again when the machine is quiet.",
        "No concluyente en esta ejecución (su intensidad está demasiado cerca de tu cresta medida, dada la "
        "dispersión de la cresta; tiende a limitado por cómputo). No cuenta: ni tu nota, ni tu calibración, ni la "
        "segunda pasada la ven. Vuelve a medirlo con la máquina tranquila.")
    reasons = _bound("compute", ResolvedTruth(source="m", choice="compute",
                                              inconclusive=("roof_provisional", "disturbed")))
    assert reasons[:3] == ("inconclusive", 0.0, False)
    assert reasons[3].startswith("Inconclusive on this run (the roof it was judged against is provisional; other "
                                 "programs took part of the machine while it ran; it leans compute-bound).")


DISTURBED = ResolvedTruth(source="m", value=10.0, unit="GB/s", disturbed=True)


def test_a_disturbed_run_cannot_call_a_number_wrong_but_can_confirm_it() -> None:
    from tutor.grading.kinds import grade_number

    off = grade_number(Prediction(value=100.0), DISTURBED, Grading())
    assert (off.verdict, off.score, off.counted, off.truth.inconclusive) == ("inconclusive", 0.0, False,
                                                                              ("disturbed",))
    assert off.ratio == pytest.approx(10.0) and off.truth.value == 10.0
    assert off.feedback_in("en") == (
        "Off by 10.00× (high): you said 100 GB/s, the truth is 10.0 GB/s. Other programs took part of the machine "
        "while this was measured, and load moves this figure: this run cannot say your answer is wrong. It does not "
        "count; measure again on a quiet machine.")
    assert off.feedback_in("es").endswith(
        "Otros programas ocuparon parte de la máquina mientras se medía, y la carga mueve esta cifra: esta medida no "
        "basta para decir que fallaste. No cuenta; mide de nuevo con la máquina tranquila.")
    close = grade_number(Prediction(value=12.0), DISTURBED, Grading())  # a pass (0.75) still counts
    assert (close.verdict, close.score, close.counted, close.truth.inconclusive) == ("partly", 0.75, True, ())


def test_a_spread_at_a_value_under_one_is_relative_and_none_at_zero_says_nothing() -> None:
    from tutor.grading.kinds import grade_number

    loose = Grading(full=1.2, most=1.3, some=2.0)
    small = grade_number(Prediction(value=0.52), ResolvedTruth(source="m", value=0.5, unit="GB/s", spread=0.03),
                         loose)
    assert small.feedback_in("en") == (
        "Within 20%: you said 0.52 GB/s, the truth is 0.5 GB/s. The measurement itself varied by ±6% (σ across its "
        "own repeats), within this exercise's tolerance.")
    exact_zero = grade_number(Prediction(value=5.0), ResolvedTruth(source="m", value=0.0, unit="GB/s", spread=0.0),
                              Grading())
    assert exact_zero.feedback_in("en") == "Off by ∞ (high): you said 5 GB/s, the truth is 0 GB/s."
    assert exact_zero.ratio is None  # ∞ is shown, not stored as a ratio


# -- calibration and the noise band: smaller survivors -------------------------------------------------------------


def test_a_confidence_over_one_counts_as_one_and_no_attempt_is_an_empty_calibration() -> None:
    from tutor.grading.calibration import Calibration, bucket_of, calibrate

    assert bucket_of(1.5) == 90
    assert calibrate([(1.5, False)]).brier == 1.0  # clamped to 100 %: (1 − 0)²
    empty = calibrate([])
    assert empty == Calibration(0, None, ()) and empty.to_json() == {"n": 0, "brier": None, "buckets": []}


def test_a_recorded_spread_of_zero_is_a_spread_and_an_absolute_one_combines_relative_to_the_value() -> None:
    from tutor.grading.noise import combined, spread_of

    quiet = spread_of(_run(0.0), "achieved_gbs")
    assert quiet is not None and quiet.relative == 0.0 and quiet.paths == ("time_s.cv",)
    absolute = Spread(None, 2.0, ("fit.fixed_ms_sd",))
    alone = combined([absolute], 10.0)
    assert alone is not None and alone.relative == pytest.approx(0.2) and alone.absolute is None
    both = combined([Spread(0.1, None, ("a.cv",)), absolute], 10.0)
    assert both is not None and both.relative == pytest.approx((0.1**2 + 0.2**2) ** 0.5)
    assert both.paths == ("a.cv", "fit.fixed_ms_sd")
    at_zero = combined([absolute], 0.0)
    assert at_zero is not None and at_zero.relative == 0.0  # σ over a value of 0: no relative spread to give
    assert combined([], 10.0) is None
    relative_at_zero = combined([Spread(0.1, None, ("a.cv",))], 0.0)
    assert relative_at_zero is not None and relative_at_zero.relative == pytest.approx(0.1)  # kept as recorded
    assert band(0.5, 0.01, Grading()) == pytest.approx((0.5 / 1.1, 0.55))  # a value under 1 is no edge case


# -- verdict: the stored shapes and the confidence floor -------------------------------------------------------------


def test_a_prediction_and_a_verdict_are_stored_under_their_names_and_read_back() -> None:
    from tutor.grading.verdict import Verdict, confidence_floor

    p = Prediction(choice="fits", value=3.0, confidence=0.7)
    assert p.to_json() == {"choice": "fits", "value": 3.0, "confidence": 0.7}
    assert Prediction.from_json(p.to_json()) == p
    assert Prediction.from_json({"choice": "fits", "value": 3}, confidence=0.9) == Prediction("fits", 3.0, 0.9)
    assert Prediction.from_json({"value": "3"}) == Prediction(None, None, 0.8)  # text is not a stored number
    assert Prediction.from_json("not an object", 0.6) == Prediction(None, None, 0.6)
    assert Prediction.from_json(None) == Prediction(None, None, 0.8)
    truth = ResolvedTruth(source="m", value=10.0, unit="GB/s")
    assert truth.said == Message.verbatim("m") and truth.source_in("es") == "m"
    assert truth.to_json()["said"] == {"code": "text.verbatim", "params": {"text": "m"}}
    coded = ResolvedTruth(said=Message.of("truth.answer_key"))
    assert coded.source == coded.said.render("en") != ""  # the English rendering kept as the source
    verdict = Verdict("partly", 0.75, (Message.of("grade.diagnose.right"),), truth, ratio=1.2)
    assert verdict.to_json() == {"verdict": "partly", "score": 0.75,
                                 "feedback": [{"code": "grade.diagnose.right", "params": {}}],
                                 "truth": truth.to_json(), "ratio": 1.2, "both_count": False, "counted": True}
    assert confidence_floor(3) == 0.33 and confidence_floor(2) == 0.5 and confidence_floor(None) == 0.5
    assert confidence_floor(7) == 0.14



# -- predict: the scale's ends, a fit's size in any unit, the confidence as typed, what a unit was read as ----------


def _refused(call: object) -> tuple[str, str]:
    from tests.test_mutants_killed import _refusal

    return _refusal(call)


def test_a_prediction_out_of_scale_is_refused_with_the_scale_and_both_ends_are_in_it() -> None:
    from tutor.grading.predict import parse_number, parse_quantity

    assert _refused(lambda: parse_quantity("1e31", "GB")) == (
        "'1e31' is out of scale for a prediction (between 1e-30 and 1e30 GB)",
        "'1e31' está fuera de escala para una predicción (entre 1e-30 y 1e30 GB)")
    assert _refused(lambda: parse_quantity("1e-31", None))[0] == (
        "'1e-31' is out of scale for a prediction (between 1e-30 and 1e30)")
    assert parse_quantity("1e-30", "GB").value == 1e-30 and parse_quantity("1.5e-30", "GB").value == 1.5e-30
    assert parse_quantity("1e30", "GB").value == 1e30 and parse_quantity("0", "GB").value == 0.0
    from tutor.grading.predict import MAX_MAGNITUDE

    assert parse_quantity(repr(1 / MAX_MAGNITUDE), "GB").value == 1 / MAX_MAGNITUDE  # the lower end itself
    assert parse_number("1,5") == 1.5
    assert _refused(lambda: parse_number("3 GB"))[0] == "'GB': this number takes no unit"


def test_a_fit_prediction_reads_its_size_in_any_bytes_unit_and_refuses_zero() -> None:
    from tests.test_grading import FIT
    from tutor.grading.predict import choices_of, parse_prediction

    assert parse_prediction(FIT, "does_not_fit 40000 MB") == Prediction("does_not_fit", 40.0, 0.8)
    assert parse_prediction(FIT, "does_not_fit:40 GB", confidence="90") == Prediction("does_not_fit", 40.0, 0.9)
    assert parse_prediction(FIT, "40000 MB") == Prediction("does_not_fit", 40.0, 0.8)  # over 32 GB: does not fit
    assert parse_prediction(FIT, "20") == Prediction("fits", 20.0, 0.8)
    assert parse_prediction(FIT, "32").choice == "fits"  # exactly the capacity fits, as grade_fit says
    assert parse_prediction(FIT, "does_not_fit 0.5").value == 0.5  # under 1 GB is a size
    assert parse_prediction(FIT, "fits", gb="20000 MB") == Prediction("fits", 20.0, 0.8)
    assert parse_prediction(FIT, "fits", gb="") == Prediction("fits", None, 0.8)  # an empty field: no size
    assert _refused(lambda: parse_prediction(FIT, "does_not_fit 0")) == ("0 GB: the size must be positive",
                                                                        "0 GB: el tamaño debe ser positivo")
    assert parse_prediction(NUMBER, "12", confidence="70").confidence == 0.7
    assert choices_of(NUMBER) == ()


def test_a_confidence_is_read_as_typed_and_an_infinite_one_is_refused() -> None:
    from tutor.grading.predict import parse_confidence

    assert parse_confidence("0,8") == 0.8 and parse_confidence("80,5") == 0.805
    assert parse_confidence("80.126") == 0.8013  # four decimals kept
    assert parse_confidence(1) == 1.0 and parse_confidence("1") == 1.0  # a fraction of 1 is 100 %, not 1 %
    assert _refused(lambda: parse_confidence("inf")) == ("confidence must be a finite number (50–100 %)",
                                                         "la confianza debe ser un número finito (50–100 %)")


def test_what_a_converted_unit_was_read_as_and_nothing_when_nothing_was_converted() -> None:
    from tests.test_grading import FIT
    from tutor.grading.predict import unit_read

    read = unit_read(NUMBER, "14000 MB/s")
    assert read is not None and read.code == "predict.read_as"
    assert read.render("en") == "read as 14 GB/s (you wrote 14,000 MB/s)"
    assert read.render("es").startswith("leído como 14 GB/s (escribiste 14")
    assert [unit_read(NUMBER, t) for t in ("14", "14 GB/s", "abc")] == [None, None, None]
    assert unit_read(FIT, "14 MB") is None  # only a number exercise says so


# -- truth: why a truth cannot be resolved, word for word; a formula's details; when a disturbed run is near -------


def _why(call: object) -> str:
    from tutor.grading import TruthError

    with pytest.raises(TruthError) as caught:
        call()  # type: ignore[operator]
    return str(caught.value)


def _formula(formula: str, unit: str, **inputs: object) -> object:
    from tests.test_grading import ex

    return ex(kind="number", unit=unit, truth={"source": "formula", "formula": formula, "inputs": inputs})


def test_a_truth_that_cannot_be_resolved_says_which_figure_or_input_and_why() -> None:
    decode = _formula("decode_bound_tokens_per_s", "tokens/s", bandwidth_gbs="measured:bandwidth_gbs",
                      bytes_per_token=1e9)
    assert _why(lambda: resolve_truth(NUMBER, measured({}))) == "the measurement has no figure 'achieved_gbs'"
    assert _why(lambda: resolve_truth(NUMBER, measured({"achieved_gbs": float("nan")}))) == (
        "the measured achieved_gbs is not a finite number (nan)")
    assert _why(lambda: resolve_truth(decode, measured({"bandwidth_gbs": "x"}))) == (
        "the measured bandwidth_gbs is not a finite number ('x')")
    assert _why(lambda: resolve_truth(decode, None)) == (
        "input bandwidth_gbs needs the measurement (bandwidth_gbs), and nothing was measured")
    assert _why(lambda: resolve_truth(_formula("nope", "GB"), None)) == "unknown formula 'nope'"
    assert _why(lambda: resolve_truth(_formula("weights_bytes", "GB/s", n_params=8e9), None)) == (
        "formula weights_bytes: cannot convert bytes (bytes) to GB/s (bytes/s)")
    assert _why(lambda: resolve_truth(_formula("decode_bound_tokens_per_s", "tokens/s", bandwidth_gbs=-5,
                                               bytes_per_token=1e9), None)) == (
        "decode_bound_tokens_per_s: bandwidth_gbs=-5 is outside [0.001, 1e+06]")


def test_a_formula_truth_keeps_its_inputs_and_takes_a_measured_input_of_another_dimension_as_it_is() -> None:
    from tests.test_grading import DIAG, FIT
    from tutor.grading.truth import literal_truth

    decode = _formula("decode_bound_tokens_per_s", "tokens/s", bandwidth_gbs="measured:bandwidth_gbs",
                      bytes_per_token=1e9)
    truth = resolve_truth(decode, measured({"bandwidth_gbs": 50.0}))
    assert truth.value == 50.0 and truth.details == {
        "formula": "decode_bound_tokens_per_s", "inputs": {"bandwidth_gbs": 50.0, "bytes_per_token": 1e9},
        "measured_inputs": {"bandwidth_gbs": "bandwidth_gbs"}, "result": 50.0, "result_unit": "tokens/s",
        "description": "bandwidth ÷ bytes read per token"}
    odd = _formula("decode_bound_tokens_per_s", "tokens/s", bandwidth_gbs="measured:time_s.median",
                   bytes_per_token=1e9)
    assert resolve_truth(odd, measured({"time_s": {"median": 3.0}})).value == 3.0  # seconds are no GB/s: as is
    assert literal_truth(DIAG) is None and literal_truth(FIT) == 16.0  # a choice has no number to give away


def test_a_disturbed_run_is_near_the_ridge_within_the_band_and_when_either_figure_is_missing() -> None:
    from types import SimpleNamespace

    from tutor.grading.truth import _near

    def near(intensity: float | None, ridge: float | None, band: float = 4.0) -> bool:
        return _near(SimpleNamespace(arithmetic_intensity=intensity, ridge_flops_per_byte=ridge), band)

    assert near(None, 5.0) and near(5.0, None) and near(0.0, 5.0) and near(-1.0, 5.0) and near(5.0, -1.0)
    assert near(10.0, 5.0) and not near(0.5, 5.0)  # 2× is near, 10× is not
    assert not near(20.0, 5.0)  # exactly the band's 4×: far enough to decide


def _bound_run(intensity: float, ridge_cv: float | None = None, **extra: object) -> Measurement:
    from tests.test_grading import ROOF

    roof: dict[str, object] = dict(ROOF)
    if ridge_cv is not None:
        roof["bandwidth"] = {"peak_bandwidth_gbs": 30.0, "cv": ridge_cv}
    roof.update(extra.pop("roof", {}))  # type: ignore[call-overload]
    return measured({"device": {"kind": "cpu", "name": "Test CPU", "fingerprint": "f"},
                     "params": {"dtype": "float32"}, "arithmetic_intensity": intensity, "achieved_gflops": 10.0,
                     "achieved_gbs": 20.0, "roofline": roof, **extra})


def test_a_bound_truth_keeps_the_classification_the_band_and_what_disturbed_it() -> None:
    from tests.test_grading import BOUND

    quiet = resolve_truth(BOUND, _bound_run(0.5))
    assert (quiet.choice, quiet.too_close, quiet.inconclusive) == ("memory", False, ())
    assert quiet.source_in("en") == "measured on Test CPU (cpu): arithmetic intensity against the measured ridge point"
    assert quiet.source_in("es") == "medido en Test CPU (cpu): intensidad aritmética frente al punto de cresta medido"
    assert quiet.details["band_factor"] == pytest.approx(10**0.25)  # the exercise's ±0.25 decades
    assert quiet.details["ridge_flops_per_byte"] == 5.0 and quiet.details["bound"] == "memory"
    assert "ridge_cv" not in quiet.details and "other_cores" not in quiet.details
    busy = resolve_truth(BOUND, _bound_run(2.0, 0.3, roof={"provisional": ["busy"]},
                                           interference={"seconds": 5.0, "cpus": 2, "other_cores": 1.8}))
    assert busy.inconclusive == ("roof_provisional", "disturbed")
    assert (busy.details["ridge_cv"], busy.details["other_cores"], busy.details["cpus"]) == (0.3, 1.8, 2)
    # a ridge measured with an 80 % spread cannot place 2.5× from it: its 2σ band (2.6×) is wider than the exercise's
    wide = resolve_truth(BOUND, _bound_run(2.0, 0.8))
    assert wide.inconclusive == ("near_ridge",) and wide.details["band_factor"] == pytest.approx(2.6)
    assert resolve_truth(BOUND, _bound_run(2.0, 0.6)).inconclusive == ()  # 2.2×: 2.5× away is decided
    rates = resolve_truth(BOUND, measured({"device": {"kind": "cpu", "name": "Test CPU", "fingerprint": "f"},
                                           "params": {"dtype": "float32"}, "arithmetic_intensity": 0.5,
                                           "achieved_gflops": 100.0, "achieved_gbs": 2.0,
                                           "roofline": _bound_run(0.5).roofline.to_json()}))  # type: ignore[union-attr]
    assert (rates.too_close, rates.inconclusive) == (True, ("rates_disagree",))
    assert _why(lambda: resolve_truth(BOUND, None)) == (
        "the measurement did not classify the workload against the roofline")
    assert _why(lambda: resolve_truth(NUMBER, None)) == "nothing was measured"


def test_a_fit_measured_on_the_cpu_is_graded_against_the_formula_with_the_extrapolation_beside_it() -> None:
    from tests.test_grading import ex
    from tutor.grading.truth import measurement_label

    fit = ex(kind="fit", capacity_gb=32, truth={"source": "measurement", "metric": "total_gb"},
             measure={"op": "vram", "params": {"preset": "llama-3-8b", "mode": "inference", "dtype": "bfloat16",
                                               "batch": 1, "seq_len": 8192, "capacity_gb": 32}})
    raw = {"kind": "vram", "device": {"kind": "cpu", "name": "Test CPU", "fingerprint": "f"}, "params": {},
           "label": "measured at small scale, extrapolated", "total_gb": 40.0, "extrapolated_bytes": 4.0e10,
           "formula_total_gb": 36.0, "measured_over_formula": 1.11}
    truth = resolve_truth(fit, Measurement.from_json(raw))
    assert (truth.value, truth.unit) == (36.0, "GB")
    assert truth.details == {"metric": "formula_total_gb", "raw": 36.0, "raw_unit": "GB",
                             "measured_extrapolated_gb": 40.0, "measured_over_formula": 1.11}
    assert truth.source_in("en").startswith("the lesson's formula at full scale (for inference, weights, KV cache")
    assert truth.source_in("es").startswith("la fórmula de la lección a escala completa")
    # measured whole (no extrapolation): the measurement itself is the truth, and its label says how
    whole = resolve_truth(fit, Measurement.from_json({k: v for k, v in raw.items() if k != "extrapolated_bytes"}))
    assert whole.value == 40.0 and whole.details == {"metric": "total_gb", "raw": 40.0, "raw_unit": "GB"}
    assert whole.source_in("en") == "measured on Test CPU (cpu) — measured at small scale, extrapolated"
    assert measurement_label("measured on the GPU").render("es") == "medido en la GPU"
    assert measurement_label("measured at small scale, extrapolated").render("es") == (
        "medido a escala pequeña, extrapolado")
    assert measurement_label("odd").render("es") == "odd"  # a label this tutor did not write, as recorded


# -- units: a figure as the learner reads it, each magnitude and unit, in both languages ----------------------------


@pytest.mark.parametrize(("value", "unit", "en", "es"), [
    (16.1e9, "bytes", "16.1 GB", "16,1 GB"),  # bytes and FLOP scaled by an SI prefix from 1000 on
    (1000, "bytes", "1 kB", "1 kB"),
    (999, "bytes", "999 bytes", "999 bytes"),
    (-2000.0, "bytes", "-2 kB", "-2 kB"),
    (2.5e12, "FLOP/s", "2.5 TFLOP/s", "2,5 TFLOP/s"),
    (3e9, "bytes/s", "3 GB/s", "3 GB/s"),
    (1500, "FLOP", "1.5 kFLOP", "1,5 kFLOP"),
    (float("inf"), "bytes", "∞ bytes", "∞ bytes"),
    (float("inf"), "GB", "∞ GB", "∞ GB"),
    (float("nan"), None, "NaN", "NaN"),
    (1234.5, "GB", "1,234 GB", "1\u202f234 GB"),  # other units: whole from 1000
    (-1234.0, "GB", "-1,234 GB", "-1\u202f234 GB"),
    (0, "GB", "0 GB", "0 GB"),
    (150.4, "GB/s", "150 GB/s", "150 GB/s"),  # no decimal from 100
    (100, "GB", "100 GB", "100 GB"),
    (15.04, "ms", "15.0 ms", "15,0 ms"),  # one from 10
    (10, "GB", "10.0 GB", "10,0 GB"),
    (1.234, "s", "1.23 s", "1,23 s"),  # three significant digits from 0.01
    (0.01, "x", "0.01×", "0,01×"),
    (0.005, "%", "5.00E-3%", "5,00E-3\u00a0%"),  # scientific below
    (0.17, "fraction", "0.17", "0,17"),
    (0.17, None, "0.17", "0,17"),
    (2.5, "x", "2.5×", "2,5×"),
    (45.0, "%", "45.0%", "45,0\u00a0%"),
])
def test_a_figure_is_written_for_its_size_and_unit(value: float, unit: str | None, en: str, es: str) -> None:
    from tutor.grading.units import format_value

    assert (format_value(value, unit, "en"), format_value(value, unit, "es")) == (en, es)
    assert format_value(value, unit) == en  # English unless asked


def test_a_metric_named_by_its_quantity_alone_has_that_unit() -> None:
    from tutor.grading.units import unit_of_metric

    assert [unit_of_metric(p) for p in ("bytes", "flops", "bytes_moved", "tokens", "time_s.cv", "batches.1.bytes")] \
        == ["bytes", "FLOP", "bytes", None, "fraction", "bytes"]
    # a fraction by name whatever its suffix says (a utilisation in per cent is still read as a fraction)
    assert [unit_of_metric(p) for p in ("utilization_pct", "mfu_pct", "fraction_pct")] == ["fraction"] * 3


def test_a_measured_number_knows_whether_other_programs_disturbed_its_run() -> None:
    def truth(other_cores: float | None) -> ResolvedTruth:
        row: dict[str, object] = {"achieved_gbs": 5.55}
        if other_cores is not None:
            row["interference"] = {"seconds": 5.0, "cpus": 2, "other_cores": other_cores}
        return resolve_truth(NUMBER, measured(row))

    assert truth(1.8).disturbed is True and truth(0.05).disturbed is False and truth(None).disturbed is False
    assert truth(None).source_in("en") == "measured on this machine"  # no device named
    assert truth(None).source_in("es") == "medido en esta máquina"


def test_a_sweep_points_figure_has_its_unit_and_an_unknown_unit_is_named() -> None:
    from tutor.grading.units import UnitError, convert, format_value, unit_of_metric

    assert unit_of_metric("points.3.gbs") == "GB/s" and unit_of_metric("points.3.gflops") == "GFLOP/s"
    assert format_value(0.17, "") == "0.17"  # no unit: no trailing space
    for args in (("furlong", "GB"), ("GB", "furlong")):
        with pytest.raises(UnitError) as caught:
            convert(1.0, *args)
        assert str(caught.value) == "unknown unit 'furlong'"
    with pytest.raises(UnitError) as caught:
        convert(1.0, "GB", "s")
    assert str(caught.value) == "cannot convert GB (bytes) to s (s)"


# -- said: a stored message read back with odd parameters still renders, and each kind keeps its code -------------


def test_a_figure_ratio_or_number_read_back_with_a_bad_value_says_nan_and_a_pack_text_falls_back() -> None:
    from tutor.grading.said import FigureSaid, JoinedSaid, NumberSaid, PackSaid, RatioSaid

    assert FigureSaid("grade.said.figure", (("value", "x"), ("unit", "GB"))).render("en") == "NaN GB"
    assert FigureSaid.of_value(0.17, None).render("en") == "0.17"
    assert RatioSaid("grade.said.ratio", (("ratio", "x"), ("as", "over"))).render("en") == "NaN"
    assert NumberSaid("grade.said.number", (("value", "x"), ("places", 2), ("suffix", ""))).render("en") == "NaN"
    assert NumberSaid("grade.said.number", (("value", 1.25), ("places", "x"), ("suffix", " %"))).render("es") == "1 %"
    number = NumberSaid.decimal(0.85, 2)
    assert number.code == "grade.said.number" and number.render("es") == "0,85"
    joined = JoinedSaid("grade.said.joined", (("0", "plain"), ("1", Message.of("grade.diagnose.right"))))
    assert joined.render("es") == "plain; Causa correcta."
    assert JoinedSaid.of_messages([Message.of("grade.diagnose.right")]).code == "grade.said.joined"
    assert PackSaid.of_texts({"es": "uno"}).render("en") == "uno"  # only Spanish given: Spanish
    assert PackSaid.of_texts({"es": "uno", "en": "one"}).render("fr") == "one"  # an unknown language: English
    assert PackSaid.of_texts({}).render("en") == ""


# -- explain: a pack's placeholders over text, booleans and missing figures; flatten's keys and depth --------------


def test_a_placeholder_over_text_a_boolean_or_nothing_is_formatted_safely() -> None:
    from tutor.grading.explain import _format_raw, fill

    values = {"s": "ab", "n": None, "b": True}
    assert [fill(t, values) for t in ("{s:>6}", "{s:.1f}", "{s}", "{n}", "{n:>4}", "{b:>6}", "{b}")] == [
        "    ab", "a", "ab", "—", "—", "True", "True"]
    assert [fill(t, values) for t in ("{s:zz}", "{s:>99}", "{s:.50f}")] == ["—", "—", "—"]  # refused specs
    assert _format_raw(2.5, ">8.2f") == "    2.50" and _format_raw(float("inf"), ".2f") == "inf"
    assert _format_raw(2.6, "d") == "3" and _format_raw(2.5, None) == "2.5" and _format_raw(7, None) == "7"
    assert _format_raw(True, ">3") == "True" and _format_raw(2.5, ">99") == "—" and _format_raw(2.5, ".50f") == "—"
    assert _format_raw(None, ".2f") == "—" and _format_raw("ab", "zz") == "—"


def test_flatten_names_every_scalar_by_its_dotted_path_and_stops_at_depth_eight() -> None:
    from tutor.grading.explain import flatten

    data = {"a": {"b": {"c": 1}}, "l": [1], "x": None, "s": "t", "f": 2.5, "t": True}
    assert flatten(data) == {"a.b.c": 1, "x": None, "s": "t", "f": 2.5, "t": True}  # lists skipped
    assert flatten(data, "p.") == {"p.a.b.c": 1, "p.x": None, "p.s": "t", "p.f": 2.5, "p.t": True}

    def nested(levels: int) -> dict[str, object]:
        inner: dict[str, object] = {"v": 1}
        for _ in range(levels):
            inner = {"k": inner}
        return inner

    assert flatten(nested(8)) == {"k." * 8 + "v": 1}
    assert flatten(nested(9)) == {}


@pytest.mark.parametrize(("template", "en", "es"), [
    ("{x}", "3.071", "3,071"), ("{i}", "1234", "1234"), ("{x:.2f}", "3.07", "3,07"),
    ("{x:+.1f}", "+3.1", "+3,1"), ("{neg:+.1f}", "-2.5", "-2,5"), ("{z:+.1f}", "+0.0", "+0,0"),
    ("{x: .1f}", " 3.1", " 3,1"), ("{neg: .1f}", "-2.5", "-2,5"),
    ("{x:>8.2f}", "    3.07", "    3,07"), ("{x:8.2f}", "    3.07", "    3,07"),
    ("{x:<8.2f}|", "3.07    |", "3,07    |"),
    ("{x:^9.2f}", "  3.07   ", "  3,07   "), ("{x:*^9.2f}", "**3.07***", "**3,07***"),
    ("{x:_>8.1f}", "_____3.1", "_____3,1"), ("{i:,d}", "1,234", "1\u202f234"), ("{x:.1%}", "307.1%", "307,1\u00a0%"),
    ("{x:>12,.1f}", "         3.1", "         3,1"),
    ("{i:>41}", "—", "—"), ("{x:.13f}", "—", "—"), ("{inf:.2f}", "inf", "inf"),  # refused, or not finite
])
def test_a_number_placeholder_takes_its_sign_width_fill_and_alignment_in_the_readers_language(
        template: str, en: str, es: str) -> None:
    values = {"x": 3.0712, "i": 1234, "neg": -2.5, "z": 0.0, "inf": float("inf")}
    assert (fill(template, values, "en"), fill(template, values, "es")) == (en, es)


def test_a_joined_message_keeps_every_part_through_the_store() -> None:
    from tutor.grading.said import JoinedSaid, feedback_from_json, feedback_to_json

    joined = JoinedSaid.of_messages([Message.of("grade.bound.why.near_ridge"), Message.of("grade.bound.why.disturbed")])
    (back,) = feedback_from_json(feedback_to_json([joined]))
    assert back.render("en") == joined.render("en") and back.render("en").count("; ") == 1


def test_a_spec_at_the_widest_width_and_precision_is_allowed_and_a_condition_is_strict() -> None:
    from tutor.grading.explain import condition_holds

    values = {"x": 3.0712, "z": 0.0, "s": "ab"}
    assert fill("{x:>40.2f}", values) == " " * 36 + "3.07" and fill("{x:.12f}", values) == "3.071200000000"
    assert fill("{s:>40}", values) == " " * 38 + "ab" and fill("{s:.12}", values) == "ab"
    assert fill("{z: .1f}", values) == " 0.0" and fill("{x:>.2f}", values) == "3.07"

    def holds(above: float | None, below: float | None) -> bool:
        return condition_holds(bound=None, metric="m", above=above, below=below, values={"m": 2.0}, side=None,
                               too_close=False)

    assert not holds(2.0, None) and not holds(None, 2.0)  # at the threshold is neither above nor below it
    assert holds(1.9, None) and holds(None, 2.1)
