"""What the progress store hands out: each stored attempt is an :class:`Attempt`, each doctor run a
:class:`DoctorRun` (its lock part a :class:`StackLock`), each lab run a :class:`LabRun` (its result a
:class:`LabResult`), read once at the store's boundary, so no consumer re-guesses a row's shape.

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
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from tutor.grading.verdict import Prediction, ResolvedTruth
from tutor.i18n import Lang, format_number
from tutor.i18n.message import Message
from tutor.results import BenchReport, Device, Measurement, ResultError, RooflineReference
from tutor.results.lock import LockRebuild
from tutor.results.reading import Reader, expected
from tutor.results.wire import JsonObject
from tutor.telemetry.sampler import WindowSummary, windows_from_json

__all__ = [
    "ENTRY_SCHEMA",
    "LEARNER_FIELDS",
    "PASS_SCORE",
    "SECTIONS",
    "Attempt",
    "BenchRun",
    "DoctorRun",
    "LabPrediction",
    "LabResult",
    "LabRun",
    "LockRebuild",
    "NotebookEntry",
    "NotebookNote",
    "PredictionLocked",
    "QuarantinedRow",
    "StackLock",
    "StoreRecovery",
    "StoredEntry",
    "decode_json",
]

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
    damaged_said: Message | None = None
    """Why it could not be read, as a catalog message (:attr:`ResultError.said`), for a report in any language."""
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
            damaged, said = str(exc), exc.said
        try:
            return replace(cls.from_json({**data, "measurement": None, "truth": None}), damaged=damaged,
                           damaged_said=said)
        except ResultError:
            return replace(cls.from_json({**data, "measurement": None, "truth": None, "prediction": None}),
                           damaged=damaged, damaged_said=said)

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
                    raise expected(inner.at("source"), "source", None)
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

    def to_json(self) -> JsonObject:
        """The row with its JSON columns decoded (what :meth:`from_json` reads back)."""
        truth: JsonObject | None = None
        if self.truth is not None or self.ratio is not None or self.extra:
            truth = {**self.extra, "verdict": self.verdict, "score": self.score, "ratio": self.ratio,
                     "truth": self.truth.to_json() if self.truth is not None else None}
        measurement: JsonObject | None = None
        if self.measurement is not None:
            measurement = self.measurement.to_json()
        elif self.error is not None:
            measurement = {"error": self.error}
        out: JsonObject = {
            "id": self.id, "exercise_id": self.exercise_id, "lesson_id": self.lesson_id, "pass": self.pass_number,
            "prediction": self.prediction.to_json(), "confidence": self.confidence, "hints_used": self.hints_used,
            "state": self.state, "measurement": measurement, "truth": truth, "verdict": self.verdict,
            "score": self.score, "fingerprint": self.fingerprint, "created_at": self.created_at,
            "graded_at": self.graded_at,
        }
        if self.learner is not None:
            out["learner"] = self.learner
        return out


def _where(data: Any, noun: str = "attempt") -> str:
    ident = data.get("id") if isinstance(data, Mapping) else None
    return f"{noun} #{ident}" if ident is not None else noun


# -- doctor runs ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StackLock:
    """The environment lock's part of a stored doctor run: written by it, or compared with the environment."""

    written: bool = False
    matches: bool | None = None
    lock_id: str | None = None
    rebuild: LockRebuild | None = None
    differences: tuple[str, ...] = ()
    """The keys that differ (``packages.numpy``)."""
    error: str | None = None

    @classmethod
    def from_json(cls, data: Any, where: str) -> StackLock:
        r = Reader(data, where)
        raw = r.raw("differences")
        if raw is not None and not isinstance(raw, list):
            raise expected(r.at("differences"), "list", raw)
        keys = tuple(str(d.get("key") or "?") if isinstance(d, Mapping) else str(d) for d in raw or ())
        matches = r.raw("matches")
        if matches is not None and not isinstance(matches, bool):
            raise expected(r.at("matches"), "flag_or_null", matches)
        rebuild = r.raw("rebuild")
        return cls(written=r.flag("written"), matches=matches, lock_id=r.opt_text("lock_id"),
                   rebuild=LockRebuild.from_json(rebuild, r.at("rebuild")) if rebuild else None,
                   differences=keys, error=r.opt_text("error"))


