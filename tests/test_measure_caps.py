"""Measurement caps (issue 10 item 4): validated parameters, peak memory with temporaries, estimated run time,
both bounded at `lessons check` and when a request is built; op/name cannot be injected; a run past its time
limit is stopped with a message in Spanish and English."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tutor.cli import main
from tutor.content import load_course
from tutor.measure import plan
from tutor.measure.api import run_request
from tutor.measure.errors import MeasureTimedOut, WorkloadError
from tutor.measure.plan import MAX_PEAK_BYTES, MAX_SECONDS, PlanError, build_request, parse_request
from tutor.measure.registry import GemmSizesParams, validate_params
from tutor.paths import bundled_course

LESSON = """\
format_version: 1
id: cap-l1
level: cap
order: 1
title: {es: "Uno", en: "One"}
outcome: {es: "Sabes", en: "You know"}
sections:
  - id: intro
    title: {es: "Intro", en: "Intro"}
    body: {es: "# Hola", en: "# Hello"}
exercises: [cap-e1]
"""

LAB = """\
labs:
  - id: cap-lab
    title: {es: "Lab", en: "Lab"}
    goal: {es: "Medir", en: "Measure"}
    run:
      op: sweep
      name: gemm_sizes
      params:
        min_n: 64
        max_n: 16384
        dtype: float64
"""

EXERCISE = """\
format_version: 1
id: cap-e1
lesson: cap-l1
kind: bound
title: {es: "GEMM", en: "GEMM"}
prompt: {es: "¿Memoria o cómputo?", en: "Memory or compute?"}
measure:
  op: workload
  name: gemm
  params:
    m: 16384
    n: 16384
    k: 16384
    dtype: float32
