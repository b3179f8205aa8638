"""Measurement plans: the one place a measurement request is built, validated and bounded.

``build_request(spec, params=None, *, device=..., ...)`` turns what a lab or exercise asks for (a
:class:`~tutor.content.models.MeasureCall`, or any mapping with ``op``/``name``/``params``/``dram``) into a
:class:`Request`: typed, ranged parameters (unknown keys refused), the op's few options (``mode``, ``refresh``) in
their own field — so nothing a pack writes can replace ``op`` or ``name`` — and an :class:`Estimate` of its peak
memory (inputs, outputs and temporaries: a float16/bfloat16 input is made as float32 first, attention holds two
S×S matrices at once) and run time (FLOPs and bytes at deliberately slow rates, see :data:`RATES`). A request over
:data:`MAX_PEAK_BYTES` or :data:`MAX_SECONDS` is refused with a :class:`PlanError` naming the key to change, at
``tutor lessons check`` time and again when it is built to run. :func:`parse_request` validates a plain request
dict the same way (what :func:`tutor.measure.api.run_request` receives), and :meth:`Request.time_limit_s` is the
wall-clock limit the run gets.

Importable without torch (the content checker uses it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tutor.measure.errors import WorkloadError
from tutor.measure.modes import GAP_MODES, MODEL_MODES, ROOFLINE_MODES
from tutor.measure.registry import (
    MAX_WORKING_SET_BYTES,
    SWEEPS,
    WORKLOADS,
    AttentionParams,
    BmmParams,
    GemmParams,
    GemmShareParams,
    GemmSizesParams,
    NaiveVsNumpyParams,
    NumpyMatmulParams,
    Param,
    PythonMatmulParams,
    RooflinePointsParams,
    RowsParams,
    StreamParams,
    SweepParams,
    WorkingSetParams,
    WorkloadParams,
    _validate,
    get_workload,
    validate_sweep_params,
    validate_vram_params,
)
from tutor.results.measurement import ParamValue
from tutor.results.wire import JsonObject

OPS = ("workload", "sweep", "roofline", "vram", "decode", "decode_gap", "train_step", "bench")
PARAM_OPS = ("workload", "sweep", "vram")
MAX_PEAK_BYTES = MAX_WORKING_SET_BYTES
MAX_SECONDS = 240.0

# Deliberately slow rates, so an estimate bounds the run on a modest laptop: a 2-core CPU without AVX-512 does
# 50-100 GFLOP/s in float32 GEMM and ~10 GB/s of copy bandwidth; measured here (2-core Xeon, AMX) 350 GFLOP/s in
# float32, 1300 in bfloat16 and ~25 GB/s. A CPU without native 16-bit math converts, hence the low 16-bit rates.
RATES: dict[str, float] = {"float32": 10e9, "float64": 5e9, "bfloat16": 2e9, "float16": 1e9}
# Element-wise kernels (STREAM, reductions, softmax, layer norm): 16-bit ones convert each element on a CPU
# (measured here: a float16 softmax of 8192×4096 at 0.5 GFLOP/s).
ELEMENTWISE_RATES: dict[str, float] = {"float32": 2e9, "float64": 1e9, "bfloat16": 0.25e9, "float16": 0.25e9}
BANDWIDTH_BYTES_PER_S = 2e9
# Drawing the random inputs: torch.rand on a CPU fills ~25 M float32 values/s here under load (0.1 GB/s), and a
# 16-bit input is drawn in float32 and converted; 10 M values/s bounds it.
RANDOM_VALUES_PER_S = 10e6
PYTHON_FLOPS_PER_S = 5e6  # the pure-Python triple loop (measured here: 25e6)
GPU_FLOPS_PER_S = 5e12  # the vram op's full-scale run on a GPU (the CPU runs it narrowed, see vram.py)
CALL_OVERHEAD_S = 1e-4
# The time limit: the estimate (already slow) with a margin, plus the start of a fresh measuring process
# (importing torch) and, for ops judged against the roofline, measuring it when it is not cached yet.
LIMIT_MARGIN = 3.0
LIMIT_BASE_S = 60.0

# Options a request may carry beside op/name/params: what a pack may set per op, and what callers add.
PACK_OPTIONS: dict[str, tuple[Param, ...]] = {
    # refresh is a boolean (checked apart from the integer and choice parameters)
    "roofline": (Param("mode", "quick", choices=("quick", "full")), Param("refresh", False)),
    "decode": (Param("mode", "quick", choices=("quick", "full")),),
    "decode_gap": (Param("mode", "quick", choices=("quick", "full")),),
    "train_step": (Param("mode", "quick", choices=("quick", "full")),),
    "bench": (Param("mode", "quick", choices=("quick", "full")),),
    "sweep": (),
    "workload": (),
    "vram": (),
}
CALLER_OPTIONS = ("device", "mode", "refresh", "budget_s", "roofline_mode", "time_limit_s")
MODES = ("tiny", "quick", "full")


class PlanError(WorkloadError):
    """A request that cannot run as asked; ``key`` is where in the lab's/exercise's call to fix it, e.g.
    ``("params", "m")`` or ``("params",)`` for a cap the parameters together exceed."""

    def __init__(self, message: str, key: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class Estimate:
    """What a request will hold and take at most: peak bytes of the measuring process's data (inputs, outputs,
    temporaries) and seconds of measuring at the slow :data:`RATES`, plus seconds of prerequisites the pack does
    not choose (measuring the roofline when it is not cached)."""

    peak_bytes: int
    seconds: float
    setup_seconds: float = 0.0
    capped: bool = True  # False for work of a fixed size the pack cannot change (roofline, bench, the model)

    def to_dict(self) -> JsonObject:
        return {"peak_bytes": self.peak_bytes, "seconds": self.seconds, "setup_seconds": self.setup_seconds}


@dataclass(frozen=True)
class RequestOptions:
    """The options beside ``op`` and ``name``: the caller's (device, the roofline's mode, a workload's time
    budget, a shorter time limit) and the op's own (``mode``; ``refresh`` for the roofline). None: not given."""

    device: str | None = None
    mode: str | None = None
    refresh: bool | None = None
    budget_s: float | None = None
    roofline_mode: str | None = None
    time_limit_s: float | None = None

    def to_wire(self) -> dict[str, str | float | bool]:
        """The options given, under their request keys."""
        return {key: value for key in CALLER_OPTIONS if (value := getattr(self, key)) is not None}


