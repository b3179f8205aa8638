"""The measured roofline a result was judged against, and the judgement: which roof bounds the workload, and
whether the workload sits above a roof it should not beat.

The roof is measured (:mod:`tutor.measure.roofline`) into these types and read by everyone as them; its JSON
(``to_json``/``from_json``) is only where it is cached on disk, crosses the worker's pipe or is stored with an
attempt. Each ``from_json`` reads a roof cached by an older tutor: a figure it did not carry stays None or empty,
and a field this tutor does not name is kept in ``extra`` (written back as it was)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tutor.i18n.message import Message
from tutor.results.device import Device
from tutor.results.interference import Interference
from tutor.results.reading import Reader, expected, is_number, put
from tutor.results.timing import TimingStats
from tutor.results.wire import JsonObject

_T = TypeVar("_T")


def _floats(r: Reader, key: str) -> tuple[float, ...]:
    """A list of numbers (``gbs_round_best``); an entry that is not a number is refused, naming it."""
    value = r.raw(key)
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        raise expected(r.at(key), "numbers", value)
    for i, v in enumerate(value):
        if not is_number(v):
            raise expected(f"{r.at(key)}[{i}]", "number", v)
    return tuple(float(v) for v in value)


def _objects(r: Reader, key: str, read: Callable[[Any, str], _T]) -> dict[str, _T]:
    """A ``{name: object}`` table (STREAM kernels, matmul dtypes), each read by ``read``."""
    return {str(name): read(v, f"{r.at(key)}.{name}") for name, v in r.mapping(key).items()}


def _texts(r: Reader, key: str) -> dict[str, str]:
    return {str(k): str(v) for k, v in r.mapping(key).items() if isinstance(v, str)}


def _optional(r: Reader, key: str, read: Callable[[Any, str], _T]) -> _T | None:
    """An object read by ``read``, or None where the JSON has none (absent, or null as older roofs wrote it)."""
    value = r.raw(key)
    return None if value is None else read(value, r.at(key))


def _timing(r: Reader, key: str) -> TimingStats | None:
    return _optional(r, key, TimingStats.from_json)


@dataclass(frozen=True)
class Datasheet:
    """The spec-table roof of a known device, shown beside the measured one."""

    name: str
    bandwidth_gbs: float | None = None
    """The datasheet's memory bandwidth, GB/s."""
    tflops: Mapping[str, float] = field(default_factory=dict)
    """Dense TFLOP/s per dtype (fp32 without tensor cores; tf32, bf16, fp16 on them)."""
    ridge_flops_per_byte: Mapping[str, float] = field(default_factory=dict)
    source: str | None = None
    key: str | None = None
    """The spec table's key (``rtx-5090``)."""
    memory_gb: float | None = None
    memory_type: str | None = None
    sms: int | None = None
    compute_capability: str | None = None
    extra: JsonObject = field(default_factory=dict)
    """Columns this type does not name (a newer spec table's), as they were read."""

    def to_json(self) -> JsonObject:
        out: JsonObject = dict(self.extra)
        out["name"] = self.name
        for key in ("bandwidth_gbs", "source", "key", "memory_gb", "memory_type", "sms", "compute_capability"):
            put(out, key, getattr(self, key))
        put(out, "tflops", dict(self.tflops))
        put(out, "ridge_flops_per_byte", dict(self.ridge_flops_per_byte))
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "datasheet") -> Datasheet:
        r = Reader(data, where)
        return cls(name=r.text("name", "?"), bandwidth_gbs=r.opt_number("bandwidth_gbs"), tflops=r.numbers("tflops"),
                   ridge_flops_per_byte=r.numbers("ridge_flops_per_byte"), source=r.opt_text("source"),
                   key=r.opt_text("key"), memory_gb=r.opt_number("memory_gb"), memory_type=r.opt_text("memory_type"),
                   sms=r.opt_integer("sms"), compute_capability=r.opt_text("compute_capability"), extra=r.rest())


# -- what the roof was measured from ----------------------------------------------------------------------------


