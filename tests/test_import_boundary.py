"""A progress import is untrusted input: odd numbers, wrong types and hostile files are refused in one located line,
and nothing of a refused file is stored (all or nothing)."""

from __future__ import annotations

import copy
import json
import os
import resource
from pathlib import Path
from typing import Any

import pytest

from tutor.cli import main
from tutor.progress import ProgressStore
from tutor.progress.exchange import ExchangeError, export_document, import_document, import_from
from tutor.progress.rows import LabResult, NotebookEntry


def _document(tmp_path: Path) -> dict[str, Any]:
    store = ProgressStore(tmp_path / "source.sqlite3")
    store.mark_section_read("n0-l1", "roofline")
    attempt = store.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"value": 2.0, "choice": None,
                                    "confidence": 0.7}, confidence=0.7)
    store.record_grade(attempt, measurement={"gbs": 20.0}, truth={"value": 2.5}, verdict="partly", score=0.5)
    run = store.record_lab_run(lab_id="lab-00", lesson_id="n0-l1", result=LabResult.from_json({"x": 1}))
    store.save_notebook_entry(NotebookEntry("lab-00", hypothesis="hi", lab_run_id=run))
    store.record_doctor_run(passed=True, report={"ok": True}, lock_matches=None)
    doc = export_document(store)
    store.close()
    return doc


@pytest.mark.parametrize(
    ("table", "column", "value", "message"),
    [
        ("attempts", "confidence", float("nan"), r"tables\.attempts\[0\]\.confidence: not a finite number"),
        ("attempts", "confidence", 1.5, r"tables\.attempts\[0\]\.confidence: 1\.5 is not a finite number between"),
        ("attempts", "confidence", "0.7", r"tables\.attempts\[0\]\.confidence: unexpected value '0\.7'"),
        ("attempts", "score", -0.1, r"tables\.attempts\[0\]\.score: -0\.1 is not"),
        ("attempts", "score", float("inf"), r"tables\.attempts\[0\]\.score: not a finite number"),
        ("attempts", "created_at", 1e300, r"tables\.attempts\[0\]\.created_at: 1e\+300 is not a time between"),
        ("attempts", "created_at", -5, r"created_at: -5 is not a time"),
        ("attempts", "pass", True, r"tables\.attempts\[0\]\.pass: unexpected value True"),
        ("attempts", "pass", 10**30, r"tables\.attempts\[0\]\.pass: .* is not a whole number"),
        ("attempts", "hints_used", -1, r"hints_used: -1 is not a whole number between 0 and 1,000"),
        ("attempts", "prediction", {"value": 1e300}, r"prediction: .* is not an object whose 'value' is a finite"),
        ("attempts", "prediction", "fast", r"prediction: 'fast' is not an object"),
        ("attempts", "measurement", {"gbs": float("nan")}, r"tables\.attempts\[0\]\.measurement\.gbs: not a finite"),
        ("sections_read", "read_at", 1e300, r"tables\.sections_read\[0\]\.read_at: 1e\+300 is not a time"),
        ("doctor_runs", "passed", 7, r"tables\.doctor_runs\[0\]\.passed: 7 is not true, false, 0 or 1"),
        ("lab_runs", "id", 2**70, r"tables\.lab_runs\[0\]\.id: .* is not a whole number"),
        ("sections_read", "lesson_id", "x" * 5000, r"lesson_id: text longer than 1,000"),
        ("attempts", "exercise_id", "e\x1b]52;c;eA==\x07", r"exercise_id: contains a control character \(U\+001B\)"),
    ],
)
def test_out_of_domain_values_are_refused_at_their_field(
    tmp_path: Path, table: str, column: str, value: Any, message: str
) -> None:
    doc = _document(tmp_path)
    bad = copy.deepcopy(doc)
    bad["tables"][table][0][column] = value
    target = ProgressStore(tmp_path / "target.sqlite3")
    with pytest.raises(ExchangeError, match=message) as caught:
        import_document(target, bad)
    assert "\n" not in str(caught.value)
    assert target.is_empty()


