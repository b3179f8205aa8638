"""Grading by kind: ``number``, ``bound``, ``fit`` and ``diagnose`` (pure functions)."""

from __future__ import annotations

import math

from tutor.content.models import Exercise, Grading
from tutor.grading.units import format_value
from tutor.grading.verdict import Prediction, ResolvedTruth, Verdict, VerdictWord
from tutor.i18n import localize_number

# Scores of the number tiers: within ``full`` → 1, ``most`` → 0.75 (still a pass), ``some`` → 0.4, else 0.
FULL_SCORE = 1.0
MOST_SCORE = 0.75
SOME_SCORE = 0.4

# Weight of the yes/no answer when a fit prediction also gives the GB figure.
FIT_CHOICE_WEIGHT = 0.6


class GradingError(ValueError):
    """The attempt cannot be graded (e.g. a truth with no value). One line for the learner."""


def verdict_word(score: float) -> VerdictWord:
    if score >= FULL_SCORE - 1e-9:
        return "correct"
    return "partly" if score > 0 else "wrong"


def ratio_of(prediction: float, truth: float) -> float:
    """The symmetric ratio ≥ 1 between a prediction and the truth (``inf`` if either is not positive)."""
    if prediction == truth:
        return 1.0
    if prediction <= 0 or truth <= 0 or not (math.isfinite(prediction) and math.isfinite(truth)):
        return math.inf
    return math.exp(abs(math.log(prediction / truth)))


def number_score(prediction: float, truth: float, grading: Grading) -> tuple[float, float]:
    """``(score, ratio)`` from the log-ratio of prediction to truth against the exercise's tolerances."""
    ratio = ratio_of(prediction, truth)
    eps = 1e-9
    if ratio <= grading.full + eps:
        return FULL_SCORE, ratio
    if ratio <= grading.most + eps:
        return MOST_SCORE, ratio
    if ratio <= grading.some + eps:
        return SOME_SCORE, ratio
    return 0.0, ratio


def _pct(ratio: float) -> str:
    return f"{(ratio - 1) * 100:.0f} %"


def grade_number(prediction: Prediction, truth: ResolvedTruth, grading: Grading) -> Verdict:
    if prediction.value is None:
        raise GradingError("a number exercise needs a number as the prediction")
    if truth.value is None:
        raise GradingError("the truth has no value")
    score, ratio = number_score(prediction.value, truth.value, grading)
    p_en, t_en = format_value(prediction.value, truth.unit), format_value(truth.value, truth.unit)
    p_es, t_es = format_value(prediction.value, truth.unit, "es"), format_value(truth.value, truth.unit, "es")
    direction_en = "high" if prediction.value > truth.value else "low"
    direction_es = "alta" if prediction.value > truth.value else "baja"
    off = "∞" if math.isinf(ratio) else (f"{ratio:.2f}×" if ratio >= 2 else _pct(ratio))
    off_es = localize_number(off, "es")
    if score == FULL_SCORE:
        fb = {"en": f"Within {_pct(grading.full)}: you said {p_en}, the truth is {t_en}.",
              "es": f"Dentro del {_pct(grading.full)}: dijiste {p_es}, la verdad es {t_es}."}
    elif score > 0:
        fb = {"en": f"Close but {direction_en} by {off}: you said {p_en}, the truth is {t_en}.",
              "es": f"Cerca, pero {direction_es} por {off_es}: dijiste {p_es}, la verdad es {t_es}."}
    else:
        fb = {"en": f"Off by {off} ({direction_en}): you said {p_en}, the truth is {t_en}.",
              "es": f"Te alejaste {off_es} (demasiado {direction_es}): dijiste {p_es}, la verdad es {t_es}."}
    return Verdict(verdict_word(score), score, fb, truth, ratio=None if math.isinf(ratio) else ratio)


_BOUND_LABEL = {"memory": {"en": "memory-bound", "es": "limitado por memoria"},
                "compute": {"en": "compute-bound", "es": "limitado por cómputo"}}


