"""The formulas the lessons teach — pure Python, no torch.

Units: bytes are plain bytes (GB = 1e9 bytes, GiB = 2**30); bandwidth in GB/s (1e9 bytes/s); FLOP/s in FLOP/s
unless a name says ``gflops``/``tflops``. ``dtype`` is one of :data:`DTYPE_BYTES`.

:data:`FORMULAS` is the registry exercise YAML refers to by name: an exercise never runs code, it names a formula
and passes bounded numeric inputs, which :func:`evaluate_formula` validates against each formula's
:class:`FormulaSpec`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from tutor.theory.errors import FormulaError

DTYPE_BYTES: dict[str, int] = {
    "float64": 8,
    "float32": 4,
    "tfloat32": 4,
    "bfloat16": 2,
    "float16": 2,
    "float8": 1,
    "int8": 1,
    "int4": 0,  # handled specially: half a byte
}

GB = 1e9
GIB = 2**30


def dtype_bytes(dtype: str) -> float:
    """Bytes per element of ``dtype`` (0.5 for int4)."""
    if dtype == "int4":
        return 0.5
    try:
        return float(DTYPE_BYTES[dtype])
    except KeyError:
        raise FormulaError(f"unknown dtype {dtype!r} (known: {', '.join(DTYPE_BYTES)})") from None


# -- memory ---------------------------------------------------------------------------------------------------


def weights_bytes(n_params: float, dtype: str = "bfloat16") -> float:
    """Bytes of the weights: parameters × bytes per element."""
    return n_params * dtype_bytes(dtype)


def kv_cache_bytes(
    layers: int, kv_heads: int, head_dim: int, seq_len: int, batch: int = 1, dtype: str = "bfloat16",
    sliding_window: int | None = None,
) -> float:
    """Bytes of the KV cache: 2 (K and V) × layers × kv_heads × head_dim × tokens × batch × bytes, where tokens is
    ``seq_len``, or ``min(seq_len, sliding_window)`` for a model whose layers attend to (and cache) only the last
    ``sliding_window`` tokens (Mistral-7B-v0.1: 4096)."""
    tokens = seq_len if sliding_window is None else min(seq_len, sliding_window)
    return 2 * layers * kv_heads * head_dim * tokens * batch * dtype_bytes(dtype)


def naive_attention_bytes(batch: int, heads: int, seq_len: int, dtype: str = "bfloat16") -> float:
    """What one layer's naive attention holds at its peak in a prefill of ``seq_len`` tokens at once: the scores,
    B × heads × S × S elements, twice (each element-wise op on them, the scale, the mask and the softmax, holds its
    input and its output at once), plus the causal mask and its negation, one byte per S × S entry each.

    Measured with the storage tracker on the CPU (``tutor.measure.model.attention``): the scale's output and the
    mask's output are the two copies at the peak. A fused kernel (FlashAttention, PyTorch's SDPA) never writes the
    scores out, and holds none of this."""
    return 2 * batch * heads * seq_len**2 * dtype_bytes(dtype) + 2 * seq_len**2


def logits_bytes(batch: int, seq_len: int, vocab: int, dtype: str = "bfloat16") -> float:
    """The logits a forward pass over ``seq_len`` tokens writes: B × S × vocabulary elements."""
    return batch * seq_len * vocab * dtype_bytes(dtype)


def prefill_working_bytes(batch: int, heads: int, seq_len: int, vocab: int, dtype: str = "bfloat16") -> float:
    """The prefill's working memory above weights and KV cache, naive attention over the whole prompt at once: the
    larger of one layer's :func:`naive_attention_bytes` and the :func:`logits_bytes` (they are never held
    together: a layer's scores are freed before the next layer runs)."""
    return max(naive_attention_bytes(batch, heads, seq_len, dtype), logits_bytes(batch, seq_len, vocab, dtype))


def activation_bytes(
    layers: int, hidden: int, heads: int, seq_len: int, batch: int = 1, dtype: str = "bfloat16"
) -> float:
    """Activations kept for the backward pass of a transformer, no recomputation.

    Korthikanti et al. 2022 ("Reducing Activation Recomputation"): per layer ``s·b·h·(34 + 5·a·s/h)`` bytes at
    16-bit; scaled by ``bytes(dtype) / 2`` for other dtypes.

    The coefficients are a GPT block's (dropout, a 4h GELU MLP, as many K/V heads as query heads): for Llama it is
    an approximation, :data:`ACTIVATION_LLAMA_EAGER_RATIO` below what transformers' eager attention keeps.
    """
    per_layer = seq_len * batch * hidden * (34 + 5 * heads * seq_len / hidden)
    return layers * per_layer * dtype_bytes(dtype) / 2


