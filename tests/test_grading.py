"""Grading: each kind, the tolerances, the too-close band, units, the safe explanation formatter, calibration."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tutor.content.models import Exercise, Grading
from tutor.grading import (
    Prediction,
    PredictionError,
    ResolvedTruth,
    TruthError,
    calibrate,
    fill,
    flatten,
    grade,
    parse_confidence,
    parse_prediction,
    resolve_truth,
)
from tutor.grading.kinds import number_score
from tutor.grading.units import UnitError, convert, unit_of_metric
from tutor.results import Measurement, RooflineReference

TEXT = {"es": "x", "en": "x"}


def ex(**fields: object) -> Exercise:
    base: dict[str, object] = {"format_version": 1, "id": "e1", "lesson": "n0-l1", "title": TEXT, "prompt": TEXT,
                               "explanation": TEXT}
    base.update(fields)
    return Exercise.model_validate(base)


NUMBER = ex(kind="number", unit="GB/s", truth={"source": "measurement", "metric": "achieved_gbs"},
            measure={"op": "workload", "name": "copy", "params": {"n": 1 << 20}})
BOUND = ex(kind="bound", measure={"op": "workload", "name": "copy", "params": {"n": 1 << 20}})
FIT = ex(kind="fit", capacity_gb=32, truth={"source": "formula", "formula": "weights_bytes",
                                            "inputs": {"n_params": 8e9, "dtype": "bfloat16"}})
DIAG = ex(kind="diagnose", choices=[{"id": "cpu-wheel", "label": TEXT}, {"id": "old-driver", "label": TEXT}],
          answer="cpu-wheel")

ROOF = {"peak_bandwidth_gbs": 30.0, "peak_gflops": {"float32": 150.0}, "ridge_point": 5.0}


def workload(intensity: float, gflops: float, gbs: float) -> Measurement:
    return measured({"device": {"kind": "cpu", "name": "Test CPU", "fingerprint": "f"}, "params": {"dtype": "float32"},
            "arithmetic_intensity": intensity, "achieved_gflops": gflops, "achieved_gbs": gbs, "roofline": ROOF})


def measured(row: dict[str, Any]) -> Measurement:
    """A measurement as the engine's JSON says it (the fixtures below write the JSON)."""
    return Measurement.from_json({"kind": "workload", **row})


@pytest.mark.parametrize(
    ("pred", "score"),
    [(100, 1.0), (109, 1.0), (92, 1.0), (120, 0.75), (80.5, 0.75), (150, 0.4), (51, 0.4), (49, 0.0), (1000, 0.0)],
)
def test_number_tiers(pred: float, score: float) -> None:
    assert number_score(pred, 100, Grading())[0] == score


def test_number_tolerances_come_from_the_exercise() -> None:
    strict = Grading(full=1.01, most=1.02, some=1.05)
    assert number_score(104, 100, strict)[0] == 0.4
    assert number_score(110, 100, strict)[0] == 0.0


def test_number_verdicts_and_ratio() -> None:
    truth = resolve_truth(NUMBER, measured({"achieved_gbs": 38.2, "device": {"kind": "cpu", "name": "Test CPU"}}))
    assert truth.value == pytest.approx(38.2) and truth.source == "measured on Test CPU (cpu)"
    right = grade(NUMBER, Prediction(value=40), truth)
    assert (right.verdict, right.score) == ("correct", 1.0)
    assert right.ratio == pytest.approx(40 / 38.2)
    partly = grade(NUMBER, Prediction(value=60), truth)
    assert partly.verdict == "partly" and 0 < partly.score < 0.7
    wrong = grade(NUMBER, Prediction(value=1000), truth)
    assert (wrong.verdict, wrong.score) == ("wrong", 0.0)
    assert "1,000 GB/s" in wrong.feedback_in("en")


def test_bound_clear_cases_and_the_too_close_band() -> None:
    memory = resolve_truth(BOUND, workload(0.1, 1.0, 10.0))
    assert memory.choice == "memory" and not memory.too_close
    assert grade(BOUND, Prediction(choice="memory"), memory).verdict == "correct"
    assert grade(BOUND, Prediction(choice="compute"), memory).verdict == "wrong"
    compute = resolve_truth(BOUND, workload(50.0, 120.0, 2.4))
    assert compute.choice == "compute"
    assert grade(BOUND, Prediction(choice="memory"), compute).score == 0.0
    # intensity 6 vs ridge 5: inside ±0.25 decades → inconclusive on this run: neither answer is graded, the
    # attempt is not counted, and the reveal says why (issue 26 item 4: "both answers count" is not the answer)
    close = resolve_truth(BOUND, workload(6.0, 60.0, 10.0))
    assert close.too_close and close.inconclusive == ("near_ridge",)
    for choice in ("memory", "compute"):
        v = grade(BOUND, Prediction(choice=choice), close)
        assert v.verdict == "inconclusive" and not v.counted and not v.both_count
        assert "Not counted" in v.feedback_in("en") and "No cuenta" in v.feedback_in("es")
        assert "too close to your measured ridge" in v.feedback_in("en") and "cresta" in v.feedback_in("es")