@dataclass(frozen=True)
class Request:
    """A validated measurement request and its estimate: what the worker process runs. It crosses into the
    worker as :meth:`to_wire`'s plain dict and is read back there by :func:`parse_request`."""

    op: str
    name: str | None
    params: Mapping[str, ParamValue]
    """The validated parameters: each workload and sweep has its own names (checked against the registry's
    schema), every value a JSON scalar — a bounded integer or number, a dtype or choice, a flag."""
    options: RequestOptions = field(default_factory=RequestOptions)
    estimate: Estimate = field(default_factory=lambda: Estimate(0, 0.0))

    @property
    def device(self) -> str:
        return self.options.device or "auto"

    def mode(self, default: str = "quick") -> str:
        """The op's own mode (quick, full; tiny for tests)."""
        return self.options.mode or default

    @property
    def roofline_mode(self) -> str:
        return self.options.roofline_mode or "quick"

    @property
    def time_limit_s(self) -> float:
        """The wall-clock limit of the run, prerequisites included (measuring the roofline when it is not cached):
        the estimate with a margin (see :func:`time_limit_s`). The worker process is ended past it."""
        return time_limit_s(self.estimate, self.options.time_limit_s)

    @property
    def run_limit_s(self) -> float:
        """The limit of the measurement itself, the roofline's measuring time not counted: the engine stops the
        run past it (at its next look at the clock, between repeats)."""
        return time_limit_s(self.estimate, self.options.time_limit_s, with_setup=False)

    def to_wire(self) -> JsonObject:
        """The plain dict :func:`tutor.measure.api.run_request` takes. ``op`` and ``name`` are written last."""
        out: JsonObject = dict(self.options.to_wire())
        if self.op in PARAM_OPS:
            out["params"] = dict(self.params)
        out["op"] = self.op
        if self.name is not None:
            out["name"] = self.name
        return out


def time_limit_s(estimate: Estimate, requested: float | None = None, *, with_setup: bool = True) -> float:
    """``LIMIT_BASE_S + LIMIT_MARGIN × (estimate + prerequisites)``, or a shorter limit the caller asked for."""
    setup = estimate.setup_seconds if with_setup else 0.0
    limit = LIMIT_BASE_S + LIMIT_MARGIN * (estimate.seconds + setup)
    if requested is not None:
        limit = min(limit, float(requested))
    return float(limit)


# -- per-op estimates -------------------------------------------------------------------------------------------


def _bytes_of(dtype: str) -> int:
    return {"float64": 8, "float32": 4, "bfloat16": 2, "float16": 2}.get(dtype, 4)


def _typed(name: str, p: WorkloadParams | Mapping[str, ParamValue]) -> WorkloadParams:
    """Workload ``name``'s typed parameters (``p`` already checked against its schema, every name given)."""
    return p if isinstance(p, WorkloadParams) else get_workload(name).typed(dict(p))


