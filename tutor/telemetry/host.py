"""Host telemetry through psutil: CPU (total and per core), RAM, swap, load average. Always available."""

from __future__ import annotations

import contextlib
import os
import platform
from pathlib import Path

import psutil

from tutor.i18n.message import Message
from tutor.telemetry.model import BackendStatus, DeviceInfo, DeviceSample, MetricValue, TelemetryBackend

HOST_METRICS: tuple[str, ...] = (
    "cpu_pct",
    "cpu_per_core_pct",
    "ram_used_bytes",
    "ram_total_bytes",
    "swap_used_bytes",
    "swap_total_bytes",
    "load_1",
    "load_5",
    "load_15",
)


def cpu_model_name() -> str:
    """The CPU's marketing name (``/proc/cpuinfo`` on Linux), or what ``platform`` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith(("model name", "hardware")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "CPU"


class HostBackend(TelemetryBackend):
    """CPU and memory of this machine. ``cpu_pct`` covers the time since the previous sample (psutil's rule)."""

    name = "host"

    def __init__(self, *, fallback: BackendStatus | None = None) -> None:
        """``fallback``: the GPU backend's failure when ``auto`` fell back here, kept so the banner says why."""
        self._fallback = fallback
        self._info: DeviceInfo | None = None

    def probe(self) -> BackendStatus:
        if self._info is None:
            # psutil measures CPU time between calls; the first call only sets the baseline.
            psutil.cpu_percent(interval=None)
            psutil.cpu_percent(interval=None, percpu=True)
            self._info = DeviceInfo(
                id="host",
                kind="host",
                name=cpu_model_name(),
                metrics=HOST_METRICS if hasattr(os, "getloadavg") else HOST_METRICS[:-3],
                static={
                    "cores_logical": psutil.cpu_count(logical=True),
                    "cores_physical": psutil.cpu_count(logical=False),
                    "ram_total_bytes": psutil.virtual_memory().total,
                },
            )
        if self._fallback is not None:
            return BackendStatus(
                backend="host",
                code=self._fallback.code,
                said=Message.of("tel.status.host_fallback", reason=self._fallback.said),
                noted=self._fallback.noted,
            )
        return BackendStatus(backend="host", code="ok", said=Message("tel.status.host_ok"))

    def set_fallback(self, fallback: BackendStatus | None) -> None:
        self._fallback = fallback

    def devices(self) -> tuple[DeviceInfo, ...]:
        self.probe()
        assert self._info is not None
        return (self._info,)

    def sample(self) -> tuple[DeviceSample, ...]:
        if self._info is None:
            self.probe()
        metrics: dict[str, MetricValue] = dict.fromkeys(HOST_METRICS)
        metrics["cpu_pct"] = float(psutil.cpu_percent(interval=None))
        metrics["cpu_per_core_pct"] = tuple(float(p) for p in psutil.cpu_percent(interval=None, percpu=True))
        vm = psutil.virtual_memory()
        metrics["ram_total_bytes"] = int(vm.total)
        metrics["ram_used_bytes"] = int(vm.total - vm.available)
        try:
            sw = psutil.swap_memory()
            metrics["swap_used_bytes"] = int(sw.used)
            metrics["swap_total_bytes"] = int(sw.total)
        except (OSError, RuntimeError):
            pass
        if hasattr(os, "getloadavg"):
            with contextlib.suppress(OSError):
                metrics["load_1"], metrics["load_5"], metrics["load_15"] = (float(x) for x in os.getloadavg())
        return (DeviceSample(device="host", metrics=metrics),)