def test_bound_band_is_the_exercises() -> None:
    narrow = ex(kind="bound", measure={"op": "workload", "name": "copy"}, grading={"too_close_band": 0.01})
    assert not resolve_truth(narrow, workload(6.0, 60.0, 10.0)).too_close


def test_bound_without_classification_is_an_error() -> None:
    with pytest.raises(TruthError):
        resolve_truth(BOUND, measured({"device": {"kind": "cpu"}}))


def test_fit_choice_and_size() -> None:
    truth = resolve_truth(FIT, None)
    assert truth.value == pytest.approx(16.0) and truth.unit == "GB"
    assert truth.source == "the formula “weights = parameters × bytes per element” applied to the exercise's inputs"
    assert truth.source_in("es") == ("la fórmula «pesos = parámetros × bytes por elemento» aplicada a los datos "
                                     "del ejercicio")
    assert grade(FIT, Prediction(choice="fits"), truth).score == 1.0
    assert grade(FIT, Prediction(choice="does_not_fit"), truth).verdict == "wrong"
    both = grade(FIT, Prediction(choice="fits", value=16.5), truth)
    assert both.verdict == "correct"
    half = grade(FIT, Prediction(choice="fits", value=100), truth)
    assert half.verdict == "partly" and half.score == pytest.approx(0.6)
    big = ex(kind="fit", capacity_gb=32, truth={"source": "formula", "formula": "weights_bytes",
                                                "inputs": {"n_params": 70e9, "dtype": "bfloat16"}})
    assert grade(big, Prediction(choice="does_not_fit"), resolve_truth(big, None)).verdict == "correct"


def test_diagnose() -> None:
    truth = resolve_truth(DIAG, None)
    assert grade(DIAG, Prediction(choice="cpu-wheel"), truth).verdict == "correct"
    assert grade(DIAG, Prediction(choice="old-driver"), truth).verdict == "wrong"


def test_formula_with_measured_inputs_and_unit_conversion() -> None:
    e = ex(kind="number", unit="tokens/s", measure={"op": "roofline"},
           truth={"source": "formula", "formula": "decode_bound_tokens_per_s",
                  "inputs": {"bandwidth_gbs": "measured:roofline.peak_bandwidth_gbs", "bytes_per_token": 16e9}})
    truth = resolve_truth(e, measured({"roofline": {"peak_bandwidth_gbs": 1600.0},
                                      "device": {"name": "RTX", "kind": "cuda"}}))
    assert truth.value == pytest.approx(100.0)
    assert truth.source == ("the formula “decode bound = bandwidth ÷ bytes per token” applied to measured inputs "
                            "(measured on RTX (cuda))")
    assert truth.source_in("es") == ("la fórmula «cota de decode = ancho de banda ÷ bytes por token» aplicada a "
                                     "entradas medidas (medidas en RTX (cuda))")
    assert truth.details["measured_inputs"] == {"bandwidth_gbs": "roofline.peak_bandwidth_gbs"}
    # a measured GFLOP/s figure feeds a FLOP/s input; a fraction is asked in %
    mfu = ex(kind="number", unit="%", measure={"op": "roofline"},
             truth={"source": "formula", "formula": "mfu",
                    "inputs": {"achieved_flops": "measured:achieved_gflops", "peak_flops": 2e11}})
    assert resolve_truth(mfu, measured({"achieved_gflops": 50.0})).value == pytest.approx(25.0)
    with pytest.raises(TruthError):
        resolve_truth(e, measured({}))  # no roofline measured


