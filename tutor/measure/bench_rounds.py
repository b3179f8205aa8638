"""``tutor bench``'s measurements in interleaved rounds (imports torch).

Every workload is built and warmed up first (STREAM arrays; per dtype, the matmul size the probe finds fastest;
the decode model with the thread count that decodes faster; the training step with Adam's state allocated). Then
each of the mode's rounds gives every headline figure a short slice — STREAM copy, each dtype's matmul, a batch-1
decode, one training step — so a burst of other work on a shared machine spoils a round of every figure alike
instead of all of one figure. Each figure's headline is the median over the rounds of its round values
(:mod:`tutor.measure.estimators`), and its CV the spread across the rounds.

The results have the shapes of :func:`tutor.measure.roofline.measure_roofline`, :func:`measure_decode` and
:func:`measure_train_step`, plus each figure's ``rounds``.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import torch

from tutor.measure import kernels
from tutor.measure.device import cache_sizes
from tutor.measure.errors import DeviceError
from tutor.measure.estimators import (
    ROUND_ESTIMATOR,
    RoundFigure,
    best_rate,
    interleave,
    median_rate,
    warm_until_stable,
)
from tutor.measure.model import (
    MODEL_MODES,
    DecodeTiming,
    TrainRig,
    TransformerConfig,
    _decode_run,
    build_model,
    measure_decode,
    read_thread_counts,
    theoretical_peak,
    weights_read_pass,
)
from tutor.measure.phases import Progress, noop, said, within
from tutor.measure.registry import WORKLOADS, GemmParams, StreamParams
from tutor.measure.roofline import (
    CUDA_GEMM_N,
    MODES,
    STREAM_ESTIMATOR,
    assemble_roofline,
    measure_dtypes,
    stream_array_bytes,
    stream_figures,
)
from tutor.measure.timing import CancelCheck, check_cancel, time_callable
from tutor.results import Device, GemmFigures, GemmSize, MatmulRounds, StreamFigures, StreamKernel

# The rounds per mode (how many, each figure's slice of a round, decode's own rounds) are in
# tutor.measure.roofline.MODES beside the sizes they time.
GEMM_WARMUP = {"bfloat16": 3, "float16": 3}
"""The fewest untimed calls before a dtype's first timing: oneDNN picks and JIT-compiles the bf16/fp16 kernels (AMX
tiles on recent Xeons) on the first calls, and these dtypes are then warmed up further until their time is stable
(:func:`tutor.measure.estimators.warm_until_stable`); fp32 and fp64 go straight to the BLAS."""
SIZE_TOLERANCE = 0.05
"""The matmul size used in the rounds: the largest probed size within this fraction of the fastest (so two runs
pick the same size when two sizes are about as fast)."""




def odd(n: int) -> int:
    """``n``, or the next odd number: the median of an odd count of rounds is one round's value."""
    return n if n % 2 else n + 1


def _one_call(fn: Callable[[], Any], device: str) -> Callable[[], float]:
    """A callable that runs ``fn`` once, timed, and returns its seconds."""
    return lambda: time_callable(fn, device, warmup=0, min_repeats=1, max_repeats=1, budget_s=0).min


