"""The exercise's and the lab's measuring widgets on their own (issue 29 item 2): each in a small app, given a
session and a stand-in measurement, driven with keys as a screen's learner would, and heard only through the
messages they post (attributes down, messages up)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from textual import on
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import Input

from tests.support.exercise import COURSE, fake_measure
from tests.support.lab import FailingWorker, write_lab_course
from tests.support.pilot import wait_for
from tutor.content import load_course
from tutor.measure.errors import MeasureCancelled, MeasureFailed
from tutor.measure.phases import said
from tutor.practice.labs import parse_lab_prediction
from tutor.practice.session import Session
from tutor.progress import ProgressStore
from tutor.ui.messages import WorkFailed
from tutor.ui.widgets.exercise_attempt import ExerciseAttempt
from tutor.ui.widgets.lab_run import LabRun


class Heard(App[None]):
    """A small app holding one widget; Esc cancels its run, as the screens' Esc does; it keeps what it hears."""

    BINDINGS = [("escape", "cancel_run", "Cancel")]

    def __init__(self, widget: ExerciseAttempt | LabRun) -> None:
        super().__init__()
        self.widget = widget
        self.heard: list[Message] = []

    def compose(self) -> ComposeResult:
        yield self.widget

    def action_cancel_run(self) -> None:
        self.widget.cancel()

    @on(ExerciseAttempt.Changed)
    @on(ExerciseAttempt.Revealed)
    @on(ExerciseAttempt.Failed)
    @on(ExerciseAttempt.Cancelled)
    @on(LabRun.PointMeasured)
    @on(LabRun.Filed)
    @on(LabRun.Failed)
    @on(LabRun.Cancelled)
    @on(WorkFailed)
    def _heard(self, message: Message) -> None:
        self.heard.append(message)

    def of(self, kind: type[Message]) -> list[Any]:
        return [m for m in self.heard if isinstance(m, kind)]


def _session(tmp_path: Path, course: Path = COURSE, worker: Any = None) -> Session:
    return Session(course=load_course(course), store=ProgressStore(tmp_path / "p.sqlite3"), measure_worker=worker)


def _attempt(session: Session, measure: Any) -> ExerciseAttempt:
    return ExerciseAttempt(session, session.course.exercises["t-copy-gbs"], lang="en", measure=measure)


def _slow_measure(request: dict[str, Any], on_progress: Any, cancel: threading.Event | None) -> dict[str, Any]:
    assert cancel is not None
    if cancel.wait(60):
        raise MeasureCancelled("cancelled")
    raise AssertionError("never cancelled")


def _crashing_measure(request: dict[str, Any], on_progress: Any, cancel: threading.Event | None) -> dict[str, Any]:
    raise MeasureFailed("the measurement process crashed (SIGSEGV)")


async def _lock_and_measure(app: Heard, pilot: Any) -> None:
    """Type the prediction, Enter locks it (the Measure button takes the focus), Enter measures."""
    await wait_for(pilot, lambda: app.focused is app.query_one("#ex-number", Input))
    await pilot.press("2", "0", "enter")
    await wait_for(pilot, lambda: [m.state for m in app.of(ExerciseAttempt.Changed)] == ["locked"])
    await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "ex-measure")
    await pilot.press("enter")


async def test_an_attempt_locked_and_measured_posts_revealed_with_its_graded_outcome(tmp_path: Path) -> None:
    session = _session(tmp_path)
    app = Heard(_attempt(session, fake_measure))
    async with app.run_test(size=(100, 40)) as pilot:
        await _lock_and_measure(app, pilot)
        await wait_for(pilot, lambda: bool(app.of(ExerciseAttempt.Revealed)))
        [revealed] = app.of(ExerciseAttempt.Revealed)
        assert [m.state for m in app.of(ExerciseAttempt.Changed)] == ["locked", "running", "revealed"]
        assert revealed.attempt is app.widget and revealed.outcome.measurement is not None
        [stored] = session.store.attempts()
        assert stored.state == "graded" and stored.id == revealed.outcome.attempt_id
        assert not app.of(ExerciseAttempt.Failed) and not app.of(ExerciseAttempt.Cancelled)


async def test_escape_during_the_measurement_posts_cancelled_and_offers_the_form_again(tmp_path: Path) -> None:
    session = _session(tmp_path)
    app = Heard(_attempt(session, _slow_measure))
    async with app.run_test(size=(100, 40)) as pilot:
        await _lock_and_measure(app, pilot)
        await wait_for(pilot, lambda: app.widget.state == "running" and app.widget.run.running)
        await pilot.press("escape")
        await wait_for(pilot, lambda: bool(app.of(ExerciseAttempt.Cancelled)))
        [cancelled] = app.of(ExerciseAttempt.Cancelled)
        assert cancelled.failure.state == "cancelled"
        assert app.widget.state == "predicting" and not app.query_one("#ex-number", Input).disabled
        assert not app.of(ExerciseAttempt.Revealed) and not app.of(ExerciseAttempt.Failed)
        assert [a.state for a in session.store.attempts()] == ["cancelled"]