def _inputs_of(name: str, p: WorkloadParams) -> list[int]:
    """Element counts of each input workload ``name``'s kernel creates (one at a time)."""
    if isinstance(p, StreamParams):
        return [p.n] * (1 if name in ("copy", "scale", "sum") else 2)
    if isinstance(p, RowsParams):
        return [p.rows * p.cols]
    if isinstance(p, GemmParams):
        return [p.m * p.k, p.k * p.n]
    if isinstance(p, BmmParams):
        return [p.batch * p.m * p.k, p.batch * p.k * p.n]
    if isinstance(p, AttentionParams):
        return [p.batch * p.heads * p.seq_len * p.head_dim] * 3
    return []


def workload_peak_bytes(name: str, p: WorkloadParams | Mapping[str, ParamValue]) -> int:
    """Peak bytes of workload ``name`` with validated params ``p``: the registry's inputs, outputs and
    intermediates, plus temporaries — a float16/bfloat16 input is drawn in float32 and converted (a float32 copy
    of the largest input lives meanwhile), and 16-bit softmax, layer norm and naive attention are counted with a
    float32 buffer the size of the rows they normalise (the CPU kernels accumulate in float32)."""
    w = get_workload(name)
    q = _typed(name, p)
    peak = int(w.memory_fn(q))
    if q.element_type in ("float16", "bfloat16"):
        sizes = _inputs_of(name, q)
        if sizes:
            peak += 4 * max(sizes)
        if isinstance(q, RowsParams):
            peak += 4 * q.rows * q.cols
        if name == "attention_naive" and isinstance(q, AttentionParams):
            peak += 4 * q.batch * q.heads * q.seq_len ** 2
    return peak


def _rate(name: str, dtype: str) -> float:
    w = WORKLOADS[name]
    if w.kind == "python":
        return PYTHON_FLOPS_PER_S
    if "compute" in w.tags or "attention" in w.tags:
        return RATES.get(dtype, RATES["float32"])
    return ELEMENTWISE_RATES.get(dtype, ELEMENTWISE_RATES["float32"])


def call_seconds(name: str, p: WorkloadParams | Mapping[str, ParamValue]) -> float:
    """Seconds of one call of workload ``name`` at the slow rates: FLOPs ÷ rate + bytes ÷ bandwidth."""
    w = WORKLOADS[name]
    q = _typed(name, p)
    return w.flops_fn(q) / _rate(name, q.element_type) + w.bytes_fn(q) / BANDWIDTH_BYTES_PER_S + CALL_OVERHEAD_S


def _setup_seconds(peak_bytes: int, drawn_values: int = 0) -> float:
    """Allocating (a pass over the data) and drawing ``drawn_values`` random input values."""
    return peak_bytes / BANDWIDTH_BYTES_PER_S + drawn_values / RANDOM_VALUES_PER_S


def drawn_values(name: str, p: WorkloadParams | Mapping[str, ParamValue]) -> int:
    """Random values workload ``name`` draws for its inputs (``n²`` each for the N×N matmuls)."""
    q = _typed(name, p)
    if isinstance(q, PythonMatmulParams | NumpyMatmulParams):
        return 2 * q.n ** 2
    return sum(_inputs_of(name, q))


def _timed_seconds(per_call: float, *, probe: int, warmup: int, min_repeats: int, budget_s: float) -> float:
    """``time_callable`` after ``choose_inner``: probe calls, warm-up, then min_repeats samples or the budget."""
    return per_call * (probe + warmup + min_repeats + 1) + budget_s


def _workload_estimate(name: str, p: Mapping[str, ParamValue], budget_s: float, roofline_mode: str = "quick"
                       ) -> Estimate:
    peak = workload_peak_bytes(name, p)
    per_call = call_seconds(name, p)
    python = WORKLOADS[name].kind == "python"
    seconds = _setup_seconds(peak, drawn_values(name, p)) + _timed_seconds(
        per_call, probe=0 if python else 4, warmup=1 if python else 2, min_repeats=3, budget_s=budget_s)
    return Estimate(peak, seconds, setup_seconds=roofline_seconds(roofline_mode))


