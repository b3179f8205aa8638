"""The exercise screen: predict, lock, measure, reveal.

The prediction (a choice or a number with its unit, and a confidence) is locked — stored — before the Measure step
is available. The measurement runs in a thread worker that calls the app's warm :class:`MeasureWorker` with the
worker's cancel signal (Esc cancels the worker; the measurement stops within a second) while the telemetry panel
stays live. The reveal shows the measured figures with
their spread, the roofline chart with the workload's point and the learner's guess, the verdict, the score, where
the truth came from and the explanation filled in with this run's numbers. The flow itself lives in
:class:`tutor.practice.ExerciseRunner`, shared with ``tutor exercise run``.
"""

from __future__ import annotations

import threading
import time
from functools import partial
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Footer, Header, Input, Label, ProgressBar, RadioButton, RadioSet, Static
from textual.worker import Worker

from tutor.content import Course, Exercise
from tutor.grading import Prediction, PredictionError, choices_of, parse_prediction
from tutor.grading.predict import confidence_floor_of, unit_read
from tutor.grading.units import format_value
from tutor.i18n import Lang, t
from tutor.i18n.message import Message as Said
from tutor.i18n.numbers import decimal
from tutor.measure.phases import is_roofline, progress_text
from tutor.practice import AttemptFailed, ExerciseRunner, Outcome
from tutor.practice.failures import Failure, failure_text, stalled_text
from tutor.practice.reveal import build_reveal, describe_prediction
from tutor.practice.roof_stamp import remeasured_text
from tutor.practice.runner import MeasureFn
from tutor.practice.sizing import setup_line
from tutor.progress.rows import Attempt
from tutor.results import Measurement, RooflineReference
from tutor.telemetry import Sampler
from tutor.ui.keys import bindings
from tutor.ui.layout import toggle_telemetry
from tutor.ui.messages import OpenExercise, ProgressChanged
from tutor.ui.plain import PackMarkdown, plain, plain_line, styled
from tutor.ui.roof_remeasure import RoofRemeasure
from tutor.ui.screens.base import TutorScreen, worker_cancel_event
from tutor.ui.screens.code import open_code
from tutor.ui.widgets.roofline_chart import RooflineChart, RooflinePoint
from tutor.ui.widgets.telemetry_panel import TelemetryPanel
from tutor.untrusted import clean, clean_line, widget_id


def device_requested() -> str:
    return "auto"


