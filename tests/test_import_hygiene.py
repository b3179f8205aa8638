"""The rooms have doors: the core never imports Textual, and the UI never imports torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CORE = ["tutor.theory", "tutor.practice", "tutor.content", "tutor.progress", "tutor.grading", "tutor.telemetry",
        "tutor.measure", "tutor.doctor",
        "tutor.paths", "tutor.i18n", "tutor.cli"]


def modules_after_import(*names: str) -> set[str]:
    code = "import sys\n" + "".join(f"import {n}\n" for n in names) + "print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize("package", CORE)
def test_core_packages_do_not_import_textual(package: str) -> None:
    loaded = modules_after_import(package)
    assert "textual" not in loaded, f"{package} imports textual"
    assert "torch" not in loaded, f"{package} imports torch at import time"


def test_the_ui_does_not_import_torch() -> None:
    loaded = modules_after_import("tutor.ui.app")
    assert "textual" in loaded
    assert "torch" not in loaded


def test_the_cli_help_builds_without_heavy_imports() -> None:
    code = (
        "import sys\nfrom tutor.cli import build_parser\nbuild_parser()\n"
        "print('torch' in sys.modules, 'textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["False", "False"]


# -- the import graph drawn from the code (every module, imports at any depth of a function) ----------------------

def _all_modules() -> dict[str, set[str]]:
    """Every module of ``tutor`` (found by walking the package) and the ``tutor``/third-party modules it imports."""
    import ast
    import importlib.util
    import pkgutil

    import tutor

    graph: dict[str, set[str]] = {}
    for info in pkgutil.walk_packages(tutor.__path__, "tutor."):
        spec = importlib.util.find_spec(info.name)
        assert spec is not None and spec.origin is not None
        tree = ast.parse(open(spec.origin, encoding="utf-8").read(), spec.origin)  # noqa: SIM115
        imported: set[str] = set()
        package = info.name if info.ispkg else info.name.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    imported.add(f"{base}.{node.module}" if node.module else base)
                elif node.module:
                    imported.add(node.module)
                    imported.update(f"{node.module}.{alias.name}" for alias in node.names)
        graph[info.name] = imported
    return graph


GRAPH = _all_modules()


def _imports(module: str, prefix: str) -> list[str]:
    return sorted(m for m in GRAPH[module] if m == prefix or m.startswith(prefix + "."))


def test_the_walk_finds_every_room() -> None:
    rooms = {m.split(".")[1] for m in GRAPH if m.count(".") >= 1}
    assert {"theory", "content", "grading", "practice", "progress", "measure", "commands", "ui"} <= rooms


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if not m.startswith(("tutor.ui", "tutor.commands"))
                                          and m != "tutor.cli"))
def test_the_core_imports_neither_textual_nor_rich(module: str) -> None:
    assert not _imports(module, "textual") and not _imports(module, "rich"), module


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("tutor.ui")))
def test_the_ui_never_imports_torch(module: str) -> None:
    assert not _imports(module, "torch"), module


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith(("tutor.grading", "tutor.theory"))))
def test_grading_and_theory_never_reach_the_measurement_engine(module: str) -> None:
    assert not _imports(module, "tutor.measure"), module
    assert not _imports(module, "torch"), module


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("tutor.theory")))
def test_theory_is_pure(module: str) -> None:
    # the theory reads the typed results (a leaf room, below) and nothing else of the tutor
    inside = {m for m in GRAPH[module] if m.startswith("tutor.")}
    assert all(m.startswith(("tutor.theory", "tutor.results")) for m in inside), (module, inside)


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("tutor.results")))
def test_the_typed_results_are_a_leaf(module: str) -> None:
    """Results import nothing of the tutor but each other and the catalog's message type (a value that imports no
    module of the tutor at load time): a result's complaint is a catalog message, said in the reader's language."""
    inside = {m for m in GRAPH[module] if m.startswith("tutor.")}
    assert all(m.startswith(("tutor.results", "tutor.i18n.message")) for m in inside), (module, inside)
    assert all(m.startswith("tutor.i18n") for m in GRAPH["tutor.i18n.message"] if m.startswith("tutor."))
    for heavy in ("torch", "textual", "rich"):
        assert not _imports(module, heavy), (module, heavy)


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("tutor.commands")))
def test_commands_do_not_import_the_cli_back(module: str) -> None:
    assert not _imports(module, "tutor.cli"), module


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("tutor.ui.screens")))
def test_no_screen_imports_the_app(module: str) -> None:
    """A screen is given the session; it never reaches back into ``tutor.ui.app`` (not even for a type)."""
    assert not _imports(module, "tutor.ui.app"), module


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("tutor.ui.")))
def test_the_ui_asks_the_session_for_the_store(module: str) -> None:
    """No ``self.app.store`` (or ``.app.measure_worker``) in the UI: the store and the runners are the session's."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    source = Path(spec.origin).read_text(encoding="utf-8")
    for reach in ("app.store", "app.measure_worker", "app.doctor_runner"):
        assert reach not in source, (module, reach)


