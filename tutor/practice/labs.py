"""The lab flow, one for the screen and the command line: the learner's prediction (locked before anything runs),
the lab's measurement in the worker process, the run stored, a ``tutor bench`` run compared as C0 evidence, and the
Lab Notebook entry drafted and filed.

The measurement is a callable like the exercise flow's (:data:`tutor.practice.runner.MeasureFn`, plus the
``on_point`` callback that grows a sweep's plot): the UI passes its warm worker, ``tutor lab run`` a worker of its
own, tests a fake. Nothing here imports torch or Textual.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from tutor.content import Lab, Lesson
from tutor.grading.predict import PredictionError, parse_quantity
from tutor.i18n import Lang, t
from tutor.i18n.message import Message
from tutor.progress.notebook import draft_entry, save_entry
from tutor.progress.rows import LabPrediction as LabPrediction  # re-exported: stored with the run
from tutor.progress.rows import LabResult
from tutor.results import BenchComparison, ResultError
from tutor.results.wire import JsonObject

OnProgress = Callable[[float, Message], None]
OnPoint = Callable[[JsonObject], None]


class LabMeasure(Protocol):
    """``measure(request, on_progress=, cancel_event=, on_point=) -> result`` (what :class:`MeasureWorker.run`
    is); raises ``MeasureCancelled`` / ``MeasureFailed`` / ``MeasureError``."""

    def __call__(
        self,
        request: JsonObject,
        *,
        on_progress: OnProgress | None = None,
        cancel_event: threading.Event | None = None,
        on_point: OnPoint | None = None,
    ) -> JsonObject: ...


class LabInputError(ValueError):
    """The learner's prediction cannot be locked; ``str(exc)`` is a sentence in the learner's language."""


def parse_lab_prediction(raw: str, unit: str | None, lang: Lang) -> LabPrediction:
    """The learner's answer, parsed as an exercise's number is (a decimal comma in Spanish, units after the
    number): a positive finite number when the lab names a unit, else non-empty text."""
    text = raw.strip()
    if unit:
        if not text:
            raise LabInputError(t("lab.predict.need_number", lang, unit=unit))
        try:
            value = parse_quantity(text, unit).value  # "150000 MB/s" for a GB/s lab is 150
        except PredictionError as exc:
            if exc.said.code in ("predict.unknown_unit", "predict.out_of_scale"):
                raise LabInputError(exc.describe(lang)) from None
            raise LabInputError(t("lab.predict.need_number", lang, unit=unit)) from None
        if value <= 0:
            raise LabInputError(t("lab.predict.need_positive", lang, unit=unit, text=text))
        return LabPrediction(text=text, value=value, unit=unit)
    if not text:
        raise LabInputError(t("lab.predict.need_text", lang))
    return LabPrediction(text=text)


def lab_request(lab: Lab) -> JsonObject:
    """The request the measurement worker runs for ``lab`` (plain JSON data), built, validated and bounded by
    :func:`tutor.measure.plan.build_request`: the pack's parameters checked against the registry, the options of
    an op without parameters (bench, roofline, decode, …) kept apart from ``op``/``name``, peak memory and
    estimated time within the caps. Raises its ``PlanError`` (a ``WorkloadError``) for a lab that asks for more."""
    call = lab.run
    if call.op == "doctor":
        return {"op": "doctor"}
    from tutor.measure.plan import build_request

    return build_request(call, device=None).to_wire()


@dataclass(frozen=True)
class LabFiled:
    """A finished lab run: what was measured, where it is stored, and its notebook entry."""

    result: LabResult
    lab_run_id: int
    entry_id: int
    bench_comparison: BenchComparison | None = None


class LabRunner:
    """Predict → lock → measure → record → file the notebook entry, for one store."""

    def __init__(self, store: Any, measure: LabMeasure | None = None) -> None:
        self.store = store
        self._measure = measure

    def measure(
        self,
        lab: Lab,
        *,
        on_progress: OnProgress | None = None,
        on_point: OnPoint | None = None,
        cancel_event: threading.Event | None = None,
        on_queue: Callable[[int], None] | None = None,
    ) -> LabResult:
        """Run the lab's measurement under the device's lease (the doctor lab runs ``tutor doctor`` in a child
        process, timing nothing). The worker's JSON is read into a :class:`LabResult` as soon as it arrives (one
        that does not read is a ``MeasureFailed`` naming the field). The result keeps the lease as its ``lease``
        figure; in a class ``on_queue(n)`` hears how many learners are ahead, and ``cancel_event`` also ends the
        wait (:class:`~tutor.progress.lease.LeaseCancelled`)."""
        from tutor.measure.errors import MeasureFailed
        from tutor.progress.lease import lease_device

        request = lab_request(lab)
        cancel = cancel_event or threading.Event()
        if request["op"] == "doctor":
            return self._doctor(cancel)
        if self._measure is None:
            raise RuntimeError("this LabRunner was built without a measurement")
        with self.store.lease(lease_device(str(request.get("device", "auto"))), on_queue=on_queue,
                              cancelled=cancel.is_set) as lease:
            wire = self._measure(request, on_progress=on_progress, cancel_event=cancel, on_point=on_point)
        try:
            result = LabResult.from_json(wire, "the lab's result")
        except ResultError as exc:  # the engine answered something that is not a result
            raise MeasureFailed(str(exc)) from None
        return result.with_figures(lease=lease.to_json())

    def _doctor(self, cancel: threading.Event) -> LabResult:
        """The doctor lab: ``tutor doctor`` in a child process (as the doctor screen runs it), its run recorded in
        this runner's store (the class store too) as C0 evidence; the lab's result is the ``--json`` document."""
        from tutor.doctor.isolated import DoctorUnavailable, run_doctor_isolated
        from tutor.doctor.report import record_doctor_run
        from tutor.measure.errors import MeasureCancelled, MeasureFailed

        try:
            report = run_doctor_isolated("auto", cancel=cancel)
        except DoctorUnavailable as exc:
            if cancel.is_set():
                raise MeasureCancelled("cancelled") from None
            raise MeasureFailed(str(exc)) from None
        return LabResult.of_doctor(record_doctor_run(self.store, report))

    def file(self, lesson: Lesson, lab: Lab, prediction: LabPrediction | None, result: LabResult,
             lang: Lang) -> LabFiled:
        """Store the run (a bench run also as C0 evidence) and file its notebook entry, pre-filled."""
        comparison = None
        if result.bench is not None:
            from tutor.progress.bench_history import record_bench

            report = record_bench(self.store, result.bench)
            result, comparison = LabResult.of(report), report.comparison
        lab_run_id = self.store.record_lab_run(
            lab_id=lab.id, lesson_id=lesson.id, result=result, prediction=prediction
        )
        entry = draft_entry(
            lab_id=lab.id,
            lesson_id=lesson.id,
            title=lab.title.get(lang),
            result=result,
            lang=lang,
            lab_run_id=lab_run_id,
            prediction=prediction,
            prediction_unit=lab.prediction_unit,
            prediction_question=lab_question(lab, lang),
            procedure=lab.procedure.get(lang) if lab.procedure else "",
        )  # hypothesis and next question are the learner's words: the lab's own texts are only their prompts
        entry_id = save_entry(self.store, entry)
        return LabFiled(result=result, lab_run_id=lab_run_id, entry_id=entry_id, bench_comparison=comparison)

    def run(self, lesson: Lesson, lab: Lab, prediction: LabPrediction | None, lang: Lang, *,
            on_progress: OnProgress | None = None, on_point: OnPoint | None = None,
            cancel_event: threading.Event | None = None, on_queue: Callable[[int], None] | None = None) -> LabFiled:
        """The whole lab, headless: measure (under the device's lease), then record and file."""
        result = self.measure(lab, on_progress=on_progress, on_point=on_point, cancel_event=cancel_event,
                              on_queue=on_queue)
        return self.file(lesson, lab, prediction, result, lang)


def lab_question(lab: Lab, lang: Lang) -> str:
    """The question the lab asks before it runs (the lab's own, or the course's default)."""
    if lab.prediction:
        return lab.prediction.get(lang)
    return t("lab.predict.default", lang)
