"""One measurement in flight, for every screen that measures (issue 29 item 2): the exercise, the lab, and the
roofline measured again on request (F5).

:class:`MeasurementRun` is the run's progress bar and owns the run: :meth:`MeasurementRun.start` hands a job to
ONE thread worker (``@work(thread=True, exclusive=True, exit_on_error=False)``); the job gets a
:class:`RunHooks` with the worker's ``cancelled_event`` as its ``cancel`` (what ``practice`` and the measurement
worker poll) and reports progress, a class's queue, a stall or a sweep point through it. The widget posts what
happened as its nested messages (attributes down, messages up); the screen words them.

Cancelling (Esc calls :meth:`MeasurementRun.cancel`; leaving the screen cancels the widget's worker) is handled
here once, with its two races:

- Esc before the worker's thread has started: cancelling the worker's task then would drop the thread unrun and
  the run would never end, so only the thread's cancel signal is set; the thread sees it as it starts.
- A result that arrives after the cancel: it is not delivered as a result; the run ends as
  :class:`MeasurementRun.Failed` with ``cancelled`` and ``discarded`` set (an exercise stores its attempt as
  cancelled).

A run that does not finish goes to the one error path: the widget posts :class:`~tutor.ui.messages.WorkFailed`
(the app's one notice) beside its own ``Failed`` (for the screen to put itself back in a usable state).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual import on, work
from textual.message import Message
from textual.reactive import var
from textual.widgets import ProgressBar
from textual.worker import Worker, WorkerState, get_current_worker

from tutor.i18n import Lang
from tutor.i18n.message import Message as Said
from tutor.practice.failures import Failure, classify
from tutor.practice.session import CANCELLED, failure_of
from tutor.ui.messages import WorkFailed


@dataclass
class RunHooks:
    """What a job running in the worker's thread reports through (each call posts a message to the UI)."""

    cancel: threading.Event
    """Set when the run is cancelled: hand it to ``practice`` as ``cancel`` / ``cancel_event``."""
    progress: Callable[[float | None, Said | None], None]
    queue: Callable[[int], None]
    stalled: Callable[[float | None], None]
    point: Callable[[Any], None]


Job = Callable[[RunHooks], Any]
"""A measurement: called in the worker's thread with its hooks; returns the result or raises."""


@dataclass
class _RunEnded(Message, bubble=False):
    """From the worker's thread to the widget: the run's end (its result, or its failure)."""

    serial: int
    result: Any = None
    seconds: float = 0.0
    failure: Failure | None = None
    discarded: bool = False


