"""Exceptions of the measurement engine (no torch here, so the UI can catch them without importing it)."""

from __future__ import annotations


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

    ``reason`` is a readable sentence for the learner.
    """

    def __init__(self, reason: str, detail: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail
