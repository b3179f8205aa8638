"""The one door from the UI into practice: a learner's :class:`Session` (issue 29 item 1).

``make_app`` builds one session and hands it to every screen's constructor; a screen asks the session, never the
app, for the course, the progress store, the runners (:class:`~tutor.practice.ExerciseRunner`,
:class:`~tutor.practice.labs.LabRunner`), the warm measurement worker, the doctor, the telemetry sampler that a
measurement records through, the settings and the clock. The writes that follow a rule of practice (a hint
counted on its attempt, an unfinished attempt's hold, released or discarded, an attempt cancelled after its result
came back, a lab filed with its notebook entry) go through a method here or a runner, the same for the CLI;
simple records (a section read, a notebook edit, a reset on the progress screen) use :attr:`Session.store`.

No Textual here, and no torch: the worker process is started lazily, on the first measurement.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tutor.content import Course
from tutor.i18n import Lang
from tutor.practice.failures import Failure, classify
from tutor.practice.labs import LabRunner
from tutor.practice.runner import AttemptFailed, ExerciseRunner, MeasureFn, OnProgress
from tutor.progress import StoreBase
from tutor.progress.passes import ExerciseStatus, exercise_status
from tutor.progress.place import Place
from tutor.progress.rows import Attempt, DoctorRun, LabRun, NotebookEntry, StoredEntry
from tutor.results import ResultError, RooflineReference
from tutor.results.wire import JsonObject

if TYPE_CHECKING:
    from tutor.doctor.report import DoctorReport, LockMode
    from tutor.measure.worker import MeasureWorker
    from tutor.progress.class_report import ClassReport
    from tutor.progress.report import ProgressReport
    from tutor.telemetry import Sampler, WindowSummary

DoctorRunner = Callable[["LockMode"], "DoctorReport"]
"""What runs the doctor for the doctor screen: a lock mode in, a report out (tests pass one on a fake view)."""

OnStall = Callable[[float | None], None]
"""Told ``seconds`` without a sign of life from the measurement (``None``: it came back)."""

Clock = Callable[[], float]

CANCELLED = Failure("cancelled", "the measurement was cancelled")
"""The learner (Esc) or leaving the screen stopped the run."""


def failure_of(exc: BaseException, lang: Lang) -> Failure:
    """The failure an exception raised by a measurement job stands for: an exercise's :class:`AttemptFailed`
    (already stored on its attempt), a class lease's cancel or refusal (worded by the server, kept as said), or
    what :func:`~tutor.practice.failures.classify` reads from the engine's own errors."""
    from tutor.progress.lease import LeaseCancelled
    from tutor.progress.store_errors import StoreError

    if isinstance(exc, AttemptFailed):
        return Failure(exc.code, exc.reason)
    if isinstance(exc, LeaseCancelled):
        return CANCELLED
    if isinstance(exc, StoreError):  # the class's server could not give the lease
        return Failure("store", exc.describe(lang))
    return classify(exc)


