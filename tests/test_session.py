"""The one door into practice (issue 29 item 1): the app builds one session and every screen it opens talks to
that session; what a screen writes goes through it; the session is importable without Textual."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from textual.widgets import Input

from tests.support.exercise import app_for, fake_result, open_exercise
from tests.support.pilot import wait_for
from tutor.practice.runner import AttemptFailed
from tutor.practice.session import CANCELLED, failure_of
from tutor.progress.lease import LeaseCancelled
from tutor.ui.messages import OpenExercise
from tutor.ui.screens.exercise import ExerciseScreen


def test_the_session_imports_no_textual_and_no_torch() -> None:
    code = "import sys\nimport tutor.practice.session\nprint('textual' in sys.modules, 'torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_a_job_s_exception_is_read_once_into_a_failure() -> None:
    assert failure_of(AttemptFailed("the engine died", "failed", "killed"), "en").code == "killed"
    assert failure_of(LeaseCancelled(), "en") == CANCELLED
    assert failure_of(RuntimeError("boom"), "en").code == "engine"


async def test_every_screen_the_app_opens_holds_the_app_s_one_session(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        app.post_message(OpenExercise("t-copy-gbs"))
        await wait_for(pilot, lambda: isinstance(app.screen, ExerciseScreen))
        assert app.screen.session is app.session  # type: ignore[attr-defined]
        assert app.screen_stack[1].session is app.session  # the course map


async def test_a_hint_after_the_lock_is_counted_on_the_attempt_through_the_session(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_exercise(app, pilot, "t-copy-bound", lambda *a: fake_result(a[0]))
        screen.query_one("#choice-memory").value = True  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: screen.state == "locked")
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: app.session.store.attempts()[0].hints_used == 1)


async def test_a_result_that_comes_back_after_esc_is_stored_as_cancelled_not_graded(tmp_path: Path) -> None:
    """The cancel race on the exercise: the engine saw the cancel too late and answered anyway. The learner asked
    for no result: the attempt is cancelled (not graded, not left unfinished) and the form is offered again."""
    app = app_for(tmp_path)
    asked = threading.Event()

    def late(request: dict[str, Any], on_progress: Any, cancel: threading.Event | None) -> dict[str, Any]:
        asked.set()
        assert cancel is not None
        cancel.wait(30)
        return fake_result(request)

    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_exercise(app, pilot, "t-copy-gbs", late)
        screen.query_one("#ex-number", Input).value = "20"
        await pilot.press("ctrl+l", "ctrl+r")
        await wait_for(pilot, asked.is_set)
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.state == "predicting")
        [attempt] = app.session.store.attempts()
        assert attempt.state == "cancelled" and attempt.score is None
        assert screen.outcome is None
        assert app.screen is screen
