"""The reference benchmark behind ``tutor bench`` and the L4 lab (imports torch).

``run_bench(mode, device, progress, should_cancel)`` measures the roofline (STREAM copy bandwidth and matmul
peak per dtype), the bundled transformer's decode tokens/s against its bandwidth bound, and a training step's
tokens/s and MFU, and returns the ``gpu-tutor/bench/v1`` report (a :class:`tutor.results.BenchReport`). The
figures are measured in interleaved rounds (:mod:`tutor.measure.bench_rounds`): each headline is the median
over the rounds of its round values, with the coefficient of variation across the rounds beside it — the
noise the comparison rule uses.
"""

from __future__ import annotations

import os
import time

from tutor.i18n.message import Message
from tutor.measure.bench_report import COMPARISON_RULE
from tutor.measure.device import environment, measured_device, resolve_device
from tutor.measure.errors import WorkloadError
from tutor.measure.estimators import ROUND_CV, combined_cv
from tutor.measure.phases import Progress, noop
from tutor.measure.phases import said as phase
from tutor.measure.timing import CancelCheck
from tutor.results import BenchReport, RooflineReference
from tutor.results.bench import bench_rows

BENCH_MODES = ("tiny", "quick", "standard", "full")
#: The standard bench (``tutor bench``, C0's evidence): quick's sizes and memory, three times its rounds. The round
#: median's CV falls with the rounds (quick's 11 rounds: 3–5 % run to run on the 2-core EPYC), so the trade of time
#: for stability is taken here, at under 90 s, while ``--quick`` stays under 30 s for the lab.
STANDARD_ROUNDS_FACTOR = 3
QUICK_ARRAY_CAP_BYTES = 192 * 2**20
"""``--quick`` (and the standard pass) keeps each STREAM array at most this size, whatever the cache: with copy and
triad in every round the three arrays stay under 600 MiB and the whole run under 2 GB (256 MiB arrays measured
1.88 GiB = 2.02 GB peak RSS here). 192 MiB is 6× the EPYC's 32 MiB L3, and 256 MiB and 2 GiB arrays copied at the
same rate on it (69.9 vs 69.4 GB/s); a larger cache is said in the report (bench.warn.quick_cache)."""


