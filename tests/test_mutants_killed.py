"""Tests that kill mutants which survived the rest of the suite (issue 29 item 8; `make mutants`, README's
development section lists what survives and why). Each test names the mutation it kills."""

from __future__ import annotations

import pytest

from tutor.grading.calibration import bucket_of


def test_a_whole_per_cent_reached_by_arithmetic_stays_in_its_bucket() -> None:
    """``round(·, 6)`` before the floor: 0.7 − 0.4 is 0.29999999999999993, 30 % as typed, not 29 %. Without the
    rounding (floor alone) it falls into 20–29. A confidence carried through arithmetic (an export re-read, a mean)
    keeps the bucket its label says."""
    assert 0.7 - 0.4 < 0.3
    assert bucket_of(0.7 - 0.4) == 30
    assert bucket_of(0.3) == 30 and bucket_of(0.29) == 20


# -- grade_fit: `make mutants` left 59 of its mutants alive (the feedback, the sized score, the ratio, the errors) --


def _fit(choice: str, value: float | None = None, size: float = 40.0) -> object:
    from tests.test_grading import FIT
    from tutor.grading.kinds import grade_fit
    from tutor.grading.verdict import Prediction, ResolvedTruth

    return grade_fit(Prediction(choice=choice, value=value), ResolvedTruth(source="formula", value=size, unit="GB"),
                     32.0, FIT.grading)


def test_a_fit_verdict_says_the_size_the_capacity_and_the_answer_in_both_languages() -> None:
    wrong, right = _fit("fits"), _fit("does_not_fit")
    assert wrong.feedback_in("en") == "Not this time: it takes 40.0 GB, so it does not fit in 32.0 GB."
    assert wrong.feedback_in("es") == "Esta vez no: ocupa 40,0 GB, así que no cabe en 32,0 GB."
    assert right.feedback_in("en") == "Right: it takes 40.0 GB, so it does not fit in 32.0 GB."
    assert right.feedback_in("es") == "Correcto: ocupa 40,0 GB, así que no cabe en 32,0 GB."
    assert (wrong.verdict, wrong.score, wrong.ratio) == ("wrong", 0.0, None)
    assert (right.verdict, right.score, right.ratio) == ("correct", 1.0, None)
    assert right.truth.value == 40.0 and right.truth.unit == "GB"
    sized = _fit("does_not_fit", 50.0)
    assert sized.feedback_in("en").endswith("so it does not fit in 32.0 GB. Your size: 50.0 GB.")
    assert sized.feedback_in("es").endswith("así que no cabe en 32,0 GB. Tu tamaño: 50,0 GB.")


def test_a_sized_fit_prediction_weighs_the_choice_and_the_size() -> None:
    from tests.test_grading import FIT
    from tutor.grading.kinds import FIT_CHOICE_WEIGHT, number_score

    for choice, value in (("does_not_fit", 50.0), ("does_not_fit", 70.0), ("fits", 40.0), ("fits", 70.0)):
        size_score, ratio = number_score(value, 40.0, FIT.grading)
        verdict = _fit(choice, value)
        chose = 1.0 if choice == "does_not_fit" else 0.0
        assert verdict.score == round(FIT_CHOICE_WEIGHT * chose + (1 - FIT_CHOICE_WEIGHT) * size_score, 6)
        assert verdict.ratio == pytest.approx(ratio) and verdict.ratio == pytest.approx(value / 40.0)
    assert _fit("fits", 40.0).score == pytest.approx(1 - FIT_CHOICE_WEIGHT)  # the size exactly, the choice wrong
    assert _fit("does_not_fit", 0.0).ratio is None  # 0 GB said: no finite ratio to show
    assert _fit("does_not_fit", 0.0).score == pytest.approx(FIT_CHOICE_WEIGHT)


def test_a_fit_prediction_that_is_not_one_is_refused_with_why() -> None:
    from tests.test_grading import FIT
    from tutor.grading.kinds import GradingError, grade_fit
    from tutor.grading.verdict import Prediction, ResolvedTruth

    with pytest.raises(GradingError) as caught:
        _fit("maybe")
    assert str(caught.value) == "a fit prediction is 'fits' or 'does_not_fit' (optionally with the GB it takes)"
    with pytest.raises(GradingError) as caught:
        grade_fit(Prediction(choice="fits"), ResolvedTruth(source="formula", value=None, unit="GB"), 32.0,
                  FIT.grading)
    assert str(caught.value) == "the truth has no size"


# -- grade_diagnose: its sentences, the cause in the learner's language, the refusal -------------------------------


