"""The exercise flow: validate the prediction, lock it (stored before anything runs), measure, resolve the truth,
grade, store. The measurement is a callable injected by the caller: the UI passes the warm worker process, the CLI
``run_request`` in-process; tests pass a fake.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tutor.content.models import Exercise
from tutor.grading import (
    GradingError,
    Prediction,
    ResolvedTruth,
    TruthError,
    Verdict,
    fill,
    flatten,
    grade,
    resolve_truth,
)
from tutor.grading.explain import condition_holds
from tutor.i18n import LANGS, Lang, as_lang, format_bytes, format_number, t
from tutor.i18n.message import Message
from tutor.measure.decode_sizing import cache_source_text, decode_roof_text
from tutor.progress.passes import require_pass2_open
from tutor.progress.store import StoreBase
from tutor.results import Measurement, ResultError
from tutor.results.wire import JsonObject
from tutor.telemetry.sampler import WindowSummary, windows_to_json

OnProgress = Callable[[float, Message], None]
OnQueue = Callable[[int], None]
"""``on_queue(n)``: ``n`` learners are ahead of this measurement for the device (0: it has the device)."""
MeasureFn = Callable[[JsonObject, OnProgress | None, threading.Event | None], JsonObject]
"""``measure(request, on_progress, cancel_event) -> result``; raises MeasureCancelled / MeasureFailed / …

The process boundary: request and result are the JSON the worker's pipe carries; the runner reads the result into
a :class:`~tutor.results.Measurement` as soon as it arrives."""
TelemetryWindow = Callable[[float, float], Mapping[str, WindowSummary] | None]
"""``window(t0, t1)`` → the telemetry window summary per device, or None."""

class AttemptFailed(Exception):
    """The locked attempt could not be graded: the measurement failed or was cancelled, or the truth could not be
    resolved. The prediction stays stored, marked with ``state`` and the reason."""

    def __init__(self, reason: str, state: str = "failed", code: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.state = state
        self.code = code or ("cancelled" if state == "cancelled" else "failed")

    def message(self, lang: str) -> str:
        """The reason worded for the learner in ``lang`` (:func:`tutor.practice.failures.failure_text`)."""
        from tutor.practice.failures import failure_text

        return failure_text(self.code, self.reason, as_lang(lang))

    text = message


def measure_request(
    exercise: Exercise, device: str = "auto", *, roofline_mode: str | None = None, budget_s: float | None = None
) -> JsonObject | None:
    """The request ``tutor.measure.api.run_request`` takes for this exercise (None when nothing is measured),
    built, validated and bounded by :func:`tutor.measure.plan.build_request`; raises its ``PlanError``."""
    call = exercise.measure
    if call is None or call.op == "doctor":
        return None
    from tutor.measure.plan import build_request

    return build_request(call, device=device, roofline_mode=roofline_mode, budget_s=budget_s).to_wire()


@dataclass(frozen=True)
class Outcome:
    """A graded attempt: everything the reveal shows."""

    attempt_id: int
    exercise: Exercise
    prediction: Prediction
    verdict: Verdict
    measurement: Measurement | None
    """What the attempt keeps of the measurement (:meth:`Measurement.summary`)."""
    telemetry: Mapping[str, WindowSummary] | None
    """The telemetry over the measurement's window, per device (None when none was recorded)."""
    explanation: dict[str, str] = field(default_factory=dict)
    pass_number: int = 1

    @property
    def truth(self) -> ResolvedTruth:
        return self.verdict.truth

    def to_json(self) -> JsonObject:
        v = self.verdict
        return {
            "attempt_id": self.attempt_id,
            "exercise": self.exercise.id,
            "lesson": self.exercise.lesson,
            "kind": self.exercise.kind,
            "pass": self.pass_number,
            "prediction": self.prediction.to_json(),
            "verdict": v.verdict,
            "score": v.score if v.counted else None,
            "counted": v.counted,
            "inconclusive": list(v.truth.inconclusive),
            "truth": v.truth.value if v.truth.value is not None else v.truth.choice,
            "truth_unit": v.truth.unit,
            "truth_choice": v.truth.choice,
            "truth_source": v.truth.source,
            "truth_said": v.truth.said.as_dict() if v.truth.said is not None else None,
            "too_close_to_call": v.truth.too_close,
            "both_count": v.both_count,
            "ratio": v.ratio,
            "feedback": [m.as_dict() for m in v.feedback],
            "explanation": self.explanation,
            "truth_details": v.truth.details,
            "measurement": self.measurement.to_json() if self.measurement is not None else None,
            "telemetry": windows_to_json(self.telemetry) if self.telemetry is not None else None,
        }