def _load_average() -> float | None:
    """The 1-minute load average (other processes competing for the cores), where the OS reports one."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def run_bench(mode: str = "quick", device: str = "auto", progress: Progress | None = None,
              should_cancel: CancelCheck | None = None) -> BenchReport:
    """Run the reference benchmark; ``mode`` is "quick", "standard", "full" or "tiny" (tests only)."""
    import torch

    from tutor.measure.bench_rounds import measure_interleaved
    from tutor.measure.interference import InterferenceProbe
    from tutor.measure.roofline import judge_roof, keep_as_machine_roof, read_cached_roof

    if mode not in BENCH_MODES:
        raise WorkloadError(f"unknown bench mode {mode!r} (choose quick, standard or full)")
    sizes = "quick" if mode == "standard" else mode  # the standard bench: quick's sizes, more rounds
    report_progress = progress or noop
    load_before = _load_average()
    started = time.time()
    dev = resolve_device(device)
    info = measured_device(dev)
    report_progress(0.0, phase("measure.progress.bench_start", device=info.name, kind=dev))
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(threads)  # pinned: every part of this run uses the same count (decode may try one)
        with InterferenceProbe() as load:
            measured = measure_interleaved(dev, info, sizes, should_cancel, report_progress,
                                           array_cap_bytes=QUICK_ARRAY_CAP_BYTES if sizes == "quick" else None,
                                           rounds_factor=STANDARD_ROUNDS_FACTOR if mode == "standard" else 1)
    finally:
        torch.set_num_threads(threads)
    roof: RooflineReference = measured["roofline"]
    decode, train = measured["decode"], measured["train_step"]
    train_dtype = measured["train_dtype"]
    bw = roof.bandwidth
    assert bw is not None and bw.array_bytes is not None and bw.last_level_cache_bytes is not None
    interference = load.result
    roof = judge_roof(roof, interference, mode)
    within_cache = dev == "cpu" and bw.array_bytes < 4 * bw.last_level_cache_bytes
    if mode != "tiny" and not (sizes == "quick" and within_cache):
        # one roof per machine: the bench's, unless its arrays fit the cache or it is provisional beside a final one
        keep_as_machine_roof(str(info.fingerprint), roof, read_cached_roof(str(info.fingerprint))[0])
    report_progress(1.0, phase("measure.progress.bench_done"))
    load_after = _load_average()
    said = list(roof.warnings_said)
    cpus = os.cpu_count() or 1
    busiest = max(load_before or 0.0, load_after or 0.0)
    if dev == "cpu" and busiest > 0.5 * cpus + 1:
        said.append(Message.of("bench.warn.busy", load=round(busiest, 1), cpus=cpus))
    if interference is not None and interference.busy:
        said.append(Message.of("bench.warn.disturbed", used=round(interference.other_cores, 1),
                               cpus=interference.cpus))
    if sizes == "quick" and within_cache:
        said.append(Message.of("bench.warn.quick_cache", arrays=round(bw.array_bytes / 2**20),
                               llc=round(bw.last_level_cache_bytes / 2**20)))
    warnings = [m.render("en") for m in said]
    gemm_cv = {d: g.cv for d, g in roof.gemm.items() if g.cv is not None}
    rounds = measured["rounds"]
    decode_threads = decode["batches"]["1"]["threads"]
    headline = {
        "peak_bandwidth_gbs": roof.peak_bandwidth_gbs,
        "peak_flops_tflops": {d: g / 1e3 for d, g in roof.peak_gflops.items()},
        "ridge_flops_per_byte": roof.ridge_point,
        "decode_tokens_per_s": decode["tokens_per_s"],
        "decode_bound_tokens_per_s": decode["bound_tokens_per_s"],
        "train_tokens_per_s": train["tokens_per_s"],
        "mfu": train["mfu"],
    }
    bw_cv = bw.cv
    implied_by = roof.physical_limits.ghz_implied_by if roof.physical_limits is not None else None
    cv = {
        "peak_bandwidth_gbs": bw_cv,
        "peak_flops_tflops": gemm_cv,
        "ridge_flops_per_byte": combined_cv(bw_cv, gemm_cv.get("float32")),
        "decode_tokens_per_s": decode["cv"],
        "decode_bound_tokens_per_s": decode["feeding"]["read"]["cv"],
        "train_tokens_per_s": train["cv"],
        # MFU's denominator is a constant unless the clock behind it was inferred from a measured matmul
        "mfu": combined_cv(train["cv"], gemm_cv.get(implied_by) if implied_by else None),
    }
    notes = [
        f"peak bandwidth: {bw.method}, arrays of "
        f"{bw.array_bytes / 2**20:.0f} MiB (last-level cache "
        f"{bw.last_level_cache_bytes / 2**20:.0f} MiB)",
        f"matmul peak: {roof.gemm['float32'].method}",
        "ridge point: fp32 matmul peak ÷ peak bandwidth",
        f"decode: the bundled {decode['n_params'] / 1e6:.1f} M-parameter transformer (random weights, float32), "
        f"{decode['decode_steps']} tokens after a {decode['prompt_tokens']}-token prompt; bound = "
        f"{decode['bound_formula']}",
        f"training: batch {train['batch']} × {train['seq_len']} tokens, AdamW, {train['precision']}; MFU = "
        f"FlopCounterMode FLOPs per step ÷ step time ÷ the theoretical {train_dtype} peak "
        f"({train['theoretical_gflops'] or 0:.0f} GFLOP/s, {train['theoretical_source'] or 'unknown'}); "
        f"{train['fraction_of_measured_peak'] * 100:.0f} % of the measured matmul peak",
        f"threads: torch pinned to {threads} for the whole run (decode at batch 1 with {decode_threads}, the "
        "faster on a short probe)",
        f"rounds: {rounds['count']} interleaved rounds of {', '.join(rounds['order'])}, then {rounds['decode_rounds']} "
        f"of decode (its model, sized to the cache, does not fit in memory beside them); each headline is the "
        f"{rounds['estimator']}",
        COMPARISON_RULE,
        f"CV = {ROUND_CV}; ridge and MFU combine their inputs' CVs",
    ]
    return BenchReport(
        mode=mode,
        device=info,
        rows=bench_rows(headline, cv),
        created_at=started,
        duration_s=time.time() - started,
        env=environment(),
        tests={"bandwidth": bw.to_json(), "gemm": {d: g.to_json() for d, g in roof.gemm.items()}, "decode": decode,
               "train_step": train,
               "rounds": rounds, **({"interference": interference.to_json()} if interference is not None else {})},
        roofline=RooflineReference(peak_bandwidth_gbs=roof.peak_bandwidth_gbs, peak_gflops=roof.peak_gflops,
                                   ridge_flops_per_byte=roof.ridge_flops_per_byte, ridge_point=roof.ridge_point,
                                   datasheet=roof.datasheet, physical_limits=roof.physical_limits),
        warnings=tuple(warnings),
        warnings_said=tuple(m.as_dict() for m in said),
        notes=tuple(notes),
        load_before=load_before,
        load_after=load_after,
    )
