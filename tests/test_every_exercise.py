"""Every bundled exercise's explanation read against what was measured (issue 11 item 2), on several machine
shapes (issue 26 item 1).

The measurements are RECORDED (``tests/fixtures/results/every_exercise_small.json``, the quick check's small sizes)
and replayed through the exercise runner (the path of ``tutor exercise run``: lock, measure, grade, store) as a
big-cache Xeon, a small-cache EPYC, an RTX 5090's roof and a noisy run would have answered them
(:mod:`tests.support.shapes`), so the outcome never depends on the machine that runs the tests. The live check, on
this machine at the exercises' real sizes, is ``bench/run_every_exercise.py``: it reports disagreements.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.answer_key import (
    ExerciseCheck,
    check_outcome,
    default_prediction,
    opposite_side_sentences,
    render_table,
    run_every_exercise,
    small_request,
)
from tests.support.shapes import SHAPES, load_recording, on_shape, replaying
from tutor.content import load_course
from tutor.grading.verdict import ResolvedTruth
from tutor.paths import bundled_course
from tutor.practice import ExerciseRunner
from tutor.progress import ProgressStore


def _replay_course(shape: str | None, tmp_path: Path) -> tuple[list[ExerciseCheck], int]:
    course = load_course(bundled_course())
    recording = load_recording()
    store = ProgressStore(tmp_path / "p.sqlite3")
    checks: list[ExerciseCheck] = []
    try:
        for ex_id in sorted(course.exercises):
            measured = ex_id in recording["exercises"]
            if course.exercises[ex_id].measure is not None and course.exercises[ex_id].measure.op != "doctor":
                assert measured, f"{ex_id} measures something but has no recorded measurement: record again"
            runner = ExerciseRunner(store, replaying(SHAPES[shape] if shape else None, recording, ex_id)
                                    if measured else None)
            checks += run_every_exercise(course, runner, device="cpu", ids=[ex_id])
    finally:
        store.close()
    return checks, len(course.exercises)


@pytest.mark.parametrize("shape", [None, *sorted(SHAPES)])
def test_every_bundled_exercise_explains_what_was_measured_on_each_shape(shape: str | None, tmp_path: Path) -> None:
    checks, count = _replay_course(shape, tmp_path)
    table = render_table(checks)
    assert len(checks) == count >= 70, table
    assert all(c.agree for c in checks), table
    assert sum(c.variants != "—" for c in checks) >= 5, table  # the exercises with variants were checked
    if shape == "noisy-epyc":  # disturbed: every measured bound verdict is inconclusive, and no side is said
        bound = [c for c in checks if c.kind == "bound" and c.measured != "—"]
        assert bound and all(c.truth.endswith("(inconclusive)") for c in bound), table


def test_the_shapes_put_the_bound_exercises_on_both_sides(tmp_path: Path) -> None:
    """The shapes are chosen so that every machine-dependent bound exercise is read on each side it can land on:
    naive attention is compute-bound on the small-cache EPYC's roof (ridge ≈ 1.9 FLOP/B) and memory-bound on an
    RTX 5090's (≈ 58); a GEMV is memory-bound everywhere."""
    recording = load_recording()
    sides: dict[str, set[str]] = {}
    for name, shape in SHAPES.items():
        for ex_id, entry in recording["exercises"].items():
            result = on_shape(shape, entry["result"])
            if result.get("kind") == "workload" and "classification" in result:
                sides.setdefault(ex_id, set()).add(result["classification"]["bound"])
        assert name
    assert sides["n0-l1-attention-naive-bound"] == {"memory", "compute"}
    assert sides["f1-lab03-attention-side"] == {"memory", "compute"}
    assert sides["n0-l1-gemv-bound"] == {"memory"}
    assert sum(len(s) == 2 for s in sides.values()) >= 4, sides


def test_a_recording_for_another_workload_is_refused_as_stale() -> None:
    recording = load_recording()
    measure = replaying(None, recording, "n0-l1-triad-bound")
    with pytest.raises(AssertionError, match="record"):
        measure({"op": "workload", "name": "gemm"}, None, None)


def test_small_requests_keep_their_meaning() -> None:
    gemv = small_request({"op": "workload", "name": "gemm", "params": {"m": 1, "n": 8192, "k": 8192}})
    assert gemv["params"] == {"m": 1, "n": 256, "k": 256} and gemv["budget_s"] == 0.05  # still a GEMV
    assert small_request({"op": "decode", "mode": "quick"})["mode"] == "tiny"
    # a sweep whose truth names its points keeps its sizes; the roofline op stays in quick mode (bf16, fp64 peaks)
    sweep = small_request({"op": "sweep", "name": "working_set", "params": {"min_kib": 1024, "max_mib": 512}})
    assert sweep["params"]["max_mib"] == 512 and sweep["roofline_mode"] == "tiny"
    assert small_request({"op": "sweep", "name": "gemm_sizes", "params": {"max_n": 2048}})["params"]["max_n"] == 256
    assert "mode" not in small_request({"op": "roofline", "refresh": False})


def test_an_explanation_that_asserts_the_other_side_is_caught() -> None:
    text = ("Measured here, naive attention is compute-bound on your machine. On a GPU it would be memory-bound.\n\n"
            "Your machine is not memory-bound here.")
    assert opposite_side_sentences(text, "memory") == [
        "Measured here, naive attention is compute-bound on your machine."]
    assert opposite_side_sentences(text, "compute") == []  # the others are a condition and a negation
    # "there" and "where" name another machine, not this run ("here" inside them is not a word)
    gpu = "An RTX 5090 has its ridge at 58, far above: there it lands on the memory side, where it is memory-bound."
    assert opposite_side_sentences(gpu, "compute") == []
    assert opposite_side_sentences("Here it is memory-bound.", "compute") == ["Here it is memory-bound."]
    es = "En tu máquina quedó limitado por el cómputo."
    assert opposite_side_sentences(es, "memory") == [es]


def test_a_variant_shown_against_its_condition_is_caught() -> None:
    course = load_course(bundled_course())
    exercise = course.exercises["f1-lab03-attention-side"]
    bound_variants = [v for v in exercise.explanation_when if v.when.bound is not None]
    assert bound_variants
    # the explanation shows the compute variant's text while the measurement said memory
    shown = next(v for v in bound_variants if v.when.bound != "memory")
    truth = ResolvedTruth(source="measured on Test CPU", choice="memory")
    outcome = SimpleNamespace(exercise=exercise, verdict=SimpleNamespace(truth=truth, ratio=None, score=0.0),
                              measurement=None, prediction=default_prediction(exercise),
                              explanation={"en": str(shown.text.en), "es": str(shown.text.es)})
    problems, side, _ = check_outcome(outcome)  # type: ignore[arg-type]
    assert side == "memory"
    assert any("shown but its condition fails" in p for p in problems), problems