explanation: {es: "Listo", en: "Done"}
"""


def write_course(root: Path, lesson: str = LESSON, exercise: str = EXERCISE) -> Path:
    (root / "lessons").mkdir(parents=True)
    (root / "exercises").mkdir()
    (root / "lessons" / "l1.yaml").write_text(lesson, encoding="utf-8")
    (root / "exercises" / "e1.yaml").write_text(exercise, encoding="utf-8")
    return root


def check(capsys: pytest.CaptureFixture[str], root: Path) -> tuple[int, str]:
    code = main(["lessons", "check", str(root)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


# -- refused at check time and when built ------------------------------------------------------------------------


def test_a_16384_cubed_fp32_gemm_is_refused_at_check_and_by_build_request(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_course(tmp_path)
    code, text = check(capsys, root)
    assert code != 0
    path = root / "exercises" / "e1.yaml"
    # located at the call's params (line 9: "  params:"), and says why
    assert f"{path}:10:3: error: measure.params: gemm: these parameters would take about" in text
    assert f"over the limit of {MAX_SECONDS:.0f} s" in text
    with pytest.raises(PlanError) as info:
        build_request({"op": "workload", "name": "gemm", "params": {"m": 16384, "n": 16384, "k": 16384}})
    assert info.value.key == ("params",)
    with pytest.raises(WorkloadError, match="over the limit"):  # the engine refuses it too, whoever sends it
        run_request({"op": "workload", "name": "gemm", "params": {"m": 16384, "n": 16384, "k": 16384},
                     "device": "cpu"})


def test_a_sweep_whose_largest_point_is_over_the_memory_cap_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exercise = EXERCISE.replace("16384", "256")
    root = write_course(tmp_path, LESSON + LAB, exercise)
    code, text = check(capsys, root)
    assert code != 0
    path = root / "lessons" / "l1.yaml"
    line = LESSON.count("\n") + 8  # the "params:" key of the lab's run
    assert f"{path}:{line}:7: error: labs[0].run.params: gemm_sizes: these parameters need about 6.0 GiB" in text
    with pytest.raises(PlanError, match="GiB at their peak"):
        build_request({"op": "sweep", "name": "gemm_sizes", "params": {"max_n": 16384, "dtype": "float64"}})
    # the estimate is the largest point's: three 16384² float64 matrices
    est = plan._sweep_estimate(GemmSizesParams(min_n=64, max_n=16384, points=2, dtype="float64"))
    assert est.peak_bytes == 3 * 16384**2 * 8 > MAX_PEAK_BYTES


def test_sweep_parameters_are_validated_typed_ranged_and_together() -> None:
    with pytest.raises(PlanError, match="unknown parameter 'maxn'") as info:
        build_request({"op": "sweep", "name": "gemm_sizes", "params": {"maxn": 64}})
    assert info.value.key == ("params", "maxn")
    with pytest.raises(PlanError, match="must be an integer") as info:
        build_request({"op": "sweep", "name": "working_set", "params": {"max_mib": "lots"}})
    assert info.value.key == ("params", "max_mib")
    with pytest.raises(PlanError, match="above max_n") as info:
        build_request({"op": "sweep", "name": "gemm_sizes", "params": {"min_n": 1024, "max_n": 64}})
    assert info.value.key == ("params", "min_n")
    with pytest.raises(PlanError, match="unknown sweep"):
        build_request({"op": "sweep", "name": "everything"})


def test_bfloat16_temporaries_are_counted() -> None:
    n = 4096
    fp32 = plan.workload_peak_bytes("gemm", {"m": n, "n": n, "k": n, "dtype": "float32"})
    bf16 = plan.workload_peak_bytes("gemm", {"m": n, "n": n, "k": n, "dtype": "bfloat16"})
    assert fp32 == 3 * n * n * 4
    # three bf16 matrices, and the float32 draw of one input before it is converted
    assert bf16 == 3 * n * n * 2 + n * n * 4
    s = 2048
    attn = {"batch": 1, "heads": 8, "seq_len": s, "head_dim": 64, "dtype": "bfloat16"}
    assert plan.workload_peak_bytes("attention_naive", attn) >= 2 * 8 * s * s * 2 + 8 * s * s * 4


@pytest.mark.parametrize(("name", "params"), [
    ("gemm", {"m": 96, "n": 64, "k": 128, "dtype": "bfloat16"}),
    ("attention_naive", {"batch": 1, "heads": 2, "seq_len": 96, "head_dim": 16, "dtype": "bfloat16"}),
    ("softmax", {"rows": 64, "cols": 256, "dtype": "float16"}),
    ("triad", {"n": 4096, "dtype": "bfloat16"}),
    ("attention_naive", {"batch": 2, "heads": 2, "seq_len": 128, "head_dim": 32, "dtype": "float32"}),
    ("attention_sdpa", {"batch": 1, "heads": 2, "seq_len": 128, "head_dim": 32, "dtype": "float16"}),
    ("layernorm", {"rows": 32, "cols": 512, "dtype": "bfloat16"}),
    ("bmm", {"batch": 3, "m": 32, "n": 48, "k": 64, "dtype": "float16"}),
])
def test_the_peak_estimate_bounds_the_live_bytes_torch_really_holds(name: str, params: dict[str, Any]) -> None:
    """Every storage torch allocates while the inputs are drawn and the kernel runs, tracked live."""
    from tutor.measure import kernels
    from tutor.measure.vram import LiveStorageTracker

    tracker = LiveStorageTracker()
    with tracker:
        fn = kernels.build(name, validate_params(name, params), "cpu")
        fn()
        fn()
        del fn
    assert 0 < tracker.peak <= plan.workload_peak_bytes(name, params)


def test_every_op_has_a_bounded_estimate_and_the_bundled_course_fits() -> None:
    course = load_course(bundled_course())
    calls = [ex.measure for ex in course.exercises.values() if ex.measure is not None]
    calls += [lab.run for lesson in course.lessons.values() for lab in lesson.labs]
    ops = set()
    for call in calls:
        if call.op == "doctor":
            continue
        request = build_request(call, device=None, size_dram=False)
        ops.add(call.op)
        est = request.estimate
        assert est.peak_bytes > 0 and est.seconds > 0
        assert request.time_limit_s >= est.seconds + est.setup_seconds
        if est.capped:
            assert est.peak_bytes <= MAX_PEAK_BYTES and est.seconds <= MAX_SECONDS
    assert ops == {"workload", "sweep", "roofline", "vram", "decode", "decode_gap", "train_step", "bench"}


def test_the_estimates_mirror_the_engine_sizes() -> None:
    from tutor.measure.model import MODEL_MODES
    from tutor.measure.roofline import MODES

    for mode, cfg in plan.MODEL_CONFIGS.items():
        engine = MODEL_MODES[mode]
        model = engine.config
        assert (cfg.vocab, cfg.hidden, cfg.layers, cfg.intermediate) == (
            model.vocab, model.hidden, model.layers, model.intermediate)
        for key in ("prompt", "decode_steps", "decode_repeats", "big_batch", "train_batch", "train_seq",
                    "train_steps"):
            assert getattr(cfg, key) == getattr(engine, key), (mode, key)
    for mode, roof in plan.ROOFLINE_CONFIGS.items():
        assert roof.stream_bytes == MODES[mode]["stream_bytes"]
        assert roof.gemm_n == MODES[mode]["gemm_n"]
        assert roof.dtypes == MODES[mode]["dtypes_cpu"]
        assert roof.kernels == len(MODES[mode]["stream_kernels"])


# -- op/name injection ---------------------------------------------------------------------------------------------


def test_params_of_an_op_without_params_cannot_replace_op_or_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for key, value in (("op", "bench"), ("name", "gemm"), ("device", "cuda"), ("format_disk", True)):
        with pytest.raises(PlanError, match=f"unknown parameter '{key}'") as info:
            build_request({"op": "decode", "params": {key: value}})
        assert info.value.key == ("params", key)
    request = build_request({"op": "roofline", "params": {"mode": "full", "refresh": True}})
    assert request.to_wire() == {"op": "roofline", "mode": "full", "refresh": True, "device": "auto"}
    with pytest.raises(PlanError, match="takes no name"):
        build_request({"op": "bench", "name": "gemm"})
    # the engine refuses the same smuggling in a raw request
    with pytest.raises(PlanError, match="unknown request key 'command'"):
        parse_request({"op": "bench", "command": "rm"})
    with pytest.raises(PlanError, match="takes no params"):
        parse_request({"op": "decode", "params": {"op": "bench"}})
    # and `lessons check` reports it at the key
    exercise = EXERCISE.replace("""  op: workload
  name: gemm
  params:
    m: 16384
    n: 16384
    k: 16384
    dtype: float32
