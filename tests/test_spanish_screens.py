"""The learner reads Spanish on every screen: a Pilot walk through the map, a lesson, an exercise (answered, measured,
revealed with its roofline chart), a lab with its plot, the notebook entry it files, progress, the doctor, the command
palette and the help, at 160×48 on a fresh data directory, reading back everything the terminal shows: no English word
and no dot decimal. Then the language is toggled and the footer's keys and the screen's words change at once. The
charts and the palette are also checked on their own, in both languages."""

from __future__ import annotations

import io
import re
import shutil
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.app import App, ComposeResult
from textual.widgets import Input

from tests.support.doctor import CU126_ARCHS, healthy_5090, torch_with
from tests.support.exercise import fake_measure
from tests.support.pilot import quiet, settle, wait_for
from tutor.content import load_course
from tutor.measure.phases import said
from tutor.measure.worker import MeasureWorker
from tutor.progress import ProgressStore
from tutor.results import Datasheet, RooflineReference
from tutor.ui.app import TutorApp, make_app
from tutor.ui.messages import OpenExercise, OpenLab, OpenLesson
from tutor.ui.screens.doctor import DoctorScreen
from tutor.ui.screens.exercise import ExerciseScreen
from tutor.ui.screens.help import HelpScreen
from tutor.ui.screens.lab import LabScreen
from tutor.ui.screens.notebook import NotebookScreen
from tutor.ui.screens.progress import ProgressScreen
from tutor.ui.widgets.lab_plot import LabPlot
from tutor.ui.widgets.roofline_chart import RooflineChart, RooflinePoint

FIXTURES = Path(__file__).parent / "fixtures"
SIZE = (160, 48)

ENGLISH = re.compile(
    r"\b(?:the|Open:|measured|drawn at|ridge|Press|Cancel|Measure|Lesson|Back|Quit|Help|Search|your|roof measured|"
    r"load|Keys|Theme|Screenshot|Maximize|Minimize|arithmetic intensity|working set|prediction|palette|Save|"
    r"Export|Next|Hint|Lock|Telemetry|Close|extrapolated|ago|just now|No matches|datasheet|waiting|busy)\b")
"""English words a Spanish screen must not show (the chrome that used to leak: legends, palette, keys, notices)."""
DOT_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
VERSIONS = re.compile(r"(?:CUDA(?: hasta la)?|cu|driver|torch|Python|sm_|compute_|cómputo|v)\s?\d+\.\d+")
"""Dotted figures that are versions, not decimals (a driver's, CUDA's or a compute capability's, as the vendor
writes them): the narrow list the walk lets through."""


def leaks(text: str) -> list[str]:
    """The English words and dot decimals in ``text``, each with the line it is on."""
    found = []
    for line in text.splitlines():
        found += [f"{m.group()!r} in {line.strip()!r}" for m in ENGLISH.finditer(line)]
        found += [f"{m.group()!r} in {line.strip()!r}" for m in DOT_DECIMAL.finditer(VERSIONS.sub("", line))]
    return found


