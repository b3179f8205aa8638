"""The CUDA paths of the measurement engine. Skipped without a GPU (CI has none); `bench/gpu_session.sh` runs them
on a machine that has one, next to `tutor bench --device cuda`."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")


def test_cuda_event_timing_is_positive_and_repeatable() -> None:
    from tutor.measure.timing import time_callable

    a = torch.rand(4096, 4096, device="cuda")
    stats = time_callable(lambda: a @ a, "cuda", warmup=2, min_repeats=5, budget_s=0.2)
    assert 0 < stats.min <= stats.median and stats.cv < 0.5


def test_bandwidth_and_gemm_stay_under_the_datasheet() -> None:
    from tutor.measure.api import run_request

    roof = run_request({"op": "roofline", "device": "cuda", "refresh": True, "mode": "tiny"})
    limits = roof.get("physical_limits") or {}
    if limits.get("bandwidth_gbs"):
        # a consumer card can boost past its datasheet clock, but not past its memory's physical rate by much
        assert roof["peak_bandwidth_gbs"] < 1.15 * limits["bandwidth_gbs"]
    gemm = run_request({"op": "workload", "name": "gemm", "device": "cuda",
                        "params": {"m": 4096, "n": 4096, "k": 4096, "dtype": "bfloat16"}})
    assert gemm["device"]["kind"] == "cuda" and gemm["achieved_gflops"] > 0
    assert gemm["classification"]["bound"] == "compute"
    copy = run_request({"op": "workload", "name": "copy", "device": "cuda", "params": {"n": 2**26}})
    assert copy["classification"]["bound"] == "memory"


def test_vram_is_measured_and_an_oom_means_does_not_fit() -> None:
    from tutor.measure.api import run_request

    small = run_request({"op": "vram", "device": "cuda", "params": {"preset": "gpt2-124m", "mode": "inference",
                                                                    "seq_len": 256}})
    assert small["device_kind"] == "cuda" and small["peak_allocated_bytes"] > 0 and small["fits"]
    torch.cuda.set_per_process_memory_fraction(0.02)
    try:
        big = run_request({"op": "vram", "device": "cuda", "params": {"preset": "gpt2-124m", "mode": "training",
                                                                      "batch": 16, "seq_len": 1024}})
    finally:
        torch.cuda.set_per_process_memory_fraction(1.0)
    assert big["oom"] and big["verdict"] == "does not fit"


def test_the_worker_measures_on_the_gpu() -> None:
    from tutor.measure.worker import MeasureWorker

    with MeasureWorker() as worker:
        result = worker.run({"op": "workload", "name": "triad", "device": "cuda", "params": {"n": 2**24}})
    assert result["device"]["kind"] == "cuda" and result["achieved_gbs"] > 0


def test_the_doctor_finds_kernels_for_this_gpu() -> None:
    from tutor.doctor import run_doctor

    report = run_doctor(lock_mode="off")
    statuses = {c.id: c.status for c in report.checks}
    assert statuses["kernel_image"] == "ok" and statuses["cuda_available"] == "ok"