""", """  op: roofline
  params:
    mode: quick
    op: bench
""")
    root = write_course(tmp_path, exercise=exercise)
    code, text = check(capsys, root)
    assert code != 0
    assert f"{root / 'exercises' / 'e1.yaml'}:11:5: error: measure.params.op: roofline: unknown parameter 'op'" \
        in text


def test_a_request_is_typed_until_it_crosses_into_the_worker_and_reads_back_the_same() -> None:
    request = build_request({"op": "workload", "name": "copy", "params": {"n": 4096}}, device="cpu",
                            roofline_mode="tiny", budget_s=0.2, time_limit=30)
    assert request.options == plan.RequestOptions(device="cpu", roofline_mode="tiny", budget_s=0.2, time_limit_s=30.0)
    assert (request.device, request.roofline_mode, request.mode()) == ("cpu", "tiny", "quick")
    wire = request.to_wire()
    assert wire == {"device": "cpu", "roofline_mode": "tiny", "budget_s": 0.2, "time_limit_s": 30.0,
                    "params": {**request.params}, "op": "workload", "name": "copy"}
    back = parse_request(wire)
    assert (back.op, back.name, back.params, back.options) == (request.op, request.name, request.params,
                                                              request.options)
    roof = parse_request({"op": "roofline", "mode": "full", "refresh": True})
    assert roof.options == plan.RequestOptions(device="auto", mode="full", refresh=True) and roof.mode() == "full"
    with pytest.raises(PlanError, match="refresh must be true or false"):
        parse_request({"op": "roofline", "refresh": "yes"})


# -- the time limit ------------------------------------------------------------------------------------------------


def test_the_time_limit_comes_from_the_estimate_with_a_margin() -> None:
    small = build_request({"op": "workload", "name": "copy", "params": {"n": 4096}}, roofline_mode="tiny")
    big = build_request({"op": "workload", "name": "gemm", "params": {"m": 2048, "n": 2048, "k": 2048}},
                        roofline_mode="tiny")
    assert small.time_limit_s < big.time_limit_s
    assert big.time_limit_s == pytest.approx(
        plan.LIMIT_BASE_S + plan.LIMIT_MARGIN * (big.estimate.seconds + big.estimate.setup_seconds))
    assert build_request({"op": "bench"}, time_limit=5).time_limit_s == 5


def test_a_run_past_its_time_limit_is_stopped_in_process_with_the_message() -> None:
    with pytest.raises(MeasureTimedOut) as info:
        run_request({"op": "workload", "name": "copy", "params": {"n": 4096}, "device": "cpu",
                     "roofline_mode": "tiny", "time_limit_s": 1e-3})
    assert info.value.limit_s == pytest.approx(1e-3)
    assert "time limit" in info.value.message("en") and "tiempo límite" in info.value.message("es")


def test_the_worker_process_is_stopped_past_its_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.measure.worker import MeasureWorker

    monkeypatch.setenv("TUTOR_MEASURE_TEST_OPS", "1")
    with MeasureWorker(cancel_grace_s=0.2) as worker:
        with pytest.raises(MeasureTimedOut) as info:
            worker.run({"op": "_test_hang", "seconds": 60}, timeout_s=0.5)  # ignores cancellation on purpose
        assert not worker.alive  # the process was ended
        text = info.value.message("es")
        assert "superó su tiempo límite (0,5 s" in text
        assert "ran past its time limit (0.5 s" in info.value.reason
        assert worker.run({"op": "_test_echo"})["kind"] == "echo"  # a fresh process answers the next request


def test_an_exercise_past_its_time_limit_fails_with_the_message_in_each_language() -> None:
    from tutor.grading import parse_prediction
    from tutor.practice import AttemptFailed, ExerciseRunner
    from tutor.progress import ProgressStore

    course = load_course(bundled_course())
    exercise = course.exercises["n0-l1-triad-bound"]

    def measure(request: dict[str, Any], _progress: Any, _cancel: threading.Event | None) -> dict[str, Any]:
        return run_request({**request, "device": "cpu", "roofline_mode": "tiny", "time_limit_s": 1e-3})

    store = ProgressStore()
    try:
        runner = ExerciseRunner(store, measure)
        with pytest.raises(AttemptFailed) as info:
            runner.run(exercise, parse_prediction(exercise, "memory", 0.6, None))
        assert "tiempo límite" in info.value.message("es") and "time limit" in info.value.message("en")
        [attempt] = store.attempts()
        assert attempt.state == "failed" and "time limit" in attempt.error
    finally:
        store.close()


async def test_the_exercise_screen_says_so_in_spanish_when_the_worker_is_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The learner's view: lock a prediction, the measurement hangs past its limit, the worker process is ended and
    the screen says why in the learner's language; the prediction stays stored, marked failed."""
    from textual.widgets import Input, Static

    from tutor.measure.worker import MeasureWorker
    from tutor.progress import ProgressStore
    from tutor.ui.app import make_app
    from tutor.ui.screens.exercise import ExerciseScreen

    monkeypatch.setenv("TUTOR_MEASURE_TEST_OPS", "1")
    worker = MeasureWorker(cancel_grace_s=0.2)

    def hanging(request: dict[str, Any], on_progress: Any, cancel: threading.Event | None) -> dict[str, Any]:
        assert request["op"] == "workload"  # the exercise's real request was built; the child is told to hang
        return worker.run({"op": "_test_hang", "seconds": 60}, on_progress=on_progress, cancel_event=cancel,
                          timeout_s=0.5)

    course = load_course(Path(__file__).parent / "fixtures" / "exercise_course")
    app = make_app(course=course, store=ProgressStore(tmp_path / "p.sqlite3"), lang="es", telemetry="host")
    try:
        async with app.run_test(size=(160, 60)) as pilot:
            screen = ExerciseScreen(app.session, app.course.exercises["t-copy-gbs"], measure=hanging)
            app.push_screen(screen)
            await pilot.pause()
            screen.query_one("#ex-number", Input).value = "20"
            await pilot.press("ctrl+l", "ctrl+r")
            for _ in range(400):
                if screen.state == "predicting":
                    break
                await pilot.pause(0.05)
            status = str(screen.query_one("#ex-status", Static).render())
            assert "superó su tiempo límite (0,5 s" in status, status
            [attempt] = app.store.attempts()
            assert attempt.state == "failed"
            assert not worker.alive
    finally:
        worker.close()


