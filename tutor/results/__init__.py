"""Typed results: what crosses a room is one of these frozen dataclasses, never a ``dict[str, Any]``.

A measurement (:class:`Measurement`, with its :class:`TimingStats`, :class:`RooflineReference`,
:class:`Classification`, :class:`RoofCheck`, :class:`SweepPoint` s and a memory run's :class:`VramFigures`), a
bench report (:class:`BenchReport`)
and the device they name (:class:`Device`). Each has ``to_json()`` / ``from_json()``, used only where a result
crosses the worker process's pipe and where the store keeps it; ``from_json`` reads old stored rows (missing
optional fields get defaults) and raises :class:`ResultError` naming the field of a malformed one.

Pure: no torch, no Textual, no Rich (the UI and the measurement engine both import it).
"""

from tutor.results.bench import (
    BENCH_SCHEMA,
    HEADLINE_KEYS,
    BenchComparison,
    BenchReport,
    BenchRow,
    ComparedFigure,
)
from tutor.results.device import Device, device_label
from tutor.results.interference import Interference
from tutor.results.measurement import Measurement
from tutor.results.reading import ResultError
from tutor.results.roofline import (
    BoundCheck,
    Classification,
    Datasheet,
    GemmFigures,
    GemmSize,
    MatmulRounds,
    PhysicalLimits,
    PreviousRoof,
    RoofCheck,
    RooflineReference,
    RoofProbe,
    StreamFigures,
    StreamKernel,
)
from tutor.results.sweep import SWEEP_AXES, SweepPoint, sweep_point
from tutor.results.timing import TimingStats
from tutor.results.vram import VramFigures

__all__ = [
    "BENCH_SCHEMA",
    "HEADLINE_KEYS",
    "SWEEP_AXES",
    "BenchComparison",
    "BenchReport",
    "BenchRow",
    "BoundCheck",
    "Classification",
    "ComparedFigure",
    "Datasheet",
    "Device",
    "GemmFigures",
    "GemmSize",
    "Interference",
    "MatmulRounds",
    "Measurement",
    "PhysicalLimits",
    "PreviousRoof",
    "ResultError",
    "RoofCheck",
    "RoofProbe",
    "RooflineReference",
    "StreamFigures",
    "StreamKernel",
    "SweepPoint",
    "TimingStats",
    "VramFigures",
    "device_label",
    "sweep_point",
]
