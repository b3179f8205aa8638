"""The decode gap: the line fitted through real decode at tiny sizes on the CPU, and its decomposition."""

from __future__ import annotations

import math

import pytest
import torch

from tutor.measure.decode_gap import GAP_MODES, decompose, fit_line, measure_decode_gap
from tutor.measure.plan import GAP_CONFIGS, GapRun
from tutor.results.decode_gap import DecodeGapFigures


def test_the_fit_recovers_a_line_and_clamps_a_negative_intercept() -> None:
    xs = [1e6, 5e6, 2e7]
    fixed, slope, r2, raw = fit_line(xs, [2e-3 + x / 10e9 for x in xs])
    assert fixed == pytest.approx(2e-3) and slope == pytest.approx(1 / 10e9) and r2 == pytest.approx(1.0)
    assert raw == pytest.approx(fixed)
    fixed, slope, _r2, raw = fit_line(xs, [x / 10e9 - 1e-4 for x in xs])
    assert raw < 0 and fixed == 0.0 and slope > 0  # noise below the origin: pinned at 0 and said so


def test_the_parts_add_up_to_the_measured_step() -> None:
    parts = decompose(step_s=0.02, weights_bytes=100e6, extra_bytes=2e6, fixed_s=0.004, eff_bw=8e9, peak_bw=20e9)
    total = parts.bound_step_ms + parts.fixed_ms + parts.bandwidth_ms + parts.extra_bytes_ms + parts.residual_ms
    assert total == pytest.approx(20.0)
    assert parts.bound_step_ms == pytest.approx(5.0) and parts.extra_bytes_ms == pytest.approx(0.1)
    assert parts.bandwidth_ms == pytest.approx(102e6 / 8e9 * 1e3 - 102e6 / 20e9 * 1e3)
    assert parts.achieved_bandwidth_pct == pytest.approx(40.0) and parts.extra_bytes_pct == pytest.approx(2.0)
    shares = parts.fixed_share_pct + parts.bandwidth_share_pct + parts.extra_bytes_share_pct + parts.residual_share_pct
    assert shares == pytest.approx(100.0)
    assert parts.to_json()["gap_ms"] == pytest.approx(15.0)  # the JSON names the exercises read


def test_real_decode_at_tiny_sizes_is_fitted_and_decomposed() -> None:
    before = torch.get_num_threads()
    out = measure_decode_gap("cpu", "tiny", peak_bandwidth_gbs=20.0, last_level_cache_bytes=480 * 2**20)
    assert torch.get_num_threads() == before  # the pinned thread count is put back
    sizes = out.sizes
    assert len(sizes) == 3 and [s.bytes_per_step for s in sizes] == sorted(s.bytes_per_step for s in sizes)
    assert all(s.timed_steps == 16 and s.step_ms > 0 for s in sizes)
    fit, gap = out.fit, out.gap
    assert fit is not None and gap is not None and out.feeding is not None
    assert fit.fixed_ms >= 0 and fit.effective_bandwidth_gbs > 0 and math.isfinite(fit.r2)
    assert gap.measured_step_ms == pytest.approx(sizes[-1].step_ms)
    total = gap.bound_step_ms + gap.fixed_ms + gap.bandwidth_ms + gap.extra_bytes_ms + gap.residual_ms
    assert total == pytest.approx(gap.measured_step_ms)
    # the bound and the bandwidth part are against the roof read with decode's GEMVs, not the STREAM copy given
    assert out.stream_copy_gbs == 20.0 and out.roof_bandwidth_gbs == out.feeding.bandwidth_gbs > 0
    roof = out.roof_bandwidth_gbs * 1e9
    assert out.reference_weights_bytes is not None
    assert gap.bound_step_ms == pytest.approx(out.reference_weights_bytes / roof * 1e3)
    eff = fit.effective_bandwidth_gbs * 1e9
    assert gap.achieved_bandwidth_pct == pytest.approx(100 * eff / roof)
    # the line fitted on each of the 2 interleaved rounds alone: how much the fit moves, for grading
    spread = fit.spread
    assert len(spread.rounds_fixed_ms) == 2 and spread.fixed_ms_sd is not None and spread.fixed_ms_sd >= 0
    assert math.isfinite(spread.fixed_ms_sd)
    if spread.effective_bandwidth_cv is not None:
        assert gap.achieved_bandwidth_pct_cv is not None
        assert gap.achieved_bandwidth_pct_cv >= spread.effective_bandwidth_cv
    # 1.7 MB of tiny weights sit in a 480 MiB L3: the result says cache, not DRAM
    assert out.resident and out.largest_to_llc_pct is not None and out.largest_to_llc_pct < 1
    # the JSON the exercises and the store read: the engine's names, read back to the same figures
    wire = out.to_json()
    assert wire["cache"]["resident"] is True and wire["fit"]["fixed_ms"] == fit.fixed_ms
    assert set(wire["gap"]) >= {"fixed_share_pct", "bandwidth_share_pct", "residual_ms", "gap_ms"}
    assert DecodeGapFigures.from_json(wire) == out
    small = measure_decode_gap("cpu", "tiny", 20.0, last_level_cache_bytes=1 << 20, threads=1)
    assert not small.resident and small.threads == 1


def test_the_plan_knows_the_same_sizes() -> None:
    for mode, cfg in GAP_MODES.items():
        models = tuple((c.vocab, c.hidden, c.layers, c.intermediate) for c in cfg.configs)
        assert GAP_CONFIGS[mode] == GapRun(models=models, prompt=cfg.prompt, steps=cfg.steps, rounds=cfg.rounds)
        assert len({c.layers for c in cfg.configs}) == 1  # the same ops per step: only the bytes grow
