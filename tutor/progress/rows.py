"""What the progress store hands out: each stored attempt is an :class:`Attempt`, read once at the store's
boundary, so no consumer re-guesses a row's shape.

A row comes out of either engine (SQLite or PostgreSQL) as a mapping whose JSON columns are still text;
:meth:`Attempt.from_row` decodes them and :meth:`Attempt.from_json` reads the decoded row (the form an export or a
test fixture holds). Old rows read: every column a row of schema 1 lacks gets its default, and the measurement an
attempt stored in any released shape reads through :meth:`Measurement.from_json`. A malformed row raises
:class:`~tutor.results.ResultError` naming the field (``attempt #3 measurement.time_s.median: expected a number,
got str 'fast'``); the store keeps such a row readable (its measurement left out, the error in
:attr:`Attempt.damaged`) so one bad row never stops a report.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tutor.grading.verdict import Prediction, ResolvedTruth
from tutor.i18n.message import Message
from tutor.results import Device, Measurement, ResultError
from tutor.results.reading import Reader

__all__ = ["PASS_SCORE", "Attempt", "decode_json"]

PASS_SCORE = 0.7
"""A graded attempt passes once it scores at least this (the one pass mark)."""


def decode_json(text: Any) -> Any:
    """A JSON column's value: text decoded (None when it is not JSON: a value another program wrote is shown as
    missing rather than crashing every report); a value already decoded passes through."""
    if not isinstance(text, str | bytes):
        return text
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


@dataclass(frozen=True)
class Attempt:
    """One attempt of an exercise: the locked prediction, then (once measured) the measurement and the grade."""

    id: int
    exercise_id: str
    lesson_id: str
    pass_number: int
    prediction: Prediction
    """The locked answer (choice and/or number) with its confidence."""
    confidence: float
    hints_used: int
    state: str
    """``locked`` (predicted, not measured yet), ``graded``, ``failed`` or ``cancelled``."""
    created_at: float
    measurement: Measurement | None = None
    """What was measured (the summary an attempt keeps), or None before it was or when it failed."""
    error: str | None = None
    """Why a failed or cancelled attempt stopped."""
    truth: ResolvedTruth | None = None
    ratio: float | None = None
    """The verdict's ratio of the predicted number to the truth (number kinds)."""
    verdict: str | None = None
    score: float | None = None
    fingerprint: str | None = None
    graded_at: float | None = None
    learner: str | None = None
    """The learner who made it (a class's PostgreSQL store; None alone)."""
    damaged: str | None = None
    """The located error of a stored measurement or truth that could not be read (left out of the attempt)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """The verdict's other stored fields (feedback…), as stored."""

    # -- what consumers ask ---------------------------------------------------------------------------------

    @property
    def graded(self) -> bool:
        return self.state == "graded" and self.score is not None

    @property
    def passed(self) -> bool:
        """Graded and scored at least :data:`PASS_SCORE`."""
        return self.graded and self.score is not None and self.score >= PASS_SCORE

    @property
    def at(self) -> float:
        """When it was graded (or locked, if never graded)."""
        return self.graded_at if self.graded_at is not None else self.created_at

    @property
    def device(self) -> Device | None:
        return self.measurement.device if self.measurement is not None else None

    @property
    def device_kind(self) -> str | None:
        """``cpu`` or ``cuda`` when the measurement named its device."""
        device = self.device
        return device.kind or None if device is not None else None

    @property
    def choice(self) -> str | None:
        return self.prediction.choice

    # -- reading and writing -----------------------------------------------------------------------------------

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Attempt:
        """The attempt in a store row (either engine; JSON columns as text). A measurement or truth that does not
        read is left out and its located error kept in :attr:`damaged`; a wrong column raises
        :class:`ResultError`."""
        data = dict(row)
        for key in ("prediction", "measurement", "truth"):
            data[key] = decode_json(data.get(key))
        try:
            return cls.from_json(data)
        except ResultError as exc:
            if not exc.where.startswith(_where(data) + " "):
                raise  # a column of the wrong type: the store's CHECK rules make this another program's row
            damaged = str(exc)
        try:
            return replace(cls.from_json({**data, "measurement": None, "truth": None}), damaged=damaged)
        except ResultError:
            return replace(cls.from_json({**data, "measurement": None, "truth": None, "prediction": None}),
                           damaged=damaged)

    @classmethod
    def from_json(cls, data: Any, where: str | None = None) -> Attempt:
        """The attempt in a decoded row (an export's, a fixture's). Raises :class:`ResultError` naming the field
        of a malformed one (``attempt #3 measurement.time_s.median: …``)."""
        where = where or _where(data)
        r = Reader(data, where)
        raw_prediction = r.raw("prediction")
        p = Reader(raw_prediction if isinstance(raw_prediction, Mapping) else {}, f"{where} prediction")
        confidence = r.opt_number("confidence")
        prediction = Prediction(choice=p.opt_text("choice"), value=p.opt_number("value"),
                                confidence=confidence if confidence is not None else p.opt_number("confidence") or 0.8)
        raw_m = r.raw("measurement")
        measurement, error = None, None
        if isinstance(raw_m, Mapping) and set(raw_m) == {"error"}:
            error = str(raw_m["error"])
        elif raw_m is not None:
            measurement = Measurement.from_json(raw_m, f"{where} measurement")
        truth, ratio, extra = None, None, {}
        raw_t = r.raw("truth")
        if raw_t is not None:
            t = Reader(raw_t, f"{where} truth")
            ratio = t.opt_number("ratio")
            t.raw("verdict")
            t.raw("score")
            if t.has("truth"):
                inner = Reader(t.raw("truth"), f"{where} truth.truth")
                said = Message.from_dict(inner.raw("said"))
                if said is None and not inner.has("source"):
                    raise ResultError(inner.at("source"), "expected where the truth came from, got nothing")
                truth = ResolvedTruth(source=inner.text("source"), value=inner.opt_number("value"),
                                      unit=inner.opt_text("unit"), choice=inner.opt_text("choice"),
                                      too_close=inner.flag("too_close"), details=inner.mapping("details"),
                                      said=said)
            extra = t.rest()
        return cls(
            id=r.integer("id", 0), exercise_id=r.text("exercise_id"), lesson_id=r.text("lesson_id"),
            pass_number=r.integer("pass", 1) or 1, prediction=prediction, confidence=prediction.confidence,
            hints_used=r.integer("hints_used", 0), state=r.text("state", "locked"),
            created_at=r.opt_number("created_at") or 0.0, measurement=measurement, error=error, truth=truth,
            ratio=ratio, verdict=r.opt_text("verdict"), score=r.opt_number("score"),
            fingerprint=r.opt_text("fingerprint"), graded_at=r.opt_number("graded_at"),
            learner=r.opt_text("learner"), extra=extra,
        )

    def to_json(self) -> dict[str, Any]:
        """The row with its JSON columns decoded (what :meth:`from_json` reads back)."""
        truth: dict[str, Any] | None = None
        if self.truth is not None or self.ratio is not None or self.extra:
            truth = {**self.extra, "verdict": self.verdict, "score": self.score, "ratio": self.ratio,
                     "truth": self.truth.to_json() if self.truth is not None else None}
        measurement: dict[str, Any] | None = None
        if self.measurement is not None:
            measurement = self.measurement.to_json()
        elif self.error is not None:
            measurement = {"error": self.error}
        out: dict[str, Any] = {
            "id": self.id, "exercise_id": self.exercise_id, "lesson_id": self.lesson_id, "pass": self.pass_number,
            "prediction": self.prediction.to_json(), "confidence": self.confidence, "hints_used": self.hints_used,
            "state": self.state, "measurement": measurement, "truth": truth, "verdict": self.verdict,
            "score": self.score, "fingerprint": self.fingerprint, "created_at": self.created_at,
            "graded_at": self.graded_at,
        }
        if self.learner is not None:
            out["learner"] = self.learner
        return out


def _where(data: Any) -> str:
    ident = data.get("id") if isinstance(data, Mapping) else None
    return f"attempt #{ident}" if ident is not None else "attempt"

