"""The charts and the command palette speak the learner's language: legends, axes, tick labels and the palette's
entries and search field in Spanish (decimal comma, no English word), and they follow the language toggle live."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from textual.app import App, ComposeResult

from tutor.content import load_course
from tutor.progress import ProgressStore
from tutor.results import Datasheet, RooflineReference
from tutor.ui.app import TutorApp, make_app
from tutor.ui.widgets.lab_plot import LabPlot
from tutor.ui.widgets.roofline_chart import RooflineChart, RooflinePoint

FIXTURES = Path(__file__).parent / "fixtures"

ENGLISH = re.compile(
    r"\b(?:the|Open:|measured|drawn at|ridge|Press|Cancel|Measure|Lesson|Back|Quit|Help|Search|your|roof measured|"
    r"load|Keys|Theme|Screenshot|Maximize|Minimize|arithmetic intensity|working set|prediction|palette|Save|"
    r"Export|Next|Hint|Lock|Telemetry|Close|extrapolated|ago|just now|No matches|datasheet|waiting|busy)\b")
"""English words a Spanish screen must not show (the chrome that used to leak: legends, palette, keys, notices)."""
DOT_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")


def leaks(text: str) -> list[str]:
    """The English words and dot decimals in ``text``, each with the line it is on."""
    found = []
    for line in text.splitlines():
        found += [f"{m.group()!r} in {line.strip()!r}" for m in ENGLISH.finditer(line)]
        found += [f"{m.group()!r} in {line.strip()!r}" for m in DOT_DECIMAL.finditer(line)]
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
        await pilot.pause(0.3)
        opened = shown(app)
        await pilot.press("a")
        await pilot.pause(0.5)
        searching = shown(app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        footer_en = shown(app).splitlines()[-1]
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        english = shown(app)
    for text in (opened, searching, footer):
        assert not leaks(text), "\n".join(leaks(text))
    assert "Busca una orden…" in opened and "Abrir: L1" in opened and "Lección n0-l1" in opened
    assert "Salir" in opened and "Idioma: español / English" in opened
    assert "Abrir: L1" in searching
    assert "paleta" in footer and "palette" in footer_en
    assert "Search for commands…" in english and "Open: L1" in english and "Quit" in english
