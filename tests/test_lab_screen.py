"""The lab screen, driven as a learner would: predict, measure (really, on the CPU), read the plot, file the entry;
cancel with Esc; a failed measurement is one notice and the app carries on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.lab import CancellingWorker, FailingWorker, write_lab_course
from tests.support.pilot import PATIENCE_S, RESPONSIVE_S, quiet, wait_timed
from tutor.content import load_course
from tutor.measure.phases import said
from tutor.practice.session import Session
from tutor.progress import ProgressStore
from tutor.progress.notebook import load_entries
from tutor.ui.app import TutorApp, make_app
from tutor.ui.messages import OpenLab
from tutor.ui.plain import PackMarkdown
from tutor.ui.screens.lab import LabScreen
from tutor.ui.screens.notebook import NotebookScreen
from tutor.ui.widgets.lab_plot import LabPlot


@pytest.fixture
def course_dir(tmp_path: Path) -> Path:
    return write_lab_course(tmp_path / "course")


@pytest.fixture
def app(course_dir: Path, tmp_path: Path) -> TutorApp:
    course = load_course(course_dir)
    assert not course.problems, course.problems
    return make_app(course=course, store=ProgressStore(tmp_path / "p.sqlite3"), lang="en", telemetry="host")


async def test_predict_measure_plot_and_file_the_entry(app: TutorApp) -> None:
    async with app.run_test(size=(160, 48)) as pilot:
        app.post_message(OpenLab("lab-l1", "lab-gemm"))
        await wait_timed(pilot, lambda: isinstance(app.screen, LabScreen), PATIENCE_S)
        screen = app.screen
        assert isinstance(screen, LabScreen)
        assert "How many GFLOP/s at N = 96?" in str(screen.query_one("#lab-question").render())

        # Predict first: nothing runs without a prediction.
        await pilot.press("enter")
        await quiet(pilot)  # a run, were one started, would be running or done by now
        assert screen.state == "predict" and not app.store.lab_runs()

        await pilot.press("2", "0", "enter")
        assert screen.state == "running"
        assert screen.prediction is not None and screen.prediction.value == 20.0
        await wait_timed(pilot, lambda: screen.state != "running", 60)
        assert screen.state == "done", screen.query_one("#lab-status").render()

        plot = screen.query_one("#lab-plot", LabPlot)
        assert plot.point_count == 2
        [series] = plot.series.values()
        assert [x for x, _ in series.points] == [32.0, 96.0]
        assert all(y > 0 for _, y in series.points)

        [run] = app.store.lab_runs()
        assert run.lab_id == "lab-gemm" and run.lesson_id == "lab-l1"
        assert run.prediction is not None and run.prediction.value == 20.0 and run.prediction.unit == "GFLOP/s"
        assert run.result is not None and run.result.measurement is not None
        assert run.result.measurement.name == "gemm_sizes" and run.fingerprint
        await wait_timed(pilot, lambda: "lab-gemm" in app.marks.lab_runs, PATIENCE_S)  # ProgressChanged reached the app

        # The notebook opens on the new entry, pre-filled. It is app.screen as soon as it is pushed; its entry is
        # shown once it has mounted, which a loaded machine can leave for later.
        await wait_timed(pilot, lambda: isinstance(app.screen, NotebookScreen) and app.screen.current is not None,
                         PATIENCE_S)
        [stored] = load_entries(app.store)
        assert stored.entry.lab_run_id == run.id
        # the lab's hypothesis is the prompt of an empty editor, not text the learner would type after
        assert stored.entry.hypothesis == "" and stored.entry.next_question == ""
        notebook = app.screen
        hypothesis = notebook.query_one("#field-hypothesis")
        assert hypothesis.placeholder == "Big matrices reuse the cache." and hypothesis.text == ""
        assert notebook.query_one("#field-next_question").placeholder == "And in float64?"
        assert "→ 20.0 GFLOP/s" in stored.entry.prediction
        # which N is fastest is the machine's answer (on a loaded 2-core VM, N = 32 sometimes wins): only the shape
        assert screen.result is not None and screen.result.measurement is not None
        best = max(screen.result.measurement.points, key=lambda p: p.values["gflops"])
        assert f"GFLOP/s at N = {best.values['n']}." in stored.entry.result and "(cpu)" in stored.entry.setup

        # The learner explains the gap and saves.
        notebook.query_one("#field-gap").focus()
        await pilot.press(*"too small", "ctrl+s")
        await wait_timed(pilot, lambda: load_entries(app.store)[0].entry.gap == "too small", PATIENCE_S)

        await pilot.press("escape")
        await wait_timed(pilot, lambda: app.screen is screen, PATIENCE_S)


async def test_escape_cancels_within_a_second(app: TutorApp) -> None:
    async with app.run_test(size=(160, 48)) as pilot:
        app.post_message(OpenLab("lab-l1", "lab-ws"))
        await wait_timed(pilot, lambda: isinstance(app.screen, LabScreen), PATIENCE_S)
        screen = app.screen
        assert isinstance(screen, LabScreen)
        await pilot.press(*"flat until L2", "enter")
        plot = screen.query_one("#lab-plot", LabPlot)
        assert plot.caches  # the cache sizes are marked before the first point
        await wait_timed(pilot, lambda: plot.point_count >= 2, 60)  # points arrive while it runs

        await pilot.press("escape")
        took = await wait_timed(pilot, lambda: screen.state != "running", PATIENCE_S)
        assert screen.state == "cancelled"
        assert took < RESPONSIVE_S
        assert not app.store.lab_runs() and not app.store.notebook_entries()
        assert app.screen is screen  # Esc cancelled; it did not leave

        await pilot.press("escape")
        await wait_timed(pilot, lambda: not isinstance(app.screen, LabScreen), PATIENCE_S)


async def test_escape_before_the_sweep_s_thread_starts_still_cancels(app: TutorApp) -> None:
    """Esc handled before the sweep's thread has started (Enter then Esc at once on a loaded machine): the run ends
    cancelled. Cancelling the worker's task there had dropped the thread before it ran, and the lab stayed
    "running" for good."""
    async with app.run_test(size=(160, 48)) as pilot:
        app.post_message(OpenLab("lab-l1", "lab-ws"))
        await wait_timed(pilot, lambda: isinstance(app.screen, LabScreen), PATIENCE_S)
        screen = app.screen
        assert isinstance(screen, LabScreen)
        await pilot.press(*"flat until L2")
        screen.action_run_again()
        screen.action_cancel_or_back()  # in the same turn of the event loop: the worker has not started its thread
        assert screen.state == "running"
        await wait_timed(pilot, lambda: screen.state != "running", PATIENCE_S)
        assert screen.state == "cancelled"
        assert not app.store.lab_runs() and app.screen is screen


async def test_a_failed_measurement_is_one_notice_and_the_app_carries_on(app: TutorApp) -> None:
    app.session.measure_worker = FailingWorker()
    async with app.run_test(size=(160, 48)) as pilot:
        app.post_message(OpenLab("lab-l1", "lab-gemm"))
        await wait_timed(pilot, lambda: isinstance(app.screen, LabScreen), PATIENCE_S)
        screen = app.screen
        assert isinstance(screen, LabScreen)
        await pilot.press("5", "enter")
        await wait_timed(pilot, lambda: screen.state != "running", PATIENCE_S)
        assert screen.state == "failed"
        notices = [n.message for n in app._notifications]
        assert sum("killed (SIGKILL)" in m for m in notices) == 1
        assert screen.query_one("#lab-plot", LabPlot).point_count == 1  # what arrived before the crash is kept
        assert not app.store.lab_runs()

        # The prediction stays locked; the learner can run again (here it is cancelled by the stand-in).
        app.session.measure_worker = CancellingWorker()
        await pilot.press("ctrl+r")
        await wait_timed(pilot, lambda: screen.state not in ("failed", "running"), PATIENCE_S)
        assert screen.state == "cancelled" and screen.prediction is not None and screen.prediction.value == 5.0


OTHER_LABS = """\
  - id: lab-doctor
    title: {es: "Lab: doctor", en: "Lab: doctor"}
    goal: {es: "Diagnóstico.", en: "Diagnosis."}
    run: {op: doctor}
  - id: lab-bench
    title: {es: "Lab: bench, dos veces", en: "Lab: bench, twice"}
    goal: {es: "Dos pasadas.", en: "Two passes."}
    run: {op: bench, params: {mode: quick}}
