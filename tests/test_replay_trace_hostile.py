"""A replay trace is untrusted input: odd numbers become N/A or a located error, text is cleaned, files are bounded."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tutor.telemetry.format import gib, pct, watts
from tutor.telemetry.replay import ReplayBackend
from tutor.telemetry.spec import BackendSpecError, open_backend
from tutor.telemetry.trace import TraceError, read_trace


def _line(**metrics: Any) -> str:
    return json.dumps({"t": 1_764_669_600.0, "backend": "host", "device": "host", "metrics": metrics})


def _write(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "trace.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ('{"t": 1, "device": "host", "metrics": {"cpu_pct": NaN}}',
         r"trace\.jsonl:2:51: error: NaN is not a finite number"),
        ('{"t": 1, "device": "host", "metrics": {"cpu_pct": 1e999}}',
         r"trace\.jsonl:2:51: error: 1e999 is not a finite"),
        ('{"t": 1, "device": "host", "metrics": {"cpu_pct": "12"}}', r":2:51: error: metrics\.cpu_pct: expected a nu"),
        ('{"t": "nan", "device": "host", "metrics": {}}',
         r"trace\.jsonl:2:7: error: t: expected seconds since the epoch"),
        ('{"t": 1e300, "device": "host", "metrics": {}}', r"trace\.jsonl:2:7: error: t: expected seconds"),
        ('{"t": 1, "device": 7, "metrics": {}}', r"trace\.jsonl:2:20: error: device: expected a device id"),
        ('{"t": 1, "device": "host", "metrics": {"processes": [["x", 1, 2]]}}',
         r":2:54: error: metrics\.processes\[0\]: expected"),
        ('{"t": 1, "device": "host", "metrics": {"throttle": [1, 2]}}',
         r":2:52: error: metrics\.throttle: expected a list"),
        ('{"t": 1, "device": "host", "metrics": ' + "[" * 50_000 + "]" * 50_000 + "}", r":2:\d+: error: JSON nested"),
    ],
)
def test_bad_values_are_located_errors(tmp_path: Path, raw: str, message: str) -> None:
    path = _write(tmp_path, _line(cpu_pct=1.0), raw)
    with pytest.raises(TraceError, match=message) as caught:
        read_trace(path)
    assert "\n" not in str(caught.value)


def test_huge_readings_are_shown_as_not_available(tmp_path: Path) -> None:
    path = _write(tmp_path, _line(cpu_pct=1e300, ram_used_bytes=-1e30, power_w=250.0, cpu_per_core_pct=[1e200, 5.0],
                                  processes=[[12, "py", 1e300]]))
    backend = ReplayBackend(path)
    (sample,) = backend.sample()
    assert sample.get("cpu_pct") is None and sample.get("ram_used_bytes") is None
    assert sample.get("power_w") == 250.0
    assert sample.get("cpu_per_core_pct") == (None, 5.0)
    assert sample.get("processes") == ((12, "py", None),)
    # formatting never crashes on what the reader lets through
    assert pct(sample.get("cpu_pct")) == pct(None) and watts(sample.get("power_w")) != pct(None)
    assert gib(sample.get("ram_used_bytes")) == gib(None)


def test_control_characters_in_trace_text_are_removed(tmp_path: Path) -> None:
    header = json.dumps({
        "trace": "gpu-tutor-telemetry", "version": 1, "backend": "nvml\x1b]0;x\x07",
        "status": {"backend": "nvml", "code": "ok", "message": "hi\x1b[2J there", "notes": ["\x9b31m"]},
        "devices": [{"id": "gpu0", "kind": "gpu", "name": "A100\x1b]52;c;ZXZpbA==\x07",
                     "metrics": ["power_w"], "static": {"mem_total_bytes": float(2**40), "driver": "5\x1b[0m",
                                                        "bad": {"x": 1}, "huge": 1e300}}],
    })
    sample = json.dumps({"t": 1.0, "device": "gpu0\x1b[1m", "metrics": {"throttle": ["power\x1b[31m cap"]}})
    trace = read_trace(_write(tmp_path, header, sample))
    text = repr(trace)
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    (device,) = trace.devices
    assert device.name == "A100]52;c;ZXZpbA==" and dict(device.static) == {"mem_total_bytes": float(2**40),
                                                                            "driver": "5[0m"}


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder", "latin-1"])
def test_hostile_trace_files_are_one_line(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "trace.jsonl"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path = Path("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    else:
        path.write_bytes(_line(cpu_pct=1.0).replace("host", "hôst").encode("latin-1"))
    with pytest.raises(BackendSpecError) as caught:
        open_backend(f"replay:{path}")
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)
