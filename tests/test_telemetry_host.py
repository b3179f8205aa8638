"""The host backend, for real: figures within sane ranges and matching psutil's own."""

from __future__ import annotations

import os
import time

import psutil

from tutor.i18n.message import Message
from tutor.telemetry.host import HOST_METRICS, HostBackend
from tutor.telemetry.model import BackendStatus


def test_host_figures_match_psutil() -> None:
    b = HostBackend()
    status = b.probe()
    assert status.ok and status.backend == "host"
    (info,) = b.devices()
    assert info.id == "host" and info.kind == "host" and info.name
    assert info.static["cores_logical"] == psutil.cpu_count(logical=True)
    time.sleep(0.2)
    (s,) = b.sample()
    m = s.metrics
    assert set(HOST_METRICS) <= set(m)
    assert 0.0 <= m["cpu_pct"] <= 100.0
    per_core = m["cpu_per_core_pct"]
    assert isinstance(per_core, tuple) and len(per_core) == psutil.cpu_count(logical=True)
    assert all(0.0 <= p <= 100.0 for p in per_core)
    vm = psutil.virtual_memory()
    assert m["ram_total_bytes"] == vm.total
    assert abs(m["ram_used_bytes"] - (vm.total - vm.available)) < 0.05 * vm.total
    assert 0 < m["ram_used_bytes"] < m["ram_total_bytes"]
    sw = psutil.swap_memory()
    assert m["swap_total_bytes"] == sw.total and 0 <= m["swap_used_bytes"] <= max(sw.total, 1)
    load = os.getloadavg()
    assert abs(m["load_1"] - load[0]) < 2.0 and m["load_15"] >= 0.0


def test_cpu_percent_sees_a_busy_loop() -> None:
    b = HostBackend()
    b.probe()
    b.sample()
    end = time.perf_counter() + 0.5
    while time.perf_counter() < end:
        pass
    (s,) = b.sample()
    # one core of this machine was busy for the whole interval
    assert s.metrics["cpu_pct"] >= 100.0 / psutil.cpu_count(logical=True) * 0.6


def test_fallback_reason_is_kept() -> None:
    reason = BackendStatus(backend="nvml", code="driver_not_loaded", said=Message("tel.reason.driver_not_loaded"),
                           noted=(Message.verbatim("x"),))
    status = HostBackend(fallback=reason).probe()
    assert status.code == "driver_not_loaded" and status.notes == ("x",)
    assert status.message == "No NVIDIA GPU (NVIDIA driver not loaded) — showing CPU and RAM"
    assert status.text("es") == "Sin GPU NVIDIA (el driver de NVIDIA no está cargado) — se muestran la CPU y la RAM"
