"""What a decode-gap run (``decode_gap``) measured, as named fields with their units.

The run times batch-1 decode of two or three sizes of the bundled transformer, fits the line
``step = fixed + bytes per step ÷ effective bandwidth`` through them, and splits the largest model's gap to its
bound (``weights ÷ the roof that feeds them``) into its parts: the fixed per-step cost, the bandwidth not reached,
the extra bytes (the KV cache) and a residual. Times are milliseconds (``*_ms``) or seconds (``*_s``), rates GB/s
(10⁹ bytes per second) and tokens per second, shares per cent (``*_pct``) of the gap. The JSON names are the
engine's, at the top level of the measurement's JSON, so an exercise's ``truth.metric: gap.fixed_share_pct`` and
old stored rows read as before; :meth:`DecodeGapFigures.from_json` takes them out of a measurement's fields.

Pure: no torch (the engine builds these in :mod:`tutor.measure.decode_gap`; the store and the UI read them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tutor.results.reading import Reader, expected, put
from tutor.results.training import ModelShape
from tutor.results.wire import JsonObject

DECODE_GAP_KEYS = ("sizes", "prompt_tokens", "decode_steps", "rounds", "threads", "step_statistic", "dtype",
                   "roof_bandwidth_gbs", "stream_copy_gbs", "peak_bandwidth_gbs", "roof", "fit", "reference", "gap",
                   "feeding", "cache")
"""The JSON names a decode-gap run's figures use."""


def _numbers(r: Reader, key: str) -> tuple[float, ...]:
    value = r.raw(key)
    if value is None:
        return ()
    if not isinstance(value, list):
        raise expected(r.at(key), "list", value)
    out = []
    for i, v in enumerate(value):
        if not isinstance(v, int | float) or isinstance(v, bool):
            raise expected(f"{r.at(key)}.{i}", "number", v)
        out.append(float(v))
    return tuple(out)


@dataclass(frozen=True)
class GapSize:
    """One size of the model, decoded at batch 1 (a figure an older or partial row lacks is None)."""

    model: ModelShape | None = None
    n_params: int | None = None
    weights_bytes: float | None = None
    """Bytes of weights one step reads."""
    kv_bytes: float | None = None
    """Bytes of KV cache one step reads (on average over the timed steps)."""
    bytes_per_step: float | None = None
    """``weights_bytes + kv_bytes``: the line's x."""
    step_s: float | None = None
    """The typical step (the run's ``step_statistic``): the line's y, seconds."""
    step_ms: float | None = None
    step_ms_median: float | None = None
    step_ms_min: float | None = None
    cv: float | None = None
    """Coefficient of variation of the timed steps."""
    timed_steps: int | None = None
    tokens_per_s: float | None = None
    """1 ÷ the typical step."""

    def to_json(self) -> JsonObject:
        out: JsonObject = {}
        if self.model is not None:
            out["model"] = self.model.to_json()
        for name in _SIZE_NAMES:
            put(out, name, getattr(self, name))
        return out

    @classmethod
    def from_json(cls, data: Any, where: str) -> GapSize:
        r = Reader(data, where)
        return cls(model=ModelShape.from_json(r.raw("model"), r.at("model")) if r.has("model") else None,
                   n_params=r.opt_integer("n_params"), weights_bytes=r.opt_number("weights_bytes"),
                   kv_bytes=r.opt_number("kv_bytes"), bytes_per_step=r.opt_number("bytes_per_step"),
                   step_s=r.opt_number("step_s"), step_ms=r.opt_number("step_ms"),
                   step_ms_median=r.opt_number("step_ms_median"), step_ms_min=r.opt_number("step_ms_min"),
                   cv=r.opt_number("cv"), timed_steps=r.opt_integer("timed_steps"),
                   tokens_per_s=r.opt_number("tokens_per_s"))


_SIZE_NAMES = ("n_params", "weights_bytes", "kv_bytes", "bytes_per_step", "step_s", "step_ms", "step_ms_median",
               "step_ms_min", "cv", "timed_steps", "tokens_per_s")