ACTIVATION_LLAMA_EAGER_RATIO = (1.24, 1.37)
"""What the backward of a Llama block under transformers' eager attention keeps, over :func:`activation_bytes`
(issue 31's review; ``bench/check_presets_hf.py --activations`` measures it with saved-tensor hooks: 1.25-1.30 on
three small Llama shapes here). The course quotes this range beside the formula."""


def adam_training_bytes(n_params: float, activations: float = 0.0, bytes_per_param: float = 16.0) -> float:
    """Training memory with Adam in mixed precision: 16 bytes/param plus activations.

    16 = 2 (bf16 weights) + 2 (bf16 grads) + 4 (fp32 master weights) + 4 + 4 (Adam m and v). Plain fp32 Adam is
    also 16 (4 weights + 4 grads + 8 moments).
    """
    return n_params * bytes_per_param + activations


def cuda_context_bytes(gpu_memory_gb: float | None = None) -> float:
    """An estimate of the CUDA context (driver, cuBLAS/cuDNN workspaces and kernels) outside torch's allocator.

    Typically 300–600 MB on recent drivers and GPUs; we use 500 MB (a bit more on very large GPUs).
    """
    if gpu_memory_gb is not None and gpu_memory_gb > 60:
        return 0.6 * GB
    return 0.5 * GB


def inference_bytes(
    n_params: float,
    layers: int,
    kv_heads: int,
    head_dim: int,
    seq_len: int,
    batch: int = 1,
    dtype: str = "bfloat16",
    kv_dtype: str | None = None,
) -> float:
    """Inference memory: weights + KV cache (context not included)."""
    return weights_bytes(n_params, dtype) + kv_cache_bytes(
        layers, kv_heads, head_dim, seq_len, batch, kv_dtype or dtype
    )


def cpu_peak_flops(cores: int, ghz: float, flops_per_cycle: int) -> float:
    """The theoretical peak of a CPU: cores × clock × FLOPs per cycle per core (Fase 1, theory 01)."""
    return cores * ghz * 1e9 * flops_per_cycle


# -- throughput -----------------------------------------------------------------------------------------------


def decode_bound_tokens_per_s(bandwidth_gbs: float, bytes_per_token: float) -> float:
    """Upper bound on decode tokens/s per sequence: every token reads all weights (and the KV cache) once."""
    if bytes_per_token <= 0:
        raise FormulaError("bytes_per_token must be positive")
    return bandwidth_gbs * GB / bytes_per_token


def arithmetic_intensity(flops: float, bytes_moved: float) -> float:
    """FLOPs per byte moved to and from memory."""
    if bytes_moved <= 0:
        raise FormulaError("bytes moved must be positive")
    return flops / bytes_moved


def ridge_point(peak_flops: float, peak_bandwidth_bytes_per_s: float) -> float:
    """The arithmetic intensity (FLOP/byte) where the roofline bends: peak FLOP/s ÷ peak bytes/s."""
    if peak_bandwidth_bytes_per_s <= 0:
        raise FormulaError("peak bandwidth must be positive")
    return peak_flops / peak_bandwidth_bytes_per_s


def roofline_attainable(intensity: float, peak_flops: float, peak_bandwidth_bytes_per_s: float) -> float:
    """Attainable FLOP/s at an arithmetic intensity: min(peak, intensity × bandwidth)."""
    return min(peak_flops, intensity * peak_bandwidth_bytes_per_s)


def gemm_flops(m: int, n: int, k: int, batch: int = 1) -> int:
    """2·M·N·K per GEMM (one multiply and one add per inner-product term)."""
    return 2 * m * n * k * batch


def gemm_bytes(m: int, n: int, k: int, dtype: str = "float32", batch: int = 1) -> float:
    """Minimum traffic of a GEMM: read A (M×K) and B (K×N), write C (M×N), once each."""
    return batch * (m * k + k * n + m * n) * dtype_bytes(dtype)


