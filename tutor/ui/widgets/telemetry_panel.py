"""The telemetry panel (filled in by the telemetry issue)."""

from __future__ import annotations

from textual.widgets import Static


class TelemetryPanel(Static):
    """Live telemetry of this machine, beside every lesson."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("Telemetry", id=id)