def test_units() -> None:
    assert convert(16e9, "bytes", "GB") == 16
    assert convert(2**30, "bytes", "GiB") == 1
    assert convert(0.2, "TFLOP/s", "GFLOP/s") == pytest.approx(200)
    assert convert(3, "ms", "us") == pytest.approx(3000)
    assert convert(0.5, "fraction", "%") == pytest.approx(50)
    with pytest.raises(UnitError):
        convert(1, "GB", "GB/s")
    assert unit_of_metric("time_s.median") == "s"
    assert unit_of_metric("achieved_gbs") == "GB/s"
    assert unit_of_metric("time_s.cv") == "fraction"
    assert unit_of_metric("batches.1.fraction_of_bound") == "fraction"
    assert unit_of_metric("roofline.peak_gflops.float32") == "GFLOP/s"
    assert unit_of_metric("flops") == "FLOP"
    assert unit_of_metric("classification.fraction_of_bandwidth_roof") == "fraction"
    e = ex(kind="number", unit="ms", truth={"source": "measurement", "metric": "time_s.median"},
           measure={"op": "workload", "name": "copy"})
    assert resolve_truth(e, measured({"time_s": {"median": 0.002}})).value == pytest.approx(2.0)


def test_parse_prediction() -> None:
    assert parse_prediction(NUMBER, "38.2").value == 38.2
    assert parse_prediction(NUMBER, "38,2 GB/s").value == 38.2
    assert parse_prediction(BOUND, "Memory-bound").choice == "memory"
    p = parse_prediction(FIT, "does_not_fit:40", "90")
    assert (p.choice, p.value, p.confidence) == ("does_not_fit", 40.0, 0.9)
    assert parse_prediction(FIT, "20").choice == "fits"
    assert parse_prediction(FIT, "fits", gb="12").value == 12
    assert parse_prediction(DIAG, "old-driver").choice == "old-driver"
    ranged = ex(kind="number", unit="x", range=[1, 1000], truth={"source": "formula", "formula": "mfu",
                                                                  "inputs": {"achieved_flops": 1, "peak_flops": 2}})
    for bad, exercise in [("abc", NUMBER), ("nan", NUMBER), ("inf", NUMBER), ("-3", NUMBER), ("0", NUMBER),
                          ("5000", ranged), ("", NUMBER), ("both", BOUND), ("maybe", FIT), ("x", DIAG)]:
        with pytest.raises(PredictionError):
            parse_prediction(exercise, bad)


@pytest.mark.parametrize(("given", "expected"), [(None, 0.8), ("80", 0.8), ("80%", 0.8), (0.55, 0.55), ("100", 1.0)])
def test_confidence(given: object, expected: float) -> None:
    assert parse_confidence(given) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["40", "0.3", "101", "x", "nan"])
def test_confidence_out_of_range(bad: str) -> None:
    with pytest.raises(PredictionError):
        parse_confidence(bad)


def test_fill_plain_and_formatted() -> None:
    values = flatten({"achieved_gbs": 38.234, "roofline": {"peak_bandwidth_gbs": 42.0}, "name": "triad"})
    text = "Your {name} moved {achieved_gbs:.1f} GB/s, {roofline.peak_bandwidth_gbs:.0f} peak {{literal}}"
    assert fill(text, values) == "Your triad moved 38.2 GB/s, 42 peak {literal}"
    assert fill("{missing:.1f} and {achieved_gbs}", values) == "— and 38.23"


@pytest.mark.parametrize(
    "template",
    [
        "{achieved_gbs.__class__}",
        "{__class__.__mro__}",
        "{achieved_gbs[0]}",
        "{0}",
        "{achieved_gbs!r}",
        "{achieved_gbs:{achieved_gbs}}",
        "{achieved_gbs:999999999}",
        "{achieved_gbs:.99999f}",
        "{achieved_gbs:%Y}",
        "{name.upper}",
        "{" * 10000,
    ],
)
def test_fill_hostile_templates_never_evaluate(template: str) -> None:
    values = {"achieved_gbs": 1.5, "name": "x"}
    out = fill(template, values)
    assert "class" not in out.lower() or "__class__" in template
    assert "<" not in out  # no object reprs
    assert len(out) <= len(template) + 50


def test_fill_does_not_use_str_format_on_values() -> None:
    # a string value containing braces is printed as is, never re-expanded
    assert fill("{a}", {"a": "{b}", "b": "secret"}) == "{b}"


