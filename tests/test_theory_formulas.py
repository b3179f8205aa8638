"""The lesson formulas, the named-formula registry and the model presets (pure Python)."""

from __future__ import annotations

import pytest

from tutor.theory import formulas
from tutor.theory.errors import FormulaError


def test_weights_and_kv_cache_of_llama3_8b() -> None:
    p = formulas.model_preset("llama-3-8b")
    assert p.weights_bytes("bfloat16") == pytest.approx(16.06e9, rel=1e-3)
    # 2 × 32 layers × 8 kv heads × 128 × 8192 tokens × 2 bytes = 1 GiB
    assert p.kv_cache_bytes(8192, 1, "bfloat16") == 2 * 32 * 8 * 128 * 8192 * 2 == 2**30


def test_presets_have_consistent_shapes() -> None:
    presets = formulas.model_presets()
    assert {"llama-3-8b", "llama-2-7b", "gpt2-124m"} <= set(presets)
    for p in presets.values():
        assert p.heads * p.head_dim == p.hidden
        assert p.heads % p.kv_heads == 0
        assert p.source


def test_adam_training_is_16_bytes_per_param() -> None:
    assert formulas.adam_training_bytes(1e9) == 16e9
    assert formulas.adam_training_bytes(1e9, activations=5e9) == 21e9


def test_decode_bound_and_ridge() -> None:
    # 1792 GB/s ÷ 16 GB per token ≈ 112 tokens/s (Llama-3-8B bf16 on an RTX 5090)
    assert formulas.decode_bound_tokens_per_s(1792, 16e9) == pytest.approx(112)
    assert formulas.ridge_point(104.8e12, 1792e9) == pytest.approx(58.48, rel=1e-3)
    assert formulas.roofline_attainable(1.0, 1e12, 1e11) == 1e11
    assert formulas.gemm_intensity(1024, 1024, 1024, "float32") == pytest.approx(2 * 1024**3 / (3 * 1024**2 * 4))


def test_named_formulas_validate_their_inputs() -> None:
    assert formulas.evaluate_formula("weights_bytes", {"n_params": 1e9, "dtype": "float16"}) == 2e9
    assert formulas.evaluate_formula("kv_cache_bytes", {"layers": 1, "kv_heads": 1, "head_dim": 1,
                                                        "seq_len": 1}) == 4  # batch defaults to 1, bf16
    with pytest.raises(FormulaError, match="unknown formula"):
        formulas.evaluate_formula("os.system", {})
    with pytest.raises(FormulaError, match="outside"):
        formulas.evaluate_formula("weights_bytes", {"n_params": 1e20})
    with pytest.raises(FormulaError, match="unknown input"):
        formulas.evaluate_formula("weights_bytes", {"n_params": 1, "evil": 2})
    with pytest.raises(FormulaError, match="finite number"):
        formulas.evaluate_formula("weights_bytes", {"n_params": "1e9"})
    with pytest.raises(FormulaError, match="missing"):
        formulas.evaluate_formula("decode_bound_tokens_per_s", {"bandwidth_gbs": 1})


def test_every_named_formula_runs_on_its_bounds() -> None:
    for name, spec in formulas.FORMULAS.items():
        inputs = {i.name: (i.default if i.default is not None else max(i.minimum, 1)) for i in spec.inputs}
        value = formulas.evaluate_formula(name, inputs)
        assert value == value, name  # not NaN
        assert spec.description and spec.result_unit


def test_cpu_peak_and_inference_formulas() -> None:
    from tutor.theory.formulas import evaluate_formula

    # Fase 1 theory 01: 2 cores × 2.6 GHz × 64 FLOPs/cycle (AVX-512, 2 FMA pipes) = 332.8 GFLOP/s
    assert evaluate_formula("cpu_peak_flops", {"cores": 2, "ghz": 2.6, "flops_per_cycle": 64}) == 332.8e9
    # Nivel 0 L3: Llama-3-8B in bf16 at 8192 tokens = 16.06 GB of weights + 1.07 GB of KV cache
    total = evaluate_formula("inference_bytes", {"n_params": 8030261248, "layers": 32, "kv_heads": 8,
                                                 "head_dim": 128, "seq_len": 8192, "dtype": "bfloat16"})
    assert total == 8030261248 * 2 + 2 * 32 * 8 * 128 * 8192 * 2