def explanation_values(
    measurement: Measurement | None, prediction: Prediction, verdict: Verdict
) -> dict[str, Any]:
    """The flat dict the explanation's placeholders read: the measurement's figures by their dotted JSON names
    (the names a pack writes), plus ``truth``, ``prediction``, ``ratio``, ``score``, ``confidence`` and the
    formula's inputs as ``inputs.<name>``."""
    values: dict[str, Any] = flatten(measurement.to_json() if measurement is not None else {})
    truth = verdict.truth
    values["truth"] = truth.value if truth.value is not None else truth.choice
    values["truth_source"] = truth.source
    values["prediction"] = prediction.value if prediction.value is not None else prediction.choice
    values["choice"] = prediction.choice
    values["ratio"] = verdict.ratio
    values["score"] = verdict.score
    values["confidence"] = prediction.confidence * 100
    values["unit"] = truth.unit
    details = truth.details
    for key, value in flatten(details).items():
        values.setdefault(key, value)
        values[f"truth_details.{key}"] = value
    return values


_SIDE_PLACEHOLDERS = {
    "classification.bound": "side",
    "classification.by_intensity": "side_by_intensity",
    "classification.by_achieved": "side_by_achieved",
}


def explanation_for(exercise: Exercise, values: Mapping[str, Any], verdict: Verdict) -> dict[str, str]:
    """The explanation in each language: the exercise's text, then every ``explanation_when`` paragraph whose
    condition this run's measurement meets, all with their placeholders filled from ``values``."""
    # a side's paragraph says "on your device it landed on …": only when this run decided the side
    side = verdict.truth.choice if exercise.kind == "bound" and not verdict.truth.inconclusive else None
    chosen = [
        v.text
        for v in exercise.explanation_when
        if condition_holds(
            bound=v.when.bound,
            metric=v.when.metric,
            above=v.when.above,
            below=v.when.below,
            values=values,
            side=side,
            too_close=verdict.truth.too_close,
        )
    ]
    out: dict[str, str] = {}
    for lang in LANGS:
        parts = [getattr(t, lang) or t.es or t.en or "" for t in (exercise.explanation, *chosen)]
        body = "\n\n".join(p.strip() for p in parts if p and p.strip())
        if body:
            localized = dict(values)
            # {side}, {side_by_intensity}, {side_by_achieved}: the measured sides in the reader's language (the
            # codes themselves stay in the store and in {classification.*}).
            for key, name in _SIDE_PLACEHOLDERS.items():
                code = values.get(key)
                if code in ("memory", "compute"):
                    localized[name] = t(f"side.{code}", lang)
            notes = [n for n in (roof_note(values, lang), decode_roof_text(values.get, lang)) if n]
            out[lang] = fill(body, localized, lang) + "".join(f"\n\n{n}" for n in notes)
    return out


def roof_note(values: Mapping[str, Any], lang: Lang) -> str | None:
    """Why the measurement sits above a roof, when it does (``roof_check`` of the measurement), in ``lang``."""
    code = values.get("roof_check.code")
    fraction = values.get("roof_check.fraction")
    if code is None:
        return _within_noise_note(values, lang)
    if not isinstance(fraction, int | float):
        return None
    pct = format_number(fraction, lang, ".0%")
    if code == "cache_resident":
        ws, llc = values.get("roof_check.working_set_bytes"), values.get("roof_check.last_level_cache_bytes")
        if not isinstance(ws, int | float) or not isinstance(llc, int | float):
            return None
        return t("roof.cache_resident", lang, fraction=pct, ws=format_bytes(ws, lang), llc=format_bytes(llc, lang),
                 source=cache_source_text(values.get("roof_check.cache_source"), lang))
    if code in ("above_compute_roof", "above_bandwidth_roof") and values.get("roof_check.remeasured"):
        note = t("roof.remeasured", lang, fraction=pct)
        after = values.get("roof_check.fraction_after")
        if values.get("roof_check.still_above") and isinstance(after, int | float):
            note += " " + t("roof.still_above", lang, fraction=format_number(after, lang, ".0%"))
        return note
    return None


