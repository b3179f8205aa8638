"""One error path and cancellation through Textual, driven as a learner would (issue 13, point 4).

A measurement that fails — on the exercise screen, the lab screen and the doctor screen — is one notice from the
app's one handler: the same toast (title by kind, error severity), worded by the catalog in the app's language,
never a traceback, shown once; and the screen stays usable. A slow measurement is stopped through its Textual
worker: Esc, leaving the screen and quitting each cancel the worker, whose cancel signal the measurement polls.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input

from tests.support.lab import write_lab_course
from tests.support.pilot import PATIENCE_S, quiet
from tests.support.worker import SwappedWorker
from tutor.content import Course, load_course
from tutor.doctor.isolated import DoctorUnavailable
from tutor.doctor.report import DoctorReport, LockMode
from tutor.i18n import Lang, t
from tutor.measure.errors import MeasureFailed
from tutor.practice.failures import failure_text
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp, make_app
from tutor.ui.messages import OpenExercise, OpenLab
from tutor.ui.screens.base import worker_cancel_event
from tutor.ui.screens.doctor import DoctorScreen
from tutor.ui.screens.exercise import ExerciseScreen
from tutor.ui.screens.lab import LabScreen

EXERCISES = Path(__file__).parent / "fixtures" / "exercise_course"
KILLED = "the measurement process was killed (SIGKILL) — most likely out of memory"


class KilledWorker:
    """Stands in for the measurement process: every run dies as if the out-of-memory killer took it."""

    def __init__(self) -> None:
        self.runs = 0

    def run(self, request: dict[str, Any], on_progress: Any = None, cancel_event: threading.Event | None = None,
            **_: Any) -> dict[str, Any]:
        self.runs += 1
        raise MeasureFailed(KILLED, code="killed")

    def close(self) -> None:
        pass


class BuggyWorker(KilledWorker):
    """A bug outside the measurement: not a MeasureError, so the screen's worker ends in an error."""

    def run(self, request: dict[str, Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
        self.runs += 1
        raise ZeroDivisionError("division by zero")


def dying_doctor(mode: LockMode) -> DoctorReport:
    raise DoctorUnavailable("the doctor's process ended with status -9")


def app_with(course: Course, tmp_path: Path, lang: Lang = "en", **kw: Any) -> TutorApp:
    return make_app(course=course, store=ProgressStore(tmp_path / "p.sqlite3"), lang=lang, telemetry="host", **kw)


async def wait_for(pilot: Any, cond: Any, timeout: float = PATIENCE_S) -> float:
    start = time.monotonic()
    while not cond() and time.monotonic() - start < timeout:
        await pilot.pause(0.05)
    assert cond()
    return time.monotonic() - start


def notices(app: TutorApp) -> list[Any]:
    return list(app._notifications)


def the_one_notice(app: TutorApp, kind: str, text: str) -> None:
    """Exactly one notice about this failure: the app's, titled by kind, an error, the catalog's words."""
    lang = app.lang
    shown = [n for n in notices(app) if n.severity == "error"]
    assert len(shown) == 1, [(n.title, n.message) for n in shown]
    [notice] = shown
    assert notice.title == t(f"work.{kind}", lang)
    assert notice.message == text
    assert "Traceback" not in notice.message and 'File "' not in notice.message


async def fail_an_exercise(app: TutorApp, pilot: Any) -> ExerciseScreen:
    app.post_message(OpenExercise("t-copy-gbs"))
    await wait_for(pilot, lambda: isinstance(app.screen, ExerciseScreen))
    screen = app.screen
    assert isinstance(screen, ExerciseScreen)
    screen.query_one("#ex-number", Input).value = "20"
    await pilot.press("ctrl+l", "ctrl+r")
    await wait_for(pilot, lambda: screen.state == "predicting")
    await quiet(pilot)  # a second notice, were there one, would be in by now
    return screen


async def fail_a_lab(app: TutorApp, pilot: Any) -> LabScreen:
    app.post_message(OpenLab("lab-l1", "lab-gemm"))
    await wait_for(pilot, lambda: isinstance(app.screen, LabScreen))
    screen = app.screen
    assert isinstance(screen, LabScreen)
    await pilot.press("5", "enter")
    await wait_for(pilot, lambda: screen.state != "running")
    await quiet(pilot)
    return screen


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_killed_measurement_is_the_same_one_notice_on_the_exercise_and_the_lab(tmp_path: Path,
                                                                                     lang: Lang) -> None:
    killed = failure_text("killed", KILLED, lang)
    assert ("SIGKILL" in killed) and (("memoria" in killed) if lang == "es" else ("memory" in killed))

    worker = KilledWorker()
    app = app_with(load_course(EXERCISES), tmp_path, lang, measure_worker=worker)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await fail_an_exercise(app, pilot)
        the_one_notice(app, "exercise", killed)
        assert app.store.attempts()[0].state == "failed"
        # usable: the prediction form is back, a new lock and measure runs (and fails the same way, once more)
        assert not screen.query_one("#ex-lock", Button).disabled
        await pilot.press("ctrl+l", "ctrl+r")
        await wait_for(pilot, lambda: worker.runs == 2 and screen.state == "predicting")
        await quiet(pilot)
        assert sum(n.severity == "error" for n in notices(app)) == 2

    worker = KilledWorker()
    app = app_with(load_course(write_lab_course(tmp_path / "labs")), tmp_path, lang, measure_worker=worker)
    async with app.run_test(size=(160, 48)) as pilot:
        lab = await fail_a_lab(app, pilot)
        assert lab.state == "failed"
        the_one_notice(app, "lab", killed)
        assert not app.store.lab_runs()
        await pilot.press("ctrl+r")  # usable: the locked prediction is measured again
        await wait_for(pilot, lambda: worker.runs == 2 and lab.state == "failed")


async def test_a_dying_doctor_is_one_notice_and_r_runs_it_again(tmp_path: Path) -> None:
    calls: list[LockMode] = []

    def doctor(mode: LockMode) -> DoctorReport:
        calls.append(mode)
        return dying_doctor(mode)

    app = app_with(load_course(EXERCISES), tmp_path, "es", doctor=doctor)
    async with app.run_test(size=(160, 48)) as pilot:
        await quiet(pilot)
        app.action_open_doctor()  # as the palette's "Doctor" does
        await wait_for(pilot, lambda: isinstance(app.screen, DoctorScreen) and bool(calls))
        screen = app.screen
        assert isinstance(screen, DoctorScreen)
        await wait_for(pilot, lambda: not screen.query_one("#doctor-rerun", Button).disabled)
        await quiet(pilot)
        the_one_notice(app, "doctor", failure_text("doctor", "the doctor's process ended with status -9", "es"))
        assert "el diagnóstico no pudo terminar" in notices(app)[-1].message
        assert "no pudo terminar" in str(screen.query_one("#doctor-headline").render())  # not "checking…"
        assert not app.store.doctor_runs()
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: len(calls) == 2 and not screen.query_one("#doctor-rerun", Button).disabled)
        assert app.screen is screen


async def test_a_bug_in_the_lab_is_the_same_notice_from_the_base_handler(tmp_path: Path) -> None:
    """An exception the lab does not expect ends its worker in an error: the screens' base turns it into the same
    notice and the lab offers the run again."""
    worker = BuggyWorker()
    app = app_with(load_course(write_lab_course(tmp_path / "labs")), tmp_path, "en", measure_worker=worker)
    async with app.run_test(size=(160, 48)) as pilot:
        lab = await fail_a_lab(app, pilot)
        assert lab.state == "failed"
        the_one_notice(app, "lab", failure_text("engine", "ZeroDivisionError: division by zero", "en"))
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: worker.runs == 2 and lab.state == "failed")


