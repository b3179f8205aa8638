"""Sampler overhead: CPU time the sampler thread spends per second of sampling, at 1 Hz and 4 Hz.

Backends: the real host backend (psutil) and NVML stubbed with the test suite's fake pynvml (an RTX 5090 and an
H200), so the figure is the tutor's own cost per NVML call, not the driver's. Run::

    .venv/bin/python bench/telemetry_overhead.py [--seconds 10]

Measured with the thread's own CPU clock (``time.thread_time`` inside the sampler thread), so other load on the
machine does not count.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import threading
import time
from pathlib import Path

from tutor.telemetry import Sampler, TelemetryBackend
from tutor.telemetry.host import HostBackend
from tutor.telemetry.nvml import NvmlBackend
from tutor.telemetry.spec import AutoBackend

FAKE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "telemetry" / "fake_pynvml.py"


def stub_nvml() -> None:
    spec = importlib.util.spec_from_file_location("fake_pynvml", FAKE)
    assert spec is not None and spec.loader is not None
    fake = importlib.util.module_from_spec(spec)
    sys.modules["fake_pynvml"] = fake
    spec.loader.exec_module(fake)
    sys.modules["pynvml"] = fake.FakeNvml([fake.rtx_5090(), fake.h200()]).module()


def measure(backend: TelemetryBackend, hz: float, seconds: float) -> tuple[float, int]:
    """(CPU milliseconds per second of sampling, samples taken)."""
    cpu: list[float] = []
    count = [0]

    def on_snapshot(_snap: object) -> None:
        count[0] += 1
        cpu.append(time.thread_time())  # the sampler thread's own CPU clock

    sampler = Sampler(backend, 1.0 / hz, on_snapshot=on_snapshot)
    sampler.start()
    time.sleep(seconds)
    sampler.close()
    if len(cpu) < 2:
        return float("nan"), count[0]
    return (cpu[-1] - cpu[0]) / seconds * 1000.0, count[0] - 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    print(f"sampler CPU time per second of sampling ({args.seconds:.0f} s each, {threading.active_count()} threads)")
    for label, make in (
        ("host (psutil, real)", HostBackend),
        ("stubbed NVML, 2 GPUs", lambda: NvmlBackend(wsl=False)),
        ("auto: stubbed NVML 2 GPUs + host", lambda: AutoBackend(NvmlBackend(wsl=False), HostBackend())),
    ):
        if "NVML" in label:
            stub_nvml()
        for hz in (1.0, 4.0):
            ms, n = measure(make(), hz, args.seconds)
            print(f"  {label:<34} {hz:.0f} Hz: {ms:6.2f} ms CPU/s ({ms / 10:.3f} % of a core), {n} samples")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