@dataclass(frozen=True)
class StreamKernel:
    """One STREAM kernel's rates in GB/s, each call's seconds divided separately (STREAM's byte count: copy and
    scale 2 words per element, add and triad 3; write-allocate traffic not counted)."""

    gbs_best: float | None = None
    """STREAM's figure: the fastest call's rate."""
    gbs_median: float | None = None
    """The median call's rate."""
    gbs_single_best: float | None = None
    """The fastest single call's rate (the same call as ``gbs_best``, named for the reader)."""
    gbs_round_best: tuple[float, ...] = ()
    """Each round's fastest call's rate."""
    gbs_round_median: float | None = None
    """The median of the rounds' bests: what a majority of rounds reached."""
    gbs_samples: tuple[float, ...] = ()
    """Every call's rate (kept only while the figures are made; never cached)."""
    time_s: TimingStats | None = None
    """Seconds per call over all the timed calls."""
    bytes: int | None = None
    """Bytes one call moves as STREAM counts them."""
    rounds: int | None = None
    """How many rounds the calls came from (the bench's interleaved rounds)."""
    extra: JsonObject = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        out: JsonObject = dict(self.extra)
        for key in ("gbs_best", "gbs_median", "gbs_single_best", "gbs_round_median", "bytes", "rounds"):
            put(out, key, getattr(self, key))
        put(out, "gbs_round_best", list(self.gbs_round_best))
        put(out, "gbs_samples", list(self.gbs_samples))
        if self.time_s is not None:
            out["time_s"] = self.time_s.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "kernel") -> StreamKernel:
        r = Reader(data, where)
        return cls(gbs_best=r.opt_number("gbs_best"), gbs_median=r.opt_number("gbs_median"),
                   gbs_single_best=r.opt_number("gbs_single_best"), gbs_round_best=_floats(r, "gbs_round_best"),
                   gbs_round_median=r.opt_number("gbs_round_median"), gbs_samples=_floats(r, "gbs_samples"),
                   time_s=_timing(r, "time_s"), bytes=r.opt_integer("bytes"), rounds=r.opt_integer("rounds"),
                   extra=r.rest())


@dataclass(frozen=True)
class StreamFigures:
    """The STREAM kernels the peak bandwidth was measured with: three arrays of ``array_bytes`` each, every kernel
    in rounds; the peak is copy's fastest call (:data:`tutor.measure.roofline.STREAM_ESTIMATOR`)."""

    kernels: Mapping[str, StreamKernel] = field(default_factory=dict)
    """Per kernel name (``copy``, ``scale``, ``add``, ``triad``), its rates."""
    array_bytes: int | None = None
    """Bytes of each of the three arrays."""
    dtype: str | None = None
    rounds: int | None = None
    last_level_cache_bytes: int | None = None
    """The last-level cache the arrays were sized against (≥ 4× it for DRAM)."""
    threads: int | None = None
    """torch's intra-op threads on the CPU (None on a GPU)."""
    peak_bandwidth_gbs: float | None = None
    """Copy's fastest call, GB/s."""
    cv: float | None = None
    """The coefficient of variation of copy's timed calls (the bench: of its rounds' bests)."""
    rounds_other_cores: tuple[float, ...] = ()
    """Per round, the cores other programs kept busy meanwhile."""
    method: str | None = None
    """How the peak was read, in English (a report's note)."""
    extra: JsonObject = field(default_factory=dict)

    @property
    def copy(self) -> StreamKernel | None:
        return self.kernels.get("copy")

    def to_json(self) -> JsonObject:
        out: JsonObject = dict(self.extra)
        out["kernels"] = {name: k.to_json() for name, k in self.kernels.items()}
        for key in ("array_bytes", "dtype", "rounds", "last_level_cache_bytes", "threads", "peak_bandwidth_gbs",
                    "cv", "method"):
            put(out, key, getattr(self, key))
        put(out, "rounds_other_cores", list(self.rounds_other_cores))
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "bandwidth") -> StreamFigures:
        r = Reader(data, where)
        return cls(kernels=_objects(r, "kernels", StreamKernel.from_json), array_bytes=r.opt_integer("array_bytes"),
                   dtype=r.opt_text("dtype"), rounds=r.opt_integer("rounds"),
                   last_level_cache_bytes=r.opt_integer("last_level_cache_bytes"), threads=r.opt_integer("threads"),
                   peak_bandwidth_gbs=r.opt_number("peak_bandwidth_gbs"), cv=r.opt_number("cv"),
                   rounds_other_cores=_floats(r, "rounds_other_cores"), method=r.opt_text("method"), extra=r.rest())


