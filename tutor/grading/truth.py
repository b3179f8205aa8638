"""Where the truth comes from: this run's measurement, or a formula the lesson teaches applied to measured inputs.

Pure Python: the formulas and the roofline classification live in :mod:`tutor.theory.formulas` and
:mod:`tutor.theory.roofline` (the theory room); grading never imports the measurement engine.
"""

from __future__ import annotations

import math
from contextlib import suppress
from typing import Any

from tutor.content.models import Exercise
from tutor.grading import noise
from tutor.grading.units import UnitError, convert, unit_of_formula_result, unit_of_metric
from tutor.grading.verdict import ResolvedTruth
from tutor.i18n import N_
from tutor.i18n.message import Message, Param
from tutor.results import Device, Measurement
from tutor.results.vram import VramFigures

MEASURED_PREFIX = "measured:"


class TruthError(ValueError):
    """The truth cannot be resolved from this run (a missing figure, a bad formula input). One line."""


def lookup(measurement: Measurement, path: str) -> Any:
    """The figure at the dotted ``path`` of ``measurement`` (as the exercise names it); :class:`TruthError` when
    there is none."""
    try:
        return measurement.figure(path)
    except KeyError:
        raise TruthError(f"the measurement has no figure {path!r}") from None


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise TruthError(f"{what} is not a finite number ({value!r})")
    return float(value)


def _target_unit(exercise: Exercise) -> str | None:
    return "GB" if exercise.kind == "fit" else exercise.unit


def _to_target(value: float, unit: str | None, target: str | None, what: str) -> float:
    if unit is None or target is None:
        return value
    try:
        return convert(value, unit, target)
    except UnitError as exc:
        raise TruthError(f"{what}: {exc}") from None


def device_param(device: Device | None) -> Param:
    """The device a truth was measured on, as a message parameter: its label (data, shown as it is), or "this
    machine" in the reader's language when the measurement names none."""
    return device.label() if device is not None else Message.of("truth.this_machine")


def formula_name(formula: str) -> Message:
    """The human name of a registered formula (``formula.<name>.name`` in the catalogs): what it computes and how,
    never its identifier."""
    return Message.of(f"formula.{formula}.name")


#: The labels the measurement engine writes on a measurement (data in a stored attempt), as catalog codes.
_MEASUREMENT_LABELS = {"measured at small scale, extrapolated": N_("truth.label.extrapolated"),
                       "measured on the GPU": N_("truth.label.gpu")}


def measurement_label(label: str) -> Message:
    """A measurement's label (what the engine wrote: ``measured on the GPU``…) as a message; a label this tutor
    did not write is shown as recorded."""
    code = _MEASUREMENT_LABELS.get(label)
    return Message.of(code) if code else Message.verbatim(label)


def resolve_truth(exercise: Exercise, measurement: Measurement | None) -> ResolvedTruth:
    """The right answer for ``exercise`` given this run's ``measurement`` (None when nothing was measured)."""
    if exercise.kind == "diagnose":
        return ResolvedTruth(said=Message.of("truth.answer_key"), choice=exercise.answer)
    if exercise.kind == "bound":
        return _bound_truth(exercise, measurement)
    truth = exercise.truth
    if truth is None:
        raise TruthError("the exercise names no truth")
    target = _target_unit(exercise)
    if truth.source == "measurement":
        if measurement is None:
            raise TruthError("nothing was measured")
        metric = truth.metric or ""
        vram = measurement.vram
        if exercise.kind == "fit" and metric == "total_gb" and vram is not None and vram.extrapolated_bytes is not None:
            return _cpu_fit_truth(vram, target)
        raw = _number(lookup(measurement, metric), f"the measured {metric}")
        value = _to_target(raw, unit_of_metric(metric), target, metric)
        label = measurement.label
        said = Message.of("truth.measured", device=device_param(measurement.device))
        if label and "measured on" not in label:
            said = Message.of("truth.measured_labelled", measured=said, label=measurement_label(label))
        details: dict[str, Any] = {"metric": metric, "raw": raw, "raw_unit": unit_of_metric(metric)}
        spread = noise.spread_of(measurement, metric)
        sigma = None
        if spread is not None:
            sigma = abs(_to_target(spread.sigma(raw), unit_of_metric(metric), target, metric))
            details["spread"] = _spread_details(spread, sigma)
        disturbed = measurement.interference is not None and measurement.interference.busy
        return ResolvedTruth(said=said, value=value, unit=target, details=details, spread=sigma, disturbed=disturbed)
    return _formula_truth(exercise, measurement, target)