def test_a_diagnose_verdict_names_the_real_cause_in_the_learners_language() -> None:
    from tests.test_grading import ex
    from tutor.grading.kinds import GradingError, grade_diagnose
    from tutor.grading.verdict import Prediction, ResolvedTruth

    exercise = ex(kind="diagnose", answer="cpu-wheel", choices=[
        {"id": "cpu-wheel", "label": {"es": "la rueda +cpu de torch", "en": "torch's +cpu wheel"}},
        {"id": "old-driver", "label": {"es": "un driver antiguo", "en": "an old driver"}}])
    truth = ResolvedTruth(source="fixed", choice="cpu-wheel")
    right = grade_diagnose(Prediction(choice="cpu-wheel"), truth, exercise)
    assert (right.verdict, right.score, right.truth) == ("correct", 1.0, truth)
    assert (right.feedback_in("en"), right.feedback_in("es")) == ("Right cause.", "Causa correcta.")
    wrong = grade_diagnose(Prediction(choice="old-driver"), truth, exercise)
    assert (wrong.verdict, wrong.score, wrong.truth) == ("wrong", 0.0, truth)
    assert wrong.feedback_in("en") == "Not this one: the cause is “torch's +cpu wheel”."
    assert wrong.feedback_in("es") == "No es esa: la causa es «la rueda +cpu de torch»."
    unknown = grade_diagnose(Prediction(choice="old-driver"), ResolvedTruth(source="fixed", choice="gone"), exercise)
    assert unknown.feedback_in("en") == "Not this one: the cause is “gone”."  # no label: its id, not nothing
    with pytest.raises(GradingError) as caught:
        grade_diagnose(Prediction(choice="zzz"), truth, exercise)
    assert str(caught.value) == "pick one of: cpu-wheel, old-driver"


# -- calibration's JSON, units, the noise band: smaller survivors of `make mutants` ---------------------------------


def test_the_calibration_json_carries_each_bucket_and_its_sentence_in_both_languages() -> None:
    from tutor.grading.calibration import calibrate

    cal = calibrate([(0.86, True), (0.84, False), (0.95, True)])
    assert cal.to_json() == {"n": 3, "brier": 0.242567, "buckets": [
        {"confidence_pct": 80, "low_pct": 80, "high_pct": 89, "total": 2, "right": 1, "hit_rate": 0.5,
         "sentence_en": "of your 80–89 % guesses, 1 of 2 were right",
         "sentence_es": "de tus predicciones con una confianza del 80 al 89 %, acertaste 1 de 2"},
        {"confidence_pct": 90, "low_pct": 90, "high_pct": 100, "total": 1, "right": 1, "hit_rate": 1.0,
         "sentence_en": "of your 90–100 % guesses, 1 of 1 were right",
         "sentence_es": "de tus predicciones con una confianza del 90 al 100 %, acertaste 1 de 1"}]}
    assert cal.buckets[0].sentence() == "of your 80–89 % guesses, 1 of 2 were right"  # English unless asked


def test_units_of_a_dimension_and_what_a_learner_may_type() -> None:
    from tutor.grading.units import typed_unit, units_like

    assert units_like("GB") == ["GB", "bytes", "B", "KB", "KiB", "MB", "MiB", "GiB", "TB"]  # by size, itself first
    assert units_like("furlong") == []
    assert "GB" not in units_like("GB/s") and units_like("GB/s")[0] == "GB/s"
    assert [typed_unit(t, "GB") for t in ("GB", " GiB ", "gb", "mb", "Mb", "byte", "furlongs", "GB/s")] == [
        "GB", "GiB", "GB", "MB", "MB", "bytes", None, None]
    assert typed_unit("µs", "s") == "us" and typed_unit("μs", "s") == "us" and typed_unit("×", "x") == "x"
    assert typed_unit("Tok/S", "tokens/s") == "tokens/s"  # an alias whatever its case
    assert typed_unit("ms", "GB") is None  # never across dimensions


def test_the_band_widens_only_for_a_spread_wider_than_full_marks() -> None:
    from tests.test_grading import NUMBER
    from tutor.grading import noise

    g = NUMBER.grading
    assert noise.widened(g, 0.0, 1.0) is g and noise.widened(g, 1.0, 0.0) is g and noise.widened(g, -1.0, 1.0) is g
    at_edge = (g.full - 1) / noise.SIGMAS  # 1 + 2σ/value exactly the full-marks band: unchanged
    assert noise.widened(g, 1.0, at_edge) is g
    wide = noise.widened(g, 0.5, 0.5)  # σ/value = 1: full 1 + 2 = 3
    assert wide.full == pytest.approx(1 + noise.SIGMAS) and wide.most == pytest.approx(g.most * wide.full / g.full)
    assert noise.widened(g, 2.0, 2.0).full == pytest.approx(1 + noise.SIGMAS)  # a value above 1 is no edge case