def _sweep_estimate(p: SweepParams, mode: str = "quick") -> Estimate:
    from tutor.measure.outputs import naive_sizes

    peak, seconds, setup = 0, 0.0, 0.0
    if isinstance(p, WorkingSetParams):
        lo, hi = p.min_kib * 2**10, p.max_mib * 2**20
        count = max(2, round(math.log2(hi / lo) * p.points_per_octave) + 1)
        for i in range(count):
            size = int(lo * (hi / lo) ** (i / (count - 1)))
            per_call = size / BANDWIDTH_BYTES_PER_S + CALL_OVERHEAD_S
            elem = 4 if p.dtype == "float32" else 8
            seconds += _setup_seconds(size, size // (2 * elem)) + _timed_seconds(per_call, probe=4, warmup=1,
                                                                                min_repeats=5,
                                                             budget_s=0.15)
            peak = max(peak, size)
    elif isinstance(p, GemmSizesParams):
        lo, hi, count = p.min_n, max(p.min_n, p.max_n), p.points
        for n in sorted({round(lo * (hi / lo) ** (i / max(1, count - 1))) for i in range(count)}):
            q = GemmParams(m=n, n=n, k=n, dtype=p.dtype)
            point_peak = workload_peak_bytes("gemm", q)
            seconds += _setup_seconds(point_peak, drawn_values("gemm", q)) + _timed_seconds(
                call_seconds("gemm", q), probe=4, warmup=1, min_repeats=3, budget_s=0.3)
            peak = max(peak, point_peak)
    elif isinstance(p, NaiveVsNumpyParams):
        for n in naive_sizes(p.max_n):
            if n <= p.max_naive_n:
                seconds += call_seconds("matmul_python", PythonMatmulParams(n=n)) * (4 if n < 64 else 3)
                peak = max(peak, workload_peak_bytes("matmul_python", PythonMatmulParams(n=n)))
            numpy_q = NumpyMatmulParams(n=n, dtype="float64")
            seconds += _timed_seconds(call_seconds("matmul_numpy", numpy_q), probe=4, warmup=1, min_repeats=3,
                                      budget_s=0.3)
            peak = max(peak, workload_peak_bytes("matmul_numpy", numpy_q))
    elif isinstance(p, GemmShareParams):
        cfg = MODEL_CONFIGS[mode if mode in MODEL_CONFIGS else "quick"]
        for batch in [b for b in (1, 2, 4, 8, 16) if b <= p.max_batch] or [1]:
            tokens = batch * cfg.train_seq
            # the model built, one warm-up step and the profiled steps; the profiler doubles a step
            seconds += model_init_seconds(cfg) + 2 * (p.steps + 1) * train_step_seconds(cfg, tokens)
            peak = max(peak, train_peak_bytes(cfg, tokens))
    elif isinstance(p, RooflinePointsParams):
        dtype = p.dtype
        cases: list[tuple[str, WorkloadParams]] = [
            ("copy", StreamParams(n=2**24, dtype=dtype)), ("triad", StreamParams(n=2**24, dtype=dtype)),
            ("softmax", RowsParams(rows=2048, cols=2048, dtype=dtype)),
            ("layernorm", RowsParams(rows=2048, cols=2048, dtype=dtype)),
        ] + [("gemm", GemmParams(m=n, n=n, k=n, dtype=dtype)) for n in (32, 128, 512, 1024, 2048)]
        for case, case_q in cases:
            case_peak = workload_peak_bytes(case, case_q)
            seconds += _setup_seconds(case_peak, drawn_values(case, case_q)) + _timed_seconds(
                call_seconds(case, case_q), probe=4, warmup=1, min_repeats=3, budget_s=0.3)
            peak = max(peak, case_peak)
        setup = roofline_seconds("quick")
    return Estimate(peak, seconds, setup_seconds=setup)


@dataclass(frozen=True)
class ModelRun:
    """The bundled transformer of one mode as the estimates read it (from tutor.measure.modes.MODEL_MODES): its
    shape, the decode run (prompt and timed tokens, repeats, the larger batch) and the training batch."""

    vocab: int
    hidden: int
    layers: int
    intermediate: int
    prompt: int
    decode_steps: int
    decode_repeats: int
    big_batch: int
    train_batch: int
    train_seq: int
    train_steps: int


MODEL_CONFIGS: dict[str, ModelRun] = {
    mode: ModelRun(vocab=m.config.vocab, hidden=m.config.hidden, layers=m.config.layers,
                   intermediate=m.config.intermediate, prompt=m.prompt, decode_steps=m.decode_steps,
                   decode_repeats=m.decode_repeats, big_batch=m.big_batch, train_batch=m.train_batch,
                   train_seq=m.train_seq, train_steps=m.train_steps)
    for mode, m in MODEL_MODES.items()
}


def model_params(vocab: int, hidden: int, layers: int, intermediate: int) -> int:
    """Parameters of the bundled transformer: tied embedding, 4·h² attention and 2·h·i MLP per layer."""
    h = hidden
    return vocab * h + layers * (4 * h * h + 2 * h * intermediate + 4 * h)


def _params_of(cfg: ModelRun) -> int:
    return model_params(cfg.vocab, cfg.hidden, cfg.layers, cfg.intermediate)


def train_flops(cfg: ModelRun, tokens: int) -> float:
    """6·N FLOPs per token (forward + backward) plus the attention scores (12·L·h·S per token)."""
    return tokens * (6 * _params_of(cfg) + 12 * cfg.layers * cfg.hidden * cfg.train_seq)