def test_calibration() -> None:
    cal = calibrate([(0.8, True)] * 6 + [(0.8, False)] * 3 + [(0.5, True)])
    assert cal.n == 10
    bucket = next(b for b in cal.buckets if b.confidence_pct == 80)
    assert (bucket.right, bucket.total) == (6, 9)
    assert (bucket.low_pct, bucket.high_pct) == (80, 89)
    assert bucket.sentence("en") == "of your 80–89 % guesses, 6 of 9 were right"
    assert bucket.sentence("es") == "de tus predicciones con una confianza del 80 al 89 %, acertaste 6 de 9"
    expected = (6 * 0.2**2 + 3 * 0.8**2 + 0.5**2) / 10
    assert cal.brier == pytest.approx(expected)
    assert calibrate([]).brier is None
    assert math.isclose(calibrate([(1.0, True)]).brier or 0, 0)


def test_truth_json_round_trip() -> None:
    t = ResolvedTruth(source="s", value=1.0, unit="GB", details={"a": 1})
    assert ResolvedTruth.from_json(t.to_json()) == t


def test_every_formula_has_a_human_name_in_both_languages() -> None:
    from tutor.i18n import LANGS, t
    from tutor.theory.formulas import FORMULAS

    for name in FORMULAS:
        for lang in LANGS:
            text = t(f"formula.{name}.name", lang)
            assert text != f"formula.{name}.name", f"{name} has no {lang} name"
            assert "_" not in text and name not in text, f"{name}'s {lang} name shows an identifier: {text}"


def test_truth_source_keeps_its_message_through_json() -> None:
    truth = resolve_truth(DIAG, None)
    back = ResolvedTruth.from_json(truth.to_json())
    assert back == truth and back.source_in("es") == "la clave de respuestas del ejercicio"
    older = ResolvedTruth.from_json({"source": "measured on an old machine", "choice": "x"})
    assert older.source_in("es") == "measured on an old machine"  # stored before the codes: shown as recorded


@pytest.mark.parametrize(
    ("text", "es", "en"),
    [("abc", "«abc» no es un número", "'abc' is not a number"),
     ("", "la predicción está vacía", "the prediction is empty"),
     ("1e999", "«1e999» no es un número finito", "'1e999' is not a finite number"),
     ("\x1b[2J5x", "«[2J5x» no es un número", "'[2J5x' is not a number")],
)
def test_a_refused_prediction_is_said_in_the_learners_language(text: str, es: str, en: str) -> None:
    with pytest.raises(PredictionError) as caught:
        parse_prediction(NUMBER, text)
    assert caught.value.describe("es") == es and caught.value.describe("en") == en == str(caught.value)


def test_refused_choices_and_ranges_in_both_languages() -> None:
    from tutor.i18n.numbers import integer

    with pytest.raises(PredictionError) as caught:
        parse_prediction(DIAG, "memoria")
    assert caught.value.describe("es") == "«memoria» no es una de las opciones: cpu-wheel, old-driver"
    ranged = ex(kind="number", unit="GB/s", range=[0.5, 2000], truth={"source": "measurement",
                                                                     "metric": "achieved_gbs"},
                measure={"op": "workload", "name": "copy", "params": {"n": 1 << 20}})
    with pytest.raises(PredictionError) as caught:
        parse_prediction(ranged, "2500,5")
    es, en = (f"{integer(2500, lang)} " for lang in ("es", "en"))  # a large figure grouped per locale, not 2,5E3
    assert caught.value.describe("es") == es + f"está fuera del rango aceptado, de 0,5 a {integer(2000, 'es')} GB/s"
    assert caught.value.describe("en") == en + "is outside the accepted range, 0.5 to 2,000 GB/s"
    with pytest.raises(PredictionError) as caught:
        parse_prediction(NUMBER, "40", confidence="mucha")
    assert caught.value.describe("es") == "la confianza «mucha» no es un número (50–100 %)"


def test_the_boundaries_the_mutants_moved() -> None:
    """Issue 29 item 8: each assert below fails under one of the hand mutations that survived before."""
    from tutor.grading.calibration import bucket_of
    from tutor.grading.kinds import grade_fit
    from tutor.grading.verdict import ResolvedTruth
    from tutor.theory.roofline import roof_check

    # grade_fit: exactly the capacity fits (<= → < fails)
    exact = ResolvedTruth(source="formula", value=32.0, unit="GB")
    assert grade_fit(Prediction(choice="fits"), exact, 32.0, FIT.grading).verdict == "correct"
    assert grade_fit(Prediction(choice="does_not_fit"), exact, 32.0, FIT.grading).verdict == "wrong"
    # calibration buckets are ranges that hold what they say (floor → round fails at 86 % and at 95 %)
    assert bucket_of(0.86) == 80 and bucket_of(0.84) == 80 and bucket_of(0.5) == 50 and bucket_of(0.49) == 40
    assert bucket_of(0.95) == 90 and bucket_of(1.0) == 90 and bucket_of(0.9) == 90 and bucket_of(0.899) == 80
    # the roof check allows three CVs of noise (3·CV → 1·CV fails): 25 % above a roof with a 10 % CV is noise
    roof = RooflineReference.from_json(ROOF)
    assert roof_check(achieved_gflops=1.0, achieved_gbs=30.0 * 1.25, working_set_bytes=None, roofline=roof,
                      cv=0.10) is None
    flagged = roof_check(achieved_gflops=1.0, achieved_gbs=30.0 * 1.35, working_set_bytes=None, roofline=roof,
                         cv=0.10)
    assert flagged is not None and flagged.code == "above_bandwidth_roof" and flagged.margin == pytest.approx(0.3)


