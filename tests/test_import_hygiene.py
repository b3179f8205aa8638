"""The rooms have doors: the core never imports Textual, and the UI never imports torch."""

from __future__ import annotations

import subprocess
import sys

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
    inside = {m for m in GRAPH[module] if m.startswith("tutor.")}
    assert all(m.startswith("tutor.theory") for m in inside), (module, inside)


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("tutor.commands")))
def test_commands_do_not_import_the_cli_back(module: str) -> None:
    assert not _imports(module, "tutor.cli"), module


def test_importing_grading_loads_no_measurement_module() -> None:
    loaded = modules_after_import("tutor.grading", "tutor.grading.truth", "tutor.theory.formulas")
    assert not {m for m in loaded if m.startswith("tutor.measure")}