class MeasurementRun(ProgressBar):
    """A measurement's progress bar, which runs the measurement (see the module docstring).

    ``kind`` names what runs (``exercise``, ``lab``, ``roofline``): the notice's title and the field every
    message carries, so one screen can run its own measurement and the roof's through one bar, one at a time."""

    running: var[bool] = var(False)
    """Whether a run is in flight (set by :meth:`start`, cleared as the run's last message arrives)."""

    kind: var[str] = var("")
    """What the run in flight (or the last one) measures."""

    @dataclass
    class Progress(Message):
        """The run advanced (a newer one replaces an older one still queued)."""

        run: MeasurementRun
        kind: str
        fraction: float | None
        said: Said | None

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, MeasurementRun.Progress) and message.run is self.run

    @dataclass
    class Queued(Message):
        """In a class: ``ahead`` learners wait for the shared device before this run (0: it has it)."""

        run: MeasurementRun
        kind: str
        ahead: int

    @dataclass
    class Stalled(Message):
        """No sign of life from the measurement for ``seconds`` (None: it came back)."""

        run: MeasurementRun
        kind: str
        seconds: float | None

    @dataclass
    class Point(Message):
        """A sweep's point was measured (the worker's JSON, as the job passed it on)."""

        run: MeasurementRun
        kind: str
        point: Any

    @dataclass
    class Finished(Message):
        """The run ended with its result after ``seconds``."""

        run: MeasurementRun
        kind: str
        result: Any
        seconds: float

    @dataclass
    class Failed(Message):
        """The run did not finish: the failure (the notice is posted already)."""

        run: MeasurementRun
        kind: str
        failure: Failure
        discarded: bool = False
        """A result came back after the cancel and was not delivered."""

        @property
        def cancelled(self) -> bool:
            return self.failure.state == "cancelled"

    def __init__(self, *, lang: Callable[[], Lang], clock: Callable[[], float], name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(total=1.0, show_eta=False, name=name, id=id, classes=classes)
        self._run_lang = lang
        self._run_clock = clock
        self._worker: Worker[None] | None = None
        self._thread_started = threading.Event()
        self._serial = 0

    # -- what the screen calls --------------------------------------------------------------------------------

    def start(self, kind: str, job: Job) -> None:
        """Run ``job`` in the worker's thread; the bar starts at 0."""
        self._serial += 1
        self.kind = kind
        self.running = True
        self.update(total=1.0, progress=0.0)
        self._thread_started = threading.Event()
        self._worker = self._run(self._serial, kind, job, self._thread_started)

    def cancel(self) -> bool:
        """Stop the run in flight (the job sees its ``cancel`` set within a poll); whether one was."""
        if not self.running or self._worker is None:
            return False
        if not self._thread_started.is_set():
            self._worker.cancelled_event.set()  # the thread sees it as it starts (see the module docstring)
        else:
            self._worker.cancel()
        return True

    @property
    def worker(self) -> Worker[None] | None:
        """The thread worker of the run in flight (or of the last one)."""
        return self._worker

    @property
    def cancelling(self) -> bool:
        """Whether the run in flight has been cancelled and has not ended yet."""
        return self.running and self._worker is not None and self._worker.cancelled_event.is_set()

    # -- the one worker path -------------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False, group="measurement")
    def _run(self, serial: int, kind: str, job: Job, started: threading.Event) -> None:
        started.set()
        cancel = get_current_worker().cancelled_event
        def post(message: Message) -> None:
            self.post_message(message)

        hooks = RunHooks(
            cancel=cancel,
            progress=lambda fraction, said: post(self.Progress(self, kind, _fraction(fraction), said)),
            queue=lambda ahead: post(self.Queued(self, kind, int(ahead))),
            stalled=lambda seconds: post(self.Stalled(self, kind, seconds)),
            point=lambda point: post(self.Point(self, kind, point)),
        )
        began = self._run_clock()
        try:
            result = job(hooks)
        except Exception as exc:  # a measurement that failed, or an engine bug: the one error path
            post(_RunEnded(serial, failure=failure_of(exc, self._run_lang())))
            return
        if cancel.is_set():  # the result came back after the cancel: the learner asked for no result
            post(_RunEnded(serial, failure=CANCELLED, discarded=True))
            return
        post(_RunEnded(serial, result=result, seconds=self._run_clock() - began))

    @on(_RunEnded)
    def _run_ended(self, message: _RunEnded) -> None:
        if message.failure is not None:
            self._fail(message.serial, message.failure, message.discarded)
        else:
            self._finish(message.serial, message.result, message.seconds)

    def _finish(self, serial: int, result: Any, seconds: float) -> None:
        if not self._end(serial):
            return
        self.update(progress=1.0)
        self.post_message(self.Finished(self, self.kind, result, seconds))

    def _fail(self, serial: int, failure: Failure, discarded: bool = False) -> None:
        if not self._end(serial):
            return
        self.post_message(self.Failed(self, self.kind, failure, discarded))
        self.post_message(WorkFailed(self.kind, failure.code, failure.detail))

    def _end(self, serial: int) -> bool:
        """The run ``serial`` ends now, once (a second end, or one of an older run, is dropped)."""
        if serial != self._serial or not self.running:
            return False
        self.running = False
        return True

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # The job's exceptions are caught in the thread; what is left (a BaseException) still ends the run.
        worker = event.worker
        if worker is self._worker and event.state == WorkerState.ERROR and worker.error is not None:
            event.stop()
            self._fail(self._serial, classify(worker.error))
        elif worker is self._worker and event.state == WorkerState.CANCELLED and not self._thread_started.is_set():
            self._fail(self._serial, CANCELLED)  # cancelled before its thread ran (the screen left, or quit)

    # -- messages the widget itself reads before they reach the screen ------------------------------------------

    def _message_is_current(self, message: Progress | Queued | Stalled | Point) -> bool:
        return self.running and message.kind == self.kind

    def on_measurement_run_progress(self, message: Progress) -> None:
        if not self._message_is_current(message):
            message.stop()
            return
        if message.fraction is not None:
            self.update(progress=max(0.0, min(1.0, message.fraction)))

    def on_measurement_run_queued(self, message: Queued) -> None:
        if not self._message_is_current(message):
            message.stop()

    def on_measurement_run_stalled(self, message: Stalled) -> None:
        if not self._message_is_current(message):
            message.stop()

    def on_measurement_run_point(self, message: Point) -> None:
        if not self._message_is_current(message):
            message.stop()


def _fraction(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
