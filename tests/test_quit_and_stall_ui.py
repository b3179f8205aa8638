"""Quitting mid-measurement and a stalled measurement, driven as a learner would (issue 17, items 4 and 5).

The exercise screen runs its measurement in the app's real worker process; the worker here swaps the exercise's
request for a test op (a long cooperative sleep, or a hang that ignores cancellation) so the test does not time a
real kernel. The worker is stopped with SIGSTOP or left hung, then ctrl+q / Esc is pressed.

The quit test runs the app in a child process with ``App.run(headless=True)`` — the real event loop, whose end
joins every thread worker — and times from the key press to the process's exit.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from tests.support.pilot import RESPONSIVE_S, wait_for
from tests.support.worker import SwappedWorker
from tutor.content import load_course
from tutor.measure.worker import MeasureWorker
from tutor.progress import ProgressStore
from tutor.ui.app import make_app
from tutor.ui.screens.exercise import ExerciseScreen

REPO = Path(__file__).resolve().parents[1]
COURSE = REPO / "tests" / "fixtures" / "exercise_course"


@pytest.fixture(autouse=True)
def _test_ops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUTOR_MEASURE_TEST_OPS", "1")


def app_with(tmp_path: Path, worker: MeasureWorker) -> Any:
    app = make_app(course=load_course(COURSE), store=ProgressStore(tmp_path / "p.sqlite3"), lang="en",
                   telemetry="host")
    app.session.measure_worker = worker
    return app



async def start_measuring(app: Any, pilot: Any) -> ExerciseScreen:
    screen = ExerciseScreen(app.session, app.course.exercises["t-copy-gbs"])
    app.push_screen(screen)
    await pilot.pause()
    screen.query_one("#ex-number", Input).value = "20"
    await pilot.press("ctrl+l", "ctrl+r")
    assert screen.state == "running"
    await wait_for(pilot, lambda: app.session.measure_worker.busy)
    return screen


def status(screen: ExerciseScreen) -> str:
    return str(screen.query_one("#ex-status", Static).render())


#: The requirement is 1 s; run with -s, each test prints its figure (tests.support.pilot.RESPONSIVE_S: why wider).
LOADED_BOUND_S = RESPONSIVE_S


async def test_a_stopped_worker_is_reported_stalled_and_esc_cancels_within_a_second(tmp_path: Path) -> None:
    worker = SwappedWorker({"op": "_test_sleep", "seconds": 60}, stall_after_s=0.6)
    worker.run({"op": "_test_echo"}, timeout_s=120)  # warm: the child has imported torch and said so
    app = app_with(tmp_path, worker)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await start_measuring(app, pilot)
        await pilot.pause(0.8)
        assert screen.stalled_for is None  # a measurement that checks in is not stalled, however long it takes
        pid = worker.pid
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)
        await wait_for(pilot, lambda: screen.stalled_for is not None, timeout=5)
        assert "seems stalled" in status(screen) and "Esc cancels" in status(screen)
        assert screen.query_one("#ex-cancel").display  # the cancel button is offered
        started = time.monotonic()
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.state == "predicting", timeout=LOADED_BOUND_S)
        took = time.monotonic() - started
        print(f"Esc cancelled in {took:.3f} s")
        assert took < LOADED_BOUND_S
        assert app.screen is screen
        [attempt] = app.store.attempts()
        assert attempt.state == "cancelled"
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_a_hung_call_is_reported_stalled_in_spanish_and_esc_cancels(tmp_path: Path) -> None:
    worker = SwappedWorker({"op": "_test_hang", "seconds": 60}, stall_after_s=0.6)
    worker.run({"op": "_test_echo"}, timeout_s=120)
    app = app_with(tmp_path, worker)
    app.lang = "es"
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await start_measuring(app, pilot)
        await wait_for(pilot, lambda: screen.stalled_for is not None, timeout=5)  # beats come, progress does not
        assert "parece atascada" in status(screen)
        started = time.monotonic()
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.state == "predicting", timeout=LOADED_BOUND_S)
        took = time.monotonic() - started
        print(f"Esc cancelled in {took:.3f} s")
        assert took < LOADED_BOUND_S
        assert "se canceló" in status(screen)


QUIT_SCRIPT = textwrap.dedent(
    """
    import json, os, signal, sys, time
    sys.path.insert(0, {tests!r})
    from tests.support.worker import SwappedWorker
    from test_quit_and_stall_ui import app_with, start_measuring, wait_for
    from pathlib import Path

    op, stop, screen_kind = json.loads(sys.argv[1])

    async def drive(pilot):
        if screen_kind == "lab":
            from tutor.ui.messages import OpenLab
            lesson = next(iter(app.course.lessons.values()))
            app.post_message(OpenLab(lesson.id, lesson.labs[0].id))
            await wait_for(pilot, lambda: app.screen.id and app.screen.id.startswith("lab-"))
            screen = app.screen
            screen.query_one("#lab-prediction").value = "1"
            await pilot.press("enter")
            await wait_for(pilot, lambda: worker.busy)
        else:
            await start_measuring(app, pilot)
        if stop:
            os.kill(worker.pid, signal.SIGSTOP)
            time.sleep(0.3)
        print(json.dumps({{"pid": worker.pid, "pressed": time.time()}}), flush=True)
        await pilot.press("ctrl+q")

    if __name__ == "__main__":
        worker = SwappedWorker(op, stall_after_s=0.5)
        worker.run({{"op": "_test_echo"}}, timeout_s=120)
        app = app_with(Path(sys.argv[2]), worker)
        app.run(headless=True, size=(160, 60), auto_pilot=drive)
        from tutor.commands.tui import exit_now

        exit_now(0)  # as `tutor` does once the app has returned
    """
)


def quit_mid_measurement(tmp_path: Path, op: dict[str, Any], stop: bool, screen: str = "exercise") -> float:
    script = tmp_path / "quit.py"
    script.write_text(QUIT_SCRIPT.format(tests=str(REPO / "tests")))
    env = {**os.environ, "TUTOR_MEASURE_TEST_OPS": "1", "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, str(script), json.dumps([op, stop, screen]), str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the app is measuring and the worker is stopped; ctrl+q comes next
        if not line:
            pytest.fail(f"the app did not start measuring: {proc.stderr.read() if proc.stderr else ''}")
        info = json.loads(line)
        proc.wait(timeout=30)
        exited = time.time()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    with pytest.raises(ProcessLookupError):
        os.kill(info["pid"], 0)  # the worker did not outlive the app
    return exited - float(info["pressed"])


def test_quit_with_a_stopped_worker_exits_within_a_second(tmp_path: Path) -> None:
    elapsed = quit_mid_measurement(tmp_path, {"op": "_test_sleep", "seconds": 60}, stop=True)
    print(f"quit took {elapsed:.3f} s")
    assert elapsed < LOADED_BOUND_S, f"quit took {elapsed:.2f} s"


def test_quit_with_a_hung_worker_exits_within_a_second(tmp_path: Path) -> None:
    elapsed = quit_mid_measurement(tmp_path, {"op": "_test_hang", "seconds": 60}, stop=False)
    print(f"quit took {elapsed:.3f} s")
    assert elapsed < LOADED_BOUND_S, f"quit took {elapsed:.2f} s"
