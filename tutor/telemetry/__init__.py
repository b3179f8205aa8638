"""Live telemetry of this machine: NVIDIA GPUs through NVML, the host through psutil, or a recorded trace.

Never imports textual and never prints. The public API:

* :func:`open_backend` — ``"auto" | "nvml" | "host" | "replay:FILE"`` → a :class:`TelemetryBackend`
  (``probe()`` → :class:`BackendStatus`, ``devices()`` → :class:`DeviceInfo`, ``sample()`` →
  :class:`DeviceSample`, ``close()``).
* :class:`Sampler` — the background thread, 10-minute ring buffers, :class:`TelemetrySnapshot` deliveries,
  ``pause()``/``resume()``, ``recording()`` and :meth:`Sampler.window_summary` → :class:`WindowSummary`.
* :mod:`tutor.telemetry.trace` — the JSON-lines trace format that ``tutor telemetry --record`` writes.
"""

from __future__ import annotations

from tutor.telemetry.model import (
    METRICS,
    BackendStatus,
    DeviceInfo,
    DeviceSample,
    Metric,
    MetricValue,
    StatusCode,
    TelemetryBackend,
)
from tutor.telemetry.sampler import (
    MIN_INTERVAL,
    Recording,
    Sampler,
    Series,
    TelemetrySnapshot,
    WindowSummary,
)
from tutor.telemetry.spec import SPECS_HELP, AutoBackend, BackendSpecError, open_backend

__all__ = [
    "METRICS",
    "MIN_INTERVAL",
    "SPECS_HELP",
    "AutoBackend",
    "BackendSpecError",
    "BackendStatus",
    "DeviceInfo",
    "DeviceSample",
    "Metric",
    "MetricValue",
    "Recording",
    "Sampler",
    "Series",
    "StatusCode",
    "TelemetryBackend",
    "TelemetrySnapshot",
    "WindowSummary",
    "open_backend",
]
