"""The figures each measurement op produces, declared once so a lesson pack can be checked before anything runs.

A ``truth.metric`` or a ``"measured:<path>"`` formula input names a figure of the run's result by a dotted path
(``achieved_gbs``, ``time_s.median``, ``points.3.gbs``). :func:`path_problem` tells whether the op an exercise
runs produces that path, so ``tutor lessons check`` reports a misspelt or missing figure at its key instead of the
exercise failing after measuring. ``tests/test_outputs.py`` runs every op for real (small, on the CPU) and checks
that every declared path is in the result, so the declarations cannot drift from the engine.

Paths are dotted; a segment in angle brackets is a slot: ``<i>`` a list index (bounded by the number of points
the sweep makes with these parameters, when that is known), ``<dtype>`` an element type, any other ``<name>`` a
key whose allowed values :func:`path_problem` computes from the parameters (``batches.<batch>`` of decode).
Only numbers that every run of the op produces are declared (a figure that exists on one kind of device only says
so in :data:`DEVICE_NOTES`). Importable without torch.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from typing import Any

ROOF_DTYPES = ("float32", "float64", "bfloat16", "float16", "tfloat32")

# The measured roofline, as the "roofline" op returns it and as the ops that judge against it embed it.
_ROOF = (
    "peak_bandwidth_gbs",
    "peak_gflops.<dtype>",
    "peak_tflops.<dtype>",
    "ridge_flops_per_byte.<dtype>",
    "ridge_point",
    "duration_s",
    "measured_at",
    "physical_limits.cores",
    "physical_limits.ghz",
    "physical_limits.ghz_reported",
    "physical_limits.flops_per_cycle.<dtype>",
    "physical_limits.nominal_gflops.<dtype>", "physical_limits.theoretical_gflops.<dtype>",
    "physical_limits.clock_raise", "physical_limits.measured_fraction.<dtype>",
    "physical_limits.gflops.<dtype>",
    "physical_limits.bandwidth_gbs",
)
# Figures only some devices produce (the check accepts them; the run may still lack them elsewhere).
DEVICE_NOTES: dict[str, str] = {
    "physical_limits.cores": "CPU only",
    "physical_limits.ghz": "CPU only",
    "physical_limits.ghz_reported": "CPU only",
    "physical_limits.flops_per_cycle.<dtype>": "CPU only",
    "physical_limits.nominal_gflops.<dtype>": "CPU, when the OS reports no maximum clock",
    "physical_limits.gflops.<dtype>": "a known GPU, or a CPU whose maximum clock the OS reports",
    "physical_limits.bandwidth_gbs": "a known GPU only",
    "physical_limits.theoretical_gflops.<dtype>": "a CPU whose clock the OS reports, or a known GPU",
    "physical_limits.measured_fraction.<dtype>": "a CPU whose clock the OS reports, or a known GPU",
    "physical_limits.clock_raise": "CPU only",
    "peak_gflops.<dtype>": "float32 always; float64 and bfloat16 on a CPU (quick), float16 in full mode; "
    "tfloat32, bfloat16 and float16 on a GPU",
}
_OPTIONAL = frozenset(DEVICE_NOTES) - {"peak_gflops.<dtype>"}

_TIME = tuple(f"time_s.{k}" for k in ("median", "min", "max", "mean", "cv", "repeats", "inner"))
_CLASSIFICATION = tuple(
    f"classification.{k}"
    for k in ("ridge_flops_per_byte", "arithmetic_intensity", "fraction_of_bandwidth_roof",
              "fraction_of_compute_roof", "attainable_gflops", "fraction_of_attainable", "band_factor")
)

_WORKLOAD = (
    "flops", "bytes", "arithmetic_intensity", *_TIME, "achieved_gbs", "achieved_gflops", "best_gbs",
    "best_gflops", "working_set_bytes", "params.<param>", *_CLASSIFICATION, *(f"roofline.{p}" for p in _ROOF),
)

_DECODE_BATCH = ("tokens_per_s", "tokens_per_s_best_step", "median_step_s", "cv", "timed_steps", "bytes_per_step",
                 "bytes_per_token", "bound_tokens_per_s", "dram_bound_tokens_per_s", "fraction_of_bound", "threads",
                 "batch")
_DECODE = (
    "tokens_per_s", "bound_tokens_per_s", "cv", "bandwidth_gbs", "n_params", "weights_bytes_per_step",
    "prompt_tokens", "decode_steps", *(f"batches.<batch>.{k}" for k in _DECODE_BATCH),
    # the larger batch whatever the mode; the roof that feeds the weights (tutor.measure.decode_sizing)
    *(f"big_batch.{k}" for k in _DECODE_BATCH), "big_batch_gain", "dram_bandwidth_gbs", "dram_bound_tokens_per_s",
    "feeding.bandwidth_gbs", "feeding.weights_bytes", "feeding.last_level_cache_bytes", "feeding.llc_multiple",
    "feeding.dram_bandwidth_gbs",
)
_GAP_PARTS = ("fixed", "bandwidth", "extra_bytes", "residual")
_DECODE_GAP = (
    "prompt_tokens", "decode_steps", "rounds", "peak_bandwidth_gbs", "roof_bandwidth_gbs", "stream_copy_gbs",
    "roof.bandwidth_gbs", "roof.over_stream_copy", "fit.fixed_ms", "fit.intercept_ms",
    "fit.effective_bandwidth_gbs", "fit.r2", "reference.n_params", "reference.weights_bytes", "reference.kv_bytes",
    "reference.step_ms", "gap.measured_step_ms", "gap.bound_step_ms", "gap.gap_ms", "gap.measured_tokens_per_s",
    "gap.bound_tokens_per_s", "gap.fraction_of_bound", "gap.achieved_bandwidth_pct", "gap.extra_bytes_pct",
    *(f"gap.{p}_ms" for p in _GAP_PARTS), *(f"gap.{p}_share_pct" for p in _GAP_PARTS),
    "cache.largest_bytes_per_step", "cache.last_level_cache_bytes", "cache.largest_to_llc_pct", "threads",
    *(f"sizes.<i>.{k}" for k in ("n_params", "weights_bytes", "kv_bytes", "bytes_per_step", "step_ms",
                                 "step_ms_median", "step_ms_min", "cv", "timed_steps", "tokens_per_s")),
)
_DECODE_GAP_DEVICE = {
    "cache.last_level_cache_bytes": "CPU only",
    "cache.largest_to_llc_pct": "CPU only",
    "threads": "CPU only",
}
_TRAIN = (
    "n_params", "batch", "seq_len", "tokens_per_step", "flops_per_step", "flops_per_token", "six_n_flops_per_token",
    "tokens_per_s", "tokens_per_s_median", "cv", "repeats", "achieved_gflops", "peak_gflops",
    "fraction_of_measured_peak", "mfu", "theoretical_gflops",
)
_TRAIN_DEVICE = {
    "mfu": "a device whose theoretical peak is known (a GPU in the spec table; a CPU whose clock the OS reports)",
    "theoretical_gflops": "a device whose theoretical peak is known",
}
_VRAM = (
    "formula_gb", "formula_gb_parts.<part>", "total_bytes", "total_gb", "context_bytes", "batch", "seq_len",
    "capacity_gb", "measured_over_formula", "extrapolated_bytes", "formula_total_gb", "formula_total_bytes",
    "peak_allocated_bytes", "peak_reserved_bytes",
)
_VRAM_DEVICE = {
    "measured_over_formula": "CPU only (small-scale run extrapolated)",
    "extrapolated_bytes": "CPU only",
    "formula_total_gb": "CPU only",
    "formula_total_bytes": "CPU only",
    "peak_allocated_bytes": "GPU only",
    "peak_reserved_bytes": "GPU only",
}
_BENCH = (
    "duration_s", "headline.peak_bandwidth_gbs", "headline.peak_flops_tflops.<dtype>",
    "headline.ridge_flops_per_byte", "headline.decode_tokens_per_s", "headline.decode_bound_tokens_per_s",
    "headline.train_tokens_per_s", "cv.peak_bandwidth_gbs", "cv.decode_tokens_per_s",
    "cv.train_tokens_per_s", *(f"roofline.{p}" for p in _ROOF if p not in ("duration_s", "measured_at")),
)
_SWEEPS: dict[str, tuple[str, ...]] = {
    "working_set": ("points.<i>.working_set_bytes", "points.<i>.gbs", "points.<i>.time_per_call_s", "points.<i>.cv",
                    "points.<i>.inner", "caches.last_level"),
    "gemm_sizes": ("points.<i>.n", "points.<i>.gflops", "points.<i>.time_s", "points.<i>.cv",
                   "points.<i>.arithmetic_intensity"),
    "naive_vs_numpy": ("points.<i>.n", "points.<i>.time_s", "points.<i>.gflops", "speedup.<n>"),
    "gemm_share": ("points.<i>.tokens_per_step", "points.<i>.batch", "points.<i>.gemm_pct", "points.<i>.total_s"),
    "roofline_points": ("points.<i>.arithmetic_intensity", "points.<i>.gflops", "points.<i>.gbs",
                        "points.<i>.time_s", *(f"roofline.{p}" for p in _ROOF)),
}
_DECODE_MODE_BIG_BATCH = {"tiny": 4, "quick": 8, "full": 16}


def declared(op: str, name: str | None = None) -> tuple[str, ...]:
    """The output paths op ``op`` (sweep ``name``) declares; empty for an op that produces no figures."""
    if op == "workload":
        return _WORKLOAD
    if op == "roofline":
        return _ROOF
    if op == "sweep":
        return _SWEEPS.get(name or "", ())
    if op == "vram":
        return _VRAM
    if op == "decode":
        return _DECODE
    if op == "decode_gap":
        return _DECODE_GAP
    if op == "train_step":
        return _TRAIN
    if op == "bench":
        return _BENCH
    return ()


def device_note(op: str, pattern: str) -> str | None:
    """Which devices produce ``pattern`` when not all of them do."""
    if op == "vram":
        return _VRAM_DEVICE.get(pattern)
    if op == "train_step" and pattern in _TRAIN_DEVICE:
        return _TRAIN_DEVICE[pattern]
    if op == "decode_gap" and pattern in _DECODE_GAP_DEVICE:
        return _DECODE_GAP_DEVICE[pattern]
    for prefix in ("roofline.", ""):
        if pattern.startswith(prefix) and pattern[len(prefix):] in DEVICE_NOTES:
            return DEVICE_NOTES[pattern[len(prefix):]]
    return None


def optional(op: str, pattern: str) -> bool:
    """Whether a run on some device may lack ``pattern`` (the tests accept its absence on the CPU)."""
    if op == "vram":
        return pattern in _VRAM_DEVICE
    if op == "train_step" and pattern in _TRAIN_DEVICE:
        return True
    if op == "decode_gap" and pattern in _DECODE_GAP_DEVICE:
        return True
    return any(pattern == p or pattern == f"roofline.{p}" for p in _OPTIONAL)


# -- how many points / which keys, from the parameters ----------------------------------------------------------


def sweep_points(name: str, params: Mapping[str, Any]) -> int | None:
    """How many points sweep ``name`` makes with (validated) ``params``; None when it is not known in advance."""
    if name == "working_set":
        lo, hi = params["min_kib"] * 2**10, params["max_mib"] * 2**20
        elem = 4 if params["dtype"] == "float32" else 8
        count = max(2, round(math.log2(hi / lo) * params["points_per_octave"]) + 1)
        return len({int(lo * (hi / lo) ** (i / (count - 1))) // (2 * elem) * 2 * elem for i in range(count)})
    if name == "gemm_sizes":
        lo, hi, count = params["min_n"], max(params["min_n"], params["max_n"]), params["points"]
        return len({round(lo * (hi / lo) ** (i / max(1, count - 1))) for i in range(count)})
    if name == "naive_vs_numpy":
        return 2 * len(naive_sizes(params["max_n"]))
    if name == "gemm_share":
        return len([b for b in (1, 2, 4, 8, 16) if b <= params["max_batch"]] or [1])
    if name == "roofline_points":
        return 9
    return None


def naive_sizes(max_n: int) -> list[int]:
    """The N of the naive-vs-numpy sweep: 8, 16, 32, … up to ``max_n``."""
    sizes, n = [], 8
    while n <= max_n:
        sizes.append(n)
        n *= 2
    return sizes


def _slots(op: str, name: str | None, params: Mapping[str, Any], mode: str | None
           ) -> dict[str, Callable[[], Collection[str] | None]]:
    """For each slot of this op: the values it may take with these parameters (None: any key)."""
    slots: dict[str, Callable[[], Collection[str] | None]] = {
        "dtype": lambda: ROOF_DTYPES,
        "param": lambda: tuple(k for k, v in params.items() if isinstance(v, int | float)),
        "part": lambda: ("weights", "kv_cache", "prefill_working", "weights_grads_adam", "activations", "total"),
    }
    if op == "decode":
        big = _DECODE_MODE_BIG_BATCH.get(mode or "quick", 8)
        slots["batch"] = lambda: ("1", str(big))
    if op == "decode_gap":
        slots["i"] = lambda: ("0", "1", "2")
    if op == "sweep" and name is not None:
        count = sweep_points(name, params)
        slots["i"] = lambda: None if count is None else tuple(str(i) for i in range(count))
        if name == "naive_vs_numpy":
            slots["n"] = lambda: tuple(str(n) for n in naive_sizes(params["max_n"]))
    return slots


def _match(pattern: str, path: str) -> tuple[bool, dict[str, str]]:
    p_parts, parts = pattern.split("."), path.split(".")
    if len(p_parts) != len(parts):
        return False, {}
    bound: dict[str, str] = {}
    for want, got in zip(p_parts, parts, strict=True):
        if want.startswith("<") and want.endswith(">"):
            bound[want[1:-1]] = got
        elif want != got:
            return False, {}
    return True, bound


def _show(values: Collection[str]) -> str:
    items = list(values)
    if len(items) > 8:
        return ", ".join(items[:3]) + ", …, " + ", ".join(items[-2:])
    return ", ".join(items)


def path_problem(op: str, name: str | None, params: Mapping[str, Any], path: str,
                 mode: str | None = None) -> str | None:
    """None when op ``op`` (sweep ``name``, validated ``params``) produces figure ``path``; else a one-line reason."""
    what = f"the {name} sweep" if op == "sweep" else f"the {name} workload" if op == "workload" and name else \
        f"the {op} measurement"
    patterns = declared(op, name)
    if not patterns:
        return f"{what} produces no figures to read"
    slots = _slots(op, name, params, mode)
    near: str | None = None
    for pattern in patterns:
        ok, bound = _match(pattern, path)
        if not ok:
            continue
        for slot, value in bound.items():
            allowed = slots.get(slot, lambda: None)()
            if allowed is not None and value not in allowed:
                near = (f"{what} has no {path!r}: {pattern.replace('<', '{').replace('>', '}')} takes "
                        f"{slot} in {_show(allowed)}")
                break
        else:
            return None
    if near is not None:
        return near
    tops = sorted({p.split(".")[0] for p in patterns})
    return f"{what} produces no figure {path!r} (its figures: {', '.join(tops)})"