# -- reading a predicted number: parse_quantity and the range check (survivors of `make mutants`) ---------------


def _refusal(call: object) -> tuple[str, str]:
    from tutor.grading.predict import PredictionError

    with pytest.raises(PredictionError) as caught:
        call()  # type: ignore[operator]
    return caught.value.describe("en"), caught.value.describe("es")


def test_a_typed_quantity_is_read_as_a_person_writes_it() -> None:
    from tutor.grading.predict import Quantity, parse_quantity

    assert parse_quantity("1_000", "GB").value == 1000.0  # digit groups with _
    assert parse_quantity("2,5", "GB").value == 2.5  # a decimal comma
    assert parse_quantity("1.5e3", "GB").value == 1500.0
    assert parse_quantity("14000 MB", "GB") == Quantity(value=14.0, unit="GB", typed=14000.0, typed_unit="MB")
    # a lab's own unit, outside the table, written as it is named (in any case)
    assert parse_quantity("3 Sweeps", "sweeps") == Quantity(value=3.0, unit="sweeps", typed=3.0, typed_unit="sweeps")
    assert _refusal(lambda: parse_quantity("abc", "GB")) == ("'abc' is not a number", "«abc» no es un número")
    accepted = "GB, bytes, B, KB, KiB, MB, MiB, GiB, TB"
    assert _refusal(lambda: parse_quantity("14 furlongs", "GB")) == (
        f"'furlongs' is not a unit this answer takes: write it in {accepted} (no unit: GB)",
        f"'furlongs' no es una unidad que admita esta respuesta: escríbela en {accepted} (sin unidad: GB)")
    assert _refusal(lambda: parse_quantity("14 GB", None)) == ("'GB': this number takes no unit",
                                                              "'GB': este número no lleva unidad")
    en, _ = _refusal(lambda: parse_quantity("14 " + "x" * 60, "GB"))
    assert en.startswith("'" + "x" * 40 + "' is not a unit")  # what was typed, cut at 40 characters


def test_a_prediction_outside_its_range_or_not_positive_is_refused_in_both_languages() -> None:
    from tests.test_grading import NUMBER
    from tutor.grading.predict import parse_prediction

    ranged = NUMBER.model_copy(update={"range": (10.0, 100.0)})
    assert parse_prediction(ranged, "10").value == 10.0 and parse_prediction(ranged, "100").value == 100.0
    assert _refusal(lambda: parse_prediction(ranged, "9")) == ("9 is outside the accepted range, 10 to 100 GB/s",
                                                              "9 está fuera del rango aceptado, de 10 a 100 GB/s")
    assert _refusal(lambda: parse_prediction(ranged, "101"))[0].startswith("101 is outside the accepted range")
    bare = NUMBER.model_copy(update={"range": (10.0, 100.0), "unit": None})
    assert _refusal(lambda: parse_prediction(bare, "9"))[0] == "9 is outside the accepted range, 10 to 100"
    assert parse_prediction(NUMBER, "0.5").value == 0.5 and parse_prediction(NUMBER, "1").value == 1.0
    assert _refusal(lambda: parse_prediction(NUMBER, "0")) == ("0: the prediction must be a positive number",
                                                              "0: la predicción debe ser un número positivo")


# -- theory: the activations formula, whose value no test in the mutation selection asserted -----------------------


def test_activation_bytes_is_korthikantis_formula_at_16_bit_and_scales_with_the_dtype() -> None:
    from tutor.theory.formulas import activation_bytes

    # one GPT-2-small-like layer, s = 1024, h = 768, a = 12, b = 1: s·b·h·(34 + 5·a·s/h) = 1024·768·114 bytes
    assert activation_bytes(1, 768, 12, 1024) == 1024 * 768 * (34 + 5 * 12 * 1024 / 768) == 89_653_248
    assert activation_bytes(12, 768, 12, 1024, batch=4) == 12 * 4 * 89_653_248  # layers and batch multiply
    assert activation_bytes(1, 768, 12, 1024, dtype="float32") == 2 * 89_653_248  # 4 bytes over 2
    assert activation_bytes(1, 768, 12, 1024, dtype="bfloat16") == activation_bytes(1, 768, 12, 1024)  # the default
