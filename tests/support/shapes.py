"""Recorded measurements replayed as if taken on machines of other shapes (issue 26 item 1).

``tests/fixtures/results/every_exercise_small.json`` holds the raw measurement of every bundled exercise, RECORDED
once at the quick check's small sizes (``bench/run_every_exercise.py --small --record …``; its ``recorded`` block
says on which machine, when and under what load). :func:`on_shape` rewrites one recorded workload measurement as
a machine of another shape would have answered it: that shape's roofline (peak bandwidth and matmul peaks, so its
ridge), the achieved rates scaled by the shape's speed, the classification and the roof check computed again by
the same theory functions the engine uses. Everything else (sweeps, decode, the vram figures) is replayed as
recorded. So the explanations are read against several machines' verdicts on every machine that runs the tests,
and never against whatever that machine measures.

The shapes' roofs are figures measured on the two machine kinds of this project (``shared/NOTES.md``), one
datasheet (RTX 5090) and one roof measured under load; they are test inputs, never shown to a learner.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "results" / "every_exercise_small.json"


@dataclass(frozen=True)
class MachineShape:
    """A roof to replay a recording on: peak bandwidth (GB/s), matmul peaks (GFLOP/s per dtype), and how the run
    itself went (``speed``: the achieved rates' factor against what the roof alone would give; ``cv``: the run's
    spread)."""

    name: str
    label: str
    bandwidth_gbs: float
    peak_gflops: dict[str, float] = field(default_factory=dict)
    speed: float = 1.0
    cv: float | None = None
    bandwidth_cv: float | None = None
    load_average: float | None = None
    other_cores: float | None = None
    """Other programs' load while the run measured (2 CPUs), set as its interference reading."""

    @property
    def ridge(self) -> float:
        return self.peak_gflops["float32"] / self.bandwidth_gbs


SHAPES = {
    # Intel Xeon kind: STREAM copy 25.9 GB/s, torch fp32 GEMM 363 GFLOP/s, bf16 1677 (ridge ≈ 14 FLOP/B)
    "xeon-480m": MachineShape("xeon-480m", "Intel Xeon (2 cores, 480 MiB L3)", 25.9,
                              {"float32": 363.0, "bfloat16": 1677.0, "float64": 181.0}),
    # AMD EPYC kind: STREAM copy 76.2 GB/s, torch fp32 GEMM ≈ 147 GFLOP/s (ridge ≈ 1.9 FLOP/B)
    "epyc-32m": MachineShape("epyc-32m", "AMD EPYC (2 cores, 32 MiB L3)", 76.2,
                             {"float32": 147.0, "bfloat16": 294.0, "float64": 73.0}),
    # RTX 5090 datasheet: 1792 GB/s, 104.8 TFLOP/s fp32, 209.5 dense bf16 (ridge ≈ 58 FLOP/B)
    "rtx5090": MachineShape("rtx5090", "NVIDIA GeForce RTX 5090 (datasheet roof)", 1792.0,
                            {"float32": 104_800.0, "bfloat16": 209_500.0, "float64": 1_640.0}),
    # the EPYC kind's roof measured beside two busy loops: bandwidth 20 GB/s, fp32 230 (ridge 11.5), a run at
    # half speed with a 48 % spread
    "noisy-epyc": MachineShape("noisy-epyc", "AMD EPYC under load (roof measured busy)", 20.0,
                               {"float32": 230.0, "bfloat16": 460.0, "float64": 115.0}, speed=0.5, cv=0.48,
                               bandwidth_cv=0.48, load_average=4.9, other_cores=1.8),
}


def load_recording() -> dict[str, Any]:
    """The recording: ``{"recorded": {...where and when...}, "exercises": {id: {"request", "result"}}}``."""
    data = json.loads(RECORDING.read_text(encoding="utf-8"))
    assert "RECORDED" in data["recorded"]["what"]
    return data