@dataclass(frozen=True)
class GemmSize:
    """One square matmul size tried for a dtype's peak: n×n×n, its best and median rates in GFLOP/s."""

    n: int
    gflops_best: float | None = None
    gflops_median: float | None = None
    time_s: TimingStats | None = None
    extra: JsonObject = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        out: JsonObject = {**self.extra, "n": self.n}
        put(out, "gflops_best", self.gflops_best)
        put(out, "gflops_median", self.gflops_median)
        if self.time_s is not None:
            out["time_s"] = self.time_s.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "size") -> GemmSize:
        r = Reader(data, where)
        return cls(n=r.integer("n", 0), gflops_best=r.opt_number("gflops_best"),
                   gflops_median=r.opt_number("gflops_median"), time_s=_timing(r, "time_s"), extra=r.rest())


@dataclass(frozen=True)
class MatmulRounds:
    """A matmul peak measured in the bench's interleaved rounds: one value (GFLOP/s) per round, the headline their
    median (:class:`tutor.measure.estimators.RoundFigure`)."""

    values: tuple[float, ...] = ()
    estimate: float | None = None
    cv: float | None = None
    best_round: float | None = None
    estimator: str | None = None
    extra: JsonObject = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        out: JsonObject = {**self.extra, "values": list(self.values), "rounds": len(self.values)}
        for key in ("estimate", "cv", "best_round", "estimator"):
            put(out, key, getattr(self, key))
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "rounds") -> MatmulRounds:
        r = Reader(data, where)
        r.raw("rounds")  # len(values)
        return cls(values=_floats(r, "values"), estimate=r.opt_number("estimate"), cv=r.opt_number("cv"),
                   best_round=r.opt_number("best_round"), estimator=r.opt_text("estimator"), extra=r.rest())


@dataclass(frozen=True)
class GemmFigures:
    """A dtype's matmul peak in GFLOP/s: the best size's best time (``sizes`` tried), or in the bench the median
    over its rounds (``rounds``); ``error`` when the dtype could not be measured here (then no peak)."""

    dtype: str | None = None
    peak_gflops: float | None = None
    n: int | None = None
    """The size (n×n×n) the peak was measured at."""
    cv: float | None = None
    sizes: tuple[GemmSize, ...] = ()
    method: str | None = None
    rounds: MatmulRounds | None = None
    calls_per_round: int | None = None
    error: str | None = None
    """Why this dtype has no peak (its first line), e.g. no kernel for it on this device."""
    extra: JsonObject = field(default_factory=dict)

    @property
    def best_size(self) -> GemmSize | None:
        """The size the peak was measured at, among those tried."""
        return next((z for z in self.sizes if z.n == self.n), None)

    def to_json(self) -> JsonObject:
        out: JsonObject = dict(self.extra)
        for key in ("dtype", "peak_gflops", "n", "cv", "method", "calls_per_round", "error"):
            put(out, key, getattr(self, key))
        put(out, "sizes", [z.to_json() for z in self.sizes])
        if self.rounds is not None:
            out["rounds"] = self.rounds.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "gemm") -> GemmFigures:
        r = Reader(data, where)
        sizes = r.raw("sizes")
        if sizes is not None and not isinstance(sizes, list | tuple):
            raise expected(r.at("sizes"), "object", sizes)
        rounds = _optional(r, "rounds", MatmulRounds.from_json)
        return cls(dtype=r.opt_text("dtype"), peak_gflops=r.opt_number("peak_gflops"), n=r.opt_integer("n"),
                   cv=r.opt_number("cv"),
                   sizes=tuple(GemmSize.from_json(z, f"{r.at('sizes')}[{i}]") for i, z in enumerate(sizes or ())),
                   method=r.opt_text("method"), rounds=rounds, calls_per_round=r.opt_integer("calls_per_round"),
                   error=r.opt_text("error"), extra=r.rest())