def train_peak_bytes(cfg: ModelRun, tokens: int) -> int:
    """float32 weights, gradients and two Adam moments (16 B per parameter), and activations: ~34·h bytes per
    token per layer plus the logits (vocab × 4 B per token, twice for the loss)."""
    return int(16 * _params_of(cfg) + tokens * (cfg.layers * 34 * cfg.hidden + 8 * cfg.vocab))


def model_init_seconds(cfg: ModelRun) -> float:
    """Building the model: every weight drawn at random."""
    return _params_of(cfg) / RANDOM_VALUES_PER_S


def train_step_seconds(cfg: ModelRun, tokens: int) -> float:
    """One training step at the slow rates: the matmul FLOPs, plus the element-wise traffic the FLOP count leaves
    out — AdamW reading and writing 16 B per parameter, ~34·h bytes per token per layer of activations written
    and read back, the float32 logits and their gradient."""
    traffic = (2 * 16 * _params_of(cfg) + 2 * tokens * cfg.layers * 34 * cfg.hidden
               + 3 * 4 * tokens * cfg.vocab)
    return train_flops(cfg, tokens) / RATES["float32"] + traffic / BANDWIDTH_BYTES_PER_S


def _decode_seconds(cfg: ModelRun) -> float:
    n = _params_of(cfg)
    steps = 2 * (cfg.decode_repeats + 1) * (cfg.prompt + cfg.decode_steps)  # two thread counts
    seconds = model_init_seconds(cfg)
    for batch in (1, cfg.big_batch):
        per_step = 4 * n / BANDWIDTH_BYTES_PER_S + 2 * n * batch / RATES["float32"] + 20 * CALL_OVERHEAD_S
        seconds += steps * per_step
    return seconds


@dataclass(frozen=True)
class GapRun:
    """The decode-gap run of one mode (from tutor.measure.modes.GAP_MODES): (vocab, hidden, layers,
    intermediate) per model, prompt tokens, timed steps per round, rounds."""

    models: tuple[tuple[int, int, int, int], ...]
    prompt: int
    steps: int
    rounds: int


GAP_CONFIGS: dict[str, GapRun] = {
    mode: GapRun(models=tuple((c.vocab, c.hidden, c.layers, c.intermediate) for c in g.configs),
                 prompt=g.prompt, steps=g.steps, rounds=g.rounds)
    for mode, g in GAP_MODES.items()
}


def _gap_estimate(mode: str, roofline_mode: str = "quick") -> Estimate:
    cfg = GAP_CONFIGS[mode]
    peak, seconds = 0, 0.0
    for vocab, hidden, layers, inter in cfg.models:
        n = model_params(vocab, hidden, layers, inter)
        peak += 4 * n + 2 * layers * hidden * 512 * 4  # every model stays built; a 512-token KV cache each
        steps = cfg.rounds * (cfg.steps + 4 + cfg.prompt)
        seconds += steps * (4 * n / BANDWIDTH_BYTES_PER_S + 2 * n / RATES["float32"] + 20 * CALL_OVERHEAD_S)
    return Estimate(peak, seconds, setup_seconds=roofline_seconds(roofline_mode), capped=False)


def _train_seconds(cfg: ModelRun) -> float:
    """The model built, a FLOP-counting pass, a warm-up step and the timed steps."""
    tokens = cfg.train_batch * cfg.train_seq
    return model_init_seconds(cfg) + (cfg.train_steps + 2) * train_step_seconds(cfg, tokens)


@dataclass(frozen=True)
class RoofRun:
    """The roof's measurement of one mode on a CPU (from tutor.measure.modes.ROOFLINE_MODES): bytes of each
    STREAM array, how many STREAM kernels, the GEMM sides and dtypes, and the seconds each size may take."""

    stream_bytes: int
    kernels: int
    gemm_n: tuple[int, ...]
    dtypes: tuple[str, ...]
    budget_s: float


ROOFLINE_CONFIGS: dict[str, RoofRun] = {
    mode: RoofRun(stream_bytes=int(r["stream_bytes"]), kernels=len(r["stream_kernels"]), gemm_n=tuple(r["gemm_n"]),
                  dtypes=tuple(r["dtypes_cpu"]), budget_s=float(r["budget_s"]))
    for mode, r in ROOFLINE_MODES.items()
}


def _stream_array_bytes(mode: str) -> int:
    cfg = ROOFLINE_CONFIGS[mode]
    if mode == "tiny":
        return cfg.stream_bytes
    try:
        from tutor.measure.device import dram_working_set_bytes

        return max(cfg.stream_bytes, dram_working_set_bytes())
    except Exception:  # sysfs unreadable: the default size
        return cfg.stream_bytes


