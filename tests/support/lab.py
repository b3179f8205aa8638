"""The two-lab course of the lab tests (a GEMM sweep with a prediction, a working-set sweep) and stand-ins for the
measurement worker (one whose process dies after a point, one that is cancelled)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult

from tutor.measure.errors import MeasureCancelled, MeasureFailed
from tutor.measure.phases import said
from tutor.ui.widgets.lab_plot import LabPlot

COURSE = """\
format_version: 1
title: {es: "Curso de laboratorio", en: "Lab course"}
levels:
  - {id: demo, order: 0, title: {es: "Demo", en: "Demo"}}
"""

LESSON = """\
format_version: 1
id: lab-l1
level: demo
order: 1
title: {es: "Labs", en: "Labs"}
outcome: {es: "Mides.", en: "You measure."}
sections:
  - id: intro
    title: {es: "Intro", en: "Intro"}
    body: {es: "# Intro", en: "# Intro"}
labs:
  - id: lab-gemm
    title: {es: "Lab: GFLOP/s contra N", en: "Lab: GFLOP/s vs N"}
    goal: {es: "Ver cómo crece la GEMM con N.", en: "See how GEMM grows with N."}
    run: {op: sweep, name: gemm_sizes, params: {min_n: 32, max_n: 96, points: 2}}
    prediction: {es: "¿Cuántos GFLOP/s a N = 96?", en: "How many GFLOP/s at N = 96?"}
    prediction_unit: GFLOP/s
    hypothesis: {es: "Las matrices grandes reutilizan la caché.", en: "Big matrices reuse the cache."}
    next_question: {es: "¿Y en float64?", en: "And in float64?"}
  - id: lab-ws
    title: {es: "Lab: ancho de banda", en: "Lab: bandwidth"}
    goal: {es: "Ancho de banda contra tamaño.", en: "Bandwidth vs size."}
    run: {op: sweep, name: working_set, params: {min_kib: 16, max_mib: 1024, points_per_octave: 4}}
"""


def write_lab_course(root: Path) -> Path:
    """The two-lab course these tests (and the headless lab runner's) use, written under ``root``."""
    (root / "lessons").mkdir(parents=True)
    (root / "exercises").mkdir()
    (root / "course.yaml").write_text(COURSE, encoding="utf-8")
    (root / "lessons" / "lab-l1.yaml").write_text(LESSON, encoding="utf-8")
    return root


class FailingWorker:
    """Stands in for the measurement worker: streams a point, then the process 'dies'."""

    def run(self, request: dict[str, Any], on_progress: Any = None, cancel_event: threading.Event | None = None,
            on_point: Any = None, **_: Any) -> dict[str, Any]:
        on_progress(0.5, said("measure.progress.gemm_size", n=32, gflops=3.0))
        on_point({"n": 32, "gflops": 3.0, "time_s": 1e-5})
        raise MeasureFailed("the measurement process was killed (SIGKILL) — most likely out of memory")

    def close(self) -> None:
        pass


class CancellingWorker(FailingWorker):
    def run(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        raise MeasureCancelled("cancelled")



class PlotApp(App[None]):
    """An app that shows one lab plot alone (the chart tests draw it at a given size)."""

    def __init__(self, plot: LabPlot) -> None:
        super().__init__()
        self.plot = plot

    def compose(self) -> ComposeResult:
        yield self.plot
