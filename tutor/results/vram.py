"""What a memory (``vram``) run measured, as named fields with their units.

A vram run asks whether a model preset fits a stated capacity: the lesson's formula per part, the memory measured
(on a GPU: torch's peak plus the context outside its allocator; on a CPU: a small-scale run's live tensor bytes,
extrapolated with the formula, plus an estimated context), and the verdict. Bytes are bytes (``*_bytes``),
gigabytes are 10⁹ bytes (``*_gb``, as the lessons and the capacity count them). The JSON names are the engine's,
at the top level of the measurement's JSON (so an exercise's ``truth.metric: total_gb`` and old stored rows read
as before); :meth:`VramFigures.from_json` takes them out of a measurement's fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tutor.results.reading import Reader, put
from tutor.results.wire import JsonObject

GB = 1e9
"""Bytes in a gigabyte (the lessons' and the capacity's unit)."""

VRAM_KEYS = ("preset", "display", "mode", "dtype", "batch", "seq_len", "capacity_gb", "formula_bytes", "formula_gb",
             "formula_gb_parts", "total_bytes", "total_gb", "context_bytes", "context_kind", "context_source", "fits",
             "verdict", "oom", "device_kind", "measured_over_formula", "extrapolated_bytes", "formula_total_bytes",
             "formula_total_gb", "small_scale", "peak_allocated_bytes", "peak_reserved_bytes", "gpu_total_bytes",
             "free_after_bytes", "error", "note")
"""The JSON names a vram run's figures use (``verdict`` and ``formula_gb_parts`` are written, not read)."""


@dataclass(frozen=True)
class VramFigures:
    """One vram run: the question (preset, mode, dtype, batch × sequence, capacity), the formula, the measured or
    extrapolated total and whether it fits. Fields that only one kind of device produces are None elsewhere."""

    preset: str = ""
    display: str = ""
    """The preset's name as shown (``Llama 3.1 8B``)."""
    mode: str = ""
    """``inference`` or ``training``."""
    dtype: str = ""
    batch: int | None = None
    seq_len: int | None = None
    capacity_gb: float | None = None
    formula_bytes: Mapping[str, float] = field(default_factory=dict)
    """The lesson's formula at full scale, bytes per part (``weights``, ``kv_cache``…, and ``total``)."""
    formula_gb: float | None = None
    """The formula's total, GB (without the context)."""
    total_bytes: float | None = None
    """What the run holds: measured (GPU) or extrapolated (CPU), plus the context, bytes."""
    total_gb: float | None = None
    context_bytes: float | None = None
    """The runtime's own memory outside the model (the CUDA context), bytes."""
    context_kind: str | None = None
    """``measured`` or ``estimate``."""
    context_source: str | None = None
    fits: bool | None = None
    oom: bool = False
    device_kind: str | None = None
    # a CPU run: measured at small scale, extrapolated with the formula
    measured_over_formula: float | None = None
    """Measured bytes over the formula's at the small scale (the factor the extrapolation applies)."""
    extrapolated_bytes: float | None = None
    formula_total_bytes: float | None = None
    """The formula at full scale plus the same context, bytes: the truth a CPU run grades against."""
    formula_total_gb: float | None = None
    small_scale: Mapping[str, Any] | None = None
    """The small-scale run itself (its config, parameters, live bytes): evidence, kept as the engine wrote it."""
    # a GPU run
    peak_allocated_bytes: float | None = None
    peak_reserved_bytes: float | None = None
    gpu_total_bytes: float | None = None
    free_after_bytes: float | None = None
    error: str | None = None
    """The out-of-memory error's first line (a GPU run that did not fit)."""
    note: str | None = None

    @property
    def verdict(self) -> str:
        """``fits`` or ``does not fit``, as the engine words it."""
        return "fits" if self.fits else "does not fit"

    @property
    def formula_gb_parts(self) -> dict[str, float]:
        """The formula per part, GB."""
        return {k: v / GB for k, v in self.formula_bytes.items()}

    def to_json(self) -> JsonObject:
        out: JsonObject = {}
        for key in ("preset", "display", "mode", "dtype", "batch", "seq_len", "capacity_gb"):
            put(out, key, getattr(self, key))
        put(out, "formula_bytes", dict(self.formula_bytes))
        put(out, "formula_gb", self.formula_gb)
        put(out, "formula_gb_parts", self.formula_gb_parts)
        for key in ("total_bytes", "total_gb", "context_bytes", "context_kind", "context_source", "device_kind",
                    "measured_over_formula", "extrapolated_bytes", "formula_total_bytes", "formula_total_gb",
                    "peak_allocated_bytes", "peak_reserved_bytes", "gpu_total_bytes", "free_after_bytes", "error",
                    "note"):
            put(out, key, getattr(self, key))
        if self.small_scale is not None:
            out["small_scale"] = dict(self.small_scale)
        if self.fits is not None:
            out["fits"] = self.fits
            out["verdict"] = self.verdict
        out["oom"] = self.oom
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "measurement") -> VramFigures:
        """The figures in ``data`` (a vram measurement's JSON); what an older row lacks stays None. ``fits`` comes
        from ``verdict`` when a row has only that."""
        r = Reader(data, where)
        fits = r.raw("fits")
        if not isinstance(fits, bool):
            verdict = r.opt_text("verdict")
            fits = None if verdict is None else verdict == "fits"
        r.raw("verdict")
        r.raw("formula_gb_parts")
        return cls(
            preset=r.text("preset"), display=r.text("display"), mode=r.text("mode"), dtype=r.text("dtype"),
            batch=r.opt_integer("batch"), seq_len=r.opt_integer("seq_len"), capacity_gb=r.opt_number("capacity_gb"),
            formula_bytes=r.numbers("formula_bytes"), formula_gb=r.opt_number("formula_gb"),
            total_bytes=r.opt_number("total_bytes"), total_gb=r.opt_number("total_gb"),
            context_bytes=r.opt_number("context_bytes"), context_kind=r.opt_text("context_kind"),
            context_source=r.opt_text("context_source"), fits=fits, oom=r.flag("oom"),
            device_kind=r.opt_text("device_kind"), measured_over_formula=r.opt_number("measured_over_formula"),
            extrapolated_bytes=r.opt_number("extrapolated_bytes"),
            formula_total_bytes=r.opt_number("formula_total_bytes"),
            formula_total_gb=r.opt_number("formula_total_gb"), small_scale=r.opt_mapping("small_scale"),
            peak_allocated_bytes=r.opt_number("peak_allocated_bytes"),
            peak_reserved_bytes=r.opt_number("peak_reserved_bytes"), gpu_total_bytes=r.opt_number("gpu_total_bytes"),
            free_after_bytes=r.opt_number("free_after_bytes"), error=r.opt_text("error"), note=r.opt_text("note"),
        )