class Session:
    """A learner's session of practice: what every screen is given (see the module docstring)."""

    def __init__(
        self,
        *,
        course: Course,
        store: StoreBase | None,
        measure_worker: MeasureWorker | None = None,
        doctor: DoctorRunner | None = None,
        clock: Clock = time.monotonic,
        save_lang: Callable[[Lang], None] | None = None,
    ) -> None:
        self.course = course
        """The course being taught (grows while a course folder loads)."""
        self._store = store
        self._measure_worker = measure_worker
        self.doctor = doctor
        """What runs the doctor (None: the real doctor, in a child process)."""
        self.clock = clock
        """Monotonic seconds: how long a run took."""
        self.sampler: Sampler | None = None
        """The telemetry sampler a measurement records its window through (set once telemetry has started)."""
        self._save_lang = save_lang

    # -- the store ---------------------------------------------------------------------------------------------

    @property
    def store(self) -> StoreBase:
        """The learner's progress store (in a class, known once the learner has logged in)."""
        if self._store is None:
            raise RuntimeError("no progress store before the learner has logged in")
        return self._store

    @property
    def logged_in(self) -> bool:
        """False only while a class's learner has not yet given a name and token the database accepts."""
        return self._store is not None

    @property
    def in_class(self) -> bool:
        """Whether this is a class's session (a PostgreSQL store), where the class wording and keys apply."""
        return self._store is not None and self._store.engine == "postgresql"

    def log_in(self, store: StoreBase) -> None:
        """The class's database accepted the learner: their store from now on."""
        self._store = store

    # -- settings ----------------------------------------------------------------------------------------------

    def save_lang(self, lang: Lang) -> None:
        """Remember the language the learner chose, for the next run (never an error)."""
        if self._save_lang is None:
            from tutor.settings import save_lang

            save_lang(lang)
        else:
            self._save_lang(lang)

    # -- where the learner was ---------------------------------------------------------------------------------

    def save_place(self, place: Place | None) -> None:
        """Remember the lesson section, exercise or lab on screen (None: the map) for the next start. A bookmark,
        not evidence: a store that cannot write it (a class not yet upgraded, a full disk) loses only that."""
        from tutor.progress.store_errors import StoreError

        if self._store is None:
            return
        with contextlib.suppress(StoreError):
            self._store.save_place(place)

    def last_place(self) -> Place | None:
        """Where the learner was when the app last showed a lesson, an exercise or a lab (None: the map)."""
        from tutor.progress.store_errors import StoreError

        if self._store is None:
            return None
        try:
            return self._store.last_place()
        except StoreError:
            return None

    # -- the measurement process -------------------------------------------------------------------------------

    @property
    def measure_worker(self) -> MeasureWorker:
        """The warm measurement worker process, started on first use and shared by labs and exercises."""
        if self._measure_worker is None:
            from tutor.measure.worker import MeasureWorker

            self._measure_worker = MeasureWorker()
        return self._measure_worker

    @measure_worker.setter
    def measure_worker(self, worker: MeasureWorker) -> None:
        self._measure_worker = worker

    def measure_fn(self, on_stall: OnStall | None = None) -> MeasureFn:
        """The worker's ``run`` as a runner calls it, with ``on_stall`` told when the measurement goes silent."""

        def run(request: JsonObject, on_progress: OnProgress | None,
                cancel: threading.Event | None) -> JsonObject:
            return self.measure_worker.run(request, on_progress=on_progress, cancel_event=cancel, on_stall=on_stall)

        return run

    def recording(self) -> contextlib.AbstractContextManager[Any]:
        """Sample the telemetry through a block even while no panel shows it (``None`` when telemetry is off)."""
        return self.sampler.recording() if self.sampler is not None else contextlib.nullcontext(None)

    def close(self) -> None:
        """Stop the measurement process within a bounded time (safe to call more than once)."""
        if self._measure_worker is not None:
            self._measure_worker.close()

    # -- exercises ---------------------------------------------------------------------------------------------

    def exercise_runner(self, measure: MeasureFn | None = None, on_stall: OnStall | None = None) -> ExerciseRunner:
        """An exercise runner on this store, measuring with ``measure`` (a test's engine) or the warm worker, with
        the telemetry window of each run kept with its measurement."""
        sampler = self.sampler

        def window(t0: float, t1: float) -> dict[str, WindowSummary] | None:
            if sampler is None:
                return None
            return sampler.window_summary(t0, t1)

        return ExerciseRunner(self.store, measure or self.measure_fn(on_stall), telemetry_window=window)

    def record_hints(self, attempt_id: int, hints_shown: int) -> None:
        """A hint was shown after the prediction was locked: the attempt counts it."""
        self.store.record_hints(attempt_id, hints_shown)

    def cancel_attempt(self, attempt_id: int, failure: Failure = CANCELLED) -> None:
        """The learner stopped a measurement whose result had already come back: the attempt is stored as
        cancelled (never graded) and its hold released, as the runner does for a cancel during the run."""
        from tutor.practice import unfinished

        self.store.record_failure(attempt_id, state=failure.state, reason=failure.detail)
        unfinished.release(self.store, attempt_id)

    def exercise_status(self, exercise_id: str) -> ExerciseStatus:
        """The exercise's passes (open, reproduced, first pass's verdict) from its stored attempts."""
        return exercise_status(exercise_id, self.store.attempts(exercise_id))

    def unfinished(self, exercise_id: str, pass_number: int, *, besides: int | None = None) -> Attempt | None:
        """The newest attempt of this pass locked and never measured (the tutor was killed, or the learner left),
        other than ``besides``; None when there is none or the store cannot be read."""
        from tutor.practice import unfinished

        try:
            found = unfinished.unfinished(self.store, exercise_id)
        except Exception:  # the store is unreadable: the screen still works
            return None
        found = [a for a in found if a.pass_number == pass_number and a.id != besides]
        return found[-1] if found else None

    def take_unfinished(self, attempt_id: int, exercise_id: str) -> Attempt:
        """Hold an unfinished attempt to measure it now (:class:`~tutor.practice.unfinished.UnfinishedError` if
        another process has it or it is gone)."""
        from tutor.practice import unfinished

        return unfinished.take(self.store, attempt_id, exercise_id)

    def discard_unfinished(self, attempt_id: int) -> None:
        from tutor.practice import unfinished

        unfinished.discard(self.store, attempt_id)

    def release_unfinished(self, attempt_id: int) -> None:
        """Locked and never measured: shown as unfinished from now on (resume or discard it)."""
        from tutor.practice import unfinished

        unfinished.release(self.store, attempt_id)

    # -- what the screens read and record -----------------------------------------------------------------------

    def attempts(self, exercise_id: str | None = None) -> list[Attempt]:
        """Every stored attempt (of one exercise), oldest first."""
        return self.store.attempts(exercise_id)

    def sections_read(self) -> set[tuple[str, str]]:
        """The (lesson, section) pairs the learner has read to the end."""
        return self.store.sections_read()

    def mark_section_read(self, lesson_id: str, section_id: str) -> None:
        self.store.mark_section_read(lesson_id, section_id)

    def lab_runs(self, lab_id: str | None = None) -> list[LabRun]:
        """The stored runs (of one lab), oldest first."""
        return self.store.lab_runs(lab_id)

    def doctor_runs(self) -> list[DoctorRun]:
        return self.store.doctor_runs()

    def record_doctor_run(self, report: DoctorReport) -> None:
        """A doctor run the learner made: stored, with the lock it was checked against."""
        from tutor.doctor.report import record_doctor_run

        record_doctor_run(self.store, report)

    def notebook_entries(self) -> list[StoredEntry]:
        """The Lab Notebook's entries, oldest first."""
        from tutor.progress.notebook import load_entries

        return load_entries(self.store)

    def save_notebook_entry(self, entry: NotebookEntry, entry_id: int | None = None) -> int:
        """An edit of a notebook entry (a new version of its text; never the prediction it was filed with)."""
        from tutor.progress.notebook import save_entry

        return save_entry(self.store, entry, entry_id)

    def all_unfinished(self) -> list[Attempt]:
        """Every attempt locked and never measured that no live process is working on, oldest first."""
        from tutor.practice import unfinished

        return unfinished.unfinished(self.store)

    @property
    def store_where(self) -> str:
        """Where the progress lives: the file, or the class's server without secrets."""
        return str(self.store.path)

    def reset_counts(self, *, exercise_id: str | None = None, lesson_id: str | None = None) -> dict[str, int]:
        """How many rows a reset with the same arguments would delete, per table (for the confirmation)."""
        return self.store.reset_counts(exercise_id=exercise_id, lesson_id=lesson_id)

    def reset(self, *, exercise_id: str | None = None, lesson_id: str | None = None) -> dict[str, int]:
        """Delete one exercise's attempts, one lesson's progress, or everything (the progress screen's reset)."""
        return self.store.reset(exercise_id=exercise_id, lesson_id=lesson_id)

    def progress_report(self) -> ProgressReport:
        """The progress screen's report: C0, calibration, history and what the store recovered."""
        from tutor.progress.report import progress_report

        return progress_report(self.course, self.store)

    def class_report(self) -> ClassReport:
        """The instructor's report of the class this session's store belongs to."""
        from tutor.progress.class_report import class_report

        return class_report(self.course, self.store)

    # -- labs and the roof -----------------------------------------------------------------------------------

    def lab_runner(self, on_stall: OnStall | None = None) -> LabRunner:
        """A lab runner on this store, measuring in the warm worker (``on_stall`` told when it goes silent)."""

        def run(request: JsonObject, **kw: Any) -> JsonObject:
            result: JsonObject = self.measure_worker.run(request, on_stall=on_stall, **kw)
            return result

        return LabRunner(self.store, run)

    def remeasure_roof(self, device: str, measure: MeasureFn, on_progress: OnProgress,
                       cancel: threading.Event) -> RooflineReference:
        """Measure this device's roofline again (F5), through ``measure``; the typed roof, or the engine's error
        (a :class:`~tutor.results.ResultError` when what came back is not a roof)."""
        from tutor.practice.roof_stamp import remeasure_request

        wire = measure(remeasure_request(device), on_progress, cancel)
        return RooflineReference.from_json(wire, "the measured roofline")


__all__ = ["CANCELLED", "DoctorRunner", "ResultError", "Session", "failure_of"]