@dataclass(frozen=True)
class PhysicalLimits:
    """Ceilings no honest figure may exceed, each input named with where it was read: the datasheet on a known
    GPU; on a CPU cores × clock × FLOPs per cycle per core (the formula's inputs kept, so an exercise can apply it
    to this machine's own numbers). Rates in GFLOP/s and GB/s."""

    gflops: Mapping[str, float] = field(default_factory=dict)
    """Per dtype: the datasheet's peak, or the CPU formula's with a clock the OS reports as its maximum."""
    nominal_gflops: Mapping[str, float] = field(default_factory=dict)
    """Per dtype on a CPU without cpufreq: the formula at the only clock the OS reports (not a maximum)."""
    theoretical_gflops: Mapping[str, float] = field(default_factory=dict)
    """Per dtype, whichever clock fed them: what an exercise reads on every machine."""
    measured_fraction: Mapping[str, float] = field(default_factory=dict)
    """Per dtype, the measured peak ÷ the theoretical one (above 1: an input of the formula is wrong)."""
    bandwidth_gbs: float | None = None
    """The datasheet's memory bandwidth (known GPUs only)."""
    source: str | None = None
    cores: int | None = None
    ghz: float | None = None
    """The clock the formula used (at least what a measured matmul needs)."""
    ghz_reported: float | None = None
    """The clock the OS reported."""
    clock_raise: float | None = None
    """``ghz`` ÷ ``ghz_reported`` (above 1: a measured matmul needed a faster clock than the one reported)."""
    clock_source: str | None = None
    ghz_implied_by: str | None = None
    """The dtype whose measured matmul set the clock, when one did."""
    flops_per_cycle: Mapping[str, float] = field(default_factory=dict)
    source_by_dtype: Mapping[str, str] = field(default_factory=dict)
    extra: JsonObject = field(default_factory=dict)

    def theoretical_peak(self, dtype: str) -> tuple[float | None, str | None]:
        """The theoretical ``dtype`` peak in GFLOP/s and where it comes from; (None, None) when unknown."""
        for table in (self.gflops, self.nominal_gflops):
            peak = table.get(dtype)
            if peak is not None and peak > 0:
                return float(peak), self.source_by_dtype.get(dtype) or self.source or (
                    "gflops" if table is self.gflops else "nominal_gflops")
        return None, None

    def to_json(self) -> JsonObject:
        out: JsonObject = dict(self.extra)
        for key in ("gflops", "nominal_gflops", "theoretical_gflops", "measured_fraction", "flops_per_cycle",
                    "source_by_dtype"):
            put(out, key, dict(getattr(self, key)))
        for key in ("bandwidth_gbs", "source", "cores", "ghz", "ghz_reported", "clock_raise", "clock_source",
                    "ghz_implied_by"):
            put(out, key, getattr(self, key))
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "physical_limits") -> PhysicalLimits:
        r = Reader(data, where)
        return cls(gflops=r.numbers("gflops"), nominal_gflops=r.numbers("nominal_gflops"),
                   theoretical_gflops=r.numbers("theoretical_gflops"), measured_fraction=r.numbers("measured_fraction"),
                   bandwidth_gbs=r.opt_number("bandwidth_gbs"), source=r.opt_text("source"),
                   cores=r.opt_integer("cores"), ghz=r.opt_number("ghz"), ghz_reported=r.opt_number("ghz_reported"),
                   clock_raise=r.opt_number("clock_raise"), clock_source=r.opt_text("clock_source"),
                   ghz_implied_by=r.opt_text("ghz_implied_by"), flops_per_cycle=r.numbers("flops_per_cycle"),
                   source_by_dtype=_texts(r, "source_by_dtype"), extra=r.rest())


@dataclass(frozen=True)
class RoofProbe:
    """A short check of a cached roof before it grades (:func:`tutor.measure.roofline.probe_roof`): STREAM copy and
    the fp32 matmul, a few calls each, their fastest call against the roof's peaks."""

    bandwidth_ratio: float
    """The probe's copy GB/s ÷ the roof's peak bandwidth."""
    gflops_ratio: float
    """The probe's fp32 GFLOP/s ÷ the roof's fp32 peak."""
    bandwidth_margin: float
    """How far from 1 the bandwidth ratio may be before it disagrees (the floor, or 3× the peak's spread)."""
    gflops_margin: float
    agrees: bool
    faster: bool
    """The probe beat a peak by more than its margin: the roof was measured low."""
    slower: bool
    """The probe fell below a peak by as much: the machine is slower now than when its roof was measured."""
    gbs: float | None = None
    gflops: float | None = None
    extra: JsonObject = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        out: JsonObject = {**self.extra, "bandwidth_ratio": self.bandwidth_ratio, "gflops_ratio": self.gflops_ratio,
                           "bandwidth_margin": self.bandwidth_margin, "gflops_margin": self.gflops_margin,
                           "agrees": self.agrees, "faster": self.faster, "slower": self.slower}
        put(out, "gbs", self.gbs)
        put(out, "gflops", self.gflops)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "probe") -> RoofProbe:
        r = Reader(data, where)
        return cls(bandwidth_ratio=r.number("bandwidth_ratio"), gflops_ratio=r.number("gflops_ratio"),
                   bandwidth_margin=r.number("bandwidth_margin"), gflops_margin=r.number("gflops_margin"),
                   agrees=r.flag("agrees"), faster=r.flag("faster"), slower=r.flag("slower"),
                   gbs=r.opt_number("gbs"), gflops=r.opt_number("gflops"), extra=r.rest())


