"""The workloads' kernels (imports torch; only the measuring process imports this module).

``build(name, params, device)`` allocates random non-zero inputs once and returns a zero-argument callable that
runs the kernel into preallocated outputs where torch allows it, so the timed call is the kernel and not the
allocator.
"""

from __future__ import annotations

import ctypes
import math
import random
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import numpy as np
import torch

from tutor.measure.device import check_dtype
from tutor.measure.registry import (
    WORKLOADS,
    AttentionParams,
    BmmParams,
    GemmParams,
    Int8MatvecParams,
    MlpParams,
    NumpyMatmulParams,
    PythonMatmulParams,
    RowsParams,
    StreamParams,
    WorkloadParams,
)

TORCH_DTYPES: dict[str, torch.dtype] = {
    "float32": torch.float32,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float64": torch.float64,
}

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_GLIBC_DEFAULT_THRESHOLD = 128 * 1024


def _libc() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


@contextmanager
def cached_allocations() -> Iterator[None]:
    """While timing kernels that allocate their outputs (softmax, layer norm, attention), keep freed memory
    mapped, as CUDA's caching allocator does on the GPU: glibc otherwise returns every large block to the OS, and
    the timed call would measure page faults instead of the kernel.

    Restored afterwards (and the heap trimmed): left on, a large freed heap slows later small-tensor work.
    """
    libc = _libc()
    if libc is None:
        yield
        return
    try:
        libc.mallopt(_M_MMAP_THRESHOLD, 2**30)
        libc.mallopt(_M_TRIM_THRESHOLD, 2**31 - 1)
    except AttributeError:
        yield
        return
    try:
        yield
    finally:
        libc.mallopt(_M_MMAP_THRESHOLD, _GLIBC_DEFAULT_THRESHOLD)
        libc.mallopt(_M_TRIM_THRESHOLD, _GLIBC_DEFAULT_THRESHOLD)
        libc.malloc_trim(0)


def torch_dtype(name: str) -> torch.dtype:
    return TORCH_DTYPES[name]


def rand(*shape: int, dtype: str = "float32", device: str = "cpu", generator: torch.Generator | None = None
         ) -> torch.Tensor:
    """Uniform random values in [0.5, 1.5): non-zero, so no kernel can skip work on zeros."""
    t = torch.rand(*shape, dtype=torch.float32 if dtype in ("float16", "bfloat16") else TORCH_DTYPES[dtype],
                   device=device, generator=generator)
    t.add_(0.5)
    return t.to(TORCH_DTYPES[dtype])


def build(name: str, p: WorkloadParams | Mapping[str, object], device: str) -> Callable[[], Any]:
    """A zero-argument callable running workload ``name`` once on ``device`` with its typed parameters ``p``
    (:func:`tutor.measure.registry.validate_params`, or a family's dataclass built directly; a mapping of
    checked values is made that family's dataclass first)."""
    typed = WORKLOADS[name].typed(p)
    if name in _PY_BUILDERS:
        return _PY_BUILDERS[name](typed)
    check_dtype(device, typed.element_type)
    return _TORCH_BUILDERS[name](typed, device)


# -- torch ----------------------------------------------------------------------------------------------------


STREAM_SCALAR = 3.0
"""STREAM's scalar (scale and triad)."""


def stream_set(names: tuple[str, ...] | list[str], p: StreamParams | Mapping[str, object], dev: str
               ) -> dict[str, Callable[[], Any]]:
    """STREAM's kernels over one set of three arrays, as ``stream.c`` runs them: two inputs ``a``, ``b`` (random,
    non-zero, never written) and the output ``c`` every kernel writes (copy ``c = a``, scale ``c = 3·a``, add
    ``c = a + b``, triad ``c = a + 3·b``): each a single pass over its arrays into preallocated memory — the loop
    STREAM times, and the bytes it counts (copy and scale 2 words per element, add and triad 3).

    The output is touched once here (its pages faulted in), so no timed call pays the first touch; the inputs never
    change, so repeated calls cannot overflow. Sharing the arrays lets the roof and the bench interleave the
    kernels round by round (a quiet moment on a shared machine then reaches every kernel alike) in three arrays'
    memory, as STREAM does."""
    typed = p if isinstance(p, StreamParams) else WORKLOADS["copy"].typed(p)
    check_dtype(dev, typed.dtype)
    n, dtype = typed.n, typed.dtype
    a, b = rand(n, dtype=dtype, device=dev), rand(n, dtype=dtype, device=dev)
    c = torch.empty(n, dtype=torch_dtype(dtype), device=dev)
    c.fill_(0)
    makers: dict[str, Callable[[], Callable[[], Any]]] = {
        "copy": lambda: (lambda: c.copy_(a)),
        "scale": lambda: (lambda: torch.mul(a, STREAM_SCALAR, out=c)),
        "add": lambda: (lambda: torch.add(a, b, out=c)),
        "triad": lambda: (lambda: torch.add(a, b, alpha=STREAM_SCALAR, out=c)),
    }
    unknown = [name for name in names if name not in makers]
    if unknown:
        raise KeyError(f"not a STREAM kernel: {', '.join(unknown)}")
    return {name: makers[name]() for name in names}


