"""``tutor telemetry`` headless: JSON lines, nothing on stderr, record → replay round trip."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import psutil

TUTOR = [sys.executable, "-m", "tutor"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TUTOR, "telemetry", *args], capture_output=True, text=True, timeout=60, check=False)


def test_json_lines_and_nothing_on_stderr() -> None:
    result = run("--json", "--samples", "2", "--interval", "0.25")
    assert result.returncode == 0 and result.stderr == ""
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 2  # this machine: the host only (no NVIDIA GPU), one line per sample
    for line in lines:
        assert set(line) == {"t", "backend", "device", "metrics", "status"}
        assert line["backend"] == "host" and line["device"] == "host"
        assert line["status"]["code"] == "library_not_found"
        assert line["status"]["message"] == "No NVIDIA GPU (NVML library not found) — showing CPU and RAM"
        assert line["metrics"]["ram_total_bytes"] == psutil.virtual_memory().total
        assert 0 <= line["metrics"]["cpu_pct"] <= 100
    assert 0.2 < lines[1]["t"] - lines[0]["t"] < 0.6


def test_table_output() -> None:
    result = run("--samples", "1", "--interval", "0.25", "--backend", "host", "--lang", "en")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith("[host] CPU and RAM of this machine")
    assert "CPU " in result.stdout and "RAM " in result.stdout and " GiB" in result.stdout and " load " in result.stdout
    result = run("--samples", "1", "--interval", "0.25", "--backend", "host", "--lang", "es")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith("[host] CPU y RAM de esta máquina") and " carga " in result.stdout
    assert not re.search(r"\d\.\d", result.stdout.split("  ", 1)[1]), result.stdout  # decimal commas


def test_bad_input_is_one_line_on_stderr() -> None:
    for args, words in (
        (("--backend", "cuda"), "unknown telemetry backend 'cuda'"),
        (("--interval", "0.1"), "--interval must be at least 0.25"),
        (("--samples", "0"), "--samples must be at least 1"),
        (("--backend", "nvml", "--samples", "1"), "NVML is not available: NVML library not found"),
    ):
        result = run(*args, "--lang", "en")
        assert result.returncode in (1, 2) and result.stdout == ""
        assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr
    spanish = run("--interval", "0.1", "--lang", "es")
    assert spanish.stderr.strip() == "tutor: error: --interval debe ser al menos 0,25 s (llegó 0,1)"


def test_record_then_replay(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    recorded = run("--json", "--samples", "3", "--interval", "0.25", "--record", str(trace))
    assert recorded.returncode == 0 and recorded.stderr == ""
    file_lines = trace.read_text(encoding="utf-8").splitlines()
    assert json.loads(file_lines[0])["trace"] == "gpu-tutor-telemetry"
    assert file_lines[1:] == recorded.stdout.splitlines()
    replayed = run("--json", "--samples", "3", "--interval", "0.25", "--backend", f"replay:{trace}")
    assert replayed.returncode == 0 and replayed.stderr == ""
    lines = [json.loads(line) for line in replayed.stdout.splitlines()]
    original = [json.loads(line) for line in recorded.stdout.splitlines()]
    assert [ln["backend"] for ln in lines] == ["replay"] * 3
    assert [ln["metrics"] for ln in lines] == [ln["metrics"] for ln in original]
    assert lines[0]["status"]["code"] == "replay" and "Replay of trace.jsonl (host)" in lines[0]["status"]["message"]
