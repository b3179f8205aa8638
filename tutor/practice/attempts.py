"""Every attempt of one exercise, as the learner reads it (issue 30 item 2): the view-model of the attempts screen.

No Textual here: :func:`attempts_view` turns the store's :class:`~tutor.progress.rows.Attempt` rows into typed,
worded lines in one language (the prediction as it was locked, its confidence, the verdict and score, the figures
measured, what else ran on the machine, the date), oldest first, so a reveal closed with Esc is never lost.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from tutor.content.models import Exercise
from tutor.grading.units import format_value
from tutor.i18n import N_, Lang, t
from tutor.i18n.numbers import format_number, percent
from tutor.practice.reveal import choice_label, describe_prediction, scored_verdict
from tutor.practice.roof_stamp import interference_text
from tutor.progress.rows import Attempt
from tutor.results import device_label


@dataclass(frozen=True)
class AttemptLine:
    """One attempt, worded: every field is plain text in one language (pack text included, shown as plain text)."""

    id: int
    number: int
    """1 for the first attempt of this exercise, 2 for the next…"""
    pass_number: int
    when: str
    prediction: str
    confidence: str
    state: str
    """The attempt's state code: ``locked``, ``graded``, ``failed`` or ``cancelled``."""
    verdict: str | None
    """The verdict's code (``correct``, ``partly``, ``wrong``, ``inconclusive``), None before grading."""
    outcome: str
    """The verdict and score as the learner reads them ("right · score 1.00"), or the state ("not measured")."""
    figures: tuple[str, ...]
    interference: str | None


@dataclass(frozen=True)
class AttemptsView:
    """The attempts of one exercise in one language, oldest first."""

    exercise_id: str
    title: str
    lines: tuple[AttemptLine, ...]
    empty: str
    """What to say when there is no attempt yet."""


def _figures(attempt: Attempt, lang: Lang) -> tuple[str, ...]:
    m = attempt.measurement
    if m is None:
        return ()
    out = []
    rates = [f"{format_number(v, lang, ',.3g')} {unit}" for v, unit in
             ((m.achieved_gbs, "GB/s"), (m.achieved_gflops, "GFLOP/s")) if v is not None]
    if m.time_s is not None:
        rates.insert(0, t("attempts.time", lang, ms=format_number(m.time_s.median * 1e3, lang, ".3g"),
                          cv=format_number(m.time_s.cv * 100, lang, ".1f")))
    if m.arithmetic_intensity is not None:
        rates.append(t("ex.fig.intensity", lang, ai=format_number(m.arithmetic_intensity, lang, ".3g")))
    if rates:
        out.append(" · ".join(rates))
    out.append(t("attempts.device", lang, device=device_label(m.device, "?")))
    return tuple(out)


def _truth(exercise: Exercise, attempt: Attempt, lang: Lang) -> str | None:
    truth = attempt.truth
    if truth is None:
        return None
    parts = [choice_label(exercise, truth.choice, lang) or ""] if truth.choice else []
    if truth.value is not None:
        parts.append(format_value(truth.value, truth.unit, lang))
    shown = " · ".join(p for p in parts if p)
    if not shown:
        return None
    key = "attempts.truth" if attempt.score is not None else "attempts.truth_leaning"
    return t(key, lang, truth=shown)


def _outcome(attempt: Attempt, lang: Lang) -> str:
    if attempt.state == "graded" and attempt.verdict is not None:
        return scored_verdict(attempt.verdict, attempt.score, lang)  # no score: inconclusive, stored, not counted
    key = STATES.get(attempt.state)
    return t(key, lang) if key is not None else attempt.state


#: The words of an attempt's state before (or instead of) a grade, by state code.
STATES = {"locked": N_("attempts.state.locked"), "failed": N_("attempts.state.failed"),
          "cancelled": N_("attempts.state.cancelled")}


def attempts_view(exercise: Exercise, attempts: Sequence[Attempt], lang: Lang) -> AttemptsView:
    """The attempts of ``exercise`` among ``attempts`` (a store's, any order), worded in ``lang``."""
    mine = sorted((a for a in attempts if a.exercise_id == exercise.id), key=lambda a: a.id)
    lines = []
    for number, a in enumerate(mine, start=1):
        unit = a.truth.unit if a.truth is not None and a.truth.unit else exercise.unit
        interference = a.measurement.interference if a.measurement is not None else None
        lines.append(AttemptLine(
            id=a.id, number=number, pass_number=a.pass_number,
            when=time.strftime("%Y-%m-%d %H:%M", time.localtime(a.at)),
            prediction=describe_prediction(exercise, a.prediction, unit, lang),
            confidence=percent(a.confidence * 100, lang),
            state=a.state, verdict=a.verdict if a.state == "graded" else None,
            outcome=_outcome(a, lang),
            figures=tuple(x for x in (_truth(exercise, a, lang), *_figures(a, lang)) if x),
            interference=interference_text(interference, lang) if interference is not None else None,
        ))
    return AttemptsView(exercise.id, t("attempts.title", lang, title=exercise.title.get(lang)), tuple(lines),
                        t("attempts.none", lang))
