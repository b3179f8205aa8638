"""What rebuilds a locked environment: the pinned requirements and the Dockerfile, and C0's stack condition
met only by a doctor run in a later process that checks the environment against that lock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.doctor.rebuild import base_image, dockerfile_text, pins, requirements_text, torch_build
from tutor.progress import ProgressStore
from tutor.progress.c0 import stack_condition
from tutor.results.lock import EnvironmentLock


def lock(torch: str, cuda: str | None = None, cudnn: int | None = None) -> EnvironmentLock:
    return EnvironmentLock.from_json({
        "schema": "gpu-tutor/lock/v1", "created_at": "2026-12-03T06:00:00+0000", "written_by": "gpu-tutor 0.1",
        "python": {"version": "3.12.3"}, "platform": {"system": "Linux", "machine": "x86_64"},
        "torch": {"version": torch, "cuda": cuda, "cudnn": cudnn},
        "packages": {"torch": torch.partition("+")[0], "numpy": "2.3.1", "triton": None,
                     "nvidia-cublas-cu12": "12.8.4.1"}})


def test_the_torch_build_names_its_index() -> None:
    assert torch_build(lock("2.13.0+cpu")) == ("2.13.0+cpu", "https://download.pytorch.org/whl/cpu")
    assert torch_build(lock("2.7.0+cu128", "12.8")) == ("2.7.0+cu128", "https://download.pytorch.org/whl/cu128")
    # PyPI's default Linux wheel has no local tag: the CUDA it was built with names the matching index
    assert torch_build(lock("2.7.0", "12.6")) == ("2.7.0", "https://download.pytorch.org/whl/cu126")
    assert torch_build(lock("2.7.0")) == ("2.7.0", None)


def test_requirements_pin_every_locked_package_exactly() -> None:
    text = requirements_text(lock("2.7.0+cu128", "12.8", 90100))
    lines = [x for x in text.splitlines() if not x.startswith("#")]
    assert lines == ["--extra-index-url https://download.pytorch.org/whl/cu128", "numpy==2.3.1",
                     "nvidia-cublas-cu12==12.8.4.1", "torch==2.7.0+cu128"]
    assert "triton" not in pins(lock("2.13.0+cpu"))  # absent packages are not pinned


def test_the_dockerfile_starts_from_an_official_image() -> None:
    gpu = lock("2.7.0+cu128", "12.8", 90100)
    assert base_image(gpu) == "pytorch/pytorch:2.7.0-cuda12.8-cudnn9-runtime"
    assert base_image(lock("2.13.0+cpu")) == "python:3.12-slim"
    text = dockerfile_text(gpu, "environment.lock.requirements.txt", "environment.lock.json")
    assert "FROM pytorch/pytorch:2.7.0-cuda12.8-cudnn9-runtime" in text.splitlines()
    assert "RUN python -m pip install --no-cache-dir -r /opt/gpu-tutor/requirements.txt" in text
    assert "docker run --gpus all" in text


def test_lock_writes_the_rebuild_and_a_later_process_checks_it(capsys: pytest.CaptureFixture[str],
                                                                data_dir: Path) -> None:
    assert main(["doctor", "--lock", "--no-probe"]) == 0
    out = capsys.readouterr().out
    requirements = data_dir / "environment.lock.requirements.txt"
    dockerfile = data_dir / "environment.lock.Dockerfile"
    assert str(requirements) in out and str(dockerfile) in out
    written = json.loads((data_dir / "environment.lock.json").read_text())
    import torch

    assert f"torch=={torch.__version__}" in requirements.read_text().splitlines()
    assert written["rebuild"]["pins"]["torch"] == torch.__version__
    assert dockerfile.read_text().count("FROM ") == 1
    # The same process checking again is not evidence: nothing was rebuilt or restarted.
    assert main(["doctor", "--no-probe"]) == 0
    capsys.readouterr()
    store = ProgressStore()
    try:
        cond = stack_condition(store.doctor_runs())
    finally:
        store.close()
    assert not cond.passed and "no later `tutor doctor`" in cond.evidence.render("en")
    # A later process (here: the same environment; the lead's check is a fresh venv from the requirements).
    env = {**os.environ, "TUTOR_DATA_DIR": str(data_dir)}
    done = subprocess.run([sys.executable, "-m", "tutor", "doctor", "--check-lock", "--no-probe", "--lang", "en"],
                          env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = " ".join(done.stdout.split())
    assert "matches the lock" in seen and f"ago); pins torch {torch.__version__}" in seen
    store = ProgressStore()
    try:
        cond = stack_condition(store.doctor_runs())
    finally:
        store.close()
    assert cond.passed and cond.refs["lock_run"] == 1 and cond.refs["check_run"] == 3
    words = cond.evidence.render("en")
    assert "a later process" in words and f"torch {torch.__version__}" in words


def test_the_lock_pins_every_runtime_dependency_the_tutor_declares() -> None:
    """A rebuilt environment must not float a dependency: every package pyproject.toml declares for running the
    tutor (babel, psycopg, textual-serve included) is pinned in the lock, hence in the requirements."""
    import tomllib

    from tutor.doctor.lock import current_lock

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    declared = {dep.split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip().lower()
                for dep in project["project"]["dependencies"]}
    assert {"babel", "psycopg", "textual-serve"} <= declared
    locked = {name.lower() for name, version in (current_lock().packages or {}).items() if version}
    assert declared <= locked, declared - locked
    pinned = {line.split("==")[0].lower() for line in requirements_text(current_lock()).splitlines()
              if "==" in line and not line.startswith("#")}
    assert declared <= pinned, declared - pinned