@dataclass(frozen=True)
class FitSpread:
    """How much the fitted line moves from round to round: the same fit on each interleaved round alone."""

    rounds_fixed_ms: tuple[float, ...] = ()
    """Each round's intercept (unclamped), ms."""
    rounds_effective_bandwidth_gbs: tuple[float, ...] = ()
    fixed_ms_sd: float | None = None
    """Standard deviation of the intercept across the rounds, ms (None: fewer than two rounds)."""
    effective_bandwidth_cv: float | None = None
    """CV of the effective bandwidth across the rounds (None: fewer than two rounds with a positive slope)."""

    def to_json(self) -> JsonObject:
        return {"rounds_fixed_ms": list(self.rounds_fixed_ms),
                "rounds_effective_bandwidth_gbs": list(self.rounds_effective_bandwidth_gbs),
                "fixed_ms_sd": self.fixed_ms_sd, "effective_bandwidth_cv": self.effective_bandwidth_cv}

    @classmethod
    def read(cls, r: Reader) -> FitSpread:
        return cls(rounds_fixed_ms=_numbers(r, "rounds_fixed_ms"),
                   rounds_effective_bandwidth_gbs=_numbers(r, "rounds_effective_bandwidth_gbs"),
                   fixed_ms_sd=r.opt_number("fixed_ms_sd"),
                   effective_bandwidth_cv=r.opt_number("effective_bandwidth_cv"))


@dataclass(frozen=True)
class GapFit:
    """The least-squares line ``step = fixed + bytes per step ÷ effective bandwidth`` through the sizes (a figure
    an older or partial row lacks is None)."""

    fixed_ms: float | None = None
    """The per-step cost that does not grow with the bytes (the intercept, at least 0), ms."""
    effective_bandwidth_gbs: float | None = None
    """1 ÷ the slope: the bandwidth decode's bytes really arrive at, GB/s."""
    r2: float | None = None
    intercept_ms: float | None = None
    """The intercept before it was pinned at 0, ms."""
    clamped: bool | None = None
    """Whether a negative intercept was pinned at 0."""
    spread: FitSpread = FitSpread()
    formula: str | None = None

    def to_json(self) -> JsonObject:
        out: JsonObject = {}
        for name in ("fixed_ms", "effective_bandwidth_gbs", "r2", "intercept_ms", "clamped"):
            put(out, name, getattr(self, name))
        out.update(self.spread.to_json())
        put(out, "formula", self.formula)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str) -> GapFit:
        r = Reader(data, where)
        clamped = r.raw("clamped")
        return cls(fixed_ms=r.opt_number("fixed_ms"), effective_bandwidth_gbs=r.opt_number("effective_bandwidth_gbs"),
                   r2=r.opt_number("r2"), intercept_ms=r.opt_number("intercept_ms"),
                   clamped=r.flag("clamped") if clamped is not None else None, spread=FitSpread.read(r),
                   formula=r.opt_text("formula"))


@dataclass(frozen=True)
class GapParts:
    """The largest model's measured step against its bound, and the gap between them in parts:
    ``step = bound + fixed + bandwidth + extra bytes + residual``, exactly. ``*_share_pct`` is each part's per cent
    of the gap (0 when there is no gap). A figure an older or partial row lacks is None."""

    measured_step_ms: float | None = None
    bound_step_ms: float | None = None
    """Weights ÷ the roof that feeds them, ms."""
    gap_ms: float | None = None
    measured_tokens_per_s: float | None = None
    bound_tokens_per_s: float | None = None
    fraction_of_bound: float | None = None
    """Bound step ÷ measured step (0–1)."""
    fixed_ms: float | None = None
    fixed_share_pct: float | None = None
    bandwidth_ms: float | None = None
    """All the bytes at the effective bandwidth minus at the roof's, ms."""
    bandwidth_share_pct: float | None = None
    extra_bytes_ms: float | None = None
    """The bytes beyond the weights (the KV cache) at the roof's bandwidth, ms."""
    extra_bytes_share_pct: float | None = None
    residual_ms: float | None = None
    """What the line does not explain, ms."""
    residual_share_pct: float | None = None
    achieved_bandwidth_pct: float | None = None
    """The effective bandwidth as a per cent of the roof's."""
    extra_bytes_pct: float | None = None
    """The extra bytes as a per cent of the weights' bytes."""
    achieved_bandwidth_pct_cv: float | None = None
    """The relative spread of ``achieved_bandwidth_pct`` (the fit's and the roof read's CVs in quadrature)."""

    def to_json(self) -> JsonObject:
        out: JsonObject = {}
        for name in (*_PART_NAMES, "achieved_bandwidth_pct_cv"):
            put(out, name, getattr(self, name))
        return out

    @classmethod
    def from_json(cls, data: Any, where: str) -> GapParts:
        r = Reader(data, where)
        values = {name: r.opt_number(name) for name in _PART_NAMES}
        return cls(**values, achieved_bandwidth_pct_cv=r.opt_number("achieved_bandwidth_pct_cv"))


