"""The exercise and progress screens driven with keys: lock → measure → reveal, cancel, failure, reset."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from textual.widgets import Input, Static

from tests.support.exercise import app_for, fake_measure, fake_result, open_exercise
from tests.support.pilot import RESPONSIVE_S, quiet, wait_for
from tutor.content import load_course
from tutor.measure.errors import MeasureCancelled, MeasureFailed
from tutor.progress import ProgressStore
from tutor.progress.c0 import level_exercise_ids
from tutor.ui.app import make_app
from tutor.ui.messages import OpenExercise
from tutor.ui.screens.exercise import ExerciseScreen
from tutor.ui.screens.progress import ConfirmReset, ProgressScreen
from tutor.ui.widgets.roofline_chart import RooflineChart


def slow_measure(request: dict[str, Any], on_progress: Any, cancel: threading.Event | None) -> dict[str, Any]:
    end = time.monotonic() + 10
    while time.monotonic() < end:
        if cancel is not None and cancel.is_set():
            raise MeasureCancelled("cancelled")
        time.sleep(0.01)
    return fake_result(request)


def crashing_measure(request: dict[str, Any], on_progress: Any, cancel: threading.Event | None) -> dict[str, Any]:
    raise MeasureFailed("the measurement process crashed (SIGSEGV)")


async def test_lock_measure_reveal(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await open_exercise(app, pilot, "t-copy-gbs", fake_measure)
        await pilot.press("ctrl+r")  # measure before lock: refused
        assert screen.state == "predicting" and app.store.attempts() == []
        screen.query_one("#ex-number", Input).value = "18"
        screen.query_one("#ex-confidence", Input).value = "70"
        await pilot.press("ctrl+l")
        assert screen.state == "locked"
        [locked] = app.store.attempts()
        assert locked.state == "locked" and locked.prediction.value == 18 and locked.confidence == 0.7
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.state == "revealed")
        verdict = str(screen.query_one("#ex-verdict", Static).render())
        assert "partly" in verdict and "measured on Test CPU" in verdict
        figures = str(screen.query_one("#ex-figures", Static).render())
        assert "CV 3.0 %" in figures and "9 runs" in figures and "datasheet" in figures
        chart = screen.query_one("#ex-chart", RooflineChart)
        assert chart.display and len(chart.points) == 1  # the workload; the 18 GB/s guess is a roof, not a point
        assert chart.guess_bandwidth is not None and chart.guess_bandwidth[0] == 18
        [graded] = app.store.attempts()
        assert graded.state == "graded" and graded.verdict == "partly"


async def test_bound_choice_and_hints(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await open_exercise(app, pilot, "t-copy-bound", fake_measure)
        await pilot.press("ctrl+g")
        assert screen.hints_shown == 1 and "0 FLOPs" in str(screen.query_one("#ex-hints", Static).render())
        screen.query_one("#choice-memory").value = True  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("ctrl+l", "ctrl+r")
        await wait_for(pilot, lambda: screen.state == "revealed")
        assert screen.outcome is not None and screen.outcome.verdict.verdict == "correct"
        [a] = app.store.attempts()
        assert a.hints_used == 1 and a.verdict == "correct"


async def test_bad_number_stores_nothing(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await open_exercise(app, pilot, "t-copy-gbs", fake_measure)
        screen.query_one("#ex-number", Input).value = "fast"
        await pilot.press("ctrl+l")
        assert screen.state == "predicting" and app.store.attempts() == []
        assert "not a number" in str(screen.query_one("#ex-status", Static).render())


async def test_escape_cancels_within_a_second(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await open_exercise(app, pilot, "t-copy-gbs", slow_measure)
        screen.query_one("#ex-number", Input).value = "20"
        await pilot.press("ctrl+l", "ctrl+r")
        assert screen.state == "running"
        started = time.monotonic()
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.state == "predicting", timeout=RESPONSIVE_S)
        assert time.monotonic() - started < RESPONSIVE_S
        assert app.screen is screen  # Esc cancelled, it did not leave
        [a] = app.store.attempts()
        assert a.state == "cancelled"


async def test_escape_before_the_measuring_thread_starts_still_cancels(tmp_path: Path) -> None:
    """Esc handled before the measurement's thread has started (ctrl+r then Esc at once on a loaded machine): the
    attempt still ends cancelled and the prediction form comes back. Cancelling the worker's task there had
    dropped the thread before it ran, and the screen waited for an end that never came."""
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await open_exercise(app, pilot, "t-copy-gbs", slow_measure)
        screen.query_one("#ex-number", Input).value = "20"
        await pilot.press("ctrl+l")
        screen.action_measure()
        screen.action_back_or_cancel()  # in the same turn of the event loop: the worker has not started its thread
        assert screen.state == "running"
        await wait_for(pilot, lambda: screen.state == "predicting", timeout=10)
        assert app.screen is screen
        [a] = app.store.attempts()
        assert a.state == "cancelled"


async def test_a_crash_is_reported_and_the_app_carries_on(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await open_exercise(app, pilot, "t-copy-gbs", crashing_measure)
        screen.query_one("#ex-number", Input).value = "20"
        await pilot.press("ctrl+l", "ctrl+r")
        await wait_for(pilot, lambda: screen.state == "predicting")
        assert "SIGSEGV" in str(screen.query_one("#ex-status", Static).render())
        assert app.store.attempts()[0].state == "failed"
        screen.attempt.measure_fn = fake_measure
        await pilot.press("ctrl+l", "ctrl+r")
        await wait_for(pilot, lambda: screen.state == "revealed")


async def test_no_measurement_exercise_reveals_at_once_and_progress_screen(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        app.post_message(OpenExercise("t-diag"))
        await wait_for(pilot, lambda: isinstance(app.screen, ExerciseScreen))
        screen = app.screen
        screen.query_one("#choice-cpu-wheel").value = True  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("ctrl+l", "ctrl+r")
        await wait_for(pilot, lambda: screen.state == "revealed")  # type: ignore[attr-defined]
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExerciseScreen))
        await quiet(pilot)
        app.action_open_progress()
        await wait_for(pilot, lambda: isinstance(app.screen, ProgressScreen) and bool(app.screen.query("#progress-c0")))
        await quiet(pilot)
        c0 = str(app.screen.query_one("#progress-c0", Static).render())
        # C0's level is the bundled course's Nivel 0 whatever course is open (a pack's t-diag is not in it)
        assert "C0 (CPU)" in c0 and f"0 of {len(level_exercise_ids())} reproduced in pass 2" in c0
        assert "t-diag" not in c0
        app.screen.query_one("#progress-history").focus()
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmReset))
        await pilot.click("#confirm-yes")
        await wait_for(pilot, lambda: isinstance(app.screen, ProgressScreen))
        await wait_for(pilot, lambda: app.store.attempts() == [])


async def test_a_refused_prediction_is_said_in_spanish_where_the_learner_sees_it(tmp_path: Path) -> None:
    """At 80×24 the status line sits below the form; a refusal scrolls into view, in the learner's language."""
    from textual.errors import NoWidget

    from tutor.paths import bundled_course

    app = make_app(course=load_course(bundled_course()), store=ProgressStore(tmp_path / "p.sqlite3"), lang="es",
                   telemetry="host")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "n0-l1-triad-gbs", fake_measure)  # a long prompt and set-up line
        screen.query_one("#ex-number", Input).value = "abc"
        await pilot.press("ctrl+l")
        status = screen.query_one("#ex-status", Static)
        await wait_for(pilot, lambda: "«abc» no es un número" in str(status.render()))
        assert screen.state == "predicting" and app.store.attempts() == []

        def on_screen() -> bool:
            try:
                x, y = status.region.x + 1, status.region.y
                return screen.get_widget_at(x, y)[0] is status
            except NoWidget:
                return False

        await wait_for(pilot, on_screen)


async def test_the_confidence_floor_is_chance_among_the_options(tmp_path: Path) -> None:
    """Four options: chance is 25 %, so a 30 % guess is a guess the learner may lock (issue 30)."""
    from textual.widgets import Label

    from tutor.paths import bundled_course

    app = make_app(course=load_course(bundled_course()), store=ProgressStore(tmp_path / "p.sqlite3"), lang="es",
                   telemetry="host")
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_exercise(app, pilot, "f1-t01-sorted-branch", fake_measure)
        assert str(screen.query_one("#ex-confidence-label", Label).render()) == "Confianza (25–100 %)"
        screen.query_one("#choice-branch-prediction").value = True  # type: ignore[attr-defined]
        screen.query_one("#ex-confidence", Input).value = "30"
        await pilot.pause()
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: bool(app.store.attempts()))
        assert app.store.attempts()[0].confidence == 0.3