def roofline_seconds(mode: str) -> float:
    """Measuring the roofline in ``mode`` at the slow rates (STREAM rounds, then GEMMs per dtype)."""
    cfg = ROOFLINE_CONFIGS[mode]
    array = _stream_array_bytes(mode)
    seconds = cfg.kernels * (_setup_seconds(3 * array, 2 * array // 4) + 5 * 6 * 3 * array / BANDWIDTH_BYTES_PER_S
                             + cfg.budget_s)
    for dtype in cfg.dtypes:
        for n in cfg.gemm_n:
            q = GemmParams(m=n, n=n, k=n, dtype=dtype)
            seconds += _timed_seconds(call_seconds("gemm", q), probe=4, warmup=2, min_repeats=3,
                                      budget_s=cfg.budget_s)
    return seconds


def roofline_peak_bytes(mode: str) -> int:
    """Three STREAM arrays (triad) of 4× the last-level cache, or the mode's size."""
    return 3 * _stream_array_bytes(mode)


def _decode_config(mode: str, cfg: ModelRun) -> ModelRun:
    """The mode's model at the width decode will use on this machine (grown from the caches: see
    :mod:`tutor.measure.decode_sizing`)."""
    from tutor.measure.decode_sizing import reference_decode

    try:
        sizing = reference_decode(mode)
    except Exception:  # caches unreadable: the mode's own model
        return cfg
    return replace(cfg, hidden=sizing.hidden, intermediate=sizing.intermediate)


def _fixed_estimate(op: str, mode: str, roofline_mode: str = "quick") -> Estimate:
    cfg = MODEL_CONFIGS[mode]
    if op == "roofline":
        return Estimate(roofline_peak_bytes(mode), roofline_seconds(mode), capped=False)
    if op == "decode":
        cfg = _decode_config(mode, cfg)
        n = _params_of(cfg)
        kv = 2 * cfg.layers * cfg.hidden * (cfg.prompt + cfg.decode_steps + 8) * cfg.big_batch * 4
        return Estimate(4 * n + kv, _decode_seconds(cfg), setup_seconds=roofline_seconds(roofline_mode),
                        capped=False)
    if op == "decode_gap":
        return _gap_estimate(mode, roofline_mode)
    if op == "train_step":
        tokens = cfg.train_batch * cfg.train_seq
        return Estimate(train_peak_bytes(cfg, tokens), _train_seconds(cfg),
                        setup_seconds=roofline_seconds(roofline_mode), capped=False)
    # bench: the roofline, decode and a training step in the same mode
    parts = [_fixed_estimate(o, mode) for o in ("roofline", "decode", "train_step")]
    return Estimate(max(p.peak_bytes for p in parts), sum(p.seconds for p in parts), capped=False)


def _vram_estimate(p: Mapping[str, Any]) -> Estimate:
    """The CPU runs a narrowed model (small_config: 2 layers, hidden ÷ 16) at ≤ 128 tokens × ≤ 2 sequences; a
    GPU runs the full model, so its FLOPs at :data:`GPU_FLOPS_PER_S` bound the time. Peak bytes: the CPU run
    (the GPU's own memory is what the question asks about; running out of it is the answer, not a failure)."""
    from tutor.theory.formulas import model_preset

    preset = model_preset(p["preset"])
    training = p["mode"] == "training"
    tokens = p["batch"] * p["seq_len"]
    attn = 4 * preset.layers * preset.hidden * p["seq_len"] * tokens
    full_flops = (6 if training else 2) * preset.n_params * tokens + (3 if training else 1) * attn
    gpu_seconds = full_flops / GPU_FLOPS_PER_S
    hidden = max(8, preset.hidden // 16 // max(1, preset.heads // 8)) * max(1, preset.heads // 8)
    small = ModelRun(vocab=min(preset.vocab, 4096), hidden=hidden, layers=2,
                     intermediate=max(16, preset.intermediate // 16), prompt=0, decode_steps=0, decode_repeats=0,
                     big_batch=1, train_batch=min(p["batch"], 2), train_seq=min(p["seq_len"], 128), train_steps=0)
    small_tokens = small.train_batch * small.train_seq
    cpu_seconds = (3 if training else 1) * train_flops(small, small_tokens) / RATES["float32"]
    heads = max(1, preset.heads // 8)
    scores = 4 * 3 * small.train_batch * heads * small.train_seq ** 2 * small.layers
    cpu_peak = train_peak_bytes(small, small_tokens) + scores
    return Estimate(cpu_peak, max(gpu_seconds, cpu_seconds))


def estimate(request: Request) -> Estimate:
    """Peak bytes and seconds of ``request`` (its :attr:`Request.estimate`, computed again)."""
    return _estimate(request.op, request.name, request.params, request.options)


def _estimate(op: str, name: str | None, params: Mapping[str, Any], options: RequestOptions) -> Estimate:
    if op == "workload":
        assert name is not None
        return _workload_estimate(name, params, options.budget_s if options.budget_s is not None else 1.0,
                                  options.roofline_mode or "quick")
    if op == "sweep":
        assert name is not None
        return _sweep_estimate(SWEEPS[name].typed(params), options.mode or "quick")
    if op == "vram":
        return _vram_estimate(params)
    mode = options.mode or "quick"
    return _fixed_estimate(op, mode if mode in MODEL_CONFIGS else "quick", options.roofline_mode or "quick")


# -- validation -------------------------------------------------------------------------------------------------


def _param_key(exc: WorkloadError, params: Mapping[str, Any]) -> tuple[str, ...]:
    """Which parameter a registry message is about (``gemm: m=… exceeds`` → ("params", "m"))."""
    text = str(exc)
    for key in params:
        if f" {key}=" in text or f"{key!r}" in text or f" {key} " in text:
            return ("params", str(key))
    return ("params",)


def _check_caps(op: str, name: str | None, est: Estimate) -> None:
    what = f"{name}" if name else op
    if not est.capped:
        return
    if est.peak_bytes > MAX_PEAK_BYTES:
        raise PlanError(
            f"{what}: these parameters need about {est.peak_bytes / 2**30:.1f} GiB at their peak (inputs, outputs "
            f"and temporaries), over the limit of {MAX_PEAK_BYTES / 2**30:.0f} GiB", ("params",))
    if est.seconds > MAX_SECONDS:
        raise PlanError(
            f"{what}: these parameters would take about {est.seconds:.0f} s on a modest machine, over the limit "
            f"of {MAX_SECONDS:.0f} s; choose smaller sizes", ("params",))


def _cross_checks(p: SweepParams) -> None:
    if isinstance(p, GemmSizesParams) and p.min_n > p.max_n:
        raise PlanError(f"gemm_sizes: min_n={p.min_n} is above max_n={p.max_n}", ("params", "min_n"))
    if isinstance(p, WorkingSetParams) and p.min_kib * 2**10 >= p.max_mib * 2**20:
        raise PlanError(f"working_set: min_kib={p.min_kib} is not below max_mib={p.max_mib}",
                        ("params", "min_kib"))
    if isinstance(p, NaiveVsNumpyParams) and p.max_n < 8:
        raise PlanError("naive_vs_numpy: max_n must be at least 8", ("params", "max_n"))


def _validated_params(op: str, name: str | None, params: Mapping[str, Any]) -> dict[str, Any]:
    try:
        if op == "workload":
            if name not in WORKLOADS:
                raise PlanError(f"unknown workload {name!r} (known: {', '.join(sorted(WORKLOADS))})", ("name",))
            return _validate(name, WORKLOADS[name].params, params)
        if op == "sweep":
            if name not in SWEEPS:
                raise PlanError(f"unknown sweep {name!r} (known: {', '.join(sorted(SWEEPS))})", ("name",))
            full = validate_sweep_params(name, params)
            _cross_checks(SWEEPS[name].typed(full))
            return full
        if op == "vram":
            return validate_vram_params(params)
    except PlanError:
        raise
    except WorkloadError as exc:
        raise PlanError(str(exc), _param_key(exc, params)) from None
    return {}


def _validated_options(op: str, given: Mapping[str, Any], schema: tuple[Param, ...], where: str
                       ) -> RequestOptions:
    out: dict[str, Any] = {}
    names = [p.name for p in schema]
    for key, value in given.items():
        if key not in names:
            allowed = ", ".join(names) if names else "none"
            raise PlanError(f"{op}: unknown parameter {key!r} (parameters: {allowed})", (where, str(key)))
        param = next(p for p in schema if p.name == key)
        if param.name == "refresh":
            if not isinstance(value, bool):
                raise PlanError(f"{op}: refresh must be true or false, got {value!r}", (where, key))
            out[key] = value
        else:
            try:
                out[key] = param.validate(op, value)
            except WorkloadError as exc:
                raise PlanError(str(exc), (where, key)) from None
    return RequestOptions(mode=out.get("mode"), refresh=out.get("refresh"))


def _caller_options(options: RequestOptions, op: str, device: str | None, roofline_mode: str | None,
                    budget_s: float | None, time_limit: float | None) -> RequestOptions:
    """``options`` with the caller's own, each checked."""
    if device is not None:
        if not isinstance(device, str):
            raise PlanError(f"unknown device {device!r} (choose auto, cpu or cuda)", ("device",))
        options = replace(options, device=device)  # resolve_device says which devices this machine has
    if roofline_mode is not None and op in ("workload", "sweep", "decode", "decode_gap", "train_step"):
        if roofline_mode not in MODES:
            raise PlanError(f"unknown roofline mode {roofline_mode!r}", ("roofline_mode",))
        options = replace(options, roofline_mode=roofline_mode)
    if budget_s is not None and op == "workload":
        if isinstance(budget_s, bool) or not isinstance(budget_s, int | float) or not 0.05 <= budget_s <= 10:
            raise PlanError(f"budget_s={budget_s!r} is outside [0.05, 10]", ("budget_s",))
        options = replace(options, budget_s=float(budget_s))
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, int | float) or not (
                math.isfinite(time_limit) and time_limit > 0):
            raise PlanError(f"time_limit_s={time_limit!r} must be a positive number of seconds", ("time_limit_s",))
        options = replace(options, time_limit_s=float(time_limit))
    return options


def _get(spec: Any, key: str, default: Any = None) -> Any:
    if isinstance(spec, Mapping):
        return spec.get(key, default)
    return getattr(spec, key, default)


def build_request(
    spec: Any,
    params: Mapping[str, Any] | None = None,
    *,
    device: str | None = "auto",
    roofline_mode: str | None = None,
    budget_s: float | None = None,
    time_limit: float | None = None,
    size_dram: bool = True,
) -> Request:
    """The validated, bounded request for a lab's or exercise's call ``spec`` (a MeasureCall or a mapping with
    ``op``, ``name``, ``params``, ``dram``), with ``params`` in place of the call's own when given.

    For ops with parameters (workload, sweep, vram) they are checked against the registry; for the others only the
    op's options (``mode``; ``refresh`` for the roofline) are accepted, kept apart from ``op``/``name``. A
    workload with ``dram`` is sized to the learner's last-level cache (``size_dram=False`` checks it as written,
    which is what ``tutor lessons check`` does). Raises :class:`PlanError` (a one-line message and the key).
    """
    op = _get(spec, "op")
    if op not in OPS:
        raise PlanError(f"unknown op {op!r} (known: {', '.join(OPS)})", ("op",))
    name = _get(spec, "name")
    if op in ("workload", "sweep"):
        if not isinstance(name, str) or not name:
            raise PlanError(f"op {op!r} needs a name (which {op} to run)", ("name",))
    elif name is not None:
        raise PlanError(f"op {op!r} takes no name (got {name!r})", ("name",))
    given = dict(params if params is not None else (_get(spec, "params") or {}))
    if op in PARAM_OPS:
        full = _validated_params(op, name, given)
        options = RequestOptions()
    else:
        full = {}
        options = _validated_options(op, given, PACK_OPTIONS[op], "params")
    dram = _get(spec, "dram")
    if dram is not None and op == "workload" and size_dram and "n" in full:
        from tutor.measure.sizing import size_for_dram

        full, _capped = size_for_dram(str(name), full, float(dram))
    options = _caller_options(options, op, device, roofline_mode, budget_s, time_limit)
    est = _estimate(op, name, full, options)
    _check_caps(op, name, est)
    return Request(op, name, full, options, est)


def parse_request(wire: JsonObject) -> Request:
    """Validate a plain request dict (what :func:`tutor.measure.api.run_request` receives) the same way: known
    op, name and parameters, known options of the right type, and the caps."""
    if not isinstance(wire, Mapping):
        raise PlanError("a measurement request must be a mapping")
    op = wire.get("op")
    if op not in OPS:
        raise PlanError(f"unknown op {op!r} (known: {', '.join(OPS)})", ("op",))
    allowed = {"op", "name", "params", *CALLER_OPTIONS}
    unknown = sorted(str(k) for k in wire if k not in allowed)
    if unknown:
        raise PlanError(f"{op}: unknown request key {unknown[0]!r}", (unknown[0],))
    params = wire.get("params")
    if params is not None and not isinstance(params, Mapping):
        raise PlanError(f"{op}: params must be a mapping", ("params",))
    if op not in PARAM_OPS and params:
        raise PlanError(f"{op}: takes no params (options go beside op: mode, refresh)", ("params",))
    options_in = {k: wire[k] for k in ("mode", "refresh") if k in wire}
    request = build_request(
        {"op": op, "name": wire.get("name"), "params": dict(params or {})},
        device=wire.get("device", "auto"),
        roofline_mode=wire.get("roofline_mode"),
        budget_s=wire.get("budget_s"),
        time_limit=wire.get("time_limit_s"),
        size_dram=False,
    )
    options = request.options
    for key, value in options_in.items():
        if key == "mode":
            if value not in MODES or (op not in ("roofline", "decode", "decode_gap", "train_step", "bench", "sweep")):
                raise PlanError(f"{op}: unknown mode {value!r} (choose quick or full)", ("mode",))
            options = replace(options, mode=str(value))
        elif key == "refresh":
            if op != "roofline" or not isinstance(value, bool):
                raise PlanError(f"{op}: refresh must be true or false, and only for the roofline", ("refresh",))
            options = replace(options, refresh=value)
    est = _estimate(op, request.name, request.params, options)
    return Request(op, request.name, request.params, options, est)