_PART_NAMES = ("measured_step_ms", "bound_step_ms", "gap_ms", "measured_tokens_per_s", "bound_tokens_per_s",
               "fraction_of_bound", "fixed_ms", "fixed_share_pct", "bandwidth_ms", "bandwidth_share_pct",
               "extra_bytes_ms", "extra_bytes_share_pct", "residual_ms", "residual_share_pct",
               "achieved_bandwidth_pct", "extra_bytes_pct")


@dataclass(frozen=True)
class WeightsRead:
    """The roof that feeds decode: every weight matrix read once by a one-token linear, the best pass."""

    gbs: float | None = None
    bytes: float | None = None
    threads: int | None = None
    passes: int | None = None
    cv: float | None = None
    method: str | None = None

    def to_json(self) -> JsonObject:
        out: JsonObject = {}
        for name in ("gbs", "bytes", "threads", "passes"):
            put(out, name, getattr(self, name))
        out["cv"] = self.cv
        put(out, "method", self.method)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str) -> WeightsRead:
        r = Reader(data, where)
        return cls(gbs=r.opt_number("gbs"), bytes=r.opt_number("bytes"), threads=r.opt_integer("threads"),
                   passes=r.opt_integer("passes"), cv=r.opt_number("cv"), method=r.opt_text("method"))


@dataclass(frozen=True)
class GapFeeding:
    """Where the largest model's weights are read from, and at what bandwidth."""

    level: str | None = None
    """``cache``, ``partial`` or ``dram``."""
    bandwidth_gbs: float | None = None
    read: WeightsRead | None = None
    weights_bytes: float | None = None
    last_level_cache_bytes: float | None = None
    """The CPU's last-level cache (None on a GPU)."""
    llc_multiple: float | None = None
    """Weights ÷ the last-level cache."""
    dram_bandwidth_gbs: float | None = None
    """The roofline's STREAM copy, beside it."""
    cache_source: str | None = None
    """Where the cache sizes were read (a CPU run)."""
    llc_name: str | None = None

    def to_json(self) -> JsonObject:
        out: JsonObject = {"kind": "gap"}
        put(out, "level", self.level)
        put(out, "bandwidth_gbs", self.bandwidth_gbs)
        if self.read is not None:
            out["read"] = self.read.to_json()
        put(out, "weights_bytes", self.weights_bytes)
        out.update(last_level_cache_bytes=self.last_level_cache_bytes, llc_multiple=self.llc_multiple)
        put(out, "dram_bandwidth_gbs", self.dram_bandwidth_gbs)
        put(out, "cache_source", self.cache_source)
        put(out, "llc_name", self.llc_name)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str) -> GapFeeding:
        r = Reader(data, where)
        r.raw("kind")
        return cls(level=r.opt_text("level"), bandwidth_gbs=r.opt_number("bandwidth_gbs"),
                   read=WeightsRead.from_json(r.raw("read"), r.at("read")) if r.has("read") else None,
                   weights_bytes=r.opt_number("weights_bytes"),
                   last_level_cache_bytes=r.opt_number("last_level_cache_bytes"),
                   llc_multiple=r.opt_number("llc_multiple"), dram_bandwidth_gbs=r.opt_number("dram_bandwidth_gbs"),
                   cache_source=r.opt_text("cache_source"), llc_name=r.opt_text("llc_name"))