@dataclass(frozen=True)
class DoctorRun:
    """One stored ``tutor doctor`` run: whether it passed, its lock part, the process that ran it, and the
    ``--json`` document (what the doctor lab shows and files)."""

    id: int
    passed: bool
    created_at: float
    lock_matches: bool | None = None
    lock: StackLock | None = None
    pid: int | None = None
    report: Mapping[str, Any] = field(default_factory=dict)
    learner: str | None = None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> DoctorRun:
        data = dict(row)
        data["report"] = decode_json(data.get("report"))
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any, where: str | None = None) -> DoctorRun:
        where = where or _where(data, "doctor run")
        r = Reader(data, where)
        report = r.raw("report")
        rep = Reader(report if isinstance(report, Mapping) else {}, f"{where} report")
        lock = rep.raw("lock")
        process = rep.raw("process")
        pid = Reader(process, f"{where} report.process").opt_integer("pid") if isinstance(process, Mapping) else None
        lock_matches = r.raw("lock_matches")
        return cls(id=r.integer("id", 0), passed=bool(r.integer("passed", 0)), created_at=r.number("created_at"),
                   lock_matches=None if lock_matches is None else bool(r.integer("lock_matches", 0)),
                   lock=StackLock.from_json(lock, f"{where} report.lock") if isinstance(lock, Mapping) else None,
                   pid=pid, report=dict(report) if isinstance(report, Mapping) else {}, learner=r.opt_text("learner"))


# -- lab runs ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LabPrediction:
    """What the learner expects, locked before the lab runs (stored with the run)."""

    text: str
    value: float | None = None
    unit: str | None = None
    locked_at: float = field(default_factory=time.time)

    def to_json(self) -> JsonObject:
        out: JsonObject = {"text": self.text, "locked_at": self.locked_at}
        if self.value is not None:
            out["value"] = self.value
            out["unit"] = self.unit
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "prediction") -> LabPrediction:
        r = Reader(data, where)
        return cls(text=r.text("text"), value=r.opt_number("value"), unit=r.opt_text("unit"),
                   locked_at=r.opt_number("locked_at") or 0.0)

    def describe(self, lang: Lang) -> str:
        if self.value is not None:
            return f"{format_number(self.value, lang, '.4g')} {self.unit or ''}".strip()
        return self.text


