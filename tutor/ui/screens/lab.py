"""The lab screen: the goal, the learner's prediction (asked before anything runs), the sweep measured live in the
measurement worker with its plot growing point by point, the telemetry panel beside it, and at the end a Lab
Notebook entry filed for the run.

The measurement itself runs in the worker process (:mod:`tutor.measure.worker`); this screen drives it from a
thread worker and never imports torch.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Footer, Header, Input, Label, ProgressBar, Static
from textual.worker import Worker

from tutor.content import Lab, Lesson
from tutor.i18n import Lang, t
from tutor.i18n.message import Message as Said
from tutor.i18n.numbers import format_number
from tutor.measure.errors import MeasureCancelled, MeasureError
from tutor.measure.phases import progress_text
from tutor.measure.registry import SWEEPS
from tutor.practice.failures import Failure, classify, stalled_text
from tutor.practice.lab_checks import read_lab, reading_lines
from tutor.practice.labs import LabInputError, LabPrediction, LabRunner, lab_question, parse_lab_prediction
from tutor.practice.roof_stamp import remeasured_text, roof_stamp
from tutor.progress.lease import LeaseCancelled, queue_text
from tutor.progress.notebook import load_entries, summarise_result, sweep_point, sweep_points
from tutor.progress.rows import LabResult
from tutor.progress.store_errors import StoreError
from tutor.results import BenchReport, RooflineReference, SweepPoint, device_label
from tutor.ui.keys import bindings, translate_bindings
from tutor.ui.layout import toggle_telemetry
from tutor.ui.messages import ProgressChanged
from tutor.ui.plain import PackMarkdown, plain, plain_line
from tutor.ui.roof_remeasure import RoofRemeasure
from tutor.ui.screens.base import TutorScreen, worker_cancel_event
from tutor.ui.screens.code import open_code
from tutor.ui.screens.exercise import roofline_note
from tutor.ui.widgets.lab_plot import LabPlot, PlotSeries
from tutor.ui.widgets.telemetry_panel import TelemetryPanel
from tutor.untrusted import clean, clean_line, widget_id


class LabScreen(RoofRemeasure, TutorScreen[None]):
    """One lab: predict, measure live, read the plot, file the notebook entry."""

    CSS_PATH = "../styles/lab.tcss"
    BINDINGS = bindings("back", "run", "notebook", "telemetry", "view_code", "remeasure_roof", back="cancel_or_back",
                        run="run_again", notebook="open_entry")

    # -- messages from the thread worker (attributes down, messages up) --------------------------------------

    @dataclass
    class Progress(Message):
        """The run advanced: a fraction done, a line of status, and possibly a new point of a series."""

        fraction: float | None
        text: str = ""
        point: SweepPoint | None = None
        said: Said | None = None

    @dataclass
    class Finished(Message):
        result: LabResult
        seconds: float

    @dataclass
    class Failed(Message):
        failure: Failure

        @property
        def cancelled(self) -> bool:
            return self.failure.state == "cancelled"

    @dataclass
    class Stalled(Message):
        seconds: float | None

    def __init__(self, lesson: Lesson, lab: Lab) -> None:
        super().__init__(id=widget_id("lab-", lab.id))
        self.lesson = lesson
        self.lab = lab
        self.prediction: LabPrediction | None = None
        self.state = "predict"  # predict → running → done | failed | cancelled
        self.result: LabResult | None = None
        self.lab_run_id: int | None = None
        self.entry_id: int | None = None
        self._measuring: Worker[None] | None = None
        self._thread_started = threading.Event()  # set by the measuring thread as it starts
        self._started_at = 0.0
        self._doctor_runs_before: int | None = None
        self._roof: RooflineReference | None = None
        """The roof the plot draws (the lab's result's, or the one F5 measured since)."""

    # -- layout ----------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        lab, lang = self.lab, self.lang
        sweep = SWEEPS.get(lab.run.name or "") if lab.run.op == "sweep" else None
        plot_kind = lab.run.name if sweep else ("roofline_points" if lab.run.op == "roofline" else lab.run.op)
        yield Header(show_clock=False)
        with Horizontal(id="lab-body"):
            with VerticalScroll(id="lab-main"):
                yield PackMarkdown(self._goal_markdown(), id="lab-goal")
                with Vertical(id="lab-predict"):
                    yield Label(plain(self._question()), id="lab-question")
                    with Horizontal(id="lab-predict-row"):
                        yield Input(
                            placeholder=self._placeholder(),
                            id="lab-prediction",
                        )
                        if lab.prediction_unit:
                            yield Label(plain_line(lab.prediction_unit), id="lab-unit")
                        yield Button(t("lab.predict.start", lang), id="lab-start", variant="primary")
                yield Static("", id="lab-locked", classes="muted")
                with Horizontal(id="lab-progress-row"):
                    yield ProgressBar(total=1.0, show_eta=False, id="lab-progress")
                    yield Static(t("lab.status.waiting", lang), id="lab-status")
                yield LabPlot(
                    plot_kind or "lines",
                    title=lab.title.get(lang),
                    x_label=self._axis_label("x"),
                    y_label=self._axis_label("y"),
                    lang=lang,
                    id="lab-plot",
                )
                with VerticalScroll(id="lab-result-box"):
                    yield PackMarkdown("", id="lab-result")
            with Vertical(id="telemetry-column"):
                yield TelemetryPanel(id="telemetry-panel")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = clean_line(self.lab.title.get(self.lang))
        # Only sweeps and the roofline have something to plot; the others show their figures.
        plotted = self.lab.run.op in ("sweep", "roofline")
        self.query_one("#lab-plot").display = plotted
        self.query_one("#lab-main").set_class(not plotted, "no-plot")
        self.query_one("#lab-progress-row").display = False
        self.query_one("#lab-result-box").display = False
        self.query_one("#lab-prediction", Input).focus()
        self._show_history()

    def _show_history(self) -> None:
        """Reopened: the last run of this lab (its points re-plotted from the stored result, its prediction, its
        notebook entry on N) until the learner predicts and measures again."""
        store = self.app.store
        runs = store.lab_runs(self.lab.id)
        if not runs:
            return
        last = runs[-1]
        if last.result is None:
            return
        result = last.result
        self.result = result
        prediction = last.prediction
        if prediction is not None and prediction.value is not None:
            self.query_one("#lab-plot", LabPlot).set_prediction(prediction.value, prediction.unit,
                                                                t("lab.plot.prediction", self.lang))
        self._show_result(result)
        entry = next((e for e in load_entries(store) if e.entry.lab_run_id == last.id), None)
        self.entry_id = entry.id if entry is not None else None
        self.lab_run_id = last.id
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(last.created_at))
        shown = prediction.text if prediction is not None else None
        self.query_one("#lab-locked", Static).update(
            Text(t("lab.history", self.lang, when=when, n=len(runs), prediction=str(shown or "—"))))
        self.refresh_bindings()

    def lang_changed(self, lang: Lang) -> None:
        plot = self.query_one("#lab-plot", LabPlot)
        plot.title = self.lab.title.get(lang)
        plot.x_label, plot.y_label = self._axis_label("x"), self._axis_label("y")
        if plot.prediction is not None:
            value, unit, _label = plot.prediction
            plot.prediction = (value, unit, t("lab.plot.prediction", lang))
        if self._roof is not None and plot.roofs:
            self._set_roofs(plot, self._roof)
        plot.lang = lang
        self.sub_title = clean_line(self.lab.title.get(lang))
        self.query_one("#lab-goal", PackMarkdown).update(self._goal_markdown())
        self.query_one("#lab-question", Label).update(plain(self._question()))
        self.query_one("#lab-prediction", Input).placeholder = self._placeholder()
        self.query_one("#lab-start", Button).label = t("lab.predict.start", lang)
        if self.prediction is not None:
            self.query_one("#lab-locked", Static).update(
                plain(t("lab.predict.locked", lang, prediction=self.prediction.describe(self.lang)))
            )
        if self.result is not None:
            self._show_result(self.result)

    def _goal_markdown(self) -> str:
        lab, lang = self.lab, self.lang
        parts = [f"## {clean_line(lab.title.get(lang))}", f"**{t('lab.goal', lang)}:** {lab.goal.get(lang)}"]
        if lab.procedure is not None:
            parts.append(lab.procedure.get(lang))
        return "\n\n".join(parts)

    def _question(self) -> str:
        return lab_question(self.lab, self.lang)

    def _placeholder(self) -> str:
        unit = self.lab.prediction_unit
        return t("lab.predict.placeholder_number", self.lang, unit=unit) if unit else t(
            "lab.predict.placeholder_text", self.lang
        )

    def _axis_label(self, axis: str) -> str:
        """The plot's ``x`` or ``y`` axis name in the learner's language (the roofline lab's are the
        roofline_points sweep's)."""
        run = self.lab.run
        name = run.name if run.op == "sweep" else "roofline_points"
        key = f"plot.axis.{name}.{axis}"
        worded = t(key, self.lang)
        if worded != key:
            return worded
        sweep = SWEEPS.get(name or "")  # a sweep the catalog does not word yet: the registry's own name
        return (sweep.x_label if axis == "x" else sweep.y_label) if sweep else ""

    # -- predict first -----------------------------------------------------------------------------------------

    @on(Input.Submitted, "#lab-prediction")
    @on(Button.Pressed, "#lab-start")
    def _lock_and_start(self) -> None:
        if self.state == "running":
            return
        if self.prediction is None:
            raw = self.query_one("#lab-prediction", Input).value
            try:
                self.prediction = parse_lab_prediction(raw, self.lab.prediction_unit, self.lang)
            except LabInputError as exc:
                self.notify(clean(str(exc)), severity="warning", markup=False)
                return
        self.query_one("#lab-predict").display = False
        self.query_one("#lab-plot", LabPlot).set_prediction(
            self.prediction.value, self.prediction.unit, t("lab.plot.prediction", self.lang)
        )
        self.query_one("#lab-locked", Static).update(
            plain(t("lab.predict.locked", self.lang, prediction=self.prediction.describe(self.lang)))
        )
        translate_bindings(self, self.lang)
        self.start_run()

    def start_run(self) -> None:
        """Run the lab's measurement (the prediction is locked by now)."""
        self.state = "running"
        self.result = None
        self.refresh_bindings()
        self._started_at = time.monotonic()
        self.query_one("#lab-progress-row").display = True
        self.query_one("#lab-result-box").display = False
        bar = self.query_one("#lab-progress", ProgressBar)
        bar.update(total=1.0, progress=0.0)
        self._set_status(t("lab.status.starting", self.lang))
        plot = self.query_one("#lab-plot", LabPlot)
        plot.clear()
        if self.lab.run.name == "working_set":
            from tutor.measure.device import cache_sizes  # sysfs only, no torch: mark the caches from the start

            caches = cache_sizes()
            levels = dict(caches["levels"])
            if caches.get("simulated"):  # a fake tree (TUTOR_SYSFS_ROOT): never drawn as the learner's caches
                levels = {t("lab.plot.simulated_level", self.lang, level=k): v for k, v in levels.items()}
            plot.set_caches(levels)
        if self.lab.run.op == "doctor":
            self._open_doctor_screen()
            return
        self._thread_started = threading.Event()
        self._measuring = self._measure()

    def _cancelling(self) -> bool:
        """Whether the learner has cancelled the run still going."""
        return self._measuring is not None and self._measuring.cancelled_event.is_set()  # set by Esc or by Textual

    def _set_status(self, text: str) -> None:
        self.query_one("#lab-status", Static).update(plain(text))

    # -- the measurement, in a thread worker --------------------------------------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False, group="lab")
    def _measure(self) -> None:
        self._thread_started.set()
        started = time.monotonic()
        cancel = worker_cancel_event()
        sampler = self.app.telemetry.sampler if self.app.telemetry is not None else None
        window = sampler.recording() if sampler is not None else contextlib.nullcontext(None)
        try:
            with window as recorded:
                runner = LabRunner(self.app.store, self._run_in_worker)
                result = runner.measure(self.lab, on_progress=self._on_worker_progress,
                                        on_point=self._on_worker_point, cancel_event=cancel, on_queue=self._on_queue)
            if recorded is not None:
                # the telemetry over the run's window, kept with the run like an exercise's measurement
                result = result.with_figures(telemetry={dev: s.as_dict() for dev, s in recorded.summary.items()})
        except (MeasureCancelled, LeaseCancelled):
            self.post_message(self.Failed(CANCELLED))
            return
        except StoreError as exc:  # the class's server could not give the lease
            self.post_message(self.Failed(Failure("store", exc.describe(self.lang))))
            return
        except MeasureError as exc:
            self.post_message(self.Failed(classify(exc)))
            return
        if cancel.is_set():
            self.post_message(self.Failed(CANCELLED))
            return
        self.post_message(self.Finished(result, time.monotonic() - started))

    def _on_worker_progress(self, fraction: float, said: Said) -> None:
        """Called in the thread worker for each progress event: forwarded to the UI as a message."""
        self.post_message(self.Progress(_fraction(fraction), said=said))

    def _on_queue(self, ahead: int) -> None:
        """In a class, while another learner holds the device (called in the thread worker)."""
        if ahead > 0 and not self._cancelling():
            self.post_message(self.Progress(None, queue_text(ahead, self.lang)))

    def _run_in_worker(self, request: dict[str, Any], **kw: Any) -> dict[str, Any]:
        """The worker's ``run`` with this screen's stall report."""
        result: dict[str, Any] = self.app.measure_worker.run(request, on_stall=self._on_worker_stall, **kw)
        return result

    def _on_worker_stall(self, seconds: float | None) -> None:
        """Called in the thread worker when no sign of life came for a while (None: it came back)."""
        self.post_message(self.Stalled(seconds))

    def on_lab_screen_stalled(self, message: Stalled) -> None:
        if self.state != "running" or self._cancelling():
            return
        self._set_status(stalled_text(message.seconds, self.lang) if message.seconds is not None
                         else t("lab.status.running", self.lang))

    def _on_worker_point(self, point: dict[str, Any]) -> None:
        """Called in the thread worker as soon as a sweep point is measured (the worker's JSON, read here into
        where it goes on the plot; a point without a position is not drawn)."""
        sp = sweep_point(self.lab.run.name or "", point)
        if sp is not None:
            self.post_message(self.Progress(None, "", sp))

    def work_failed(self, worker: Worker[object], failure: Failure) -> None:
        # An unexpected exception in the thread (a bug, not a measurement failure): the notice is shown already.
        if worker.group == "lab" and self.state == "running":
            self._run_ended(failure)

    def on_lab_screen_progress(self, message: Progress) -> None:
        if self.state != "running":
            return
        bar = self.query_one("#lab-progress", ProgressBar)
        if message.fraction is not None:
            bar.update(progress=max(0.0, min(1.0, message.fraction)))
        if message.text:  # a line of its own (the class's queue)
            self._set_status(message.text)
        elif message.said is not None or message.fraction is not None:
            note = roofline_note(message.said, self.lang) if message.said is not None else None
            self._set_status(t("lab.status.running", self.lang) + "\n"
                             + progress_text(message.fraction, message.said, self.lang) + (f"\n{note}" if note else ""))
        if message.point:
            self._plot_point(message.point)

    def _plot_point(self, sp: SweepPoint) -> None:
        x, y = sp.at()
        self.query_one("#lab-plot", LabPlot).add_point(
            series_label(sp, self.lab.run.name or "", self.lang),
            x,
            y,
            extrapolated=sp.extrapolated,
            name=sp.name,
            kind="scatter" if self.lab.run.name == "roofline_points" else "line",
        )

    # -- the roofline measured again on request (F5) ----------------------------------------------------------

    def roof_measure_call(self) -> Any:
        def call(request: dict[str, Any], progress: Any, cancel: Any) -> Any:
            return self._run_in_worker(request, on_progress=progress, cancel_event=cancel)

        return call

    def roof_status(self, text: str, fraction: float | None = None) -> None:
        self.query_one("#lab-progress-row").display = True
        if fraction is not None:
            self.query_one("#lab-progress", ProgressBar).update(progress=max(0.0, min(1.0, fraction)))
        self._set_status(text)
        self.refresh_bindings()

    def roof_remeasured(self, roof: RooflineReference) -> None:
        plot = self.query_one("#lab-plot", LabPlot)
        before = self._roof
        if plot.roofs:
            self._set_roofs(plot, roof)
        self._roof = roof
        self.query_one("#lab-progress", ProgressBar).update(progress=1.0)
        self._set_status(remeasured_text(before, roof, self.lang))

    def _set_roofs(self, plot: LabPlot, roof: RooflineReference) -> None:
        self._roof = roof
        plot.set_roofs(
            peak_bandwidth_gbs=roof.peak_bandwidth_gbs,
            peak_gflops=roof.peak_for(str(self.lab.run.params.get("dtype", "float32"))),
            label=t("lab.plot.roofline", self.lang),
            stamp=roof_stamp(roof, self.lang) or "",
        )

    def on_lab_screen_finished(self, message: Finished) -> None:
        if self.state != "running":
            return
        self.state = "done"
        self.refresh_bindings()
        self.query_one("#lab-progress", ProgressBar).update(progress=1.0)
        # filed first: a bench run is then compared with the previous run on its fingerprint, and the screen
        # shows that comparison (the lab's step 4), not the bare report
        self.result = self._file(message.result)
        self._show_result(self.result)
        self.action_open_entry()
        device = device_label(message.result.device, "?")
        self._set_status(t("lab.status.done", self.lang, device=device,
                           seconds=format_number(message.seconds, self.lang, ".1f")))

    def on_lab_screen_failed(self, message: Failed) -> None:
        if self.state != "running":
            return
        self._run_ended(message.failure)
        self.report_failure("lab", message.failure)

    def _run_ended(self, failure: Failure) -> None:
        """The run failed or was cancelled: nothing is stored; the locked prediction can be measured again."""
        if failure.state == "cancelled":
            self.state = "cancelled"
            self._set_status(t("lab.status.cancelled", self.lang))
        else:
            self.state = "failed"
            self._set_status(t("lab.status.failed", self.lang, reason=failure_text(failure, self.lang)))
        self.refresh_bindings()
        if self.prediction is None:
            self.query_one("#lab-predict").display = True
            self.query_one("#lab-prediction", Input).focus()
        else:
            # the prediction stays locked: the box is not offered for editing again; ctrl+r measures again
            self.query_one("#lab-main").focus()
        translate_bindings(self, self.lang)

    # -- the result ----------------------------------------------------------------------------------------------

    def _show_result(self, result: LabResult) -> None:
        plot = self.query_one("#lab-plot", LabPlot)
        final = plot_series_of(result, self.lang)
        if final:
            plot.set_series(final)
        device = result.device
        caches = dict(device.caches) if device is not None else {}
        if caches:
            plot.set_caches(caches)
        roof = result.roofline or (result.measurement.roofline if result.measurement is not None else None)
        if roof is not None:
            self._set_roofs(plot, roof)
        if result.bench is not None:
            body = bench_markdown(result.bench, self.lang)
        else:
            body = summarise_result(result, self.lang)
        # the prediction next to the result, the points that break the expected shape, the spread, the load
        reading = reading_lines(read_lab(self.lab, self.prediction, result), self.lab.run.name or "", self.lang)
        if reading:
            body += "\n\n" + "\n".join(f"- {line}" for line in reading)
        self.query_one("#lab-result", PackMarkdown).update(f"### {t('lab.result', self.lang)}\n\n{body}")
        self.query_one("#lab-result-box").display = True
        if not final and not plot.point_count and not plot.roofs:
            plot.display = False

    def _file(self, result: LabResult) -> LabResult:
        """Store the run (a bench run also as C0 evidence, compared with the previous one), tell the app progress
        changed; the result as filed (a bench run's with its comparison)."""
        filed = LabRunner(self.app.store).file(
            self.lesson, self.lab, self.prediction, result, self.lang
        )
        self.lab_run_id, self.entry_id = filed.lab_run_id, filed.entry_id
        self.post_message(ProgressChanged())
        self.notify(clean_line(t("lab.notice.filed", self.lang, lab=self.lab.title.get(self.lang))), timeout=4,
                    markup=False)
        return filed.result

    # -- actions ----------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open_entry":
            return self.entry_id is not None
        if action == "run_again":
            return self.state == "predict" or (self.state in ("done", "failed", "cancelled")
                                               and self.prediction is not None)
        if action == "view_code":
            return self.lab.run.op in ("workload", "sweep")
        if action == "remeasure_roof":  # not while the lab itself measures, one at a time
            return True if self.state != "running" and not self.roof_remeasuring else None
        return True

    def binding_label(self, key_id: str, lang: Lang) -> str | None:
        if key_id == "run":
            return t("lab.predict.start" if self.prediction is None else "key.rerun", lang)
        return None

    def action_view_code(self) -> None:
        open_code(self, self.lab.run.op, self.lab.run.name, self.lang)

    def action_cancel_or_back(self) -> None:
        if self.cancel_roof_remeasure():
            self._set_status(t("lab.notice.cancelled", self.lang))
            return
        if self.state == "running":
            if self._measuring is not None and not self._thread_started.is_set():
                # Its thread has not started: cancelling the worker's task now would drop the thread unrun, and
                # the screen would wait for an end that never comes (Esc right after Enter on a loaded machine).
                # The thread's own cancel signal is enough: it sees it as it starts and ends the run cancelled.
                self._measuring.cancelled_event.set()
            else:
                self.workers.cancel_group(self, "lab")  # the thread sees it through worker_cancel_event()
            self._set_status(t("lab.notice.cancelled", self.lang))
            return
        self.app.pop_screen()

    def action_run_again(self) -> None:
        if self.state == "predict":
            self._lock_and_start()
        elif self.state in ("done", "failed", "cancelled") and self.prediction is not None:
            self.start_run()

    def action_open_entry(self) -> None:
        if self.entry_id is None:
            return
        from tutor.ui.screens.notebook import NotebookScreen

        self.app.push_screen(NotebookScreen(entry_id=self.entry_id))

    def action_toggle_telemetry(self) -> None:
        toggle_telemetry(self)

    # -- doctor (the L2 lab) ---------------------------------------------------------------------------------

    def _open_doctor_screen(self) -> None:
        """The L2 lab: the doctor's own screen runs and records the diagnosis; back here, the newest run is the
        lab's result."""
        screen_class = _doctor_screen_class()
        self._doctor_runs_before = len(self.app.store.doctor_runs())
        self.app.push_screen(screen_class())

    def on_screen_resume(self) -> None:
        before = self._doctor_runs_before
        if before is None or self.state != "running":
            return
        self._doctor_runs_before = None
        runs = self.app.store.doctor_runs()
        if len(runs) > before:
            self.post_message(self.Finished(LabResult.of_doctor(runs[-1].report),
                                            time.monotonic() - self._started_at))
        else:
            self.post_message(self.Failed(CANCELLED))


CANCELLED = Failure("cancelled", "the measurement was cancelled")


def failure_text(failure: Failure, lang: Lang) -> str:
    """Why the run did not finish, for the status line (a class server's refusal comes worded already)."""
    return failure.detail if failure.code == "store" else failure.text(lang)


# -- the result's shape ----------------------------------------------------------------------------------------


def bench_markdown(bench: BenchReport, lang: Lang) -> str:
    """A ``tutor bench`` report as the lab shows it: the engine's Markdown report in the learner's language,
    without its H1."""
    from tutor.measure.bench_report import render_markdown

    return render_markdown(bench, bench.comparison, lang, title=False)


def _fraction(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def series_label(point: SweepPoint, sweep: str, lang: Lang) -> str:
    """A series' legend in ``lang``, worded from the point's own fields (its sweep, its ``series`` figure, whether
    it is extrapolated), never from the engine's English name for it."""
    base = point.values.get("series")
    if sweep == "naive_vs_numpy":
        key = "lab.series.extrapolated" if point.extrapolated else "lab.series.measured_of"
        return t(key, lang, series=clean_line(str(base or "python")))
    if sweep == "roofline_points":
        return t("lab.series.kernels", lang)
    return clean_line(str(base)) if base else t("lab.series.measured", lang)


def plot_series_of(result: LabResult, lang: Lang = "en") -> list[PlotSeries]:
    """The final series of a sweep result, in the shape :class:`LabPlot` draws."""
    series: dict[str, PlotSeries] = {}
    sweep = result.measurement.name or "" if result.measurement is not None else ""
    kind = "scatter" if sweep == "roofline_points" else "line"
    for p in sweep_points(result):
        label = series_label(p, sweep, lang)
        s = series.setdefault(label, PlotSeries(label, extrapolated=p.extrapolated, kind=kind))
        s.points.append(p.at())
        s.names.append(p.name)
    return list(series.values())


def _doctor_screen_class() -> type[TutorScreen[None]]:
    """The doctor's screen, which the L2 lab opens (imported when first opened; tests put a stand-in here)."""
    from tutor.ui.screens.doctor import DoctorScreen

    return DoctorScreen