@dataclass(frozen=True)
class DecodeGapFigures:
    """One decode-gap run. Fields an older row lacks are None (or empty)."""

    sizes: tuple[GapSize, ...] = ()
    """The model sizes, smallest first; the last is the one the gap is split for."""
    prompt_tokens: int | None = None
    decode_steps: int | None = None
    """Timed steps per size and round."""
    rounds: int | None = None
    """Interleaved rounds (every size once a round)."""
    threads: int | None = None
    """torch's CPU threads, pinned for the run (None on a GPU)."""
    step_statistic: str | None = None
    """Which step time stands for a size (the 20th percentile of its timed steps)."""
    dtype: str | None = None
    roof_bandwidth_gbs: float | None = None
    """The decomposition's roof: decode's GEMVs reading the largest model's weights, GB/s."""
    stream_copy_gbs: float | None = None
    """The roofline's STREAM copy, GB/s."""
    peak_bandwidth_gbs: float | None = None
    """The roofline's peak bandwidth (the STREAM copy), GB/s, as older rows name it."""
    roof_method: str | None = None
    roof_level: str | None = None
    roof_over_stream_copy: float | None = None
    """``roof_bandwidth_gbs`` ÷ ``stream_copy_gbs``."""
    fit: GapFit | None = None
    reference_n_params: int | None = None
    reference_weights_bytes: float | None = None
    reference_kv_bytes: float | None = None
    reference_step_ms: float | None = None
    gap: GapParts | None = None
    feeding: GapFeeding | None = None
    last_level_cache_bytes: float | None = None
    """``cache.last_level_cache_bytes``: the cache the largest model is compared with (None on a GPU)."""
    largest_bytes_per_step: float | None = None
    resident: bool | None = None
    """Whether even the largest model's bytes fit the last-level cache (decode then never reaches DRAM)."""
    largest_to_llc_pct: float | None = None

    def to_json(self) -> JsonObject:
        out: JsonObject = {}
        put(out, "sizes", [s.to_json() for s in self.sizes])
        for key in ("prompt_tokens", "decode_steps", "rounds", "threads", "step_statistic", "dtype",
                    "roof_bandwidth_gbs", "stream_copy_gbs", "peak_bandwidth_gbs"):
            put(out, key, getattr(self, key))
        if self.roof_method is not None:
            out["roof"] = {"method": self.roof_method, "level": self.roof_level,
                           "bandwidth_gbs": self.roof_bandwidth_gbs, "over_stream_copy": self.roof_over_stream_copy}
        if self.fit is not None:
            out["fit"] = self.fit.to_json()
        if self.reference_step_ms is not None:
            out["reference"] = {"n_params": self.reference_n_params, "weights_bytes": self.reference_weights_bytes,
                                "kv_bytes": self.reference_kv_bytes, "step_ms": self.reference_step_ms}
        if self.gap is not None:
            out["gap"] = self.gap.to_json()
        if self.feeding is not None:
            out["feeding"] = self.feeding.to_json()
        if self.resident is not None:
            out["cache"] = {"last_level_cache_bytes": self.last_level_cache_bytes,
                            "largest_bytes_per_step": self.largest_bytes_per_step, "resident": self.resident,
                            "largest_to_llc_pct": self.largest_to_llc_pct}
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "measurement") -> DecodeGapFigures:
        """The figures in ``data`` (a decode-gap measurement's JSON); what an older row lacks stays None."""
        r = Reader(data, where)
        raw_sizes = r.raw("sizes")
        if raw_sizes is not None and not isinstance(raw_sizes, list):
            raise expected(r.at("sizes"), "list", raw_sizes)
        sizes = tuple(GapSize.from_json(s, f"{r.at('sizes')}.{i}") for i, s in enumerate(raw_sizes or ()))
        roof = Reader(r.raw("roof") or {}, r.at("roof"))
        ref = Reader(r.raw("reference") or {}, r.at("reference"))
        cache = Reader(r.raw("cache") or {}, r.at("cache"))
        resident = cache.raw("resident")
        return cls(
            sizes=sizes, prompt_tokens=r.opt_integer("prompt_tokens"), decode_steps=r.opt_integer("decode_steps"),
            rounds=r.opt_integer("rounds"), threads=r.opt_integer("threads"),
            step_statistic=r.opt_text("step_statistic"), dtype=r.opt_text("dtype"),
            roof_bandwidth_gbs=r.opt_number("roof_bandwidth_gbs"), stream_copy_gbs=r.opt_number("stream_copy_gbs"),
            peak_bandwidth_gbs=r.opt_number("peak_bandwidth_gbs"), roof_method=roof.opt_text("method"),
            roof_level=roof.opt_text("level"), roof_over_stream_copy=roof.opt_number("over_stream_copy"),
            fit=GapFit.from_json(r.raw("fit"), r.at("fit")) if r.has("fit") else None,
            reference_n_params=ref.opt_integer("n_params"), reference_weights_bytes=ref.opt_number("weights_bytes"),
            reference_kv_bytes=ref.opt_number("kv_bytes"), reference_step_ms=ref.opt_number("step_ms"),
            gap=GapParts.from_json(r.raw("gap"), r.at("gap")) if r.has("gap") else None,
            feeding=GapFeeding.from_json(r.raw("feeding"), r.at("feeding")) if r.has("feeding") else None,
            last_level_cache_bytes=cache.opt_number("last_level_cache_bytes"),
            largest_bytes_per_step=cache.opt_number("largest_bytes_per_step"),
            resident=resident if isinstance(resident, bool) else None,
            largest_to_llc_pct=cache.opt_number("largest_to_llc_pct"),
        )
