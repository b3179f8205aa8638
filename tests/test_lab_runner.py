"""The lab flow outside the screen: the prediction parsed as an exercise's is, the run stored and its notebook entry
filed by :class:`LabRunner`, and ``tutor lab run`` driven as a learner would from a shell (a real sweep on the CPU,
in the measurement worker process)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tests.support.lab import write_lab_course
from tutor.cli import main
from tutor.content import load_course
from tutor.measure.errors import MeasureFailed
from tutor.practice.labs import LabInputError, LabRunner, lab_request, parse_lab_prediction
from tutor.progress import ProgressStore
from tutor.progress.notebook import load_entries
from tutor.progress.rows import LabResult


@pytest.fixture
def course_dir(tmp_path: Path) -> Path:
    return write_lab_course(tmp_path / "course")


def test_a_prediction_is_parsed_like_an_exercise_s() -> None:
    p = parse_lab_prediction("150,5", "GB/s", "es")
    assert p.value == 150.5 and p.unit == "GB/s" and p.describe("es") == "150,5 GB/s"
    assert parse_lab_prediction("1,5e2 GB/s", "GB/s", "en").value == 150.0
    for bad in ("", "  ", "fast", "nan", "inf"):
        with pytest.raises(LabInputError, match="número"):
            parse_lab_prediction(bad, "GB/s", "es")
    with pytest.raises(LabInputError, match="positive"):
        parse_lab_prediction("-5", "GB/s", "en")
    with pytest.raises(LabInputError, match="predict first"):
        parse_lab_prediction(" ", None, "en")
    text = parse_lab_prediction("it drops after L2", None, "en")
    assert text.value is None and text.to_json()["text"] == "it drops after L2"


def test_the_request_carries_only_the_lab_s_own_call(course_dir: Path) -> None:
    lab = load_course(course_dir).lessons["lab-l1"].labs[0]
    # validated by the measurement plan: defaults filled in, nothing else beside op, name and params
    assert lab_request(lab) == {"op": "sweep", "name": "gemm_sizes",
                                "params": {"min_n": 32, "max_n": 96, "points": 2, "dtype": "float32"}}


def test_the_runner_stores_the_run_and_files_the_entry(course_dir: Path, tmp_path: Path) -> None:
    course = load_course(course_dir)
    lesson = course.lessons["lab-l1"]
    lab = lesson.labs[0]
    seen: list[dict[str, Any]] = []

    def measure(request: dict[str, Any], *, on_progress: Any = None, cancel_event: threading.Event | None = None,
                on_point: Any = None) -> dict[str, Any]:
        seen.append(request)
        return {"kind": "sweep", "name": "gemm_sizes", "points": [{"n": 32, "gflops": 1.5, "time_s": 4.4e-05}],
                "device": {"kind": "cpu", "name": "test cpu", "fingerprint": "fp-1"}}

    store = ProgressStore(tmp_path / "p.sqlite3")
    filed = LabRunner(store, measure).run(lesson, lab, parse_lab_prediction("3,5", "GFLOP/s", "es"), "es")
    assert seen == [lab_request(lab)]
    entries = load_entries(store)
    assert [e.id for e in entries] == [filed.entry_id]
    assert entries[0].entry.lab_id == "lab-gemm"
    runs = store.lab_runs()
    assert [r.id for r in runs] == [filed.lab_run_id] and runs[0].fingerprint == "fp-1"
    assert runs[0].prediction is not None and runs[0].prediction.value == 3.5
    # typed from the worker's answer on: the runner's result is what the store reads back (lease included)
    assert isinstance(filed.result, LabResult) and filed.result.measurement is not None
    assert [p.at() for p in filed.result.measurement.points] == [(32.0, 1.5)]
    assert runs[0].result == filed.result and filed.result.figure("lease")["held"] is False


def test_a_result_the_runner_cannot_read_fails_with_its_field(course_dir: Path, tmp_path: Path) -> None:
    lesson = load_course(course_dir).lessons["lab-l1"]

    def measure(request: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        return {"kind": "sweep", "name": "gemm_sizes", "points": [{"n": 32, "gflops": "fast"}],
                "device": {"kind": "cpu", "name": "test cpu", "fingerprint": "fp-1"}}

    store = ProgressStore(tmp_path / "p.sqlite3")
    with pytest.raises(MeasureFailed, match=r"^the lab's result\.points\.0\.gflops: expected a number"):
        LabRunner(store, measure).run(lesson, lesson.labs[0], parse_lab_prediction("3", "GFLOP/s", "en"), "en")
    assert store.lab_runs() == [] and load_entries(store) == []  # nothing stored, nothing filed


def test_tutor_lab_run_headless(course_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    common = ["--course", str(course_dir), "--data-dir", str(data)]
    assert main(["lab", "list", *common, "--lang", "es"]) == 0
    assert "lab-gemm" in capsys.readouterr().out

    assert main(["lab", "run", "lab-gemm", "--predict", "rápido", *common, "--lang", "es"]) == 2
    assert "número" in capsys.readouterr().err
    assert main(["lab", "run", "no-such-lab", "--predict", "1", *common, "--lang", "en"]) == 2
    assert "no lab" in capsys.readouterr().err

    assert main(["lab", "run", "lab-gemm", "--predict", "2,5", *common, "--lang", "es"]) == 0
    out = capsys.readouterr().out
    assert "2,5 GFLOP/s" in out and "tutor notebook export --entry 1" in out
    store = ProgressStore(data / "progress.sqlite3")
    try:
        runs = store.lab_runs()
        assert len(runs) == 1 and runs[0].lab_id == "lab-gemm"
        assert runs[0].result is not None and runs[0].result.measurement is not None
        points = runs[0].result.measurement.points
        assert len(points) == 2 and all(p.values["gflops"] > 0 for p in points)
        assert len(load_entries(store)) == 1
    finally:
        store.close()
