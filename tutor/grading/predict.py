"""Reading a learner's prediction: the choices each kind offers, and validation of a typed answer."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from tutor.content.models import Choice, Exercise, Text
from tutor.grading.verdict import CONFIDENCE_MAX, CONFIDENCE_MIN, Prediction, confidence_floor
from tutor.i18n.message import Message, Param
from tutor.untrusted import clean_line

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

#: Other spellings of the built-in choices, in both languages: a Spanish learner types ``memoria`` or ``no cabe``
#: (words and spaces are read alike: ``no cabe`` is ``no_cabe``).
_ALIASES = {"memory-bound": "memory", "memory_bound": "memory", "compute-bound": "compute",
            "compute_bound": "compute", "does-not-fit": "does_not_fit", "doesnt_fit": "does_not_fit",
            "no_fit": "does_not_fit", "fit": "fits",
            "memoria": "memory", "limitado_por_memoria": "memory", "ancho_de_banda": "memory",
            "cómputo": "compute", "computo": "compute", "limitado_por_cómputo": "compute",
            "limitado_por_computo": "compute", "cabe": "fits", "no_cabe": "does_not_fit",
            "does_not_fits": "does_not_fit"}


def _alias_key(text: str) -> str:
    return re.sub(r"[\s-]+", "_", text.strip().lower())


class PredictionError(ValueError):
    """A prediction that cannot be accepted (not a number, out of range, not a choice). One line: ``said`` in the
    learner's language (:meth:`describe`), its English rendering as ``str()``."""

    def __init__(self, code: str, **params: Param) -> None:
        self.said = Message.of(code, **params)
        super().__init__(self.said.render("en"))

    def describe(self, lang: str) -> str:
        return self.said.render(lang)


def _typed(text: object) -> str:
    """What the learner typed, as a message parameter: one line, no control characters, at most 40 characters."""
    return clean_line(text)[:40]


def choices_of(exercise: Exercise) -> tuple[Choice, ...]:
    """The choices a learner picks from: built in for ``bound`` and ``fit``, from the YAML for ``diagnose``."""
    if exercise.kind == "diagnose":
        return tuple(exercise.choices)
    return BUILTIN_CHOICES.get(exercise.kind, ())


MAX_MAGNITUDE = 1e30
"""A prediction's size, either way (1e-30 … 1e30 in the exercise's unit): past it, a number is a typo or an attack
(a subnormal 5e-324, 1e308), not a guess about a machine."""

_NUMBER = re.compile(r"^([-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?)\s*(.*)$", re.DOTALL)


@dataclass(frozen=True)
class Quantity:
    """A number as the learner typed it and as it is graded: ``14000 MB`` is ``value`` 14 in ``unit`` GB, read
    from ``typed`` 14000 ``typed_unit`` MB (``typed_unit`` None when no unit was written)."""

    value: float
    unit: str | None
    typed: float
    typed_unit: str | None

    @property
    def converted(self) -> bool:
        return self.typed_unit is not None and self.typed_unit != self.unit


def parse_number(text: str) -> float:
    """A finite number from ``text`` (``38.2``, ``1e3``, ``1,5`` as a decimal comma); a unit after it must be
    absent (see :func:`parse_quantity` for one that is read)."""
    quantity = parse_quantity(text, None)
    return quantity.value


def parse_quantity(text: str, unit: str | None) -> Quantity:
    """A number and the unit written after it, converted to ``unit`` (``14000 MB`` → 14 GB): a unit of another
    dimension, or one the table does not know (``14 furlongs``), is refused with the units that are accepted.
    With ``unit`` None, no unit may be written."""
    from tutor.grading import units

    cleaned = text.strip().replace("_", "")
    m = _NUMBER.match(cleaned)
    if m is None:
        raise PredictionError("predict.not_number", text=_typed(text))
    number, written = m.group(1), m.group(2).strip()
    if "," in number and "." not in number:
        number = number.replace(",", ".")
    try:
        value = float(number.replace(",", ""))
    except ValueError:
        raise PredictionError("predict.not_number", text=_typed(text)) from None
    if not math.isfinite(value):
        raise PredictionError("predict.not_finite", text=_typed(text))
    read: str | None = None
    if written:
        read = units.typed_unit(written, unit) if unit is not None else None
        if read is None and unit is not None and written.casefold() == unit.casefold():
            read = unit  # a unit outside the table (a lab's own), written as it is named
        if read is None:
            accepted = (units.units_like(unit) or [unit]) if unit is not None else []
            if not accepted:
                raise PredictionError("predict.no_unit_here", unit=_typed(written))
            raise PredictionError("predict.unknown_unit", unit=_typed(written), units=", ".join(accepted),
                                  default=unit or "")
    graded = units.convert(value, read, unit) if read is not None and unit is not None and read != unit else value
    if not math.isfinite(graded) or (graded != 0 and not 1 / MAX_MAGNITUDE <= abs(graded) <= MAX_MAGNITUDE):
        raise PredictionError("predict.out_of_scale", text=_typed(text), low="1e-30", high="1e30",
                              unit=f" {unit}" if unit else "")
    return Quantity(value=graded, unit=unit, typed=value, typed_unit=read)


