"""Where the truth comes from: this run's measurement, or a formula the lesson teaches applied to measured inputs.

Pure Python: the formulas and the roofline classification live in :mod:`tutor.theory.formulas` and
:mod:`tutor.theory.roofline` (the theory room); grading never imports the measurement engine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from tutor.content.models import Exercise
from tutor.grading.units import UnitError, convert, unit_of_formula_result, unit_of_metric
from tutor.grading.verdict import ResolvedTruth
from tutor.results import device_label

MEASURED_PREFIX = "measured:"


class TruthError(ValueError):
    """The truth cannot be resolved from this run (a missing figure, a bad formula input). One line."""


def lookup(data: Any, path: str) -> Any:
    """Follow a dotted path through nested dicts (plain keys only; digits index lists)."""
    node = data
    for part in path.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise TruthError(f"the measurement has no figure {path!r}")
    return node


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


def resolve_truth(exercise: Exercise, measurement: Mapping[str, Any] | None) -> ResolvedTruth:
    """The right answer for ``exercise`` given this run's ``measurement`` (None when nothing was measured)."""
    if exercise.kind == "diagnose":
        return ResolvedTruth(source="the exercise's answer key", choice=exercise.answer)
    if exercise.kind == "bound":
        return _bound_truth(exercise, measurement or {})
    truth = exercise.truth
    if truth is None:
        raise TruthError("the exercise names no truth")
    target = _target_unit(exercise)
    if truth.source == "measurement":
        if measurement is None:
            raise TruthError("nothing was measured")
        metric = truth.metric or ""
        if exercise.kind == "fit" and metric == "total_gb" and "extrapolated_bytes" in measurement:
            return _cpu_fit_truth(measurement, target)
        raw = _number(lookup(measurement, metric), f"the measured {metric}")
        value = _to_target(raw, unit_of_metric(metric), target, metric)
        label = measurement.get("label")
        source = f"measured on {device_label(measurement)}"
        if isinstance(label, str) and label and "measured on" not in label:
            source += f" — {label}"
        return ResolvedTruth(
            source=source,
            value=value,
            unit=target,
            details={"metric": metric, "raw": raw, "raw_unit": unit_of_metric(metric)},
        )
    return _formula_truth(exercise, measurement, target)


CPU_FIT_SOURCE = (
    "the lesson's formula at full scale (weights, gradients and Adam, activations, context); on a CPU the "
    "small-scale measurement is shown beside it as evidence"
)


def _cpu_fit_truth(measurement: Mapping[str, Any], target: str | None) -> ResolvedTruth:
    """A ``fit`` measured on the CPU: graded against the lesson's formula, the extrapolated measurement beside it.

    The small model runs eager fp32 attention (the S×S scores) and fp32 logits, which the formula's 16-bit
    activation count does not include, so scaled up it overstates the full model; it is evidence, not the key.
    """
    formula_gb = _number(measurement.get("formula_total_gb"), "the formula's total")
    measured_gb = _number(measurement.get("total_gb"), "the extrapolated measurement")
    value = _to_target(formula_gb, "GB", target, "formula_total_gb")
    return ResolvedTruth(
        source=CPU_FIT_SOURCE,
        value=value,
        unit=target,
        details={
            "metric": "formula_total_gb",
            "raw": formula_gb,
            "raw_unit": "GB",
            "measured_extrapolated_gb": measured_gb,
            "measured_over_formula": measurement.get("measured_over_formula"),
        },
    )


def _formula_truth(exercise: Exercise, measurement: Mapping[str, Any] | None, target: str | None) -> ResolvedTruth:
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
    where = "applied to measured inputs" if measured else "applied to the exercise's inputs"
    source = f"formula {truth.formula} {where}"
    if measured:
        source += f" (measured on {device_label(measurement)})"
    return ResolvedTruth(
        source=source,
        value=value,
        unit=target,
        details={"formula": truth.formula, "inputs": inputs, "measured_inputs": measured,
                 "result": result, "result_unit": spec.result_unit, "description": spec.description},
    )


def _bound_truth(exercise: Exercise, m: Mapping[str, Any]) -> ResolvedTruth:
    """Memory or compute from the measured classification, re-banded with the exercise's tolerance."""
    from tutor.theory.roofline import classify

    band_factor = 10 ** exercise.grading.too_close_band
    roofline = m.get("roofline")
    classification: Mapping[str, Any] | None = m.get("classification") if isinstance(m.get("classification"),
                                                                                       Mapping) else None
    intensity = m.get("arithmetic_intensity")
    gflops, gbs = m.get("achieved_gflops"), m.get("achieved_gbs")
    if isinstance(roofline, Mapping) and all(isinstance(x, int | float) for x in (intensity, gflops, gbs)):
        params = m.get("params")
        dtype = str(params.get("dtype", "float32")) if isinstance(params, Mapping) else "float32"
        with suppress(KeyError, TypeError, ValueError, ZeroDivisionError):
            classification = classify(
                intensity=float(intensity),  # type: ignore[arg-type]
                achieved_gflops=float(gflops),  # type: ignore[arg-type]
                achieved_gbs=float(gbs),  # type: ignore[arg-type]
                roofline=dict(roofline),
                dtype=dtype,
                band=band_factor,
            )
    if classification is None or classification.get("bound") not in ("memory", "compute"):
        raise TruthError("the measurement did not classify the workload against the roofline")
    return ResolvedTruth(
        source=f"measured on {device_label(m)}: arithmetic intensity against the measured ridge point",
        choice=str(classification["bound"]),
        too_close=bool(classification.get("too_close_to_call")),
        details={k: v for k, v in classification.items() if isinstance(v, int | float | str | bool) or v is None},
    )


_THIS_MACHINE_ES = {"this machine": "esta máquina"}

#: The sentences ``resolve_truth`` writes as ``source``, in Spanish (the English stays the stored, CLI form).
_SOURCES_ES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"the exercise's answer key"), "la clave de respuestas del ejercicio"),
    (re.compile(r"measured on (?P<device>.*): arithmetic intensity against the measured ridge point"),
     "medido en {device}: intensidad aritmética frente al punto de cresta medido"),
    (re.compile(r"formula (?P<formula>\S+) applied to measured inputs \(measured on (?P<device>.*)\)"),
     "fórmula {formula} aplicada a entradas medidas (medidas en {device})"),
    (re.compile(r"formula (?P<formula>\S+) applied to measured inputs"),
     "fórmula {formula} aplicada a entradas medidas"),
    (re.compile(r"formula (?P<formula>\S+) applied to the exercise's inputs"),
     "fórmula {formula} aplicada a los datos del ejercicio"),
    (re.compile(re.escape(CPU_FIT_SOURCE)),
     "la fórmula de la lección a escala completa (pesos, gradientes y Adam, activaciones, contexto); en una CPU la "
     "medida a escala pequeña se muestra al lado como evidencia"),
    (re.compile(r"measured on (?P<device>.*)"), "medido en {device}"),
)


def source_in(source: str, lang: str) -> str:
    """A truth's ``source`` sentence in ``lang`` (``"es"`` or ``"en"``). ``source`` stays English where it is
    stored and printed (``tutor exercise --json``); a sentence this module did not write is returned as is."""
    if lang != "es":
        return source
    for pattern, template in _SOURCES_ES:
        match = pattern.fullmatch(source)
        if match:
            fields = {k: _THIS_MACHINE_ES.get(v, v) for k, v in match.groupdict().items()}
            return template.format(**fields)
    return source