def grade_bound(prediction: Prediction, truth: ResolvedTruth) -> Verdict:
    if prediction.choice not in _BOUND_LABEL:
        raise GradingError("a bound prediction is 'memory' or 'compute'")
    if truth.choice not in _BOUND_LABEL:
        raise GradingError("the measurement did not classify the workload")
    said = _BOUND_LABEL[prediction.choice]
    real = _BOUND_LABEL[truth.choice]
    if truth.too_close:
        fb = {"en": f"Too close to call on this machine (it sits near the ridge point; leaning {real['en']}): "
                    "both answers count.",
              "es": f"Demasiado cerca para decidir en esta máquina (está junto al punto de cresta; tiende a "
                    f"{real['es']}): cuentan ambas respuestas."}
        return Verdict("correct", FULL_SCORE, fb, truth, both_count=True)
    if prediction.choice == truth.choice:
        fb = {"en": f"Right: it is {real['en']}.", "es": f"Correcto: está {real['es']}."}
        return Verdict("correct", FULL_SCORE, fb, truth)
    fb = {"en": f"Not this time: you said {said['en']}, the measurement says {real['en']}.",
          "es": f"Esta vez no: dijiste {said['es']}, la medición dice {real['es']}."}
    return Verdict("wrong", 0.0, fb, truth)


def grade_fit(prediction: Prediction, truth: ResolvedTruth, capacity_gb: float, grading: Grading) -> Verdict:
    if prediction.choice not in ("fits", "does_not_fit"):
        raise GradingError("a fit prediction is 'fits' or 'does_not_fit' (optionally with the GB it takes)")
    if truth.value is None:
        raise GradingError("the truth has no size")
    real = "fits" if truth.value <= capacity_gb else "does_not_fit"
    choice_right = prediction.choice == real
    size, cap = format_value(truth.value, "GB"), format_value(capacity_gb, "GB")
    size_es, cap_es = format_value(truth.value, "GB", "es"), format_value(capacity_gb, "GB", "es")
    label = {"fits": {"en": "fits", "es": "cabe"}, "does_not_fit": {"en": "does not fit", "es": "no cabe"}}[real]
    if choice_right:
        fb = {"en": f"Right: it takes {size}, so it {label['en']} in {cap}.",
              "es": f"Correcto: ocupa {size_es}, así que {label['es']} en {cap_es}."}
    else:
        fb = {"en": f"Not this time: it takes {size}, so it {label['en']} in {cap}.",
              "es": f"Esta vez no: ocupa {size_es}, así que {label['es']} en {cap_es}."}
    ratio: float | None = None
    if prediction.value is None:
        score = FULL_SCORE if choice_right else 0.0
    else:
        size_score, r = number_score(prediction.value, truth.value, grading)
        ratio = None if math.isinf(r) else r
        score = FIT_CHOICE_WEIGHT * (1.0 if choice_right else 0.0) + (1 - FIT_CHOICE_WEIGHT) * size_score
        fb = {"en": fb["en"] + f" Your size: {format_value(prediction.value, 'GB')}.",
              "es": fb["es"] + f" Tu tamaño: {format_value(prediction.value, 'GB', 'es')}."}
    score = round(score, 6)
    return Verdict(verdict_word(score), score, fb, truth, ratio=ratio)


def grade_diagnose(prediction: Prediction, truth: ResolvedTruth, exercise: Exercise) -> Verdict:
    ids = [c.id for c in exercise.choices]
    if prediction.choice not in ids:
        raise GradingError(f"pick one of: {', '.join(ids)}")
    labels = {c.id: c.label for c in exercise.choices}
    real = labels.get(truth.choice or "")
    if prediction.choice == truth.choice:
        return Verdict("correct", FULL_SCORE, {"en": "Right cause.", "es": "Causa correcta."}, truth)
    fb = {"en": f"Not this one: the cause is “{real.get('en') if real else truth.choice}”.",
          "es": f"No es esa: la causa es «{real.get('es') if real else truth.choice}»."}
    return Verdict("wrong", 0.0, fb, truth)


def grade(exercise: Exercise, prediction: Prediction, truth: ResolvedTruth) -> Verdict:
    """Grade ``prediction`` against ``truth`` by the exercise's kind."""
    if exercise.kind == "number":
        return grade_number(prediction, truth, exercise.grading)
    if exercise.kind == "bound":
        return grade_bound(prediction, truth)
    if exercise.kind == "fit":
        assert exercise.capacity_gb is not None
        return grade_fit(prediction, truth, exercise.capacity_gb, exercise.grading)
    return grade_diagnose(prediction, truth, exercise)
