"""Claims 1, 3 and 4 of Fase 1 measured (issue 31): a graded predict-then-measure exercise each, naming a
registered workload with bounded parameters; the kernels run for real on the CPU, and their CUDA path (the same
builders on the device they are given, timed with torch.cuda events) is checked with the device stubbed."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from tutor.content import load_course
from tutor.measure.registry import get_workload, validate_params
from tutor.paths import bundled_course
from tutor.theory.formulas import FORMULAS, evaluate_formula

CLAIMS = {
    "f1-lab03-claim1-mlp-block": ("mlp_block", "afirmación 1", "claim 1"),
    "f1-lab03-claim3-gemv-gflops": ("gemm", "afirmación 3", "claim 3"),
    "f1-lab03-claim4-int8-matvec": ("matvec_int8", "afirmación 4", "claim 4"),
}


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUTOR_DATA_DIR", str(tmp_path))


def test_each_claim_has_a_graded_measured_exercise_in_both_languages() -> None:
    course = load_course(bundled_course())
    assert not course.errors, course.errors
    lab03 = course.lessons["f1-lab03"]
    for exercise_id, (workload, es_words, en_words) in CLAIMS.items():
        exercise = course.exercises[exercise_id]
        assert exercise_id in lab03.exercises and exercise.kind == "number" and exercise.grading is not None
        call = exercise.measure
        assert call is not None and call.op == "workload" and call.name == workload
        validate_params(workload, dict(call.params))  # registered and within its bounds
        assert exercise.truth is not None and exercise.truth.source in ("measurement", "formula")
        if exercise.truth.source == "formula":
            assert any(str(v).startswith("measured:") for v in exercise.truth.inputs.values()), exercise_id
        for lang, words in (("es", es_words), ("en", en_words)):
            for part in (exercise.title, exercise.prompt, exercise.explanation):
                assert part is not None and getattr(part, lang), (exercise_id, lang)
            assert words in getattr(exercise.prompt, lang).lower(), (exercise_id, lang)
    for lang, words in (("es", "Las afirmaciones 1, 3 y 4 las medirás tú al final del Lab 03"),
                        ("en", "Claims 1, 3 and 4 you will measure yourself at the end of Lab 03")):
        text = " ".join(getattr(s.body, lang) for s in course.lessons["f1-00"].sections)
        assert words in " ".join(text.split()), lang


def test_the_claim_4_truth_is_the_fp32_roof_time_over_the_measured_one() -> None:
    spec = FORMULAS["speedup_over_bandwidth_bound"]
    assert [i.name for i in spec.inputs] == ["bytes_moved", "bandwidth_gbs", "time_s", "bytes_scale"]
    fp32_bytes = 4 * 16384 * 8192
    # At a 40 GB/s roof the best fp32 matvec takes 13.4 ms; an int8 one in 3.4 ms is 4× faster, in 13.4 ms 1×.
    assert evaluate_formula(spec.name, {"bytes_moved": fp32_bytes, "bandwidth_gbs": 40, "time_s": fp32_bytes / 4
                                        / 40e9}) == pytest.approx(4.0)
    assert evaluate_formula(spec.name, {"bytes_moved": fp32_bytes, "bandwidth_gbs": 40,
                                        "time_s": fp32_bytes / 40e9}) == pytest.approx(1.0)
    assert evaluate_formula(spec.name, {"bytes_moved": fp32_bytes / 4, "bytes_scale": 4, "bandwidth_gbs": 40,
                                        "time_s": fp32_bytes / 40e9}) == pytest.approx(1.0)
    course = load_course(bundled_course())
    inputs = course.exercises["f1-lab03-claim4-int8-matvec"].truth.inputs  # type: ignore[union-attr]
    # The fp32 matvec of the measured shape: 4× the int8 run's measured bytes (its bf16 vectors, 81 KB of 134 MB,
    # counted 4× too: within 0.1 %).
    assert inputs["bytes_moved"] == "measured:bytes" and inputs["bytes_scale"] == 4
    int8 = get_workload("matvec_int8").bytes_moved({"rows": 16384, "cols": 8192})
    assert 4 * int8 == pytest.approx(fp32_bytes, rel=1e-3)


def test_the_workloads_count_what_their_prompts_say() -> None:
    mlp = {"tokens": 512, "hidden": 1024, "dtype": "float32"}
    gemm_flops = 2 * 2 * 512 * 1024 * 4096
    flops = get_workload("mlp_block").flops(mlp)
    assert round(gemm_flops / 1e9, 1) == 8.6 and round((flops - gemm_flops) / 1e6) == 21
    assert gemm_flops / flops == pytest.approx(0.9975, abs=5e-4)
    gemv = {"m": 1, "n": 4096, "k": 8192, "dtype": "float32"}
    assert get_workload("gemm").arithmetic_intensity(gemv) == pytest.approx(0.5, abs=1e-3)
    assert round(get_workload("gemm").bytes_moved(gemv) / 1e6) == 134
    assert get_workload("matvec_int8").arithmetic_intensity({"rows": 16384, "cols": 8192}) == pytest.approx(2, 1e-3)
    with pytest.raises(Exception, match="exceeds the limit"):
        validate_params("matvec_int8", {"rows": 1 << 20, "cols": 8192})
    with pytest.raises(Exception, match="exceeds the limit"):
        validate_params("mlp_block", {"tokens": 1 << 20})


def test_the_kernels_compute_what_they_claim_on_the_cpu() -> None:
    torch = pytest.importorskip("torch")
    from tutor.measure import kernels

    torch.manual_seed(0)
    out = kernels.build("matvec_int8", validate_params("matvec_int8", {"rows": 48, "cols": 64}), "cpu")()
    assert out.shape == (1, 48) and out.dtype == torch.bfloat16 and bool(torch.isfinite(out).all())
    block = kernels.build("mlp_block", validate_params("mlp_block", {"tokens": 8, "hidden": 32}), "cpu")
    y = block()
    assert y.shape == (8, 32) and bool(torch.isfinite(y).all())


def test_the_int8_kernel_is_the_dequantised_product() -> None:
    torch = pytest.importorskip("torch")
    x = torch.rand(1, 64).add_(0.5).to(torch.bfloat16)
    w = torch.randint(1, 128, (48, 64), dtype=torch.int8)
    s = torch.rand(48).add_(0.5).to(torch.bfloat16)
    reference = (x.float() @ w.float().t()) * s.float()
    assert torch.allclose(torch._weight_int8pack_mm(x, w, s).float(), reference, rtol=2e-2)


def test_the_measurements_run_for_real_on_the_cpu() -> None:
    pytest.importorskip("torch")
    from tutor.measure.api import run_request

    for name, params in (("mlp_block", {"tokens": 16, "hidden": 64}), ("matvec_int8", {"rows": 256, "cols": 256})):
        r = run_request({"op": "workload", "name": name, "params": params, "device": "cpu",
                         "roofline_mode": "tiny", "budget_s": 0.05})
        w = get_workload(name)
        assert r["flops"] == w.flops(params) and r["bytes"] == w.bytes_moved(params)
        assert r["time_s"]["median"] > 0 and r["achieved_gflops"] > 0
        assert math.isfinite(r["classification"]["fraction_of_compute_roof"])


class _FakeEvent:
    """torch.cuda.Event on a machine without a GPU: records perf_counter, as a CUDA event records the stream."""

    def __init__(self, enable_timing: bool = False) -> None:
        assert enable_timing
        self.at = 0.0

    def record(self) -> None:
        import time

        self.at = time.perf_counter()

    def synchronize(self) -> None:
        pass

    def elapsed_time(self, end: _FakeEvent) -> float:
        return (end.at - self.at) * 1e3  # ms, as CUDA's


def test_the_cuda_path_builds_on_the_device_and_times_with_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """No GPU here: the builders are given the meta device (every tensor must be made on the device passed, or
    torch refuses to mix it with a CPU one), and the CUDA timing loop runs with torch.cuda's events stubbed."""
    torch = pytest.importorskip("torch")
    from tutor.measure import kernels
    from tutor.measure.timing import time_callable

    for name, params in (("mlp_block", {"tokens": 4, "hidden": 16}), ("matvec_int8", {"rows": 32, "cols": 32})):
        out = kernels._TORCH_BUILDERS[name](validate_params(name, params), "meta")()
        assert out.device.type == "meta", name
    calls: list[str] = []
    monkeypatch.setattr(torch.cuda, "Event", _FakeEvent)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda *a, **k: calls.append("sync"))
    fn: Any = kernels.build("matvec_int8", validate_params("matvec_int8", {"rows": 64, "cols": 64}), "cpu")
    runs = time_callable(fn, "cuda", warmup=1, min_repeats=3, max_repeats=3, budget_s=0)
    assert len(runs.times_s) == 3 and all(t > 0 for t in runs.times_s) and calls