# What an attempt keeps of a roofline (the raw STREAM and matmul tables stay in the roofline cache).


@dataclass(frozen=True)
class RooflineReference:
    """The roofline measured on a device (peak bandwidth, peak FLOP/s per dtype, the ridge between them), cached
    per device fingerprint, with the measurement behind it (``bandwidth``: the STREAM kernels; ``gemm``: the matmul
    sizes per dtype; ``physical_limits``) and how far it can be trusted (``provisional``, ``interference``,
    ``peak_spread``, ``probe``). An attempt keeps its :meth:`summary`."""

    peak_bandwidth_gbs: float
    peak_gflops: Mapping[str, float] = field(default_factory=dict)
    ridge_flops_per_byte: Mapping[str, float] = field(default_factory=dict)
    ridge_point: float | None = None
    """The fp32 ridge in FLOP/byte (``ridge_flops_per_byte["float32"]``)."""
    device: Device | None = None
    mode: str | None = None
    measured_at: float | None = None
    """Unix time of the measurement."""
    duration_s: float | None = None
    load_average: float | None = None
    """The 1-minute load average while it was measured (a busy machine measures low roofs)."""
    cpus: int | None = None
    """The machine's logical CPUs (what the load average is read against)."""
    threads: int | None = None
    """torch's intra-op threads while it was measured."""
    cached: bool = False
    datasheet: Datasheet | None = None
    warnings: tuple[str, ...] = ()
    warnings_said: tuple[Message, ...] = ()
    """The warnings as catalog messages (a peak above the datasheet, above the physical limit)."""
    bandwidth: StreamFigures | None = None
    gemm: Mapping[str, GemmFigures] = field(default_factory=dict)
    physical_limits: PhysicalLimits | None = None
    provisional: tuple[str, ...] = ()
    """Why this roof is provisional (codes: ``busy``, ``loose_bandwidth``, ``loose_matmul``), empty when it is
    final: measured quiet and tight enough to grade with (:func:`tutor.theory.roofline.provisional_reasons`)."""
    interference: Interference | None = None
    """What other programs took of the machine while the roof was measured (None: not sampled)."""
    peak_spread: Mapping[str, float] = field(default_factory=dict)
    """How far each peak (``bandwidth``, ``matmul``) stood above its typical repeat, as a fraction."""
    probe: RoofProbe | None = None
    remeasured_because: str | None = None
    """Why a cached roof was measured again: ``provisional``, ``probe_disagreed``, ``unreadable``."""
    format: int | None = None
    """The cache format it was written in (:data:`tutor.measure.roofline_model.ROOFLINE_FORMAT`)."""
    kept_bandwidth_cv: float | None = None
    """A summary's bandwidth CV (the STREAM table it came from is not kept)."""
    kept_gemm_cv: Mapping[str, float] = field(default_factory=dict)
    """A summary's matmul CV per dtype."""
    tables: JsonObject = field(default_factory=dict)
    """Fields this type does not name, kept as they were read (a lab's lease and telemetry window, a newer
    engine's figures)."""

    @property
    def ridge(self) -> float | None:
        """The fp32 ridge point, from ``ridge_point`` or the per-dtype table."""
        return self.ridge_point if self.ridge_point is not None else self.ridge_flops_per_byte.get("float32")

    def peak_for(self, dtype: str) -> float | None:
        """The measured matmul peak for ``dtype`` in GFLOP/s (fp32's when ``dtype`` was not measured)."""
        return self.peak_gflops.get(dtype, self.peak_gflops.get("float32"))

    @property
    def bandwidth_cv(self) -> float | None:
        """The coefficient of variation of the bandwidth measurement, when the roof carries it."""
        return self.bandwidth.cv if self.bandwidth is not None else self.kept_bandwidth_cv

    def gemm_cv(self, dtype: str = "float32") -> float | None:
        """The coefficient of variation of the matmul peak of ``dtype`` (fp32's when it was not measured)."""
        if self.kept_gemm_cv:
            return self.kept_gemm_cv.get(dtype, self.kept_gemm_cv.get("float32"))
        entry = self.gemm.get(dtype, self.gemm.get("float32"))
        return entry.cv if entry is not None else None

    def ridge_cv(self, dtype: str = "float32") -> float | None:
        """The relative spread of the ridge (peak FLOP/s ÷ peak bandwidth): the two CVs in quadrature."""
        bw, gemm = self.bandwidth_cv, self.gemm_cv(dtype)
        if bw is None and gemm is None:
            return None
        return float(((bw or 0.0) ** 2 + (gemm or 0.0) ** 2) ** 0.5)

    @property
    def last_level_cache_bytes(self) -> int | None:
        """The last-level cache the STREAM arrays were sized against, when the roof says."""
        return self.bandwidth.last_level_cache_bytes if self.bandwidth is not None else None

    def summary(self) -> RooflineReference:
        """The roofline without its raw STREAM and matmul tables (what an attempt keeps); when, under what load and
        with what noise it was measured stay (every chart says so)."""
        gemm_cv = {d: g.cv for d, g in self.gemm.items() if g.cv is not None} or dict(self.kept_gemm_cv)
        return RooflineReference(
            peak_bandwidth_gbs=self.peak_bandwidth_gbs, peak_gflops=self.peak_gflops,
            ridge_flops_per_byte=self.ridge_flops_per_byte, ridge_point=self.ridge_point, mode=self.mode,
            measured_at=self.measured_at, load_average=self.load_average, cached=self.cached,
            datasheet=self.datasheet, provisional=self.provisional, interference=self.interference,
            peak_spread=self.peak_spread, probe=self.probe, remeasured_because=self.remeasured_because,
            kept_bandwidth_cv=self.bandwidth_cv, kept_gemm_cv=gemm_cv)

    def to_json(self) -> JsonObject:
        out: JsonObject = dict(self.tables)
        if self.device is not None:
            out["device"] = self.device.to_json()
        put(out, "mode", self.mode)
        put(out, "measured_at", self.measured_at)
        put(out, "duration_s", self.duration_s)
        out["peak_bandwidth_gbs"] = self.peak_bandwidth_gbs
        put(out, "peak_gflops", dict(self.peak_gflops))
        put(out, "peak_tflops", {d: g / 1e3 for d, g in self.peak_gflops.items()})
        put(out, "ridge_flops_per_byte", dict(self.ridge_flops_per_byte))
        put(out, "ridge_point", self.ridge_point)
        if self.datasheet is not None:
            out["datasheet"] = self.datasheet.to_json()
        if self.bandwidth is not None:
            out["bandwidth"] = self.bandwidth.to_json()
        put(out, "gemm", {d: g.to_json() for d, g in self.gemm.items()})
        if self.physical_limits is not None:
            out["physical_limits"] = self.physical_limits.to_json()
        put(out, "load_average", self.load_average)
        put(out, "cpus", self.cpus)
        put(out, "threads", self.threads)
        out["warnings"] = list(self.warnings)
        put(out, "warnings_said", [m.as_dict() for m in self.warnings_said])
        put(out, "provisional", list(self.provisional))
        if self.interference is not None:
            out["interference"] = self.interference.to_json()
        put(out, "peak_spread", dict(self.peak_spread))
        if self.probe is not None:
            out["probe"] = self.probe.to_json()
        put(out, "remeasured_because", self.remeasured_because)
        put(out, "format", self.format)
        put(out, "bandwidth_cv", self.kept_bandwidth_cv)
        put(out, "gemm_cv", dict(self.kept_gemm_cv))
        out["cached"] = self.cached
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "roofline") -> RooflineReference:
        r = Reader(data, where)
        r.raw("peak_tflops")  # derived from peak_gflops
        r.raw("kind")  # the roofline op's result says kind: roofline
        device = _optional(r, "device", Device.from_json)
        sheet = _optional(r, "datasheet", Datasheet.from_json)
        bandwidth = _optional(r, "bandwidth", StreamFigures.from_json)
        limits = _optional(r, "physical_limits", PhysicalLimits.from_json)
        probe = _optional(r, "probe", RoofProbe.from_json)
        said = r.raw("warnings_said")
        messages = tuple(m for m in (Message.from_dict(x) for x in said) if m is not None) \
            if isinstance(said, list | tuple) else ()
        return cls(
            peak_bandwidth_gbs=r.number("peak_bandwidth_gbs"), peak_gflops=r.numbers("peak_gflops"),
            ridge_flops_per_byte=r.numbers("ridge_flops_per_byte"), ridge_point=r.opt_number("ridge_point"),
            device=device, mode=r.opt_text("mode"), measured_at=r.opt_number("measured_at"),
            duration_s=r.opt_number("duration_s"), load_average=r.opt_number("load_average"),
            cpus=r.opt_integer("cpus"), threads=r.opt_integer("threads"), cached=r.flag("cached"), datasheet=sheet,
            warnings=r.texts("warnings"), warnings_said=messages, bandwidth=bandwidth,
            gemm=_objects(r, "gemm", GemmFigures.from_json), physical_limits=limits,
            provisional=r.texts("provisional"), interference=Interference.of(r.raw("interference")),
            peak_spread=r.numbers("peak_spread"), probe=probe, remeasured_because=r.opt_text("remeasured_because"),
            format=r.opt_integer("format"), kept_bandwidth_cv=r.opt_number("bandwidth_cv"),
            kept_gemm_cv=r.numbers("gemm_cv"), tables=r.rest(),
        )


