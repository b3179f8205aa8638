"""Arrows only downwards: no room of ``tutor/`` imports a room above it.

The SPEC's Architecture says data flows one way, content -> practice asks measure for a result -> grading ->
progress, and that the UI and the headless commands both call practice. That is the order in which a use case
*runs*; the imports point the other way round, from the room that orchestrates to the rooms it calls. So, from the
bottom up (a room may import its own modules and any room on a lower layer; two rooms on one layer know nothing of
each other):

0. ``i18n``, ``paths`` and the package's own ``__init__`` — catalogs and file locations, imported by everyone;
1. ``untrusted`` — the one boundary for text from a pack, an import or a trace;
2. ``results`` (the typed results that cross rooms) and ``settings``;
3. ``theory`` — the course's pure formulas;
4. ``telemetry`` and ``measure`` — the device's counters and the timing harness (workload registry, plan, declared
   outputs), which know nothing of the course (the plan reads a ``MeasureCall`` by its fields, not its class);
5. ``content`` — the course's data: its checker validates each measure call against measure's plan and the figures
   each op declares, so it sits above measure;
6. ``grading`` (exercise, prediction, measurement -> verdict: reads content and results) and ``doctor`` (runs
   measure's probes);
7. ``progress`` — the store, C0, calibration: reads grading's verdicts and measure's device fingerprints;
8. ``practice`` — the use cases: an attempt, a lab run (content, measure, grading, progress together);
9. ``ui`` — Textual, calls practice;
10. ``commands`` — the headless verbs (``tutor`` alone opens the ui);
11. ``cli``, then ``__main__``.

Every ``import`` counts, at module level, inside a function (a lazy import is still an arrow), under
``TYPE_CHECKING``, or through ``importlib.import_module("tutor.…")`` with a literal name. A new room fails the test
until it is given a layer here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tutor

LAYERS: tuple[tuple[str, ...], ...] = (
    ("i18n", "paths", "tutor"),
    ("untrusted",),
    ("results", "settings"),
    ("theory",),
    ("telemetry", "measure"),
    ("content",),
    ("grading", "doctor"),
    ("progress",),
    ("practice",),
    ("ui",),
    ("commands",),
    ("cli",),
    ("__main__",),
)
LAYER_OF = {room: level for level, rooms in enumerate(LAYERS) for room in rooms}
TUTOR = Path(tutor.__file__).parent


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def room_of(module: str) -> str:
    """``tutor.measure.plan`` -> ``measure``; ``tutor.paths`` -> ``paths``; ``tutor`` -> ``tutor``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imported_modules(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module ``tree`` imports from its own package (absolute, or relative resolved against ``module``)."""
    found: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str) and _is_import_call(node.func)):
            found.add(node.args[0].value)
    return found


def _is_import_call(func: ast.expr) -> bool:
    """``importlib.import_module(...)``, ``import_module(...)`` or ``__import__(...)``."""
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in ("import_module", "__import__")


def arrows(root: Path) -> set[tuple[str, str, str, str]]:
    """(importing module, imported module, its room, the imported room) for every import between two rooms."""
    top = root.name
    out: set[tuple[str, str, str, str]] = set()
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for target in imported_modules(tree, module, path.name == "__init__.py"):
            if target != top and not target.startswith(top + "."):
                continue
            here, there = room_of(module), room_of(target)
            if here != there:
                out.add((module, target, here, there))
    return out


def back_arrows(root: Path) -> list[str]:
    """Each import that points up (or sideways, between two rooms of one layer), as ``module -> module (a -> b)``."""
    bad: list[str] = []
    for module, target, here, there in sorted(arrows(root)):
        if LAYER_OF[there] >= LAYER_OF[here]:
            bad.append(f"{module} -> {target} ({here} on layer {LAYER_OF[here]} -> {there} on {LAYER_OF[there]})")
    return bad


def test_every_room_has_a_layer() -> None:
    rooms = {room_of(module_name(path, TUTOR)) for path in TUTOR.rglob("*.py")}
    assert rooms - set(LAYER_OF) == set(), "give the new room a layer in LAYERS (and say why in the docstring)"


def test_no_room_imports_a_room_above_it() -> None:
    assert back_arrows(TUTOR) == []


def test_the_named_back_arrows_are_gone() -> None:
    """The two of issue 29: measure's plan sized DRAM requests with practice's sizing, and content's honesty check
    resolved truths with grading."""
    pairs = {(here, there) for _, _, here, there in arrows(TUTOR)}
    assert ("measure", "practice") not in pairs
    assert ("content", "grading") not in pairs


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f():\n    from tutor.practice.sizing import size_for_dram\n", True),  # lazy import still counts
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tutor.grading import truth\n", True),
        ("from ..practice import sizing\n", True),  # relative
        ("import tutor.ui.app\n", True),
        ("import importlib\nimportlib.import_module('tutor.practice.labs')\n", True),  # by name, still an arrow
        ("from tutor.theory import formulas\nfrom tutor.measure import registry\n", False),  # down, and its own room
        ("import torch\n", False),
    ],
)
def test_the_walk_sees_every_kind_of_import(tmp_path: Path, source: str, expected: bool) -> None:
    root = tmp_path / "tutor"
    (root / "measure").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "measure" / "__init__.py").write_text("")
    (root / "measure" / "plan.py").write_text(source)
    assert bool(back_arrows(root)) is expected