def unit_read(exercise: Exercise, text: str) -> Message | None:
    """What the learner's number was read as when a unit was written and converted (``14000 MB`` → ``14 GB``),
    for the lock and the reveal to say; None when nothing was converted (or it is not a number exercise)."""
    if exercise.kind != "number" or exercise.unit is None:
        return None
    try:
        quantity = parse_quantity(text, exercise.unit)
    except PredictionError:
        return None
    if not quantity.converted:
        return None
    return Message.of("predict.read_as", typed=quantity.typed, typed_unit=quantity.typed_unit or "",
                      value=quantity.value, unit=exercise.unit)


def confidence_floor_of(exercise: Exercise) -> float:
    """The lowest confidence ``exercise`` takes: 1/options for a choice among three or more, else 50 %
    (:func:`~tutor.grading.verdict.confidence_floor`)."""
    return confidence_floor(None if exercise.kind == "number" else len(choices_of(exercise)))


def parse_confidence(value: str | float | None, floor: float = CONFIDENCE_MIN) -> float:
    """Confidence as a fraction in [``floor``, 1.0]; accepts ``0.8``, ``80`` or ``80%``."""
    low = round(floor * 100)
    if value is None:
        return 0.8
    if isinstance(value, str):
        text = value.strip().rstrip("%").strip()
        try:
            number = float(text.replace(",", "."))
        except ValueError:
            raise PredictionError("predict.confidence_not_number", text=_typed(value), low=low) from None
    else:
        number = float(value)
    if not math.isfinite(number):
        raise PredictionError("predict.confidence_not_finite", low=low)
    if number > 1.0:
        number /= 100.0
    if not floor - 1e-9 <= number <= CONFIDENCE_MAX + 1e-9:
        raise PredictionError("predict.confidence_outside", text=_typed(value), low=low)
    return round(min(max(number, floor), CONFIDENCE_MAX), 4)


def _check_range(exercise: Exercise, value: float) -> None:
    if exercise.range is not None:
        low, high = exercise.range
        if not low <= value <= high:
            raise PredictionError("predict.outside_range", value=value, low=low, high=high,
                                  unit=f" {exercise.unit}" if exercise.unit else "")
    elif value <= 0:
        raise PredictionError("predict.not_positive", value=value)


def parse_prediction(
    exercise: Exercise, text: str, confidence: str | float | None = None, gb: str | float | None = None
) -> Prediction:
    """Validate a typed prediction for ``exercise``.

    ``number``: a number in the exercise's unit. Choice kinds: a choice id (see :func:`choices_of`). ``fit`` also
    takes the GB it predicts, either as ``gb`` or written after the choice (``does_not_fit:40`` or
    ``does_not_fit 40``); a bare number for a fit exercise is the size, and the choice follows from the capacity.
    """
    conf = parse_confidence(confidence, confidence_floor_of(exercise))
    raw = (text or "").strip()
    if not raw:
        raise PredictionError("predict.empty")
    if exercise.kind == "number":
        value = parse_quantity(raw, exercise.unit).value
        _check_range(exercise, value)
        return Prediction(value=value, confidence=conf)
    size: float | None = None
    choice_text = raw
    if exercise.kind == "fit":
        if re.match(r"^[-+.,\d]", raw):  # a size alone ("40", "40000 MB"): the choice follows from the capacity
            size = parse_quantity(raw, "GB").value
            assert exercise.capacity_gb is not None
            choice_text = "fits" if size <= exercise.capacity_gb else "does_not_fit"
        elif sized := re.match(r"^(.*?)[:=@\s]+([-+]?[.,]?\d.*)$", raw, re.DOTALL):  # words, then the size
            choice_text, size = sized.group(1), parse_quantity(sized.group(2), "GB").value
        if gb is not None and gb != "":
            size = parse_quantity(str(gb), "GB").value
        if size is not None and size <= 0:
            raise PredictionError("predict.size_not_positive", value=size)
    ids = [c.id for c in choices_of(exercise)]
    choice = choice_text.strip().lower()
    if choice not in ids:
        key = _alias_key(choice)
        choice = {_alias_key(i): i for i in ids}.get(key) or _ALIASES.get(key, choice)
    if choice not in ids:
        raise PredictionError("predict.not_a_choice", text=_typed(choice_text), choices=", ".join(ids))
    return Prediction(choice=choice, value=size, confidence=conf)
