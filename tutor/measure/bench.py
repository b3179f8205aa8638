"""The reference benchmark behind ``tutor bench`` and the L4 lab (imports torch).

``run_bench(mode, device, progress, should_cancel)`` measures the roofline (STREAM copy bandwidth and matmul
peak per dtype), the bundled transformer's decode tokens/s against its bandwidth bound, and a training step's
tokens/s and MFU, and returns the ``gpu-tutor/bench/v1`` report (a :class:`tutor.results.BenchReport`). Headline
figures are best-of-repeats (min time); each has the coefficient of variation of its timed repeats beside it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from tutor.measure.bench_report import COMPARISON_RULE
from tutor.measure.device import device_info, environment, resolve_device
from tutor.measure.errors import WorkloadError
from tutor.measure.timing import CancelCheck
from tutor.results import BenchReport, Device, RooflineReference
from tutor.results.bench import bench_rows

Progress = Callable[[float, str], None]
BENCH_MODES = ("tiny", "quick", "full")
QUICK_ARRAY_CAP_BYTES = 256 * 2**20
"""``--quick`` keeps each STREAM array at most this size, whatever the cache (three arrays stay under 1 GiB)."""


def _load_average() -> float | None:
    """The 1-minute load average (other processes competing for the cores), where the OS reports one."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def run_bench(mode: str = "quick", device: str = "auto", progress: Progress | None = None,
              should_cancel: CancelCheck | None = None) -> BenchReport:
    """Run the reference benchmark; ``mode`` is "quick", "full" or "tiny" (tests only)."""
    import torch

    from tutor.measure.decode_sizing import reference_decode
    from tutor.measure.model import measure_decode, measure_train_step, theoretical_peak
    from tutor.measure.roofline import measure_roofline
    from tutor.measure.roofline_model import store_roofline

    if mode not in BENCH_MODES:
        raise WorkloadError(f"unknown bench mode {mode!r} (choose quick or full)")
    report_progress = progress or (lambda _f, _m: None)
    load_before = _load_average()
    started = time.time()
    dev = resolve_device(device)
    info = device_info(dev)
    report_progress(0.0, f"bench on {info['name']} ({dev})")
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(threads)  # pinned: every part of this run uses the same count (decode may try one)
        roof = measure_roofline(dev, info, mode, should_cancel, lambda f, m: report_progress(0.55 * f, m),
                                array_cap_bytes=QUICK_ARRAY_CAP_BYTES if mode == "quick" else None)
        bw = roof["bandwidth"]
        within_cache = dev == "cpu" and bw["array_bytes"] < 4 * bw["last_level_cache_bytes"]
        if mode != "tiny" and not (mode == "quick" and within_cache):
            # a roof from arrays the cache can hold is not cached as this machine's DRAM roof
            store_roofline(info["fingerprint"], roof)
        decode = measure_decode(dev, mode, roof["peak_bandwidth_gbs"], should_cancel,
                                lambda f, m: report_progress(0.55 + 0.2 * f, m),
                                sizing=reference_decode(mode, device=dev))
        train_dtype = "bfloat16" if dev == "cuda" and "bfloat16" in roof["peak_gflops"] else "float32"
        theoretical, theoretical_source = theoretical_peak(roof.get("physical_limits"), train_dtype)
        train = measure_train_step(dev, mode, roof["peak_gflops"][train_dtype], train_dtype, should_cancel,
                                   lambda f, m: report_progress(0.75 + 0.25 * f, m),
                                   theoretical_gflops=theoretical, theoretical_source=theoretical_source)
    finally:
        torch.set_num_threads(threads)
    report_progress(1.0, "bench done")
    load_after = _load_average()
    warnings = list(roof["warnings"])
    cpus = os.cpu_count() or 1
    busiest = max(load_before or 0.0, load_after or 0.0)
    if dev == "cpu" and busiest > 0.5 * cpus + 1:
        warnings.append(f"the machine was busy (load average {busiest:.1f} on {cpus} CPUs): figures may be low "
                        "and noisy, and two passes may not agree")
    if mode == "quick" and within_cache:
        warnings.append(f"quick mode: STREAM arrays of {bw['array_bytes'] / 2**20:.0f} MiB are less than 4× the "
                        f"{bw['last_level_cache_bytes'] / 2**20:.0f} MiB last-level cache, so the peak bandwidth may "
                        "be partly the cache's, not DRAM's; `tutor bench --full` sizes the arrays for DRAM")
    gemm_cv = {d: g["cv"] for d, g in roof["gemm"].items() if "cv" in g}
    headline = {
        "peak_bandwidth_gbs": roof["peak_bandwidth_gbs"],
        "peak_flops_tflops": dict(roof["peak_tflops"]),
        "ridge_flops_per_byte": roof["ridge_point"],
        "decode_tokens_per_s": decode["tokens_per_s"],
        "decode_bound_tokens_per_s": decode["bound_tokens_per_s"],
        "train_tokens_per_s": train["tokens_per_s"],
        "mfu": train["mfu"],
    }
    bw_cv = roof["bandwidth"]["cv"]
    cv = {
        "peak_bandwidth_gbs": bw_cv,
        "peak_flops_tflops": gemm_cv,
        "ridge_flops_per_byte": (bw_cv**2 + gemm_cv.get("float32", 0.0) ** 2) ** 0.5,
        "decode_tokens_per_s": decode["cv"],
        "decode_bound_tokens_per_s": decode["feeding"]["read"]["cv"],
        "train_tokens_per_s": train["cv"],
        "mfu": (train["cv"] ** 2 + gemm_cv.get(train_dtype, 0.0) ** 2) ** 0.5,
    }
    notes = [
        f"peak bandwidth: {roof['bandwidth']['method']}, arrays of "
        f"{roof['bandwidth']['array_bytes'] / 2**20:.0f} MiB (last-level cache "
        f"{roof['bandwidth']['last_level_cache_bytes'] / 2**20:.0f} MiB)",
        f"matmul peak: {roof['gemm']['float32']['method']}",
        "ridge point: fp32 matmul peak ÷ peak bandwidth",
        f"decode: the bundled {decode['n_params'] / 1e6:.1f} M-parameter transformer (random weights, float32), "
        f"{decode['decode_steps']} tokens after a {decode['prompt_tokens']}-token prompt; bound = "
        f"{decode['bound_formula']}",
        f"training: batch {train['batch']} × {train['seq_len']} tokens, AdamW, {train['precision']}; MFU = "
        f"FlopCounterMode FLOPs per step ÷ step time ÷ the theoretical {train_dtype} peak "
        f"({train['theoretical_gflops'] or 0:.0f} GFLOP/s, {train['theoretical_source'] or 'unknown'}); "
        f"{train['fraction_of_measured_peak'] * 100:.0f} % of the measured matmul peak",
        f"threads: torch pinned to {threads} for the whole run",
        COMPARISON_RULE,
        "CV = coefficient of variation of the timed repeats; ridge and MFU combine their inputs' CVs",
    ]
    return BenchReport(
        mode=mode,
        device=Device.from_json({k: info[k] for k in ("kind", "name", "fingerprint", "fingerprint_fields")}),
        rows=bench_rows(headline, cv),
        created_at=started,
        duration_s=time.time() - started,
        env=environment(),
        tests={"bandwidth": roof["bandwidth"], "gemm": roof["gemm"], "decode": decode, "train_step": train},
        roofline=RooflineReference.from_json({k: roof[k] for k in (
            "peak_bandwidth_gbs", "peak_gflops", "ridge_flops_per_byte", "ridge_point", "datasheet",
            "physical_limits")}),
        warnings=tuple(warnings),
        notes=tuple(notes),
        load_before=load_before,
        load_after=load_after,
    )