@dataclass(frozen=True)
class LabResult:
    """What a lab measured: a measurement (a workload, a sweep, a memory or decode run), a bench report, a
    roofline, or the doctor's report (its ``--json`` document, kept as it is). One of the four is set; ``kind``
    says which (a measurement's own kind: ``sweep``, ``workload``, ``vram``…).

    Figures the lab adds to what the engine measured (the device ``lease``, the ``telemetry`` window) travel
    with the member (:meth:`with_figures`), so the stored JSON keeps them where older rows had them: at the
    result's top level."""

    kind: str
    measurement: Measurement | None = None
    bench: BenchReport | None = None
    roofline: RooflineReference | None = None
    doctor: Mapping[str, Any] | None = None

    @classmethod
    def of(cls, member: Measurement | BenchReport | RooflineReference) -> LabResult:
        """The lab result holding ``member``."""
        if isinstance(member, Measurement):
            return cls(member.kind, measurement=member)
        if isinstance(member, BenchReport):
            return cls("bench", bench=member)
        return cls("roofline", roofline=member)

    @classmethod
    def of_doctor(cls, document: Mapping[str, Any]) -> LabResult:
        """The doctor lab's result: the ``tutor doctor --json`` document of the run it recorded."""
        return cls("doctor", doctor=dict(document))

    @property
    def device(self) -> Device | None:
        if self.measurement is not None:
            return self.measurement.device
        if self.bench is not None:
            return self.bench.device
        if self.roofline is not None:
            return self.roofline.device
        return Device.of(self.doctor)

    @property
    def fingerprint(self) -> str | None:
        device = self.device
        return device.fingerprint if device is not None else None

    def _extra(self) -> Mapping[str, Any]:
        if self.measurement is not None:
            vram = self.measurement.vram
            return {**self.measurement.figures, **(vram.to_json() if vram is not None else {})}
        if self.bench is not None:
            return self.bench.extra
        if self.roofline is not None:
            return self.roofline.tables
        return self.doctor or {}

    def figure(self, key: str) -> Any:
        """A figure the lab added (``lease``, ``telemetry``) or the engine sent beyond the member's typed
        fields; None when there is none."""
        return self._extra().get(key)

    @property
    def telemetry(self) -> Mapping[str, WindowSummary]:
        """The telemetry window over the run, per device (empty when none was recorded; a device's window that
        does not read is left out)."""
        return windows_from_json(self.figure("telemetry"))

    def with_figures(self, **figures: Any) -> LabResult:
        """This result with more figures (the device lease, the telemetry window)."""
        if self.measurement is not None:
            return replace(self, measurement=self.measurement.with_figures(**figures))
        if self.bench is not None:
            return replace(self, bench=replace(self.bench, extra={**self.bench.extra, **figures}))
        if self.roofline is not None:
            return replace(self, roofline=replace(self.roofline, tables={**self.roofline.tables, **figures}))
        return replace(self, doctor={**(self.doctor or {}), **figures})

    def to_json(self) -> JsonObject:
        if self.measurement is not None:
            return self.measurement.to_json()
        if self.bench is not None:
            return self.bench.to_json()
        if self.roofline is not None:
            return {"kind": "roofline", **self.roofline.to_json()}
        return dict(self.doctor or {})

    @classmethod
    def from_json(cls, data: Any, where: str = "result") -> LabResult:
        r = Reader(data, where)
        kind = r.text("kind")
        if kind == "bench" or str(r.raw("schema") or "").startswith("gpu-tutor/bench"):
            return cls("bench", bench=BenchReport.from_json(data, where))
        if kind == "roofline":
            return cls("roofline", roofline=RooflineReference.from_json(data, where))
        if not kind and (isinstance(r.raw("checks"), list)
                         or str(r.raw("schema") or "").startswith("gpu-tutor/doctor")):  # the doctor's --json
            return cls("doctor", doctor=dict(r.data))
        m = Measurement.from_json(data, where)
        return cls(m.kind, measurement=m)


@dataclass(frozen=True)
class LabRun:
    """One stored lab run: the locked prediction and the typed result."""

    id: int
    lab_id: str
    lesson_id: str
    result: LabResult | None
    """None when the stored result could not be read (:attr:`damaged` says where)."""
    created_at: float
    prediction: LabPrediction | None = None
    fingerprint: str | None = None
    learner: str | None = None
    damaged: str | None = None
    damaged_said: Message | None = None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> LabRun:
        data = dict(row)
        for key in ("prediction", "result"):
            data[key] = decode_json(data.get(key))
        try:
            return cls.from_json(data)
        except ResultError as exc:
            if not exc.where.startswith(_where(data, "lab run") + " "):
                raise
            return replace(cls.from_json({**data, "result": None, "prediction": None}), damaged=str(exc),
                           damaged_said=exc.said)

    @classmethod
    def from_json(cls, data: Any, where: str | None = None) -> LabRun:
        where = where or _where(data, "lab run")
        r = Reader(data, where)
        result = r.raw("result")
        prediction = r.raw("prediction")
        return cls(id=r.integer("id", 0), lab_id=r.text("lab_id"), lesson_id=r.text("lesson_id"),
                   result=LabResult.from_json(result, f"{where} result") if result is not None else None,
                   created_at=r.opt_number("created_at") or 0.0,
                   prediction=LabPrediction.from_json(prediction, f"{where} prediction")
                   if prediction is not None else None,
                   fingerprint=r.opt_text("fingerprint"), learner=r.opt_text("learner"))