def shown(app: App[None]) -> str:
    """Everything the terminal shows now, as text (what a screenshot of it holds)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, color_system="truecolor",
                      record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


ROOF = replace(RooflineReference(peak_bandwidth_gbs=27.9, peak_gflops={"float32": 1339.5}),
               datasheet=Datasheet("Some GPU", bandwidth_gbs=1008.0, tflops={"float32": 104.8}))


class ChartsApp(App[None]):
    lang = "es"

    def compose(self) -> ComposeResult:
        chart = RooflineChart(roofline=ROOF, points=[RooflinePoint("tu carga: copy", 0.0, 20.5),
                                                     RooflinePoint("tu predicción", 0.5, 12.5, "magenta", "x")],
                              id="chart")
        chart.lang = "es"
        yield chart
        yield LabPlot("roofline_points", title="Lab", x_label="intensidad aritmética (FLOP/byte)",
                      y_label="GFLOP/s", lang="es", id="plot")


async def test_the_roofline_chart_and_the_lab_plot_in_spanish_then_english() -> None:
    app = ChartsApp()
    async with app.run_test(size=(120, 44)) as pilot:
        plot = app.query_one(LabPlot)
        plot.set_roofs(peak_bandwidth_gbs=27.9, peak_gflops=339.5)
        plot.add_point("kernels (medidos)", 0.0833, 2.25, kind="scatter", name="triad")
        plot.add_point("kernels (medidos)", 42.7, 120.5, kind="scatter", name="gemm 256")
        plot.set_prediction(20.5, "GB/s")
        await pilot.pause()
        spanish = shown(app)
        chart = app.query_one(RooflineChart)
        chart.lang = "en"
        plot.lang = "en"
        await pilot.pause()
        english = shown(app)
    assert not leaks(spanish), "\n".join(leaks(spanish))
    assert "medido: 27,9 GB/s, 1\u202f340 GFLOP/s" in spanish or "medido: 28 GB/s, 1\u202f340 GFLOP/s" in spanish
    assert "hoja de datos: 1\u202f008 GB/s, 104\u202f800 GFLOP/s" in spanish
    assert "tu carga: copy (0 FLOP/B, dibujado en 0,01)" in spanish
    assert "cresta 12,2 FLOP/B" in spanish and "tu predicción (20,5 GB/s)" in spanish and "0,1" in spanish
    assert "measured: 28 GB/s, 1,340 GFLOP/s" in english and "datasheet: 1,008 GB/s" in english
    assert "(0 FLOP/B, drawn at 0.01)" in english and "ridge 12.2 FLOP/B" in english
    assert "your prediction (20.5 GB/s)" in english


async def test_the_palette_in_spanish_follows_the_toggle(tmp_path: Path) -> None:
    app: TutorApp = make_app(course=load_course(FIXTURES / "exercise_course"),
                             store=ProgressStore(tmp_path / "p.sqlite3"), lang="es", telemetry=None)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        footer = shown(app).splitlines()[-1]
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: "Busca una orden…" in shown(app))
        await quiet(pilot)
        opened = shown(app)
        await pilot.press("a")
        await quiet(pilot)  # the palette's search is a worker: its hits are in once it is done
        searching = shown(app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        footer_en = shown(app).splitlines()[-1]
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: "Search for commands…" in shown(app))
        await quiet(pilot)
        english = shown(app)
    for text in (opened, searching, footer):
        assert not leaks(text), "\n".join(leaks(text))
    assert "Busca una orden…" in opened and "Abrir: L1" in opened and "Lección t-l1" in opened
    assert "Salir" in opened and "Idioma: español / English" in opened
    assert "Abrir: L1" in searching
    assert "paleta" in footer and "palette" in footer_en
    assert "Search for commands…" in english and "Open: L1" in english and "Quit" in english


# -- the walk through every screen --------------------------------------------------------------------------------

LAB_LESSON = """\
format_version: 1
id: lab-l1
level: n0
order: 2
title: {es: "Laboratorio", en: "Lab"}
outcome: {es: "Mides.", en: "You measure."}
sections:
  - {id: intro, title: {es: "Intro", en: "Intro"}, body: {es: "# Intro", en: "# Intro"}}
labs:
  - id: lab-roof
    title: {es: "Lab: tu roofline", en: "Lab: your roofline"}
    goal: {es: "Puntos bajo el techo.", en: "Points under the roof."}
    run: {op: sweep, name: roofline_points, params: {}}
    prediction: {es: "¿Cuántos GB/s da la copia?", en: "How many GB/s does the copy reach?"}
    prediction_unit: GB/s