def _copy(p: StreamParams, dev: str) -> Callable[[], Any]:
    a, b = rand(p.n, dtype=p.dtype, device=dev), torch.empty(p.n, dtype=torch_dtype(p.dtype), device=dev)
    return lambda: b.copy_(a)


def _scale(p: StreamParams, dev: str) -> Callable[[], Any]:
    a, b = rand(p.n, dtype=p.dtype, device=dev), torch.empty(p.n, dtype=torch_dtype(p.dtype), device=dev)
    return lambda: torch.mul(a, 3.0, out=b)


def _add(p: StreamParams, dev: str) -> Callable[[], Any]:
    a, b = rand(p.n, dtype=p.dtype, device=dev), rand(p.n, dtype=p.dtype, device=dev)
    c = torch.empty_like(a)
    return lambda: torch.add(a, b, out=c)


def _triad(p: StreamParams, dev: str) -> Callable[[], Any]:
    b, c = rand(p.n, dtype=p.dtype, device=dev), rand(p.n, dtype=p.dtype, device=dev)
    a = torch.empty_like(b)
    return lambda: torch.add(b, c, alpha=3.0, out=a)


def _axpy(p: StreamParams, dev: str) -> Callable[[], Any]:
    x, y = rand(p.n, dtype=p.dtype, device=dev), rand(p.n, dtype=p.dtype, device=dev)
    # α·x + y, in place; α = 1e-6 keeps repeated runs from overflowing low-precision dtypes.
    return lambda: y.add_(x, alpha=1e-6)


def _sum(p: StreamParams, dev: str) -> Callable[[], Any]:
    a = rand(p.n, dtype=p.dtype, device=dev)
    out = torch.empty((), dtype=a.dtype, device=dev)
    return lambda: torch.sum(a, dim=0, out=out)


def _softmax(p: RowsParams, dev: str) -> Callable[[], Any]:
    x = rand(p.rows, p.cols, dtype=p.dtype, device=dev)
    return lambda: torch.softmax(x, dim=-1)


def _layernorm(p: RowsParams, dev: str) -> Callable[[], Any]:
    x = rand(p.rows, p.cols, dtype=p.dtype, device=dev)
    w, b = rand(p.cols, dtype=p.dtype, device=dev), rand(p.cols, dtype=p.dtype, device=dev)
    return lambda: torch.nn.functional.layer_norm(x, (p.cols,), w, b)


def _gemm(p: GemmParams, dev: str) -> Callable[[], Any]:
    a = rand(p.m, p.k, dtype=p.dtype, device=dev)
    b = rand(p.k, p.n, dtype=p.dtype, device=dev)
    c = torch.empty(p.m, p.n, dtype=a.dtype, device=dev)
    return lambda: torch.mm(a, b, out=c)


def _bmm(p: BmmParams, dev: str) -> Callable[[], Any]:
    a = rand(p.batch, p.m, p.k, dtype=p.dtype, device=dev)
    b = rand(p.batch, p.k, p.n, dtype=p.dtype, device=dev)
    c = torch.empty(p.batch, p.m, p.n, dtype=a.dtype, device=dev)
    return lambda: torch.bmm(a, b, out=c)