# -- bench runs -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchRun:
    """One stored ``tutor bench`` run (C0 evidence): the device it ran on and its typed report, compared with the
    previous run of its mode when it was recorded."""

    id: int
    fingerprint: str
    device_kind: str
    created_at: float
    report: BenchReport | None
    """None when the stored report could not be read (:attr:`damaged` says where): such a run is no evidence."""
    learner: str | None = None
    damaged: str | None = None

    @property
    def mode(self) -> str | None:
        return self.report.mode if self.report is not None else None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> BenchRun:
        """The run in a store row (either engine; the report as text). A report that does not read is left out,
        its located error in :attr:`damaged`; a wrong column raises :class:`ResultError`."""
        data = dict(row)
        data["report"] = decode_json(data.get("report"))
        try:
            return cls.from_json(data)
        except ResultError as exc:
            if not exc.where.startswith(_where(data, "bench run") + " report"):
                raise
            return replace(cls.from_json({**data, "report": None}), damaged=str(exc))

    @classmethod
    def from_json(cls, data: Any, where: str | None = None) -> BenchRun:
        where = where or _where(data, "bench run")
        r = Reader(data, where)
        report = r.raw("report")
        return cls(id=r.integer("id", 0), fingerprint=r.text("fingerprint"), device_kind=r.text("device_kind"),
                   created_at=r.number("created_at"),
                   report=BenchReport.from_json(report, f"{where} report") if report is not None else None,
                   learner=r.opt_text("learner"))


# -- notebook entries -------------------------------------------------------------------------------------------

ENTRY_SCHEMA = "gpu-tutor/notebook/v1"

#: The Lab Notebook template's parts, in order.
SECTIONS: tuple[str, ...] = ("hypothesis", "prediction", "setup", "procedure", "result", "gap", "next_question")

#: The parts the learner writes (the set-up and the result come from the run).
LEARNER_FIELDS: tuple[str, ...] = ("hypothesis", "prediction", "procedure", "gap", "next_question")


class PredictionLocked(ValueError):
    """The course rule "predict first": an entry's prediction was fixed when its run started; a later thought is
    a dated note beside it (:meth:`NotebookEntry.with_note`), never an edit."""


@dataclass(frozen=True)
class NotebookNote:
    """A thought the learner added to an entry later (after the result): dated, kept in order, never edited."""

    at: float
    text: str

    @classmethod
    def from_json(cls, data: Any, where: str) -> NotebookNote:
        r = Reader(data, where)
        return cls(at=r.number("at"), text=r.text("text"))


@dataclass
class NotebookEntry:
    """One Lab Notebook entry (one lab run); the store keeps it as the JSON of :meth:`to_dict`."""

    lab_id: str
    lesson_id: str = ""
    title: str = ""
    lab_run_id: int | None = None
    created_at: float = field(default_factory=time.time)
    hypothesis: str = ""
    prediction: str = ""
    setup: str = ""
    procedure: str = ""
    result: str = ""
    gap: str = ""
    next_question: str = ""
    device: str = ""
    fingerprint: str | None = None
    notes: tuple[NotebookNote, ...] = ()

    def to_dict(self) -> JsonObject:
        data = asdict(self)
        data["notes"] = [asdict(n) for n in self.notes]
        return {"schema": ENTRY_SCHEMA, **data}

    @property
    def prediction_locked(self) -> bool:
        """Whether the prediction is fixed: the entry was filed for a run (a measurement started), so whatever
        it says, or leaves empty, was the prediction before the result."""
        return self.lab_run_id is not None or bool(self.result.strip())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], **defaults: Any) -> NotebookEntry:
        """Build an entry from stored JSON; unknown keys are ignored, missing ones take ``defaults``; a text part
        stored as another type is read as its text (older entries)."""
        return cls.from_json(data, "notebook entry", **defaults)

    @classmethod
    def from_json(cls, data: Any, where: str, **defaults: Any) -> NotebookEntry:
        """The entry in ``data`` (:meth:`to_dict`'s JSON), missing parts from ``defaults``. Raises
        :class:`ResultError` naming the field when it is not an object, or its run id or date is not a number."""
        r = Reader(data, where)
        known = {f.name for f in fields(cls)}
        values = {**defaults, **{k: v for k, v in r.data.items() if k in known}}
        for name in (*SECTIONS, "title", "lesson_id", "device", "lab_id"):
            if values.get(name) is None:
                values[name] = ""
            elif not isinstance(values[name], str):
                values[name] = str(values[name])
        checked = Reader(values, where)
        values["lab_run_id"] = checked.opt_integer("lab_run_id")
        values["created_at"] = checked.opt_number("created_at") or defaults.get("created_at") or time.time()
        values["fingerprint"] = checked.opt_text("fingerprint")
        raw_notes = values.get("notes")
        if raw_notes is None:
            raw_notes = ()
        if not isinstance(raw_notes, list | tuple):
            raise expected(f"{where}.notes", "list", raw_notes)
        values["notes"] = tuple(NotebookNote.from_json(n, f"{where}.notes[{i}]") for i, n in enumerate(raw_notes))
        return cls(**values)

    def with_fields(self, **changes: str) -> NotebookEntry:
        """A copy with some learner-written parts changed (the set-up and result cannot be, nor a locked
        prediction: :class:`PredictionLocked`)."""
        bad = [k for k in changes if k not in LEARNER_FIELDS]
        if bad:
            raise ValueError(f"{bad[0]!r} is not a part the learner writes ({', '.join(LEARNER_FIELDS)})")
        if self.prediction_locked and "prediction" in changes and changes["prediction"] != self.prediction:
            raise PredictionLocked("the prediction was locked when the run started")
        data: dict[str, Any] = dict(changes)
        return replace(self, **data)

    def with_note(self, text: str, *, at: float | None = None) -> NotebookEntry:
        """A copy with one more dated note at the end (the notes before it are kept as they are)."""
        note = NotebookNote(at=time.time() if at is None else at, text=text)
        return replace(self, notes=(*self.notes, note))


