"""What a learner predicted, what the truth turned out to be, and the verdict that compares them."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from tutor.i18n.message import Message
from tutor.results.wire import JsonObject

VerdictWord = Literal["correct", "partly", "wrong", "inconclusive"]
VERDICTS: tuple[VerdictWord, ...] = ("correct", "partly", "wrong", "inconclusive")

BOUND_CHOICES: tuple[str, ...] = ("memory", "compute")
FIT_CHOICES: tuple[str, ...] = ("fits", "does_not_fit")

#: The lowest confidence for a number or a choice between two: below 50 % the learner would believe their own
#: answer less likely right than wrong, and for a number there is no chance level to fall back to (a tolerance band
#: has no "one in N"), so 50 % stays the floor — the point where the Brier score says "no better than a coin".
CONFIDENCE_MIN = 0.5
CONFIDENCE_MAX = 1.0


def confidence_floor(options: int | None = None) -> float:
    """The lowest confidence a prediction may be locked at: chance, 1/``options``, for a choice among three or
    more (in whole per cents, rounded down, so 1/7 is 14 % and the learner can type the floor they are shown);
    :data:`CONFIDENCE_MIN` (50 %) for two options or a number (``options`` None)."""
    if options is None or options <= 2:
        return CONFIDENCE_MIN
    return math.floor(100 / options) / 100


@dataclass(frozen=True)
class Prediction:
    """The learner's locked answer: a choice id and/or a number (in the exercise's unit; GB for ``fit``),
    with a confidence between the exercise's floor (:func:`confidence_floor`) and 1.0."""

    choice: str | None = None
    value: float | None = None
    confidence: float = 0.8

    def to_json(self) -> JsonObject:
        return {"choice": self.choice, "value": self.value, "confidence": self.confidence}

    @classmethod
    def from_json(cls, data: Any, confidence: float | None = None) -> Prediction:
        if not isinstance(data, dict):
            return cls(confidence=confidence or 0.8)
        value = data.get("value")
        return cls(
            choice=data.get("choice"),
            value=float(value) if isinstance(value, int | float) else None,
            confidence=float(confidence if confidence is not None else data.get("confidence", 0.8)),
        )


@dataclass(frozen=True)
class ResolvedTruth:
    """The right answer for this run and where it came from.

    ``value`` is in ``unit`` (the exercise's unit; GB for ``fit``). ``choice`` is the right choice id for the
    choice kinds. ``said`` says where it came from as a catalog message (``truth.measured`` with the device,
    ``truth.formula_measured`` with the formula's human name…), rendered in the reader's language by
    :meth:`source_in`; ``source`` is its English rendering, kept for ``--json`` and the store. ``details`` holds
    the figures behind it (intensity, ridge point, inputs of the formula…), for the reveal.

    Built with ``said``; ``source`` alone (an attempt stored before the codes) is shown as it was recorded.
    """

    source: str = ""
    value: float | None = None
    unit: str | None = None
    choice: str | None = None
    too_close: bool = False
    details: dict[str, Any] = field(default_factory=dict)
    said: Message | None = None
    #: σ of the measured truth in ``unit`` (the measurement's own spread, :mod:`tutor.grading.noise`); None when
    #: the truth is exact (a formula of given numbers, an answer key) or the engine recorded no spread.
    spread: float | None = None
    #: Why this run cannot decide the answer (codes: ``near_ridge``, ``rates_disagree``, ``roof_provisional``,
    #: ``disturbed``); empty when it can. An inconclusive truth grades nobody: the attempt is not counted.
    inconclusive: tuple[str, ...] = ()
    #: Other programs took part of the machine while this measured truth was measured
    #: (:attr:`~tutor.results.Interference.busy`): the figure may be off by the load, so it can confirm an
    #: answer but not call one wrong (:func:`~tutor.grading.kinds.grade_number`).
    disturbed: bool = False

    def __post_init__(self) -> None:
        if self.said is None:
            object.__setattr__(self, "said", Message.verbatim(self.source))
        elif not self.source:
            object.__setattr__(self, "source", self.said.render("en"))

    def source_in(self, lang: str) -> str:
        """Where the truth came from, in ``lang``."""
        return self.said.render(lang) if self.said is not None else self.source

    def to_json(self) -> JsonObject:
        out = asdict(self)
        out["said"] = self.said.as_dict() if self.said is not None else None
        return out

    @classmethod
    def from_json(cls, data: JsonObject) -> ResolvedTruth:
        kept: JsonObject = {k: data[k] for k in ("source", "value", "unit", "choice", "too_close", "details")
                            if k in data}
        reasons = data.get("inconclusive")
        if isinstance(reasons, list | tuple):
            kept["inconclusive"] = tuple(str(r) for r in reasons)
        spread = data.get("spread")
        if isinstance(spread, int | float) and not isinstance(spread, bool) and spread >= 0:
            kept["spread"] = float(spread)
        return cls(**kept, said=Message.from_dict(data.get("said")))


@dataclass(frozen=True)
class Verdict:
    """The grade of one attempt: verdict word, score in [0, 1], feedback (catalog messages: the UI or the CLI
    renders them in the learner's language), and the truth."""

    verdict: VerdictWord
    score: float
    feedback: tuple[Message, ...]
    truth: ResolvedTruth
    ratio: float | None = None
    both_count: bool = False
    #: False for an inconclusive verdict: it counts in neither the score, the calibration nor C0's second pass.
    counted: bool = True

    def feedback_in(self, lang: str) -> str:
        """The feedback's sentences rendered in ``lang``."""
        return " ".join(m.render(lang) for m in self.feedback)

    def to_json(self) -> JsonObject:
        return {
            "verdict": self.verdict,
            "score": self.score,
            "feedback": [m.as_dict() for m in self.feedback],
            "truth": self.truth.to_json(),
            "ratio": self.ratio,
            "both_count": self.both_count,
            "counted": self.counted,
        }