def test_a_bad_row_late_in_the_file_imports_nothing(tmp_path: Path) -> None:
    doc = _document(tmp_path)
    doc["tables"]["doctor_runs"][0]["created_at"] = float("inf")
    target = ProgressStore(tmp_path / "target.sqlite3")
    with pytest.raises(ExchangeError):
        import_document(target, doc)
    assert target.is_empty()
    doc["tables"]["doctor_runs"][0]["created_at"] = 1_700_000_000
    assert import_document(target, doc)["attempts"] == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": NaN}', r"x\.json:1:12: error: NaN is not a finite number"),
        ('{\n  "format": 1e400\n}', r"x\.json:2:13: error: 1e400 is not a finite number"),
        ('{"a": -Infinity}', r":1:7: error: -Infinity is not a finite number"),
        ("[" * 100_000 + "]" * 100_000, r"x\.json:1:65: error: JSON nested deeper than 64 levels"),
        ("{oops", r"x\.json:1:2: error: invalid JSON"),
    ],
)
def test_hostile_json_is_refused_with_its_line_and_column(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "x.json").write_text(text, encoding="utf-8")
    with pytest.raises(ExchangeError, match=message):
        import_from(ProgressStore(tmp_path / "t.sqlite3"), tmp_path / "x.json")


def test_a_located_number_error_names_the_file_and_the_field(tmp_path: Path) -> None:
    doc = _document(tmp_path)
    doc["tables"]["attempts"][0]["confidence"] = 3
    (tmp_path / "x.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ExchangeError, match=r"x\.json:\d+:\d+: error: tables\.attempts\[0\]\.confidence: 3 is not"):
        import_from(ProgressStore(tmp_path / "t.sqlite3"), tmp_path / "x.json")


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "latin-1", "huge", "folder", "deep"])
def test_hostile_import_files_are_one_line_and_exit_2(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = tmp_path / "progress.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path = Path("/dev/zero")
    elif kind == "latin-1":
        path.write_bytes('{"format": "café"}'.encode("latin-1"))
    elif kind == "huge":
        with path.open("wb") as f:  # sparse: no disk used, and it must not be read
            f.truncate(3 * 1024**3)
    elif kind == "folder":
        path.mkdir()
    else:
        path.write_text('{"tables": ' + "[" * 100_000 + "]" * 100_000 + "}")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    # 1 GiB above what the process maps now: reading /dev/zero or the 3 GB file whole fails the test, not the box.
    resource.setrlimit(resource.RLIMIT_AS, (_mapped_bytes() + 1024**3, hard))
    try:
        code = main(["progress", "import", str(path)])
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("tutor: error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert ProgressStore().is_empty()


def _mapped_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 8 * 1024**3


def test_control_characters_in_a_file_name_do_not_reach_the_message(tmp_path: Path) -> None:
    path = tmp_path / "evil\x1b]0;owned\x07.json"
    path.write_text('{"format": NaN}', encoding="utf-8")
    with pytest.raises(ExchangeError) as caught:
        import_from(ProgressStore(tmp_path / "t.sqlite3"), path)
    assert "\x1b" not in str(caught.value) and "\x07" not in str(caught.value)


def test_a_refused_import_is_said_in_the_readers_language(tmp_path: Path, data_dir: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    doc = _document(tmp_path)
    doc["tables"]["attempts"][0]["confidence"] = 3
    path = tmp_path / "x.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["progress", "import", str(path), "--lang", "es"]) == 2
    said = capsys.readouterr().err.strip()
    text = path.read_text(encoding="utf-8")
    col = text.index('"confidence": 3') + len('"confidence": ') + 1  # the value's own column
    assert said == (f"tutor: error: {path}:1:{col}: error: tables.attempts[0].confidence: 3 no es un número finito "
                    "entre 0 y 1")
    assert main(["progress", "import", str(path), "--lang", "en"]) == 2
    assert capsys.readouterr().err.strip().endswith("confidence: 3 is not a finite number between 0 and 1")
    path.write_text("[1, 2]", encoding="utf-8")
    assert main(["progress", "import", str(path), "--lang", "es"]) == 2
    assert capsys.readouterr().err.strip().endswith(
        "no es una exportación de progreso de GPU Tutor (se esperaba un objeto JSON)")
    with pytest.raises(ExchangeError) as caught:
        import_from(ProgressStore(tmp_path / "t.sqlite3"), tmp_path / "missing.json")
    assert str(caught.value).startswith(str(tmp_path / "missing.json"))  # an unreadable file names its path
