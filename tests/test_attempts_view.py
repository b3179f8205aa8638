"""Every attempt of an exercise in sight (issue 30 item 2): Esc after a reveal shows the exercise's attempts instead of
dropping the attempt from view; F4 opens them from the exercise and from the progress screen; each attempt shows its
prediction, confidence, verdict and score, figures, the machine's load and its date, in es and en."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.exercise import fake_measure
from tests.support.pilot import wait_for
from tutor.content import load_course
from tutor.i18n import Lang, t
from tutor.practice.attempts import attempts_view
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp, make_app
from tutor.ui.screens.attempts import AttemptsScreen
from tutor.ui.screens.exercise import ExerciseScreen
from tutor.ui.screens.progress import ProgressScreen

FIXTURES = Path(__file__).parent / "fixtures"


def _app(tmp_path: Path, lang: Lang) -> TutorApp:
    return make_app(course=load_course(FIXTURES / "exercise_course"), store=ProgressStore(tmp_path / "p.sqlite3"),
                    lang=lang, telemetry=None)


def _shown(screen: Any) -> str:
    return "\n".join(str(w.render()) for w in screen.query("#attempts-title, #attempts-list"))


async def _attempt(app: TutorApp, pilot: Any) -> ExerciseScreen:
    screen = ExerciseScreen(app.session, app.course.exercises["t-copy-bound"], measure=fake_measure)
    app.push_screen(screen)
    await wait_for(pilot, lambda: app.screen is screen)
    await pilot.press("down", "enter", "ctrl+l", "ctrl+r")
    await wait_for(pilot, lambda: screen.state == "revealed")
    return screen


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_esc_after_the_reveal_shows_every_attempt(lang: Lang, tmp_path: Path) -> None:
    app = _app(tmp_path, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        below = app.screen
        for _ in range(2):
            await _attempt(app, pilot)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, AttemptsScreen))
            if not isinstance(below, AttemptsScreen):
                await pilot.press("escape")
                await wait_for(pilot, lambda: app.screen is below)
        [first, second] = app.store.attempts("t-copy-bound")
        await _attempt(app, pilot)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, AttemptsScreen))
        await pilot.pause()
        text = _shown(app.screen)
        for n in (1, 2, 3):
            assert t("attempts.number", lang, n=n) in text
        view = attempts_view(app.course.exercises["t-copy-bound"], app.store.attempts(), lang)
        for line in view.lines:
            assert line.prediction in text and line.confidence in text and line.outcome in text
            assert line.when in text
        assert t("attempts.device", lang, device="").strip() in text  # the figures' device line
        assert "GB/s" in text
        assert first.id < second.id
        # Esc leaves it for what was under the exercise
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is below)


async def test_f4_opens_the_attempts_from_the_exercise_and_from_progress(tmp_path: Path) -> None:
    app = _app(tmp_path, "en")
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _attempt(app, pilot)
        await pilot.press("f4")
        await wait_for(pilot, lambda: isinstance(app.screen, AttemptsScreen))
        assert "copy" in _shown(app.screen) and "Attempt 1 · " in _shown(app.screen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)  # back on the reveal
        await pilot.press("escape")  # the reveal's Esc: the attempts
        await wait_for(pilot, lambda: isinstance(app.screen, AttemptsScreen))
        await pilot.press("escape")
        app.action_open_progress()
        await wait_for(pilot, lambda: isinstance(app.screen, ProgressScreen))
        progress = app.screen
        await pilot.pause()
        table = progress.query_one("#progress-exercises")
        table.focus()
        rows = [str(k.value) for k in table.rows]  # type: ignore[attr-defined]
        table.move_cursor(row=rows.index("ex:t-copy-bound"))  # type: ignore[attr-defined]
        await pilot.press("f4")
        await wait_for(pilot, lambda: isinstance(app.screen, AttemptsScreen))
        assert "Attempt 1 · " in _shown(app.screen)
        # the Spanish toggle rewords it
        app.lang = "es"
        await pilot.pause()
        assert "Tus intentos" in _shown(app.screen) and "predicción" in _shown(app.screen)
