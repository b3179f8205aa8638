"""The bench's estimators: interleaved rounds, the median over rounds and its CV (pure functions, deterministic
inputs); the CPU's theoretical peak with each input's source; and the interleaving with real torch at tiny sizes."""

from __future__ import annotations

import statistics
from typing import Any

import pytest

from tests.support.roofline import SPR, cpu_roofline
from tutor.measure.errors import MeasureCancelled
from tutor.measure.estimators import RoundFigure, best_rate, combined_cv, cv, interleave, median_rate


def test_the_headline_is_the_median_of_the_rounds_so_a_burst_in_a_minority_of_rounds_does_not_move_it() -> None:
    steady = RoundFigure((100.0, 101.0, 99.0, 100.5, 99.5))
    burst_down = RoundFigure((100.0, 40.0, 99.0, 100.5, 45.0))  # two rounds hit by other work
    burst_up = RoundFigure((100.0, 150.0, 99.0, 100.5, 99.5))  # one lucky round
    assert steady.estimate == 100.0
    assert burst_down.estimate == 99.0 and burst_up.estimate == 100.0
    assert burst_up.best == 150.0
    assert steady.cv == pytest.approx(0.0079, abs=1e-4)
    assert burst_down.cv > 0.3  # the noise the rule then allows is the spread across rounds
    d = steady.to_dict()
    assert d["rounds"] == 5 and d["values"] == [100.0, 101.0, 99.0, 100.5, 99.5] and "median" in str(d["estimator"])


def test_round_values_and_cv() -> None:
    assert best_rate(10.0, [0.5, 0.25, 1.0]) == 40.0  # work ÷ the fastest of the round's calls
    assert median_rate(1.0, [0.01, 0.02, 0.04]) == 50.0  # one token ÷ the median step
    assert cv([5.0]) == 0.0 and cv([]) == 0.0 and cv([0.0, 0.0]) == 0.0
    assert cv([9.0, 11.0]) == pytest.approx(2**0.5 / 10)
    assert combined_cv(0.03, 0.04) == pytest.approx(0.05) and combined_cv(0.02, None) == 0.02


def test_interleave_gives_every_figure_a_slice_of_every_round_in_order() -> None:
    calls: list[str] = []
    values = {"a": iter([1.0, 2.0, 3.0]), "b": iter([10.0, 20.0, 30.0])}

    def task(name: str) -> Any:
        def run() -> float:
            calls.append(name)
            return next(values[name])
        return run

    seen: list[str] = []
    figures = interleave([("a", task("a")), ("b", task("b"))], 3, progress=lambda _f, m: seen.append(m.render("en")))
    assert calls == ["a", "b", "a", "b", "a", "b"]
    assert figures["a"].values == (1.0, 2.0, 3.0) and figures["b"].estimate == 20.0
    assert seen[:3] == ["round 1/3: a", "round 1/3: b", "round 2/3: a"]
    with pytest.raises(ValueError):
        interleave([("a", task("a"))], 0)


def test_interleave_stops_when_cancelled() -> None:
    calls = []
    with pytest.raises(MeasureCancelled):
        interleave([("a", lambda: calls.append(1) or 1.0)], 5, should_cancel=lambda: len(calls) >= 2)
    assert len(calls) == 2