def test_lab_run_refuses_a_lab_over_the_caps_before_anything_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_course(tmp_path / "pack", LESSON + LAB, EXERCISE.replace("16384", "256"))
    code = main(["lab", "run", "cap-lab", "--course", str(root), "--predict", "50", "--data-dir",
                 str(tmp_path / "data")])
    out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in out + err
    assert "cap-lab: gemm_sizes: these parameters need about 6.0 GiB" in err
    assert out == ""  # refused before the question and the prediction are even printed


def test_measuring_the_roofline_does_not_count_against_the_run_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first run on a machine measures the roofline before the workload; that time is the tutor's, not the
    pack's: a slow roofline (1.5 s here, watching the clock as the real one does) does not use up a 1 s limit."""
    import time as _time

    from tutor.measure import roofline

    real = roofline.get_roofline

    def slow_roofline(*args: Any, should_cancel: Any = None, **kwargs: Any) -> dict[str, Any]:
        end = _time.monotonic() + 1.5
        while _time.monotonic() < end:
            assert not (should_cancel and should_cancel()), "the roofline's time was counted"
            _time.sleep(0.01)
        return real(*args, should_cancel=should_cancel, **kwargs)

    monkeypatch.setattr(roofline, "get_roofline", slow_roofline)
    result = run_request({"op": "workload", "name": "copy", "params": {"n": 4096}, "device": "cpu",
                          "roofline_mode": "tiny", "budget_s": 0.05, "time_limit_s": 1.0})
    assert result["kind"] == "workload"


def test_the_mode_tables_have_one_source() -> None:
    """The engines run the sizes the plan estimates from: each mode table is the one in tutor.measure.modes."""
    from tutor.measure import decode_gap, decode_sizing, model, modes, roofline

    assert model.MODEL_MODES is modes.MODEL_MODES
    assert decode_gap.GAP_MODES is modes.GAP_MODES
    assert roofline.MODES is modes.ROOFLINE_MODES
    assert model.TransformerConfig is modes.TransformerConfig
    assert decode_sizing.RUNS["full"]["big_batch"] == modes.MODEL_MODES["full"].big_batch
