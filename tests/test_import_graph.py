"""The import graph of ``tutor/`` has no cycle (issue 29): arrows point down only.

Drawn from the source with ``ast``: every module under ``tutor/``, every ``import`` and ``from … import`` at any
depth (module level, inside functions, under ``if TYPE_CHECKING:``) — a lazy or type-only import is still an arrow
a maintainer has to follow. ``from a.b import c`` is an arrow to ``a.b.c`` when that is a module, else to ``a.b``.
"""

from __future__ import annotations

import ast
import itertools
from functools import cache
from pathlib import Path

import tutor

ROOT = Path(tutor.__file__).resolve().parent

KNOWN_BACK_ARROWS: set[tuple[str, str]] = set()  # both of issue 29 item 3 removed (ec01390)
"""Back arrows known and being removed (issue 29 item 3): each (importer, imported) here is left out of the graphs
so that every other cycle is still caught. It must end empty."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The module of ``tutor`` that ``name`` (a module, or a name inside one) is, or None outside ``tutor``."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str, known: dict[str, Path]) -> set[str]:
    """The ``tutor`` modules ``module`` imports, anywhere in its source."""
    path = known[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            names = [f"{source}.{alias.name}" for alias in node.names] + [source]
        for name in names:
            target = _resolve(name, known)
            if target is not None and target != module:
                found.add(target)
    return found


@cache
def graph() -> dict[str, frozenset[str]]:
    known = modules()
    return {m: frozenset(t for t in imports_of(m, known) if (m, t) not in KNOWN_BACK_ARROWS) for m in known}


def _ancestors(module: str) -> set[str]:
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def find_cycle(edges: dict[str, frozenset[str]]) -> list[str] | None:
    """One cycle of ``edges`` (as the list of modules, first repeated last), or None.

    A package's ``__init__`` is loaded before any module inside it, so an arrow from a module to a package that
    contains it is not followed (``tutor.practice.runner`` importing ``tutor.practice`` is only the package's
    ``__init__``, which is checked as its own module)."""
    white, grey, black = 0, 1, 2
    colour = dict.fromkeys(edges, white)
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = grey
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt in _ancestors(node):
                continue
            if colour.get(nxt) == grey:
                return [*stack[stack.index(nxt):], nxt]
            if colour.get(nxt) == white:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        colour[node] = black
        return None

    for start in sorted(edges):
        if colour[start] == white:
            found = visit(start)
            if found:
                return found
    return None


def test_the_walk_sees_the_rooms_and_their_arrows() -> None:
    g = graph()
    assert {"tutor.ui.app", "tutor.practice.session", "tutor.measure.plan", "tutor.grading"} <= set(g)
    assert "tutor.practice.session" in g["tutor.ui.app"]
    # an import inside a function counts
    assert "tutor.ui.screens.exercise" in g["tutor.ui.app"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    edges = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset()}
    assert find_cycle(edges) == ["a", "b", "c", "a"]
    assert find_cycle({"a": frozenset({"b"}), "b": frozenset()}) is None


def test_the_import_graph_of_tutor_has_no_cycle() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def room_of(module: str) -> str:
    """The room a module lives in: ``tutor.ui.screens.lab`` is in ``tutor.ui``; ``tutor.cli`` is its own."""
    return ".".join(module.split(".")[:2])


def test_the_rooms_have_no_cycle() -> None:
    """Rooms (``tutor.content``, ``tutor.grading``, ...) import each other one way only: a module-level walk misses
    a room cycle whose two arrows leave from different modules."""
    rooms: dict[str, set[str]] = {}
    for module, targets in graph().items():
        rooms.setdefault(room_of(module), set()).update(
            room_of(t) for t in targets if room_of(t) != room_of(module))
    cycle = find_cycle({r: frozenset(ts) for r, ts in rooms.items()})
    if cycle is not None:
        arrows = []
        for a, b in itertools.pairwise(cycle):
            through = sorted(f"{m}->{t}" for m, ts in graph().items() if room_of(m) == a for t in ts if room_of(t) == b)
            arrows.append(f"{a} -> {b} ({', '.join(through)})")
        raise AssertionError("room cycle: " + "; ".join(arrows))


def test_the_known_back_arrows_still_exist() -> None:
    """A back arrow removed from the code is removed from the list too (so the list can only shrink to empty)."""
    known = modules()
    gone = {(a, b) for a, b in KNOWN_BACK_ARROWS if a not in known or b not in imports_of(a, known)}
    assert not gone, f"remove from KNOWN_BACK_ARROWS: {sorted(gone)}"
