"""Reading a learner's prediction: the choices each kind offers, and validation of a typed answer."""

from __future__ import annotations

import math
import re

from tutor.content.models import Choice, Exercise, Text
from tutor.grading.verdict import CONFIDENCE_MAX, CONFIDENCE_MIN, Prediction

BUILTIN_CHOICES: dict[str, tuple[Choice, ...]] = {
    "bound": (
        Choice(id="memory", label=Text(es="Limitado por memoria (ancho de banda)", en="Memory-bound (bandwidth)")),
        Choice(id="compute", label=Text(es="Limitado por cómputo (FLOP/s)", en="Compute-bound (FLOP/s)")),
    ),
    "fit": (
        Choice(id="fits", label=Text(es="Cabe", en="Fits")),
        Choice(id="does_not_fit", label=Text(es="No cabe", en="Does not fit")),
    ),
}

_ALIASES = {"memory-bound": "memory", "memory_bound": "memory", "compute-bound": "compute",
            "compute_bound": "compute", "does-not-fit": "does_not_fit", "doesnt_fit": "does_not_fit",
            "no_fit": "does_not_fit", "fit": "fits"}


class PredictionError(ValueError):
    """A prediction that cannot be accepted (not a number, out of range, not a choice). One line."""


def choices_of(exercise: Exercise) -> tuple[Choice, ...]:
    """The choices a learner picks from: built in for ``bound`` and ``fit``, from the YAML for ``diagnose``."""
    if exercise.kind == "diagnose":
        return tuple(exercise.choices)
    return BUILTIN_CHOICES.get(exercise.kind, ())


def parse_number(text: str) -> float:
    """A finite number from ``text`` (``38.2``, ``1e3``, ``1,5`` as a decimal comma, ``38.2 GB/s``)."""
    cleaned = text.strip().replace("_", "")
    m = re.match(r"^([-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z/%×]*)$", cleaned)
    if m is None:
        raise PredictionError(f"{text!r} is not a number")
    number = m.group(1)
    if "," in number and "." not in number:
        number = number.replace(",", ".")
    try:
        value = float(number.replace(",", ""))
    except ValueError:
        raise PredictionError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise PredictionError(f"{text!r} is not a finite number")
    return value


def parse_confidence(value: str | float | None) -> float:
    """Confidence as a fraction in [0.5, 1.0]; accepts ``0.8``, ``80`` or ``80%``."""
    if value is None:
        return 0.8
    if isinstance(value, str):
        text = value.strip().rstrip("%").strip()
        try:
            number = float(text.replace(",", "."))
        except ValueError:
            raise PredictionError(f"confidence {value!r} is not a number (50–100 %)") from None
    else:
        number = float(value)
    if not math.isfinite(number):
        raise PredictionError("confidence must be a finite number (50–100 %)")
    if number > 1.0:
        number /= 100.0
    if not CONFIDENCE_MIN - 1e-9 <= number <= CONFIDENCE_MAX + 1e-9:
        raise PredictionError(f"confidence {value} is outside 50–100 %")
    return round(min(max(number, CONFIDENCE_MIN), CONFIDENCE_MAX), 4)


def _check_range(exercise: Exercise, value: float) -> None:
    if exercise.range is not None:
        low, high = exercise.range
        if not low <= value <= high:
            raise PredictionError(f"{value:g} is outside the accepted range [{low:g}, {high:g}] {exercise.unit or ''}"
                                  .rstrip())
    elif value <= 0:
        raise PredictionError(f"{value:g}: the prediction must be a positive number")


def parse_prediction(
    exercise: Exercise, text: str, confidence: str | float | None = None, gb: str | float | None = None
) -> Prediction:
    """Validate a typed prediction for ``exercise``.

    ``number``: a number in the exercise's unit. Choice kinds: a choice id (see :func:`choices_of`). ``fit`` also
    takes the GB it predicts, either as ``gb`` or written after the choice (``does_not_fit:40`` or
    ``does_not_fit 40``); a bare number for a fit exercise is the size, and the choice follows from the capacity.
    """
    conf = parse_confidence(confidence)
    raw = (text or "").strip()
    if not raw:
        raise PredictionError("the prediction is empty")
    if exercise.kind == "number":
        value = parse_number(raw)
        _check_range(exercise, value)
        return Prediction(value=value, confidence=conf)
    size: float | None = None
    choice_text = raw
    if exercise.kind == "fit":
        parts = re.split(r"[:=@\s]+", raw, maxsplit=1)
        if len(parts) == 2 and parts[1]:
            choice_text, size = parts[0], parse_number(parts[1])
        elif re.match(r"^[-+.,\d]", raw):
            size = parse_number(raw)
            assert exercise.capacity_gb is not None
            choice_text = "fits" if size <= exercise.capacity_gb else "does_not_fit"
        if gb is not None and gb != "":
            size = parse_number(str(gb))
        if size is not None and size <= 0:
            raise PredictionError(f"{size:g} GB: the size must be positive")
    ids = [c.id for c in choices_of(exercise)]
    choice = choice_text.strip().lower()
    choice = _ALIASES.get(choice, choice) if choice not in ids else choice
    if choice not in ids:
        raise PredictionError(f"{choice_text!r} is not one of the choices: {', '.join(ids)}")
    return Prediction(choice=choice, value=size, confidence=conf)