def _copy_task(device: str, mode: str, array_cap_bytes: int | None, should_cancel: CancelCheck | None,
               progress: Progress) -> tuple[Callable[[], float], StreamFigures, dict[str, list[list[float]]]]:
    """The STREAM round task: the mode's STREAM kernels (copy, and triad where the mode has it) over one set of
    three arrays (:func:`tutor.measure.kernels.stream_set`), each timed ``copy_repeats`` times in a row every
    round. The task's value is the round's best copy (its spread across the rounds is the bandwidth's CV); every
    call's seconds are kept per kernel and round for :func:`tutor.measure.roofline.stream_figures`."""
    cfg = rcfg = MODES[mode]
    dtype, elem = "float32", 4
    n = stream_array_bytes(device, mode, array_cap_bytes) // elem
    last_level = int(cache_sizes()["last_level"])
    params = StreamParams(n=n, dtype=dtype)
    names = tuple(k for k in ("copy", "triad") if k in cfg["stream_kernels"])
    progress(0.0, said("measure.progress.bandwidth", kernel=", ".join(names), mib=round(n * elem / 2**20)))
    fns = kernels.stream_set(names, params, device)
    for i, name in enumerate(names):
        progress(i / len(names), said("measure.progress.bandwidth", kernel=name, mib=round(n * elem / 2**20)))
        time_callable(fns[name], device, warmup=2, min_repeats=1, max_repeats=1, budget_s=0,
                      should_cancel=should_cancel)
    samples: dict[str, list[list[float]]] = {name: [] for name in names}
    gigabytes = WORKLOADS["copy"].bytes_fn(params) / 1e9

    def task() -> float:
        for name in names:
            stats = time_callable(fns[name], device, warmup=0, min_repeats=rcfg["copy_repeats"],
                                  max_repeats=rcfg["copy_repeats"], budget_s=0, should_cancel=should_cancel)
            samples[name].append(list(stats.times_s))
        return best_rate(gigabytes, samples["copy"][-1])

    out = StreamFigures(kernels={name: StreamKernel(bytes=int(WORKLOADS[name].bytes_fn(params))) for name in names},
                        array_bytes=n * elem, dtype=dtype, rounds=rcfg["rounds"], last_level_cache_bytes=last_level,
                        threads=torch.get_num_threads() if device == "cpu" else None)
    return task, out, samples


def stream_result(bw: StreamFigures, samples: dict[str, list[list[float]]], copy_rounds: RoundFigure,
                  mode: str) -> StreamFigures:
    """``bw`` (:func:`_copy_task`'s result) with the STREAM kernels' figures from their timed calls per round
    (:func:`tutor.measure.roofline.stream_figures` per kernel): the peak is the fastest copy, as STREAM reports
    it; the CV is the spread of the rounds' best copies."""
    rcfg = MODES[mode]
    rounds = len(copy_rounds.values)
    figures: dict[str, StreamKernel] = {}
    for name, per_round in samples.items():
        moved = bw.kernels[name].bytes or 0
        figures[name] = replace(stream_figures(moved / 1e9, per_round), gbs_samples=(), bytes=moved, rounds=rounds)
    return replace(bw, kernels=figures, peak_bandwidth_gbs=figures["copy"].gbs_best, cv=copy_rounds.cv,
                   method=f"STREAM copy (2 words per element): {STREAM_ESTIMATOR}; {rcfg['copy_repeats']} copies "
                          f"(and as many of each other STREAM kernel) in each of {rounds} rounds interleaved with "
                          f"the other figures")


