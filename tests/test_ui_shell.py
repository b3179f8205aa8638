"""The TUI shell driven as a learner would: the map, a lesson, the language toggle, a flagged file."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Markdown, OptionList, Tree

from tests.support.pilot import wait_for
from tests.support.shell import build_app
from tutor.progress import ProgressStore
from tutor.ui.messages import ProgressChanged

SIZE = (150, 44)


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
        assert "⚠ broken.yaml" in names  # the invalid file is flagged, the rest works
        # A lesson's sections and exercises are drawn when it is expanded (a big course draws at once).
        assert "○○ ¿Copia: memoria o cómputo?" not in names
        tree = app.screen.query_one(Tree)
        tree.move_cursor(next(n for n in _nodes(tree) if str(n.label.plain) == "○ L1 — El roofline"))
        await pilot.press("space")
        await pilot.pause()
        names = labels(tree)
        assert "○○ ¿Copia: memoria o cómputo?" in names and "· Ancho de banda" in names


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
        # a section that fits on the screen is read once it is shown
        await wait_for(pilot, lambda: ("demo-l1", "bandwidth") in app.store.sections_read())
        await pilot.press("n")
        await pilot.pause()
        assert "Pico de FLOP/s dividido entre el ancho de banda pico." in text.source
        await wait_for(pilot, lambda: ("demo-l1", "ridge") in app.store.sections_read())
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.id == "course-map"
        names = labels(app.screen.query_one(Tree))
        assert "✓ Ancho de banda" in names and "✓ El punto de inflexión" in names
        assert "◐ L1 — El roofline" in names
    assert app.store.sections_read() == {("demo-l1", "bandwidth"), ("demo-l1", "ridge")}


async def test_a_long_section_counts_as_read_only_once_scrolled_to_its_end(tmp_path: Path) -> None:
    """Opening a section is not reading it (issue 30): at 80x24 the bundled L1's first section runs past the screen,
    and it is marked read when the learner reaches its end, not before."""
    from tests.support.pilot import quiet
    from tutor.content import load_course
    from tutor.paths import bundled_course
    from tutor.ui.app import make_app
    from tutor.ui.messages import OpenLesson

    store = ProgressStore(tmp_path / "p.sqlite3")
    app = make_app(course=load_course(bundled_course()), store=store, lang="es", telemetry=None)
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(OpenLesson("n0-l1"))
        await wait_for(pilot, lambda: app.screen.id == "lesson-n0-l1")
        main = app.screen.query_one("#lesson-main")
        await wait_for(pilot, lambda: main.max_scroll_y > 0)
        await quiet(pilot)
        assert store.sections_read() == set()  # shown, not yet read
        main.focus()
        await pilot.press("end")
        await wait_for(pilot, lambda: len(store.sections_read()) == 1)
        (lesson, _section), = store.sections_read()
        assert lesson == "n0-l1"


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


def _graded(store: ProgressStore, pass_number: int, score: float, verdict: str) -> int:
    attempt = store.lock_prediction(exercise_id="demo-l1-copy", lesson_id="demo-l1", prediction={"choice": "memory"},
                                    confidence=0.8, pass_number=pass_number)
    store.record_grade(attempt, measurement={"device": {"kind": "cpu"}}, truth={}, verdict=verdict, score=score)
    return attempt


async def test_second_pass_opens_only_after_the_first(tmp_path: Path) -> None:
    app = build_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tree = app.screen.query_one(Tree)
        lesson = next(n for n in _nodes(tree) if str(n.label.plain) == "○ L1 — El roofline")
        lesson.expand()
        await pilot.pause()
        exercise = next(n for n in _nodes(tree) if str(n.label.plain) == "○○ ¿Copia: memoria o cómputo?")
        tree.move_cursor(exercise)
        await pilot.press("2")
        await pilot.pause()
        assert app.screen.id == "course-map"  # pass 1 not attempted yet: pass 2 stays closed
        assert any("pasada 2 se abre" in str(n.message) for n in app._notifications)
        _graded(app.store, 1, 0.4, "wrong")
        await pilot.press("2")
        await pilot.pause()
        screen = app.screen
        assert type(screen).__name__ == "ExerciseScreen"
        assert screen.pass_number == 2  # type: ignore[attr-defined]
        assert not screen.query_one("#ex-hint-button").display  # no hints in pass 2


async def test_the_map_lesson_and_progress_show_both_passes(tmp_path: Path) -> None:
    app = build_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tree = app.screen.query_one(Tree)
        next(n for n in _nodes(tree) if str(n.label.plain) == "○ L1 — El roofline").expand()
        _graded(app.store, 1, 1.0, "correct")
        app.post_message(ProgressChanged())
        # pass 1 passed, pass 2 not done
        await wait_for(pilot, lambda: "✓○ ¿Copia: memoria o cómputo?" in labels(app.screen.query_one(Tree)))
        _graded(app.store, 2, 1.0, "correct")
        app.post_message(ProgressChanged())
        await wait_for(pilot, lambda: "✓✓ ¿Copia: memoria o cómputo? · reproducido"
                       in labels(app.screen.query_one(Tree)))
        tree = app.screen.query_one(Tree)
        tree.select_node(next(n for n in _nodes(tree) if str(n.label.plain) == "◐ L1 — El roofline"))
        await wait_for(pilot, lambda: app.screen.id == "lesson-demo-l1" and bool(app.screen.query("#lesson-nav"))
                       and app.screen.query_one("#lesson-nav", OptionList).option_count > 0)
        nav = app.screen.query_one("#lesson-nav", OptionList)
        prompts = [str(nav.get_option_at_index(i).prompt) for i in range(nav.option_count)]
        assert "✓✓ ? ¿Copia: memoria o cómputo? · reproducido" in prompts
        app.action_open_progress()
        await wait_for(pilot, lambda: bool(app.screen.query("#progress-exercises")))
        await pilot.pause()
        table = app.screen.query_one("#progress-exercises", DataTable)
        row = table.get_row("ex:demo-l1-copy")
        assert [str(cell) for cell in row[:2]] == ["demo-l1-copy", "✓✓"] and str(row[4]) == "reproducido"
        lessons = app.screen.query_one("#progress-lessons", DataTable)
        assert lessons.get_row("demo-l1")[4:] == ["1/1", "1/1", "1/1"]