def literal_truth(exercise: Exercise) -> float | None:
    """The exercise's truth when no measurement is needed (a formula of literal inputs), or None: what the content
    checker looks for printed in a lesson (:func:`tutor.content.honesty.given_away` takes it as an argument)."""
    try:
        resolved = resolve_truth(exercise, None)
    except (TruthError, ValueError, ArithmeticError):
        return None
    return None if resolved.value is None else float(resolved.value)


def _cpu_fit_truth(vram: VramFigures, target: str | None) -> ResolvedTruth:
    """A ``fit`` measured on the CPU: graded against the lesson's formula, the extrapolated measurement beside it.

    The small model runs eager fp32 attention (the S×S scores) and fp32 logits, which the formula's 16-bit
    activation count does not include, so scaled up it overstates the full model; it is evidence, not the key.
    """
    formula_gb = _number(vram.formula_total_gb, "the formula's total")
    measured_gb = _number(vram.total_gb, "the extrapolated measurement")
    value = _to_target(formula_gb, "GB", target, "formula_total_gb")
    return ResolvedTruth(
        said=Message.of("truth.cpu_fit"),
        value=value,
        unit=target,
        details={
            "metric": "formula_total_gb",
            "raw": formula_gb,
            "raw_unit": "GB",
            "measured_extrapolated_gb": measured_gb,
            "measured_over_formula": vram.measured_over_formula,
        },
    )


def _formula_truth(exercise: Exercise, measurement: Measurement | None, target: str | None) -> ResolvedTruth:
    from tutor.theory.errors import FormulaError
    from tutor.theory.formulas import FORMULAS, evaluate_formula

    truth = exercise.truth
    assert truth is not None and truth.formula is not None
    spec = FORMULAS.get(truth.formula)
    if spec is None:
        raise TruthError(f"unknown formula {truth.formula!r}")
    input_units = {i.name: i.unit for i in spec.inputs}
    inputs: dict[str, Any] = {}
    measured: dict[str, str] = {}
    for name, given in truth.inputs.items():
        if isinstance(given, str) and given.startswith(MEASURED_PREFIX):
            path = given[len(MEASURED_PREFIX):]
            if measurement is None:
                raise TruthError(f"input {name} needs the measurement ({path}), and nothing was measured")
            value = _number(lookup(measurement, path), f"the measured {path}")
            have, want = unit_of_metric(path), unit_of_formula_result(input_units.get(name, ""))
            if have is not None and want is not None and have != want:
                # Different dimensions: the formula's own input unit is authoritative.
                with suppress(UnitError):
                    value = convert(value, have, want)
            inputs[name] = value
            measured[name] = path
        else:
            inputs[name] = given
    try:
        result = evaluate_formula(truth.formula, inputs)
    except FormulaError as exc:
        raise TruthError(str(exc)) from None
    value = _to_target(result, unit_of_formula_result(spec.result_unit), target, f"formula {truth.formula}")
    spreads = [sp for path in measured.values()
               if measurement is not None and (sp := noise.spread_of(measurement, path)) is not None]
    spread = noise.combined(spreads, value)
    sigma = spread.sigma(value) if spread is not None else None
    human = formula_name(truth.formula)
    said = (Message.of("truth.formula_measured", formula=human,
                       device=device_param(measurement.device if measurement else None))
            if measured else Message.of("truth.formula_given", formula=human))
    return ResolvedTruth(
        said=said,
        value=value,
        unit=target,
        details={"formula": truth.formula, "inputs": inputs, "measured_inputs": measured,
                 "result": result, "result_unit": spec.result_unit, "description": spec.description,
                 **({"spread": _spread_details(spread, sigma)} if spread is not None and sigma is not None else {})},
        spread=sigma,
    )


