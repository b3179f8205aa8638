"""The NVML backend against a stubbed pynvml (gpustat-style): real cards' figures, failures injected per call."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.telemetry import fake_pynvml as fake
from tutor.telemetry import AutoBackend, Sampler, open_backend
from tutor.telemetry.host import HostBackend
from tutor.telemetry.nvml import NvmlBackend, decode_clock_event_reasons

FIXTURES = Path(__file__).parent / "fixtures" / "telemetry"




class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def install(monkeypatch: pytest.MonkeyPatch, lib: object) -> None:
    monkeypatch.setitem(sys.modules, "pynvml", lib.module())  # type: ignore[attr-defined]


def backend(**kwargs: object) -> NvmlBackend:
    kwargs.setdefault("wsl", False)
    return NvmlBackend(**kwargs)  # type: ignore[arg-type]


def test_rtx_5090_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, fake.FakeNvml([fake.rtx_5090()]))
    b = backend()
    status = b.probe()
    assert status.ok and status.backend == "nvml"
    assert "1 GPU" in status.message and "575.51.03" in status.message
    (info,) = b.devices()
    assert info.id == "gpu0" and info.kind == "gpu" and info.name == "NVIDIA GeForce RTX 5090"
    assert info.static["sm_arch"] == "sm_120" and info.static["compute_capability"] == "12.0"
    assert info.static["power_limit_w"] == 575.0
    assert info.static["mem_total_bytes"] == 32607 * 2**20
    assert "pcie_tx_bytes_s" not in info.metrics  # off by default
    (s,) = b.sample()
    m = s.metrics
    assert s.state == "ok"
    assert m["gpu_util_pct"] == 87.0 and m["mem_bus_util_pct"] == 34.0
    assert m["mem_used_bytes"] == 1200 * 2**20 and m["mem_reserved_bytes"] == 470 * 2**20
    assert m["power_w"] == 410.0 and m["power_limit_w"] == 575.0
    assert m["temp_c"] == 64.0
    assert (m["sm_clock_mhz"], m["sm_clock_max_mhz"]) == (2407.0, 3090.0)
    assert (m["mem_clock_mhz"], m["mem_clock_max_mhz"]) == (14001.0, 14001.0)
    assert m["throttle"] == ("software power cap",)
    assert m["processes"][0][0] == 4242 and m["processes"][0][2] == 18 * 2**30
    assert m["pcie_tx_bytes_s"] is None


def test_two_gpus_h200_and_5090_with_pcie(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, fake.FakeNvml([fake.h200(), fake.rtx_5090()]))
    b = backend(pcie=True)
    assert "2 GPUs" in b.probe().message
    h200, rtx = b.devices()
    assert (h200.id, rtx.id) == ("gpu0", "gpu1")
    assert h200.static["sm_arch"] == "sm_90" and h200.static["power_limit_w"] == 700.0
    assert h200.static["mem_total_bytes"] > 140 * 10**9
    s0, s1 = b.sample()
    assert s0.metrics["power_w"] == 652.0 and s0.metrics["throttle"] == ()
    assert s1.metrics["pcie_rx_bytes_s"] == 3_000_000 * 1024.0


def test_not_supported_field_is_none_and_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    lib = fake.FakeNvml([fake.rtx_5090(errors={"nvmlDeviceGetTemperature": fake.NVML_ERROR_NOT_SUPPORTED,
                                               "nvmlDeviceGetPowerUsage": fake.NVML_ERROR_NOT_SUPPORTED})])
    install(monkeypatch, lib)
    b = backend()
    b.probe()
    (info,) = b.devices()
    assert "temp_c" not in info.metrics and "power_w" not in info.metrics
    for _ in range(3):
        (s,) = b.sample()
        assert s.metrics["temp_c"] is None and s.metrics["power_w"] is None  # N/A, never 0
        assert s.metrics["gpu_util_pct"] == 87.0
    assert lib.calls.count("nvmlDeviceGetTemperature") == 1  # asked once, then dropped


def test_function_not_found_falls_back_to_older_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    lib = fake.FakeNvml([fake.rtx_5090(errors={
        "nvmlDeviceGetMemoryInfo_v2": fake.NVML_ERROR_FUNCTION_NOT_FOUND,
        "nvmlDeviceGetCurrentClocksEventReasons": fake.NVML_ERROR_FUNCTION_NOT_FOUND,
    })])
    install(monkeypatch, lib)
    b = backend()
    b.probe()
    (s,) = b.sample()
    assert s.metrics["mem_used_bytes"] == 1200 * 2**20 and s.metrics["mem_total_bytes"] == 32607 * 2**20
    assert s.metrics["mem_reserved_bytes"] is None
    assert "mem_reserved_bytes" not in b.devices()[0].metrics
    assert s.metrics["throttle"] == ("software power cap",)
    assert lib.calls.count("nvmlDeviceGetCurrentClocksEventReasons") == 1
    assert lib.calls.count("nvmlDeviceGetCurrentClocksThrottleReasons") == 2


def test_old_binding_without_the_newer_functions(monkeypatch: pytest.MonkeyPatch) -> None:
    lib = fake.FakeNvml(missing=("nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetEnforcedPowerLimit",
                                 "nvmlDeviceGetMigMode"))
    install(monkeypatch, lib)
    b = backend()
    assert b.probe().ok
    (s,) = b.sample()
    assert s.metrics["throttle"] == ("software power cap",) and s.metrics["power_limit_w"] == 575.0
    assert b.devices()[0].static["mig"] is None


def test_transient_error_is_none_this_time_and_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    card = fake.rtx_5090()
    install(monkeypatch, lib := fake.FakeNvml([card]))
    b = backend()
    b.probe()
    card.errors["nvmlDeviceGetUtilizationRates"] = fake.NVML_ERROR_UNKNOWN
    (s,) = b.sample()
    assert s.metrics["gpu_util_pct"] is None
    del card.errors["nvmlDeviceGetUtilizationRates"]
    (s,) = b.sample()
    assert s.metrics["gpu_util_pct"] == 87.0
    assert "gpu_util_pct" in b.devices()[0].metrics
    assert lib.calls.count("nvmlDeviceGetUtilizationRates") == 3


def test_gpu_lost_mid_run(monkeypatch: pytest.MonkeyPatch) -> None:
    cards = [fake.rtx_5090(), fake.h200()]
    install(monkeypatch, lib := fake.FakeNvml(cards))
    b = backend()
    b.probe()
    assert all(s.state == "ok" for s in b.sample())
    cards[0].errors = dict.fromkeys(
        ["nvmlDeviceGetUtilizationRates", "nvmlDeviceGetMemoryInfo_call", "nvmlDeviceGetPowerUsage"],
        fake.NVML_ERROR_GPU_IS_LOST,
    )
    lost, alive = b.sample()
    assert lost.state == "lost" and all(v is None for v in lost.metrics.values())
    assert alive.state == "ok" and alive.metrics["power_w"] == 652.0
    status = b.probe()
    assert status.code == "gpu_lost" and "GPU 0" in status.message
    before = lib.calls.count("nvmlDeviceGetUtilizationRates")
    b.sample()
    assert lib.calls.count("nvmlDeviceGetUtilizationRates") == before + 1  # only the live GPU is asked
    assert b.devices()[0].metrics == ()


@pytest.mark.parametrize(
    ("error", "code", "words"),
    [
        (fake.NVML_ERROR_LIBRARY_NOT_FOUND, "library_not_found", "NVML library not found"),
        (fake.NVML_ERROR_DRIVER_NOT_LOADED, "driver_not_loaded", "NVIDIA driver not loaded"),
        (fake.NVML_ERROR_LIB_RM_VERSION_MISMATCH, "driver_library_mismatch", "version mismatch"),
        (fake.NVML_ERROR_NO_PERMISSION, "no_permission", "no permission"),
    ],
)
def test_init_failures_are_named(monkeypatch: pytest.MonkeyPatch, error: int, code: str, words: str) -> None:
    install(monkeypatch, fake.FakeNvml(init_error=error))
    b = backend()
    status = b.probe()
    assert status.code == code and words in status.message and status.notes
    assert b.devices() == () and b.sample() == ()
    auto = AutoBackend(backend(), HostBackend())
    host_status = auto.probe()
    assert host_status.backend == "host" and host_status.code == code
    assert host_status.message == f"No NVIDIA GPU ({status.message}) — showing CPU and RAM"
    assert [d.id for d in auto.devices()] == ["host"]


def test_no_devices(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, lib := fake.FakeNvml([]))
    status = backend().probe()
    assert status.code == "no_devices"
    assert lib.calls[-1] == "nvmlShutdown"


def test_failed_init_retried_at_most_once_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    lib = fake.FakeNvml(init_error=fake.NVML_ERROR_DRIVER_NOT_LOADED)
    install(monkeypatch, lib)
    clock = Clock()
    b = backend(clock=clock)
    auto = AutoBackend(b, HostBackend())
    for _ in range(100):  # a 4 Hz sampler for 25 s, say
        auto.sample()
        clock.now += 0.25
    assert b.init_attempts == 1 and lib.calls.count("nvmlInit") == 1
    clock.now = 1000.0 + 59.9
    auto.probe()
    assert b.init_attempts == 1
    clock.now = 1000.0 + 60.0
    auto.probe()
    assert b.init_attempts == 2
    lib.init_error = None  # the driver came up (e.g. after modprobe)
    clock.now += 60.0
    assert auto.probe().backend == "nvml+host"
    assert [d.id for d in auto.devices()] == ["gpu0", "host"]
    assert b.init_attempts == 3
    auto.sample()
    assert b.init_attempts == 3


def test_sampler_records_none_not_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    card = fake.rtx_5090(errors={"nvmlDeviceGetPowerUsage": fake.NVML_ERROR_NOT_SUPPORTED})
    install(monkeypatch, fake.FakeNvml([card]))
    t = [100.0]
    sampler = Sampler(backend(), 1.0, clock=lambda: t[0])
    for _ in range(5):
        t[0] += 1.0
        sampler.sample_once()
    power = sampler.history("gpu0", "power_w")
    assert power.values == (None,) * 5
    util = sampler.history("gpu0", "gpu_util_pct")
    assert util.values == (87.0,) * 5
    summary = sampler.window_summary(100.0, 105.0)["gpu0"]
    assert summary.samples == 5 and summary.util_mean_pct == 87.0 and summary.util_peak_pct == 87.0
    assert summary.power_mean_w is None and summary.mem_peak_bytes == 1200 * 2**20
    assert summary.mem_total_bytes == 32607 * 2**20


def test_mig_and_wsl_are_noted(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, fake.FakeNvml([fake.h200(mig_mode=(1, 1))]))
    b = backend(wsl=True)
    status = b.probe()
    assert any("MIG is enabled" in n for n in status.notes)
    assert any(n.startswith("WSL2") for n in status.notes)
    assert b.devices()[0].static["mig"] is True


def test_decode_clock_event_reasons() -> None:
    assert decode_clock_event_reasons(0) == ()
    assert decode_clock_event_reasons(0x24) == ("software power cap", "software thermal slowdown")
    assert decode_clock_event_reasons(0x1 | 0x8000) == ("idle", "other (0x8000)")


def test_open_backend_specs(tmp_path: Path) -> None:
    assert open_backend("auto").name == "auto"
    assert open_backend("nvml").name == "nvml"
    assert open_backend(" HOST ").name == "host"
    with pytest.raises(ValueError, match="expected auto, nvml, host or replay:FILE"):
        open_backend("cuda")
    with pytest.raises(ValueError, match="needs a trace file"):
        open_backend("replay:")
    with pytest.raises(ValueError, match="not found"):
        open_backend(f"replay:{tmp_path / 'missing.jsonl'}")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": 1, "device": "host", "metrics": {}}\nnot json\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.jsonl:2:1: error: invalid JSON"):
        open_backend(f"replay:{bad}")


def test_core_imports_neither_textual_nor_pynvml() -> None:
    code = (
        "import sys, tutor.telemetry, tutor.telemetry.nvml, tutor.commands.telemetry;"
        "bad = [m for m in ('textual', 'pynvml', 'torch') if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