def gemm_intensity(m: int, n: int, k: int, dtype: str = "float32") -> float:
    """Arithmetic intensity of a GEMM with minimum traffic (FLOP/byte)."""
    return gemm_flops(m, n, k) / gemm_bytes(m, n, k, dtype)


def attention_flops(batch: int, heads: int, seq_len: int, head_dim: int) -> int:
    """Matmul FLOPs of attention: QKᵀ and PV, 2·B·H·S²·D each (softmax not counted)."""
    return 4 * batch * heads * seq_len * seq_len * head_dim


def transformer_forward_flops_per_token(n_params: float) -> float:
    """≈ 2 FLOPs per parameter per token for a forward pass (attention over the context not counted)."""
    return 2 * n_params


def transformer_training_flops_per_token(n_params: float) -> float:
    """≈ 6 FLOPs per parameter per token for forward + backward."""
    return 6 * n_params


def mfu(achieved_flops: float, peak_flops: float) -> float:
    """Model FLOPs utilisation as PaLM defines it: the model's FLOP/s ÷ the device's *theoretical* peak (the
    datasheet on a GPU; cores × clock × SIMD width on a CPU). Over a *measured* peak it is another figure:
    :func:`fraction_of_peak`."""
    if peak_flops <= 0:
        raise FormulaError("peak FLOP/s must be positive")
    return achieved_flops / peak_flops


def fraction_of_peak(achieved_flops: float, peak_flops: float) -> float:
    """The fraction of a peak (measured or theoretical) that an achieved FLOP/s reaches."""
    if peak_flops <= 0:
        raise FormulaError("peak FLOP/s must be positive")
    return achieved_flops / peak_flops


def flops_ratio(numerator_flops: float, denominator_flops: float) -> float:
    """One FLOP/s rate over another (e.g. bf16 over fp32: a speed-up)."""
    if denominator_flops <= 0:
        raise FormulaError("the denominator FLOP/s must be positive")
    return numerator_flops / denominator_flops


def bandwidth_ratio(numerator_gbs: float, denominator_gbs: float) -> float:
    """One bandwidth over another (e.g. L2 over DRAM)."""
    if denominator_gbs <= 0:
        raise FormulaError("the denominator bandwidth must be positive")
    return numerator_gbs / denominator_gbs


def time_at_bandwidth_s(bytes_moved: float, bandwidth_gbs: float) -> float:
    """Seconds to move ``bytes_moved`` at ``bandwidth_gbs``."""
    return bytes_moved / (bandwidth_gbs * GB)


def speedup_over_bandwidth_bound(
    bytes_moved: float, bandwidth_gbs: float, time_s: float, bytes_scale: float = 1.0
) -> float:
    """How many times faster a measured ``time_s`` is than the fastest possible run of a kernel that moves
    ``bytes_scale × bytes_moved`` at ``bandwidth_gbs`` (its memory-roof time): e.g. an int8 matvec (its measured
    bytes) against the fp32 matvec of the same shape (4× those bytes) at the measured roof (claim 4 of Fase 1:
    quantisation saves bytes)."""
    if time_s <= 0:
        raise FormulaError("the measured time must be positive")
    return time_at_bandwidth_s(bytes_scale * bytes_moved, bandwidth_gbs) / time_s


def time_at_rate_s(flops: float, rate_gflops: float) -> float:
    """Seconds to do ``flops`` floating-point operations at ``rate_gflops``."""
    if rate_gflops <= 0:
        raise FormulaError("the rate must be positive")
    return flops / (rate_gflops * 1e9)


