"""The sampler: ring buffers, pause/resume, recording windows, immutable snapshots, window_summary."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

import pytest

from tests.support.pilot import PATIENCE_S
from tutor.i18n.message import Message
from tutor.telemetry import BackendStatus, DeviceInfo, DeviceSample, Sampler, TelemetryBackend, open_backend
from tutor.telemetry.replay import ReplayBackend

TRACE = Path(__file__).parent / "fixtures" / "telemetry" / "rtx5090_gemm_synthetic.jsonl"


class Scripted(TelemetryBackend):
    """A GPU whose utilization and memory follow a script; counts its calls."""

    name = "scripted"

    def __init__(self, utils: list[float | None], power: float | None = 100.0) -> None:
        self.utils = utils
        self.power = power
        self.calls = 0
        self.lock = threading.Lock()

    def probe(self) -> BackendStatus:
        return BackendStatus(backend="scripted", code="ok", said=Message.verbatim("scripted"))

    def devices(self) -> tuple[DeviceInfo, ...]:
        return (DeviceInfo(id="gpu0", kind="gpu", name="Fake", metrics=("gpu_util_pct", "mem_used_bytes", "power_w"),
                           static={"mem_total_bytes": 1000}),)

    def sample(self) -> tuple[DeviceSample, ...]:
        with self.lock:
            u = self.utils[self.calls % len(self.utils)]
            self.calls += 1
        return (DeviceSample("gpu0", {"gpu_util_pct": u, "mem_used_bytes": 10 * self.calls, "power_w": self.power}),)


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def test_interval_is_clamped_and_history_is_bounded() -> None:
    clock = Clock()
    s = Sampler(Scripted([50.0]), 0.1, history_seconds=2.0, clock=clock)
    assert s.interval == 0.25
    for _ in range(50):
        clock.now += 0.25
        s.sample_once()
    hist = s.history("gpu0", "gpu_util_pct")
    assert len(hist.values) == 9  # 2 s at 4 Hz, plus the newest
    assert hist.times[-1] == clock.now


def test_window_summary_means_and_peaks() -> None:
    clock = Clock()
    s = Sampler(Scripted([0.0, 40.0, 80.0, None, 100.0, 0.0], power=300.0), 1.0, clock=clock)
    for _ in range(6):
        clock.now += 1.0
        s.sample_once()
    # readings at 5001..5006; a reading covers the second before it, so (5001, 5004] takes 5002, 5003, 5004
    w = s.window_summary(5001.0, 5004.0)["gpu0"]
    assert w.samples == 3
    assert w.util_mean_pct == pytest.approx(60.0)  # 40, 80 (None skipped, never 0)
    assert w.util_peak_pct == 80.0
    assert w.mem_peak_bytes == 40 and w.mem_total_bytes == 1000
    assert w.power_mean_w == 300.0 and w.backend == "scripted"
    assert s.window_summary(6000.0, 6001.0)["gpu0"].samples == 0
    assert s.window_summary(6000.0, 6001.0)["gpu0"].util_mean_pct is None
    assert w.as_dict()["util_peak_pct"] == 80.0
    with pytest.raises(ValueError):
        s.window_summary(2.0, 1.0)


def test_snapshots_are_immutable() -> None:
    s = Sampler(Scripted([10.0]))
    snap = s.sample_once()
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.t = 0.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        snap.samples[0].metrics["gpu_util_pct"] = 0.0  # type: ignore[index]
    assert snap.sample("gpu0") is not None and snap.series("gpu0", "gpu_util_pct") is not None


def _wait_for(predicate, timeout: float = PATIENCE_S) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)  # a poll interval
    return False


class ParkedEvent(threading.Event):
    """The sampler's wake-up event, telling when its thread waits with no deadline (paused: nothing to sample
    until something wakes it), so the test waits for that state instead of for time to pass."""

    def __init__(self) -> None:
        super().__init__()
        self.parked = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        if timeout is not None:
            return super().wait(timeout)
        self.parked.set()
        try:
            return super().wait(timeout)
        finally:
            self.parked.clear()


def test_thread_delivers_pauses_and_resumes() -> None:
    backend = Scripted([25.0])
    got: list[int] = []
    s = Sampler(backend, 0.25, on_snapshot=lambda snap: got.append(len(snap.samples)))
    s._wake = wake = ParkedEvent()
    s.start()
    try:
        assert _wait_for(lambda: len(got) >= 3)
        assert got[0] == 0  # the first snapshot is the probe: banner at once
        s.pause()
        assert _wait_for(wake.parked.is_set)  # paused: the thread waits for a wake-up, the backend is not touched
        calls = backend.calls
        s.resume()
        assert _wait_for(lambda: backend.calls > calls)  # resumed: it samples again
        s.pause()
        assert _wait_for(wake.parked.is_set)
        calls = backend.calls
        with s.recording() as window:  # a measurement's window is sampled even while paused
            assert _wait_for(lambda: backend.calls >= calls + 3)  # two samples done, a third begun
        assert window.t1 is not None and window.summary["gpu0"].samples >= 2
    finally:
        s.close()
    assert not s.running


def test_callback_errors_do_not_stop_the_thread() -> None:
    calls: list[int] = []

    def boom(_snap: object) -> None:
        calls.append(1)
        raise RuntimeError("UI gone")

    s = Sampler(Scripted([1.0]), 0.25, on_snapshot=boom).start()
    try:
        assert _wait_for(lambda: len(calls) >= 3)
        assert isinstance(s.last_error, RuntimeError)
    finally:
        s.stop()


def test_replay_backend_plays_the_trace_in_order_and_loops() -> None:
    b = ReplayBackend(TRACE)
    status = b.probe()
    assert status.backend == "replay" and status.code == "replay" and "Replay of" in status.message
    (info,) = b.devices()
    assert info.name == "NVIDIA GeForce RTX 5090" and info.static["sm_arch"] == "sm_120"
    utils = [b.sample()[0].metrics["gpu_util_pct"] for _ in range(21)]
    assert utils[:3] == [0.0, 0.0, 99.0] and utils[20] == utils[0]
    procs = ReplayBackend(TRACE).trace.ticks[5].samples[0].metrics["processes"]
    assert procs == ((4242, "?", 8 * 2**30),)
    assert open_backend(f"replay:{TRACE}").probe().backend == "replay"