@dataclass(frozen=True)
class Classification:
    """Which roof bounds a workload: by its arithmetic intensity against the ridge, and by which roof its achieved
    rate is closer to; within the band around the ridge both answers count (``too_close_to_call``)."""

    bound: str
    """``memory`` or ``compute``."""
    too_close_to_call: bool = False
    by_intensity: str | None = None
    by_achieved: str | None = None
    fraction_of_bandwidth_roof: float | None = None
    fraction_of_compute_roof: float | None = None
    ridge_flops_per_byte: float | None = None
    ridge_dtype: str | None = None
    """The dtype whose matmul peak made the ridge (fp32 when the workload's dtype was not measured)."""
    in_band: bool = False
    """The intensity lies within ``band_factor`` of the ridge."""
    band_factor: float | None = None
    arithmetic_intensity: float | None = None
    attainable_gflops: float | None = None
    """min(compute roof, intensity × bandwidth roof)."""
    fraction_of_attainable: float | None = None
    extra: JsonObject = field(default_factory=dict)
    """Fields this type does not name (a newer engine's), kept as they were read."""

    def to_json(self) -> JsonObject:
        out: JsonObject = {"bound": self.bound, "too_close_to_call": self.too_close_to_call}
        for key in ("by_intensity", "by_achieved", "fraction_of_bandwidth_roof", "fraction_of_compute_roof",
                    "ridge_flops_per_byte", "ridge_dtype", "band_factor", "arithmetic_intensity",
                    "attainable_gflops", "fraction_of_attainable"):
            put(out, key, getattr(self, key))
        if self.in_band:
            out["in_band"] = True
        return {**self.extra, **out}

    @classmethod
    def from_json(cls, data: Any, where: str = "classification") -> Classification:
        r = Reader(data, where)
        return cls(bound=r.text("bound"), too_close_to_call=r.flag("too_close_to_call"),
                   by_intensity=r.opt_text("by_intensity"), by_achieved=r.opt_text("by_achieved"),
                   fraction_of_bandwidth_roof=r.opt_number("fraction_of_bandwidth_roof"),
                   fraction_of_compute_roof=r.opt_number("fraction_of_compute_roof"),
                   ridge_flops_per_byte=r.opt_number("ridge_flops_per_byte"), ridge_dtype=r.opt_text("ridge_dtype"),
                   in_band=r.flag("in_band"), band_factor=r.opt_number("band_factor"),
                   arithmetic_intensity=r.opt_number("arithmetic_intensity"),
                   attainable_gflops=r.opt_number("attainable_gflops"),
                   fraction_of_attainable=r.opt_number("fraction_of_attainable"), extra=r.rest())


