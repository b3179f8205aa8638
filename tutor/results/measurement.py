"""A measurement: what the engine measured for one request (a workload, a sweep, a memory or decode run), on
which device, against which roofline. It crosses the worker's pipe and the store as JSON (:meth:`to_json`,
:meth:`from_json`); everywhere else it is this type."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tutor.results.decode_gap import DECODE_GAP_KEYS, DecodeGapFigures
from tutor.results.device import Device
from tutor.results.interference import Interference
from tutor.results.reading import Reader, expected, put
from tutor.results.roofline import Classification, RoofCheck, RooflineReference
from tutor.results.sweep import SweepPoint
from tutor.results.timing import TimingStats
from tutor.results.training import TRAINING_KEYS, TrainingFigures
from tutor.results.vram import VRAM_KEYS, VramFigures
from tutor.results.wire import JsonObject

ParamValue = int | float | str | bool
"""One validated request parameter (a bounded integer or number, a dtype or choice, a flag), as JSON holds it."""

# Lists longer than this are not kept in an attempt's summary (a sweep's points are, up to this many).
SUMMARY_MAX_POINTS = 64
# Figures that hold raw tables: kept in an attempt's summary only as a short list.
_TABLE_FIGURES = ("kernels", "bandwidth", "gemm", "samples")


@dataclass(frozen=True)
class Measurement:
    """One measured result.

    Every kind names its ``device`` and ``params``. A workload adds its FLOPs and bytes (the lesson's formulas),
    the timing statistics, the achieved rates (from the median time; ``best_*`` from the fastest repeat), the
    roofline it was judged against, the classification and, when it beat a roof, the roof check. A sweep adds its
    ``points``. A memory run adds its :class:`VramFigures`, a training run its :class:`TrainingFigures`, a
    decode-gap run its :class:`DecodeGapFigures`. Figures this type does not name yet (a decode run's ``batches``,
    the device lease…) are in ``figures``, under their JSON names; an exercise names any of them by its JSON path
    (:meth:`figure`)."""

    kind: str
    device: Device | None = None
    params: Mapping[str, ParamValue] = field(default_factory=dict)
    """The validated request parameters by name (each workload, sweep and the memory run has its own names; the
    engine's typed :class:`~tutor.measure.registry.WorkloadParams` as JSON)."""
    workload: str | None = None
    name: str | None = None
    """The sweep's name (``working_set``, ``gemm_sizes``…)."""
    description: str | None = None
    flops: float | None = None
    bytes: float | None = None
    arithmetic_intensity: float | None = None
    time_s: TimingStats | None = None
    achieved_gbs: float | None = None
    achieved_gflops: float | None = None
    best_gbs: float | None = None
    best_gflops: float | None = None
    working_set_bytes: float | None = None
    roofline: RooflineReference | None = None
    classification: Classification | None = None
    roof_check: RoofCheck | None = None
    points: tuple[SweepPoint, ...] = ()
    label: str | None = None
    """How the figure was obtained when that is not plain measurement (``measured at small scale,
    extrapolated``)."""
    warnings: tuple[str, ...] = ()
    interference: Interference | None = None
    """What other programs took of the machine while this was measured (None: not sampled, an older row)."""
    vram: VramFigures | None = None
    """A memory run's figures (formula, measured or extrapolated total, fits), named and with their units."""
    training: TrainingFigures | None = None
    """A training-step run's figures (tokens/s, FLOPs per step, achieved GFLOP/s, MFU), named and with their
    units."""
    decode_gap: DecodeGapFigures | None = None
    """A decode-gap run's figures (the sizes, the fitted line, the gap in parts), named and with their units."""
    figures: Mapping[str, Any] = field(default_factory=dict)

    @property
    def dtype(self) -> str:
        """The element type the request measured (float32 when it names none)."""
        return str(self.params.get("dtype") or "float32")

    def number(self, key: str) -> float | None:
        """A top-level figure by its JSON name (typed field or ``figures``), when it is a number."""
        value = self.figure(key)
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None

    def figure(self, path: str) -> Any:
        """The figure at a dotted ``path`` of the JSON form (``classification.bound``, ``batches.1.tokens_per_s``),
        as an exercise names it; raises ``KeyError`` naming the path when there is none."""
        node: Any = self.to_json()
        for part in path.split("."):
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise KeyError(path)
        return node

    def with_figures(self, **figures: Any) -> Measurement:
        """This measurement with more figures (the device lease, the telemetry window)."""
        return replace(self, figures={**self.figures, **figures})

    def summary(self) -> Measurement:
        """What an attempt keeps: the figures and spread, the roofline's peaks and datasheet (not its raw tables),
        up to ``SUMMARY_MAX_POINTS`` points, no raw tables."""
        figures = {k: v for k, v in self.figures.items()
                   if k not in _TABLE_FIGURES or (isinstance(v, list) and len(v) <= SUMMARY_MAX_POINTS)}
        return replace(self, roofline=self.roofline.summary() if self.roofline is not None else None,
                       points=self.points if len(self.points) <= SUMMARY_MAX_POINTS else (), figures=figures)

    def to_json(self) -> JsonObject:
        out: JsonObject = dict(self.figures)
        if self.vram is not None:
            out.update(self.vram.to_json())
        if self.training is not None:
            out.update(self.training.to_json())
        if self.decode_gap is not None:
            out.update(self.decode_gap.to_json())
        out["kind"] = self.kind
        put(out, "workload", self.workload)
        put(out, "name", self.name)
        put(out, "description", self.description)
        put(out, "params", dict(self.params))
        if self.device is not None:
            out["device"] = self.device.to_json()
        for key in ("flops", "bytes", "arithmetic_intensity"):
            put(out, key, getattr(self, key))
        if self.time_s is not None:
            out["time_s"] = self.time_s.to_json()
        for key in ("achieved_gbs", "achieved_gflops", "best_gbs", "best_gflops", "working_set_bytes"):
            put(out, key, getattr(self, key))
        if self.roofline is not None:
            out["roofline"] = self.roofline.to_json()
        if self.classification is not None:
            out["classification"] = self.classification.to_json()
        if self.roof_check is not None:
            out["roof_check"] = self.roof_check.to_json()
        put(out, "points", [p.to_json() for p in self.points])
        put(out, "label", self.label)
        put(out, "warnings", list(self.warnings))
        if self.interference is not None:
            out["interference"] = self.interference.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "measurement") -> Measurement:
        """The measurement in ``data`` (a worker's result or a stored attempt's). Fields an older row lacks get
        their defaults; a field of the wrong type raises :class:`ResultError` naming it."""
        r = Reader(data, where)
        kind = r.text("kind") or ("workload" if r.has("workload") else "")
        name = r.opt_text("name")
        device = None
        if r.has("device"):
            device = Device.of(data)
            if device is None:
                raise expected(r.at("device"), "device", r.raw("device"), show=True)
        r.raw("device")
        raw_points = r.raw("points")
        points: tuple[SweepPoint, ...] = ()
        if raw_points is not None:
            if not isinstance(raw_points, list):
                raise expected(r.at("points"), "list", raw_points)
            points = tuple(SweepPoint.from_json(name or "", p, f"{r.at('points')}.{i}")
                           for i, p in enumerate(raw_points))

        def sub(key: str, reader: Any) -> Any:
            return reader(r.raw(key), r.at(key)) if r.has(key) else None

        vram = None
        if kind == "vram":
            vram = VramFigures.from_json({k: r.raw(k) for k in VRAM_KEYS if r.has(k)}, r.where)
        training = None
        if kind == "train_step":
            training = TrainingFigures.from_json({k: r.raw(k) for k in TRAINING_KEYS if r.has(k)}, r.where)
        decode_gap = None
        if kind == "decode_gap":
            decode_gap = DecodeGapFigures.from_json({k: r.raw(k) for k in DECODE_GAP_KEYS if r.has(k)}, r.where)

        return cls(
            kind=kind, device=device, params=r.scalars("params"), workload=r.opt_text("workload"), name=name,
            description=r.opt_text("description"), flops=r.opt_number("flops"), bytes=r.opt_number("bytes"),
            arithmetic_intensity=r.opt_number("arithmetic_intensity"), time_s=sub("time_s", TimingStats.from_json),
            achieved_gbs=r.opt_number("achieved_gbs"), achieved_gflops=r.opt_number("achieved_gflops"),
            best_gbs=r.opt_number("best_gbs"), best_gflops=r.opt_number("best_gflops"),
            working_set_bytes=r.opt_number("working_set_bytes"),
            roofline=sub("roofline", RooflineReference.from_json),
            classification=sub("classification", Classification.from_json),
            roof_check=sub("roof_check", RoofCheck.from_json), points=points, label=r.opt_text("label"),
            warnings=r.texts("warnings"), interference=sub("interference", Interference.from_json),
            vram=vram, training=training, decode_gap=decode_gap, figures=r.rest(),
        )