# -- cancellation goes through the Textual worker --------------------------------------------------------------


@pytest.fixture
def _test_ops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUTOR_MEASURE_TEST_OPS", "1")


@pytest.mark.usefixtures("_test_ops")
async def test_leaving_a_measuring_exercise_cancels_its_worker_and_the_measurement_stops(tmp_path: Path) -> None:
    slow = SwappedWorker({"op": "_test_sleep", "seconds": 60})
    slow.run({"op": "_test_echo"}, timeout_s=120)  # warm: the child is up before the clock starts
    app = app_with(load_course(EXERCISES), tmp_path, "en", measure_worker=slow)
    try:
        async with app.run_test(size=(160, 60)) as pilot:
            app.post_message(OpenExercise("t-copy-gbs"))
            await wait_for(pilot, lambda: isinstance(app.screen, ExerciseScreen))
            screen = app.screen
            assert isinstance(screen, ExerciseScreen)
            screen.query_one("#ex-number", Input).value = "20"
            await pilot.press("ctrl+l", "ctrl+r")
            await wait_for(pilot, lambda: slow.busy)
            worker = screen.measurement_run().worker
            assert worker is not None and not worker.is_cancelled

            app.action_open_map()  # leave the screen mid-measurement (the palette's "Course map")
            # stopped well before its 60 s would have ended by itself (how fast a cancel answers is not asserted
            # here: that depends on the machine's load)
            await wait_for(pilot, lambda: not slow.busy)
            assert worker.is_cancelled
            assert slow.alive  # the warm process stays for the next run; only the measurement stopped
            [attempt] = app.store.attempts()
            assert attempt.state == "cancelled"
            assert not [n for n in notices(app) if n.severity == "error"]
    finally:
        slow.close()


