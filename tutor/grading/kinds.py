"""Grading by kind: ``number``, ``bound``, ``fit`` and ``diagnose`` (pure functions)."""

from __future__ import annotations

import math
from dataclasses import replace

from tutor.content.models import Exercise, Grading
from tutor.grading import noise
from tutor.grading.said import FigureSaid, JoinedSaid, PackSaid, RatioSaid
from tutor.grading.verdict import Prediction, ResolvedTruth, Verdict, VerdictWord
from tutor.i18n import N_
from tutor.i18n.message import Message, Param

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


_MAX_LOG_RATIO = 700.0
"""Past e^700 a ratio is not a number a learner reads (and e^710 is past a float)."""


def ratio_of(prediction: float, truth: float) -> float:
    """The symmetric ratio ≥ 1 between a prediction and the truth (``inf`` if either is not positive)."""
    if prediction == truth:
        return 1.0
    if prediction <= 0 or truth <= 0 or not (math.isfinite(prediction) and math.isfinite(truth)):
        return math.inf
    # the difference of the logs, not the log of the quotient: a subnormal prediction (5e-324) divided by the truth
    # is 0 (log: ValueError), and a ratio past e^709 overflows exp (OverflowError); both are simply "∞ off"
    log_ratio = abs(math.log(prediction) - math.log(truth))
    return math.exp(log_ratio) if log_ratio < _MAX_LOG_RATIO else math.inf


def number_score(prediction: float, truth: float, grading: Grading, spread: float | None = None
                 ) -> tuple[float, float]:
    """``(score, ratio)`` from the log-ratio of prediction to truth against the exercise's tolerances. With the
    measured truth's ``spread`` (σ), the tolerances widen to truth ± 2σ when that is wider
    (:func:`tutor.grading.noise.widened`): the measurement cannot tell those values apart from its own."""
    if spread is not None and spread > 0:
        if truth > 0:
            grading = noise.widened(grading, truth, spread)
        else:  # a measured 0 (a clamped intercept) ± 2σ: anything up to 2σ is the measured value
            truth = min(prediction, noise.SIGMAS * spread)
    ratio = ratio_of(prediction, truth)
    eps = 1e-9
    if ratio <= grading.full + eps:
        return FULL_SCORE, ratio
    if ratio <= grading.most + eps:
        return MOST_SCORE, ratio
    if ratio <= grading.some + eps:
        return SOME_SCORE, ratio
    return 0.0, ratio


def _feedback(key: str, /, **fields: Param) -> Message:
    """One feedback sentence: the catalog's ``key`` with its fields (rendered by the UI or the CLI)."""
    return Message.of(key, **fields)


def grade_number(prediction: Prediction, truth: ResolvedTruth, grading: Grading) -> Verdict:
    if prediction.value is None:
        raise GradingError("a number exercise needs a number as the prediction")
    if truth.value is None:
        raise GradingError("the truth has no value")
    score, _ = number_score(prediction.value, truth.value, grading, truth.spread)
    plain_score, ratio = number_score(prediction.value, truth.value, grading)
    helped = score > plain_score  # the measurement's own spread, wider than the tolerance, changed the grade
    p_value, t_value = prediction.value, truth.value
    direction = N_("grade.high") if p_value > t_value else N_("grade.low")
    fields: dict[str, Param] = {
        "said": FigureSaid.of_value(p_value, truth.unit),
        "truth": FigureSaid.of_value(t_value, truth.unit),
        "off": RatioSaid.off(ratio),
        "tolerance": RatioSaid.over(grading.full),
        "direction": Message(direction),
    }
    if score == FULL_SCORE:
        key = N_("grade.number.within_spread") if helped else N_("grade.number.within")
    elif score >= MOST_SCORE:
        key = N_("grade.number.close")
    elif score > 0:  # the exercise's widest band still credits it: never "close" at 3×
        key = N_("grade.number.some")
        fields["band"] = RatioSaid.off(grading.some)
    else:
        key = N_("grade.number.off")
    fb: tuple[Message, ...] = (_feedback(key, **fields),)
    if truth.spread is not None and truth.spread > 0:
        fb = _with_spread(fb, t_value, truth, grading)
    shown_ratio = None if math.isinf(ratio) else ratio
    if truth.disturbed and score < MOST_SCORE:
        # The load moved the figure by an unknown amount: this run cannot say the answer is wrong (issue 26's rule
        # for a bound, applied to a measured number). It is not counted; a quiet run decides.
        return Verdict("inconclusive", 0.0, (*fb, _feedback(N_("grade.number.disturbed"))),
                       replace(truth, inconclusive=("disturbed",)), ratio=shown_ratio, counted=False)
    return Verdict(verdict_word(score), score, fb, truth, ratio=shown_ratio)


