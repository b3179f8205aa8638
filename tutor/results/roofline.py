"""The measured roofline a result was judged against, and the judgement: which roof bounds the workload, and
whether the workload sits above a roof it should not beat."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tutor.results.device import Device
from tutor.results.interference import Interference
from tutor.results.reading import Reader, put


@dataclass(frozen=True)
class Datasheet:
    """The spec-table roof of a known device, shown beside the measured one."""

    name: str
    bandwidth_gbs: float | None = None
    tflops: Mapping[str, float] = field(default_factory=dict)
    ridge_flops_per_byte: Mapping[str, float] = field(default_factory=dict)
    source: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.extra)
        out["name"] = self.name
        put(out, "bandwidth_gbs", self.bandwidth_gbs)
        put(out, "tflops", dict(self.tflops))
        put(out, "ridge_flops_per_byte", dict(self.ridge_flops_per_byte))
        put(out, "source", self.source)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "datasheet") -> Datasheet:
        r = Reader(data, where)
        return cls(name=r.text("name", "?"), bandwidth_gbs=r.opt_number("bandwidth_gbs"), tflops=r.numbers("tflops"),
                   ridge_flops_per_byte=r.numbers("ridge_flops_per_byte"), source=r.opt_text("source"),
                   extra=r.rest())


# What an attempt keeps of a roofline (the raw STREAM and matmul tables stay in the roofline cache).
_TABLES = ("bandwidth", "gemm")


@dataclass(frozen=True)
class RooflineReference:
    """The roofline measured on a device (peak bandwidth, peak FLOP/s per dtype, the ridge between them), cached
    per device fingerprint; ``tables`` holds the measurement behind it (STREAM kernels, matmul sizes, the
    physical limits) and any field this type does not name."""

    peak_bandwidth_gbs: float
    peak_gflops: Mapping[str, float] = field(default_factory=dict)
    ridge_flops_per_byte: Mapping[str, float] = field(default_factory=dict)
    ridge_point: float | None = None
    """The fp32 ridge in FLOP/byte (``ridge_flops_per_byte["float32"]``)."""
    device: Device | None = None
    mode: str | None = None
    measured_at: float | None = None
    """Unix time of the measurement."""
    load_average: float | None = None
    """The 1-minute load average while it was measured (a busy machine measures low roofs)."""
    cached: bool = False
    datasheet: Datasheet | None = None
    warnings: tuple[str, ...] = ()
    tables: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ridge(self) -> float | None:
        """The fp32 ridge point, from ``ridge_point`` or the per-dtype table."""
        return self.ridge_point if self.ridge_point is not None else self.ridge_flops_per_byte.get("float32")

    def peak_for(self, dtype: str) -> float | None:
        """The measured matmul peak for ``dtype`` in GFLOP/s (fp32's when ``dtype`` was not measured)."""
        return self.peak_gflops.get(dtype, self.peak_gflops.get("float32"))

    @property
    def bandwidth_cv(self) -> float | None:
        """The coefficient of variation of the bandwidth measurement, when the tables carry it."""
        bw = self.tables.get("bandwidth")
        cv = bw.get("cv") if isinstance(bw, Mapping) else self.tables.get("bandwidth_cv")
        return float(cv) if isinstance(cv, int | float) and not isinstance(cv, bool) else None

    def gemm_cv(self, dtype: str = "float32") -> float | None:
        """The coefficient of variation of the matmul peak of ``dtype`` (fp32's when it was not measured)."""
        kept = self.tables.get("gemm_cv")
        if isinstance(kept, Mapping):
            cv = kept.get(dtype, kept.get("float32"))
        else:
            gemm = self.tables.get("gemm")
            entry = gemm.get(dtype, gemm.get("float32")) if isinstance(gemm, Mapping) else None
            cv = entry.get("cv") if isinstance(entry, Mapping) else None
        return float(cv) if isinstance(cv, int | float) and not isinstance(cv, bool) else None

    def ridge_cv(self, dtype: str = "float32") -> float | None:
        """The relative spread of the ridge (peak FLOP/s ÷ peak bandwidth): the two CVs in quadrature."""
        bw, gemm = self.bandwidth_cv, self.gemm_cv(dtype)
        if bw is None and gemm is None:
            return None
        return float(((bw or 0.0) ** 2 + (gemm or 0.0) ** 2) ** 0.5)

    @property
    def provisional(self) -> tuple[str, ...]:
        """Why this roof is provisional (codes: ``busy``, ``loose_bandwidth``, ``loose_matmul``), empty when it is
        final: measured quiet and tight enough to grade with (:func:`tutor.theory.roofline.provisional_reasons`)."""
        reasons = self.tables.get("provisional")
        return tuple(str(r) for r in reasons) if isinstance(reasons, list | tuple) else ()

    @property
    def interference(self) -> Interference | None:
        """What other programs took of the machine while the roof was measured (None: not sampled)."""
        return Interference.of(self.tables.get("interference"))

    @property
    def physical_limits(self) -> Mapping[str, Any] | None:
        limits = self.tables.get("physical_limits")
        return limits if isinstance(limits, Mapping) else None

    def summary(self) -> RooflineReference:
        """The roofline without its raw STREAM and matmul tables (what an attempt keeps); when, under what load and
        with what noise it was measured stay (every chart says so)."""
        cv = self.bandwidth_cv
        tables: dict[str, Any] = {"bandwidth_cv": cv} if cv is not None else {}
        gemm = self.tables.get("gemm")
        if isinstance(gemm, Mapping):
            cvs = {d: g["cv"] for d, g in gemm.items() if isinstance(g, Mapping) and isinstance(g.get("cv"), float)}
            if cvs:
                tables["gemm_cv"] = cvs
        elif isinstance(self.tables.get("gemm_cv"), Mapping):
            tables["gemm_cv"] = dict(self.tables["gemm_cv"])
        for key in ("provisional", "interference", "probe", "remeasured_because", "peak_spread"):
            if key in self.tables:
                tables[key] = self.tables[key]
        return RooflineReference(
            peak_bandwidth_gbs=self.peak_bandwidth_gbs, peak_gflops=self.peak_gflops,
            ridge_flops_per_byte=self.ridge_flops_per_byte, ridge_point=self.ridge_point, mode=self.mode,
            measured_at=self.measured_at, load_average=self.load_average, cached=self.cached,
            datasheet=self.datasheet, tables=tables)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.tables)
        if self.device is not None:
            out["device"] = self.device.to_json()
        put(out, "mode", self.mode)
        put(out, "measured_at", self.measured_at)
        out["peak_bandwidth_gbs"] = self.peak_bandwidth_gbs
        put(out, "peak_gflops", dict(self.peak_gflops))
        put(out, "peak_tflops", {d: g / 1e3 for d, g in self.peak_gflops.items()})
        put(out, "ridge_flops_per_byte", dict(self.ridge_flops_per_byte))
        put(out, "ridge_point", self.ridge_point)
        if self.datasheet is not None:
            out["datasheet"] = self.datasheet.to_json()
        put(out, "load_average", self.load_average)
        out["warnings"] = list(self.warnings)
        out["cached"] = self.cached
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "roofline") -> RooflineReference:
        r = Reader(data, where)
        r.raw("peak_tflops")  # derived from peak_gflops
        r.raw("kind")  # the roofline op's result says kind: roofline
        device = Device.from_json(r.raw("device"), r.at("device")) if r.has("device") else None
        sheet = Datasheet.from_json(r.raw("datasheet"), r.at("datasheet")) if r.has("datasheet") else None
        return cls(
            peak_bandwidth_gbs=r.number("peak_bandwidth_gbs"), peak_gflops=r.numbers("peak_gflops"),
            ridge_flops_per_byte=r.numbers("ridge_flops_per_byte"), ridge_point=r.opt_number("ridge_point"),
            device=device, mode=r.opt_text("mode"), measured_at=r.opt_number("measured_at"),
            load_average=r.opt_number("load_average"), cached=r.flag("cached"), datasheet=sheet,
            warnings=r.texts("warnings"), tables=r.rest(),
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
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Fields this type does not name (a newer engine's)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"bound": self.bound, "too_close_to_call": self.too_close_to_call}
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
class RoofCheck:
    """A workload above a roof it should not beat: ``code`` is ``cache_resident`` (its working set fits in the
    last-level cache), ``above_bandwidth_roof`` or ``above_compute_roof`` (the roof was measured again)."""

    code: str
    fraction: float
    """The achieved rate as a fraction of the roof it beats."""
    margin: float | None = None
    """How far above the roof its own noise could carry it (the floor, or 3 CVs)."""
    working_set_bytes: float | None = None
    last_level_cache_bytes: float | None = None
    remeasured: bool = False
    still_above: bool = False
    fraction_after: float | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {**self.extra, "code": self.code, "fraction": self.fraction}
        put(out, "margin", self.margin)
        put(out, "working_set_bytes", self.working_set_bytes)
        put(out, "last_level_cache_bytes", self.last_level_cache_bytes)
        if self.remeasured:
            out.update(remeasured=True, still_above=self.still_above, fraction_after=self.fraction_after)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "roof_check") -> RoofCheck:
        r = Reader(data, where)
        return cls(code=r.text("code"), fraction=r.number("fraction"), margin=r.opt_number("margin"),
                   working_set_bytes=r.opt_number("working_set_bytes"),
                   last_level_cache_bytes=r.opt_number("last_level_cache_bytes"), remeasured=r.flag("remeasured"),
                   still_above=r.flag("still_above"), fraction_after=r.opt_number("fraction_after"),
                   extra=r.rest())