def _gemm_task(device: str, dtype: str, mode: str, should_cancel: CancelCheck | None, progress: Progress
               ) -> tuple[Callable[[], float], GemmFigures]:
    """Probe the mode's square sizes for ``dtype`` (after the dtype's warm-up), keep the fastest size's
    matrices and return its round task: the best of k calls, k sized to the mode's slice of a round."""
    cfg = rcfg = MODES[mode]
    sizes = CUDA_GEMM_N[mode] if device == "cuda" else cfg["gemm_n"]
    tensor_dtype = "float32" if dtype == "tfloat32" else dtype
    tried: list[GemmSize] = []
    fns: dict[int, tuple[Callable[[], Any], int]] = {}
    for n in sizes:
        check_cancel(should_cancel)
        progress(0.0, said("measure.progress.matmul_probe", dtype=dtype, shape=f"{n}×{n}×{n}"))
        params = GemmParams(m=n, n=n, k=n, dtype=tensor_dtype)
        fn = kernels.build("gemm", params, device)
        flops = WORKLOADS["gemm"].flops_fn(params)
        t0 = time.perf_counter()
        fn()
        if device == "cuda":
            torch.cuda.synchronize()
        first = time.perf_counter() - t0
        if device == "cpu" and first > 2.0 and tried:
            break  # a dtype without fast kernels: larger sizes would take minutes
        warmup = GEMM_WARMUP.get(dtype, 1)
        if dtype in GEMM_WARMUP and device == "cpu":  # until two successive pairs of calls agree within 2 %
            time_callable(fn, device, warmup=warmup - 1, min_repeats=1, max_repeats=1, budget_s=0,
                          should_cancel=should_cancel)
            warm_until_stable(_one_call(fn, device), max_s=0.5, should_cancel=should_cancel)
            warmup = 0
        stats = time_callable(fn, device, warmup=warmup, min_repeats=3, max_repeats=3,
                              budget_s=0, should_cancel=should_cancel)
        tried.append(GemmSize(n=n, gflops_best=flops / stats.min / 1e9, gflops_median=flops / stats.median / 1e9,
                              time_s=stats.stats()))
        fns[n] = fn, flops
        if device == "cpu" and first > 2.0:
            break
    fastest = max(e.gflops_best or 0.0 for e in tried)
    chosen = max((e for e in tried if (e.gflops_best or 0.0) >= (1 - SIZE_TOLERANCE) * fastest), key=lambda e: e.n)
    fn, flops = fns[chosen.n]
    fns.clear()  # only the chosen size's matrices stay allocated
    per_call = chosen.time_s.min if chosen.time_s is not None else 0.0
    # calls per round: enough to fill the slice; one call when a single call already fills it (fp64 at 2048 on a
    # CPU), else at least two, so a round's best skips one interrupted call
    fewest = 1 if per_call >= rcfg["gemm_round_s"] else 2
    k = max(fewest, min(30, math.ceil(rcfg["gemm_round_s"] / max(per_call, 1e-9))))
    prev_tf32 = torch.backends.cuda.matmul.allow_tf32 if device == "cuda" else None

    def task() -> float:
        if device == "cuda":
            torch.backends.cuda.matmul.allow_tf32 = dtype == "tfloat32"
        try:
            stats = time_callable(fn, device, warmup=0, min_repeats=k, max_repeats=k, budget_s=0,
                                  should_cancel=should_cancel)
        finally:
            if prev_tf32 is not None:
                torch.backends.cuda.matmul.allow_tf32 = prev_tf32
        return best_rate(flops / 1e9, stats.times_s)

    return task, GemmFigures(dtype=dtype, n=chosen.n, sizes=tuple(tried), calls_per_round=k)


