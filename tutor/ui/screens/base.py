"""The base of every screen of the tutor: a typed ``app``, one language watcher, one error path for blocking work.

- A screen is given the learner's :class:`~tutor.practice.session.Session` (the one door into practice: the
  course, the store, the runners) in its constructor; it asks the app for nothing but Textual's own services
  (pushing and popping screens, notices) and its language, ``self.lang``, read through :class:`LanguageHost`.
- The language: the base watches ``app.lang`` once for every screen, rewords the screen's keys and calls
  :meth:`TutorScreen.lang_changed`, which a screen overrides to redraw its words.
- Blocking work runs in ``@work(thread=True, exclusive=True, exit_on_error=False, group=...)`` workers. The
  thread's cancel signal is :func:`worker_cancel_event` (set by ``worker.cancel()``: Esc through
  ``self.workers.cancel_group``, leaving the screen and quitting through Textual's own cancel of a node's and
  the app's workers), handed to ``practice`` as its ``cancel`` event; no screen makes its own.
- One error path: a run that did not finish is reported with :meth:`TutorScreen.report_failure`, which posts one
  :class:`~tutor.ui.messages.WorkFailed` that the app shows as one notice. An exception a worker did not expect (a
  bug) reaches the same notice through the base's one ``Worker.StateChanged`` handler, and the screen hears of it
  in :meth:`TutorScreen.work_failed` to put itself back in a usable state.
"""

from __future__ import annotations

import threading
from typing import Protocol, TypeVar, cast, runtime_checkable

from textual import events, on
from textual.screen import ModalScreen, Screen
from textual.worker import Worker, WorkerState, get_current_worker

from tutor.i18n import Lang
from tutor.practice.failures import Failure, classify
from tutor.ui.keys import translate_bindings
from tutor.ui.marks import CourseMarks
from tutor.ui.messages import WorkFailed

ResultT = TypeVar("ResultT")


def worker_cancel_event() -> threading.Event:
    """The running thread worker's cancel signal, as the ``threading.Event`` that ``practice`` and the measurement
    worker poll: ``worker.cancel()`` sets it. Call it inside the worker's thread."""
    return get_current_worker().cancelled_event


@runtime_checkable
class LanguageHost(Protocol):
    """What a screen reads from the app it is in: the language (a reactive the screens watch; UI state)."""

    lang: Lang


class TutorScreen(Screen[ResultT]):
    """A screen of the tutor (see the module docstring)."""

    @property
    def lang(self) -> Lang:
        """The language the screen speaks: the app's."""
        return cast(LanguageHost, self.app).lang

    @on(events.Mount)
    def _follow_the_language(self) -> None:
        self.watch(self.app, "lang", self._language_switched, init=False)

    def _language_switched(self, lang: Lang) -> None:
        translate_bindings(self, lang)
        self.lang_changed(lang)

    def lang_changed(self, lang: Lang) -> None:
        """The learner switched the language: redraw this screen's words (the keys are reworded already)."""

    def update_marks(self, marks: CourseMarks) -> None:
        """Progress was recorded: a screen that shows progress marks redraws them."""

    # -- the one error path -------------------------------------------------------------------------------------

    def report_failure(self, kind: str, failure: Failure) -> None:
        """Tell the app that this screen's ``kind`` of work (``exercise``, ``lab``, ``doctor``) did not finish: it
        shows one notice, the same on every screen."""
        self.app.post_message(WorkFailed(kind, failure.code, failure.detail))

    @on(Worker.StateChanged)
    def _worker_ended_in_error(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if event.state != WorkerState.ERROR or worker.node is not self or worker.error is None:
            return
        event.stop()
        failure = classify(worker.error)
        self.work_failed(worker, failure)
        self.report_failure(worker.group, failure)

    def work_failed(self, worker: Worker[object], failure: Failure) -> None:
        """A worker of this screen raised what it did not expect (the notice is shown already): put the screen
        back in a usable state."""


class TutorModal(TutorScreen[ResultT], ModalScreen[ResultT]):
    """A modal screen of the tutor, over another screen: the same typed app and language; its styles are in
    ``styles/modals.tcss``."""

    CSS_PATH = "../styles/modals.tcss"