def _within_noise_note(values: Mapping[str, Any], lang: Lang) -> str | None:
    """Above a measured roof by less than the noise :func:`tutor.theory.roofline.roof_check` allows: say so, or the
    explanation (written for a kernel below its roof) reads as if 119 % of the roof were nothing to remark on."""
    fractions = [f for f in (values.get("classification.fraction_of_bandwidth_roof"),
                             values.get("classification.fraction_of_compute_roof"))
                 if isinstance(f, int | float) and not isinstance(f, bool) and f > 1.0]
    if not fractions:
        return None
    cv, roof_cv = values.get("time_s.cv"), values.get("roofline.bandwidth_cv")
    if not isinstance(cv, int | float) or isinstance(cv, bool):
        return None
    pct = format_number(max(fractions), lang, ".0%")
    if isinstance(roof_cv, int | float) and not isinstance(roof_cv, bool):
        return t("roof.within_noise", lang, fraction=pct, cv=format_number(cv, lang, ".1%"),
                 roof_cv=format_number(roof_cv, lang, ".1%"))
    return t("roof.within_noise_run", lang, fraction=pct, cv=format_number(cv, lang, ".1%"))


class ExerciseRunner:
    """Runs attempts of exercises against one progress store."""

    def __init__(
        self,
        store: StoreBase,
        measure: MeasureFn | None = None,
        *,
        telemetry_window: TelemetryWindow | None = None,
    ) -> None:
        self.store = store
        self._measure = measure
        self._telemetry_window = telemetry_window

    def lock(self, exercise: Exercise, prediction: Prediction, *, pass_number: int = 1, hints_used: int = 0,
             fingerprint: str | None = None) -> int:
        """Store the prediction before anything is measured; returns the attempt id.

        Pass 2 opens only once pass 1 was attempted: :class:`~tutor.progress.passes.PassClosed` otherwise."""
        if pass_number > 1:
            require_pass2_open(exercise.id, self.store.attempts(exercise.id))
        from tutor.practice import unfinished

        attempt_id = self.store.lock_prediction(
            exercise_id=exercise.id,
            lesson_id=exercise.lesson,
            prediction=prediction.to_json(),
            confidence=prediction.confidence,
            hints_used=hints_used,
            pass_number=pass_number,
            fingerprint=fingerprint,
        )
        unfinished.hold(self.store, attempt_id)  # until graded or failed; a killed process leaves it unfinished
        return int(attempt_id)

    def measure(
        self,
        exercise: Exercise,
        attempt_id: int,
        *,
        device: str = "auto",
        on_progress: OnProgress | None = None,
        cancel: threading.Event | None = None,
        roofline_mode: str | None = None,
        budget_s: float | None = None,
        on_queue: OnQueue | None = None,
    ) -> tuple[Measurement | None, dict[str, WindowSummary] | None]:
        """Run the exercise's measurement under the device's lease; ``(measurement, telemetry window)``. The
        measurement keeps the lease (held or not, acquired and released at) as its ``lease`` figure. In a class,
        ``on_queue(n)`` hears how many learners are ahead while this one waits; ``cancel`` also ends the wait.
        A failure or cancellation marks the attempt and raises :class:`AttemptFailed`."""
        from tutor.measure.errors import WorkloadError
        from tutor.practice.failures import classify
        from tutor.progress.lease import LeaseCancelled, lease_device
        from tutor.progress.store_errors import StoreError

        try:
            request = measure_request(exercise, device, roofline_mode=roofline_mode, budget_s=budget_s)
        except WorkloadError as exc:  # the pack asks for more than the caps allow, or for no such thing
            self._fail(attempt_id, str(exc), "failed")
        if request is None:
            return None, None
        if self._measure is None:
            self._fail(attempt_id, "no measurement engine is available", "failed")
        assert self._measure is not None
        t0 = time.time()
        try:
            with self.store.lease(lease_device(device), on_queue=on_queue,
                                  cancelled=cancel.is_set if cancel is not None else None) as lease:
                t0 = time.time()
                wire = self._measure(request, on_progress, cancel)
            result = Measurement.from_json(wire, "the measurement's result").with_figures(lease=lease.to_json())
        except ResultError as exc:  # the engine answered something that is not a measurement
            self._fail(attempt_id, str(exc), "failed")
        except LeaseCancelled:
            self._fail(attempt_id, "cancelled while waiting for the device", "cancelled")
        except StoreError as exc:
            self._fail(attempt_id, f"the device's lease could not be taken: {exc}", "failed")
        except (Exception, KeyboardInterrupt) as exc:  # an engine bug, Ctrl-C: the attempt is still marked
            failure = classify(exc)
            self._fail(attempt_id, failure.detail, failure.state, failure.code)
        t1 = time.time()
        telemetry = None
        if self._telemetry_window is not None:
            try:
                window = self._telemetry_window(t0, t1)
                telemetry = dict(window) if window else None
            except Exception:  # telemetry is a bonus, never a reason to lose the attempt
                telemetry = None
        return result, telemetry

    def grade(
        self,
        exercise: Exercise,
        attempt_id: int,
        prediction: Prediction,
        result: Measurement | None,
        telemetry: Mapping[str, WindowSummary] | None = None,
        *,
        pass_number: int = 1,
    ) -> Outcome:
        """Resolve the truth, grade, and store the grade (one transaction)."""
        summary = result.summary() if result is not None else None
        try:
            truth = resolve_truth(exercise, summary)
            verdict = grade(exercise, prediction, truth)
        except (TruthError, GradingError) as exc:
            self._fail(attempt_id, str(exc), "failed")
        values = explanation_values(summary, prediction, verdict)
        explanation = explanation_for(exercise, values, verdict)
        stored = (summary.with_figures(telemetry=windows_to_json(telemetry)) if summary is not None and telemetry
                  else summary)
        fingerprint = summary.device.fingerprint if summary is not None and summary.device is not None else None
        self.store.record_grade(
            attempt_id,
            measurement=stored.to_json() if stored is not None else None,
            truth=verdict.to_json(),
            verdict=verdict.verdict,
            score=verdict.score if verdict.counted else None,  # an inconclusive run grades nobody
            fingerprint=fingerprint,
        )
        from tutor.practice import unfinished

        unfinished.release(self.store, attempt_id)
        return Outcome(attempt_id, exercise, prediction, verdict, summary, dict(telemetry) if telemetry else None,
                       explanation, pass_number)

    def run(
        self,
        exercise: Exercise,
        prediction: Prediction,
        *,
        pass_number: int = 1,
        hints_used: int = 0,
        device: str = "auto",
        on_progress: OnProgress | None = None,
        cancel: threading.Event | None = None,
        roofline_mode: str | None = None,
        budget_s: float | None = None,
        on_queue: OnQueue | None = None,
    ) -> Outcome:
        """The whole flow for an already-validated prediction."""
        attempt_id = self.lock(exercise, prediction, pass_number=pass_number, hints_used=hints_used)
        result, telemetry = self.measure(exercise, attempt_id, device=device, on_progress=on_progress,
                                         cancel=cancel, roofline_mode=roofline_mode, budget_s=budget_s,
                                         on_queue=on_queue)
        return self.grade(exercise, attempt_id, prediction, result, telemetry, pass_number=pass_number)

    def _fail(self, attempt_id: int, reason: str, state: str, code: str | None = None) -> Any:
        from tutor.practice import unfinished

        self.store.record_failure(attempt_id, state=state, reason=reason)
        unfinished.release(self.store, attempt_id)
        raise AttemptFailed(reason, state, code)
