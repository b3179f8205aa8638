"""Measuring the roofline again on request (F5) from the exercise reveal and the lab screens (issue 11 item 4).

A screen derives from :class:`RoofRemeasure` (a :class:`~tutor.ui.screens.base.TutorScreen`), offers the
``remeasure_roof`` binding, and says where the new roof goes (:meth:`RoofRemeasure.roof_remeasured`) and where the
status goes (:meth:`RoofRemeasure.roof_status`). The measurement runs through the screen's one
:class:`~tutor.ui.widgets.measurement_run.MeasurementRun` (kind ``roofline``), with the same measuring function as
the screen's other requests (the session's warm worker process, or the one a test injects); Esc and leaving the
screen cancel it, and a run that does not finish is one notice through the app's one error path.
"""

from __future__ import annotations

from textual import on

from tutor.i18n import t
from tutor.measure.phases import progress_text
from tutor.practice.runner import MeasureFn
from tutor.practice.session import Session
from tutor.results import RooflineReference
from tutor.ui.screens.base import TutorScreen
from tutor.ui.widgets.measurement_run import MeasurementRun, RunHooks

ROOFLINE = "roofline"


class RoofRemeasure(TutorScreen[None]):
    """Re-measure the roofline on request. The screen provides :meth:`measurement_run`, :meth:`roof_measure_call`,
    :meth:`roof_status`, :meth:`roof_remeasured` and :meth:`can_remeasure_roof`; Esc calls
    :meth:`cancel_roof_remeasure`."""

    session: Session

    # -- what the screen provides ------------------------------------------------------------------------------

    def measurement_run(self) -> MeasurementRun:
        raise NotImplementedError

    def roof_measure_call(self) -> MeasureFn:
        raise NotImplementedError

    def roof_device(self) -> str:
        return "auto"

    def roof_status(self, text: str, fraction: float | None = None) -> None:
        raise NotImplementedError

    def roof_remeasured(self, roof: RooflineReference) -> None:
        raise NotImplementedError

    def can_remeasure_roof(self) -> bool:
        return True

    # -- the action -------------------------------------------------------------------------------------------

    @property
    def roof_remeasuring(self) -> bool:
        """Whether the roofline is being measured again now."""
        run = self.measurement_run()
        return run.running and run.kind == ROOFLINE

    def action_remeasure_roof(self) -> None:
        run = self.measurement_run()
        if run.running or not self.can_remeasure_roof():
            return
        measure, device = self.roof_measure_call(), self.roof_device()

        def job(hooks: RunHooks) -> RooflineReference:
            return self.session.remeasure_roof(device, measure, hooks.progress, hooks.cancel)

        run.start(ROOFLINE, job)
        self.roof_status(t("roof.remeasuring", self.lang), 0.0)

    def cancel_roof_remeasure(self) -> bool:
        """Stop a re-measurement in flight; whether one was."""
        return self.roof_remeasuring and self.measurement_run().cancel()

    @on(MeasurementRun.Progress)
    def _roof_progress(self, message: MeasurementRun.Progress) -> None:
        if message.kind == ROOFLINE:
            lang = self.lang
            self.roof_status(f"{t('roof.remeasuring', lang)}\n{progress_text(message.fraction, message.said, lang)}",
                             message.fraction)

    @on(MeasurementRun.Finished)
    def _roof_measured(self, message: MeasurementRun.Finished) -> None:
        if message.kind == ROOFLINE:
            self.roof_remeasured(message.result)
            self.refresh_bindings()

    @on(MeasurementRun.Failed)
    def _roof_not_measured(self, message: MeasurementRun.Failed) -> None:
        if message.kind == ROOFLINE:
            self.roof_status(t("roof.remeasure_stopped", self.lang))
            self.refresh_bindings()