@pytest.mark.usefixtures("_test_ops")
async def test_escape_on_a_lab_cancels_the_worker_not_a_private_event(tmp_path: Path) -> None:
    slow = SwappedWorker({"op": "_test_sleep", "seconds": 60})
    slow.run({"op": "_test_echo"}, timeout_s=120)
    app = app_with(load_course(write_lab_course(tmp_path / "labs")), tmp_path, "en", measure_worker=slow)
    try:
        async with app.run_test(size=(160, 48)) as pilot:
            app.post_message(OpenLab("lab-l1", "lab-gemm"))
            await wait_for(pilot, lambda: isinstance(app.screen, LabScreen))
            lab = app.screen
            assert isinstance(lab, LabScreen)
            await pilot.press("5", "enter")
            await wait_for(pilot, lambda: slow.busy)
            worker = lab.measurement_run().worker
            assert worker is not None
            await pilot.press("escape")
            await wait_for(pilot, lambda: lab.state == "cancelled" and not slow.busy)  # before its 60 s end
            assert worker.is_cancelled
            assert app.screen is lab and not app.store.lab_runs()
            cancelled = [n for n in notices(app) if n.severity == "warning"]
            assert [n.message for n in cancelled] == [failure_text("cancelled", "", "en")]
    finally:
        slow.close()


async def test_leaving_the_doctor_cancels_its_worker_and_quitting_does_not_hang(tmp_path: Path) -> None:
    """A doctor that would run for a minute: its thread polls the worker's cancel signal (as the real one's child
    process wait does); leaving the screen stops it, and quitting with another one running returns at once."""
    started, stopped = threading.Event(), threading.Event()

    def slow_doctor(mode: LockMode) -> DoctorReport:
        cancel = worker_cancel_event()
        started.set()
        if cancel.wait(60):
            stopped.set()
            raise DoctorUnavailable("cancelled")
        raise AssertionError("never cancelled")

    app = app_with(load_course(EXERCISES), tmp_path, "en", doctor=slow_doctor)
    async with app.run_test(size=(160, 48)) as pilot:
        await quiet(pilot)
        app.action_open_doctor()
        await wait_for(pilot, started.is_set)
        await pilot.press("escape")
        await wait_for(pilot, stopped.is_set)  # cancelled: uncancelled it would wait 60 s, then fail
        assert not isinstance(app.screen, DoctorScreen)
        assert not notices(app)  # leaving is not a failure

        started.clear()
        stopped.clear()
        app.action_open_doctor()
        await wait_for(pilot, started.is_set)
        quit_at = time.monotonic()
        await pilot.press("ctrl+q")
    assert stopped.wait(PATIENCE_S), "quitting did not cancel the doctor's worker"
    assert time.monotonic() - quit_at < PATIENCE_S  # not the 60 s an uncancelled doctor would hold the quit


async def test_a_broken_login_check_is_one_notice_and_the_learner_can_try_again(tmp_path: Path) -> None:
    from tutor.progress import StoreBase
    from tutor.ui.screens.login import LoginScreen

    tries: list[str] = []

    def broken(name: str, token: str) -> StoreBase:
        tries.append(name)
        raise ZeroDivisionError("division by zero")

    app = make_app(course=load_course(EXERCISES), store=None, lang="es", telemetry="host", login=broken)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LoginScreen))
        await pilot.press(*"ana", "enter", *"tok", "enter")
        await wait_for(pilot, lambda: bool(tries) and not app.screen.query_one("#login-enter", Button).disabled)
        await quiet(pilot)
        the_one_notice(app, "login", t("work.error", "es", detail="ZeroDivisionError: division by zero"))
        assert not app.logged_in and isinstance(app.screen, LoginScreen)
