"""A memory run's figures are named fields with units (issue 29 item 4), and the JSON stored before still reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tutor.content.loader import load_course
from tutor.grading import parse_prediction
from tutor.grading.kinds import grade
from tutor.grading.truth import resolve_truth
from tutor.paths import bundled_course
from tutor.results import Measurement, ResultError, VramFigures

RECORDED = Path(__file__).parent / "fixtures" / "results" / "every_exercise_small.json"


def _recorded(exercise_id: str) -> dict[str, Any]:
    """The raw result the tests' recording holds for ``exercise_id`` (as the engine sent it, before this type)."""
    result: dict[str, Any] = json.loads(RECORDED.read_text(encoding="utf-8"))["exercises"][exercise_id]["result"]
    return result


def test_a_recorded_cpu_run_reads_into_named_fields() -> None:
    raw = _recorded("n0-l3-8b-inference-fit")
    m = Measurement.from_json(raw)
    vram = m.vram
    assert isinstance(vram, VramFigures)
    assert vram.display == "Llama-3-8B" and vram.mode == "inference" and vram.dtype == "bfloat16"
    assert (vram.batch, vram.seq_len, vram.capacity_gb) == (1, 8192, 32)
    assert vram.total_gb == pytest.approx(27.33300296634026) and vram.fits is True and vram.verdict == "fits"
    assert vram.formula_total_gb == pytest.approx(26.35841664)
    assert vram.formula_bytes["weights"] == 16060522496.0
    assert vram.formula_gb_parts["weights"] == pytest.approx(16.060522496)
    assert vram.measured_over_formula == pytest.approx(1.037689327227897)
    assert vram.peak_allocated_bytes is None  # a GPU figure: not on a CPU run
    # None of it is left in the open bag, and every figure still answers by its JSON path as an exercise names it.
    assert not set(m.figures) & {"total_gb", "fits", "formula_total_gb", "extrapolated_bytes", "small_scale"}
    for path in ("total_gb", "formula_total_gb", "formula_gb_parts.kv_cache", "small_scale.n_params", "verdict"):
        node: Any = raw
        for part in path.split("."):
            node = node[part]
        assert m.figure(path) == node, path


def test_the_json_round_trip_gives_back_what_the_engine_sent() -> None:
    raw = _recorded("n0-l3-8b-inference-fit")
    again = Measurement.from_json(raw).to_json()
    assert again == raw
    assert Measurement.from_json(json.loads(json.dumps(again))) == Measurement.from_json(raw)


def test_an_older_row_with_fewer_figures_still_reads() -> None:
    """A row from before the formula's total and the small-scale evidence were stored, with only ``verdict``."""
    old = {"kind": "vram", "device": {"kind": "cpu", "name": "cpu", "fingerprint": "f"},
           "params": {"preset": "llama-3-8b"}, "preset": "llama-3-8b", "total_gb": 19.5, "capacity_gb": 32,
           "verdict": "does not fit", "label": "measured at small scale, extrapolated"}
    m = Measurement.from_json(old)
    assert m.vram is not None
    assert (m.vram.total_gb, m.vram.fits, m.vram.formula_total_gb, m.vram.oom) == (19.5, False, None, False)
    assert m.figure("verdict") == "does not fit"


def test_a_figure_of_the_wrong_type_is_refused_by_its_path() -> None:
    raw = {**_recorded("n0-l3-8b-inference-fit"), "total_gb": "20 GB"}
    with pytest.raises(ResultError, match="total_gb"):
        Measurement.from_json(raw, "attempt 7's measurement")


def test_a_cpu_fit_is_graded_against_the_formula_from_the_typed_figures() -> None:
    course = load_course(bundled_course())
    exercise = course.exercises["n0-l3-8b-inference-fit"]
    m = Measurement.from_json(_recorded("n0-l3-8b-inference-fit"))
    truth = resolve_truth(exercise, m)
    assert truth.value == pytest.approx(26.35841664)  # the formula's total, not the extrapolated 27.3
    assert truth.details["measured_extrapolated_gb"] == pytest.approx(27.33300296634026)
    verdict = grade(exercise, parse_prediction(exercise, "fits", 0.8), truth)
    assert verdict.verdict == "correct"


def test_a_gpu_run_s_figures_round_trip() -> None:
    """The CUDA engine's shape (no GPU here: the JSON its _measure_cuda returns, an out-of-memory run)."""
    raw = {"kind": "vram", "device": {"kind": "cuda", "name": "NVIDIA H200", "fingerprint": "g"},
           "params": {"preset": "llama-3-70b"}, "preset": "llama-3-70b", "display": "Llama-3-70B", "mode": "training",
           "dtype": "bfloat16", "batch": 8, "seq_len": 8192, "capacity_gb": 141,
           "formula_bytes": {"weights": 1.4e11, "total": 1.2e12}, "formula_gb": 1200.0,
           "formula_gb_parts": {"weights": 140.0, "total": 1200.0}, "device_kind": "cuda",
           "label": "measured on the GPU", "peak_allocated_bytes": 1.39e11, "peak_reserved_bytes": 1.4e11,
           "context_bytes": 6.0e8, "context_source": "measured (device used − torch reserved)",
           "context_kind": "measured", "gpu_total_bytes": 1.5e11, "free_after_bytes": 1.4e11,
           "total_bytes": 1.396e11, "total_gb": 139.6, "oom": True, "error": "CUDA out of memory.", "fits": False,
           "verdict": "does not fit", "note": "out of memory on this GPU: does not fit"}
    m = Measurement.from_json(raw)
    assert m.vram is not None and m.vram.oom and m.vram.fits is False and m.vram.error == "CUDA out of memory."
    assert m.vram.peak_allocated_bytes == 1.39e11 and m.vram.extrapolated_bytes is None
    assert m.to_json() == raw
