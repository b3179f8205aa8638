"""Replays a recorded trace (see :mod:`tutor.telemetry.trace`). Always labelled "replay", never passed off as
live figures: the banner names the file and what it was recorded on."""

from __future__ import annotations

from pathlib import Path

from tutor.i18n.message import Message
from tutor.telemetry.model import BackendStatus, DeviceInfo, DeviceSample, TelemetryBackend
from tutor.telemetry.trace import Trace, read_trace
from tutor.untrusted import clean_line


class ReplayBackend(TelemetryBackend):
    """Each ``sample()`` returns the trace's next recorded sample; at the end it starts again (``loop``) or keeps
    returning the last one."""

    name = "replay"

    def __init__(self, path: str | Path, *, loop: bool = True) -> None:
        """Reads the whole trace now; raises :class:`~tutor.telemetry.trace.TraceError` on a bad file."""
        self.trace: Trace = read_trace(path)
        self._loop = loop
        self._next = 0
        recorded: Message | str = self.trace.backend or Message("tel.status.unknown_backend")
        status = self.trace.status
        notes = [Message.of("tel.note.recorded", recorded=recorded, message=status.said)] if status.message else []
        self._status = BackendStatus(
            backend="replay",
            code="replay",
            said=Message.of("tel.status.replay", file=clean_line(self.trace.path.name), recorded=recorded),
            noted=(*notes, *status.noted),
        )

    def probe(self) -> BackendStatus:
        return self._status

    def devices(self) -> tuple[DeviceInfo, ...]:
        return self.trace.devices

    def sample(self) -> tuple[DeviceSample, ...]:
        ticks = self.trace.ticks
        tick = ticks[self._next]
        if self._next + 1 < len(ticks):
            self._next += 1
        elif self._loop:
            self._next = 0
        return tick.samples