def test_the_figures_the_claim_exercises_print_come_from_the_registry() -> None:
    from tutor.i18n import format_number

    course = load_course(bundled_course())
    mlp = get_workload("mlp_block")
    p = {"tokens": 512, "hidden": 1024, "dtype": "float32"}
    gemm_flops = 16 * 512 * 1024**2
    elementwise_mb = (2 + 2 * 4 + 3) * 512 * 1024 * 4 / 1e6  # words: layer norm 2, GELU over 4h 2 × 4, add 3
    gemv = get_workload("gemm").bytes_moved({"m": 1, "n": 4096, "k": 8192, "dtype": "float32"})
    fp32 = 4 * 16384 * 8192
    for lang in ("es", "en"):
        def n(value: float, fmt: str) -> str:
            return format_number(value, lang, fmt)  # noqa: B023 (called within this iteration only)

        claim1 = course.exercises["f1-lab03-claim1-mlp-block"]
        text = " ".join((getattr(claim1.prompt, lang) + getattr(claim1.explanation, lang)).split())
        assert f"≈ {n(gemm_flops / 1e9, '.1f')} GFLOP" in text and f"≈ {n((mlp.flops(p) - gemm_flops) / 1e6, '.0f')}"\
            f" MFLOP" in text, lang
        assert f"{n(100 * gemm_flops / mlp.flops(p), '.2f')} %" in text and f"~{elementwise_mb:.0f} MB" in text, lang
        claim3 = course.exercises["f1-lab03-claim3-gemv-gflops"]
        assert f"≈ {gemv / 1e6:.0f} MB" in " ".join(getattr(claim3.prompt, lang).split()), lang
        claim4 = course.exercises["f1-lab03-claim4-int8-matvec"]
        assert f"≈ {fp32 / 1e6:.0f} MB" in " ".join(getattr(claim4.prompt, lang).split()), lang
