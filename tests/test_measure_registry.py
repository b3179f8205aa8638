"""The workload registry: validation, STREAM byte rules, and every FLOP formula against FlopCounterMode."""

from __future__ import annotations

import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

from tutor.measure.errors import WorkloadError
from tutor.measure.kernels import attention_math
from tutor.measure.registry import (
    MAX_WORKING_SET_BYTES,
    SWEEPS,
    WORKLOADS,
    GemmParams,
    StreamParams,
    validate_params,
    validate_sweep_params,
    validate_vram_params,
)


def counted_flops(fn: object) -> int:
    counter = FlopCounterMode(display=False)
    with counter:
        fn()  # type: ignore[operator]
    return int(counter.get_total_flops())


def test_required_workloads_are_registered() -> None:
    assert {"copy", "scale", "add", "triad", "axpy", "sum", "softmax", "layernorm", "gemm", "bmm",
            "attention_naive", "attention_sdpa", "matmul_python", "matmul_numpy"} <= set(WORKLOADS)
    assert {"working_set", "gemm_sizes", "naive_vs_numpy", "roofline_points"} <= set(SWEEPS)
    for w in WORKLOADS.values():
        assert w.description
        validate_params(w.name, {})  # the defaults are valid


def test_validation_messages_are_one_line() -> None:
    with pytest.raises(WorkloadError, match=r"^gemm: m=10000000 exceeds the limit 16384$"):
        validate_params("gemm", {"m": 10_000_000})
    with pytest.raises(WorkloadError, match="below the minimum"):
        validate_params("gemm", {"k": 0})
    with pytest.raises(WorkloadError, match=r"dtype='int8' is not allowed"):
        validate_params("gemm", {"dtype": "int8"})
    with pytest.raises(WorkloadError, match="unknown parameter 'x'"):
        validate_params("copy", {"x": 1})
    with pytest.raises(WorkloadError, match="unknown workload 'rm -rf'"):
        validate_params("rm -rf", {})
    with pytest.raises(WorkloadError, match="must be an integer"):
        validate_params("copy", {"n": "big"})
    with pytest.raises(WorkloadError, match="must be an integer"):
        validate_params("copy", {"n": True})
    with pytest.raises(WorkloadError, match="GiB, over the limit"):
        validate_params("gemm", {"m": 16384, "n": 16384, "k": 16384, "dtype": "float64"})
    with pytest.raises(WorkloadError, match="unknown sweep"):
        validate_sweep_params("nope", {})
    with pytest.raises(WorkloadError, match="max_mib=4096 exceeds"):
        validate_sweep_params("working_set", {"max_mib": 4096})
    with pytest.raises(WorkloadError, match="preset"):
        validate_vram_params({"preset": "gpt-5"})


def test_validated_params_are_complete() -> None:
    gemm = validate_params("gemm", {"m": 64})
    assert gemm == GemmParams(m=64, n=2048, k=2048, dtype="float32")
    assert gemm.to_json() == {"m": 64, "n": 2048, "k": 2048, "dtype": "float32"}  # the request's JSON, as before
    copy = validate_params("copy", {"n": 4096.0})
    assert isinstance(copy, StreamParams) and copy.n == 4096 and type(copy.n) is int


def test_no_workload_can_exceed_the_memory_cap() -> None:
    for w in WORKLOADS.values():
        for p in w.params:
            if p.maximum is not None:
                try:
                    params = validate_params(w.name, {p.name: p.maximum})
                except WorkloadError:
                    continue
                assert w.memory_bytes(params) <= MAX_WORKING_SET_BYTES


@pytest.mark.parametrize(
    ("name", "words", "flops_per_elem"),
    [("copy", 2, 0), ("scale", 2, 1), ("add", 3, 1), ("triad", 3, 2), ("axpy", 3, 2), ("sum", 1, 1)],
)
def test_stream_byte_rules(name: str, words: int, flops_per_elem: int) -> None:
    w = WORKLOADS[name]
    for dtype, size in (("float32", 4), ("float64", 8), ("bfloat16", 2)):
        params = {"n": 1 << 20, "dtype": dtype}
        assert w.bytes_moved(params) == words * (1 << 20) * size
        assert w.flops(params) == flops_per_elem * (1 << 20)


