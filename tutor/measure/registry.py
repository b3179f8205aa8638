"""The workload registry: every kernel an exercise or lab may name, with bounded parameters and its analytic
FLOP and byte counts. Importable without torch (the content checker validates exercise YAML against it).

Byte counts follow STREAM: each array element read or written once counts one word (copy/scale 2 words per
element, add/triad/axpy 3); write-allocate traffic is not counted. FLOP counts follow
``torch.utils.flop_counter.FlopCounterMode`` for matmul-class ops (2·M·N·K; attention counts QKᵀ and PV only), and
count one FLOP per arithmetic operation per element for element-wise ops (which FlopCounterMode does not count).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Generic, TypeVar

from tutor.measure.errors import WorkloadError
from tutor.results.measurement import ParamValue
from tutor.results.wire import JsonObject
from tutor.theory.formulas import attention_flops, dtype_bytes, gemm_bytes, gemm_flops

FLOAT_DTYPES: tuple[str, ...] = ("float32", "float16", "bfloat16", "float64")

# No lesson pack can ask for more than this working set (all inputs and outputs together).
MAX_WORKING_SET_BYTES = 4 * 2**30

Params = dict[str, ParamValue]
"""Parameters by name, as a request carries them (validated by :class:`Param`; a sweep's and the memory run's)."""


# -- a workload's validated parameters, typed: one frozen dataclass per family of kernels ------------------------


@dataclass(frozen=True)
class WorkloadParams:
    """A workload's validated parameters, built by :func:`validate_params`: a builder reads ``p.n``, ``p.dtype``.
    Each family's fields are its :class:`Param` schema's names, in its order, so :meth:`to_json` is the request's
    ``params`` object as the worker and the store have always written it."""

    def to_json(self) -> JsonObject:
        return asdict(self)

    @property
    def element_type(self) -> str:
        """The dtype the kernel runs in (``float32`` for the workloads that name none)."""
        return str(getattr(self, "dtype", "float32"))


@dataclass(frozen=True)
class StreamParams(WorkloadParams):
    """copy, scale, add, triad, axpy, sum: ``n`` elements per array."""

    n: int
    dtype: str = "float32"


@dataclass(frozen=True)
class RowsParams(WorkloadParams):
    """softmax, layernorm: a ``rows`` × ``cols`` matrix, reduced over ``cols``."""

    rows: int
    cols: int
    dtype: str = "float32"


@dataclass(frozen=True)
class GemmParams(WorkloadParams):
    """C = A·B with A ``m`` × ``k`` and B ``k`` × ``n``."""

    m: int
    n: int
    k: int
    dtype: str = "float32"


@dataclass(frozen=True)
class BmmParams(WorkloadParams):
    """``batch`` GEMMs of ``m`` × ``k`` by ``k`` × ``n``."""

    batch: int
    m: int
    n: int
    k: int
    dtype: str = "float32"


@dataclass(frozen=True)
class MlpParams(WorkloadParams):
    """A transformer MLP block on ``tokens`` rows of width ``hidden``."""

    tokens: int
    hidden: int
    dtype: str = "float32"


@dataclass(frozen=True)
class Int8MatvecParams(WorkloadParams):
    """The int8 weight matrix's ``rows`` (output features) and ``cols`` (input features); its types are fixed."""

    rows: int
    cols: int


@dataclass(frozen=True)
class AttentionParams(WorkloadParams):
    """Q, K and V of ``batch`` × ``heads`` × ``seq_len`` × ``head_dim``."""

    batch: int
    heads: int
    seq_len: int
    head_dim: int
    dtype: str = "float32"


@dataclass(frozen=True)
class PythonMatmulParams(WorkloadParams):
    """Two ``n`` × ``n`` lists of Python floats."""

    n: int


@dataclass(frozen=True)
class NumpyMatmulParams(WorkloadParams):
    """Two ``n`` × ``n`` NumPy arrays."""

    n: int
    dtype: str = "float32"


P = TypeVar("P", bound=WorkloadParams)


# -- a lab sweep's validated parameters, typed: one frozen dataclass per sweep -------------------------------------


