"""`tutor bench`: bad input is one line and a non-zero exit; a tiny run writes the v1 JSON, is stored, and a
second run is compared with it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.measure.bench_report import HEADLINE_KEYS, SCHEMA, compare, render_markdown, render_table
from tutor.progress.store import ProgressStore
from tutor.results import BenchReport


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tutor", *args], capture_output=True, text=True, timeout=300)


def test_unknown_device_is_one_line(tmp_path: Path) -> None:
    proc = run_cli("bench", "--device", "tpu", "--data-dir", str(tmp_path), "--lang", "en")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "tutor: error: unknown device 'tpu' (choose auto, cpu or cuda)"
    proc = run_cli("bench", "--device", "tpu", "--data-dir", str(tmp_path), "--lang", "es")
    assert proc.stderr.strip() == "tutor: error: dispositivo desconocido «tpu» (elige auto, cpu o cuda)"


def test_cuda_absent_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "--device", "cuda", "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and err.startswith("tutor: error: no CUDA device")


def test_bad_tolerance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--tolerance", "7", "--data-dir", str(tmp_path)]) == 2
    assert "--tolerance" in capsys.readouterr().err


def test_tiny_run_twice(tmp_path: Path) -> None:
    data = tmp_path / "data"
    out = tmp_path / "out.json"
    md = tmp_path / "out.md"
    proc = run_cli("bench", "--tiny", "--device", "cpu", "--json", str(out), "--markdown", str(md),
                   "--data-dir", str(data), "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "bandwidth" in proc.stderr  # progress on stderr
    assert "peak bandwidth" in proc.stdout and "no previous run" in proc.stdout
    report = json.loads(out.read_text())
    assert report["schema"] == SCHEMA == "gpu-tutor/bench/v1"
    assert set(report["headline"]) == set(HEADLINE_KEYS)
    assert set(report["headline"]["peak_flops_tflops"]) >= {"float32"}
    assert {"bandwidth", "gemm", "decode", "train_step"} <= set(report["tests"])
    assert report["device"]["kind"] == "cpu" and report["env"]["torch"]
    assert set(report["cv"]) == set(HEADLINE_KEYS)
    assert md.read_text().startswith("# GPU Tutor bench")
    train = report["tests"]["train_step"]
    if train["theoretical_gflops"]:  # MFU is over the device's theoretical peak, not the measured matmul peak
        assert report["headline"]["mfu"] == pytest.approx(train["achieved_gflops"] / train["theoretical_gflops"])
    assert any(n.startswith("comparison: two runs agree when") for n in report["notes"])
    rounds = report["tests"]["rounds"]["count"]
    assert (f"peak bandwidth: the fastest copy over {rounds} interleaved rounds, as STREAM reports it; every other "
            "figure: the median of the rounds") in proc.stdout
    if train["theoretical_gflops"]:  # the peak behind MFU, with where each input was read
        assert "MFU over a theoretical peak of" in proc.stdout and "cores ×" in proc.stdout

    proc = run_cli("bench", "--tiny", "--device", "cpu", "--data-dir", str(data), "--json", "--lang", "en")  # stdout
    assert proc.returncode == 0, proc.stderr
    second = json.loads(proc.stdout)  # stdout is only the JSON; the table went to stderr
    assert second["comparison"]["figures"] and "vs previous" in proc.stderr
    assert all(0.05 <= f["allowed"] <= 0.15 for f in second["comparison"]["figures"])
    assert "max(5 %, 2·√(CV₁² + CV₂²))" in proc.stderr
    assert "JSON report on stdout" in proc.stderr
    runs = ProgressStore(data / "progress.sqlite3").bench_runs(report["device"]["fingerprint"])
    assert len(runs) == 2 and runs[0].report is not None
    assert runs[0].report.to_json()["headline"] == report["headline"]


def test_comparison_and_rendering() -> None:
    head = {"peak_bandwidth_gbs": 30.0, "peak_flops_tflops": {"float32": 0.15}, "ridge_flops_per_byte": 5.0,
            "decode_tokens_per_s": 100.0, "decode_bound_tokens_per_s": 250.0, "train_tokens_per_s": 600.0,
            "mfu": 0.3}
    a_json = {"mode": "quick", "headline": head, "device": {"kind": "cpu", "name": "X", "fingerprint": "f"},
              "cv": {}, "env": {}}
    a = BenchReport.from_json(a_json)
    b = BenchReport.from_json({**a_json, "headline": {**head, "peak_bandwidth_gbs": 33.0}})
    c = compare(b, a)
    assert c is not None and not c.agree
    bw = next(f for f in c.figures if f.key == "peak_bandwidth_gbs")
    assert bw.ratio == pytest.approx(1.1) and not bw.agree
    assert compare(a, a).agree  # type: ignore[union-attr]
    assert compare(a, None) is None
    assert "DIFFERS" in render_table(b, c)
    assert "| peak bandwidth | 33.0 | GB/s |" in render_markdown(b, c)
