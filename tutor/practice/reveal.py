"""The reveal as data: what the learner reads after an attempt is graded, in their language, built once for the
exercise screen and for ``tutor exercise run`` (each renders it its own way; neither rewords it).

Pack text (choice labels, titles) and numbers arrive here as plain strings; the screen shows them as plain text.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.content.models import Exercise
from tutor.grading import Prediction, choices_of
from tutor.grading.units import format_value
from tutor.i18n import N_, Lang, format_number, t
from tutor.practice.roof_stamp import interference_text, roof_stamp
from tutor.practice.runner import Outcome
from tutor.results import device_label
from tutor.telemetry.format import describe_window


def verdict_word(verdict: str, lang: Lang) -> str:
    """``correct`` / ``partly`` / ``wrong`` / ``inconclusive`` as the learner reads it."""
    return t(f"verdict.{verdict}", lang) if verdict in ("correct", "partly", "wrong", "inconclusive") else verdict


def scored_verdict(verdict: str, score: float | None, lang: Lang) -> str:
    """The verdict with its score ("right · score 1.00"), or with "not counted" when ``score`` is None (an
    inconclusive run: stored, not counted)."""
    if score is None:
        return f"{verdict_word(verdict, lang)} · {t('ex.not_counted', lang)}"
    return f"{verdict_word(verdict, lang)} · {t('ex.score', lang)} {format_number(score, lang, '.2f')}"


def choice_label(exercise: Exercise, choice: str | None, lang: Lang) -> str | None:
    """A choice id as the learner saw it (its label in ``lang``); an unknown id is shown as it is."""
    if choice is None:
        return None
    return next((c.label.get(lang) for c in choices_of(exercise) if c.id == choice), choice)


def describe_prediction(exercise: Exercise, prediction: Prediction, unit: str | None, lang: Lang) -> str:
    """The prediction as the learner made it: the choice's label in ``lang``, the number in ``lang``'s format."""
    parts = []
    label = choice_label(exercise, prediction.choice, lang)
    if label is not None:
        parts.append(label)
    if prediction.value is not None:
        parts.append(format_value(prediction.value, unit, lang))
    return " · ".join(parts) or "—"


@dataclass(frozen=True)
class RevealField:
    """One labelled line: ``label: text``."""

    label: str
    text: str


@dataclass(frozen=True)
class RevealView:
    """Everything the reveal shows, in one language."""

    verdict: str
    """The verdict's code (``correct`` / ``partly`` / ``wrong``): the screen picks its colour from it."""
    verdict_line: RevealField
    fields: tuple[RevealField, ...]
    feedback: str
    reproduced: str | None
    measured_on: RevealField | None
    figures: tuple[str, ...]
    explanation_title: str
    explanation: str


def build_reveal(outcome: Outcome, lang: Lang, *, first_pass_verdict: str | None = None,
                 reproduced: bool | None = None) -> RevealView:
    """The reveal of ``outcome`` in ``lang``; in pass 2, ``first_pass_verdict`` and ``reproduced`` (the store's
    rule, :attr:`tutor.progress.passes.ExerciseStatus.reproduced`) say whether it reproduced pass 1."""
    v, ex = outcome.verdict, outcome.exercise
    truth = v.truth
    shown_truth = (format_value(truth.value, truth.unit, lang) if truth.value is not None
                   else choice_label(ex, truth.choice, lang) or "—")
    if truth.value is not None and truth.choice:
        shown_truth = f"{choice_label(ex, truth.choice, lang)} ({shown_truth})"
    if not v.counted:  # this run did not decide it: what it leans to, never "the truth"
        shown_truth = t("ex.truth.undecided", lang, leaning=shown_truth)
    p = outcome.prediction
    confidence = format_number(p.confidence * 100, lang, ".0f")
    fields = (
        RevealField(t("ex.prediction", lang), f"{describe_prediction(ex, p, truth.unit, lang)} ({confidence} %)"),
        RevealField(t("ex.truth", lang), f"{shown_truth} — {t('ex.source', lang)}: {truth.source_in(lang)}"),
    )
    reproduced_line = None
    if outcome.pass_number > 1 and first_pass_verdict is not None:
        same = first_pass_verdict == v.verdict if reproduced is None else reproduced
        key = N_("ex.reproduced") if same else N_("ex.not_reproduced")
        reproduced_line = t(key, lang, first=verdict_word(first_pass_verdict, lang))
    measured_on, figures = _figures(outcome, lang)
    explanation = outcome.explanation.get(lang) or next(iter(outcome.explanation.values()), "")
    return RevealView(
        verdict=v.verdict,
        verdict_line=RevealField(t("ex.verdict", lang),
                                 scored_verdict(v.verdict, v.score if v.counted else None, lang)),
        fields=fields,
        feedback=v.feedback_in(lang),
        reproduced=reproduced_line,
        measured_on=measured_on,
        figures=tuple(figures),
        explanation_title=t("ex.explanation", lang),
        explanation=explanation.strip(),
    )


