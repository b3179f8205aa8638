"""The TUI shell driven as a learner would: the map, a lesson, the language toggle, a flagged file."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Markdown, Tree

from tutor.content import load_course
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp, make_app

FIXTURE = Path(__file__).parent / "fixtures" / "course"
SIZE = (150, 44)


def build_app(tmp_path: Path, lang: str = "es") -> TutorApp:
    course = load_course(FIXTURE, require_translations=True)
    store = ProgressStore(tmp_path / "progress.sqlite3")
    return make_app(course=course, store=store, lang=lang, telemetry="host")  # type: ignore[arg-type]


def labels(tree: Tree) -> list[str]:
    return [str(node.label.plain) for node in _nodes(tree)]


async def test_the_app_opens_on_the_course_map(tmp_path: Path) -> None:
    app = build_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.id == "course-map"
        names = labels(app.screen.query_one(Tree))
        assert "Nivel demo" in names
        assert "○ L1 — El roofline" in names
        assert "○ L2 — La memoria" in names
        assert "○ ¿Copia: memoria o cómputo?" in names
        assert "⚠ broken.yaml" in names  # the invalid file is flagged, the rest works


async def test_reading_a_lesson_marks_its_sections(tmp_path: Path) -> None:
    app = build_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tree = app.screen.query_one(Tree)
        tree.select_node(next(n for n in _nodes(tree) if str(n.label.plain) == "○ L1 — El roofline"))
        await pilot.pause()
        assert app.screen.id == "lesson-demo-l1"
        text = app.screen.query_one("#lesson-text", Markdown)
        assert "Mover datos cuesta más que operar con ellos." in text.source
        await pilot.press("n")
        await pilot.pause()
        assert "Pico de FLOP/s dividido entre el ancho de banda pico." in text.source
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.id == "course-map"
        names = labels(app.screen.query_one(Tree))
        assert "✓ Ancho de banda" in names and "✓ El punto de inflexión" in names
        assert "◐ L1 — El roofline" in names
    assert app.store.sections_read() == {("demo-l1", "bandwidth"), ("demo-l1", "ridge")}


async def test_language_toggle_switches_the_course_text(tmp_path: Path) -> None:
    app = build_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert app.lang == "en"
        names = labels(app.screen.query_one(Tree))
        assert "Demo level" in names and "○ L1 — The roofline" in names
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.screen.id == "lesson-demo-l1"
        assert "Moving data costs more" in app.screen.query_one("#lesson-text", Markdown).source


async def test_a_flagged_file_shows_its_error(tmp_path: Path) -> None:
    app = build_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tree = app.screen.query_one(Tree)
        node = next(n for n in _nodes(tree) if str(n.label.plain) == "⚠ broken.yaml")
        tree.move_cursor(node)
        await pilot.pause()
        detail = app.screen.query_one("#map-detail-text", Markdown).source
        assert "broken.yaml:6:1: error: YAML:" in detail


async def test_a_recovered_database_is_announced(tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    db.write_bytes(b"garbage" * 50)
    app = build_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert any("corrupt" in m or "dañada" in m for m in messages), messages


def _nodes(tree: Tree) -> list:
    out = []

    def walk(node) -> None:  # type: ignore[no-untyped-def]
        for child in node.children:
            out.append(child)
            walk(child)

    walk(tree.root)
    return out


async def test_second_pass_opens_the_exercise_without_hints(tmp_path: Path) -> None:
    app = build_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tree = app.screen.query_one(Tree)
        lesson = next(n for n in _nodes(tree) if str(n.label.plain) == "○ L1 — El roofline")
        lesson.expand()
        await pilot.pause()
        exercise = next(n for n in _nodes(tree) if str(n.label.plain) == "○ ¿Copia: memoria o cómputo?")
        tree.move_cursor(exercise)
        await pilot.press("2")
        await pilot.pause()
        screen = app.screen
        assert type(screen).__name__ == "ExerciseScreen"
        assert screen.pass_number == 2  # type: ignore[attr-defined]
