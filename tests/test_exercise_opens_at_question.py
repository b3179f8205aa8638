"""At 80×24 an exercise opens at its question (issue 30 item 4): the answer field has the focus, but the page is not
scrolled past the title and the prompt to reach it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.exercise import fake_measure
from tests.support.pilot import quiet, wait_for
from tutor.content import load_course
from tutor.i18n import Lang
from tutor.progress import ProgressStore
from tutor.ui.app import make_app
from tutor.ui.screens.exercise import ExerciseScreen

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("exercise", ["t-copy-bound", "t-copy-gbs"])
async def test_the_question_is_in_sight_when_the_exercise_opens(exercise: str, lang: Lang, tmp_path: Path) -> None:
    app = make_app(course=load_course(FIXTURES / "exercise_course"), store=ProgressStore(tmp_path / "p.sqlite3"),
                   lang=lang, telemetry=None)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = ExerciseScreen(app.session, app.course.exercises[exercise], measure=fake_measure)
        app.push_screen(screen)
        await wait_for(pilot, lambda: app.screen is screen and screen.focused is not None)
        # every callback after a refresh run and every scroll animation ended: a late scroll to the focused field
        # would have shown by now
        await quiet(pilot)
        await pilot.wait_for_scheduled_animations()
        page = screen.query_one("#exercise-main")
        prompt = screen.query_one("#ex-prompt")
        assert page.scroll_y == 0
        assert prompt.region.height > 0 and page.region.y <= prompt.region.y < page.region.bottom
        assert screen.query_one("#ex-title").region.y >= page.region.y