# -- model presets --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelPreset:
    """A published model architecture (the numbers in ``models.yaml``)."""

    key: str
    display: str
    source: str
    n_params: int
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    mlp: str
    vocab: int
    tied_embeddings: bool
    max_seq_len: int
    sliding_window: int | None = None
    """Tokens each layer attends to and caches (``None``: the whole context)."""

    def weights_bytes(self, dtype: str = "bfloat16") -> float:
        return weights_bytes(self.n_params, dtype)

    def kv_cache_bytes(self, seq_len: int, batch: int = 1, dtype: str = "bfloat16") -> float:
        return kv_cache_bytes(self.layers, self.kv_heads, self.head_dim, seq_len, batch, dtype, self.sliding_window)

    def decode_bytes_per_token(self, dtype: str = "bfloat16") -> float:
        """Bytes of weights one decode step reads: every matrix once, but only one row of an untied input
        embedding (a lookup, not a matmul; the measured decode bound, ``weight_bytes_per_step``, follows the same
        rule). A tied embedding is read whole, as the output projection."""
        embedding = 0 if self.tied_embeddings else self.vocab * self.hidden
        return weights_bytes(self.n_params - embedding, dtype)

    def activation_bytes(self, seq_len: int, batch: int = 1, dtype: str = "bfloat16") -> float:
        return activation_bytes(self.layers, self.hidden, self.heads, seq_len, batch, dtype)

    def prefill_flops_per_token(self, seq_len: int) -> float:
        """FLOPs per prompt token of a prefill of ``seq_len`` tokens, as n0-l1 counts them: 2 per parameter of the
        matrices (the untied input embedding is a lookup, as in :meth:`decode_bytes_per_token`) plus attention's
        QKᵀ and PV over the whole context (:func:`attention_flops` per layer, the causal mask not discounted)."""
        embedding = 0 if self.tied_embeddings else self.vocab * self.hidden
        attention = attention_flops(1, self.heads, seq_len, self.head_dim) * self.layers / seq_len
        return 2 * (self.n_params - embedding) + attention


_PRESETS_FILE = Path(__file__).with_name("models.yaml")


@cache
def model_presets() -> dict[str, ModelPreset]:
    """The bundled model presets by key (e.g. ``"llama-3-8b"``)."""
    raw = yaml.safe_load(_PRESETS_FILE.read_text(encoding="utf-8"))
    return {key: ModelPreset(key=key, **fields) for key, fields in raw.items()}


def model_preset(key: str) -> ModelPreset:
    presets = model_presets()
    try:
        return presets[key]
    except KeyError:
        raise FormulaError(f"unknown model preset {key!r} (known: {', '.join(presets)})") from None


# -- the named-formula registry -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FormulaInput:
    """One numeric input of a named formula, with its unit and bounds."""

    name: str
    unit: str
    minimum: float
    maximum: float
    integer: bool = False
    default: float | None = None


@dataclass(frozen=True)
class FormulaSpec:
    """A formula an exercise may name: its inputs (bounded), the unit of its result, and what it computes."""

    name: str
    func: Callable[..., float]
    inputs: tuple[FormulaInput, ...]
    result_unit: str
    description: str
    dtype_input: bool = False

    def __call__(self, **kwargs: Any) -> float:
        return evaluate_formula(self.name, kwargs)


_BIG = 1e15


def _i(name: str, unit: str, lo: float, hi: float, default: float | None = None) -> FormulaInput:
    return FormulaInput(name, unit, lo, hi, integer=True, default=default)


def _f(name: str, unit: str, lo: float, hi: float, default: float | None = None) -> FormulaInput:
    return FormulaInput(name, unit, lo, hi, integer=False, default=default)


# The shape of a KV cache, shared by the formulas that count one.
_KV_SHAPE = (
    _i("layers", "layers", 1, 1000),
    _i("kv_heads", "heads", 1, 1024),
    _i("head_dim", "elements", 1, 4096),
    _i("seq_len", "tokens", 1, 10_000_000),
    _i("batch", "sequences", 1, 100_000, 1),
)