async def test_a_measurement_that_fails_posts_failed_and_one_notice(tmp_path: Path) -> None:
    session = _session(tmp_path)
    app = Heard(_attempt(session, _crashing_measure))
    async with app.run_test(size=(100, 40)) as pilot:
        await _lock_and_measure(app, pilot)
        await wait_for(pilot, lambda: bool(app.of(ExerciseAttempt.Failed)))
        [failed] = app.of(ExerciseAttempt.Failed)
        assert "SIGSEGV" in failed.failure.detail
        assert [(n.kind, n.code) for n in app.of(WorkFailed)] == [("exercise", failed.failure.code)]
        assert not app.of(ExerciseAttempt.Revealed) and not app.of(ExerciseAttempt.Cancelled)
        assert [a.state for a in session.store.attempts()] == ["failed"]


class SweepWorker:
    """Stands in for the measurement worker: streams two GEMM points, then answers the sweep (or, told to, waits
    for the cancel)."""

    def __init__(self, *, wait_for_cancel: bool = False) -> None:
        self.wait_for_cancel = wait_for_cancel

    def run(self, request: dict[str, Any], on_progress: Any = None, cancel_event: threading.Event | None = None,
            on_point: Any = None, **_: Any) -> dict[str, Any]:
        if self.wait_for_cancel:
            assert cancel_event is not None and cancel_event.wait(60), "never cancelled"
            raise MeasureCancelled("cancelled")
        points = [{"n": 32, "gflops": 1.5, "time_s": 4.4e-05}, {"n": 96, "gflops": 6.0, "time_s": 2.9e-04}]
        for i, point in enumerate(points):
            on_progress((i + 1) / 2, said("measure.progress.gemm_size", n=point["n"], gflops=point["gflops"]))
            on_point(point)
        return {"kind": "sweep", "name": "gemm_sizes", "points": points,
                "device": {"kind": "cpu", "name": "test cpu", "fingerprint": "fp-1"}}

    def close(self) -> None:
        pass


def _lab_run(tmp_path: Path, worker: Any) -> tuple[Session, LabRun]:
    session = _session(tmp_path, write_lab_course(tmp_path / "labs"), worker)
    lesson = session.course.lessons["lab-l1"]
    return session, LabRun(session, lesson, lesson.labs[0], lang="en")


async def test_a_lab_run_posts_each_point_then_filed(tmp_path: Path) -> None:
    session, lab_run = _lab_run(tmp_path, SweepWorker())
    app = Heard(lab_run)
    async with app.run_test() as pilot:
        lab_run.start(parse_lab_prediction("5", "GFLOP/s", "en"))
        await wait_for(pilot, lambda: bool(app.of(LabRun.Filed)))
        assert [m.point.at() for m in app.of(LabRun.PointMeasured)] == [(32.0, 1.5), (96.0, 6.0)]
        [filed] = app.of(LabRun.Filed)
        [stored] = session.store.lab_runs()
        assert filed.filed.lab_run_id == stored.id and stored.prediction is not None
        assert stored.prediction.value == 5.0 and lab_run.state == "done"


async def test_escape_during_a_lab_run_posts_cancelled_and_stores_nothing(tmp_path: Path) -> None:
    session, lab_run = _lab_run(tmp_path, SweepWorker(wait_for_cancel=True))
    app = Heard(lab_run)
    async with app.run_test() as pilot:
        lab_run.start(parse_lab_prediction("5", "GFLOP/s", "en"))
        await wait_for(pilot, lambda: lab_run.run.running)
        await pilot.press("escape")
        await wait_for(pilot, lambda: bool(app.of(LabRun.Cancelled)))
        assert lab_run.state == "cancelled" and not app.of(LabRun.Filed) and not app.of(LabRun.Failed)
        assert session.store.lab_runs() == []


async def test_a_lab_run_that_fails_posts_failed_and_one_notice(tmp_path: Path) -> None:
    session, lab_run = _lab_run(tmp_path, FailingWorker())
    app = Heard(lab_run)
    async with app.run_test() as pilot:
        lab_run.start(parse_lab_prediction("5", "GFLOP/s", "en"))
        await wait_for(pilot, lambda: bool(app.of(LabRun.Failed)))
        [failed] = app.of(LabRun.Failed)
        assert failed.failure.code == "killed" and lab_run.state == "failed"
        assert [(n.kind, n.code) for n in app.of(WorkFailed)] == [("lab", "killed")]
        assert not app.of(LabRun.Filed) and session.store.lab_runs() == []