def _spread_details(spread: noise.Spread, sigma: float) -> dict[str, Any]:
    """What the reveal and the store keep of a truth's spread: σ in the truth's unit, relative when known, and
    the recorded figures it came from."""
    return {"sigma": sigma, "relative": spread.relative, "from": list(spread.paths), "sigmas": noise.SIGMAS}


def _bound_truth(exercise: Exercise, m: Measurement | None) -> ResolvedTruth:
    """Memory or compute from the measured classification, re-banded with the exercise's tolerance, and whether
    this run can decide it at all (:func:`inconclusive_reasons`)."""
    from tutor.theory.roofline import classify, ridge_band

    band_factor = 10 ** exercise.grading.too_close_band
    classification = m.classification if m is not None else None
    ridge_cv = m.roofline.ridge_cv(m.dtype) if m is not None and m.roofline is not None else None
    if m is not None and m.roofline is not None and m.arithmetic_intensity is not None \
            and m.achieved_gflops is not None and m.achieved_gbs is not None:
        band_factor = ridge_band(band_factor, ridge_cv)
        with suppress(KeyError, ValueError, ZeroDivisionError):
            classification = classify(
                intensity=m.arithmetic_intensity,
                achieved_gflops=m.achieved_gflops,
                achieved_gbs=m.achieved_gbs,
                roofline=m.roofline,
                dtype=m.dtype,
                band=band_factor,
            )
    if m is None or classification is None or classification.bound not in ("memory", "compute"):
        raise TruthError("the measurement did not classify the workload against the roofline")
    reasons = inconclusive_reasons(m, classification)
    details: dict[str, Any] = {k: v for k, v in classification.to_json().items()
                               if isinstance(v, int | float | str | bool) or v is None}
    if ridge_cv is not None:
        details["ridge_cv"] = ridge_cv
    if m.interference is not None:
        details["other_cores"] = m.interference.other_cores
        details["cpus"] = m.interference.cpus
    return ResolvedTruth(
        said=Message.of("truth.bound", device=device_param(m.device)),
        choice=classification.bound,
        too_close=classification.too_close_to_call,
        details=details,
        inconclusive=tuple(reasons),
    )


def inconclusive_reasons(m: Measurement, classification: Any) -> list[str]:
    """Why this run cannot say memory or compute (issue 26 item 4): the intensity lies within the ridge's band
    (the exercise's, widened to the ridge's own 2σ), the achieved rates point the other way, the roof is
    provisional, or other programs disturbed the run and the intensity is within :data:`DISTURBED_BAND` of the
    ridge. The same prediction on the same machine is then neither
    right nor wrong: it is not counted, and the learner can measure again."""
    reasons = []
    if classification.in_band:
        reasons.append("near_ridge")
    elif classification.too_close_to_call:
        reasons.append("rates_disagree")
    if m.roofline is not None and m.roofline.provisional:
        reasons.append("roof_provisional")
    if m.interference is not None and m.interference.busy and _near(classification, DISTURBED_BAND):
        reasons.append("disturbed")
    return reasons


#: On a disturbed run (a final roof, but other programs took part of the machine while the workload ran) a bound
#: is decided only when the intensity is at least this factor from the ridge: five fresh runs on the busy 2-core
#: EPYC moved the measured ridge 2.4× (2.69–6.53 FLOP/B), and the achieved rates, which the load lowers, must still
#: point the same way. Far from the ridge (a GEMV at 0.5 FLOP/B, a 2048³ GEMM at 340) the answer cannot move, so a
#: learner on a laptop that is never quiet is still graded there.
DISTURBED_BAND = 4.0


def _near(classification: Any, band: float) -> bool:
    intensity, ridge = classification.arithmetic_intensity, classification.ridge_flops_per_byte
    if not intensity or not ridge or intensity <= 0 or ridge <= 0:
        return True
    return abs(math.log(intensity / ridge)) < math.log(band)