@dataclass(frozen=True)
class SweepParams:
    """A sweep's validated parameters (fields named as its :class:`Param` schema, in its order); :meth:`to_json` is
    the request's ``params`` object."""

    def to_json(self) -> JsonObject:
        return asdict(self)


@dataclass(frozen=True)
class WorkingSetParams(SweepParams):
    """Copy bandwidth from ``min_kib`` KiB to ``max_mib`` MiB of working set, ``points_per_octave`` per doubling."""

    min_kib: int
    max_mib: int
    points_per_octave: int
    dtype: str = "float32"


@dataclass(frozen=True)
class GemmSizesParams(SweepParams):
    """``points`` square GEMMs of side ``min_n`` to ``max_n``."""

    min_n: int
    max_n: int
    points: int
    dtype: str = "float32"


@dataclass(frozen=True)
class NaiveVsNumpyParams(SweepParams):
    """The Python loop measured up to ``max_naive_n`` (extrapolated beyond), numpy up to ``max_n``."""

    max_naive_n: int
    max_n: int


@dataclass(frozen=True)
class GemmShareParams(SweepParams):
    """The training step profiled at batch 1, 2, 4… up to ``max_batch``, ``steps`` steps a point."""

    max_batch: int
    steps: int


@dataclass(frozen=True)
class RooflinePointsParams(SweepParams):
    """The roofline's kernels in ``dtype``."""

    dtype: str = "float32"


