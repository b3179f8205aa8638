"""Measuring the roofline again on request (F5) from the exercise reveal and the lab screens (issue 11 item 4).

A screen holds one :class:`RoofRemeasure` (not a base class) and runs it through the screen's one
:class:`~tutor.ui.widgets.measurement_run.MeasurementRun` (kind ``roofline``), one run at a time, with the same
measuring function as the screen's other requests (the session's warm worker process, or the one a test injects).
The screen says where the status goes (``say``) and where the new roof is drawn (``measured``, which answers the
roof drawn before, so the status can compare them), and hands it the run's messages as they bubble up
(:meth:`RoofRemeasure.hear`). Esc and leaving the screen cancel it; a run that does not finish is one notice
through the app's one error path (the run posts it).
"""

from __future__ import annotations

from collections.abc import Callable

from tutor.i18n import Lang, t
from tutor.measure.phases import progress_text
from tutor.practice.roof_stamp import remeasured_text
from tutor.practice.runner import MeasureFn
from tutor.practice.session import Session
from tutor.results import RooflineReference
from tutor.ui.widgets.measurement_run import MeasurementRun, RunHooks

ROOFLINE = "roofline"

RunNews = MeasurementRun.Progress | MeasurementRun.Finished | MeasurementRun.Failed
"""What the run says that a re-measurement answers."""

Say = Callable[[str, bool], None]
"""Show a status line; the flag: whether the re-measurement is still running (its bar shown)."""

Measured = Callable[[RooflineReference], RooflineReference | None]
"""Draw the roof just measured; the roof drawn before (None: none was)."""


class RoofRemeasure:
    """The roofline measured again on request, through the run a screen hands it (see the module docstring)."""

    def __init__(self, session: Session, *, measure: Callable[[], MeasureFn], device: Callable[[], str],
                 lang: Callable[[], Lang], say: Say, measured: Measured) -> None:
        self.session = session
        self._measure = measure
        """The measuring function of the screen's other requests, read when a re-measurement starts."""
        self._device = device
        self._lang = lang
        self._say = say
        self._measured = measured

    @staticmethod
    def remeasuring(run: MeasurementRun) -> bool:
        """Whether ``run`` is measuring the roofline again now."""
        return run.running and run.kind == ROOFLINE

    def start(self, run: MeasurementRun) -> None:
        """Start measuring on ``run`` (nothing while it runs something else)."""
        if run.running:
            return
        measure, device = self._measure(), self._device()

        def job(hooks: RunHooks) -> RooflineReference:
            return self.session.remeasure_roof(device, measure, hooks.progress, hooks.cancel)

        run.start(ROOFLINE, job)
        self._say(t("roof.remeasuring", self._lang()), True)

    def cancel(self, run: MeasurementRun) -> bool:
        """Stop a re-measurement in flight; whether one was."""
        return self.remeasuring(run) and run.cancel()

    def hear(self, message: RunNews) -> None:
        """The run's ``message``: said, or the new roof drawn (nothing when it is about another kind of run)."""
        if message.kind != ROOFLINE:
            return
        lang = self._lang()
        if isinstance(message, MeasurementRun.Progress):
            self._say(f"{t('roof.remeasuring', lang)}\n{progress_text(message.fraction, message.said, lang)}", True)
        elif isinstance(message, MeasurementRun.Finished):
            roof: RooflineReference = message.result
            self._say(remeasured_text(self._measured(roof), roof, lang), False)
        else:
            self._say(t("roof.remeasure_stopped", lang), False)
