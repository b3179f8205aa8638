"""The store hands out typed rows: an attempt is read once at the store's boundary into an :class:`Attempt`, from
today's rows and from the oldest the store migrates, by either engine; a malformed one names its field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tutor.grading.verdict import Prediction
from tutor.progress.passes import exercise_status
from tutor.progress.rows import Attempt, DoctorRun, LabPrediction, LabResult, LabRun, StackLock
from tutor.results import Measurement, ResultError

STORED = Path(__file__).parent / "fixtures" / "results" / "stored_rows_v1.json"


def _stored() -> dict[str, Any]:
    return dict(json.loads(STORED.read_text()))


def test_an_attempt_stored_today_reads_typed() -> None:
    row = _stored()["attempt_row"]
    a = Attempt.from_json(row)
    assert (a.id, a.exercise_id, a.lesson_id, a.pass_number, a.state) == (3, "n0-l1-copy-bound", "n0-l1", 2, "graded")
    assert a.prediction == Prediction(choice="memory", value=None, confidence=0.8) and a.choice == "memory"
    assert isinstance(a.measurement, Measurement) and a.measurement.workload == "copy"
    assert a.measurement.time_s is not None and a.measurement.time_s.median == row["measurement"]["time_s"]["median"]
    assert a.device is not None and a.device_kind == "cpu" and a.device.fingerprint == "fefa2d4c91001993"
    assert a.truth is not None and a.truth.choice == "memory" and a.truth.source.startswith("measured on ")
    assert a.truth.source_in("es") == "medido en Intel(R) Xeon(R) Processor (cpu)"  # the stored code, in Spanish
    assert a.verdict == "correct" and a.score == 1.0 and a.graded and a.passed
    assert a.at == row["graded_at"] and a.error is None and a.damaged is None
    assert a.extra["feedback"]["es"].startswith("Correcto")
    assert Attempt.from_json(json.loads(json.dumps(a.to_json()))) == a


def test_the_oldest_rows_the_store_migrates_still_read() -> None:
    rows = _stored()
    old = Attempt.from_json(rows["attempt_row_schema1"])
    assert old.prediction == Prediction(value=20.0, confidence=0.7) and old.confidence == 0.7
    assert old.measurement is not None and old.device_kind == "cpu" and old.device is not None
    assert old.device.fingerprint == "f0" and old.measurement.classification is None
    assert old.ratio == 1.08 and old.truth is not None and old.truth.value == 18.5
    assert old.graded and not old.passed and old.at == old.created_at and old.hints_used == 1
    failed = Attempt.from_json(rows["attempt_row_failed"])
    assert failed.state == "failed" and failed.measurement is None and "SIGKILL" in (failed.error or "")
    assert not failed.graded and failed.to_json()["measurement"] == {"error": failed.error}
    # a bare row: only what schema 1 required
    bare = Attempt.from_json({"id": 9, "exercise_id": "x", "lesson_id": "l", "prediction": {"choice": "fits"},
                              "confidence": 0.5, "created_at": 1.0})
    assert bare.state == "locked" and bare.pass_number == 1 and bare.hints_used == 0 and bare.measurement is None
    status = exercise_status("n0-l1-copy-gbs", [old, failed])
    assert status.attempts == 2 and status.pass1_attempt == 1 and status.pass1_verdict == "partly"


def test_a_malformed_attempt_raises_a_located_error() -> None:
    row = _stored()["attempt_row"]
    cases = [
        ({**row, "measurement": {**row["measurement"], "time_s": {**row["measurement"]["time_s"], "median": "fast"}}},
         "attempt #3 measurement.time_s.median: expected a number, got str 'fast'"),
        ({**row, "score": "high"}, "attempt #3.score: expected a number, got str 'high'"),
        ({**row, "pass": 1.5}, "attempt #3.pass: expected an integer"),
        ({**row, "prediction": {"value": "twenty"}}, "attempt #3 prediction.value: expected a number"),
        ({**row, "truth": {**row["truth"], "truth": {"value": 1.0}}}, "attempt #3 truth.truth.source: expected"),
        ({**row, "measurement": {**row["measurement"], "roofline": {"peak_gflops": {}}}},
         "attempt #3 measurement.roofline.peak_bandwidth_gbs: missing"),
        ([1, 2], "attempt: expected an object, got list"),
    ]
    for bad, message in cases:
        with pytest.raises(ResultError) as err:
            Attempt.from_json(bad)
        assert str(err.value).startswith(message), (message, str(err.value))


def test_the_store_keeps_a_damaged_row_readable_and_says_where(stores: Any) -> None:
    """Both engines read rows through the same Attempt.from_row: a stored measurement another program wrote
    badly is left out (its located error kept), and the reports go on."""
    store = stores.open()
    row = _stored()["attempt_row"]
    good = store.lock_prediction(exercise_id="ex", lesson_id="n0-l1", prediction={"choice": "memory"},
                                 confidence=0.8)
    store.record_grade(good, measurement=row["measurement"], truth=row["truth"], verdict="correct", score=1.0)
    bad = store.lock_prediction(exercise_id="ex", lesson_id="n0-l1", prediction={"choice": "compute"},
                                confidence=0.6)
    broken = {**row["measurement"], "time_s": {"median": "fast"}}
    store.record_grade(bad, measurement=broken, truth=row["truth"], verdict="wrong", score=0.0)
    first, second = store.attempts("ex")
    assert first.measurement is not None and first.damaged is None and first.device_kind == "cpu"
    assert second.measurement is None and second.truth is None and second.verdict == "wrong"
    assert second.damaged == f"attempt #{bad} measurement.time_s.median: expected a number, got str 'fast'"
    assert store.attempt(bad) == second and store.attempt(10**6) is None
    assert exercise_status("ex", store.attempts()).attempts == 2


# -- doctor runs and lab runs --------------------------------------------------------------------------------------


def test_a_doctor_run_reads_its_lock_and_process() -> None:
    row = {"id": 4, "passed": 1, "lock_matches": 0, "created_at": 2000.0,
           "report": {"passed": True, "checks": [], "process": {"pid": 77},
                      "lock": {"written": False, "matches": False, "lock_id": "L1",
                               "differences": [{"key": "packages.numpy", "locked": "2.3.1", "current": "9.9"}]}}}
    run = DoctorRun.from_json(row)
    assert run.passed is True and run.lock_matches is False and run.pid == 77 and run.report["passed"] is True
    assert run.lock == StackLock(written=False, matches=False, lock_id="L1", differences=("packages.numpy",))
    written = DoctorRun.from_json({"id": 1, "passed": 1, "created_at": 1.0, "report": {"lock": {
        "written": True, "lock_id": "L1", "rebuild": {"requirements": "/d/r.txt", "dockerfile": "/d/Dockerfile",
                                                       "pins": {"torch": "2.13.0+cpu"}}}}})
    assert written.lock is not None and written.lock.rebuild is not None
    assert written.lock.rebuild.pins == {"torch": "2.13.0+cpu"} and written.lock.rebuild.requirements == "/d/r.txt"
    assert written.lock_matches is None and written.pid is None
    old = DoctorRun.from_json({"id": 2, "passed": 0, "created_at": 1.0, "report": {"checks": []}})  # before locks
    assert old.lock is None and not old.passed
    for bad, message in [
        ({**row, "report": {**row["report"], "process": {"pid": "x"}}}, "doctor run #4 report.process.pid: expected"),
        ({**row, "report": {**row["report"], "lock": {"matches": "yes"}}}, "doctor run #4 report.lock.matches: exp"),
        ({**row, "created_at": None}, "doctor run #4.created_at: missing"),
    ]:
        with pytest.raises(ResultError) as err:
            DoctorRun.from_json(bad)
        assert str(err.value).startswith(message), (message, str(err.value))


def test_a_lab_run_reads_its_typed_result_of_every_kind() -> None:
    rows = _stored()
    sweep = LabRun.from_json({"id": 1, "lab_id": "lab-gemm", "lesson_id": "l1", "created_at": 5.0,
                              "prediction": {"text": "20", "value": 20.0, "unit": "GFLOP/s", "locked_at": 4.0},
                              "result": rows["sweep_measurement"]})
    assert sweep.prediction == LabPrediction(text="20", value=20.0, unit="GFLOP/s", locked_at=4.0)
    assert sweep.result is not None and sweep.result.kind == "sweep" and sweep.result.measurement is not None
    assert len(sweep.result.measurement.points) == 2 and sweep.result.device is not None
    bench = LabResult.from_json(rows["bench_report"])
    assert bench.kind == "bench" and bench.bench is not None and bench.fingerprint == "fefa2d4c91001993"
    roof = LabResult.from_json({"kind": "roofline", **rows["attempt_measurement"]["roofline"]})
    assert roof.roofline is not None and roof.roofline.peak_bandwidth_gbs > 0
    assert LabResult.from_json(roof.to_json()) == roof and LabResult.from_json(bench.to_json()) == bench
    doctor = LabResult.from_json({"checks": [], "passed": True, "fingerprint": {"device_kind": "cpu", "id": "abc"}})
    assert doctor.kind == "doctor" and doctor.fingerprint == "abc"
    no_prediction = LabRun.from_json({"id": 2, "lab_id": "x", "lesson_id": "l", "created_at": 1.0,
                                      "result": {"kind": "vram", "fits": True}})
    assert no_prediction.prediction is None and no_prediction.result is not None
    measured = no_prediction.result.measurement
    assert measured is not None and measured.vram is not None and measured.vram.fits is True
    with pytest.raises(ResultError, match=r"^lab run #3 result\.headline\.mfu: expected a number"):
        LabRun.from_json({"id": 3, "lab_id": "x", "lesson_id": "l", "created_at": 1.0, "result": {
            **rows["bench_report"], "headline": {**rows["bench_report"]["headline"], "mfu": "high"}}})
    with pytest.raises(ResultError, match=r"^lab run #3 prediction\.value: expected a number"):
        LabRun.from_json({"id": 3, "lab_id": "x", "lesson_id": "l", "created_at": 1.0, "result": {},
                          "prediction": {"text": "a", "value": "a"}})


def test_the_store_hands_out_typed_doctor_and_lab_runs(stores: Any) -> None:
    store = stores.open()
    rows = _stored()
    store.record_doctor_run(passed=True, report={"checks": [], "lock": {"written": True, "lock_id": "L9"},
                                                 "process": {"pid": 5}}, lock_matches=None)
    [run] = store.doctor_runs()
    assert isinstance(run, DoctorRun) and run.passed and run.lock is not None and run.lock.lock_id == "L9"
    store.record_lab_run(lab_id="lab-gemm", lesson_id="l1", result=LabResult.from_json(rows["sweep_measurement"]),
                         prediction=LabPrediction(text="fast"))
    with store.transaction() as conn:  # a row another program (or an older tutor) wrote: not a bench report
        conn.execute("INSERT INTO lab_runs (lab_id, lesson_id, result, created_at) VALUES (?, ?, ?, ?)",
                     ("lab-gemm", "l1", json.dumps({"kind": "bench", "headline": "?"}), 2.0))
    good, damaged = store.lab_runs("lab-gemm")
    assert good.result is not None and good.result.kind == "sweep" and good.prediction is not None
    assert good.prediction.text == "fast" and good.fingerprint == "fefa2d4c91001993" and good.damaged is None
    assert damaged.result is None and damaged.damaged is not None
    assert damaged.damaged.startswith(f"lab run #{damaged.id} result")


def test_bench_runs_and_notebook_entries_read_typed_and_damaged_rows_are_kept(stores: Any) -> None:
    from tutor.progress.c0 import bench_condition, gap_condition
    from tutor.results import BenchReport

    store = stores.open()
    rows = _stored()
    report = BenchReport.from_json(rows["bench_report"])
    store.record_bench_run(report)
    broken = {**rows["bench_report"], "headline": {**rows["bench_report"]["headline"], "mfu": "high"}}
    with store.transaction() as conn:  # rows another program (or an older tutor) wrote
        conn.execute("INSERT INTO bench_runs (fingerprint, device_kind, report, created_at) VALUES (?, ?, ?, ?)",
                     (report.fingerprint, "cpu", json.dumps(broken), 2.0))
        for entry in (["not", "an", "entry"], {"lab_id": "lab-x", "created_at": "yesterday"},
                      {"lab_id": "lab-x", "gap": None, "hypothesis": "old", "extra": 1}):
            conn.execute("INSERT INTO notebook_entries (lab_id, entry, created_at, updated_at) VALUES (?, ?, ?, ?)",
                         ("lab-x", json.dumps(entry), 3.0, 4.0))
    good, damaged = store.bench_runs(report.fingerprint)
    assert good.report == report and good.mode == report.mode and good.damaged is None
    assert good.device_kind == report.device.kind and good.fingerprint == report.fingerprint
    assert damaged.report is None and damaged.mode is None
    assert (damaged.damaged or "").startswith(f"bench run #{damaged.id} report.headline.mfu: expected a number")
    assert not bench_condition([good, damaged]).passed  # a damaged run is no evidence, and no crash
    listed, dated, old = store.notebook_entries()
    assert (listed.damaged or "").startswith(f"notebook entry #{listed.id} entry: expected an object, got list")
    assert (dated.damaged or "").startswith(f"notebook entry #{dated.id} entry.created_at: expected a number")
    for kept in (listed, dated):  # the row stays (its lab, its dates), its parts empty
        assert kept.entry.lab_id == "lab-x" and kept.entry.gap == "" and kept.at == 4.0
    assert old.damaged is None and old.entry.hypothesis == "old" and old.entry.gap == ""  # an older entry reads
    assert old.entry.created_at == 3.0 and old.lab_run_id is None
    assert not gap_condition([], notebook=[listed, dated, old]).passed
