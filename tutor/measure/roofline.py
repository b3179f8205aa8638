"""Measuring the roofline: peak bandwidth (STREAM kernels on arrays ≥ 4× the last-level cache) and peak matmul
FLOP/s per dtype, best of many runs, with the datasheet roof beside it when the device is known (imports torch)."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import torch

from tutor.i18n.message import Message
from tutor.measure import kernels
from tutor.measure.device import (
    cache_sizes,
    cpu_clock_ghz,
    cpu_flags,
    cpu_max_ghz,
    dram_working_set_bytes,
    physical_cores,
)
from tutor.measure.errors import DeviceError
from tutor.measure.interference import InterferenceProbe
from tutor.measure.modes import ROOFLINE_MODES
from tutor.measure.phases import Progress, noop, said, within
from tutor.measure.registry import WORKLOADS, GemmParams, StreamParams
from tutor.measure.roofline_model import ROOFLINE_FORMAT, cached_roofline, store_roofline
from tutor.measure.specs import (
    cpu_flops_per_cycle_explained,
    cpu_flops_per_cycle_per_core,
    cpu_theoretical_peak_flops,
    lookup_spec,
)
from tutor.measure.timing import CancelCheck, TimedRuns, check_cancel, time_callable
from tutor.results import (
    Datasheet,
    Device,
    GemmFigures,
    GemmSize,
    Interference,
    PhysicalLimits,
    ResultError,
    RooflineReference,
    RoofProbe,
    StreamFigures,
    StreamKernel,
)
from tutor.theory.roofline import peak_spreads, provisional_reasons

#: Per mode: the sizes and budgets the roof and the bench's rounds run at (one table, in measure/modes.py).
MODES = ROOFLINE_MODES
CUDA_GEMM_N: dict[str, tuple[int, ...]] = {"tiny": (1024,), "quick": (2048, 4096, 8192),
                                            "full": (2048, 4096, 8192, 16384)}
CUDA_DTYPES = ("float32", "tfloat32", "bfloat16", "float16")


def stream_array_bytes(device: str, mode: str, array_cap_bytes: int | None = None) -> int:
    """Bytes of each STREAM array: the mode's size or 4× the last-level cache, whichever is larger (1 GiB at
    least on a GPU), at most ``array_cap_bytes`` on the CPU when given."""
    cfg = MODES[mode]
    array_bytes = cfg["stream_bytes"] if mode == "tiny" else max(cfg["stream_bytes"], dram_working_set_bytes())
    if device == "cuda":
        return max(array_bytes, 1 * 2**30)
    if array_cap_bytes is not None:
        array_bytes = min(array_bytes, array_cap_bytes)
    return int(array_bytes)


STREAM_ESTIMATOR = "the bytes STREAM counts ÷ the fastest timed call, as stream.c reports its best rate"
"""How the peak bandwidth is read from the timed calls (said in the result's ``method``)."""


def stream_figures(gigabytes: float, round_times_s: Sequence[Sequence[float]]) -> StreamKernel:
    """A STREAM kernel's rates from its per-call seconds, grouped by round (pure arithmetic, no timing).

    ``gigabytes`` is what the kernel moves per call as STREAM counts it (the registry's ``bytes_fn``: copy and
    scale 2 words per element, add and triad 3; write-allocate traffic not counted). Every sample is divided
    separately, and every call's rate is kept (``gbs_samples``).
    ``gbs_best`` is STREAM's figure: the fastest call's rate. Beside it: the median call's rate, each
    round's best, their median (``gbs_round_median``, what a majority of rounds reached) and the timing stats.

    Why the fastest call and not a median: with arrays many times the last-level cache no call can run faster
    than the memory system; on a shared machine other programs only slow calls down — on a 2-core VM, a copy split
    over both cores runs at one core's speed whenever another program holds the other core (measured: ≈ 70 GB/s
    in windows where nothing else ran, ≈ 34 GB/s where another program took a core, sustained for seconds either
    way), so a median over the rounds reports how busy the machine was, not its memory."""
    rounds = [tuple(r) for r in round_times_s if len(r)]
    if not rounds:
        raise ValueError("no timed calls")
    samples = tuple(t for r in rounds for t in r)
    if min(samples) <= 0:
        raise ValueError("a timed call took no time")
    stats = TimedRuns(samples)
    round_best = [gigabytes / min(r) for r in rounds]
    return StreamKernel(
        gbs_best=gigabytes / stats.min,
        gbs_median=gigabytes / stats.median,
        gbs_single_best=gigabytes / stats.min,
        gbs_round_best=tuple(round_best),
        gbs_round_median=statistics.median(round_best),
        gbs_samples=tuple(gigabytes / t for t in samples),
        time_s=stats.stats(),
    )


def measure_bandwidth(
    device: str, mode: str = "quick", should_cancel: CancelCheck | None = None, progress: Progress = noop,
    dtype: str = "float32", array_cap_bytes: int | None = None, array_bytes: int | None = None,
) -> StreamFigures:
    """STREAM kernels on large arrays (at most ``array_cap_bytes`` each when given: ``tutor bench --quick`` keeps
    its memory bounded whatever the cache size, and says when that leaves the arrays within reach of the cache;
    exactly ``array_bytes`` when given, for ``bench/stream_compare.py``). The peak bandwidth is STREAM copy's best.

    The kernels run as ``stream.c`` runs them (:func:`tutor.measure.kernels.stream_set`: three arrays, every kernel
    a single pass into preallocated memory, torch's intra-op threads on every core), in rounds spread over about a
    second; within a round each kernel is timed several times in a row, after the others. Each kernel's figure is
    :func:`stream_figures`' ``gbs_best``. Every round's best, the median call and the cores other programs kept busy
    during each round (``rounds_other_cores``) are kept in the result, so the spread and its cause can be shown.
    """
    from tutor.measure.interference import between, read_counters

    cfg = MODES[mode]
    elem = 4 if dtype == "float32" else 8
    size = array_bytes if array_bytes is not None else stream_array_bytes(device, mode, array_cap_bytes)
    n = size // elem
    rounds = cfg.get("stream_rounds", 1)
    names = tuple(cfg["stream_kernels"])
    last_level = int(cache_sizes()["last_level"])
    threads = torch.get_num_threads() if device == "cpu" else None
    params = StreamParams(n=n, dtype=dtype)
    progress(0.0, said("measure.progress.bandwidth", kernel=", ".join(names), mib=round(n * elem / 2**20)))
    fns = kernels.stream_set(names, params, device)
    times: dict[str, list[tuple[float, ...]]] = {name: [] for name in names}
    other_cores: list[float] = []
    cpus = os.cpu_count() or 1
    for r in range(rounds):
        if r:
            time.sleep(cfg.get("stream_round_gap_s", 0.0))
        start = read_counters()
        for i, name in enumerate(names):
            check_cancel(should_cancel)
            progress((r * len(names) + i) / (rounds * len(names)),
                     said("measure.progress.bandwidth", kernel=name, mib=round(n * elem / 2**20)))
            stats = time_callable(fns[name], device, warmup=2 if r == 0 else 1, min_repeats=5,
                                  max_repeats=cfg["max_repeats"], budget_s=cfg["budget_s"] / rounds,
                                  should_cancel=should_cancel)
            times[name].append(stats.times_s)
        other_cores.append(round(between(start, read_counters(), cpus).other_cores, 3))
    del fns
    figures: dict[str, StreamKernel] = {}
    for name in names:
        moved = int(WORKLOADS[name].bytes_fn(params))
        figures[name] = replace(stream_figures(moved / 1e9, times[name]), gbs_samples=(), bytes=moved)
    copy = figures["copy"]
    return StreamFigures(
        kernels=figures, array_bytes=n * elem, dtype=dtype, rounds=rounds, last_level_cache_bytes=last_level,
        threads=threads, peak_bandwidth_gbs=copy.gbs_best, cv=copy.time_s.cv if copy.time_s is not None else None,
        rounds_other_cores=tuple(other_cores),
        method=(f"STREAM copy (2 words per element): {STREAM_ESTIMATOR}; {rounds} rounds of the kernels "
                f"{', '.join(names)} over three shared arrays"))


def measure_gemm_peak(
    device: str, dtype: str, mode: str = "quick", should_cancel: CancelCheck | None = None,
    progress: Progress = noop,
) -> GemmFigures:
    """The best GEMM FLOP/s for ``dtype`` over the mode's square sizes (torch.mm of random matrices).

    The peak is the best size's best time: mid-size matrices that fit the last-level cache are often fastest
    on a CPU; large ones are fastest on a GPU."""
    cfg = MODES[mode]
    sizes = CUDA_GEMM_N[mode] if device == "cuda" else cfg["gemm_n"]
    tensor_dtype = "float32" if dtype == "tfloat32" else dtype
    best: GemmSize | None = None
    tried: list[GemmSize] = []
    prev_tf32 = torch.backends.cuda.matmul.allow_tf32 if device == "cuda" else None
    try:
        if device == "cuda":
            torch.backends.cuda.matmul.allow_tf32 = dtype == "tfloat32"
        for n in sizes:
            check_cancel(should_cancel)
            progress(0.0, said("measure.progress.matmul_peak", dtype=dtype, shape=f"{n}×{n}×{n}"))
            params = GemmParams(m=n, n=n, k=n, dtype=tensor_dtype)
            fn = kernels.build("gemm", params, device)
            flops = WORKLOADS["gemm"].flops_fn(params)
            # Slow dtypes on the CPU (no native kernels) would take minutes at full size: probe first.
            t0 = time.perf_counter()
            fn()
            if device == "cuda":
                torch.cuda.synchronize()
            probe = time.perf_counter() - t0
            if device == "cpu" and probe > 2.0 and best is not None:
                break
            stats = time_callable(fn, device, warmup=1, min_repeats=3 if probe > 0.5 else 5,
                                  max_repeats=cfg["max_repeats"], budget_s=cfg["budget_s"],
                                  should_cancel=should_cancel)
            del fn
            entry = GemmSize(n=n, gflops_best=flops / 1e9 / stats.min, gflops_median=flops / 1e9 / stats.median,
                             time_s=stats.stats())
            tried.append(entry)
            if best is None or (entry.gflops_best or 0.0) > (best.gflops_best or 0.0):
                best = entry
            if device == "cpu" and probe > 2.0:
                break
    finally:
        if device == "cuda" and prev_tf32 is not None:
            torch.backends.cuda.matmul.allow_tf32 = prev_tf32
    assert best is not None and best.time_s is not None
    return GemmFigures(dtype=dtype, peak_gflops=best.gflops_best, n=best.n, cv=best.time_s.cv, sizes=tuple(tried),
                       method="torch.mm of random square matrices, best of the timed repeats")


def measure_dtypes(device: str, mode: str) -> tuple[str, ...]:
    if device == "cuda":
        major, _ = torch.cuda.get_device_capability()
        return tuple(d for d in CUDA_DTYPES if major >= 8 or d not in ("tfloat32", "bfloat16"))
    return tuple(MODES[mode]["dtypes_cpu"])


CLOCK_SOURCES = {
    "cpufreq": "cpufreq's cpuinfo_max_freq (the highest boost clock)",
    "cpuinfo": "/proc/cpuinfo's 'cpu MHz' (no cpufreq here: the current clock, or in a VM the host's base rate, "
               "which the cores exceed when they boost)",
}


def physical_limits(device: str, device_name: str, measured_gflops: Mapping[str, float] | None = None
                    ) -> PhysicalLimits | None:
    """Ceilings no honest figure may exceed: the datasheet on a known GPU; cores × clock × FLOPs per cycle on the
    CPU, each input named with where it was read.

    On a CPU without cpufreq (a VM, a container) the only clock the OS reports is /proc/cpuinfo's, the base rate
    the cores exceed when they boost. When a matmul measured at ``measured_gflops`` needs a faster clock than that,
    the clock used is the one it needs (a lower bound on the real clock, so the peak is a lower bound too and an
    MFU over it an upper bound): a theoretical peak below a measured rate would be wrong. None when neither is
    known (an unknown GPU, a CPU whose clock the OS does not report)."""
    if device == "cuda":
        spec = lookup_spec(device_name)
        if spec is None:
            return None
        gflops = {k: v * 1e3 for k, v in spec.tflops.items()}
        return PhysicalLimits(bandwidth_gbs=spec.bandwidth_gbs, gflops=gflops, theoretical_gflops=dict(gflops),
                              source=spec.source)
    max_ghz = cpu_max_ghz()
    reported = max_ghz or cpu_clock_ghz()
    if reported is None:
        return None
    flags = set(cpu_flags())
    cores = physical_cores()
    dtypes = ("float32", "float64", "bfloat16", "float16")
    per_cycle = {d: cpu_flops_per_cycle_per_core(flags, d) for d in dtypes}
    clock_source = CLOCK_SOURCES["cpufreq" if max_ghz else "cpuinfo"]
    ghz, implied_by = reported, None
    if max_ghz is None:
        for d, g in sorted((measured_gflops or {}).items()):
            need = g / (cores * per_cycle[d]) if d in per_cycle else 0.0
            if need > ghz:
                ghz, implied_by = need, d
    if implied_by is None:
        clock = f"{ghz:.2f} GHz from {clock_source}"
    else:
        clock = (f"{ghz:.2f} GHz at least: the measured {implied_by} matmul "
                 f"({(measured_gflops or {})[implied_by]:.0f} GFLOP/s) needs it, while {clock_source} reports "
                 f"{reported:.2f} GHz (so this peak is a lower bound and an MFU over it an upper bound)")
    theoretical = {d: cpu_theoretical_peak_flops(cores, ghz, flags, d) / 1e9 for d in dtypes}
    return PhysicalLimits(
        # a hard ceiling only where cpufreq gives the maximum clock; else the figures at the clock the OS reports
        gflops=theoretical if max_ghz else {},
        nominal_gflops={} if max_ghz else theoretical,
        # the same figures whichever clock fed them, so an exercise reads one key on every machine (with cpufreq
        # or without), and what the OS reported next to the clock used (above 1: a measured matmul needed more)
        theoretical_gflops=dict(theoretical),
        clock_raise=ghz / reported,
        # the inputs of the formula, so an exercise can apply it to this machine's own numbers
        cores=cores,
        ghz=ghz,
        ghz_reported=reported,
        clock_source=clock_source,
        ghz_implied_by=implied_by,
        flops_per_cycle=per_cycle,
        source=f"{cores} cores × {clock} × FLOPs per cycle per core (SIMD width × FMA pipes, or AMX tiles)",
        source_by_dtype={
            d: f"{cores} cores × {clock} × {cpu_flops_per_cycle_explained(flags, d)}" for d in dtypes},
    )


def _device_of(device_info: Device | Mapping[str, Any]) -> Device:
    """The device (:func:`tutor.measure.device.measured_device`), or the one its JSON names."""
    return device_info if isinstance(device_info, Device) else Device.from_json(device_info)


def measure_roofline(
    device: str, device_info: Device | Mapping[str, Any], mode: str = "quick", should_cancel: CancelCheck | None = None,
    progress: Progress = noop, array_cap_bytes: int | None = None,
) -> RooflineReference:
    """Measure the roofline of ``device``: bandwidth, matmul peak per dtype, ridge points."""
    started = time.time()
    bw = measure_bandwidth(device, mode, should_cancel, within(progress, 0.0, 0.4),
                           array_cap_bytes=array_cap_bytes)
    dtypes = measure_dtypes(device, mode)
    gemm: dict[str, GemmFigures] = {}
    for i, dtype in enumerate(dtypes):

        gemm_progress = within(progress, 0.4 + 0.6 * i / len(dtypes), 0.4 + 0.6 * (i + 1) / len(dtypes))
        try:
            gemm[dtype] = measure_gemm_peak(device, dtype, mode, should_cancel, gemm_progress)
        except (DeviceError, RuntimeError) as exc:
            gemm[dtype] = GemmFigures(dtype=dtype, error=str(exc).splitlines()[0])
    progress(1.0, said("measure.progress.roofline_measured"))
    return assemble_roofline(device, device_info, mode, bw, gemm, started)


def assemble_roofline(device: str, device_info: Device | Mapping[str, Any], mode: str, bw: StreamFigures,
                      gemm: Mapping[str, GemmFigures], started: float) -> RooflineReference:
    """The roofline from measured bandwidth (:func:`measure_bandwidth`) and matmul peaks per dtype
    (:func:`measure_gemm_peak`, or one with its ``error``): ridge points, physical limits, warnings."""
    peak_gflops = {d: g.peak_gflops for d, g in gemm.items() if g.peak_gflops is not None}
    if "float32" not in peak_gflops:
        raise RuntimeError("could not measure the float32 matmul peak")
    peak_gbs = bw.peak_bandwidth_gbs
    if peak_gbs is None:
        raise RuntimeError("could not measure the peak bandwidth")
    ridge = {d: g / peak_gbs for d, g in peak_gflops.items()}
    dev = _device_of(device_info)
    spec = lookup_spec(dev.name) if device == "cuda" else None
    limits = physical_limits(device, dev.name, peak_gflops)
    theoretical = limits.theoretical_gflops if limits is not None else {}
    if limits is not None and theoretical:  # each measured peak as a fraction of the theoretical one (above 1: an
        # input of it is wrong)
        limits = replace(limits, measured_fraction={
            d: g / theoretical[d] for d, g in peak_gflops.items() if theoretical.get(d)})
    said: list[Message] = []
    if limits is not None and limits.bandwidth_gbs is not None and peak_gbs > limits.bandwidth_gbs:
        said.append(Message.of("bench.warn.above_datasheet", measured=round(peak_gbs),
                               datasheet=round(limits.bandwidth_gbs)))
    for d, g in peak_gflops.items():
        lim = limits.gflops.get(d) if limits is not None else None
        if lim is not None and g > lim:
            said.append(Message.of("bench.warn.above_limit", dtype=d, measured=round(g), limit=round(lim)))
    datasheet = None if spec is None else Datasheet(
        name=spec.name, bandwidth_gbs=spec.bandwidth_gbs, tflops=dict(spec.tflops),
        ridge_flops_per_byte={d: r for d in spec.tflops if (r := spec.ridge_flops_per_byte(d)) is not None},
        source=spec.source, key=spec.key, memory_gb=spec.memory_gb, memory_type=spec.memory_type, sms=spec.sms,
        compute_capability=spec.compute_capability)
    return RooflineReference(
        device=dev.identity(),
        mode=mode,
        measured_at=started,
        duration_s=time.time() - started,
        peak_bandwidth_gbs=peak_gbs,
        peak_gflops=peak_gflops,
        ridge_flops_per_byte=ridge,
        ridge_point=ridge["float32"],
        bandwidth=bw,
        gemm=dict(gemm),
        datasheet=datasheet,
        physical_limits=limits,
        warnings=tuple(m.render("en") for m in said),
        warnings_said=tuple(said),
        threads=torch.get_num_threads(),
        load_average=_load_now(),
        cpus=os.cpu_count() or 1,
        format=ROOFLINE_FORMAT,
    )


def _load_now() -> float | None:
    """The 1-minute load average (None where the OS has none)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def provisional_of(roof: RooflineReference) -> list[str]:
    """Why a roof (as measured or cached) is provisional: the reasons it was stored with, or read from its figures
    when it was stored without them (an older cache)."""
    return list(roof.provisional) or provisional_reasons(roof)


def judge_roof(roof: RooflineReference, interference: Interference | None, mode: str) -> RooflineReference:
    """A just-measured roof with what others judge it by: the interference it was measured under, whether it is
    provisional and why, its peaks' spread. The test-only tiny roof (a few repeats of arrays in cache) is never
    judged final."""
    if interference is not None:
        roof = replace(roof, interference=interference)
    return replace(roof, provisional=tuple(provisional_reasons(roof)) if mode != "tiny" else (),
                   peak_spread=peak_spreads(roof))


def keep_as_machine_roof(fingerprint: str, roof: RooflineReference, cached: RooflineReference | None) -> None:
    """Cache ``roof`` as the machine's one roof, unless it is provisional and the cached one is final."""
    if roof.provisional and cached is not None and not provisional_of(cached):
        return
    store_roofline(fingerprint, {k: v for k, v in roof.to_json().items() if k != "cached"})


UNREADABLE = "unreadable"
"""``remeasured_because`` of a roof whose cached entry did not read as a roof (a field of the wrong type)."""


def read_cached_roof(fingerprint: str) -> tuple[RooflineReference | None, bool]:
    """The cached roof of ``fingerprint``, typed, and whether an entry was there but did not read as a roof (then
    it is measured again, and says so). None without an entry of the current format."""
    entry = cached_roofline(fingerprint)
    if entry is None:
        return None, False
    try:
        return RooflineReference.from_json(entry, "the cached roofline"), False
    except ResultError:
        return None, True


def get_roofline(
    device: str, device_info: Device | Mapping[str, Any], *, refresh: bool = False, mode: str = "quick",
    should_cancel: CancelCheck | None = None, progress: Progress = noop,
) -> RooflineReference:
    """The roofline of this device fingerprint: the cached one, or measured (and cached) when missing or
    ``refresh``.

    One roof per machine, and only a trustworthy one is final: a roof measured while other programs took a share
    of the machine, or whose peak stood more than :data:`~tutor.theory.roofline.TIGHT_SPREAD` above its typical
    repeat, is cached as
    *provisional* (its ``provisional`` reasons) and measured again the next time it is asked for on a quiet
    machine (:func:`machine_quiet`); on a busy machine it is used as it is, and every verdict graded against it
    says so. A provisional roof never replaces a final one in the cache (:func:`keep_as_machine_roof`). A cached
    entry that does not read as a roof is measured again (``remeasured_because``: :data:`UNREADABLE`)."""
    fp = str(_device_of(device_info).fingerprint)
    stale_reason = None
    cached, unreadable = read_cached_roof(fp)
    disagreed: RoofProbe | None = None
    if not refresh and cached is not None:
        reasons = provisional_of(cached)
        if not reasons:
            check = probe_roof(device, cached) if mode != "tiny" else None
            if check is None or not check.faster or not machine_quiet():
                return replace(cached, cached=True, probe=check if check is not None else cached.probe)
            stale_reason = "probe_disagreed"  # the machine beat its roof: the roof was measured low
            disagreed = check
        else:
            if not machine_quiet():  # a busy machine keeps the roof it has (never a loop)
                return replace(cached, provisional=tuple(reasons), cached=True)
            stale_reason = "provisional"
    elif unreadable and not refresh:
        stale_reason = UNREADABLE
    with InterferenceProbe() as load:
        roof = measure_roofline(device, device_info, mode, should_cancel, progress)
    roof = judge_roof(roof, load.result, mode)
    if stale_reason:
        roof = replace(roof, remeasured_because=stale_reason)
    if disagreed is not None:
        roof = replace(roof, probe=disagreed)
    if mode != "tiny":
        keep_as_machine_roof(fp, roof, cached)
    return replace(roof, cached=False)


#: A roof probed less than this long ago is not probed again (the warm worker runs exercise after exercise).
PROBE_EVERY_S = 60.0
#: The smallest disagreement between a probe and its roof called a disagreement (3 combined CVs when larger).
PROBE_FLOOR = 0.15
_PROBED: dict[tuple[str, float], tuple[float, RoofProbe]] = {}


def probe_roof(device: str, roof: RooflineReference, *, now: float | None = None) -> RoofProbe | None:
    """A short check of a cached roof before it grades (issue 26 item 3): STREAM copy on the roof's own arrays and
    fp32 torch.mm at the roof's best size, a few calls each (≈ 0.1–1 s), their fastest call against the roof's
    peaks (the roof's own rule: STREAM's fastest call).

    ``faster``: the probe beat a peak by more than ``max(15 %, 3× the peak's own spread)``: the roof was measured
    low (a slow moment, other programs) and is measured again. ``slower``: below by as much: the machine is slower
    now than when its roof was measured (a slow host, a throttled laptop); the roof is kept, a slow moment does not
    replace it, and the stamp says so. None when the roof does not say which sizes it measured (an older or made-up
    roof) or the probe cannot run."""
    fp32 = roof.gemm.get("float32")
    array_bytes = roof.bandwidth.array_bytes if roof.bandwidth is not None else None
    peak_gflops = roof.peak_gflops.get("float32")
    if fp32 is None or fp32.n is None or array_bytes is None or peak_gflops is None:
        return None
    key = (str(roof.device.fingerprint if roof.device is not None else None), float(roof.measured_at or 0.0))
    now = time.monotonic() if now is None else now
    seen = _PROBED.get(key)
    if seen is not None and now - seen[0] < PROBE_EVERY_S:
        return seen[1]
    try:
        copy_params = StreamParams(n=array_bytes // 4, dtype="float32")
        fn = kernels.build("copy", copy_params, device)
        copy_stats = time_callable(fn, device, warmup=1, min_repeats=3, max_repeats=5, budget_s=0.05)
        del fn
        n = fp32.n
        gemm_params = GemmParams(m=n, n=n, k=n, dtype="float32")
        fn = kernels.build("gemm", gemm_params, device)
        gemm_stats = time_callable(fn, device, warmup=1, min_repeats=3, max_repeats=5, budget_s=0.05)
        del fn
    except (RuntimeError, MemoryError, DeviceError):
        return None
    gbs = WORKLOADS["copy"].bytes_fn(copy_params) / 1e9 / copy_stats.min
    gflops = WORKLOADS["gemm"].flops_fn(gemm_params) / 1e9 / gemm_stats.min
    bw_ratio, gemm_ratio = gbs / roof.peak_bandwidth_gbs, gflops / peak_gflops
    spreads = peak_spreads(roof)
    bw_margin = max(PROBE_FLOOR, 3.0 * spreads.get("bandwidth", 0.0))
    gemm_margin = max(PROBE_FLOOR, 3.0 * spreads.get("matmul", 0.0))
    faster = bw_ratio > 1 + bw_margin or gemm_ratio > 1 + gemm_margin
    slower = bw_ratio < 1 / (1 + bw_margin) or gemm_ratio < 1 / (1 + gemm_margin)
    result = RoofProbe(bandwidth_ratio=bw_ratio, gflops_ratio=gemm_ratio, bandwidth_margin=bw_margin,
                       gflops_margin=gemm_margin, agrees=not (faster or slower), faster=faster, slower=slower,
                       gbs=gbs, gflops=gflops)
    _PROBED[key] = (now, result)
    return result


def machine_quiet(sample_s: float = 0.25) -> bool:
    """Whether other programs leave the machine quiet now: their load over a short sleep of this process."""
    with InterferenceProbe() as probe:
        time.sleep(sample_s)
    return probe.result is None or not probe.result.busy