FORMULAS: dict[str, FormulaSpec] = {
    spec.name: spec
    for spec in (
        FormulaSpec(
            "weights_bytes",
            weights_bytes,
            (_f("n_params", "parameters", 1, 1e13),),
            "bytes",
            "parameters × bytes per element of dtype",
            dtype_input=True,
        ),
        FormulaSpec(
            "kv_cache_bytes",
            kv_cache_bytes,
            _KV_SHAPE,
            "bytes",
            "2 × layers × kv_heads × head_dim × seq_len × batch × bytes per element",
            dtype_input=True,
        ),
        FormulaSpec(
            "inference_bytes",
            inference_bytes,
            (_f("n_params", "parameters", 1, 1e13), *_KV_SHAPE),
            "bytes",
            "weights (n_params × bytes per element) + KV cache (2 × layers × kv_heads × head_dim × seq_len × batch"
            " × bytes per element), CUDA context not included",
            dtype_input=True,
        ),
        FormulaSpec(
            "cpu_peak_flops",
            cpu_peak_flops,
            (
                _i("cores", "cores", 1, 4096),
                _f("ghz", "GHz", 0.1, 10),
                _i("flops_per_cycle", "FLOP/cycle/core", 1, 4096),
            ),
            "FLOP/s",
            "cores × GHz × FLOPs per cycle per core (2 FMA pipes × SIMD lanes × 2)",
        ),
        FormulaSpec(
            "activation_bytes",
            activation_bytes,
            (
                _i("layers", "layers", 1, 1000),
                _i("hidden", "elements", 1, 100_000),
                _i("heads", "heads", 1, 1024),
                _i("seq_len", "tokens", 1, 10_000_000),
                _i("batch", "sequences", 1, 100_000, 1),
            ),
            "bytes",
            "layers × s·b·h·(34 + 5·a·s/h) × bytes/2 (Korthikanti et al. 2022; for Llama an approximation:"
            " HF eager attention keeps 1.24–1.37× of it)",
            dtype_input=True,
        ),
        FormulaSpec(
            "adam_training_bytes",
            adam_training_bytes,
            (
                _f("n_params", "parameters", 1, 1e13),
                _f("activations", "bytes", 0, _BIG, 0),
                _f("bytes_per_param", "bytes/parameter", 1, 64, 16),
            ),
            "bytes",
            "n_params × 16 bytes (bf16 weights+grads, fp32 master, Adam m and v) + activations",
        ),
        FormulaSpec(
            "cuda_context_bytes",
            cuda_context_bytes,
            (_f("gpu_memory_gb", "GB", 0, 10_000, 32),),
            "bytes",
            "estimated CUDA context outside torch's allocator",
        ),
        FormulaSpec(
            "decode_bound_tokens_per_s",
            decode_bound_tokens_per_s,
            (_f("bandwidth_gbs", "GB/s", 1e-3, 1e6), _f("bytes_per_token", "bytes", 1, _BIG)),
            "tokens/s",
            "bandwidth ÷ bytes read per token",
        ),
        FormulaSpec(
            "arithmetic_intensity",
            arithmetic_intensity,
            (_f("flops", "FLOP", 0, 1e21), _f("bytes_moved", "bytes", 1, _BIG)),
            "FLOP/byte",
            "FLOPs ÷ bytes moved",
        ),
        FormulaSpec(
            "ridge_point",
            ridge_point,
            (_f("peak_flops", "FLOP/s", 1, 1e19), _f("peak_bandwidth_bytes_per_s", "bytes/s", 1, 1e15)),
            "FLOP/byte",
            "peak FLOP/s ÷ peak bytes/s",
        ),
        FormulaSpec(
            "roofline_attainable",
            roofline_attainable,
            (
                _f("intensity", "FLOP/byte", 0, 1e9),
                _f("peak_flops", "FLOP/s", 1, 1e19),
                _f("peak_bandwidth_bytes_per_s", "bytes/s", 1, 1e15),
            ),
            "FLOP/s",
            "min(peak FLOP/s, intensity × bandwidth)",
        ),
        FormulaSpec(
            "gemm_flops",
            gemm_flops,
            (_i("m", "rows", 1, 1e7), _i("n", "columns", 1, 1e7), _i("k", "elements", 1, 1e7),
             _i("batch", "matrices", 1, 1e6, 1)),
            "FLOP",
            "2·M·N·K per matrix",
        ),
        FormulaSpec(
            "gemm_bytes",
            gemm_bytes,
            (_i("m", "rows", 1, 1e7), _i("n", "columns", 1, 1e7), _i("k", "elements", 1, 1e7)),
            "bytes",
            "(M·K + K·N + M·N) × bytes per element",
            dtype_input=True,
        ),
        FormulaSpec(
            "gemm_intensity",
            gemm_intensity,
            (_i("m", "rows", 1, 1e7), _i("n", "columns", 1, 1e7), _i("k", "elements", 1, 1e7)),
            "FLOP/byte",
            "2·M·N·K ÷ ((M·K + K·N + M·N) × bytes)",
            dtype_input=True,
        ),
        FormulaSpec(
            "attention_flops",
            attention_flops,
            (_i("batch", "sequences", 1, 1e5), _i("heads", "heads", 1, 1024), _i("seq_len", "tokens", 1, 1e7),
             _i("head_dim", "elements", 1, 4096)),
            "FLOP",
            "4·B·H·S²·D (QKᵀ and PV)",
        ),
        FormulaSpec(
            "transformer_forward_flops_per_token",
            transformer_forward_flops_per_token,
            (_f("n_params", "parameters", 1, 1e13),),
            "FLOP/token",
            "≈ 2 × parameters",
        ),
        FormulaSpec(
            "transformer_training_flops_per_token",
            transformer_training_flops_per_token,
            (_f("n_params", "parameters", 1, 1e13),),
            "FLOP/token",
            "≈ 6 × parameters",
        ),
        FormulaSpec(
            "mfu",
            mfu,
            (_f("achieved_flops", "FLOP/s", 0, 1e19), _f("peak_flops", "FLOP/s", 1, 1e19)),
            "fraction",
            "model FLOP/s ÷ the device's theoretical peak FLOP/s (PaLM's MFU)",
        ),
        FormulaSpec(
            "fraction_of_peak",
            fraction_of_peak,
            (_f("achieved_flops", "FLOP/s", 0, 1e19), _f("peak_flops", "FLOP/s", 1, 1e19)),
            "fraction",
            "achieved FLOP/s ÷ a peak FLOP/s",
        ),
        FormulaSpec(
            "flops_ratio",
            flops_ratio,
            (_f("numerator_flops", "FLOP/s", 0, 1e19), _f("denominator_flops", "FLOP/s", 1e-3, 1e19)),
            "fraction",
            "one FLOP/s rate ÷ another",
        ),
        FormulaSpec(
            "bandwidth_ratio",
            bandwidth_ratio,
            (_f("numerator_gbs", "GB/s", 0, 1e7), _f("denominator_gbs", "GB/s", 1e-6, 1e7)),
            "fraction",
            "one bandwidth ÷ another",
        ),
        FormulaSpec(
            "speedup_over_bandwidth_bound",
            speedup_over_bandwidth_bound,
            (_f("bytes_moved", "bytes", 0, _BIG), _f("bandwidth_gbs", "GB/s", 1e-3, 1e6),
             _f("time_s", "s", 1e-12, 1e6), _f("bytes_scale", "x", 1e-3, 1e3, 1.0)),
            "fraction",
            "(bytes_scale × bytes ÷ bandwidth) ÷ measured time: the memory-roof time of another kernel over this"
            " one's",
        ),
        FormulaSpec(
            "time_at_rate_s",
            time_at_rate_s,
            (_f("flops", "FLOP", 0, 1e24), _f("rate_gflops", "GFLOP/s", 1e-9, 1e10)),
            "s",
            "FLOPs ÷ FLOP/s",
        ),
        FormulaSpec(
            "time_at_bandwidth_s",
            time_at_bandwidth_s,
            (_f("bytes_moved", "bytes", 0, _BIG), _f("bandwidth_gbs", "GB/s", 1e-3, 1e6)),
            "s",
            "bytes ÷ bandwidth",
        ),
    )
}


