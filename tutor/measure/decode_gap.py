"""The decode gap, measured and explained (imports torch).

Decode time per token is a fixed cost per step plus the bytes a step reads over the bandwidth it achieves:
``t = fixed + bytes / effective_bandwidth``. :func:`measure_decode_gap` times greedy decode at batch 1 for two or
three sizes of the bundled transformer (interleaved rounds, threads pinned), fits that line by least squares and
splits the largest model's gap to its bound (weights ÷ the roof that feeds them) into its parts:

- ``fixed``: the fitted per-step overhead (Python, the framework, ~100 small ops per token);
- ``bandwidth``: moving all the step's bytes at the achieved bandwidth (the line's slope) rather than the roof;
- ``extra_bytes``: what the KV cache adds to the weights, at the roof;
- ``residual``: what the line does not explain at that size.

The roof is the bound's (:func:`tutor.measure.model.weights_read_bandwidth`): decode's own GEMVs reading the largest
model's weights where they live — DRAM, or the last-level cache when they fit (a CPU with a large L3; the result
says so, ``cache.resident``). The roofline's STREAM copy is kept beside it (``stream_copy_gbs``) for comparison.
The parts add up to the measured step exactly.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import replace
from typing import Any

import torch

from tutor.measure.decode_sizing import weights_level
from tutor.measure.model import (
    build_model,
    n_params,
    weight_bytes_per_step,
    weights_read_bandwidth,
)
from tutor.measure.modes import GAP_MODES, TransformerConfig
from tutor.measure.phases import Progress, said
from tutor.measure.timing import CancelCheck, check_cancel
from tutor.results.decode_gap import (
    DecodeGapFigures,
    FitSpread,
    GapFeeding,
    GapFit,
    GapParts,
    GapSize,
    WeightsRead,
)
from tutor.results.training import ModelShape


def kv_bytes_per_step(cfg: TransformerConfig, prompt: int, steps: int, elem: int = 4) -> float:
    """KV cache read per decode step at the mean context of the timed steps (keys and values, every layer)."""
    mean_ctx = prompt + (steps + 1) / 2
    return 2 * cfg.layers * cfg.kv_heads * cfg.head_dim * mean_ctx * elem


def fit_line(xs: list[float], ys: list[float]) -> tuple[float, float, float, float]:
    """Least squares ``y = a + b·x``: ``(a, b, r², raw a)``. A negative intercept (noise on a nearly
    proportional line) is clamped to 0 and the slope refitted through the origin; the raw one says so."""
    n = len(xs)
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    b = sxy / sxx if sxx > 0 else 0.0
    a = raw = my - b * mx
    if a < 0 or b <= 0:
        a = max(a, 0.0) if b > 0 else my
        b = sum(x * (y - a) for x, y in zip(xs, ys, strict=True)) / sum(x * x for x in xs) if b > 0 else 0.0
    ss_tot = sum((y - my) ** 2 for y in ys)
    ss_res = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys, strict=True))
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0 and n > 2 else 1.0
    return a, b, r2, raw


def fit_spread(xs: list[float], per_round: list[list[float]]) -> FitSpread:
    """How much the line moves from round to round: the same least-squares fit on each interleaved round's typical
    steps alone, and the standard deviation of its intercept (ms, unclamped) and the CV of its effective bandwidth
    across the rounds. A grader compares a prediction with the measurement's own spread (:mod:`tutor.grading.noise`);
    with fewer than two usable rounds there is no spread to give."""
    fixed_ms: list[float] = []
    bandwidth: list[float] = []
    for steps in per_round:
        if len(steps) != len(xs):
            continue
        _a, slope, _r2, raw = fit_line(xs, steps)
        fixed_ms.append(raw * 1e3)
        if slope > 0:
            bandwidth.append(1 / slope / 1e9)
    return FitSpread(
        rounds_fixed_ms=tuple(fixed_ms), rounds_effective_bandwidth_gbs=tuple(bandwidth),
        fixed_ms_sd=statistics.stdev(fixed_ms) if len(fixed_ms) >= 2 else None,
        effective_bandwidth_cv=statistics.stdev(bandwidth) / statistics.fmean(bandwidth) if len(bandwidth) >= 2
        else None)


def decompose(step_s: float, weights_bytes: float, extra_bytes: float, fixed_s: float, eff_bw: float,
              peak_bw: float) -> GapParts:
    """The gap between a measured step and the bound ``weights ÷ peak`` in its parts (seconds and % of the gap).

    ``step = weights/peak + extra/peak + (total/eff − total/peak) + fixed + residual``, exactly."""
    total = weights_bytes + extra_bytes
    bound = weights_bytes / peak_bw
    extra = extra_bytes / peak_bw
    bandwidth = total / eff_bw - total / peak_bw if eff_bw > 0 else 0.0
    residual = step_s - bound - extra - bandwidth - fixed_s
    gap = step_s - bound

    def share(seconds: float) -> float:
        return 100 * seconds / gap if gap > 0 else 0.0

    return GapParts(
        measured_step_ms=step_s * 1e3, bound_step_ms=bound * 1e3, gap_ms=gap * 1e3, measured_tokens_per_s=1 / step_s,
        bound_tokens_per_s=1 / bound, fraction_of_bound=bound / step_s,
        fixed_ms=fixed_s * 1e3, fixed_share_pct=share(fixed_s), bandwidth_ms=bandwidth * 1e3,
        bandwidth_share_pct=share(bandwidth), extra_bytes_ms=extra * 1e3, extra_bytes_share_pct=share(extra),
        residual_ms=residual * 1e3, residual_share_pct=share(residual),
        achieved_bandwidth_pct=100 * eff_bw / peak_bw, extra_bytes_pct=100 * extra_bytes / weights_bytes)


def _timed_steps(model: Any, prompt: int, steps: int, device: str, should_cancel: CancelCheck | None,
                 warmup: int) -> list[float]:
    """Seconds of each of ``steps`` greedy decode steps at batch 1 after a prompt (and ``warmup`` untimed steps)."""
    cfg = model.cfg
    caches = model.new_cache(1, torch.float32, device)
    gen = torch.Generator(device="cpu").manual_seed(1)
    tokens = torch.randint(0, cfg.vocab, (1, prompt), generator=gen).to(device)
    times: list[float] = []
    with torch.inference_mode():
        logits = model(tokens, caches, 0)
        nxt = logits[:, -1:].argmax(-1)
        for step in range(warmup + steps):
            if step % 4 == 0:
                check_cancel(should_cancel)
            if device == "cuda":
                torch.cuda.synchronize()
            t0 = time.perf_counter_ns()
            logits = model(nxt, caches, prompt + step)
            nxt = logits[:, -1:].argmax(-1)
            if device == "cuda":
                torch.cuda.synchronize()
            if step >= warmup:
                times.append((time.perf_counter_ns() - t0) / 1e9)
    return times


STEP_QUANTILE = 0.2
"""Which step time stands for a size: the 20th percentile of its timed steps. On a shared machine some steps are
preempted (several times slower); the median would measure the neighbours, the minimum a lucky burst."""


def typical_step(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(STEP_QUANTILE * len(ordered)))]


def _pick_threads(model: Any, prompt: int, device: str, should_cancel: CancelCheck | None, default: int) -> int:
    """torch's thread count or one thread, whichever decodes faster here (a decode step is ~100 small parallel
    regions; on a shared CPU one preempted thread stalls each of them). The whole run then keeps that count."""
    if device != "cpu" or default == 1:
        return default
    best, best_t = default, float("inf")
    for threads in (default, 1):
        torch.set_num_threads(threads)
        t = typical_step(_timed_steps(model, prompt, 8, device, should_cancel, 2))
        if t < best_t:
            best, best_t = threads, t
    return best


def measure_decode_gap(device: str, mode: str, peak_bandwidth_gbs: float, last_level_cache_bytes: int | None = None,
                       should_cancel: CancelCheck | None = None, progress: Progress | None = None,
                       threads: int | None = None) -> DecodeGapFigures:
    """Time decode at batch 1 for each size of ``GAP_MODES[mode]``, fit ``t = fixed + bytes/eff_bw`` and decompose
    the largest model's gap to ``weights ÷ roof``, the roof measured reading those weights with decode's GEMVs
    (``peak_bandwidth_gbs``, the roofline's STREAM copy, is recorded beside it). Sizes are interleaved round by
    round (so a busy spell hits every size alike) and torch's CPU threads are pinned for the whole run."""
    cfg_mode = GAP_MODES[mode]
    prompt, steps, rounds = cfg_mode.prompt, cfg_mode.steps, cfg_mode.rounds
    configs: tuple[TransformerConfig, ...] = cfg_mode.configs
    previous_threads = torch.get_num_threads()
    models = [build_model(cfg, device, torch.float32).eval() for cfg in configs]
    samples: list[list[float]] = [[] for _ in configs]
    per_round: list[list[float]] = []  # each round's typical step per size, for the spread of the fit
    try:
        pinned = _pick_threads(models[len(models) // 2], prompt, device, should_cancel, previous_threads) \
            if threads is None else max(1, int(threads))
        torch.set_num_threads(pinned)
        for r in range(rounds):
            for i, model in enumerate(models):
                if progress:
                    progress((r * len(models) + i) / (rounds * len(models)),
                             said("measure.progress.gap_round", round=r + 1, rounds=rounds, model=i + 1,
                                  models=len(models)))
                timed = _timed_steps(model, prompt, steps, device, should_cancel, 4 if r == 0 else 1)
                samples[i].extend(timed)
                if i == 0:
                    per_round.append([])
                per_round[-1].append(typical_step(timed))
    finally:
        torch.set_num_threads(previous_threads)
    sizes: list[GapSize] = []
    xs: list[float] = []  # each size's bytes per step
    ys: list[float] = []  # and its typical step, seconds
    parts: list[tuple[float, float]] = []  # and its weights' and KV cache's bytes
    for cfg, model, times in zip(configs, models, samples, strict=True):
        w = weight_bytes_per_step(model)
        kv = kv_bytes_per_step(cfg, prompt, steps)
        typical = typical_step(times)
        xs.append(w + kv)
        ys.append(typical)
        parts.append((w, kv))
        sizes.append(GapSize(model=ModelShape.from_json(cfg.to_dict()), n_params=n_params(model), weights_bytes=w,
                             kv_bytes=kv, bytes_per_step=w + kv, step_s=typical, step_ms=typical * 1e3,
                             step_ms_median=statistics.median(times) * 1e3, step_ms_min=min(times) * 1e3,
                             cv=statistics.stdev(times) / statistics.fmean(times) if len(times) > 1 else 0.0,
                             timed_steps=len(times), tokens_per_s=1 / typical))
    fixed_s, slope, r2, raw_fixed_s = fit_line(xs, ys)
    eff_bw = 1 / slope if slope > 0 else float("inf")
    spread = fit_spread(xs, per_round)
    ref = sizes[-1]  # the largest model: the one whose gap is split
    (ref_weights, ref_kv), ref_step_s = parts[-1], ys[-1]
    # The roof that feeds the largest model's weights, read with decode's own GEMVs where they live (DRAM, or the
    # cache that holds them): the same roof as decode's bound, so the gap is split against the bandwidth those
    # weights can really arrive at, not against a STREAM copy over arrays the weights are unlike.
    read = weights_read_bandwidth(models[-1], device, should_cancel)
    feed = WeightsRead.from_json(read, "the weights' read")
    roof_gbs = float(read["gbs"])
    gap = decompose(ref_step_s, ref_weights, ref_kv, fixed_s, eff_bw, roof_gbs * 1e9)
    if spread.effective_bandwidth_cv is not None and feed.cv is not None:
        # achieved = effective ÷ roof: both measured, so their relative spreads add in quadrature
        gap = replace(gap, achieved_bandwidth_pct_cv=math.hypot(spread.effective_bandwidth_cv, feed.cv))
    largest = max(xs)
    resident = device == "cpu" and last_level_cache_bytes is not None and largest <= last_level_cache_bytes
    llc = last_level_cache_bytes if device == "cpu" else None
    feeding = GapFeeding(level="dram" if llc is None else weights_level(ref_weights, llc),
                         bandwidth_gbs=roof_gbs, read=feed, weights_bytes=ref.weights_bytes,
                         last_level_cache_bytes=llc, llc_multiple=ref_weights / llc if llc else None,
                         dram_bandwidth_gbs=peak_bandwidth_gbs)
    if progress:
        progress(1.0, said("measure.progress.gap_fitted"))
    return DecodeGapFigures(
        sizes=tuple(sizes), prompt_tokens=prompt, decode_steps=steps, rounds=rounds,
        threads=pinned if device == "cpu" else None,
        step_statistic=f"{STEP_QUANTILE:.0%} percentile of the timed steps, {rounds} interleaved rounds",
        dtype="float32",
        # the decomposition's roof (decode's GEMVs on the largest model's weights) and the STREAM copy beside it
        roof_bandwidth_gbs=roof_gbs, stream_copy_gbs=peak_bandwidth_gbs, peak_bandwidth_gbs=peak_bandwidth_gbs,
        roof_method="decode's GEMVs reading the largest model's weights where they live (best pass)",
        roof_level=feeding.level,
        roof_over_stream_copy=roof_gbs / peak_bandwidth_gbs if peak_bandwidth_gbs > 0 else None,
        fit=GapFit(fixed_ms=fixed_s * 1e3, effective_bandwidth_gbs=eff_bw / 1e9, r2=r2, intercept_ms=raw_fixed_s * 1e3,
                   clamped=fixed_s != raw_fixed_s, spread=spread,
                   formula="step time = fixed + bytes per step ÷ effective bandwidth (least squares)"),
        reference_n_params=ref.n_params, reference_weights_bytes=ref.weights_bytes, reference_kv_bytes=ref.kv_bytes,
        reference_step_ms=ref.step_ms, gap=gap, feeding=feeding,
        last_level_cache_bytes=last_level_cache_bytes, largest_bytes_per_step=largest, resident=resident,
        # above 100: even the largest model spills out of the cache; below, decode may never reach DRAM
        largest_to_llc_pct=100 * largest / last_level_cache_bytes if last_level_cache_bytes else None,
    )
