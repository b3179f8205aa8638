"""The lab sweeps (imports torch). Each point is handed to ``emit`` as soon as it is measured; see
:mod:`tutor.measure.api` for how points stream to the caller."""

from __future__ import annotations

import math
from collections.abc import Callable

from tutor.i18n.message import Message
from tutor.measure import kernels
from tutor.measure.device import cache_sizes
from tutor.measure.phases import said
from tutor.measure.registry import (
    WORKLOADS,
    GemmParams,
    GemmShareParams,
    GemmSizesParams,
    NaiveVsNumpyParams,
    NumpyMatmulParams,
    PythonMatmulParams,
    RooflinePointsParams,
    RowsParams,
    StreamParams,
    WorkingSetParams,
    WorkloadParams,
)
from tutor.measure.roofline import stream_figures
from tutor.measure.timing import CancelCheck, check_cancel, choose_inner, time_callable
from tutor.results.wire import JsonObject

Emit = Callable[[float, JsonObject, Message], None]
"""Hands a point on as soon as it is measured (the worker sends it across its pipe as JSON)."""


def _level(working_set: int, caches: dict[str, int]) -> str:
    for name in sorted(caches):
        if working_set <= caches[name]:
            return name
    return "DRAM"


def working_set(device: str, p: WorkingSetParams, emit: Emit, should_cancel: CancelCheck | None) -> JsonObject:
    """Copy bandwidth vs working-set size (source + destination), from L1 to DRAM."""
    caches = cache_sizes()
    elem = 4 if p.dtype == "float32" else 8
    lo, hi = p.min_kib * 2**10, p.max_mib * 2**20
    count = max(2, round(math.log2(hi / lo) * p.points_per_octave) + 1)
    sizes = sorted({int(lo * (hi / lo) ** (i / (count - 1))) // (2 * elem) * 2 * elem for i in range(count)})
    points = []
    for i, size in enumerate(sizes):
        check_cancel(should_cancel)
        n = max(1, size // (2 * elem))
        params = StreamParams(n=n, dtype=p.dtype)
        fn = kernels.stream_set(("copy",), params, device)["copy"]  # the roof's and the bench's copy
        inner = choose_inner(fn, device)
        stats = time_callable(fn, device, warmup=1, min_repeats=5, max_repeats=15, budget_s=0.15, inner=inner,
                              should_cancel=should_cancel)
        gbs = stream_figures(WORKLOADS["copy"].bytes_fn(params) / 1e9, [stats.times_s]).gbs_best
        point = {"working_set_bytes": 2 * n * elem, "gbs": gbs, "level": _level(2 * n * elem, caches["levels"]),
                 "time_per_call_s": stats.min, "cv": stats.cv, "inner": inner}
        points.append(point)
        emit((i + 1) / len(sizes), point, said("measure.progress.working_set", mib=2 * n * elem / 2**20,
                                                       level=str(point["level"]), gbs=gbs))
        del fn
    return {"points": points, "caches": caches, "x": "working_set_bytes", "y": "gbs",
            "note": "torch copy_ of a source into a destination (the roof's STREAM copy, counted as STREAM counts "
                    "it: 2 words per element, the fastest call's rate); each timed sample repeats the copy enough "
                    "times to last ~2 ms. At the smallest sizes the per-call overhead (~µs) caps the figure."}


def gemm_sizes(device: str, p: GemmSizesParams, emit: Emit, should_cancel: CancelCheck | None) -> JsonObject:
    lo, hi, count = p.min_n, max(p.min_n, p.max_n), p.points
    sizes = sorted({round(lo * (hi / lo) ** (i / max(1, count - 1))) for i in range(count)})
    points = []
    for i, n in enumerate(sizes):
        check_cancel(should_cancel)
        params = GemmParams(m=n, n=n, k=n, dtype=p.dtype)
        fn = kernels.build("gemm", params, device)
        inner = choose_inner(fn, device, target_s=5e-3)
        stats = time_callable(fn, device, warmup=1, min_repeats=3, max_repeats=20, budget_s=0.3, inner=inner,
                              should_cancel=should_cancel)
        flops = WORKLOADS["gemm"].flops_fn(params)
        point = {"n": n, "gflops": flops / stats.min / 1e9, "time_s": stats.min, "cv": stats.cv,
                 "arithmetic_intensity": flops / WORKLOADS["gemm"].bytes_fn(params)}
        points.append(point)
        emit((i + 1) / len(sizes), point, said("measure.progress.gemm_size", n=n, gflops=point["gflops"]))
        del fn
    return {"points": points, "x": "n", "y": "gflops"}


def naive_vs_numpy(device: str, p: NaiveVsNumpyParams, emit: Emit, should_cancel: CancelCheck | None
                   ) -> JsonObject:
    """The pure-Python triple loop, measured up to ``max_naive_n`` and extrapolated by N³ beyond; numpy.matmul
    measured at every N."""
    sizes = []
    n = 8
    while n <= p.max_n:
        sizes.append(n)
        n *= 2
    points: list[JsonObject] = []
    last_naive: tuple[int, float] | None = None
    total = 2 * len(sizes)
    done = 0
    for n in sizes:
        check_cancel(should_cancel)
        if n <= p.max_naive_n:
            fn = kernels.build("matmul_python", PythonMatmulParams(n=n), "cpu")
            stats = time_callable(fn, "cpu", warmup=0 if n >= 64 else 1, min_repeats=1 if n >= 64 else 3,
                                  max_repeats=3, budget_s=0.5, should_cancel=should_cancel)
            t, extrapolated = stats.min, False
            last_naive = (n, t)
        else:
            assert last_naive is not None
            t, extrapolated = last_naive[1] * (n / last_naive[0]) ** 3, True
        point = {"series": "python", "n": n, "time_s": t, "gflops": 2 * n**3 / t / 1e9,
                 "extrapolated": extrapolated, "label": "extrapolated (∝ N³)" if extrapolated else "measured"}
        points.append(point)
        done += 1
        emit(done / total, point, said("measure.progress.python_extrapolated" if extrapolated
                                       else "measure.progress.python_measured", n=n, gflops=point["gflops"]))
        check_cancel(should_cancel)
        fn = kernels.build("matmul_numpy", NumpyMatmulParams(n=n, dtype="float64"), "cpu")
        inner = choose_inner(fn, "cpu")
        stats = time_callable(fn, "cpu", warmup=1, min_repeats=3, max_repeats=10, budget_s=0.3, inner=inner,
                              should_cancel=should_cancel)
        point = {"series": "numpy", "n": n, "time_s": stats.min, "gflops": 2 * n**3 / stats.min / 1e9,
                 "extrapolated": False, "label": "measured"}
        points.append(point)
        done += 1
        emit(done / total, point, said("measure.progress.numpy", n=n, gflops=point["gflops"]))
    speedups = {}
    for n in sizes:
        py = next(x for x in points if x["series"] == "python" and x["n"] == n)
        npy = next(x for x in points if x["series"] == "numpy" and x["n"] == n)
        speedups[str(n)] = py["time_s"] / npy["time_s"]
    return {"points": points, "speedup": speedups, "x": "n", "y": "gflops", "dtype": "float64",
            "note": "Python floats are float64, so numpy runs in float64 too."}


def roofline_points(device: str, p: RooflinePointsParams, emit: Emit, should_cancel: CancelCheck | None,
                    roofline: JsonObject) -> JsonObject:
    dtype = p.dtype
    cases: list[tuple[str, WorkloadParams]] = [
        ("copy", StreamParams(n=2**24, dtype=dtype)),
        ("triad", StreamParams(n=2**24, dtype=dtype)),
        ("softmax", RowsParams(rows=2048, cols=2048, dtype=dtype)),
        ("layernorm", RowsParams(rows=2048, cols=2048, dtype=dtype)),
    ] + [("gemm", GemmParams(m=n, n=n, k=n, dtype=dtype)) for n in (32, 128, 512, 1024, 2048)]
    points = []
    for i, (name, params) in enumerate(cases):
        check_cancel(should_cancel)
        w = WORKLOADS[name]
        with kernels.cached_allocations():
            fn = kernels.build(name, params, device)
            inner = choose_inner(fn, device)
            stats = time_callable(fn, device, warmup=1, min_repeats=3, max_repeats=15, budget_s=0.3,
                                  inner=inner, should_cancel=should_cancel)
        flops, nbytes = w.flops_fn(params), w.bytes_fn(params)
        point = {"name": name, "params": params.to_json(), "arithmetic_intensity": flops / nbytes,
                 "gflops": flops / stats.min / 1e9, "gbs": nbytes / stats.min / 1e9, "time_s": stats.min}
        points.append(point)
        emit((i + 1) / len(cases), point,
             said("measure.progress.point", workload=name, intensity=point["arithmetic_intensity"],
                  gflops=point["gflops"]))
        del fn
    return {"points": points, "roofline": roofline, "x": "arithmetic_intensity", "y": "gflops"}


def gemm_share(device: str, p: GemmShareParams, emit: Emit, should_cancel: CancelCheck | None,
               mode: str = "quick") -> JsonObject:
    """Fase 1, claim 1: the GEMM share of a training step, profiled at batch 1, 2, 4, … up to ``max_batch``."""
    from tutor.measure.profile import profile_train_step

    batches = [b for b in (1, 2, 4, 8, 16) if b <= p.max_batch] or [1]
    points = []
    for i, batch in enumerate(batches):
        check_cancel(should_cancel)
        prof = profile_train_step(device, mode, p.steps, batch=batch, should_cancel=should_cancel)
        point = {"tokens_per_step": prof["tokens_per_step"], "batch": batch, "gemm_pct": 100 * prof["gemm_share"],
                 "shares": prof["shares"], "top_ops": prof["top_ops"], "total_s": prof["total_s"]}
        points.append(point)
        emit((i + 1) / len(batches), point,
             said("measure.progress.gemm_share", batch=batch, pct=point["gemm_pct"]))
    return {"points": points, "x": "tokens_per_step", "y": "gemm_pct",
            "clock": "device (CUDA kernels)" if device == "cuda" else "CPU self time"}