def measure_interleaved(device: str, device_info: Device | Mapping[str, Any], mode: str,
                        should_cancel: CancelCheck | None = None, progress: Progress = noop,
                        array_cap_bytes: int | None = None, rounds_factor: int = 1) -> dict[str, Any]:
    """Build every workload, run the interleaved rounds, and return ``{"roofline", "decode", "train_step",
    "rounds"}`` (the first three in the shapes the single-figure functions return). ``rounds_factor`` runs that
    many times the mode's rounds, at the mode's sizes (the standard bench: quick's sizes, 3× its rounds)."""
    started = time.time()
    rcfg = MODES[mode]
    rounds = odd(rcfg["rounds"] * rounds_factor)
    tasks: list[tuple[str, Callable[[], float]]] = []

    if device == "cuda":
        torch.cuda.reset_peak_memory_stats()
    copy_task, bw, copy_samples = _copy_task(device, mode, array_cap_bytes, should_cancel, within(progress, 0.0, 0.08))
    tasks.append(("bandwidth", copy_task))

    dtypes = measure_dtypes(device, mode)
    gemm_info: dict[str, GemmFigures] = {}
    for i, dtype in enumerate(dtypes):
        try:
            lo, hi = 0.08 + 0.12 * i / len(dtypes), 0.08 + 0.12 * (i + 1) / len(dtypes)
            task, gemm_info[dtype] = _gemm_task(device, dtype, mode, should_cancel, within(progress, lo, hi))
        except (DeviceError, RuntimeError) as exc:
            gemm_info[dtype] = GemmFigures(dtype=dtype, error=str(exc).splitlines()[0])
            continue
        tasks.append((f"matmul {dtype}", task))
    if "float32" not in {d for d, g in gemm_info.items() if g.error is None}:
        raise RuntimeError("could not measure the float32 matmul peak")

    bf16 = gemm_info.get("bfloat16")
    train_dtype = "bfloat16" if device == "cuda" and bf16 is not None and bf16.error is None else "float32"
    progress(0.2, said("measure.progress.train_build"))
    rig = TrainRig(device, mode, train_dtype)  # its FLOP count runs one forward and backward
    for _ in range(rcfg["train_warmup_steps"]):  # discarded: the first step allocates Adam's state
        rig.step()
    train_times: list[float] = []
    train_round_best: list[float] = []
    steps_per_round = rcfg["train_round_steps"]

    def train_task() -> float:
        times = [rig.step() for _ in range(steps_per_round)]
        train_times.extend(times)
        train_round_best.append(min(times))
        return best_rate(rig.batch * rig.seq, times)

    tasks.append(("training", train_task))

    order = [name for name, _ in tasks]
    figures = interleave(tasks, rounds, should_cancel, within(progress, 0.25, 0.7))

    # -- results in the single-figure functions' shapes -----------------------------------------------------
    bw = stream_result(bw, copy_samples, figures["bandwidth"], mode)
    gemm: dict[str, GemmFigures] = {}
    for dtype, g in gemm_info.items():
        if g.error is not None:
            gemm[dtype] = g
            continue
        fig = figures[f"matmul {dtype}"]
        gemm[dtype] = replace(
            g, peak_gflops=fig.estimate, cv=fig.cv,
            rounds=MatmulRounds(values=fig.values, estimate=fig.estimate, cv=fig.cv, best_round=fig.best,
                                estimator=ROUND_ESTIMATOR),
            method=f"torch.mm of random square matrices ({g.n}³, the fastest size probed): "
                   f"{ROUND_ESTIMATOR}, a round's value the best of {g.calls_per_round} calls")
    roof = assemble_roofline(device, device_info, mode, bw, gemm, started)

    theoretical, source = theoretical_peak(roof.physical_limits, train_dtype)
    train = rig.result(train_times, roof.peak_gflops[train_dtype], theoretical_gflops=theoretical,
                       theoretical_source=source, round_times=train_round_best, steps_per_round=steps_per_round)
    train["rounds"] = figures["training"].to_dict()
    # The decode model is sized to this machine's cache (up to 1 GiB of weights in quick mode): it cannot sit in
    # memory beside the STREAM arrays and the training step, so decode has its own rounds once they are freed.
    rig.release()
    tasks.clear()  # the round tasks hold the STREAM arrays and the matmuls' matrices
    del copy_task
    gc.collect()
    decode_rounds = odd(rcfg["decode_rounds"] * rounds_factor)
    decode = _decode_rounds(device, mode, roof.peak_bandwidth_gbs, should_cancel,
                            within(progress, 0.7, 1.0), rounds=decode_rounds)
    progress(1.0, said("measure.progress.measured"))
    return {"roofline": roof, "decode": decode, "train_step": train, "train_dtype": train_dtype,
            "rounds": {"count": rounds, "order": order, "estimator": ROUND_ESTIMATOR,
                       "decode_rounds": decode_rounds,
                       "train_steps_per_round": steps_per_round, "read_passes": rcfg["read_round_passes"]}}


