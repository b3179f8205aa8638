"""The app starts where the learner was (issue 30 item 2): the lesson section being read, or the exercise at its
question, with the map beneath (Esc goes to the map); a place the course no longer has opens the map with a notice;
``tutor --map`` starts on the map."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.widgets import Markdown

from tests.support.pilot import quiet, wait_for
from tests.support.shell import FIXTURE
from tutor.content import load_course
from tutor.progress import ProgressStore
from tutor.progress.place import Place
from tutor.ui.app import TutorApp, make_app
from tutor.ui.course_source import CourseSource
from tutor.ui.messages import OpenExercise, OpenLesson

SIZE = (80, 24)


def _app(store_path: Path, course: Path = FIXTURE, *, lang: str = "es", resume: bool = True,
         progressive: bool = False) -> TutorApp:
    source = CourseSource.scan(course) if progressive else load_course(course)
    return make_app(course=source, store=ProgressStore(store_path), lang=lang,  # type: ignore[arg-type]
                    telemetry=None, resume=resume)


async def _quit(pilot: object, app: TutorApp) -> None:
    await pilot.press("ctrl+q")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: app.return_code is not None or not app.is_running)


def _text(app: TutorApp) -> str:
    return app.screen.query_one("#lesson-text", Markdown).source


def _ids(app: TutorApp) -> list[str | None]:
    return [s.id for s in app.screen_stack]


async def test_quit_in_a_lesson_section_and_the_next_start_opens_that_section(tmp_path: Path) -> None:
    store = tmp_path / "p.sqlite3"
    first = _app(store)
    async with first.run_test(size=SIZE) as pilot:
        first.post_message(OpenLesson("demo-l1"))
        await wait_for(pilot, lambda: first.screen.id == "lesson-demo-l1")
        await wait_for(pilot, lambda: "Mover datos" in _text(first))
        await pilot.press("n")  # the second section, "El punto de inflexión"
        await wait_for(pilot, lambda: "Pico de FLOP/s" in _text(first))
        await quiet(pilot)
        await _quit(pilot, first)
    # the start after: the course still loading in parts, as `tutor` loads it
    again = _app(store, progressive=True)
    async with again.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: again.screen.id == "lesson-demo-l1")
        await wait_for(pilot, lambda: "Pico de FLOP/s dividido entre el ancho de banda pico." in _text(again))
        assert again.screen.sub_title == "El punto de inflexión"
        assert _ids(again)[-2] == "course-map"  # the map beneath
        await pilot.press("escape")
        await wait_for(pilot, lambda: again.screen.id == "course-map")
        await quiet(pilot)
    # left on the map: the start after that opens on the map
    third = _app(store)
    async with third.run_test(size=SIZE) as pilot:
        await quiet(pilot)
        assert third.screen.id == "course-map"


async def test_quit_in_an_exercise_and_the_next_start_opens_it_at_its_question(tmp_path: Path) -> None:
    store_path = tmp_path / "p.sqlite3"
    first = _app(store_path, lang="en")
    async with first.run_test(size=SIZE) as pilot:
        first.post_message(OpenLesson("demo-l1"))
        await wait_for(pilot, lambda: first.screen.id == "lesson-demo-l1")
        first.post_message(OpenExercise("demo-l1-copy"))
        await wait_for(pilot, lambda: first.screen.id == "exercise-demo-l1-copy")
        await quiet(pilot)
        await _quit(pilot, first)
    # a prediction locked and never measured (as a tutor killed mid-run leaves it)
    store = ProgressStore(store_path)
    store.lock_prediction(exercise_id="demo-l1-copy", lesson_id="demo-l1", prediction={"choice": "memory"},
                          confidence=0.8)
    store.close()
    again = _app(store_path, lang="en")
    async with again.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: again.screen.id == "exercise-demo-l1-copy")
        await quiet(pilot)
        screen = again.screen
        assert screen.state == "predicting"  # type: ignore[attr-defined]  # at its question: nothing measured, nothing running
        main = screen.query_one("#exercise-main")
        assert main.scroll_y == 0
        note = screen.query_one("#ex-unfinished")
        assert note.display  # the locked prediction is shown as locked, to measure or discard
        assert _ids(again)[-2] == "course-map"
        await pilot.press("escape")
        await wait_for(pilot, lambda: again.screen.id == "course-map")


async def test_a_place_the_course_no_longer_has_opens_the_map_with_a_notice(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(FIXTURE, course)
    store = tmp_path / "p.sqlite3"
    first = _app(store, course)
    async with first.run_test(size=SIZE) as pilot:
        first.post_message(OpenLesson("demo-l2"))
        await wait_for(pilot, lambda: first.screen.id == "lesson-demo-l2")
        await quiet(pilot)
        await _quit(pilot, first)
    (course / "lessons" / "demo-l2.yaml").unlink()  # the pack was removed
    for lang, words in (("es", "ya no está en el curso"), ("en", "no longer in the course")):
        again = _app(store, course, lang=lang, progressive=True)
        async with again.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda app=again, words=words: any(words in str(n.message)
                                                                      for n in app._notifications))
            assert again.screen.id == "course-map"
            assert any("demo-l2" in str(n.message) for n in again._notifications)
        if lang == "es":  # the notice is given once: the place is the map now
            assert ProgressStore(store).last_place() is None
            ProgressStore(store).save_place(Place("lesson", "demo-l2"))  # again, for the English start


async def test_tutor_map_starts_on_the_map(tmp_path: Path) -> None:
    store = tmp_path / "p.sqlite3"
    first = _app(store)
    async with first.run_test(size=SIZE) as pilot:
        first.post_message(OpenLesson("demo-l1", "ridge"))
        await wait_for(pilot, lambda: first.screen.id == "lesson-demo-l1")
        await quiet(pilot)
        await _quit(pilot, first)
    again = _app(store, resume=False)
    async with again.run_test(size=SIZE) as pilot:
        await quiet(pilot)
        assert again.screen.id == "course-map"
    from tutor.cli import build_parser

    assert build_parser("es").parse_args(["--map"]).map is True
    assert "--map" in build_parser("en").format_help()