class ExerciseScreen(RoofRemeasure, TutorScreen[None]):
    """One predict-then-measure exercise."""

    CSS_PATH = "../styles/exercise.tcss"
    BINDINGS = bindings("back", "lock", "run", "hint", "telemetry", "next_pending", "view_code", "remeasure_roof",
                        back="back_or_cancel", run="measure")

    class Progress(Message):
        """Progress of the measurement (posted from the thread worker; newer replaces older)."""

        def __init__(self, fraction: float, said: Said) -> None:
            super().__init__()
            self.fraction = fraction
            self.said = said

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, ExerciseScreen.Progress)

    class Queue(Message):
        """In a class: how many learners are ahead for the shared device (0: this measurement has it)."""

        def __init__(self, ahead: int) -> None:
            super().__init__()
            self.ahead = ahead

    class Measured(Message):
        def __init__(self, result: Measurement | None, telemetry: dict[str, Any] | None) -> None:
            super().__init__()
            self.result = result
            self.telemetry = telemetry

    class Failed(Message):
        def __init__(self, reason: str, state: str, code: str | None = None) -> None:
            super().__init__()
            self.reason = reason
            self.state = state
            self.code = code or ("cancelled" if state == "cancelled" else "failed")

    class Stalled(Message):
        """No sign of life from the measurement for ``seconds`` (None: it came back)."""

        def __init__(self, seconds: float | None) -> None:
            super().__init__()
            self.seconds = seconds

    def __init__(
        self,
        course: Course,
        exercise: Exercise,
        *,
        pass_number: int = 1,
        measure: MeasureFn | None = None,
        device: str = "auto",
        budget_s: float | None = None,
    ) -> None:
        super().__init__(id=widget_id("exercise-", exercise.id))
        self.course = course
        self.exercise = exercise
        self.pass_number = pass_number
        self.device = device
        self.budget_s = budget_s
        self._measure_fn = measure
        self.state = "predicting"  # predicting → locked → running → revealed
        self.attempt_id: int | None = None
        self.prediction: Prediction | None = None
        self.hints_shown = 0
        self.outcome: Outcome | None = None
        self._measuring: Worker[None] | None = None
        self._thread_started = threading.Event()  # set by the measuring thread as it starts
        self._remeasured_roof: RooflineReference | None = None
        """The roof F5 measured after the reveal (the chart draws it from then on)."""
        self.stalled_for: float | None = None
        """Seconds without a sign of life from the running measurement when it was found stalled, else None."""

    # -- layout -----------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        ex = self.exercise
        yield Header(show_clock=False)
        with Horizontal(id="exercise-body"):
            with VerticalScroll(id="exercise-main"):
                yield Static(id="ex-title")
                yield PackMarkdown(id="ex-prompt")
                yield Static(id="ex-setup")
                yield Static(id="ex-hints")
                with Vertical(id="ex-unfinished"):
                    yield Static(id="ex-unfinished-text")
                    with Horizontal(classes="ex-row"):
                        yield Button(id="ex-resume", variant="warning")
                        yield Button(id="ex-discard")
                with Vertical(id="ex-predict"):
                    yield Label(id="ex-prediction-label")
                    choices = choices_of(ex)
                    if choices:
                        with RadioSet(id="ex-choices"):
                            for c in choices:
                                yield RadioButton(plain_line(c.label.get(self.lang)), id=widget_id("choice-", c.id))
                    if ex.kind == "number":
                        with Horizontal(classes="ex-row"):
                            yield Input(placeholder=decimal(0, self.lang, 1), id="ex-number", type="text")
                            yield Label(plain_line(ex.unit or ""), id="ex-unit")
                    if ex.kind == "fit":
                        yield Label(id="ex-size-label")
                        with Horizontal(classes="ex-row"):
                            yield Input(placeholder="GB", id="ex-size")
                            yield Label("GB", id="ex-size-unit")
                    yield Label(id="ex-confidence-label")
                    with Horizontal(classes="ex-row"):
                        yield Input(value="80", id="ex-confidence")
                        yield Label("%")
                    with Horizontal(id="ex-buttons"):
                        yield Button(id="ex-lock", variant="primary")
                        yield Button(id="ex-measure", variant="success", disabled=True)
                        yield Button(id="ex-hint-button")
                yield Static(id="ex-status")
                yield ProgressBar(id="ex-progress", total=1.0, show_eta=False)
                yield Button(id="ex-cancel", variant="error")
                with Vertical(id="ex-reveal"):
                    yield Static(id="ex-verdict")
                    yield Static(id="ex-figures")
                    yield RooflineChart(id="ex-chart")
                    yield PackMarkdown(id="ex-explanation")
                    yield Button(id="ex-next", variant="primary")
            with Vertical(id="telemetry-column"):
                yield TelemetryPanel(id="telemetry-panel")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#ex-progress").display = False
        self.query_one("#ex-cancel").display = False
        self.query_one("#ex-reveal").display = False
        self._show_unfinished()
        self.query_one("#ex-hints").display = False
        self._render_texts()
        first = self.query("#ex-choices") or self.query("#ex-number")
        if first:
            first.first().focus()

    def lang_changed(self, lang: Lang) -> None:
        self._render_texts()
        self._show_unfinished()
        if self.outcome is not None:
            self._show_reveal(self.outcome)

    def _render_texts(self) -> None:
        ex, lang = self.exercise, self.lang
        pass_text = f" · {t('ex.pass', lang, n=self.pass_number)}" if self.pass_number > 1 else ""
        self.query_one("#ex-title", Static).update(styled("[b]$title[/b]$suffix", title=ex.title.get(lang),
                                                          suffix=pass_text))
        self.query_one("#ex-prompt", PackMarkdown).update(ex.prompt.get(lang))
        self.query_one("#ex-setup", Static).update(self._setup_text())
        self.query_one("#ex-prediction-label", Label).update(t("ex.prediction", lang))
        low = round(confidence_floor_of(ex) * 100)  # chance: 1/options for a choice among three or more
        self.query_one("#ex-confidence-label", Label).update(t("ex.confidence", lang, low=low))
        if ex.kind == "number":
            self.query_one("#ex-number", Input).placeholder = decimal(0, lang, 1)
        if ex.kind == "fit":
            self.query_one("#ex-size-label", Label).update(t("ex.size_gb", lang))
        self.query_one("#ex-lock", Button).label = t("ex.lock", lang)
        self.query_one("#ex-measure", Button).label = t("ex.measure" if ex.measure else "ex.reveal", lang)
        self.query_one("#ex-cancel", Button).label = t("ex.cancel", lang)
        self.query_one("#ex-next", Button).label = f"{t('ex.next_pending', lang)} (ctrl+n)"
        hint = self.query_one("#ex-hint-button", Button)
        hint.label = t("ex.hint", lang)
        hint.display = self.pass_number == 1 and bool(ex.hints)
        for c in choices_of(ex):
            for button in self.query(f"#{widget_id('choice-', c.id)}").results(RadioButton):
                button.label = plain_line(c.label.get(lang))
        self._render_hints()

    def _setup_text(self) -> Content:
        ex, lang = self.exercise, self.lang
        lines: list[Content] = []
        field = "[b]$label:[/b] $value"
        call = ex.measure
        if call is not None:
            what = call.name or call.op
            params = ", ".join(f"{k}={v}" for k, v in call.params.items())
            lines.append(styled(field, label=t("ex.workload", lang), value=f"{what}({params})"))
            lines.append(styled(field, label=t("ex.device", lang), value=self._device_text()))
            setup = setup_line(ex, lang)
            if setup:
                lines.append(styled("[i]$setup[/i]", setup=setup))
        else:
            lines.append(plain(t("ex.nothing_measured", lang)))
        if ex.target is not None:
            lines.append(styled(field, label=t("ex.target", lang), value=ex.target.get(lang)))
        if ex.capacity_gb is not None:
            lines.append(styled(field, label=t("ex.capacity", lang), value=format_value(ex.capacity_gb, "GB")))
        if self.pass_number > 1:
            lines.append(styled("[i]$text[/i]", text=t("ex.no_hints_pass2", lang)))
        return Content("\n").join(lines)

    def _device_text(self) -> str:
        if self.device == "cpu":
            return "CPU"
        snap = self.app.telemetry_snapshot
        gpus = [d for d in snap.devices if d.kind != "host"] if snap is not None else []
        if gpus:
            return t("ex.device_gpu", self.lang, name=gpus[0].name)
        if snap is not None:
            return t("ex.device_cpu_only", self.lang)
        return t("ex.device_auto", self.lang)

    def _render_hints(self) -> None:
        box = self.query_one("#ex-hints", Static)
        hints = self.exercise.hints[: self.hints_shown]
        if not hints:
            box.display = False
            return
        box.display = True
        total = len(self.exercise.hints)
        box.update(Content("\n").join(
            styled("[b]$label:[/b] $hint", label=t("ex.hint_n", self.lang, n=i + 1, total=total), hint=h.get(self.lang))
            for i, h in enumerate(hints)))

    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one("#ex-status", Static)
        status.update(plain(text))
        status.set_class(error, "error")
        if error:  # at 80×24 the line sits below the form: a refusal the learner cannot see is no answer
            status.call_after_refresh(status.scroll_visible, animate=False)

    # -- actions ----------------------------------------------------------------------------------------------

    def action_hint(self) -> None:
        if self.pass_number > 1:
            self.notify(t("ex.no_hints_pass2", self.lang), markup=False)
            return
        if self.hints_shown >= len(self.exercise.hints):
            self.notify(t("ex.no_more_hints", self.lang), markup=False)
            return
        self.hints_shown += 1
        self._render_hints()
        if self.attempt_id is not None:
            self.app.store.record_hints(self.attempt_id, self.hints_shown)

    def _typed_prediction(self) -> tuple[str, str | None, str]:
        ex = self.exercise
        text = ""
        if ex.kind == "number":
            text = self.query_one("#ex-number", Input).value
        else:
            radio = self.query_one("#ex-choices", RadioSet)
            pressed = radio.pressed_button
            by_widget = {widget_id("choice-", c.id): c.id for c in choices_of(ex)}
            text = by_widget.get(pressed.id or "", "") if pressed is not None else ""
        size = self.query_one("#ex-size", Input).value.strip() or None if ex.kind == "fit" else None
        return text, size, self.query_one("#ex-confidence", Input).value

    def action_lock(self) -> None:
        if self.state not in ("predicting",):
            return
        text, size, confidence = self._typed_prediction()
        try:
            prediction = parse_prediction(self.exercise, text, confidence, size)
        except PredictionError as exc:
            self._status(exc.describe(self.lang), error=True)
            return
        runner = self._runner()
        self.attempt_id = runner.lock(self.exercise, prediction, pass_number=self.pass_number,
                                      hints_used=self.hints_shown)
        read_as = unit_read(self.exercise, text)
        if read_as is not None:  # "14000 MB" for a GB exercise: say that it is graded as 14 GB
            self.notify(clean_line(read_as.render(self.lang)), timeout=8)
        self.prediction = prediction
        self.state = "locked"
        for widget in self.query("#ex-predict Input, #ex-predict RadioSet"):
            widget.disabled = True
        self.query_one("#ex-lock", Button).disabled = True
        measure = self.query_one("#ex-measure", Button)
        measure.disabled = False
        measure.focus()
        self._status(t("ex.locked", self.lang, id=self.attempt_id))
        self.refresh_bindings()
        self.post_message(ProgressChanged())

    def _inconclusive(self) -> bool:
        """Revealed, and the run could not decide: the same prediction may be measured again."""
        return self.state == "revealed" and self.outcome is not None and not self.outcome.verdict.counted

    def action_measure(self) -> None:
        if self.state == "predicting":
            self._status(t("ex.lock_first", self.lang), error=True)
            return
        if self._inconclusive() and self.prediction is not None:
            # measured again with the prediction already locked: a new attempt, never a new answer
            self.attempt_id = self._runner().lock(self.exercise, self.prediction, pass_number=self.pass_number,
                                                  hints_used=self.hints_shown)
            self.outcome = None
            self.state = "locked"
            self._status(t("ex.measure_again", self.lang, id=self.attempt_id))
            self.post_message(ProgressChanged())
        if self.state != "locked":
            return
        self.query_one("#ex-measure", Button).disabled = True
        if self.exercise.measure is None:
            self._grade(None, None)
            return
        self.state = "running"
        bar = self.query_one("#ex-progress", ProgressBar)
        bar.display = True
        bar.update(total=1.0, progress=0.0)
        self.stalled_for = None
        self.query_one("#ex-cancel").display = True
        self._status(t("ex.running", self.lang, device=self._device_text()))
        self._thread_started = threading.Event()
        self._measuring = self._run_measurement()

    def _cancelling(self) -> bool:
        """Whether the learner has cancelled the measurement still running."""
        return self._measuring is not None and self._measuring.cancelled_event.is_set()  # set by Esc or by Textual

    def action_back_or_cancel(self) -> None:
        if self.cancel_roof_remeasure():
            self._status(t("ex.cancelling", self.lang))
            return
        if self.state == "running":
            if self._measuring is not None and not self._thread_started.is_set():
                # Its thread has not started: cancelling the worker's task now would drop the thread unrun, and
                # the screen would wait for an end that never comes (Esc right after ctrl+r on a loaded machine).
                # The thread's own cancel signal is enough: it sees it as it starts and ends the run cancelled.
                self._measuring.cancelled_event.set()
            else:
                self.workers.cancel_group(self, "exercise")  # the thread sees it through worker_cancel_event()
            self._status(t("ex.cancelling", self.lang))
            return
        self.app.pop_screen()

    # -- an attempt locked and never measured (the tutor was killed, or the learner left after locking) --------

    def _unfinished(self) -> Attempt | None:
        from tutor.practice import unfinished

        try:
            found = unfinished.unfinished(self.app.store, self.exercise.id)
        except Exception:  # the store is unreadable: the screen still works
            return None
        found = [a for a in found if a.pass_number == self.pass_number and a.id != self.attempt_id]
        return found[-1] if found else None

    def _show_unfinished(self) -> None:
        from tutor.practice.unfinished import describe

        box = self.query_one("#ex-unfinished")
        attempt = self._unfinished() if self.state == "predicting" else None
        box.display = attempt is not None
        if attempt is None:
            return
        self.query_one("#ex-unfinished-text", Static).update(describe(attempt, self.lang, "unfinished.screen"))
        self.query_one("#ex-resume", Button).label = t("unfinished.resume", self.lang)
        self.query_one("#ex-discard", Button).label = t("unfinished.discard", self.lang)

    def action_resume_unfinished(self) -> None:
        """Measure the unfinished attempt now, graded against the prediction it stored."""
        from tutor.practice import unfinished

        attempt = self._unfinished()
        if attempt is None or self.state != "predicting":
            return
        try:
            unfinished.take(self.app.store, attempt.id, self.exercise.id)
        except unfinished.UnfinishedError as exc:
            self._status(str(exc), error=True)
            self._show_unfinished()
            return
        self.attempt_id = attempt.id
        self.prediction = attempt.prediction
        self.hints_shown = max(self.hints_shown, attempt.hints_used)
        self.state = "locked"
        for widget in self.query("#ex-predict Input, #ex-predict RadioSet"):
            widget.disabled = True
        self.query_one("#ex-lock", Button).disabled = True
        self.query_one("#ex-unfinished").display = False
        self.action_measure()

    def action_discard_unfinished(self) -> None:
        from tutor.practice import unfinished

        attempt = self._unfinished()
        if attempt is None:
            return
        try:
            unfinished.discard(self.app.store, attempt.id)
        except unfinished.UnfinishedError as exc:
            self._status(str(exc), error=True)
        else:
            self.notify(t("unfinished.discarded", self.lang, id=attempt.id), timeout=4)
            self.post_message(ProgressChanged())
        self._show_unfinished()

    def on_unmount(self) -> None:
        # Textual cancels this screen's workers as it goes: a running measurement stops within a second.
        if self.state == "locked" and self.attempt_id is not None:
            # locked and never measured: shown as unfinished from now on (resume or discard it)
            from tutor.practice import unfinished

            unfinished.release(self.app.store, self.attempt_id)

    def binding_label(self, key_id: str, lang: Lang) -> str | None:
        """The footer's words for this exercise: a diagnose exercise (nothing measured) says Reveal."""
        if key_id == "run":
            return t("ex.measure" if self.exercise.measure else "ex.reveal", lang)
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_pending":
            return self.state == "revealed"
        if action == "remeasure_roof":  # on the reveal of a measured exercise, one at a time
            if self.exercise.measure is None or self.exercise.measure.op == "doctor":
                return False
            return True if self.state == "revealed" and not self.roof_remeasuring else None
        if action == "view_code":
            return self.exercise.measure is not None
        if action == "hint":
            return self.pass_number == 1 and bool(self.exercise.hints)
        # after the reveal lock and run are shown disabled (dimmed), not silently ignored
        if action == "lock":
            return True if self.state == "predicting" else None
        if action == "measure":
            return True if self.state in ("predicting", "locked") or self._inconclusive() else None
        return True

    def action_next_pending(self) -> None:
        """From the reveal: open the next exercise in course order not passed yet (wrapping around)."""
        if self.state != "revealed":
            return
        following = next_pending_exercise(self.course, self.app.marks, self.exercise.id)
        if following is None:
            self.notify(t("ex.all_done", self.lang))
            return
        self.app.pop_screen()
        self.app.post_message(OpenExercise(following))

    def action_view_code(self) -> None:
        call = self.exercise.measure
        if call is not None:
            open_code(self, call.op, call.name, self.lang)

    def action_toggle_telemetry(self) -> None:
        toggle_telemetry(self)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ex-lock":
            self.action_lock()
        elif event.button.id == "ex-measure":
            self.action_measure()
        elif event.button.id == "ex-hint-button":
            self.action_hint()
        elif event.button.id == "ex-cancel":
            self.action_back_or_cancel()
        elif event.button.id == "ex-resume":
            self.action_resume_unfinished()
        elif event.button.id == "ex-discard":
            self.action_discard_unfinished()
        elif event.button.id == "ex-next":
            self.action_next_pending()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.state == "predicting":
            self.action_lock()

    # -- the measurement ----------------------------------------------------------------------------------

    def _sampler(self) -> Sampler | None:
        return self.app.telemetry.sampler if self.app.telemetry is not None else None

    def _runner(self) -> ExerciseRunner:
        sampler = self._sampler()

        def window(t0: float, t1: float) -> dict[str, Any] | None:
            if sampler is None:
                return None
            return {dev: s.as_dict() for dev, s in sampler.window_summary(t0, t1).items()}

        return ExerciseRunner(self.app.store, self._measure_fn or self._worker_measure,
                              telemetry_window=window)

    def _worker_measure(self, request: dict[str, Any], on_progress: Any,
                        cancel: threading.Event | None) -> dict[str, Any]:
        worker = self.app.measure_worker

        def on_stall(seconds: float | None) -> None:
            self.post_message(self.Stalled(seconds))

        return worker.run(request, on_progress=on_progress, cancel_event=cancel, on_stall=on_stall)

    @work(thread=True, exclusive=True, exit_on_error=False, group="exercise")
    def _run_measurement(self) -> None:
        self._thread_started.set()
        assert self.attempt_id is not None
        runner = self._runner()
        sampler = self._sampler()
        cancel = worker_cancel_event()

        def progress(fraction: float, said: Said) -> None:
            self.post_message(self.Progress(float(fraction), said))

        def queue(ahead: int) -> None:
            self.post_message(self.Queue(int(ahead)))

        try:
            if sampler is not None:
                with sampler.recording():
                    result, telemetry = runner.measure(self.exercise, self.attempt_id, device=self.device,
                                                       on_progress=progress, cancel=cancel,
                                                       budget_s=self.budget_s, on_queue=queue)
            else:
                result, telemetry = runner.measure(self.exercise, self.attempt_id, device=self.device,
                                                   on_progress=progress, cancel=cancel, budget_s=self.budget_s,
                                                   on_queue=queue)
        except AttemptFailed as exc:
            self.post_message(self.Failed(exc.reason, exc.state, exc.code))
            return
        self.post_message(self.Measured(result, telemetry))

    def work_failed(self, worker: Worker[object], failure: Failure) -> None:
        if worker.group == "exercise" and self.state == "running":
            self._measurement_ended(failure)

    def on_exercise_screen_progress(self, message: Progress) -> None:
        if self.state != "running":
            return
        self.query_one("#ex-progress", ProgressBar).update(progress=max(0.0, min(1.0, message.fraction)))
        if not self._cancelling() and self.stalled_for is None:
            note = roofline_note(message.said, self.lang)
            self._status(f"{t('ex.running', self.lang, device=self._device_text())}\n"
                         f"{progress_text(message.fraction, message.said, self.lang)}" + (f"\n{note}" if note else ""))

    def on_exercise_screen_queue(self, message: Queue) -> None:
        if self.state != "running" or self._cancelling():
            return
        from tutor.progress.lease import queue_text

        if message.ahead > 0:
            self._status(queue_text(message.ahead, self.lang))

    def on_exercise_screen_stalled(self, message: Stalled) -> None:
        if self.state != "running" or self._cancelling():
            return
        self.stalled_for = message.seconds
        if message.seconds is not None:
            self._status(stalled_text(message.seconds, self.lang), error=True)
            self.query_one("#ex-cancel", Button).focus()
        else:
            self._status(t("ex.running", self.lang, device=self._device_text()))

    def on_exercise_screen_measured(self, message: Measured) -> None:
        if self.state != "running":
            return
        self.query_one("#ex-progress", ProgressBar).update(progress=1.0)
        self._grade(message.result, message.telemetry)

    def on_exercise_screen_failed(self, message: Failed) -> None:
        if self.state != "running":
            return
        failure = Failure(message.code, message.reason)
        self._measurement_ended(failure)
        self.report_failure("exercise", failure)

    def _measurement_ended(self, failure: Failure) -> None:
        """The measurement failed or was cancelled: the prediction form is offered again, the reason shown."""
        self.state = "predicting"
        self.attempt_id = None
        self.stalled_for = None
        self.query_one("#ex-progress").display = False
        self.query_one("#ex-cancel").display = False
        for widget in self.query("#ex-predict Input, #ex-predict RadioSet"):
            widget.disabled = False
        self.query_one("#ex-lock", Button).disabled = False
        reason = clean(failure_text(failure.code, failure.detail, self.lang))
        self._status(t("ex.failed", self.lang, reason=reason), error=True)
        self.post_message(ProgressChanged())

    def _grade(self, result: Measurement | None, telemetry: dict[str, Any] | None) -> None:
        assert self.attempt_id is not None and self.prediction is not None
        try:
            outcome = self._runner().grade(self.exercise, self.attempt_id, self.prediction, result, telemetry,
                                           pass_number=self.pass_number)
        except AttemptFailed as exc:
            self.state = "running"
            self.on_exercise_screen_failed(self.Failed(exc.reason, exc.state, exc.code))
            return
        self.state = "revealed"
        self.outcome = outcome
        self.query_one("#ex-progress").display = False
        self.query_one("#ex-cancel").display = False
        self._status("")
        # The page takes the focus now (not deferred): the disabled Measure button passed it to a widget of the form
        # above, whose pending scroll-to-focus would otherwise win; PageUp/PageDown then read the reveal.
        self.set_focus(self.query_one("#exercise-main", VerticalScroll), scroll_visible=False)
        self._show_reveal(outcome)
        self.call_after_refresh(self._bring_reveal_into_view)
        self.post_message(ProgressChanged())

    def _bring_reveal_into_view(self, deadline: float | None = None) -> None:
        """Scroll the page so the reveal (below the prediction form) starts at its top, once it has been laid out.

        After a refresh is not enough: a refresh that falls inside a batch update (the explanation's Markdown mounts
        its blocks under ``app.batch_update()`` across awaits) runs its callbacks with the layout skipped, so the
        reveal, hidden until now, had no size yet and the scroll to it did nothing (the verdict stayed below the
        fold at 80×24, order- and load-dependent). So look again every 20 ms (for up to 5 s) until the reveal has
        its size, then scroll."""
        reveal = self.query_one("#ex-reveal")
        if not reveal.display or self.state != "revealed":
            return
        deadline = time.monotonic() + 5.0 if deadline is None else deadline
        if reveal.size.height == 0 and time.monotonic() < deadline:
            self.set_timer(0.02, partial(self.call_after_refresh, self._bring_reveal_into_view, deadline))
            return
        self.query_one("#exercise-main", VerticalScroll).scroll_to_widget(reveal, top=True, animate=False,
                                                                          immediate=True)

    # -- the reveal ---------------------------------------------------------------------------------------

    def _show_reveal(self, outcome: Outcome) -> None:
        lang = self.lang
        reveal = self.query_one("#ex-reveal")
        reveal.display = True
        second = self.pass_number > 1
        view = build_reveal(outcome, lang, first_pass_verdict=self._first_pass_verdict() if second else None,
                            reproduced=self._reproduced() if second else None)
        style = {"correct": "green", "partly": "yellow", "wrong": "red", "inconclusive": "yellow"}.get(view.verdict, "")
        # Text.assemble takes the parts as text (no markup); clean() takes out the control characters.
        verdict = Text.assemble((f"{clean_line(view.verdict_line.label)}: ", "bold"),
                                (clean_line(view.verdict_line.text), style))
        for f in view.fields:
            verdict.append("\n")
            verdict.append_text(Text.assemble((f"{clean_line(f.label)}: ", "bold"), clean(f.text)))
        for line in (view.feedback, view.reproduced):
            if line:
                verdict.append(f"\n{clean(line)}")
        self.query_one("#ex-verdict", Static).update(verdict)
        figures = Text()
        if view.measured_on is not None:
            figures = Text.assemble((f"{clean_line(view.measured_on.label)}: ", "bold"), clean(view.measured_on.text))
            for line in view.figures:
                figures.append(f"\n  {clean(line)}")
        self.query_one("#ex-figures", Static).update(figures)
        chart = self.query_one("#ex-chart", RooflineChart)
        m = outcome.measurement
        roof = m.roofline if m is not None else None
        chart.display = roof is not None
        if m is not None and roof is not None:
            chart.lang = lang
            chart.dtype = m.dtype
            chart.roofline = self._remeasured_roof or roof
            chart.points = tuple(chart_points(outcome, lang))
        self.query_one("#ex-explanation", PackMarkdown).update(f"### {view.explanation_title}\n\n{view.explanation}")
        self.query_one("#exercise-main", VerticalScroll).scroll_to_widget(reveal, animate=False, top=True)
        self.refresh_bindings()

    # -- the roofline measured again on request (F5) ----------------------------------------------------------

    def roof_measure_call(self) -> Any:
        return self._measure_fn or self._worker_measure

    def roof_device(self) -> str:
        return self.device

    def roof_status(self, text: str, fraction: float | None = None) -> None:
        bar = self.query_one("#ex-progress", ProgressBar)
        bar.display = self.roof_remeasuring
        if fraction is not None:
            bar.update(progress=max(0.0, min(1.0, fraction)))
        self._status(text)
        self.refresh_bindings()

    def roof_remeasured(self, roof: RooflineReference) -> None:
        chart = self.query_one("#ex-chart", RooflineChart)
        before = chart.roofline
        chart.roofline = self._remeasured_roof = roof
        self.query_one("#ex-progress").display = False
        self._status(remeasured_text(before, roof, self.lang))

    def _reproduced(self) -> bool:
        from tutor.progress.passes import exercise_status

        store = self.app.store
        return exercise_status(self.exercise.id, store.attempts(self.exercise.id)).reproduced

    def _first_pass_verdict(self) -> str | None:
        from tutor.progress.passes import exercise_status

        return exercise_status(self.exercise.id, self.app.store.attempts(self.exercise.id)).pass1_verdict