def _mlp_block(p: MlpParams, dev: str) -> Callable[[], Any]:
    t, h, dtype = p.tokens, p.hidden, p.dtype
    x = rand(t, h, dtype=dtype, device=dev)
    ln_w, ln_b = rand(h, dtype=dtype, device=dev), rand(h, dtype=dtype, device=dev)
    # Weights scaled by 1/√fan-in, as an initialised layer is: the activations stay O(1) in every dtype.
    w1 = rand(4 * h, h, dtype=dtype, device=dev).mul_(h ** -0.5)
    w2 = rand(h, 4 * h, dtype=dtype, device=dev).mul_((4 * h) ** -0.5)
    functional = torch.nn.functional

    def block() -> torch.Tensor:
        y = functional.linear(functional.layer_norm(x, (h,), ln_w, ln_b), w1)
        return x + functional.linear(functional.gelu(y), w2)

    return block


def _matvec_int8(p: Int8MatvecParams, dev: str) -> Callable[[], Any]:
    """torch's weight-only int8 kernel (``_weight_int8pack_mm``, what torchao's int8 weight-only quantisation
    runs): int8 weights in [1, 127] (none zero), a bf16 scale per output row, one bf16 activation row."""
    generator = torch.Generator(device="cpu").manual_seed(0)
    w = torch.randint(1, 128, (p.rows, p.cols), dtype=torch.int8, generator=generator).to(dev)
    x = rand(1, p.cols, dtype="bfloat16", device=dev)
    scales = rand(p.rows, dtype="bfloat16", device=dev)
    return lambda: torch._weight_int8pack_mm(x, w, scales)


def _qkv(p: AttentionParams, dev: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    shape = (p.batch, p.heads, p.seq_len, p.head_dim)
    return tuple(rand(*shape, dtype=p.dtype, device=dev) for _ in range(3))  # type: ignore[return-value]


def attention_math(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """softmax(Q·Kᵀ/√d)·V with the S×S scores materialised — the textbook ("naive") attention."""
    scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(q.shape[-1]))
    return torch.matmul(torch.softmax(scores, dim=-1), v)


def _attention_naive(p: AttentionParams, dev: str) -> Callable[[], Any]:
    q, k, v = _qkv(p, dev)
    return lambda: attention_math(q, k, v)


def _attention_sdpa(p: AttentionParams, dev: str) -> Callable[[], Any]:
    q, k, v = _qkv(p, dev)
    return lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v)


# Each builder takes its family's parameters; the registry's validation built the one its workload names.
_TORCH_BUILDERS: dict[str, Callable[[Any, str], Callable[[], Any]]] = {
    "copy": _copy,
    "scale": _scale,
    "add": _add,
    "triad": _triad,
    "axpy": _axpy,
    "sum": _sum,
    "softmax": _softmax,
    "layernorm": _layernorm,
    "gemm": _gemm,
    "bmm": _bmm,
    "mlp_block": _mlp_block,
    "matvec_int8": _matvec_int8,
    "attention_naive": _attention_naive,
    "attention_sdpa": _attention_sdpa,
}


# -- Python and NumPy (CPU only) ------------------------------------------------------------------------------


def matmul_python(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    """The triple loop, as a first-year course writes it."""
    n, k, m = len(a), len(b), len(b[0])
    c = [[0.0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            acc = 0.0
            for t in range(k):
                acc += a[i][t] * b[t][j]
            c[i][j] = acc
    return c


def _matmul_python(p: PythonMatmulParams) -> Callable[[], Any]:
    rng = random.Random(0)
    n = p.n
    a = [[rng.uniform(0.5, 1.5) for _ in range(n)] for _ in range(n)]
    b = [[rng.uniform(0.5, 1.5) for _ in range(n)] for _ in range(n)]
    return lambda: matmul_python(a, b)


def _matmul_numpy(p: NumpyMatmulParams) -> Callable[[], Any]:
    rng = np.random.default_rng(0)
    dt = np.float32 if p.dtype == "float32" else np.float64
    a = (rng.random((p.n, p.n)) + 0.5).astype(dt)
    b = (rng.random((p.n, p.n)) + 0.5).astype(dt)
    c = np.empty_like(a)
    return lambda: np.matmul(a, b, out=c)


_PY_BUILDERS: dict[str, Callable[[Any], Callable[[], Any]]] = {
    "matmul_python": _matmul_python,
    "matmul_numpy": _matmul_numpy,
}
