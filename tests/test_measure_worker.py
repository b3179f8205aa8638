"""The worker process: results, streamed points, cancellation within about a second, crashes and hangs."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.pilot import PATIENCE_S
from tutor.i18n.message import Message
from tutor.measure.errors import MeasureCancelled, MeasureFailed, WorkloadError
from tutor.measure.phases import MEASURING, said
from tutor.measure.worker import MeasureWorker, describe_exit


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MeasureWorker]:
    mp = pytest.MonkeyPatch()
    mp.setenv("TUTOR_MEASURE_TEST_OPS", "1")
    mp.setenv("TUTOR_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    w = MeasureWorker()
    yield w
    w.close()
    mp.undo()


def test_result_progress_and_points(worker: MeasureWorker) -> None:
    progress: list[tuple[float, Message]] = []
    points: list[dict[str, Any]] = []
    result = worker.run({"op": "_test_echo", "x": 1}, on_progress=lambda f, m: progress.append((f, m)),
                        on_point=points.append)
    assert result["request"] == {"op": "_test_echo", "x": 1}
    assert points == [{"i": 0}, {"i": 1}, {"i": 2}]
    assert progress[-1] == (1.0, said("measure.progress.test_point", i=2))
    pid = result["pid"]
    assert worker.run({"op": "_test_echo"})["pid"] == pid  # kept warm


#: What a broken or hostile measurement process might send as its progress, each with the fraction beside it.
HOSTILE_PROGRESS = [
    (0.1, {"code": "measure.progress.no_such_phase", "params": {}}),                        # unknown code
    (0.2, {"code": "measure.progress.preparing", "params": {"workload": 3}}),                # a number for text
    (0.3, {"code": "measure.progress.bandwidth", "params": {"kernel": "copy", "mib": "8"}}),  # text for a number
    (0.4, {"code": "measure.progress.bandwidth", "params": {"kernel": "copy", "mib": 8.5}}),  # not whole
    (0.5, {"code": "measure.progress.preparing", "params": {}}),                             # a missing parameter
    (0.6, {"code": "measure.progress.timing", "params": {"workload": "copy", "lang": "es"}}),  # an extra one
    (0.7, {"code": "measure.progress.roofline", "params": {"step": {"code": "ex.running"}}}),  # a key of the UI
    (0.8, "roofline: \x1b]52;c;cHduZWQ=\x07 raw English"),                                     # a bare sentence
    (0.9, None),
    ("half", {"code": "measure.progress.timing", "params": {"workload": "co\x1b[31mpy\u202e\n"}}),
    (float("nan"), {"code": "measure.progress.gemm_size", "params": {"n": 64, "gflops": float("inf")}}),
]


def test_a_hostile_progress_message_reads_measuring_and_never_crashes(worker: MeasureWorker) -> None:
    """The child's progress is data: only a code of the engine's vocabulary with parameters of the right kinds is
    shown; anything else is the generic "measuring…" line, and text is cleaned of control characters."""
    progress: list[tuple[float, Message]] = []
    worker.run({"op": "_test_echo", "progress": HOSTILE_PROGRESS}, on_progress=lambda f, m: progress.append((f, m)))
    odd = progress[3:]
    assert len(odd) == len(HOSTILE_PROGRESS)
    assert [m for _, m in odd[:9]] == [MEASURING] * 9
    fraction, cleaned = odd[9]
    assert fraction == 0.0 and cleaned == said("measure.progress.timing", workload="co[31mpy")  # no ESC, no bidi
    assert cleaned.render("es") == "co[31mpy: midiendo tiempos"
    assert odd[10] == (0.0, MEASURING)
    assert {m.render("es") for _, m in odd} == {"midiendo…", "co[31mpy: midiendo tiempos"}
    assert {m.render("en") for _, m in odd} == {"measuring…", "co[31mpy: timing"}


def test_progress_from_the_child_checks_out_nested_and_in_both_languages(worker: MeasureWorker) -> None:
    step = said("measure.progress.roofline", step=said("measure.progress.bandwidth", kernel="copy", mib=256))
    progress: list[tuple[float, Message]] = []
    worker.run({"op": "_test_echo", "progress": [(0.25, step.as_dict())]},
               on_progress=lambda f, m: progress.append((f, m)))
    assert progress[-1] == (0.25, step)
    assert step.render("es") == "techo de roofline: ancho de banda: copy sobre arrays de 256 MiB"
    assert step.render("en") == "roofline: bandwidth: copy on 256 MiB arrays"
    # a large figure grouped per locale, not 1.23E3; a small one with three significant figures
    assert said("measure.progress.gemm_size", n=2048, gflops=1234.56).render("en") == "N=2,048: 1,235 GFLOP/s"
    assert said("measure.progress.gemm_size", n=32, gflops=3.14159).render("es") == "N=32: 3,14 GFLOP/s"


def test_a_real_measurement(worker: MeasureWorker) -> None:
    result = worker.run({"op": "workload", "name": "gemm", "params": {"m": 128, "n": 128, "k": 128},
                         "device": "cpu", "roofline_mode": "tiny", "budget_s": 0.05}, timeout_s=120)
    assert result["kind"] == "workload" and result["flops"] == 2 * 128**3
    assert result["achieved_gflops"] > 0
    assert result["classification"]["bound"] in ("memory", "compute")


def test_bad_input_is_a_workload_error(worker: MeasureWorker) -> None:
    with pytest.raises(WorkloadError, match="gemm: m=10000000 exceeds the limit 16384"):
        worker.run({"op": "workload", "name": "gemm", "params": {"m": 10_000_000}})
    with pytest.raises(WorkloadError, match="unknown op"):
        worker.run({"op": "format_disk"})


def _cancel_after(event: threading.Event, delay: float) -> None:
    threading.Timer(delay, event.set).start()


def test_cooperative_cancel_keeps_the_process(worker: MeasureWorker) -> None:
    pid = worker.run({"op": "_test_echo"})["pid"]
    cancel = threading.Event()
    _cancel_after(cancel, 0.3)
    t0 = time.monotonic()
    with pytest.raises(MeasureCancelled):
        worker.run({"op": "_test_sleep", "seconds": 30}, cancel_event=cancel)
    assert time.monotonic() - t0 < 1.3
    assert worker.run({"op": "_test_echo"})["pid"] == pid


def test_cancel_of_a_hung_measurement_terminates_it(worker: MeasureWorker) -> None:
    cancel = threading.Event()
    _cancel_after(cancel, 0.3)
    t0 = time.monotonic()
    with pytest.raises(MeasureCancelled):
        worker.run({"op": "_test_hang", "seconds": 60}, cancel_event=cancel)
    assert time.monotonic() - t0 < 1.6
    assert worker.run({"op": "_test_echo"}, timeout_s=60)["kind"] == "echo"  # a fresh process


def test_crash_is_reported_and_the_worker_recovers(worker: MeasureWorker) -> None:
    with pytest.raises(MeasureFailed, match="exit code 7"):
        worker.run({"op": "_test_crash", "code": 7}, timeout_s=60)
    assert worker.run({"op": "_test_echo"}, timeout_s=60)["kind"] == "echo"


def test_exception_inside_is_reported_with_its_reason(worker: MeasureWorker) -> None:
    with pytest.raises(MeasureFailed) as info:
        worker.run({"op": "_test_raise", "message": "kaboom"})
    assert info.value.reason == "RuntimeError: kaboom"
    assert info.value.detail and "Traceback" in info.value.detail
    assert worker.run({"op": "_test_echo"})["kind"] == "echo"


def test_timeout_is_a_failure(worker: MeasureWorker) -> None:
    with pytest.raises(MeasureFailed, match=r"past its time limit \(0\.5 s"):  # a MeasureTimedOut
        worker.run({"op": "_test_hang", "seconds": 60}, timeout_s=0.5)
    assert worker.run({"op": "_test_echo"}, timeout_s=60)["kind"] == "echo"


def test_exit_descriptions() -> None:
    assert "out of memory" in describe_exit(-9)
    assert "crashed (SIGSEGV)" in describe_exit(-11)
    assert "exit code 3" in describe_exit(3)


def test_an_allocation_failure_is_an_oom_with_its_reason(worker: MeasureWorker) -> None:
    text = ("DefaultCPUAllocator: can't allocate memory: you tried to allocate 1099511627776 bytes. "
            "Error code 12 (Cannot allocate memory)")
    with pytest.raises(MeasureFailed) as info:
        worker.run({"op": "_test_raise", "message": text})
    assert info.value.code == "oom" and "1099511627776 bytes" in info.value.reason


@pytest.fixture()
def quick_stall(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Iterator[MeasureWorker]:
    monkeypatch.setenv("TUTOR_MEASURE_TEST_OPS", "1")
    monkeypatch.setenv("TUTOR_DATA_DIR", str(tmp_path))
    w = MeasureWorker(stall_after_s=0.4)
    yield w
    w.close()


def test_a_hung_call_is_reported_as_stalled_and_cancel_stops_it_at_once(quick_stall: MeasureWorker) -> None:
    stalls: list[float | None] = []
    cancel = threading.Event()
    stalled_at: list[float] = []

    def on_stall(seconds: float | None) -> None:
        stalls.append(seconds)
        stalled_at.append(time.monotonic())
        cancel.set()  # the learner presses Esc on seeing "seems stalled"

    t0 = time.monotonic()
    with pytest.raises(MeasureCancelled):
        quick_stall.run({"op": "_test_hang", "seconds": 60}, cancel_event=cancel, on_stall=on_stall)
    assert stalls and stalls[0] is not None and stalls[0] >= 0.4
    assert time.monotonic() - stalled_at[0] < 0.5  # stalled: no grace, the process is stopped at once
    assert time.monotonic() - t0 < 8
    assert quick_stall.run({"op": "_test_echo"}, timeout_s=60)["kind"] == "echo"


def test_a_busy_measurement_is_not_stalled(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    # It beats every 10 ms, so silence is measured in scheduling gaps: on a 2-core machine at a load of 10 a process
    # can wait 0.4 s for a core (this test failed so with the 0.4 s threshold). The stall bound here is 1.5 s, still
    # 150 beats: a beat loop that stopped would be caught, a busy host is not.
    monkeypatch.setenv("TUTOR_MEASURE_TEST_OPS", "1")
    monkeypatch.setenv("TUTOR_DATA_DIR", str(tmp_path))
    worker = MeasureWorker(stall_after_s=1.5)
    stalls: list[float | None] = []
    try:
        worker.run({"op": "_test_sleep", "seconds": 2.0}, on_stall=stalls.append, timeout_s=60)
    finally:
        worker.close()
    assert stalls == []  # it checks for cancellation every 10 ms: alive, however long it takes


def test_close_during_a_run_of_a_stopped_process_returns_within_a_second(quick_stall: MeasureWorker) -> None:
    import os
    import signal

    quick_stall.run({"op": "_test_echo"}, timeout_s=60)  # warm: the child has said it is ready
    outcome: list[BaseException] = []
    stalled = threading.Event()

    def measure() -> None:
        try:
            quick_stall.run({"op": "_test_sleep", "seconds": 60}, on_stall=lambda s: stalled.set())
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=measure)
    thread.start()
    end = time.monotonic() + PATIENCE_S
    while not quick_stall.busy and time.monotonic() < end:  # in the measurement now
        time.sleep(0.01)  # a poll interval
    pid = quick_stall.pid
    assert quick_stall.busy and pid is not None
    os.kill(pid, signal.SIGSTOP)
    assert stalled.wait(PATIENCE_S)  # no heartbeat from a stopped process
    quick_stall.close()
    # close() does not wait on the stopped child (which would never answer): the run ends, however loaded the
    # machine; how fast it does is not asserted here
    thread.join(PATIENCE_S)
    assert not thread.is_alive()
    assert isinstance(outcome[0], MeasureCancelled)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


@pytest.mark.parametrize(("how", "stalled"), [("burn", False), ("sleep", True)])
def test_a_child_busy_starting_is_not_stalled_and_an_idle_one_is(monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
                                                                   how: str, stalled: bool) -> None:
    """Seen on the busy EPYC (load 10): a fresh worker took over 60 s to import torch and the exercise said "no sign
    of life for 60 s: it seems stalled" while the child was working. Before it is ready the child cannot answer on
    the pipe; its CPU time growing is the sign of life. A child that sits idle before its imports is still reported."""
    import tutor.measure.worker as worker_module

    monkeypatch.setenv("TUTOR_MEASURE_TEST_OPS", "1")
    monkeypatch.setenv("TUTOR_DATA_DIR", str(tmp_path))
    monkeypatch.setenv(worker_module.SLOW_START_ENV, f"{how}:4")
    monkeypatch.setattr(worker_module, "STARTUP_ALLOWANCE_S", 1.5)  # the parent's bound before "ready"
    worker = MeasureWorker(stall_after_s=1.5)
    stalls: list[float | None] = []
    try:
        assert worker.run({"op": "_test_echo"}, on_stall=stalls.append, timeout_s=120)["kind"] == "echo"
    finally:
        worker.close()
    assert bool([s for s in stalls if s is not None]) is stalled
