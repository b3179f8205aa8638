"""run_request in-process with real torch on the CPU at small sizes: workloads, sweeps, the model, VRAM."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import torch

from tutor.measure.api import run_request
from tutor.measure.errors import DeviceError, MeasureCancelled, WorkloadError
from tutor.measure.model import MODEL_MODES, build_model, train_flops_per_step
from tutor.measure.vram import LiveStorageTracker

TINY = {"device": "cpu", "roofline_mode": "tiny", "budget_s": 0.05}


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("TUTOR_DATA_DIR", str(tmp_path))
    yield tmp_path


def test_workload_result_has_the_documented_shape() -> None:
    r = run_request({"op": "workload", "name": "triad", "params": {"n": 1 << 16}, **TINY})
    assert r["kind"] == "workload" and r["workload"] == "triad"
    assert r["params"] == {"n": 1 << 16, "dtype": "float32"}
    assert r["bytes"] == 3 * 4 * (1 << 16) and r["flops"] == 2 * (1 << 16)
    assert r["arithmetic_intensity"] == pytest.approx(1 / 6)
    assert set(r["device"]) == {"kind", "name", "fingerprint"} and r["device"]["kind"] == "cpu"
    assert {"median", "min", "max", "cv", "repeats"} <= set(r["time_s"])
    assert r["achieved_gbs"] > 0 and r["achieved_gflops"] > 0
    c = r["classification"]
    # The side is the machine's answer: a tiny roofline measured on a loaded VM (cache-resident arrays, starved
    # GEMMs) can put the ridge below triad's 1/6 FLOP/B. What holds everywhere is the rule that decides it.
    assert c["bound"] == ("memory" if c["arithmetic_intensity"] < c["ridge_flops_per_byte"] else "compute")
    assert c["arithmetic_intensity"] == pytest.approx(2 / 12)
    assert {"too_close_to_call", "fraction_of_bandwidth_roof", "fraction_of_compute_roof"} <= set(c)


def test_python_matmul_runs_on_cpu_only() -> None:
    r = run_request({"op": "workload", "name": "matmul_python", "params": {"n": 8}, **TINY})
    assert r["flops"] == 2 * 8**3 and r["achieved_gflops"] > 0
    with pytest.raises(DeviceError):
        run_request({"op": "workload", "name": "gemm", "device": "cuda"})  # no GPU here


def test_bad_requests() -> None:
    with pytest.raises(WorkloadError, match="unknown op"):
        run_request({"op": "nope"})
    with pytest.raises(WorkloadError, match="unknown op"):
        run_request({"op": "_test_crash"})  # test ops are off unless the environment enables them
    with pytest.raises(WorkloadError, match="exceeds the limit"):
        run_request({"op": "workload", "name": "gemm", "params": {"m": 10**7}})
    with pytest.raises(DeviceError, match="unknown device"):
        run_request({"op": "workload", "name": "copy", "params": {"n": 4096}, "device": "tpu"})
    with pytest.raises(WorkloadError, match="unknown sweep"):
        run_request({"op": "sweep", "name": "nope"})


def test_cancellation_is_checked() -> None:
    with pytest.raises(MeasureCancelled):
        run_request({"op": "workload", "name": "copy", "params": {"n": 4096}, **TINY}, should_cancel=lambda: True)


def test_working_set_sweep_streams_points_and_names_the_caches() -> None:
    points: list[dict[str, Any]] = []
    messages: list[str] = []
    r = run_request({"op": "sweep", "name": "working_set", "device": "cpu",
                     "params": {"min_kib": 16, "max_mib": 1, "points_per_octave": 1}},
                    on_point=points.append, progress=lambda f, m: messages.append(m))
    assert points == r["points"] and len(points) == 7
    assert [p["working_set_bytes"] for p in points] == sorted(p["working_set_bytes"] for p in points)
    assert points[0]["level"] == "L1" and all(p["gbs"] > 0 for p in points)
    assert {"L1", "L2"} <= set(r["caches"]["levels"]) and r["caches"]["source"]
    assert len(messages) == len(points)


def test_naive_vs_numpy_extrapolates_the_naive_loop() -> None:
    r = run_request({"op": "sweep", "name": "naive_vs_numpy", "params": {"max_naive_n": 16, "max_n": 64}})
    py = [p for p in r["points"] if p["series"] == "python"]
    assert [p["extrapolated"] for p in py] == [False, False, True, True]
    assert py[-1]["label"].startswith("extrapolated")
    assert py[-1]["time_s"] == pytest.approx(py[1]["time_s"] * 4**3)
    assert r["speedup"]["64"] > 1


def test_gemm_sizes_sweep() -> None:
    r = run_request({"op": "sweep", "name": "gemm_sizes", "device": "cpu",
                     "params": {"min_n": 16, "max_n": 64, "points": 3}})
    assert [p["n"] for p in r["points"]] == [16, 32, 64]


def test_roofline_is_cached_per_fingerprint(data_dir: Path) -> None:
    r1 = run_request({"op": "roofline", "device": "cpu", "mode": "tiny"})
    assert r1["kind"] == "roofline" and not r1["cached"]
    assert r1["peak_bandwidth_gbs"] > 0 and r1["peak_gflops"]["float32"] > 0
    assert r1["ridge_point"] == pytest.approx(r1["peak_gflops"]["float32"] / r1["peak_bandwidth_gbs"])
    assert r1.get("datasheet") is None  # a CPU has no datasheet entry (the typed roofline writes none)


def test_the_handlers_return_typed_results_serialised_once() -> None:
    from tutor.measure.api import measure, to_wire
    from tutor.results import Measurement, RooflineReference

    m = measure({"op": "sweep", "name": "gemm_sizes", "device": "cpu",
                 "params": {"min_n": 16, "max_n": 32, "points": 2}})
    assert isinstance(m, Measurement) and m.kind == "sweep" and m.name == "gemm_sizes"
    assert [p.at()[0] for p in m.points] == [16.0, 32.0] and all(p.at()[1] > 0 for p in m.points)
    assert m.device is not None and m.device.kind == "cpu"
    assert Measurement.from_json(to_wire(m)) == m  # what crosses the pipe reads back to the same result
    roof = measure({"op": "roofline", "device": "cpu", "mode": "tiny"})
    assert isinstance(roof, RooflineReference) and roof.peak_bandwidth_gbs > 0
    wire = to_wire(roof)
    assert wire["kind"] == "roofline" and RooflineReference.from_json(wire) == roof


def test_decode_and_train_step_in_tiny_mode() -> None:
    d = run_request({"op": "decode", "device": "cpu", "mode": "tiny", "roofline_mode": "tiny"})
    assert d["tokens_per_s"] > 0 and d["bound_tokens_per_s"] > 0
    assert set(d["batches"]) == {"1", "4"}
    t = run_request({"op": "train_step", "device": "cpu", "mode": "tiny", "roofline_mode": "tiny"})
    assert t["tokens_per_s"] > 0 and t["fraction_of_measured_peak"] > 0
    assert t["mfu"] is None or 0 < t["mfu"] <= 1.5
    assert t["flops_per_step"] > 0


def test_train_flops_are_close_to_six_n_per_token() -> None:
    cfg = MODEL_MODES["tiny"].config
    model = build_model(cfg, "cpu")
    tokens = torch.randint(0, cfg.vocab, (2, 32))
    flops = train_flops_per_step(model, tokens, tokens)
    n_matmul_params = sum(p.numel() for name, p in model.named_parameters() if p.dim() == 2 and "embed" not in name)
    six_n = 6 * (n_matmul_params + cfg.vocab * cfg.hidden) * 2 * 32
    attn = 3 * 4 * 2 * cfg.heads * 32 * 32 * cfg.head_dim * cfg.layers  # forward + 2× backward
    assert flops == pytest.approx(six_n + attn, rel=0.02)


def test_live_storage_tracker_sees_peak_not_total() -> None:
    tracker = LiveStorageTracker()
    with tracker:
        a = torch.empty(1 << 20)  # 4 MiB
        b = torch.empty(1 << 20)
        del a
        c = torch.empty(1 << 19)
        del b, c
    assert tracker.peak == 8 * 2**20
    assert tracker.current == 0


def test_vram_on_cpu_is_measured_small_and_extrapolated() -> None:
    r = run_request({"op": "vram", "device": "cpu",
                     "params": {"preset": "llama-3-8b", "mode": "inference", "seq_len": 8192, "capacity_gb": 32}})
    assert r["label"] == "measured at small scale, extrapolated"
    # weights + KV cache + the naive prefill's scores (2 × 32 heads × 8192² × 2 B) and causal mask (2 × 8192² B)
    assert r["formula_gb"] == pytest.approx((8.03e9 * 2 + 2**30 + 2 * 32 * 8192**2 * 2 + 2 * 8192**2) / 1e9, rel=0.01)
    assert 0.8 < r["measured_over_formula"] < 2.0
    assert r["fits"] is True and r["verdict"] == "fits"
    t = run_request({"op": "vram", "device": "cpu",
                     "params": {"preset": "llama-3-8b", "mode": "training", "seq_len": 2048, "capacity_gb": 32}})
    assert t["fits"] is False and t["verdict"] == "does not fit"
    assert t["formula_bytes"]["weights_grads_adam"] == 16 * 8030261248
