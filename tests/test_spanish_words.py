"""A scan of the screens in Spanish for words from the catalog's English side (issue 30 item 5).

The word list is not written by hand: it is every word of the English catalog's values that no Spanish value uses,
less a short allow-list of technical terms both languages write the same way. Each screen a learner reaches is
rendered in Spanish (the map, the help, an exercise's reveal, its attempts, the progress screen, every lab's
chart) and what the terminal shows may hold none of them."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.app import App

from tests.support.exercise import fake_measure
from tests.support.lab import PlotApp
from tests.support.pilot import quiet, wait_for
from tutor.content import load_course
from tutor.i18n import t
from tutor.i18n.catalog import messages
from tutor.progress import ProgressStore
from tutor.progress.rows import LabResult
from tutor.ui.app import TutorApp, make_app
from tutor.ui.screens.attempts import AttemptsScreen
from tutor.ui.screens.exercise import ExerciseScreen
from tutor.ui.screens.help import HelpScreen
from tutor.ui.screens.lab import plot_series_of
from tutor.ui.screens.progress import ProgressScreen
from tutor.ui.widgets.lab_plot import LabPlot

FIXTURES = Path(__file__).parent / "fixtures"
WORD = re.compile(r"[A-Za-zÀ-ÿ]{4,}")
#: Technical terms the Spanish course writes as English does (names of things, not sentences).
SHARED = frozenset({
    "bandwidth", "batch", "cache", "caches", "core", "cores", "cpus", "datasheet", "kernel", "kernels", "roofline",
    "stream", "copy", "triad", "softmax", "layernorm", "gemm", "gemv", "numpy", "python", "torch", "cuda", "driver",
    "float", "bfloat", "tokens", "token", "lock", "store", "host", "replay", "nvml", "psutil", "wheel", "notebook",
})


#: What is not a word of either language: placeholders, quoted code ('measured:', `--lang`), ids (n0-l4-gap-fixed).
NOT_WORDS = re.compile(r"\b\w+:\w+\b|\{[^}]*\}|'[^']*'|`[^`]*`|\b[a-z0-9]+(?:[-_][a-z0-9]+)+\b")


def _words(values: Any) -> set[str]:
    out: set[str] = set()
    for value in values:
        out |= {w.lower() for w in WORD.findall(NOT_WORDS.sub(" ", value))}
    return out


ENGLISH_ONLY = _words(messages("en").values()) - _words(messages("es").values()) - SHARED


def english_in(text: str) -> list[str]:
    """Each English-only word in ``text`` with its line."""
    return [f"{w!r} in {line.strip()!r}" for line in text.splitlines() for w in WORD.findall(NOT_WORDS.sub(" ", line))
            if w.lower() in ENGLISH_ONLY]


def shown(app: App[Any]) -> str:
    """Everything the terminal shows now, as text."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def test_the_word_list_is_the_catalogs_and_catches_english() -> None:
    assert {"measured", "extrapolated", "attempts", "working", "prediction"} <= ENGLISH_ONLY
    assert english_in("1 fila de attempts") and not english_in("1 intento medido en 3,42 GB/s")


def _app(tmp_path: Path) -> TutorApp:
    return make_app(course=load_course(FIXTURES / "exercise_course"), store=ProgressStore(tmp_path / "p.sqlite3"),
                    lang="es", telemetry=None)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_no_english_on_the_spanish_screens(size: tuple[int, int], tmp_path: Path) -> None:
    app = _app(tmp_path)
    seen: dict[str, str] = {}
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        seen["map"] = shown(app)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        seen["help"] = shown(app)
        await pilot.press("escape")
        screen = ExerciseScreen(app.session, app.course.exercises["t-copy-bound"], measure=fake_measure)
        app.push_screen(screen)
        await wait_for(pilot, lambda: app.screen is screen)
        seen["exercise"] = shown(app)
        await pilot.press("down", "enter", "ctrl+l", "ctrl+r")
        await wait_for(pilot, lambda: screen.state == "revealed")
        await pilot.pause()
        seen["reveal"] = shown(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, AttemptsScreen))
        await pilot.pause()
        seen["attempts"] = shown(app)
        await pilot.press("escape")
        app.action_open_progress()
        await wait_for(pilot, lambda: isinstance(app.screen, ProgressScreen) and bool(app.screen.query("#progress-c0")))
        await quiet(pilot)  # its workers done and its last paint in
        seen["progress"] = shown(app)
        await pilot.press("x")  # reset this exercise: the confirmation counts what it would delete
        await wait_for(pilot, lambda: not isinstance(app.screen, ProgressScreen))
        await pilot.pause()
        seen["reset"] = shown(app)
        await pilot.press("escape")
    found = {name: english_in(text) for name, text in seen.items()}
    assert not any(found.values()), "\n".join(f"{name}: {w}" for name, ws in found.items() for w in ws)


RECORDED = json.loads((FIXTURES / "results" / "lab_runs_recorded.json").read_text())["runs"]


@pytest.mark.parametrize("lab_id", sorted(RECORDED))
async def test_no_english_on_a_spanish_lab_chart(lab_id: str) -> None:
    result = LabResult.from_json(RECORDED[lab_id]["result"])
    kind = result.measurement.name if result.measurement is not None else ""
    plot = LabPlot(kind or "", title="", x_label=t(f"plot.axis.{kind}.x", "es"), y_label=t(f"plot.axis.{kind}.y", "es"),
                   lang="es")
    plot.set_series(plot_series_of(result, "es"))
    if result.device is not None and result.device.caches:
        plot.set_caches(dict(result.device.caches))
    roof = result.roofline or (result.measurement.roofline if result.measurement is not None else None)
    if roof is not None:
        plot.set_roofs(peak_bandwidth_gbs=roof.peak_bandwidth_gbs, peak_gflops=roof.peak_for("float32"),
                       label=t("lab.plot.roofline", "es"))
    plot.set_prediction(RECORDED[lab_id]["prediction"], RECORDED[lab_id]["unit"], t("lab.plot.prediction", "es"))
    app = PlotApp(plot)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        text = shown(app)
    assert not english_in(text), "\n".join(english_in(text))


@pytest.mark.parametrize("lab_id", sorted(RECORDED))
def test_no_english_in_a_spanish_lab_result(lab_id: str) -> None:
    """The result under each lab's chart (its table and notes), as the lab screen and the notebook show it."""
    from tutor.progress.notebook import summarise_result

    text = summarise_result(LabResult.from_json(RECORDED[lab_id]["result"]), "es")
    assert not english_in(text), "\n".join(english_in(text))