def _figures(outcome: Outcome, lang: Lang) -> tuple[RevealField | None, list[str]]:
    """The measured figures with their spread, the roofs, and the telemetry of the window."""
    m = outcome.measurement
    if m is None:
        return None, []
    measured_on = RevealField(t("ex.measured", lang), device_label(m.device, "?"))
    lines = []
    ts = m.time_s
    if ts is not None:
        lines.append(t("ex.fig.time", lang, median=format_number(ts.median * 1e3, lang, ".3f"),
                       min=format_number(ts.min * 1e3, lang, ".3f"),
                       cv=format_number(ts.cv * 100, lang, ".1f"), runs=ts.repeats))
    rates = []
    best = t("ex.fig.best", lang)
    for value, unit in ((m.achieved_gbs, "GB/s"), (m.achieved_gflops, "GFLOP/s"), (m.best_gbs, f"GB/s {best}"),
                        (m.best_gflops, f"GFLOP/s {best}")):
        if value is not None:
            rates.append(f"{format_number(value, lang, ',.2f')} {unit}")
    if rates:
        lines.append(" · ".join(rates))
    if m.arithmetic_intensity is not None:
        lines.append(t("ex.fig.intensity", lang, ai=format_number(m.arithmetic_intensity, lang, ".3g")))
    cls = m.classification
    if cls is not None:
        fb, fc = cls.fraction_of_bandwidth_roof, cls.fraction_of_compute_roof
        if fb is not None and fc is not None:
            lines.append(t("ex.fig.roofs", lang, bw=format_number(fb * 100, lang, ".0f"),
                           compute=format_number(fc * 100, lang, ".0f")))
    roof = m.roofline
    if roof is not None:
        ridge = roof.ridge_point
        lines.append(t("ex.fig.roofline", lang, bw=format_number(roof.peak_bandwidth_gbs, lang, ",.1f"))
                     + (t("ex.fig.ridge", lang, ridge=format_number(ridge, lang, ".3g")) if ridge is not None else "")
                     + (t("ex.fig.cached", lang) if roof.cached else ""))
        stamp = roof_stamp(roof, lang)
        if stamp:
            lines[-1] += f" — {stamp}"
        sheet = roof.datasheet
        if sheet is not None and sheet.bandwidth_gbs:
            lines.append(t("ex.fig.datasheet", lang, name=sheet.name,
                           bw=format_number(sheet.bandwidth_gbs, lang, ",.0f")))
    busy = interference_text(m.interference, lang)
    if busy:
        lines.append(busy)
    for dev, s in (outcome.telemetry or {}).items():
        line = describe_window(dev, s, lang)
        if line:
            lines.append(t("ex.fig.telemetry", lang, line=line))
    return measured_on, lines


def render_reveal_text(view: RevealView, title: str) -> str:
    """The reveal as plain text (``tutor exercise run``): the same lines the screen shows, in the same order."""
    lines = [title, f"  {view.verdict_line.label}: {view.verdict_line.text}"]
    lines += [f"  {f.label}: {f.text}" for f in view.fields]
    if view.feedback:
        lines.append(f"  {view.feedback}")
    if view.reproduced:
        lines.append(f"  {view.reproduced}")
    if view.measured_on is not None:
        lines.append(f"  {view.measured_on.label}: {view.measured_on.text}")
        lines += [f"    {figure}" for figure in view.figures]
    if view.explanation:
        lines += ["", f"  {view.explanation_title}:"]
        lines += ["  " + line if line else "" for line in view.explanation.splitlines()]
    return "\n".join(lines)
