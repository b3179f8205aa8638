"""Checks that keep a lesson pack honest about the learner's machine.

When an exercise's truth is measured, the words around it must not decide the answer in advance: a sentence that
says which side of the roofline *the learner's* machine is on belongs in an ``explanation_when`` variant chosen by
what was measured, not in the fixed explanation (which is shown whatever the measurement said).
"""

from __future__ import annotations

import math
import re

from tutor.content.models import Exercise, Lesson
from tutor.i18n.message import Message

# A side of the roofline, in either language.
_SIDE = re.compile(
    r"memory[- ]bound|compute[- ]bound|limitad[oa]s? por (?:la )?(?:memoria|cómputo|ancho de banda)"
    r"|(?:lado|side)\s+(?:de la |del |of the )?(?:memoria|cómputo|memory|compute)",
    re.IGNORECASE,
)
# Words that put the sentence on the learner's own machine (rather than a named GPU or a general rule).
_LEARNER = re.compile(
    r"\b(?:your (?:device|machine|cpu|laptop|computer)|on a cpu|tu (?:dispositivo|máquina|cpu|portátil|ordenador)"
    r"|en una cpu|this machine|esta máquina)\b",
    re.IGNORECASE,
)
LEARNER_WORDS = _LEARNER
"""Words that put a sentence on the learner's own machine (also read by the tests' answer key,
``tests/support/answer_key.py``)."""
# A sentence that fills the side in from the measurement, or states that it depends, does not decide it.
_FOLLOWS = re.compile(r"\{classification\.|\{truth|depend", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]|$)", re.MULTILINE)


def side_assertions(text: str) -> list[str]:
    """Sentences of ``text`` that state a side for the learner's machine without taking it from the measurement."""
    found: list[str] = []
    # Sentences run across the lines of a YAML block; paragraphs and list items do not.
    joined = re.sub(r"(?<!\n)\n(?![\n\-*|#])", " ", text)
    # A decimal point is not the end of a sentence.
    joined = re.sub(r"(\d)\.(\d)", r"\1,\2", joined)
    for match in _SENTENCE.finditer(joined):
        sentence = match.group(0)
        if sentence.rstrip().endswith("?"):  # a question asks, it does not assert
            continue
        if _SIDE.search(sentence) and _LEARNER.search(sentence) and not _FOLLOWS.search(sentence):
            found.append(sentence.strip())
    return found


def explanation_problems(exercise: Exercise) -> list[tuple[tuple[str | int, ...], Message]]:
    """(field path, message) for each fixed text that asserts the measured side in advance."""
    if exercise.kind != "bound" or (exercise.truth is not None and exercise.truth.source != "measurement"):
        return []
    problems: list[tuple[tuple[str | int, ...], Message]] = []
    for lang in ("es", "en"):
        for field in ("explanation", "prompt"):
            text = getattr(getattr(exercise, field), lang) or ""
            for sentence in side_assertions(text):
                short = sentence if len(sentence) <= 90 else sentence[:87] + "…"
                problems.append(((field, lang), Message.of("problem.side_asserted", sentence=repr(short))))
    for i, hint in enumerate(exercise.hints):
        for lang in ("es", "en"):
            for sentence in side_assertions(getattr(hint, lang) or ""):
                short = sentence if len(sentence) <= 90 else sentence[:87] + "…"
                problems.append((("hints", i, lang), Message.of("problem.hint_side_asserted", sentence=repr(short))))
    return problems


def _renderings(value: float) -> set[str]:
    """How a lesson would likely print ``value`` (rounded or truncated, 0–2 decimals, a point or a comma), keeping
    only renderings with three significant digits or more: "0.5" or "15" match too much prose to mean anything."""
    if not math.isfinite(value) or value == 0:
        return set()
    magnitude = abs(value)
    texts = {f"{magnitude:.0f}", str(int(magnitude)), f"{magnitude:.1f}", f"{magnitude:.2f}", f"{magnitude:.3g}"}
    out: set[str] = set()
    for text in texts:
        if "e" in text or len(text.replace(".", "").lstrip("0")) < 3:
            continue
        out.add(text)
        out.add(text.replace(".", ","))
    return out


def given_away(exercise: Exercise, lesson_texts: list[str], truth: float | None) -> str | None:
    """The rendering of the exercise's formula truth (from literal inputs only) found in the lesson's text, if any.

    A truth that needs a measurement is the learner's own and cannot be in the text; a formula applied to literal
    inputs is the same number on every machine, so a worked example with the same inputs gives it away. ``truth`` is
    that number, resolved by the caller (grading resolves truths; content does not import it), or None when it
    could not be resolved.
    """
    if not needs_truth_check(exercise) or truth is None:
        return None
    for rendering in sorted(_renderings(float(truth)), key=len, reverse=True):
        pattern = re.compile(rf"(?<![\d.,]){re.escape(rendering)}(?![\d])")
        for text in lesson_texts:
            if pattern.search(text):
                return rendering
    return None


def needs_truth_check(exercise: Exercise) -> bool:
    """Whether the exercise's truth is a formula of literal inputs (the same number on every machine), the only
    kind :func:`given_away` can find printed in a lesson."""
    truth = exercise.truth
    if truth is None or truth.source != "formula":
        return False
    return not any(isinstance(v, str) and v.startswith("measured:") for v in truth.inputs.values())


def lesson_texts(lesson: Lesson) -> list[str]:
    """Every theory text of ``lesson`` (both languages): what the learner has read before its exercises."""
    texts: list[str] = []
    for section in lesson.sections:
        texts.extend(t for t in (section.body.es, section.body.en) if t)
    return texts
