"""One keymap: the same key means the same thing on every screen, ? lists the keys of the screen in the current
language, the footer follows the language toggle, the palette reaches every screen, and the map keeps its state."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from textual.widgets import Tree

from tests.support.exercise import fake_measure
from tests.support.pilot import quiet
from tutor.content import load_course
from tutor.measure.phases import said
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp, make_app
from tutor.ui.keys import KEYMAP
from tutor.ui.messages import OpenExercise, OpenLesson
from tutor.ui.screens.code import CodeScreen
from tutor.ui.screens.course_map import CourseMapScreen
from tutor.ui.screens.doctor import DoctorScreen
from tutor.ui.screens.exercise import ExerciseScreen, next_pending_exercise
from tutor.ui.screens.help import HelpScreen
from tutor.ui.screens.lab import LabScreen
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.screens.notebook import NotebookScreen
from tutor.ui.screens.progress import ProgressScreen

FIXTURES = Path(__file__).parent / "fixtures"


def app_for(tmp_path: Path, course: str = "exercise_course", lang: str = "en") -> TutorApp:
    return make_app(course=load_course(FIXTURES / course), store=ProgressStore(tmp_path / "p.sqlite3"),
                    lang=lang, telemetry="host")  # type: ignore[arg-type]


async def until(pilot: Any, cond: Any, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:
        await pilot.pause(0.05)
    assert cond()


def keys_of(screen_class: type) -> dict[str, str]:
    """binding id → keys, for a screen class."""
    return {b.id: b.key for b in screen_class.BINDINGS if b.id}  # type: ignore[attr-defined]


def test_the_same_key_means_the_same_thing_on_every_screen() -> None:
    screens = [CourseMapScreen, LessonScreen, ExerciseScreen, LabScreen, ProgressScreen, DoctorScreen, NotebookScreen]
    meaning: dict[str, str] = {}
    for screen in screens:
        for b in screen.BINDINGS:  # type: ignore[attr-defined]
            assert b.id in KEYMAP, f"{screen.__name__} binds {b.key} outside the keymap"
            for key in b.key.split(","):
                assert meaning.setdefault(key, b.id) == b.id, f"{key} means {meaning[key]} and {b.id}"
    assert keys_of(ExerciseScreen)["telemetry"] == keys_of(LabScreen)["telemetry"] == keys_of(LessonScreen)[
        "telemetry"] == "ctrl+t"
    assert keys_of(ExerciseScreen)["run"] == keys_of(LabScreen)["run"] == keys_of(DoctorScreen)["run"] == "ctrl+r"
    assert "r" not in meaning  # reset and run no longer share a letter


async def test_help_lists_the_keys_of_the_screen_in_the_current_language(tmp_path: Path) -> None:
    app = app_for(tmp_path, lang="es")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = ExerciseScreen(app.session, app.course.exercises["t-copy-bound"], measure=fake_measure)
        app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen)
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = "\n".join(f"{keys} {what}" for keys, what, _ in app.screen.rows)  # type: ignore[attr-defined]
        for word in ("Bloquear", "Medir", "Pista", "Telemetría", "Volver", "Ayuda"):
            assert word in text, word
        assert "^l" in text or "ctrl+l" in text.lower()
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)

        # the language toggle rewords the footer at once
        def descriptions() -> dict[str, str]:
            return {b.id: b.description for items in screen._bindings.key_to_bindings.values() for b in items}

        await pilot.press("f2")
        await until(pilot, lambda: descriptions()["lock"] == "Lock")
        assert descriptions()["lock"] == "Lock" and descriptions()["hint"] == "Hint"
        app.lang = "es"
        await until(pilot, lambda: descriptions()["lock"] == "Bloquear")


async def test_a_diagnose_exercise_says_reveal_in_the_footer_and_on_the_button(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        diag = next(e for e in app.course.exercises.values() if e.measure is None)
        app.post_message(OpenExercise(diag.id))
        await until(pilot, lambda: isinstance(app.screen, ExerciseScreen))
        screen = app.screen
        descriptions = {b.id: b.description for items in screen._bindings.key_to_bindings.values() for b in items}
        assert descriptions["run"] == "Reveal"
        assert str(screen.query_one("#ex-measure").label) == "Reveal"  # type: ignore[attr-defined]


async def test_next_pending_exercise_from_the_reveal(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        first = next(iter(e.id for lesson in app.course.ordered_lessons() for e in app.course.exercises_of(lesson)))
        expected = next_pending_exercise(app.course, app.marks, first)
        assert expected is not None and expected != first
        screen = ExerciseScreen(app.session, app.course.exercises["t-copy-bound"], measure=fake_measure)
        app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen)
        await pilot.press("ctrl+n")  # before the reveal: nothing
        assert app.screen is screen
        await pilot.press("down", "enter", "ctrl+l", "ctrl+r")
        await until(pilot, lambda: screen.state == "revealed")
        assert screen.query_one("#ex-next").display
        following = next_pending_exercise(app.course, app.marks, "t-copy-bound")
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, ExerciseScreen) and app.screen is not screen)
        assert app.screen.exercise.id == following  # type: ignore[attr-defined]


async def test_view_code_shows_the_timed_function(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = ExerciseScreen(app.session, app.course.exercises["t-copy-bound"], measure=fake_measure)
        app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen)
        await pilot.press("f3")
        await until(pilot, lambda: isinstance(app.screen, CodeScreen))
        source = app.screen.markdown  # type: ignore[attr-defined]
        assert "def _copy(" in source and "b.copy_(a)" in source and "def time_callable(" in source
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)


async def test_palette_commands_reach_every_screen(tmp_path: Path) -> None:
    app = app_for(tmp_path, lang="es")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for title in ("Progreso", "Cuaderno de laboratorio", "Doctor: diagnóstico del entorno", "Mapa del curso"):
            assert title in titles
        assert "Abrir" in titles and "2.ª pasada" in titles  # the map's own actions, in the keymap's words
        progress = next(c for c in app.get_system_commands(app.screen) if c.title == "Progreso")
        app.call_later(progress.callback)
        await until(pilot, lambda: isinstance(app.screen, ProgressScreen))


async def test_the_map_keeps_its_tree_and_cursor_when_progress_changes(tmp_path: Path) -> None:
    app = app_for(tmp_path, course="course")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        tree: Tree[Any] = app.screen.query_one(Tree)
        lesson_node = next(n for n in tree.root.children[0].children if n.data.kind == "lesson")
        lesson_node.expand()
        await pilot.pause()
        exercise_line = next(line for line in range(tree.last_line + 1)
                             if (node := tree.get_node_at_line(line)) is not None and node.data.kind == "exercise")
        tree.cursor_line = exercise_line
        entry = tree.cursor_node.data  # type: ignore[union-attr]
        app.post_message(OpenLesson(entry.lesson_id))  # reading a section changes progress
        await until(pilot, lambda: isinstance(app.screen, LessonScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, CourseMapScreen))
        await quiet(pilot)  # the map has put its cursor and focus back
        tree = app.screen.query_one(Tree)
        lesson_node = next(n for n in tree.root.children[0].children if n.data.kind == "lesson")
        assert lesson_node.is_expanded
        assert tree.cursor_node is not None and tree.cursor_node.data == entry
        assert app.focused is tree


#: What the engine says while it measures the roofline before a workload.
ROOFLINE_STEP = said("measure.progress.roofline", step=said("measure.progress.bandwidth", kernel="copy", mib=256))


def test_the_first_roofline_measurement_says_what_it_measures() -> None:
    from tutor.ui.screens.exercise import roofline_note

    note = roofline_note(ROOFLINE_STEP, "es")
    assert note is not None and "roofline" in note and "minuto" in note
    assert roofline_note(said("measure.progress.timing", workload="copy"), "en") is None


def _roofline_then_wait(request: dict[str, Any], on_progress: Any, cancel: Any) -> dict[str, Any]:
    from tutor.measure.errors import MeasureCancelled

    on_progress(0.1, ROOFLINE_STEP)
    end = time.monotonic() + 10
    while time.monotonic() < end and not (cancel is not None and cancel.is_set()):
        time.sleep(0.02)
    raise MeasureCancelled("cancelled")


async def test_the_exercise_says_why_the_first_measurement_takes_a_minute(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = ExerciseScreen(app.session, app.course.exercises["t-copy-bound"], measure=_roofline_then_wait)
        app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen)
        await pilot.press("down", "enter", "ctrl+l", "ctrl+r")
        await until(pilot, lambda: "about a minute" in str(screen.query_one("#ex-status").render()))
        await pilot.press("escape")
        await until(pilot, lambda: screen.state != "running")


async def test_a_cancelled_lab_keeps_its_prediction_locked(tmp_path: Path) -> None:
    from tests.support.lab import COURSE, LESSON, CancellingWorker
    from tutor.ui.messages import OpenLab

    root = tmp_path / "course"
    (root / "lessons").mkdir(parents=True)
    (root / "exercises").mkdir()
    (root / "course.yaml").write_text(COURSE, encoding="utf-8")
    (root / "lessons" / "lab-l1.yaml").write_text(LESSON, encoding="utf-8")
    app = make_app(course=load_course(root), store=ProgressStore(tmp_path / "p.sqlite3"), lang="es",
                   telemetry="host")
    app.session.measure_worker = CancellingWorker()
    async with app.run_test(size=(120, 40)) as pilot:
        app.post_message(OpenLab("lab-l1", "lab-gemm"))
        await until(pilot, lambda: isinstance(app.screen, LabScreen))
        screen = app.screen
        await pilot.press("1", "5", "0", ",", "5", "enter")  # a decimal comma in Spanish
        await until(pilot, lambda: screen.state == "cancelled")  # type: ignore[attr-defined]
        assert screen.prediction.value == 150.5  # type: ignore[attr-defined]
        assert not screen.query_one("#lab-predict").display
        status = str(screen.query_one("#lab-status").render())
        assert "ctrl+r" in status and "Error" not in status