def roofline_note(said: Said, lang: Lang) -> str | None:
    """What the first measurement on a machine is doing while it measures the roofline (the engine says so with a
    roofline phase only then; a cached roofline is not measured again), else None."""
    return t("ex.roofline_first", lang) if is_roofline(said) else None


def next_pending_exercise(course: Course, marks: Any, current: str) -> str | None:
    """The id of the first exercise after ``current`` in course order (wrapping round) that is not passed."""
    order = [ex.id for lesson in course.ordered_lessons() for ex in course.exercises_of(lesson)]
    if current in order:
        i = order.index(current)
        order = order[i + 1:] + order[:i]
    return next((eid for eid in order if marks.exercise(eid) != "✓"), None)


def chart_points(outcome: Outcome, lang: Lang) -> list[RooflinePoint]:
    """The workload's measured point and, where it can be placed, the learner's guess."""
    m = outcome.measurement
    points: list[RooflinePoint] = []
    if m is None or m.arithmetic_intensity is None or m.achieved_gflops is None:
        return points
    ai, gflops = m.arithmetic_intensity, m.achieved_gflops
    name = m.workload or "workload"
    points.append(RooflinePoint(f"{t('ex.your_workload', lang)}: {name}", ai, gflops, "orange"))
    bw = m.roofline.peak_bandwidth_gbs if m.roofline is not None else None
    peak = m.roofline.peak_for(m.dtype) if m.roofline is not None else None
    p = outcome.prediction
    x = ai if ai > 0 else 0.01
    guess_y: float | None = None
    if p.choice == "memory" and bw is not None:
        guess_y = x * bw
    elif p.choice == "compute" and peak is not None:
        guess_y = peak
    elif p.value is not None and outcome.exercise.unit in ("GB/s", "GFLOP/s", "TFLOP/s"):
        unit = outcome.exercise.unit
        guess_y = p.value * x if unit == "GB/s" else p.value * (1e3 if unit == "TFLOP/s" else 1.0)
    if guess_y is not None and guess_y > 0:
        label = f"{t('ex.your_guess', lang)}: {describe_prediction(outcome.exercise, p, outcome.exercise.unit, lang)}"
        points.append(RooflinePoint(label, x, guess_y, "magenta", "x"))
    return points
