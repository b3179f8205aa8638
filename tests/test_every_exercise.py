"""Every bundled exercise run headless on this machine, through the exercise runner (the path of
``tutor exercise run``), each request shrunk to its smallest sizes; the explanation shown must agree with what was
measured (issue 11 item 2). ``bench/run_every_exercise.py`` runs them at their real sizes."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

from tutor.content import load_course
from tutor.grading.verdict import ResolvedTruth
from tutor.measure.api import run_request
from tutor.paths import bundled_course
from tutor.practice import ExerciseRunner
from tutor.practice.answer_key import (
    check_outcome,
    default_prediction,
    opposite_side_sentences,
    render_table,
    run_every_exercise,
    small_measure,
    small_request,
)
from tutor.progress import ProgressStore


def test_every_bundled_exercise_explains_what_this_machine_measured(tmp_path: Path) -> None:
    course = load_course(bundled_course())
    store = ProgressStore(tmp_path / "p.sqlite3")
    started = time.monotonic()
    try:
        checks = run_every_exercise(course, ExerciseRunner(store, small_measure(run_request)), device="cpu")
    finally:
        store.close()
    table = render_table(checks)
    assert len(checks) == len(course.exercises) >= 70, table
    assert all(c.agree for c in checks), table
    measured_sides = {c.side for c in checks if c.kind == "bound"}
    assert measured_sides & {"memory", "compute", "too close"}, table  # the bound exercises were really measured
    assert sum(c.variants != "—" for c in checks) >= 5, table  # the exercises with variants were checked
    assert time.monotonic() - started < 240, table  # ~60 s on the course's 2-core machine


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