"""

LAB_ROOF = {"kind": "roofline", "peak_bandwidth_gbs": 27.9, "peak_gflops": {"float32": 339.5}, "ridge_point": 12.17,
        "measured_at": 0.0, "load_1m": 0.35, "cv": 0.012}


class RooflineLabWorker:
    """The measurement worker for the roofline lab: streams a copy and two GEMMs, then returns them."""

    POINTS = [
        {"name": "copy", "params": {}, "arithmetic_intensity": 0.0, "gflops": 0.0, "gbs": 24.5, "time_s": 0.0125},
        {"name": "gemm", "params": {"n": 256}, "arithmetic_intensity": 42.7, "gflops": 120.5, "gbs": 2.8,
         "time_s": 0.0021},
        {"name": "gemm", "params": {"n": 512}, "arithmetic_intensity": 85.3, "gflops": 250.25, "gbs": 2.9,
         "time_s": 0.0011},
    ]

    def run(self, request: dict[str, Any], on_progress: Any = None, cancel_event: threading.Event | None = None,
            on_point: Any = None, **_: Any) -> dict[str, Any]:
        roof = {**LAB_ROOF, "measured_at": time.time() - 120}
        if request.get("op") == "roofline":
            return roof
        if request.get("op") != "sweep":  # an exercise's workload: the fake the other Pilot tests measure with
            return fake_measure(request, on_progress, cancel_event)
        for i, point in enumerate(self.POINTS):
            if on_progress:
                on_progress((i + 1) / len(self.POINTS), said("measure.progress.point", workload=point["name"],
                                                             intensity=point["arithmetic_intensity"],
                                                             gflops=point["gflops"]))
            if on_point:
                on_point(dict(point))
        return {"kind": "sweep", "name": "roofline_points", "params": {"dtype": "float32"},
                "device": {"kind": "cpu", "name": "Test CPU", "fingerprint": "fp"},
                "points": [dict(p) for p in self.POINTS], "roofline": roof,
                "x": "arithmetic_intensity", "y": "gflops"}

    def close(self) -> None:
        pass


def old_torch_runner(lock_path: Path) -> Any:
    """The doctor on an RTX 5090 whose torch was built for CUDA 12.4 (no Blackwell kernels): fails, with a fix."""
    from tutor.doctor import run_doctor

    view = healthy_5090(torch=torch_with(version="2.5.1+cu124", cuda="12.4", arch_list=CU126_ARCHS))
    return lambda mode: run_doctor(view, lock_mode=mode, lock_path=lock_path)


def course_dir(tmp_path: Path) -> Path:
    """The exercise fixture course with a lesson that holds a roofline lab."""

    root = tmp_path / "course"
    shutil.copytree(FIXTURES / "exercise_course", root)
    (root / "lessons" / "lab-l1.yaml").write_text(LAB_LESSON, encoding="utf-8")
    return root


CORE_RENDERED = {
    "#lab-result": "the lab's result summary (progress/notebook.py summarise_result: English number format)",
    "#notebook-entry .notebook-evidence, #notebook-entry .notebook-field":
        "the notebook entry's draft (progress/notebook.py draft_entry/format_prediction: English number format)",
    "#progress-c0": "the C0 checklist (progress/c0: scores with a dot, 'Lab Notebook')",
    "#doctor-checks": "the doctor's checks (doctor/: the kernel probe's seconds with a dot)",
}
"""Regions whose words the core renders (voice2's part of issue 13): the walk reads the screen around them as UI
chrome, which must be clean, and reads them apart; while they still leak the test says so as an expected failure."""


async def scrolled_through(app: TutorApp, pilot: Any) -> str:
    """The screen's text, and again with each scrolling container scrolled to its end (what lies below the fold)."""
    from textual.containers import ScrollableContainer

    texts = [shown(app)]
    scrollers = [w for w in app.screen.query(ScrollableContainer) if w.max_scroll_y > 0]
    for scroller in scrollers:
        scroller.scroll_end(animate=False, immediate=True)
    if scrollers:
        await quiet(pilot)
        texts.append(shown(app))
        for scroller in scrollers:
            scroller.scroll_home(animate=False, immediate=True)
        await quiet(pilot)
    return "\n".join(texts)


async def chrome_and_core(app: TutorApp, pilot: Any) -> tuple[list[str], list[str]]:
    """The leaks of the screen's own words (the core-rendered regions hidden) and those only the core regions add."""
    everything = set(leaks(await scrolled_through(app, pilot)))
    hidden = [w for selector in CORE_RENDERED for w in app.screen.query(selector) if w.visible]
    for widget in hidden:
        widget.styles.visibility = "hidden"
        for child in widget.query("*"):
            child.styles.visibility = "hidden"
    await quiet(pilot)
    chrome = leaks(await scrolled_through(app, pilot))
    for widget in hidden:
        widget.styles.visibility = "visible"
        for child in widget.query("*"):
            child.styles.visibility = "visible"
    await quiet(pilot)
    return chrome, sorted(everything - set(chrome))


async def test_every_screen_speaks_spanish_and_follows_the_toggle(tmp_path: Path) -> None:
    course = load_course(course_dir(tmp_path))
    assert not course.problems, course.problems
    app: TutorApp = make_app(course=course, store=ProgressStore(tmp_path / "data" / "p.sqlite3"), lang="es",
                             telemetry="host", measure_worker=RooflineLabWorker())  # type: ignore[arg-type]
    seen: dict[str, list[str]] = {}
    core: dict[str, list[str]] = {}

    async def read(name: str) -> None:
        await settle(app_pilot)
        seen[name], core[name] = await chrome_and_core(app, app_pilot)

    async with app.run_test(size=SIZE) as app_pilot:
        await read("map")

        app.post_message(OpenLesson("t-l1"))
        await settle(app_pilot, lambda: app.screen.id == "lesson-t-l1")
        await read("lesson")

        # An exercise: answered, locked, measured (the other Pilot tests' fake), revealed with its roofline chart.
        app.post_message(OpenExercise("t-copy-gbs"))
        await settle(app_pilot, lambda: isinstance(app.screen, ExerciseScreen))
        exercise = app.screen
        assert isinstance(exercise, ExerciseScreen)
        await read("exercise")
        exercise.query_one("#ex-number", Input).value = "18,5"
        exercise.query_one("#ex-confidence", Input).value = "70"
        await app_pilot.press("ctrl+l")
        await read("exercise locked")
        await app_pilot.press("ctrl+r")
        await settle(app_pilot, lambda: exercise.state == "revealed")
        chart = exercise.query_one("#ex-chart", RooflineChart)
        assert chart.display and chart.points
        await read("exercise revealed")
        await app_pilot.press("escape")
        await settle(app_pilot, lambda: not isinstance(app.screen, ExerciseScreen))
        await read("attempts")  # Esc after a reveal shows the exercise's attempts (issue 30 item 2)
        await app_pilot.press("escape")
        await settle(app_pilot, lambda: app.screen.id == "lesson-t-l1")

        # A lab: predict, measure (streamed points), its plot with the measured roofline; it files a notebook entry.
        app.post_message(OpenLab("lab-l1", "lab-roof"))
        await settle(app_pilot, lambda: isinstance(app.screen, LabScreen))
        lab = app.screen
        assert isinstance(lab, LabScreen)
        await read("lab")
        await app_pilot.press("2", "0", ",", "5", "enter")
        await settle(app_pilot, lambda: isinstance(app.screen, NotebookScreen) or lab.state in ("done", "failed"))
        await settle(app_pilot, lambda: isinstance(app.screen, NotebookScreen))
        await read("notebook")
        await app_pilot.press("escape")
        await settle(app_pilot, lambda: app.screen is lab)
        await read("lab measured")

        app.action_open_progress()
        await settle(app_pilot, lambda: isinstance(app.screen, ProgressScreen))
        await read("progress")
        await app_pilot.press("escape")

        doctor = DoctorScreen(app.session, runner=old_torch_runner(tmp_path / "lock.json"))
        app.push_screen(doctor)
        await settle(app_pilot, lambda: doctor.report is not None)
        await read("doctor")

        await app_pilot.press("ctrl+p")
        await settle(app_pilot)
        await read("palette")
        await app_pilot.press("a")
        await read("palette searching")
        await app_pilot.press("escape")
        await settle(app_pilot, lambda: app.screen is doctor)
        await app_pilot.press("escape")
        await settle(app_pilot, lambda: app.screen is not doctor)

        await app_pilot.press("f1")
        await settle(app_pilot, lambda: isinstance(app.screen, HelpScreen))
        await read("help")
        await app_pilot.press("escape")

        # The toggle: the footer's keys and the screen's words change language at once, on the screen shown.
        await settle(app_pilot, lambda: app.screen is lab)
        await app_pilot.press("escape")
        await settle(app_pilot, lambda: app.screen.id == "lesson-t-l1")
        before = shown(app)
        await app_pilot.press("f2")
        await settle(app_pilot, lambda: app.lang == "en")
        after = shown(app)

    assert len(seen) == 14, sorted(seen)  # every screen was read (the attempts view since issue 30)
    found = {name: words for name, words in seen.items() if words}
    assert not found, "\n".join(f"{name}: {w}" for name, words in found.items() for w in words)
    # The toggle, live on the lesson: the footer's keys and the lesson's own words change language.
    footer_es, footer_en = before.splitlines()[-1], after.splitlines()[-1]
    assert "Volver" in footer_es and "Siguiente" in footer_es and "paleta" in footer_es, footer_es
    assert "Back" in footer_en and "Next" in footer_en and "palette" in footer_en, footer_en
    assert "Volver" not in footer_en and "paleta" not in footer_en
    assert not leaks(before) and leaks(after)  # English on screen only once English is chosen
    pending = {name: words for name, words in core.items() if words}
    if pending:
        pytest.xfail("core-rendered text still leaks (voice2's part of issue 13): "
                     + "; ".join(f"{name}: {words[0]}" for name, words in pending.items()))


class TinyRoofWorker(MeasureWorker):
    """The real measurement process, with the roofline measured at the tests' tiny sizes (seconds, not a minute)."""

    def run(self, request: dict[str, Any], **kw: Any) -> dict[str, Any]:
        return super().run({**request, "roofline_mode": "tiny"}, **kw)


async def test_a_real_measurement_reports_its_progress_in_spanish(tmp_path: Path) -> None:
    """A real measurement in the measurement process (the roofline first, this data dir has none, then the copy):
    every progress line the exercise screen shows is the engine's code said in Spanish, with the percentage in
    Spanish, and no English word."""
    app: TutorApp = make_app(course=load_course(FIXTURES / "exercise_course"),
                             store=ProgressStore(tmp_path / "p.sqlite3"), lang="es", telemetry=None,
                             measure_worker=TinyRoofWorker())
    lines: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        app.post_message(OpenExercise("t-copy-bound"))
        await settle(pilot, lambda: isinstance(app.screen, ExerciseScreen))
        exercise = app.screen
        assert isinstance(exercise, ExerciseScreen)
        shows = exercise.attempt.panel.say

        def status(text: str, error: bool = False) -> None:  # what the status line is given, as it is given
            lines.append(text)
            shows(text, error)

        exercise.attempt.panel.say = status  # type: ignore[method-assign]
        exercise.query_one("#choice-memory").value = True  # type: ignore[attr-defined]
        exercise.query_one("#ex-confidence", Input).value = "70"
        await pilot.press("ctrl+l")
        await pilot.press("ctrl+r")
        await settle(pilot, lambda: exercise.state in ("revealed", "failed"), timeout=120)
        assert exercise.state == "revealed", lines
    running = [line for line in lines if line.startswith("Midiendo en")]
    assert running, lines
    said_lines = "\n".join(running)
    assert re.search(r"\d+\s% · (techo de roofline: |copy: )", said_lines), said_lines
    assert any(phrase in said_lines for phrase in ("ancho de banda: copy sobre arrays de", "pico de matmul",
                                                   "preparando entradas", "midiendo tiempos", "copy: hecho"))
    assert not leaks(said_lines), "\n".join(leaks(said_lines))
    for english in ("roofline: bandwidth", "preparing", "timing", "done", "arrays of", " on ", "measuring…"):
        assert english not in said_lines
