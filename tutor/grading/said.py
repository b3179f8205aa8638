"""What a verdict says, as catalog messages: grading returns codes with parameters, and the UI or the CLI renders
them in the learner's language (``Message.render``), never grading itself.

A feedback sentence is a :class:`~tutor.i18n.message.Message` of the ``grade.*`` catalog; the figures in it are
messages too, so each is written in the reader's language when the sentence is: :class:`FigureSaid` (a value with
its unit, as :func:`tutor.grading.units.format_value` writes it), :class:`RatioSaid` (how far off, or a tolerance),
:class:`JoinedSaid` (reasons in a list), :class:`NumberSaid` (a number with fixed decimals) and :class:`PackSaid` (a
pack's own text, given in both languages); C0's conditions (:mod:`tutor.progress.c0`) use them too. They
are JSON like any message (``as_dict``); :func:`feedback_from_json` reads a stored verdict's feedback back, and
also the older form, the two finished sentences ``{"es": …, "en": …}``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tutor.grading.units import format_value
from tutor.i18n.message import Message, Param
from tutor.i18n.numbers import decimal, percent
from tutor.results.wire import JsonObject

FIGURE = "grade.said.figure"
RATIO = "grade.said.ratio"
JOINED = "grade.said.joined"
PACK = "grade.said.pack"
NUMBER = "grade.said.number"


@dataclass(frozen=True)
class FigureSaid(Message):
    """A figure and its unit (``16,1 GB``, ``1,2 ms``, ``0,17``), in the reader's language."""

    @classmethod
    def of_value(cls, value: float, unit: str | None) -> FigureSaid:
        return cls(FIGURE, (("value", float(value)), ("unit", unit or "")))

    def render(self, lang: str) -> str:
        value, unit = self.param("value"), self.param("unit")
        return format_value(float(value) if isinstance(value, int | float) else math.nan, str(unit or "") or None,
                            lang)


@dataclass(frozen=True)
class RatioSaid(Message):
    """A ratio ≥ 1 read as how far off it is (``off``: a factor from 2× on, a percentage below, ``∞``) or as a
    percentage over 1 (``over``: a tolerance of 1.25 is ``25 %``)."""

    @classmethod
    def off(cls, ratio: float) -> RatioSaid:
        return cls(RATIO, (("ratio", float(ratio)), ("as", "off")))

    @classmethod
    def over(cls, ratio: float) -> RatioSaid:
        return cls(RATIO, (("ratio", float(ratio)), ("as", "over")))

    def render(self, lang: str) -> str:
        raw = self.param("ratio")
        ratio = float(raw) if isinstance(raw, int | float) else math.nan
        if self.param("as") == "off":
            if math.isinf(ratio):
                return "∞"
            if ratio >= 2:
                return f"{decimal(ratio, lang, 2)}×"
        return percent((ratio - 1) * 100, lang)


@dataclass(frozen=True)
class JoinedSaid(Message):
    """Several messages in a list (``; ``), each in the reader's language."""

    @classmethod
    def of_messages(cls, messages: Sequence[Message]) -> JoinedSaid:
        return cls(JOINED, tuple((str(i), m) for i, m in enumerate(messages)))

    def render(self, lang: str) -> str:
        return "; ".join(v.render(lang) if isinstance(v, Message) else str(v) for _, v in self.params)


@dataclass(frozen=True)
class PackSaid(Message):
    """Text a pack gives in both languages (a diagnose choice's label): shown in the reader's, else English."""

    @classmethod
    def of_texts(cls, texts: Mapping[str, str | None]) -> PackSaid:
        return cls(PACK, tuple((lang, text) for lang, text in texts.items() if text))

    def render(self, lang: str) -> str:
        texts = dict(self.params)
        chosen = texts.get(lang) or texts.get("en") or next(iter(texts.values()), "")
        return str(chosen)


@dataclass(frozen=True)
class NumberSaid(Message):
    """A number with a fixed count of decimals in the reader's language (``0,85``), and a suffix (`` %``)."""

    @classmethod
    def decimal(cls, value: float, places: int, suffix: str = "") -> NumberSaid:
        return cls(NUMBER, (("value", float(value)), ("places", int(places)), ("suffix", suffix)))

    def render(self, lang: str) -> str:
        value, places = self.param("value"), self.param("places")
        number = float(value) if isinstance(value, int | float) else math.nan
        return decimal(number, lang, int(places) if isinstance(places, int | float) else 0) + str(
            self.param("suffix") or "")


_KINDS: dict[str, type[Message]] = {FIGURE: FigureSaid, RATIO: RatioSaid, JOINED: JoinedSaid, PACK: PackSaid,
                                    NUMBER: NumberSaid}


def _typed(message: Message) -> Message:
    """``message`` (read back from JSON as a plain Message) as the kind its code names, nested ones too."""
    params: tuple[tuple[str, Param], ...] = tuple(
        (name, _typed(value) if isinstance(value, Message) else value) for name, value in message.params)
    kind = _KINDS.get(message.code, Message)
    return kind(message.code, params)


def feedback_from_json(data: Any) -> tuple[Message, ...]:
    """A stored verdict's feedback: a list of messages (``as_dict``), or the older two sentences ``{"es", "en"}``
    (kept as they were written); anything else reads as no feedback."""
    if isinstance(data, list):
        read = (Message.from_dict(item) for item in data)
        return tuple(_typed(m) for m in read if m is not None)
    if isinstance(data, Mapping) and all(isinstance(v, str) for v in data.values()) and data:
        return (PackSaid.of_texts({str(k): v for k, v in data.items()}),)
    return ()


def feedback_to_json(feedback: Sequence[Message]) -> list[JsonObject]:
    return [m.as_dict() for m in feedback]
