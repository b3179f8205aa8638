"""Exceptions of the measurement engine (no torch here, so the UI can catch them without importing it)."""

from __future__ import annotations

from collections.abc import Callable

from tutor.i18n import as_lang, format_number, t


class MeasureError(Exception):
    """Base class of every measurement-engine error."""


class WorkloadError(MeasureError, ValueError):
    """A request names an unknown workload or passes a parameter out of bounds (one-line human message)."""


class DeviceError(MeasureError, ValueError):
    """The requested device is not there, or lacks the requested dtype (one-line human message)."""


class MeasureCancelled(MeasureError):
    """The measurement was cancelled (Esc in the UI, Ctrl-C on the command line)."""


class MeasureFailed(MeasureError):
    """The measurement could not finish: the worker crashed, hung, was killed (OOM) or raised.

    ``reason`` is a readable sentence (English; :mod:`tutor.practice.failures` words it for the learner);
    ``code`` says what happened: ``"failed"`` (an error inside), ``"oom"`` (an allocation failed), ``"killed"``
    (SIGKILL: most likely the out-of-memory killer), ``"crashed"`` (SIGSEGV), ``"exited"``, ``"timeout"``.
    """

    def __init__(self, reason: str, detail: str | None = None, *, code: str = "failed") -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail
        self.code = code

    def message(self, lang: str) -> str:
        """The reason for a reader of ``lang`` (the engine's sentences are English; a time limit says it in both)."""
        return self.reason


_TIME_LIMIT_KEY = "measure.time_limit"


class MeasureTimedOut(MeasureFailed):
    """The measurement ran past its wall-clock limit (derived from its estimated run time) and was stopped.

    ``message(lang)`` says so in the learner's language; ``reason`` is the English sentence.
    """

    def __init__(self, limit_s: float) -> None:
        self.limit_s = float(limit_s)
        super().__init__(self.message("en"), code="timeout")

    def message(self, lang: str) -> str:
        code = as_lang(lang)
        return t(_TIME_LIMIT_KEY, code, limit=format_number(self.limit_s, code, ".3g"))

    def messages(self) -> dict[str, str]:
        return {lang: self.message(lang) for lang in ("es", "en")}


CancelCheck = Callable[[], bool]
"""Asked between timed calls: True stops the measurement (:func:`check_cancel` raises)."""


def check_cancel(should_cancel: CancelCheck | None) -> None:
    """Raise :class:`MeasureCancelled` when ``should_cancel`` says so (here so the pure estimators and the timing
    harness share it without importing each other)."""
    if should_cancel is not None and should_cancel():
        raise MeasureCancelled("cancelled")