@dataclass(frozen=True)
class PreviousRoof:
    """The roof a check found suspect, as it stood before it was measured again (peaks in GB/s and GFLOP/s)."""

    peak_bandwidth_gbs: float
    peak_gflops: Mapping[str, float] = field(default_factory=dict)
    measured_at: float | None = None

    @classmethod
    def of(cls, roof: RooflineReference) -> PreviousRoof:
        return cls(peak_bandwidth_gbs=roof.peak_bandwidth_gbs, peak_gflops=dict(roof.peak_gflops),
                   measured_at=roof.measured_at)

    def to_json(self) -> JsonObject:
        return {"measured_at": self.measured_at, "peak_bandwidth_gbs": self.peak_bandwidth_gbs,
                "peak_gflops": dict(self.peak_gflops)}

    @classmethod
    def from_json(cls, data: Any, where: str = "previous_roofline") -> PreviousRoof:
        r = Reader(data, where)
        return cls(peak_bandwidth_gbs=r.number("peak_bandwidth_gbs"), peak_gflops=r.numbers("peak_gflops"),
                   measured_at=r.opt_number("measured_at"))


@dataclass(frozen=True)
class RoofCheck:
    """A workload above a roof it should not beat: ``code`` is ``cache_resident`` (its working set fits in the
    last-level cache), ``above_bandwidth_roof`` or ``above_compute_roof`` (the roof was measured again), or for a
    roofline sweep ``points_above_roof`` (``points`` names them)."""

    code: str
    fraction: float
    """The achieved rate as a fraction of the roof it beats (the worst point's, for a sweep)."""
    margin: float | None = None
    """How far above the roof its own noise could carry it (the floor, or 3 CVs)."""
    working_set_bytes: float | None = None
    last_level_cache_bytes: float | None = None
    cache_source: str | None = None
    """Where the last-level cache size was read (a simulated one is never called the learner's)."""
    points: tuple[str, ...] = ()
    """The sweep points above the roof."""
    remeasured: bool = False
    still_above: bool = False
    fraction_after: float | None = None
    previous_roofline: PreviousRoof | None = None
    """The roof before it was measured again."""
    extra: JsonObject = field(default_factory=dict)
    """Fields this type does not name, kept as they were read."""

    def to_json(self) -> JsonObject:
        out: JsonObject = {**self.extra, "code": self.code, "fraction": self.fraction}
        put(out, "margin", self.margin)
        put(out, "working_set_bytes", self.working_set_bytes)
        put(out, "last_level_cache_bytes", self.last_level_cache_bytes)
        put(out, "cache_source", self.cache_source)
        if self.code == "points_above_roof" or self.points:
            out["points"] = list(self.points)
        if self.remeasured:
            out.update(remeasured=True, still_above=self.still_above, fraction_after=self.fraction_after)
        if self.previous_roofline is not None:
            out["previous_roofline"] = self.previous_roofline.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "roof_check") -> RoofCheck:
        r = Reader(data, where)
        previous = _optional(r, "previous_roofline", PreviousRoof.from_json)
        return cls(code=r.text("code"), fraction=r.number("fraction"), margin=r.opt_number("margin"),
                   working_set_bytes=r.opt_number("working_set_bytes"),
                   last_level_cache_bytes=r.opt_number("last_level_cache_bytes"),
                   cache_source=r.opt_text("cache_source"), points=r.texts("points"), remeasured=r.flag("remeasured"),
                   still_above=r.flag("still_above"), fraction_after=r.opt_number("fraction_after"),
                   previous_roofline=previous, extra=r.rest())


