"""Progress: export/import round-trip, import refusing to overwrite, resets, and a database killed mid-write
(each on both engines: SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import Stores
from tutor.progress import StoreBase
from tutor.progress.exchange import ExchangeError, export_document, export_to, import_from
from tutor.progress.rows import LabResult, NotebookEntry
from tutor.results import BenchReport


def filled(store: StoreBase) -> StoreBase:
    store.mark_section_read("n0-l1", "roofline")
    a = store.lock_prediction(exercise_id="ex1", lesson_id="n0-l1", prediction={"choice": "memory"}, confidence=0.8)
    store.record_grade(a, measurement={"device": {"kind": "cpu"}}, truth={"choice": "memory"}, verdict="correct",
                       score=1.0, fingerprint="fp")
    b = store.lock_prediction(exercise_id="ex2", lesson_id="n0-l2", prediction={"value": 3.0}, confidence=0.6)
    store.record_failure(b, state="failed", reason="boom")
    run = store.record_lab_run(lab_id="lab1", lesson_id="n0-l1", result=LabResult.from_json({
        "kind": "sweep", "name": "gemm_sizes", "points": [{"n": 32, "gflops": 1.0}, {"n": 64, "gflops": 2.0}],
        "device": {"kind": "cpu", "name": "cpu", "fingerprint": "fp"}}))
    store.save_notebook_entry(NotebookEntry("lab1", hypothesis="h", lab_run_id=run))
    store.record_bench_run(BenchReport.from_json({"mode": "quick", "headline": {"peak_bandwidth_gbs": 30},
                                                  "device": {"kind": "cpu", "name": "cpu", "fingerprint": "fp"}}))
    store.record_doctor_run(passed=True, report={"checks": []}, lock_matches=True)
    return store


def comparable(doc: dict) -> dict:
    tables = {}
    for name, rows in doc["tables"].items():
        tables[name] = [{k: v for k, v in r.items() if k not in ("id", "lab_run_id")} for r in rows]
    return tables


def test_round_trip(stores: Stores, tmp_path: Path) -> None:
    src = filled(stores.open("a"))
    counts = export_to(src, tmp_path / "out.json")
    assert counts["attempts"] == 2 and counts["notebook_entries"] == 1
    dst = stores.open("b")
    added = import_from(dst, tmp_path / "out.json")
    assert added == counts
    assert comparable(export_document(dst)) == comparable(export_document(src))
    entry = dst.notebook_entries()[0]
    assert entry.lab_run_id == dst.lab_runs()[0].id and entry.entry.hypothesis == "h" and entry.damaged is None


def test_import_never_overwrites_silently(stores: Stores, tmp_path: Path) -> None:
    src = filled(stores.open("a"))
    export_to(src, tmp_path / "out.json")
    with pytest.raises(ExchangeError, match="--merge"):
        import_from(src, tmp_path / "out.json")
    assert len(src.attempts()) == 2
    assert all(n == 0 for n in import_from(src, tmp_path / "out.json", "merge").values())
    extra = src.lock_prediction(exercise_id="ex3", lesson_id="n0-l1", prediction={}, confidence=0.9)
    assert extra
    added = import_from(src, tmp_path / "out.json", "replace")
    assert added["attempts"] == 2 and len(src.attempts()) == 2


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="something/else"), "not a GPU Tutor"),
        (lambda d: d.update(schema_version=999), "schema"),
        (lambda d: d["tables"].update(evil=[]), "unknown table"),
        (lambda d: d["tables"]["attempts"][0].update(score="high"), "unexpected value"),
        (lambda d: d["tables"]["attempts"][0].pop("exercise_id"), "missing column"),
        (lambda d: d["tables"]["attempts"][0].update(sql="DROP TABLE attempts"), "unknown column"),
    ],
)
def test_import_validates(stores: Stores, tmp_path: Path, mutate, message: str) -> None:
    doc = export_document(filled(stores.open("a")))
    mutate(doc)
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    dst = stores.open("b")
    with pytest.raises(ExchangeError, match=message):
        import_from(dst, tmp_path / "bad.json")
    assert dst.is_empty()


def test_import_of_garbage(stores: Stores, tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(ExchangeError, match=r"x.json:1:2: error: invalid JSON"):
        import_from(stores.open("b"), tmp_path / "x.json")


def test_resets(stores: Stores, tmp_path: Path) -> None:
    store = filled(stores.open("a"))
    assert store.reset_counts(exercise_id="ex1") == {"attempts": 1}
    assert store.reset(exercise_id="ex1") == {"attempts": 1}
    assert [a.exercise_id for a in store.attempts()] == ["ex2"]
    assert store.reset(lesson_id="n0-l1") == {"attempts": 0, "sections_read": 1, "lab_runs": 1}
    [kept] = store.notebook_entries()
    assert kept.lab_run_id is None and kept.entry.hypothesis == "h"  # the learner's writing stays
    store.reset()
    assert store.is_empty()


def test_record_hints_never_decreases(stores: Stores, tmp_path: Path) -> None:
    store = stores.open("a")
    a = store.lock_prediction(exercise_id="e", lesson_id="l", prediction={}, confidence=0.8, hints_used=1)
    store.record_hints(a, 2)
    store.record_hints(a, 0)
    assert store.attempt(a).hints_used == 2  # type: ignore[union-attr]


WRITER = r"""
import sys
from tutor.progress.engines import open_store
store = open_store(sys.argv[1])
i = 0
while True:
    a = store.lock_prediction(exercise_id=f"ex{i}", lesson_id="l", prediction={"value": i}, confidence=0.8)
    store.record_grade(a, measurement={"x": "y" * 2000}, truth={"value": i}, verdict="correct", score=1.0)
    print(a, flush=True)
    i += 1
"""


def test_killed_mid_write_loses_no_earlier_attempt(stores: Stores, tmp_path: Path) -> None:
    stores.open("p").close()
    proc = subprocess.Popen([sys.executable, "-c", WRITER, stores.spec("p")], stdout=subprocess.PIPE, text=True,
                            env={**os.environ})
    assert proc.stdout is not None
    committed = []
    deadline = time.monotonic() + 20
    while len(committed) < 40 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        committed.append(int(line))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert len(committed) >= 40
    store = stores.open("p")
    assert store.open_report.recovered_from_corrupt is None
    graded = {a.id for a in store.attempts() if a.state == "graded"}
    assert set(committed) <= graded