@dataclass(frozen=True)
class StoredEntry:
    """A notebook entry as the store holds it: its row id, the entry, the lab run it was filed for (the row's
    link, emptied when that run is gone), and — read from a class store — the learner who wrote it."""

    id: int
    entry: NotebookEntry
    updated_at: float | None = None
    lab_run_id: int | None = None
    learner: str | None = None
    damaged: str | None = None
    """The located error of a stored entry that could not be read (its parts are then empty)."""

    @property
    def at(self) -> float:
        """When it was last written."""
        return self.updated_at if self.updated_at is not None else self.entry.created_at

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> StoredEntry:
        """The entry in a store row (either engine; the entry as text). An entry that does not read keeps its row
        (lab, dates) with empty parts and its located error in :attr:`damaged`."""
        data = dict(row)
        r = Reader(data, _where(data, "notebook entry"))
        ident = r.integer("id", 0)
        lab_id, lab_run_id = r.text("lab_id"), r.opt_integer("lab_run_id")
        created_at = r.opt_number("created_at") or time.time()
        damaged = None
        try:
            entry = NotebookEntry.from_json(decode_json(r.raw("entry")), f"{r.where} entry", lab_id=lab_id,
                                            lab_run_id=lab_run_id, created_at=created_at)
        except ResultError as exc:
            entry, damaged = NotebookEntry(lab_id, lab_run_id=lab_run_id, created_at=created_at), str(exc)
        return cls(id=ident, entry=entry, updated_at=r.opt_number("updated_at"), lab_run_id=lab_run_id,
                   learner=r.opt_text("learner"), damaged=damaged)


# -- the store's own log ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoreRecovery:
    """A corrupt store file this store replaced: where the damaged file was moved, why, and when (and when the
    learner was told, once acknowledged)."""

    id: int
    backup_path: str
    reason: str
    recovered_at: float
    acknowledged_at: float | None = None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> StoreRecovery:
        r = Reader(dict(row), _where(row, "recovery"))
        return cls(id=r.integer("id", 0), backup_path=r.text("backup_path"), reason=r.text("reason"),
                   recovered_at=r.number("recovered_at"), acknowledged_at=r.opt_number("acknowledged_at"))


@dataclass(frozen=True)
class QuarantinedRow:
    """A row an upgrade found out of range: its table and the row as the JSON object of its SQL literals, kept
    out of every report."""

    id: int
    source_table: str
    row: str
    """The row's JSON text, as stored (read it with :func:`decode_json`)."""
    quarantined_at: float

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> QuarantinedRow:
        r = Reader(dict(row), _where(row, "quarantined row"))
        return cls(id=r.integer("id", 0), source_table=r.text("source_table"), row=r.text("row"),
                   quarantined_at=r.number("quarantined_at"))