def _roofline_on(shape: MachineShape, recorded: dict[str, Any]) -> dict[str, Any]:
    roof = copy.deepcopy(recorded)
    peaks = dict(shape.peak_gflops)
    roof["peak_bandwidth_gbs"] = shape.bandwidth_gbs
    roof["peak_gflops"] = peaks
    roof["peak_tflops"] = {d: g / 1e3 for d, g in peaks.items()}
    roof["ridge_flops_per_byte"] = {d: g / shape.bandwidth_gbs for d, g in peaks.items()}
    roof["ridge_point"] = shape.ridge
    if shape.load_average is not None:
        roof["load_average"] = shape.load_average
    bandwidth = roof.get("bandwidth")
    if isinstance(bandwidth, dict):
        bandwidth["peak_bandwidth_gbs"] = shape.bandwidth_gbs
        if shape.bandwidth_cv is not None:
            bandwidth["cv"] = shape.bandwidth_cv
    roof.pop("physical_limits", None)  # the recording machine's clocks and cores are not the shape's
    if shape.other_cores is not None or (shape.bandwidth_cv or 0.0) > 0.10:  # measured under load: provisional
        from tutor.results import RooflineReference
        from tutor.theory.roofline import provisional_reasons

        if shape.other_cores is not None:
            roof["interference"] = {"seconds": 5.0, "cpus": 2, "other_cores": shape.other_cores}
        roof["provisional"] = provisional_reasons(RooflineReference.from_json(roof, "the shape's roof"))
    return roof


def on_shape(shape: MachineShape, result: dict[str, Any]) -> dict[str, Any]:
    """``result`` (a recorded measurement, as the worker's pipe carries it) as ``shape`` would have measured it."""
    if result.get("kind") != "workload" or not isinstance(result.get("roofline"), dict):
        return result
    from tutor.results import RooflineReference
    from tutor.theory.roofline import classify, roof_check

    out = copy.deepcopy(result)
    old = RooflineReference.from_json(result["roofline"])
    new_roof = _roofline_on(shape, result["roofline"])
    roof = RooflineReference.from_json(new_roof)
    dtype = str(out.get("params", {}).get("dtype", "float32"))
    old_peak, new_peak = old.peak_for(dtype) or 1.0, roof.peak_for(dtype) or 1.0
    # the run as fast against the shape's tighter roof as it was against the recording machine's
    scale = shape.speed * min(shape.bandwidth_gbs / old.peak_bandwidth_gbs, new_peak / old_peak)
    for key in ("achieved_gbs", "achieved_gflops", "best_gbs", "best_gflops"):
        if isinstance(out.get(key), int | float):
            out[key] = float(out[key]) * scale
    for key in ("median", "min", "max", "mean"):
        if isinstance(out.get("time_s", {}).get(key), int | float):
            out["time_s"][key] = float(out["time_s"][key]) / scale
    if shape.cv is not None and isinstance(out.get("time_s"), dict):
        out["time_s"]["cv"] = shape.cv
    cv = float(out.get("time_s", {}).get("cv") or 0.0)
    out["roofline"] = new_roof
    achieved_gflops, achieved_gbs = float(out["achieved_gflops"]), float(out["achieved_gbs"])
    out["classification"] = classify(intensity=float(out["arithmetic_intensity"]), achieved_gflops=achieved_gflops,
                                     achieved_gbs=achieved_gbs, roofline=roof, dtype=dtype).to_json()
    llc = new_roof.get("bandwidth", {}).get("last_level_cache_bytes")
    check = roof_check(achieved_gflops=achieved_gflops, achieved_gbs=achieved_gbs,
                       working_set_bytes=out.get("working_set_bytes"), roofline=roof,
                       last_level_cache_bytes=llc if isinstance(llc, int) else None, dtype=dtype, cv=cv)
    out.pop("roof_check", None)
    if check is not None:
        out["roof_check"] = check.to_json()
    if shape.other_cores is not None:
        out["interference"] = {"seconds": 2.0, "cpus": 2, "other_cores": shape.other_cores, "steal": 0.0,
                               "load_average": shape.load_average, "ghz": None}
    assert math.isfinite(out["classification"]["ridge_flops_per_byte"])
    return out


def replaying(shape: MachineShape | None, recording: dict[str, Any], exercise_id: str) -> Any:
    """A measuring function (the runner's ``MeasureFn``) that answers ``exercise_id``'s request with its
    recorded measurement, on ``shape`` (None: as recorded). A request for another op or workload than the one
    recorded fails: the recording is stale, record it again."""
    entry = recording["exercises"][exercise_id]

    def measure(request: dict[str, Any], on_progress: Any, cancel: Any) -> dict[str, Any]:
        recorded = entry["request"]
        for key in ("op", "name"):
            assert request.get(key) == recorded.get(key), (
                f"{exercise_id}: the recording measured {recorded.get('op')} {recorded.get('name')}, the exercise "
                f"now asks for {request.get('op')} {request.get('name')}: run bench/run_every_exercise.py --small "
                f"--record {RECORDING.relative_to(RECORDING.parents[3])}")
        result = copy.deepcopy(entry["result"])
        return result if shape is None else on_shape(shape, result)

    return measure