def test_the_cpu_peak_names_its_inputs_and_counts_amx_for_bf16(monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.measure import specs
    from tutor.measure.model import theoretical_peak

    assert specs.cpu_flops_per_cycle_per_core(SPR, "bfloat16") == 1024  # AMX tiles, not 2 × 32 bf16 lanes × 2
    assert specs.cpu_flops_per_cycle_per_core(SPR - {"amx_bf16"}, "bfloat16") == 128
    assert specs.cpu_flops_per_cycle_per_core(SPR, "float16") == 128  # AVX512-FP16; no AMX-FP16 here
    roofline = cpu_roofline(monkeypatch, SPR, max_ghz=3.8, clock=2.6)
    limits = roofline.physical_limits("cpu", "Xeon", {"float32": 396.0})
    assert limits is not None
    assert limits.gflops["float32"] == pytest.approx(2 * 3.8 * 64)  # cpufreq's maximum: a hard ceiling
    assert limits.ghz_implied_by is None and "cpuinfo_max_freq" in (limits.clock_source or "")
    peak, source = theoretical_peak(limits, "float32")
    assert peak == pytest.approx(486.4)
    assert source == ("2 cores × 3.80 GHz from cpufreq's cpuinfo_max_freq (the highest boost clock) × 64 FLOP/cycle: "
                      "2 AVX-512 FMA pipes × 16 float32 lanes × 2 (multiply + add)")
    assert "AMX" in limits.source_by_dtype["bfloat16"]


def test_a_vm_clock_below_what_a_measured_matmul_needs_is_raised_and_said(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a VM /proc/cpuinfo reports the host's base clock (2.6 GHz here) while the cores boost: an fp32 matmul
    measured at 396 GFLOP/s on 2 cores × 64 FLOP/cycle needs at least 3.09 GHz, so the peak is not 333."""
    from tutor.measure.model import theoretical_peak

    roofline = cpu_roofline(monkeypatch, SPR, max_ghz=None, clock=2.6)
    quiet = roofline.physical_limits("cpu", "Xeon", {"float32": 300.0, "bfloat16": 2400.0})
    assert quiet is not None
    assert quiet.nominal_gflops["float32"] == pytest.approx(332.8) and quiet.ghz_implied_by is None
    limits = roofline.physical_limits("cpu", "Xeon", {"float32": 396.0, "float64": 190.0, "bfloat16": 2400.0})
    assert limits is not None
    assert limits.ghz == pytest.approx(396 / 128) and limits.ghz_reported == 2.6
    assert limits.ghz_implied_by == "float32"
    peak, source = theoretical_peak(limits, "float32")
    assert peak == pytest.approx(396.0)
    assert source is not None and "3.09 GHz at least: the measured float32 matmul (396 GFLOP/s) needs it" in source
    assert "reports 2.60 GHz" in source and "upper bound" in source
    assert roofline.physical_limits("cpu", "Xeon") == quiet
    cpu_roofline(monkeypatch, SPR, max_ghz=None, clock=None)
    assert roofline.physical_limits("cpu", "Xeon") is None


def test_interleaved_bench_with_real_torch_at_tiny_sizes() -> None:
    import torch

    from tutor.measure.bench_rounds import measure_interleaved
    from tutor.measure.device import device_info
    from tutor.measure.roofline import MODES

    seen: list[str] = []
    threads = torch.get_num_threads()
    torch.set_num_threads(2)  # as on a 2-core machine: decode and the bound's read each try 2 threads and 1
    try:
        out = measure_interleaved("cpu", device_info("cpu"), "tiny",
                                  progress=lambda _f, m: seen.append(m.render("en")))
    finally:
        torch.set_num_threads(threads)
    rounds = MODES["tiny"]["rounds"]
    order = out["rounds"]["order"]
    assert order[0] == "bandwidth" and order[-1] == "training" and "matmul float32" in order
    round_lines = [m for m in seen if m.startswith("round ")]
    decode_rounds = MODES["tiny"]["decode_rounds"]
    assert round_lines == ([f"round {r + 1}/{rounds}: {name}" for r in range(rounds) for name in order]
                           + [f"round {r + 1}/{decode_rounds}: {name}" for r in range(decode_rounds)
                              for name in ("decode", "decode bound")])
    roof, decode, train = out["roofline"], out["decode"], out["train_step"]
    assert roof.bandwidth is not None
    copy = roof.bandwidth.kernels["copy"]
    assert len(copy.gbs_round_best) == rounds
    assert rounds % 2 == 1  # an odd count: the median is one round's value, and 1 ÷ median(times) is the same
    assert roof.peak_bandwidth_gbs == max(copy.gbs_round_best) == copy.gbs_best  # STREAM's rule
    assert copy.gbs_round_median == statistics.median(copy.gbs_round_best)
    gemm = roof.gemm["float32"]
    assert gemm.rounds is not None
    assert len(gemm.rounds.values) == rounds and gemm.peak_gflops == gemm.rounds.estimate
    assert gemm.peak_gflops is not None and gemm.peak_gflops > 0
    assert decode["batches"]["1"]["rounds"] == decode_rounds == decode["rounds"]["rounds"]
    assert decode["tokens_per_s"] == pytest.approx(decode["rounds"]["estimate"])
    assert str(decode["batches"]["1"]["threads"]) in decode["thread_probe_s"]  # the faster of the probed counts
    steps = MODES["tiny"]["train_round_steps"]
    assert train["repeats"] == rounds * steps and train["tokens_per_s"] == pytest.approx(train["rounds"]["estimate"])
    assert train["estimator"].startswith("median over the rounds")
    # the bound's bandwidth: passes over the weights interleaved with decode's rounds, the median over them
    read = decode["feeding"]["read"]
    assert read["rounds"]["rounds"] == decode_rounds and read["gbs"] == pytest.approx(read["rounds"]["estimate"])
    assert read["passes"] == decode_rounds * MODES["tiny"]["read_round_passes"]
    assert decode["bound_tokens_per_s"] > 0 and str(read["threads"]) in read["thread_probe_s"]
    # the read tried the counts decode tried (torch's and one), not only the one decode's probe left torch at
    assert set(read["thread_probe_s"]) == set(decode["thread_probe_s"]) == {"2", "1"}
    assert out["rounds"]["read_passes"] == MODES["tiny"]["read_round_passes"]


def test_warm_until_stable_stops_once_two_successive_groups_agree() -> None:
    from tutor.measure.estimators import warm_until_stable

    times = iter([0.9, 0.5, 0.3, 0.2, 0.11, 0.1, 0.1, 0.1, 0.1, 0.1])  # a JIT's first calls, then steady
    best, calls = warm_until_stable(lambda: next(times), group=2, tolerance=0.02)
    assert (best, calls) == (0.1, 8)  # groups' bests 0.5, 0.2, 0.1, 0.1: the fourth agrees with the third
    slow = iter([0.9**i for i in range(40)])  # 10 % faster every call, never stable: stops at the call cap
    best, calls = warm_until_stable(lambda: next(slow), group=2, max_calls=6)
    assert calls == 6 and best == pytest.approx(0.9**5)
    with pytest.raises(MeasureCancelled):
        warm_until_stable(lambda: 0.1, should_cancel=lambda: True)


def test_interleave_keeps_the_garbage_collector_off_during_the_rounds_and_restores_it() -> None:
    import gc

    seen: list[bool] = []
    assert gc.isenabled()
    interleave([("a", lambda: seen.append(gc.isenabled()) or 1.0)], 3)
    assert seen == [False, False, False] and gc.isenabled()
    with pytest.raises(MeasureCancelled):
        interleave([("a", lambda: 1.0)], 3, should_cancel=lambda: True)
    assert gc.isenabled()
