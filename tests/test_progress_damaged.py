"""A stored row that does not read is said, located, in the reader's language — by ``tutor progress`` and by the
progress screen — and the rest of the report is still there.

The rows are damaged in a real SQLite store the way another program (or a disk) would: the JSON column rewritten
with raw SQL, a control sequence inside a field name included."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.support.pilot import wait_for
from tutor.cli import main
from tutor.content import load_course
from tutor.progress import ProgressStore
from tutor.progress.rows import LabPrediction, LabResult
from tutor.ui.app import make_app
from tutor.ui.screens.progress import ProgressScreen

COURSE = Path(__file__).parent / "fixtures" / "exercise_course"
STORED = Path(__file__).parent / "fixtures" / "results" / "stored_rows_v1.json"


def damaged_store(path: Path) -> dict[str, int]:
    """A store with one good graded attempt, one whose measurement another program broke, and a lab run whose
    result was broken the same way."""
    row: dict[str, Any] = json.loads(STORED.read_text(encoding="utf-8"))["attempt_row"]
    store = ProgressStore(path)
    try:
        ids = {}
        for name in ("good", "bad"):
            ids[name] = store.lock_prediction(exercise_id="t-copy-bound", lesson_id="n0-l1",
                                              prediction={"choice": "memory"}, confidence=0.8)
            store.record_grade(ids[name], measurement=row["measurement"], truth=row["truth"], verdict="correct",
                               score=1.0)
        sweep = {"kind": "sweep", "name": "gemm_sizes", "points": [],
                 "device": {"kind": "cpu", "name": "Test CPU", "fingerprint": "fp"}}
        ids["lab"] = store.record_lab_run(lab_id="lab-roof", lesson_id="n0-l1", result=LabResult.from_json(sweep),
                                          prediction=LabPrediction(text="a", value=3.0))
    finally:
        store.close()
    broken = {**row["measurement"], "roofline": {**row["measurement"]["roofline"],
                                                 "peak_gflops": {"\x1b[2Jfloat32": "fast"}}}
    con = sqlite3.connect(path)
    try:
        con.execute("UPDATE attempts SET measurement = ? WHERE id = ?", (json.dumps(broken), ids["bad"]))
        con.execute("UPDATE lab_runs SET result = ? WHERE id = ?",
                    (json.dumps({"kind": "sweep", "name": "gemm_sizes", "points": "many"}), ids["lab"]))
        con.commit()
    finally:
        con.close()
    return ids


def test_tutor_progress_says_each_damaged_row_and_goes_on(capsys: pytest.CaptureFixture[str],
                                                          data_dir: Path) -> None:
    ids = damaged_store(data_dir / "progress.sqlite3")
    assert main(["progress", "--lang", "es", "--course", str(COURSE)]) == 0
    out = capsys.readouterr().out
    assert (f"! El intento {ids['bad']} (t-copy-bound) no se pudo leer: measurement.roofline.peak_gflops.[2Jfloat32:"
            " se esperaba un número, llegó str. Queda fuera de este informe; el resto está completo.") in out
    assert (f"! La ejecución {ids['lab']} del laboratorio lab-roof no se pudo leer: result.points: se esperaba una "
            "lista, llegó str.") in out
    assert "expected" not in out  # the reason too is in the reader's language
    assert "\x1b" not in out
    assert "C0 (CPU)" in out and "Historial" in out and f"#{ids['good']}" in out  # the rest of the report
    assert f"El intento {ids['good']} " not in out
    assert main(["progress", "--lang", "en", "--course", str(COURSE)]) == 0
    out = capsys.readouterr().out
    assert f"! Attempt {ids['bad']} (t-copy-bound) could not be read: measurement.roofline.peak_gflops." in out
    assert f"! Lab run {ids['lab']} (lab-roof) could not be read: result.points: expected a list, got str." in out
    assert "History" in out
    assert main(["progress", "--json", "--course", str(COURSE)]) == 0
    damaged = json.loads(capsys.readouterr().out)["damaged"]
    assert [(d["kind"], d["id"], d["where"]) for d in damaged] == [
        ("attempt", ids["bad"], "measurement.roofline.peak_gflops.\x1b[2Jfloat32"),  # the data, as stored
        ("lab_run", ids["lab"], "result.points")]


async def test_the_progress_screen_says_each_damaged_row(tmp_path: Path) -> None:
    ids = damaged_store(tmp_path / "p.sqlite3")
    app = make_app(course=load_course(COURSE), store=ProgressStore(tmp_path / "p.sqlite3"), lang="es",
                   telemetry=None)
    async with app.run_test(size=(160, 48)) as pilot:
        app.action_open_progress()
        await wait_for(pilot, lambda: isinstance(app.screen, ProgressScreen)
                       and app.screen.query_one("#progress-damaged").display)
        screen = app.screen
        assert isinstance(screen, ProgressScreen)
        box = screen.query_one("#progress-damaged")
        shown = str(box.render())
        assert box.display
        assert f"El intento {ids['bad']} (t-copy-bound) no se pudo leer: measurement.roofline.peak_gflops." in shown
        assert f"La ejecución {ids['lab']} del laboratorio lab-roof no se pudo leer: result.points" in shown
        assert "\x1b" not in shown
        assert screen.query_one("#progress-history").row_count == 2  # type: ignore[attr-defined]
        await pilot.press("f2")
        await wait_for(pilot, lambda: "could not be read" in str(screen.query_one("#progress-damaged").render()))
        shown = str(screen.query_one("#progress-damaged").render())
        assert f"Attempt {ids['bad']} (t-copy-bound) could not be read" in shown
