"""The one measurement component (issue 29 item 2): start, progress, result, failure through the one error path,
cancel, and the two cancel races, driven in a small app as the screens drive it."""

from __future__ import annotations

import threading
from typing import Any

from textual.app import App, ComposeResult

from tests.support.pilot import wait_for
from tutor.i18n.message import Message as Said
from tutor.measure.errors import MeasureCancelled, MeasureFailed
from tutor.ui.messages import WorkFailed
from tutor.ui.widgets.measurement_run import MeasurementRun, RunHooks


class RunApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.heard: list[Any] = []

    def compose(self) -> ComposeResult:
        yield MeasurementRun(lang=lambda: "en", clock=lambda: 0.0)

    def on_measurement_run_finished(self, message: MeasurementRun.Finished) -> None:
        self.heard.append(("finished", message.kind, message.result))

    def on_measurement_run_failed(self, message: MeasurementRun.Failed) -> None:
        self.heard.append(("failed", message.kind, message.failure.code, message.discarded))

    def on_measurement_run_point(self, message: MeasurementRun.Point) -> None:
        self.heard.append(("point", message.point))

    def on_work_failed(self, message: WorkFailed) -> None:
        self.heard.append(("notice", message.kind, message.code))


async def test_a_result_arrives_with_its_progress_and_points() -> None:
    app = RunApp()
    step = threading.Event()

    def job(hooks: RunHooks) -> int:
        hooks.progress(0.5, Said.of("measure.progress.timing", workload="copy"))
        hooks.point({"n": 1})
        step.wait(10)
        return 42

    async with app.run_test() as pilot:
        run = app.query_one(MeasurementRun)
        run.start("lab", job)
        assert run.running
        await wait_for(pilot, lambda: run.progress == 0.5 and ("point", {"n": 1}) in app.heard)
        step.set()
        await wait_for(pilot, lambda: not run.running)
        assert app.heard[-1] == ("finished", "lab", 42)
        assert run.progress == 1.0


async def test_a_failure_ends_the_run_and_is_one_notice() -> None:
    app = RunApp()

    def job(hooks: RunHooks) -> None:
        raise MeasureFailed("the measurement process died (SIGKILL)")

    async with app.run_test() as pilot:
        run = app.query_one(MeasurementRun)
        run.start("exercise", job)
        await wait_for(pilot, lambda: ("notice", "exercise", "killed") in app.heard)
        assert ("failed", "exercise", "killed", False) in app.heard
        assert not run.running and not any(h[0] == "finished" for h in app.heard)


async def test_escape_while_it_runs_cancels_it() -> None:
    app = RunApp()

    def job(hooks: RunHooks) -> None:
        if not hooks.cancel.wait(10):
            raise AssertionError("never cancelled")
        raise MeasureCancelled("cancelled")

    async with app.run_test() as pilot:
        run = app.query_one(MeasurementRun)
        run.start("roofline", job)
        await pilot.pause()
        assert run.cancel()
        await wait_for(pilot, lambda: not run.running)
        assert ("failed", "roofline", "cancelled", False) in app.heard
        assert not run.cancel()  # nothing left to cancel


async def test_a_result_that_comes_back_after_the_cancel_is_not_delivered() -> None:
    """The cancel race: the job saw the cancel too late and returned its result anyway."""
    app = RunApp()

    def job(hooks: RunHooks) -> str:
        hooks.cancel.wait(10)
        return "measured anyway"

    async with app.run_test() as pilot:
        run = app.query_one(MeasurementRun)
        run.start("exercise", job)
        await pilot.pause()
        run.cancel()
        await wait_for(pilot, lambda: not run.running)
        assert ("failed", "exercise", "cancelled", True) in app.heard
        assert not any(h[0] == "finished" for h in app.heard)


async def test_a_cancel_before_the_thread_starts_still_ends_the_run() -> None:
    """Esc in the same turn as the start: the thread sees its cancel as it starts; the run ends cancelled."""
    app = RunApp()
    saw: list[bool] = []

    def job(hooks: RunHooks) -> None:
        saw.append(hooks.cancel.is_set())
        raise MeasureCancelled("cancelled")

    async with app.run_test() as pilot:
        run = app.query_one(MeasurementRun)
        run.start("lab", job)
        run.cancel()  # no await between: the worker's thread has not started
        await wait_for(pilot, lambda: not run.running)
        assert saw == [True]
        assert ("failed", "lab", "cancelled", False) in app.heard