# -- issue 30: grading that reads right -------------------------------------------------------------------------

SEVEN = ex(kind="diagnose", choices=[{"id": f"c{i}", "label": TEXT} for i in range(7)], answer="c0")
FOUR = ex(kind="diagnose", choices=[{"id": f"c{i}", "label": TEXT} for i in range(4)], answer="c0")


def test_the_confidence_floor_is_chance_for_a_choice() -> None:
    from tutor.grading.predict import confidence_floor_of

    assert [confidence_floor_of(e) for e in (SEVEN, FOUR, DIAG, BOUND, FIT, NUMBER)] == [0.14, 0.25, 0.5, 0.5,
                                                                                          0.5, 0.5]
    assert parse_prediction(SEVEN, "c3", confidence="14").confidence == 0.14  # the floor shown can be typed
    assert parse_prediction(SEVEN, "c3", confidence="20 %").confidence == 0.2
    assert parse_prediction(FOUR, "c1", confidence="0.3").confidence == 0.3
    with pytest.raises(PredictionError) as caught:
        parse_prediction(SEVEN, "c3", confidence="10")
    assert caught.value.describe("en") == "confidence 10 is outside 14–100 %"
    assert caught.value.describe("es") == "la confianza 10 está fuera de 14–100 %"
    for two_or_number in (DIAG, BOUND, NUMBER):  # chance is 50 % (two options) or not defined (a number)
        with pytest.raises(PredictionError) as caught:
            parse_prediction(two_or_number, "cpu-wheel" if two_or_number is DIAG else "memory"
                             if two_or_number is BOUND else "40", confidence="40")
        assert caught.value.describe("en") == "confidence 40 is outside 50–100 %"


def test_a_95_percent_guess_is_counted_in_the_90_to_100_row() -> None:
    cal = calibrate([(0.95, True), (1.0, False), (0.9, True), (0.86, True), (0.2, False)])
    rows = [(b.low_pct, b.high_pct, b.total) for b in cal.buckets]
    assert rows == [(20, 29, 1), (80, 89, 1), (90, 100, 3)]
    assert [b.sentence("en") for b in cal.buckets][-1] == "of your 90–100 % guesses, 2 of 3 were right"
    as_json = cal.to_json()["buckets"]
    assert isinstance(as_json, list) and as_json[-1]["low_pct"] == 90 and as_json[-1]["high_pct"] == 100


def test_partial_credit_is_marked_partial() -> None:
    from tutor.progress.passes import PARTIAL_MARK, ExerciseStatus

    def marks(pass1: float | None, pass2: float | None = None) -> str:
        return ExerciseStatus(exercise_id="e", attempts=2, best_score=None, pass1_score=pass1, pass1_attempt=1,
                              pass2_score=pass2, pass2_attempt=2).marks

    assert PARTIAL_MARK == "~"
    assert marks(0.40) == "~○" and marks(0.0) == "✗○" and marks(0.7) == "✓○" and marks(1.0, 0.40) == "✓~"


def test_the_class_report_words_the_buckets_as_ranges() -> None:
    from tutor.progress.class_report import ClassReport, render_class_report

    cal = calibrate([(0.95, True), (0.95, False), (0.62, True)])
    report = ClassReport(learners=("ana",), attempts=3, exercises=(), calibration=cal, c0={}, roofline=())
    en, es = render_class_report(report, "en"), render_class_report(report, "es")
    assert "- at 90–100 % confidence: 1 of 2 right (50%)" in en and "- at 60–69 % confidence: 1 of 1 right" in en
    assert "- con una confianza del 90 al 100 %: 1 de 2 acertadas (" in es
    assert "100 % confidence" not in en.replace("90–100 %", "")