"""

BENCH_REPORT = {
    "schema": "gpu-tutor/bench/v1", "kind": "bench", "mode": "quick", "created_at": 0.0, "duration_s": 40.0,
    "device": {"kind": "cpu", "name": "AMD EPYC", "fingerprint": "fp1", "fingerprint_fields": {"torch_threads": 2}},
    "env": {"torch": "2.13.0+cpu", "python": "3.11.7"},
    "headline": {"peak_bandwidth_gbs": 30.0, "peak_flops_tflops": {"float32": 0.15}, "ridge_flops_per_byte": 5.0,
                 "decode_tokens_per_s": 900.0, "decode_bound_tokens_per_s": 1500.0, "train_tokens_per_s": 3000.0,
                 "mfu": 0.4},
    "cv": {}, "notes": [], "warnings": [],
}


class _BenchWorker(FailingWorker):
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def run(self, request: dict[str, Any], on_progress: Any = None, **_: Any) -> dict[str, Any]:
        self.requests.append(request)
        on_progress(1.0, said("measure.progress.bench_done"))
        return dict(BENCH_REPORT)


@pytest.fixture
def labs_app(course_dir: Path, tmp_path: Path) -> TutorApp:
    lesson = course_dir / "lessons" / "lab-l1.yaml"
    lesson.write_text(lesson.read_text(encoding="utf-8") + OTHER_LABS, encoding="utf-8")
    return make_app(course=load_course(course_dir), store=ProgressStore(tmp_path / "p.sqlite3"), lang="en",
                    telemetry="host")


async def test_the_bench_lab_is_a_bench_run_compared_with_the_previous_one(labs_app: TutorApp) -> None:
    app = labs_app
    worker = app.session.measure_worker = _BenchWorker()
    async with app.run_test(size=(160, 48)) as pilot:
        for attempt in (1, 2):
            app.post_message(OpenLab("lab-l1", "lab-bench"))
            await wait_timed(pilot, lambda: isinstance(app.screen, LabScreen), PATIENCE_S)
            screen = app.screen
            assert isinstance(screen, LabScreen)
            await pilot.press("3", "0", "enter")
            await wait_timed(pilot, lambda: isinstance(app.screen, NotebookScreen), PATIENCE_S)
            assert len(app.store.bench_runs("fp1")) == attempt
            await pilot.press("escape")  # notebook → lab: its result is the run as filed, compared on the 2nd
            await wait_timed(pilot, lambda lab=screen: app.screen is lab, PATIENCE_S)
            shown = screen.query_one("#lab-result", PackMarkdown).source
            assert "| peak bandwidth | 30.0 | GB/s |" in shown
            assert ("the two passes agree within 5 %" in shown) == (attempt == 2)
            assert ("No previous run on this fingerprint" in shown) == (attempt == 1)
            await pilot.press("escape")  # lab → lesson list
            await wait_timed(pilot, lambda: not isinstance(app.screen, LabScreen | NotebookScreen), PATIENCE_S)
    assert worker.requests[0] == {"op": "bench", "mode": "quick"}
    first, second = (r.report for r in app.store.bench_runs("fp1"))
    assert first is not None and first.comparison is None and first.compared
    assert second is not None and second.comparison is not None and second.comparison.agree
    entries = load_entries(app.store)
    assert "the two passes agree within 5 %" in entries[-1].entry.result
    assert "| peak bandwidth | 30.0 | GB/s |" in entries[-1].entry.result


async def test_the_doctor_lab_files_the_doctor_screens_run(labs_app: TutorApp,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.screen import Screen

    report = {"schema": "gpu-tutor/doctor/v1", "passed": True, "headline": "No NVIDIA GPU found.",
              "checks": [{"id": "torch", "status": "ok", "seen": "torch 2.13.0+cpu", "fix": ""}],
              "fingerprint": {"id": "abc", "device_kind": "cpu", "device": "AMD EPYC"}}

    class FakeDoctorScreen(Screen[None]):
        def __init__(self, session: Session) -> None:
            super().__init__()
            self.session = session

        def on_mount(self) -> None:
            self.session.store.record_doctor_run(passed=True, report=report)
            self.app.pop_screen()

    monkeypatch.setattr("tutor.ui.screens.lab._doctor_screen_class", lambda: FakeDoctorScreen)
    app = labs_app
    async with app.run_test(size=(160, 48)) as pilot:
        app.post_message(OpenLab("lab-l1", "lab-doctor"))
        await wait_timed(pilot, lambda: isinstance(app.screen, LabScreen), PATIENCE_S)
        await pilot.press(*"it passes on the CPU", "enter")
        await wait_timed(pilot, lambda: isinstance(app.screen, NotebookScreen), PATIENCE_S)
    [run] = app.store.lab_runs()
    assert run.lab_id == "lab-doctor" and run.fingerprint == "abc"
    assert run.result is not None and run.result.kind == "doctor" and run.result.doctor is not None
    [entry] = load_entries(app.store)
    assert "✓ **torch**" in entry.entry.result and "`tutor doctor`" in entry.entry.setup


async def test_the_plot_never_takes_the_app_down() -> None:
    from textual.app import App, ComposeResult

    class PlotApp(App[None]):
        def compose(self) -> ComposeResult:
            yield LabPlot("roofline_points", title="roofline", x_label="FLOP/B", y_label="GFLOP/s")

    app = PlotApp()
    async with app.run_test(size=(40, 12)) as pilot:
        plot = app.query_one(LabPlot)
        plot.add_point("kernels (measured)", 0.16, 4.0, kind="scatter", name="triad")  # a lone point, log-log
        plot.set_roofs(peak_bandwidth_gbs=30.0, peak_gflops=100.0)
        plot.set_prediction(40.0, "GB/s")
        await quiet(pilot)  # drawn
        plot.add_point("kernels (measured)", float("nan"), 1.0)  # ignored
        plot.add_point("kernels (measured)", -1.0, 1.0)  # ignored
        await quiet(pilot)  # drawn again
        assert plot.point_count == 1
        assert app.is_running


async def test_shift_n_opens_the_notebook_from_the_map(app: TutorApp) -> None:
    async with app.run_test(size=(160, 48)) as pilot:
        await quiet(pilot)
        await pilot.press("N")
        await wait_timed(pilot, lambda: isinstance(app.screen, NotebookScreen), PATIENCE_S)
        assert "The notebook is empty" in str(app.screen.query_one("#notebook-empty").render())
        await pilot.press("escape")
        await wait_timed(pilot, lambda: not isinstance(app.screen, NotebookScreen), PATIENCE_S)
        assert any(c.title == "Lab Notebook" for c in app.get_system_commands(app.screen))