@dataclass(frozen=True)
class BoundCheck:
    """A measured rate above the bound a formula gives it (decode tokens/s above bandwidth ÷ bytes per token):
    ``code`` is ``noise`` (within :func:`tutor.theory.roofline.noise_margin`: read it as "at the bound") or
    ``above_bound`` (beyond its noise: the bandwidth behind the bound is suspect and is measured again)."""

    code: str
    fraction: float
    """The measured rate ÷ the bound."""
    margin: float
    """How far above the bound the figure's own noise could carry it (3 standard errors, at least the floor)."""
    cv: float
    """The coefficient of variation of the measured rate's timings."""
    remeasured: bool = False
    bandwidth_before_gbs: float | None = None
    """The bandwidth behind the bound before it was measured again."""
    bandwidth_after_gbs: float | None = None
    fraction_after: float | None = None
    """The measured rate ÷ the bound made from the better of the two bandwidths."""
    still_above: bool = False

    def to_json(self) -> JsonObject:
        out: JsonObject = {"code": self.code, "fraction": self.fraction, "margin": self.margin, "cv": self.cv}
        if self.remeasured:
            out.update(remeasured=True, bandwidth_before_gbs=self.bandwidth_before_gbs,
                       bandwidth_after_gbs=self.bandwidth_after_gbs, fraction_after=self.fraction_after,
                       still_above=self.still_above)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "bound_check") -> BoundCheck:
        r = Reader(data, where)
        return cls(code=r.text("code"), fraction=r.number("fraction"), margin=r.number("margin"), cv=r.number("cv"),
                   remeasured=r.flag("remeasured"), bandwidth_before_gbs=r.opt_number("bandwidth_before_gbs"),
                   bandwidth_after_gbs=r.opt_number("bandwidth_after_gbs"),
                   fraction_after=r.opt_number("fraction_after"), still_above=r.flag("still_above"))