def _decode_rounds(device: str, mode: str, bandwidth_gbs: float, should_cancel: CancelCheck | None,
                   progress: Progress, rounds: int | None = None) -> dict[str, Any]:
    """Batch-1 decode of the model sized for this machine, in the mode's decode rounds (each a prefill and
    ``decode_round_steps`` tokens; a round's value is 1 ÷ its median step, the headline the median over the
    rounds), each round followed by ``read_round_passes`` passes over the weights (a round's value the best pass's
    bandwidth; the bound's bandwidth the median over the rounds), the larger batch once, then
    :func:`measure_decode`'s figures with that bound."""
    from tutor.measure.decode_sizing import reference_decode

    rcfg, mcfg = MODES[mode], MODEL_MODES[mode]
    prompt = mcfg.prompt
    sizing = reference_decode(mode, device=device)
    progress(0.0, said("measure.progress.decode_build"))
    model = build_model(TransformerConfig(**sizing.config_fields()), device, torch.float32).eval()
    # The thread count that decodes faster on this machine now (a decode step is ~100 small ops, each an OpenMP
    # region: on a shared CPU one preempted thread stalls them all, and one thread can win).
    default_threads = torch.get_num_threads()
    candidates = read_thread_counts(device, default_threads)
    probe: dict[int, float] = {}
    steps_per_round = rcfg["decode_round_steps"]
    try:
        for threads in candidates:
            check_cancel(should_cancel)
            progress(0.05, said("measure.progress.decode_threads", threads=threads))
            torch.set_num_threads(threads)
            probe[threads] = statistics.median(_decode_run(model, 1, prompt, max(4, steps_per_round // 2), 1,
                                                           torch.float32, device, should_cancel, math.inf))
        decode_threads = min(probe, key=lambda t: probe[t])
        # The bound's bandwidth: the weights read by GEMVs with the faster thread count (probed the same way).
        one_pass, read_bytes = weights_read_pass(model, device)
        read_probe: dict[int, float] = {}
        for threads in read_thread_counts(device, default_threads):  # the decode probe left torch at its last
            check_cancel(should_cancel)
            torch.set_num_threads(threads)
            one_pass()  # a cache that can hold the weights now holds them, as after decode's warm-up
            read_probe[threads] = min(one_pass(), one_pass())
        read_threads = min(read_probe, key=lambda t: read_probe[t])
        passes = rcfg["read_round_passes"]
        read_times: list[float] = []
        torch.set_num_threads(decode_threads)
        steps: list[float] = []
        round_step: list[float] = []

        def decode_task() -> float:
            times = _decode_run(model, 1, prompt, steps_per_round, 1, torch.float32, device, should_cancel,
                                math.inf, warmup=False)
            steps.extend(times)
            round_step.append(statistics.median(times))
            return median_rate(1.0, times)

        def read_task() -> float:
            torch.set_num_threads(read_threads)
            try:
                times = []
                for _ in range(passes):
                    check_cancel(should_cancel)
                    times.append(one_pass())
            finally:
                torch.set_num_threads(decode_threads)
            read_times.extend(times)
            return best_rate(read_bytes / 1e9, times)

        figures = interleave([("decode", decode_task), ("decode bound", read_task)], rounds or rcfg["decode_rounds"],
                             should_cancel, within(progress, 0.1, 0.6))
        figure, read = figures["decode"], figures["decode bound"]
        progress(0.6, said("measure.progress.decode_batch", batch=int(mcfg.big_batch),
                           tokens=int(mcfg.decode_steps)))
        big = _decode_run(model, mcfg.big_batch, prompt, mcfg.decode_steps, 1, torch.float32, device,
                          should_cancel, rcfg.get("big_batch_budget_s", mcfg.decode_budget_s))
    finally:
        torch.set_num_threads(default_threads)
    timed = {1: DecodeTiming(tuple(steps), decode_threads, tuple(round_step)),
             mcfg.big_batch: DecodeTiming(tuple(big), decode_threads)}
    feed = {"gbs": read.estimate, "bytes": read_bytes, "threads": read_threads, "passes": len(read_times),
            "cv": read.cv, "rounds": read.to_dict(), "thread_probe_s": {str(t): v for t, v in read_probe.items()},
            "method": f"every weight matrix read once by a one-token linear (a GEMV, as decode reads it): "
                      f"{ROUND_ESTIMATOR}, a round's value the best of {passes} passes"}
    decode = measure_decode(device, mode, bandwidth_gbs, should_cancel, within(progress, 0.7, 1.0),
                            sizing=sizing, model=model, timed=timed, feed=feed)
    decode.update(decode_steps=steps_per_round, rounds=figure.to_dict(),
                  thread_probe_s={str(t): s for t, s in probe.items()})
    return decode
