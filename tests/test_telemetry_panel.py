"""The telemetry panel, driven with Pilot on a tiny app that feeds it snapshots; assertions on rendered text."""

from __future__ import annotations

import sys

import pytest

from tests.fixtures.telemetry import fake_pynvml as fake
from tests.support.pilot import wait_for
from tests.support.telemetry import TRACE, PanelApp, shown
from tutor.telemetry import AutoBackend, Sampler, TelemetrySnapshot
from tutor.telemetry.host import HostBackend
from tutor.telemetry.nvml import NvmlBackend
from tutor.telemetry.replay import ReplayBackend
from tutor.ui.widgets.telemetry_panel import TelemetryPanel


def snapshots(backend: object, n: int = 3) -> TelemetrySnapshot:
    t = [1000.0]

    def clock() -> float:
        return t[0]

    sampler = Sampler(backend, 1.0, clock=clock)  # type: ignore[arg-type]
    snap = sampler.sample_once()
    for _ in range(n - 1):
        t[0] += 1.0
        snap = sampler.sample_once()
    return snap


async def test_rtx_5090_with_host(monkeypatch: pytest.MonkeyPatch) -> None:
    card = fake.rtx_5090(errors={"nvmlDeviceGetTemperature": fake.NVML_ERROR_NOT_SUPPORTED})
    monkeypatch.setitem(sys.modules, "pynvml", fake.FakeNvml([card]).module())
    snap = snapshots(AutoBackend(NvmlBackend(wsl=False), HostBackend()))
    app = PanelApp()
    async with app.run_test(size=(120, 50)) as pilot:
        app.query_one(TelemetryPanel).update_snapshot(snap)
        await pilot.pause()
        text = shown(app)
    assert "nvml+host · NVIDIA NVML — 1 GPU, driver 575.51.03; host CPU and RAM" in text
    assert "GPU 0 · NVIDIA GeForce RTX 5090 · sm_120" in text
    assert "87 %" in text and "34 %" in text
    assert "1.2 / 31.8 GiB" in text
    assert "410 W / 575 W" in text
    assert "temp N/A · SM 2407/3090 MHz · mem 14001/14001 MHz" in text  # NotSupported: N/A, never 0
    assert "clocks held by: software power cap" in text
    assert "CPU · " in text and "RAM " in text
    assert "busy: share of time any kernel ran" in text


def _no_gpu_app(monkeypatch: pytest.MonkeyPatch) -> PanelApp:
    """A panel app on a machine whose NVML library is missing: the host backend samples CPU and RAM."""
    monkeypatch.setitem(sys.modules, "pynvml", fake.FakeNvml(init_error=fake.NVML_ERROR_LIBRARY_NOT_FOUND).module())
    return PanelApp(AutoBackend(NvmlBackend(wsl=False), HostBackend()))


async def test_no_gpu_banner_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    app = _no_gpu_app(monkeypatch)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for(pilot, lambda: "No NVIDIA GPU" in shown(app))  # the first sample is in
        text = shown(app)
        assert app.feed is not None and app.feed.sampler is not None and not app.feed.sampler.paused
        sampler = app.feed.sampler
        app.query_one("#col").display = False
        await wait_for(pilot, lambda: sampler.paused)  # hidden panel → no sampling
    app.feed.close()
    assert "host · No NVIDIA GPU (NVML library not found) — showing CPU and RAM" in text
    assert "CPU · " in text and "GPU 0" not in text


async def test_a_panel_shown_again_resumes_sampling(monkeypatch: pytest.MonkeyPatch) -> None:
    app = _no_gpu_app(monkeypatch)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for(pilot, lambda: "No NVIDIA GPU" in shown(app))
        assert app.feed is not None and app.feed.sampler is not None
        sampler = app.feed.sampler
        app.query_one("#col").display = False
        await wait_for(pilot, lambda: sampler.paused)
        app.query_one("#col").display = True
        await wait_for(pilot, lambda: not sampler.paused, timeout=10)  # the panel laid out again: it samples
    app.feed.close()


async def test_a_missed_show_event_does_not_pause_sampling_for_good(monkeypatch: pytest.MonkeyPatch) -> None:
    """The panel on screen whose last visibility news was "hidden" (a Show event Textual did not send): the panel
    notices it is on screen and the sampler runs again."""
    app = _no_gpu_app(monkeypatch)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for(pilot, lambda: "No NVIDIA GPU" in shown(app))
        assert app.feed is not None and app.feed.sampler is not None
        sampler = app.feed.sampler
        await wait_for(pilot, lambda: not sampler.paused)
        panel = app.query_one(TelemetryPanel)
        panel._visible = False  # a Hide with no Show after it, as the feed heard it
        app.feed.panel_visibility(panel, False)
        assert sampler.paused
        await wait_for(pilot, lambda: not sampler.paused)
    app.feed.close()


async def test_gpu_lost_is_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    card = fake.h200()
    monkeypatch.setitem(sys.modules, "pynvml", fake.FakeNvml([card]).module())
    b = NvmlBackend(wsl=False)
    b.probe()
    card.errors["nvmlDeviceGetUtilizationRates"] = fake.NVML_ERROR_GPU_IS_LOST
    snap = snapshots(b, 2)
    app = PanelApp()
    async with app.run_test(size=(120, 50)) as pilot:
        app.query_one(TelemetryPanel).update_snapshot(snap)
        await pilot.pause()
        text = shown(app)
    assert "GPU 0 lost (NVML: GPU is lost)" in text
    assert "LOST — no readings" in text


async def test_replay_is_labelled_and_enlarging_shows_more() -> None:
    app = PanelApp(f"replay:{TRACE}")
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for(pilot, lambda: "GPU 0 · NVIDIA GeForce RTX 5090" in shown(app))  # the first replayed sample
        panel = app.query_one(TelemetryPanel)
        text = shown(app)
        assert panel.has_class("-replay")
        assert "processes:" not in text
        panel.toggle_enlarged()
        await pilot.pause()
        assert panel.enlarged and panel.wide
        # the replay stops first: under load its next sample (no processes) replaced this one before it was read
        assert app.feed is not None
        app.feed.close()
        panel.update_snapshot(snapshots(ReplayBackend(TRACE), 6))  # mid-GEMM
        await wait_for(pilot, lambda: "processes:" in shown(app))
        enlarged = shown(app)
    assert "▶ REPLAY · Replay of rtx5090_gemm_synthetic.jsonl (nvml) — recorded figures, not this machine's" in text
    assert "GPU 0 · NVIDIA GeForce RTX 5090 · sm_120" in text
    assert "processes:" in enlarged and "? (4242) 8.0 GiB" in enlarged


async def test_panel_picks_up_the_latest_snapshot_on_mount() -> None:
    snap = snapshots(ReplayBackend(TRACE), 4)
    app = PanelApp()
    app.telemetry_snapshot = snap
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.pause()
        text = shown(app)
    assert "99 %" in text and "REPLAY" in text


async def test_bad_spec_is_shown_not_raised() -> None:
    app = PanelApp("cuda")
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.pause()
        text = shown(app)
    assert "Telemetry is off: unknown telemetry backend 'cuda'" in text