@dataclass(frozen=True)
class Param:
    """One parameter of a workload: an integer with bounds, or a dtype from an allow-list."""

    name: str
    default: ParamValue
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None
    help: str = ""

    def validate(self, owner: str, value: object) -> ParamValue:
        if self.choices is not None:
            if not isinstance(value, str) or value not in self.choices:
                raise WorkloadError(
                    f"{owner}: {self.name}={value!r} is not allowed (allowed: {', '.join(self.choices)})"
                )
            return value
        if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
            raise WorkloadError(f"{owner}: {self.name} must be an integer, got {value!r}")
        value = int(value)
        if self.minimum is not None and value < self.minimum:
            raise WorkloadError(f"{owner}: {self.name}={value} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise WorkloadError(f"{owner}: {self.name}={value} exceeds the limit {self.maximum}")
        return value

    def to_dict(self) -> JsonObject:
        """The parameter as ``tutor measure list --json`` shows it."""
        out: JsonObject = {"name": self.name, "default": self.default, "help": self.help}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        else:
            out["minimum"], out["maximum"] = self.minimum, self.maximum
        return out


def _dtype(default: str = "float32", choices: tuple[str, ...] = FLOAT_DTYPES) -> Param:
    return Param("dtype", default, choices=choices, help="element type")


def _int(name: str, default: int, lo: int, hi: int, help: str = "") -> Param:
    return Param(name, default, lo, hi, help=help)


@dataclass(frozen=True)
class Workload(Generic[P]):
    """A registered kernel: name, bounded parameters (its schema, and the typed ``params_type`` validation
    builds), analytic FLOPs and bytes of those parameters, and how to build and run it."""

    name: str
    description: str
    params: tuple[Param, ...]
    params_type: type[P]
    flops_of: Callable[[P], int]
    bytes_of: Callable[[P], int]
    memory_of: Callable[[P], int]
    kind: str = "torch"  # "torch", "numpy" or "python": which engine runs it
    devices: tuple[str, ...] = ("cpu", "cuda")
    defaults_note: str = ""
    tags: tuple[str, ...] = field(default=())

    def defaults(self) -> Params:
        return {p.name: p.default for p in self.params}

    def typed(self, values: P | Mapping[str, object]) -> P:
        """The typed parameters of already-checked ``values`` (each named by the schema; no bounds applied)."""
        return self.params_type(**values) if isinstance(values, Mapping) else values

    def flops_fn(self, params: P | Mapping[str, object]) -> int:
        """FLOPs of one call with ``params`` as given (the formula; no bounds checked)."""
        return self.flops_of(self.typed(params))

    def bytes_fn(self, params: P | Mapping[str, object]) -> int:
        """Bytes one call moves with ``params`` as given, counted as STREAM counts them (no bounds checked)."""
        return self.bytes_of(self.typed(params))

    def memory_fn(self, params: P | Mapping[str, object]) -> int:
        """Bytes the workload allocates with ``params`` as given (no bounds checked)."""
        return self.memory_of(self.typed(params))

    def _of(self, params: WorkloadParams | Mapping[str, ParamValue]) -> P:
        if isinstance(params, self.params_type):
            return params
        if isinstance(params, WorkloadParams):
            raise WorkloadError(f"{self.name}: parameters of another workload ({type(params).__name__})")
        return validate_params(self.name, params)  # type: ignore[return-value]

    def flops(self, params: WorkloadParams | Mapping[str, ParamValue]) -> int:
        return int(self.flops_fn(self._of(params)))

    def bytes_moved(self, params: WorkloadParams | Mapping[str, ParamValue]) -> int:
        return int(self.bytes_fn(self._of(params)))

    def memory_bytes(self, params: WorkloadParams | Mapping[str, ParamValue]) -> int:
        """Bytes the workload allocates (inputs, outputs and intermediates)."""
        return int(self.memory_fn(self._of(params)))

    def arithmetic_intensity(self, params: WorkloadParams | Mapping[str, ParamValue]) -> float:
        return self.flops(params) / max(1, self.bytes_moved(params))

    def build(self, params: WorkloadParams | Mapping[str, ParamValue], device: str = "cpu") -> Callable[[], Any]:
        """Allocate random non-zero inputs on ``device`` and return a zero-argument callable that runs the
        kernel once (imports torch; call it only in the measuring process)."""
        kernels = importlib.import_module("tutor.measure.kernels")
        return kernels.build(self.name, self._of(params), device)  # type: ignore[no-any-return]

    def run(self, params: WorkloadParams | Mapping[str, ParamValue], device: str = "cpu") -> Any:
        """Build and run the kernel once; returns its output."""
        return self.build(params, device)()

    def to_dict(self) -> JsonObject:
        return {
            "name": self.name,
            "description": self.description,
            "kind": self.kind,
            "devices": list(self.devices),
            "params": [p.to_dict() for p in self.params],
        }


def _b(p: WorkloadParams) -> float:
    return dtype_bytes(p.element_type)


_N = _int("n", 2**25, 1024, 2**28, "elements per array")
_ROWS = _int("rows", 4096, 1, 65536, "rows")
_COLS = _int("cols", 4096, 1, 65536, "columns (the reduced dimension)")


def _stream(name: str, words: int, flops_per_elem: int, arrays: int, description: str
            ) -> Workload[StreamParams]:
    return Workload(
        name,
        description,
        (_N, _dtype()),
        StreamParams,
        lambda p: flops_per_elem * p.n,
        lambda p: int(words * p.n * _b(p)),
        lambda p: int(arrays * p.n * _b(p)),
        tags=("stream", "memory"),
    )


def _attention_naive_bytes(p: AttentionParams) -> int:
    b, h, s, d = p.batch, p.heads, p.seq_len, p.head_dim
    # Q, K, V read and O written, plus six passes over S×S as the kernel runs them: scores written; read and
    # written again by the 1/√d scaling; read by softmax, probabilities written; read by the product with V.
    return int((4 * b * h * s * d + 6 * b * h * s * s) * _b(p))


_ATTN_PARAMS = (
    _int("batch", 1, 1, 64),
    _int("heads", 8, 1, 128),
    _int("seq_len", 1024, 1, 16384),
    _int("head_dim", 64, 1, 256),
    _dtype(),
)

WORKLOADS: dict[str, Workload[Any]] = {
    w.name: w
    for w in (
        _stream("copy", 2, 0, 2, "b = a (STREAM copy: 2 words per element)"),
        _stream("scale", 2, 1, 2, "b = q·a (STREAM scale: 2 words, 1 FLOP per element)"),
        _stream("add", 3, 1, 3, "c = a + b (STREAM add: 3 words, 1 FLOP per element)"),
        _stream("triad", 3, 2, 3, "a = b + q·c (STREAM triad: 3 words, 2 FLOPs per element)"),
        _stream("axpy", 3, 2, 2, "y = α·x + y in place (3 words, 2 FLOPs per element)"),
        Workload(
            "sum",
            "s = Σ a (reduction: 1 word and 1 FLOP per element)",
            (_N, _dtype()),
            StreamParams,
            lambda p: p.n,
            lambda p: int(p.n * _b(p)),
            lambda p: int(p.n * _b(p)),
            tags=("reduction", "memory"),
        ),
        Workload(
            "softmax",
            "row-wise softmax (max, subtract, exp, sum, divide: 5 FLOPs and 2 words per element)",
            (_ROWS, _COLS, _dtype()),
            RowsParams,
            lambda p: 5 * p.rows * p.cols,
            lambda p: int(2 * p.rows * p.cols * _b(p)),
            lambda p: int(2 * p.rows * p.cols * _b(p)),
            tags=("memory",),
        ),
        Workload(
            "layernorm",
            "layer norm over the last dimension with weight and bias (≈8 FLOPs and 2 words per element)",
            (_ROWS, _COLS, _dtype()),
            RowsParams,
            lambda p: 8 * p.rows * p.cols,
            lambda p: int((2 * p.rows * p.cols + 2 * p.cols) * _b(p)),
            lambda p: int((2 * p.rows * p.cols + 2 * p.cols) * _b(p)),
            tags=("memory",),
        ),
        Workload(
            "gemm",
            "C = A·B with A M×K and B K×N (2·M·N·K FLOPs; reads A and B, writes C once at best)",
            (_int("m", 2048, 1, 16384), _int("n", 2048, 1, 16384), _int("k", 2048, 1, 16384), _dtype()),
            GemmParams,
            lambda p: gemm_flops(p.m, p.n, p.k),
            lambda p: int(gemm_bytes(p.m, p.n, p.k, p.dtype)),
            lambda p: int(gemm_bytes(p.m, p.n, p.k, p.dtype)),
            tags=("compute",),
        ),
        Workload(
            "bmm",
            "batched GEMM: batch × (M×K)·(K×N)",
            (
                _int("batch", 8, 1, 4096),
                _int("m", 512, 1, 8192),
                _int("n", 512, 1, 8192),
                _int("k", 512, 1, 8192),
                _dtype(),
            ),
            BmmParams,
            lambda p: gemm_flops(p.m, p.n, p.k, p.batch),
            lambda p: int(gemm_bytes(p.m, p.n, p.k, p.dtype, p.batch)),
            lambda p: int(gemm_bytes(p.m, p.n, p.k, p.dtype, p.batch)),
            tags=("compute",),
        ),
        Workload(
            "mlp_block",
            "a transformer MLP block on T tokens: x + W2·gelu(W1·layer_norm(x)), W1 4h×h and W2 h×4h (two GEMMs of "
            "8·T·h² FLOPs each; the layer norm, GELU and residual add ≈ 41·T·h FLOPs)",
            (_int("tokens", 512, 1, 8192, "tokens (rows of x)"), _int("hidden", 1024, 16, 8192, "model width h"),
             _dtype()),
            MlpParams,
            lambda p: 16 * p.tokens * p.hidden ** 2 + 41 * p.tokens * p.hidden,
            # At minimum traffic: the two weight matrices and the layer norm's parameters read, x read, out written.
            lambda p: int((8 * p.hidden ** 2 + 2 * p.hidden + 2 * p.tokens * p.hidden) * _b(p)),
            # Weights, x, the normalised x, the 4h-wide activation before and after GELU, and the output.
            lambda p: int((8 * p.hidden ** 2 + 2 * p.hidden + 11 * p.tokens * p.hidden) * _b(p)),
            tags=("compute",),
        ),
        Workload(
            "matvec_int8",
            "weight-only int8 matvec y = (x·Wᵀ)·s: W rows×cols int8 (1 B a weight), one bf16 scale a row, x bf16 "
            "(2·rows·cols FLOPs; reads the int8 weights once)",
            (_int("rows", 8192, 16, 16384, "output features"), _int("cols", 8192, 16, 16384, "input features"),),
            Int8MatvecParams,
            lambda p: 2 * p.rows * p.cols,
            lambda p: p.rows * p.cols + 2 * p.cols + 4 * p.rows,
            lambda p: p.rows * p.cols + 2 * p.cols + 4 * p.rows,
            tags=("memory", "quantised"),
        ),
        Workload(
            "attention_naive",
            "softmax(Q·Kᵀ/√d)·V with the S×S score matrix materialised (4·B·H·S²·D matmul FLOPs)",
            _ATTN_PARAMS,
            AttentionParams,
            lambda p: attention_flops(p.batch, p.heads, p.seq_len, p.head_dim),
            _attention_naive_bytes,
            lambda p: int((4 * p.batch * p.heads * p.seq_len * p.head_dim
                           + 2 * p.batch * p.heads * p.seq_len ** 2) * _b(p)),
            tags=("attention",),
        ),
        Workload(
            "attention_sdpa",
            "torch scaled_dot_product_attention (fused; ideal traffic Q, K, V read and O written once)",
            _ATTN_PARAMS,
            AttentionParams,
            lambda p: attention_flops(p.batch, p.heads, p.seq_len, p.head_dim),
            lambda p: int(4 * p.batch * p.heads * p.seq_len * p.head_dim * _b(p)),
            lambda p: int((4 * p.batch * p.heads * p.seq_len * p.head_dim
                           + 2 * p.batch * p.heads * p.seq_len ** 2) * _b(p)),
            tags=("attention",),
        ),
        Workload(
            "matmul_python",
            "pure-Python triple loop over lists of floats (2·N³ FLOPs) — the Fase 1 baseline",
            (_int("n", 64, 2, 160),),
            PythonMatmulParams,
            lambda p: gemm_flops(p.n, p.n, p.n),
            lambda p: 3 * p.n ** 2 * 8,
            lambda p: 3 * p.n ** 2 * 32,
            kind="python",
            devices=("cpu",),
            tags=("compute",),
        ),
        Workload(
            "matmul_numpy",
            "numpy.matmul of two N×N arrays (2·N³ FLOPs, BLAS underneath)",
            (_int("n", 512, 2, 8192), _dtype("float32", ("float32", "float64"))),
            NumpyMatmulParams,
            lambda p: gemm_flops(p.n, p.n, p.n),
            lambda p: int(3 * p.n ** 2 * _b(p)),
            lambda p: int(3 * p.n ** 2 * _b(p)),
            kind="numpy",
            devices=("cpu",),
            tags=("compute",),
        ),
    )
}


@dataclass(frozen=True)
class SweepSpec:
    """A lab sweep (op "sweep"): its bounded parameters, the typed ``params_type`` validation builds, and what it
    plots."""

    name: str
    description: str
    params: tuple[Param, ...]
    params_type: type[SweepParams]
    x_label: str
    y_label: str

    def defaults(self) -> Params:
        return {p.name: p.default for p in self.params}

    def typed(self, values: Mapping[str, object]) -> SweepParams:
        """The typed parameters of already-validated ``values`` (:func:`validate_sweep_params`)."""
        return self.params_type(**values)

    def to_dict(self) -> JsonObject:
        return {"name": self.name, "description": self.description, "params": [p.to_dict() for p in self.params],
                "x_label": self.x_label, "y_label": self.y_label}


SWEEPS: dict[str, SweepSpec] = {
    s.name: s
    for s in (
        SweepSpec(
            "working_set",
            "bandwidth of a copy vs working-set size, across L1 → L2 → L3 → DRAM",
            (
                _int("min_kib", 16, 4, 1024, "smallest working set (KiB)"),
                _int("max_mib", 512, 1, 2048, "largest working set (MiB)"),
                _int("points_per_octave", 2, 1, 4, "points per doubling of size"),
                _dtype("float32", ("float32", "float64")),
            ),
            WorkingSetParams,
            "working set (bytes)",
            "GB/s",
        ),
        SweepSpec(
            "gemm_sizes",
            "square GEMM FLOP/s vs N",
            (_int("min_n", 64, 8, 16384), _int("max_n", 2048, 8, 16384),
             _int("points", 6, 2, 16), _dtype()),
            GemmSizesParams,
            "N",
            "GFLOP/s",
        ),
        SweepSpec(
            "naive_vs_numpy",
            "pure-Python triple loop vs numpy.matmul; the naive loop is measured at small N and extrapolated by N³",
            (_int("max_naive_n", 96, 8, 160), _int("max_n", 1024, 16, 4096)),
            NaiveVsNumpyParams,
            "N",
            "GFLOP/s",
        ),
        SweepSpec(
            "gemm_share",
            "share of a training step's time spent in GEMMs (torch.profiler self time) vs tokens per step",
            (_int("max_batch", 8, 1, 16, "largest batch (sequences of the model's training length)"),
             _int("steps", 1, 1, 3, "profiled steps per point")),
            GemmShareParams,
            "tokens per step",
            "% of the step in GEMMs",
        ),
        SweepSpec(
            "roofline_points",
            "the measured roofline with a point per kernel (copy, triad, softmax, GEMMs of growing N)",
            (_dtype(),),
            RooflinePointsParams,
            "arithmetic intensity (FLOP/byte)",
            "GFLOP/s",
        ),
    )
}


def _validate(owner: str, schema: tuple[Param, ...], params: Mapping[str, object] | None) -> Params:
    given = dict(params or {})
    names = [p.name for p in schema]
    unknown = [k for k in given if k not in names]
    if unknown:
        raise WorkloadError(f"{owner}: unknown parameter {unknown[0]!r} (parameters: {', '.join(names)})")
    return {p.name: p.validate(owner, given.get(p.name, p.default)) for p in schema}


def get_workload(name: str) -> Workload[Any]:
    try:
        return WORKLOADS[name]
    except KeyError:
        raise WorkloadError(f"unknown workload {name!r} (known: {', '.join(WORKLOADS)})") from None


def validate_params(name: str, params: Mapping[str, object] | None) -> WorkloadParams:
    """The full, validated, typed parameters of workload ``name`` (defaults filled in; its family's
    :class:`WorkloadParams`, e.g. :class:`GemmParams`).

    Raises :class:`WorkloadError` with a one-line message, e.g. ``gemm: m=10000000 exceeds the limit 16384``.
    """
    workload = get_workload(name)
    full = workload.typed(_validate(name, workload.params, params))
    need = int(workload.memory_fn(full))
    if need > MAX_WORKING_SET_BYTES:
        raise WorkloadError(
            f"{name}: these parameters need {need / 2**30:.1f} GiB, over the limit "
            f"{MAX_WORKING_SET_BYTES / 2**30:.0f} GiB"
        )
    return full


def validate_sweep_params(name: str, params: Mapping[str, object] | None) -> Params:
    """The full, validated parameter dict for sweep ``name``; raises :class:`WorkloadError`."""
    try:
        spec = SWEEPS[name]
    except KeyError:
        raise WorkloadError(f"unknown sweep {name!r} (known: {', '.join(SWEEPS)})") from None
    return _validate(name, spec.params, params)


def _vram_schema() -> tuple[Param, ...]:
    from tutor.theory.formulas import model_presets

    return (
        Param("preset", "llama-3-8b", choices=tuple(model_presets()), help="model preset"),
        Param("mode", "inference", choices=("inference", "training"), help="inference or Adam training"),
        _dtype("bfloat16", ("bfloat16", "float16", "float32")),
        _int("batch", 1, 1, 256, "sequences"),
        _int("seq_len", 4096, 1, 131072, "tokens of context"),
        _int("capacity_gb", 32, 1, 1024, "the memory the question asks about (GB)"),
    )


def validate_vram_params(params: Mapping[str, object] | None) -> Params:
    """The full, validated parameters of a ``"vram"`` request; raises :class:`WorkloadError`."""
    return _validate("vram", _vram_schema(), params)
