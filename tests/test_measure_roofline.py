"""Roofline classification (incl. the too-close band), the per-fingerprint cache and the spec table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.measure import specs
from tutor.measure.roofline_model import ROOFLINE_FORMAT, cached_roofline, store_roofline
from tutor.results import RooflineReference
from tutor.theory.roofline import classify

# ridge 10 FLOP/B
ROOF = {"peak_bandwidth_gbs": 100.0, "peak_gflops": {"float32": 1000.0, "bfloat16": 4000.0}, "format": ROOFLINE_FORMAT}
REF = RooflineReference.from_json(ROOF)


def test_memory_bound_far_below_the_ridge() -> None:
    c = classify(intensity=0.25, achieved_gflops=20, achieved_gbs=80, roofline=REF)
    assert c.bound == "memory" and not c.too_close_to_call
    assert c.fraction_of_bandwidth_roof == pytest.approx(0.8)
    assert c.fraction_of_compute_roof == pytest.approx(0.02)
    assert c.ridge_flops_per_byte == pytest.approx(10)
    assert c.attainable_gflops == pytest.approx(25)


def test_compute_bound_far_above_the_ridge() -> None:
    c = classify(intensity=300, achieved_gflops=900, achieved_gbs=3, roofline=REF)
    assert c.bound == "compute" and not c.too_close_to_call


def test_near_the_ridge_is_too_close_to_call() -> None:
    for ai in (5.1, 10, 19.9):
        c = classify(intensity=ai, achieved_gflops=500, achieved_gbs=500 / ai, roofline=REF)
        assert c.too_close_to_call and c.in_band, ai
    c = classify(intensity=21, achieved_gflops=900, achieved_gbs=900 / 21, roofline=REF)
    assert not c.too_close_to_call


def test_disagreeing_evidence_is_too_close_to_call() -> None:
    # Intensity says compute, but the kernel reaches far more of the bandwidth roof than of the compute roof.
    c = classify(intensity=40, achieved_gflops=40, achieved_gbs=90, roofline=REF)
    assert c.bound == "compute" and c.by_achieved == "memory" and c.too_close_to_call


def test_dtype_uses_its_own_peak() -> None:
    c = classify(intensity=20, achieved_gflops=1000, achieved_gbs=50, roofline=REF, dtype="bfloat16")
    assert c.ridge_flops_per_byte == pytest.approx(40) and c.bound == "memory"
    c = classify(intensity=20, achieved_gflops=1000, achieved_gbs=50, roofline=REF, dtype="float16")
    assert c.ridge_dtype == "float32"


def test_cache_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "roofline.json"
    assert cached_roofline("abc", path) is None
    store_roofline("abc", ROOF, path)
    store_roofline("def", {**ROOF, "peak_bandwidth_gbs": 1.0}, path)
    assert cached_roofline("abc", path) == ROOF
    assert cached_roofline("def", path)["peak_bandwidth_gbs"] == 1.0  # type: ignore[index]
    store_roofline("old", {**ROOF, "format": ROOF["format"] - 1}, path)
    assert cached_roofline("old", path) is None  # an older format is measured again, never half-used
    path.write_text("{not json")
    assert cached_roofline("abc", path) is None


def test_spec_lookup_by_device_name() -> None:
    s = specs.lookup_spec("NVIDIA GeForce RTX 5090")
    assert s is not None and s.bandwidth_gbs == 1792 and s.memory_gb == 32 and s.sms == 170
    assert s.tflops["float32"] == 104.8 and s.tflops["bfloat16"] == 209.5 and s.compute_capability == "12.0"
    assert specs.lookup_spec("NVIDIA A100-SXM4-80GB").key == "a100-80gb"  # type: ignore[union-attr]
    assert specs.lookup_spec("NVIDIA A100-PCIE-40GB").key == "a100-40gb"  # type: ignore[union-attr]
    assert specs.lookup_spec("NVIDIA H100 80GB HBM3").key == "h100-sxm"  # type: ignore[union-attr]
    assert specs.lookup_spec("NVIDIA H100 PCIe").key == "h100-pcie"  # type: ignore[union-attr]
    assert specs.lookup_spec("NVIDIA H200").key == "h200"  # type: ignore[union-attr]
    assert specs.lookup_spec("NVIDIA B200").key == "b200"  # type: ignore[union-attr]
    assert specs.lookup_spec("NVIDIA GeForce RTX 4090").key == "rtx-4090"  # type: ignore[union-attr]
    assert specs.lookup_spec("AMD EPYC") is None
    for spec in specs.SPECS.values():
        assert spec.source and spec.bandwidth_gbs > 0 and "float32" in spec.tflops


def test_cpu_ceiling() -> None:
    flags = {"avx2", "fma", "avx512f"}
    assert specs.cpu_flops_per_cycle_per_core(flags) == 64
    assert specs.cpu_flops_per_cycle_per_core(flags, "float64") == 32
    assert specs.cpu_flops_per_cycle_per_core({"avx2", "fma"}) == 32
    assert specs.cpu_theoretical_peak_flops(2, 2.5, flags) == 2 * 2.5e9 * 64


def test_rounds_slowed_by_other_programs_do_not_hide_the_memory_system(monkeypatch: pytest.MonkeyPatch) -> None:
    """STREAM's rule, the fastest call: on a 2-core machine a copy runs at one core's speed whenever another
    program holds the other core (issue 32: ≈ 34 vs ≈ 70 GB/s on the EPYC kind), so a median over mostly
    contended rounds reported how busy the machine was (0.58× of STREAM), not its memory."""
    from tutor.measure import roofline
    from tutor.measure.timing import TimedRuns

    seconds = iter([0.010, 0.020, 0.020, 0.021, 0.019])  # one uncontended round; the others at half speed
    monkeypatch.setitem(roofline.MODES, "contended", {**roofline.MODES["tiny"], "stream_rounds": 5})
    monkeypatch.setattr(roofline, "time_callable", lambda *a, **k: TimedRuns((next(seconds), 0.03)))
    monkeypatch.setattr(roofline.kernels, "stream_set", lambda names, *a, **k: {n: (lambda: None) for n in names})
    result = roofline.measure_bandwidth("cpu", "contended")
    copy = result.kernels["copy"]
    assert copy.bytes is not None
    gigabytes = copy.bytes / 1e9
    assert copy.gbs_single_best == pytest.approx(gigabytes / 0.010)
    assert result.peak_bandwidth_gbs == pytest.approx(gigabytes / 0.010)
    assert copy.gbs_round_median == pytest.approx(gigabytes / 0.020)  # kept beside it: the spread shows
    assert len(copy.gbs_round_best) == 5 and len(result.rounds_other_cores) == 5
    assert "fastest timed call" in (result.method or "")