def evaluate_formula(name: str, inputs: Mapping[str, Any]) -> float:
    """Evaluate the named formula on validated inputs; a bad name or input raises :class:`FormulaError`."""
    spec = FORMULAS.get(name)
    if spec is None:
        raise FormulaError(f"unknown formula {name!r} (known: {', '.join(sorted(FORMULAS))})")
    known = {i.name for i in spec.inputs} | ({"dtype"} if spec.dtype_input else set())
    extra = sorted(set(inputs) - known)
    if extra:
        raise FormulaError(f"{name}: unknown input {extra[0]!r} (inputs: {', '.join(sorted(known))})")
    kwargs: dict[str, Any] = {}
    for item in spec.inputs:
        if item.name not in inputs:
            if item.default is None:
                raise FormulaError(f"{name}: missing input {item.name!r} ({item.unit})")
            value: Any = item.default
        else:
            value = inputs[item.name]
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise FormulaError(f"{name}: {item.name} must be a finite number, got {value!r}")
        if not item.minimum <= value <= item.maximum:
            raise FormulaError(f"{name}: {item.name}={value:g} is outside [{item.minimum:g}, {item.maximum:g}]")
        kwargs[item.name] = int(value) if item.integer else float(value)
    if spec.dtype_input:
        dtype = inputs.get("dtype", "bfloat16")
        if dtype not in DTYPE_BYTES:
            raise FormulaError(f"{name}: unknown dtype {dtype!r}")
        kwargs["dtype"] = dtype
    return float(spec.func(**kwargs))
