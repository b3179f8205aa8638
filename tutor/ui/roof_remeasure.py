"""Measuring the roofline again on request (F5) from the exercise reveal and the lab screens (issue 11 item 4).

A screen derives from :class:`RoofRemeasure` (a :class:`~tutor.ui.screens.base.TutorScreen`), offers the
``remeasure_roof`` binding, and says where the new roof goes (:meth:`RoofRemeasure.roof_remeasured`) and where the
status goes (:meth:`RoofRemeasure.roof_status`). The measurement runs in a thread worker of the screen, through the
same measuring function as the screen's other requests (the app's warm worker process, or the one a test injects),
with its progress on the screen; Esc and leaving the screen cancel it, and a run that does not finish is one notice
through the app's one error path.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual import work
from textual.message import Message

from tutor.i18n import Lang, t
from tutor.i18n.message import Message as Said
from tutor.measure.phases import progress_text
from tutor.practice.failures import Failure
from tutor.practice.roof_stamp import remeasure_request
from tutor.results import ResultError, RooflineReference
from tutor.ui.screens.base import TutorScreen, worker_cancel_event

MeasureCall = Callable[[dict[str, Any], Callable[[float, Said], None], threading.Event], Any]


@dataclass
class RoofRemeasureProgress(Message):
    """The re-measurement advanced (posted from the thread worker; a newer one replaces an older one)."""

    fraction: float
    said: Said

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, RoofRemeasureProgress)


@dataclass
class RoofRemeasureDone(Message):
    """The re-measurement ended: the new roof, or the failure that stopped it (``cancelled`` when Esc did)."""

    roof: RooflineReference | None
    failure: Failure | None = None
    cancelled: bool = False


class RoofRemeasure(TutorScreen[None]):
    """Re-measure the roofline on request. The screen (a :class:`~tutor.ui.screens.base.TutorScreen`) provides
    :meth:`roof_measure_call`, :meth:`roof_status`, :meth:`roof_remeasured` and :meth:`can_remeasure_roof`; Esc
    calls :meth:`cancel_roof_remeasure`, and leaving the screen cancels the worker as it cancels every other one.
    A run that does not finish goes to the one error path (``report_failure``)."""

    roof_remeasuring: bool = False

    # -- what the screen provides ------------------------------------------------------------------------------

    def roof_measure_call(self) -> MeasureCall:
        raise NotImplementedError

    def roof_device(self) -> str:
        return "auto"

    def roof_status(self, text: str, fraction: float | None = None) -> None:
        raise NotImplementedError

    def roof_remeasured(self, roof: RooflineReference) -> None:
        raise NotImplementedError

    def can_remeasure_roof(self) -> bool:
        return True

    # -- the action and its worker --------------------------------------------------------------------------

    def action_remeasure_roof(self) -> None:
        if self.roof_remeasuring or not self.can_remeasure_roof():
            return
        self.roof_remeasuring = True
        self.roof_status(t("roof.remeasuring", self._roof_lang()), 0.0)
        self._roof_worker()

    def cancel_roof_remeasure(self) -> bool:
        """Stop a re-measurement in flight (the thread sees it through ``worker_cancel_event``); whether one was."""
        if not self.roof_remeasuring:
            return False
        self.workers.cancel_group(self, "roof")
        return True

    @work(thread=True, exclusive=True, exit_on_error=False, group="roof")
    def _roof_worker(self) -> None:
        from tutor.measure.errors import MeasureCancelled
        from tutor.practice.failures import classify

        cancel = worker_cancel_event()
        post = self.post_message

        def progress(fraction: float, said: Said) -> None:
            post(RoofRemeasureProgress(float(fraction), said))

        try:
            result = self.roof_measure_call()(remeasure_request(self.roof_device()), progress, cancel)
        except MeasureCancelled as exc:
            post(RoofRemeasureDone(None, classify(exc), cancelled=True))
            return
        except Exception as exc:  # a measurement that failed, or an engine bug: the one error path
            post(RoofRemeasureDone(None, classify(exc)))
            return
        if cancel.is_set():
            post(RoofRemeasureDone(None, cancelled=True))
            return
        try:  # the worker's JSON, read once into the typed roof
            roof = RooflineReference.from_json(result, "the measured roofline")
        except ResultError as exc:
            post(RoofRemeasureDone(None, classify(exc)))
            return
        post(RoofRemeasureDone(roof))

    def on_roof_remeasure_progress(self, message: RoofRemeasureProgress) -> None:
        if self.roof_remeasuring:
            lang = self._roof_lang()
            self.roof_status(f"{t('roof.remeasuring', lang)}\n{progress_text(message.fraction, message.said, lang)}",
                             message.fraction)

    def on_roof_remeasure_done(self, message: RoofRemeasureDone) -> None:
        self.roof_remeasuring = False
        if message.roof is not None:
            self.roof_remeasured(message.roof)
        else:
            self.roof_status(t("roof.remeasure_stopped", self._roof_lang()))
            if message.failure is not None:
                self.report_failure("roofline", message.failure)
        self.refresh_bindings()

    def _roof_lang(self) -> Lang:
        return self.lang