def test_importing_grading_loads_no_measurement_module() -> None:
    loaded = modules_after_import("tutor.grading", "tutor.grading.truth", "tutor.theory.formulas")
    assert not {m for m in loaded if m.startswith("tutor.measure")}


# -- torch stays out of the UI process while a learner uses the doctor, an exercise and a lab ------------------------

PILOT_SESSION = r'''
import asyncio, json, sys, time
from pathlib import Path
from textual.widgets import Input
from tutor.content import load_course
from tutor.progress import ProgressStore
from tutor.ui.app import make_app
from tutor.ui.messages import OpenExercise, OpenLab

exercises, labs, tmp = (Path(a) for a in sys.argv[1:4])
seen = {}


async def until(pilot, cond, timeout=150.0):
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:
        await pilot.pause(0.1)
    return cond()


async def doctor_and_exercise():
    app = make_app(course=load_course(exercises), store=ProgressStore(tmp / "p.sqlite3"), lang="en",
                   telemetry="host")
    async with app.run_test(size=(160, 60)) as pilot:
        await pilot.pause()
        app.action_open_doctor()
        await until(pilot, lambda: app.screen.id == "doctor" and app.screen.report is not None)
        seen["doctor"] = [app.screen.report is not None, "torch" in sys.modules]
        await pilot.press("escape")
        app.post_message(OpenExercise("t-copy-gbs"))
        await until(pilot, lambda: (app.screen.id or "").startswith("exercise-"))
        screen = app.screen
        screen.query_one("#ex-number", Input).value = "20"
        await pilot.press("ctrl+l", "ctrl+r")
        await until(pilot, lambda: screen.state == "revealed")
        measured = screen.outcome.measurement if screen.outcome else None
        device = measured.device if measured is not None else None
        seen["exercise"] = [device is not None and device.kind == "cpu", "torch" in sys.modules]
        await pilot.pause()
        app.stop_everything()


async def lab():
    app = make_app(course=load_course(labs), store=ProgressStore(tmp / "q.sqlite3"), lang="en", telemetry="host")
    async with app.run_test(size=(160, 48)) as pilot:
        app.post_message(OpenLab("lab-l1", "lab-gemm"))
        await until(pilot, lambda: (app.screen.id or "").startswith("lab-"))
        screen = app.screen
        await pilot.press("5", "enter")
        await until(pilot, lambda: screen.state != "running")
        seen["lab"] = [screen.state == "done" and len(app.store.lab_runs()) == 1, "torch" in sys.modules]
        await until(pilot, lambda: app.screen.id == "notebook")  # the run's entry, filed and opened
        await pilot.pause()
        app.stop_everything()

asyncio.run(doctor_and_exercise())
asyncio.run(lab())
print(json.dumps(seen))
'''


def test_torch_stays_out_of_the_ui_process_through_the_doctor_an_exercise_and_a_lab(tmp_path: Path) -> None:
    """A Pilot session in a fresh process: the real doctor (in its child), an exercise measured through the
    measurement worker process, and a lab's sweep; each worked, and the UI process never imported torch."""
    from tests.support.cli import ROOF
    from tests.support.lab import write_lab_course
    from tutor import paths
    from tutor.measure.device import device_info
    from tutor.measure.roofline_model import store_roofline

    # The roofline on file, as after a learner's first measurement (measuring it takes a minute).
    store_roofline(str(device_info("cpu")["fingerprint"]), ROOF, paths.roofline_cache())
    labs = write_lab_course(tmp_path / "labs")
    exercises = Path(__file__).parent / "fixtures" / "exercise_course"
    out = subprocess.run([sys.executable, "-c", PILOT_SESSION, str(exercises), str(labs), str(tmp_path)],
                         capture_output=True, text=True, timeout=400)
    assert out.returncode == 0, out.stderr[-3000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen == {"doctor": [True, False], "exercise": [True, False], "lab": [True, False]}, out.stderr[-3000:]