#: A measurement's spread within the tolerance is mentioned from this size on (σ ÷ value); a wider one always is.
NOTED_SPREAD = 0.05


def _with_spread(fb: tuple[Message, ...], value: float, truth: ResolvedTruth, grading: Grading
                 ) -> tuple[Message, ...]:
    """The feedback with one sentence on the measurement's own spread when it matters: wider than the exercise's
    tolerance (the band grew to truth ± 2σ, and the sentence gives it), or at least :data:`NOTED_SPREAD`."""
    sigma = truth.spread or 0.0
    low, high = noise.band(value, sigma, grading)
    wider = value <= 0 or noise.widened(grading, value, sigma) is not grading
    if not wider and sigma / value < NOTED_SPREAD:
        return fb
    said = _feedback(N_("grade.number.spread_band") if wider else N_("grade.number.spread"),
                     spread=RatioSaid.over(1 + sigma / value) if value > 0 else FigureSaid.of_value(sigma, truth.unit),
                     low=FigureSaid.of_value(low, truth.unit), high=FigureSaid.of_value(high, truth.unit))
    return (*fb, said)


_BOUND_LABEL = {"memory": N_("grade.bound.memory"), "compute": N_("grade.bound.compute")}


def grade_bound(prediction: Prediction, truth: ResolvedTruth) -> Verdict:
    if prediction.choice not in _BOUND_LABEL:
        raise GradingError("a bound prediction is 'memory' or 'compute'")
    if truth.choice not in _BOUND_LABEL:
        raise GradingError("the measurement did not classify the workload")
    said, real = _BOUND_LABEL[prediction.choice], _BOUND_LABEL[truth.choice]
    fields: dict[str, Param] = {"said": Message(said), "real": Message(real)}
    if truth.inconclusive or truth.too_close:
        reasons = truth.inconclusive or ("near_ridge",)
        fields["why"] = JoinedSaid.of_messages([Message(f"grade.bound.why.{r}") for r in reasons])
        return Verdict("inconclusive", 0.0, (_feedback("grade.bound.inconclusive", **fields),), truth, counted=False)
    if prediction.choice == truth.choice:
        return Verdict("correct", FULL_SCORE, (_feedback("grade.bound.right", **fields),), truth)
    return Verdict("wrong", 0.0, (_feedback("grade.bound.wrong", **fields),), truth)


def grade_fit(prediction: Prediction, truth: ResolvedTruth, capacity_gb: float, grading: Grading) -> Verdict:
    if prediction.choice not in ("fits", "does_not_fit"):
        raise GradingError("a fit prediction is 'fits' or 'does_not_fit' (optionally with the GB it takes)")
    if truth.value is None:
        raise GradingError("the truth has no size")
    real = "fits" if truth.value <= capacity_gb else "does_not_fit"
    choice_right = prediction.choice == real
    size_gb = truth.value
    fields: dict[str, Param] = {
        "size": FigureSaid.of_value(size_gb, "GB"),
        "capacity": FigureSaid.of_value(capacity_gb, "GB"),
        "fits": Message(f"grade.fit.{real}"),
    }
    fb: tuple[Message, ...] = (_feedback(N_("grade.fit.right") if choice_right else N_("grade.fit.wrong"),
                                         **fields),)
    ratio: float | None = None
    if prediction.value is None:
        score = FULL_SCORE if choice_right else 0.0
    else:
        size_score, r = number_score(prediction.value, truth.value, grading)
        ratio = None if math.isinf(r) else r
        score = FIT_CHOICE_WEIGHT * (1.0 if choice_right else 0.0) + (1 - FIT_CHOICE_WEIGHT) * size_score
        said_gb = prediction.value
        fb = (*fb, _feedback("grade.fit.your_size", size=FigureSaid.of_value(said_gb, "GB")))
    score = round(score, 6)
    return Verdict(verdict_word(score), score, fb, truth, ratio=ratio)


def grade_diagnose(prediction: Prediction, truth: ResolvedTruth, exercise: Exercise) -> Verdict:
    ids = [c.id for c in exercise.choices]
    if prediction.choice not in ids:
        raise GradingError(f"pick one of: {', '.join(ids)}")
    labels = {c.id: c.label for c in exercise.choices}
    real = labels.get(truth.choice or "")
    if prediction.choice == truth.choice:
        return Verdict("correct", FULL_SCORE, (_feedback("grade.diagnose.right"),), truth)
    cause: Param = PackSaid.of_texts({"es": real.es, "en": real.en}) if real else (truth.choice or "")
    return Verdict("wrong", 0.0, (_feedback("grade.diagnose.wrong", cause=cause),), truth)


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