def test_gemm_and_bmm_flops_match_flop_counter() -> None:
    for params in ({"m": 64, "n": 48, "k": 32}, {"m": 7, "n": 129, "k": 65}):
        fn = WORKLOADS["gemm"].build(params, "cpu")
        assert counted_flops(fn) == WORKLOADS["gemm"].flops(params)
    params = {"batch": 3, "m": 16, "n": 24, "k": 40}
    assert counted_flops(WORKLOADS["bmm"].build(params, "cpu")) == WORKLOADS["bmm"].flops(params)


def test_attention_flops_match_flop_counter_on_the_math_path() -> None:
    params = {"batch": 2, "heads": 3, "seq_len": 40, "head_dim": 16}
    expected = WORKLOADS["attention_naive"].flops(params)
    assert expected == 4 * 2 * 3 * 40 * 40 * 16
    assert counted_flops(WORKLOADS["attention_naive"].build(params, "cpu")) == expected
    # SDPA has the same analytic count; FlopCounterMode counts 0 for its CPU kernel, so check the formula against
    # the math path, and the math path against SDPA's output.
    assert WORKLOADS["attention_sdpa"].flops(params) == expected
    q, k, v = (torch.rand(2, 3, 40, 16) for _ in range(3))
    assert counted_flops(lambda: attention_math(q, k, v)) == expected
    torch.testing.assert_close(torch.nn.functional.scaled_dot_product_attention(q, k, v), attention_math(q, k, v))


def test_python_and_numpy_matmul_flops_are_those_of_the_same_torch_mm() -> None:
    n = 24
    a, b = torch.rand(n, n, dtype=torch.float64), torch.rand(n, n, dtype=torch.float64)
    mm = counted_flops(lambda: torch.mm(a, b))
    assert WORKLOADS["matmul_python"].flops({"n": n}) == mm
    assert WORKLOADS["matmul_numpy"].flops({"n": n, "dtype": "float64"}) == mm
    out = WORKLOADS["matmul_python"].run({"n": 4})
    assert len(out) == 4 and all(v > 0 for row in out for v in row)


def test_element_wise_ops_are_not_counted_by_flop_counter() -> None:
    """FlopCounterMode counts matmul-class ops only, so element-wise formulas are checked by hand above."""
    for name, params in (("triad", {"n": 4096}), ("softmax", {"rows": 8, "cols": 16}),
                         ("layernorm", {"rows": 8, "cols": 16}), ("sum", {"n": 4096})):
        assert counted_flops(WORKLOADS[name].build(params, "cpu")) == 0
    assert WORKLOADS["softmax"].flops({"rows": 8, "cols": 16}) == 5 * 8 * 16
    assert WORKLOADS["layernorm"].bytes_moved({"rows": 8, "cols": 16}) == (2 * 8 * 16 + 2 * 16) * 4


def test_kernels_compute_the_right_thing() -> None:
    w = WORKLOADS["triad"]
    out = w.run({"n": 2048}, "cpu")
    assert out.shape == (2048,) and bool((out > 0).all())
    x = WORKLOADS["softmax"].run({"rows": 4, "cols": 32})
    torch.testing.assert_close(x.sum(-1), torch.ones(4))
    for dtype in ("float16", "bfloat16", "float64"):
        assert WORKLOADS["gemm"].run({"m": 8, "n": 8, "k": 8, "dtype": dtype}).dtype == getattr(torch, dtype)


def test_sweep_parameters_are_typed_with_the_same_json() -> None:
    from tutor.measure.registry import GemmSizesParams, WorkingSetParams

    values = validate_sweep_params("working_set", {"max_mib": 8})
    typed = SWEEPS["working_set"].typed(values)
    assert typed == WorkingSetParams(min_kib=16, max_mib=8, points_per_octave=2, dtype="float32")
    assert typed.to_json() == values  # the request's params object, as the worker and the store carry it
    assert isinstance(SWEEPS["gemm_sizes"].typed(validate_sweep_params("gemm_sizes", {})), GemmSizesParams)
