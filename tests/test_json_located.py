"""JSON from outside, located and bounded (issue 28): an import, a lock and a recorded trace that hold a value of the
wrong kind or too many of something are refused with ``path:line:col: error: field.path: complaint`` at the
offending value (not at the top of the file, not only at a decode error), in the reader's language, with no
traceback, and nothing is written.

Each file here is pretty-printed, so that a value's line and column are not the file's first ones; the expected
place is found in the text independently (the line holding the key, the column after it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_cli
from tutor.doctor.lock import LOCK_SCHEMA, MAX_LOCK_ITEMS, MAX_LOCK_STRING, LockError, read_lock
from tutor.progress import ProgressStore
from tutor.progress.exchange import MAX_ROWS, MAX_TOTAL_ROWS, ExchangeError, export_document, import_from
from tutor.telemetry import trace as trace_module
from tutor.telemetry.trace import MAX_CORES, MAX_DEVICES, MAX_PROCESSES, TraceError, read_trace
from tutor.untrusted import MAX_JSON_ITEMS, MAX_JSON_STRING, json_field_path, json_offset, json_position

# -- the position-keeping walk ------------------------------------------------------------------------------------


def test_the_offset_of_a_value_is_found_by_its_path() -> None:
    text = '{\n  "a": [1, {"b": "x\\"y", "c": [true, null, {"d": 5}]}],\n  "e": {"a": 1, "a": 2}\n}'
    assert text[json_offset(text, ("a", 1, "c", 2, "d")):].startswith("5}")
    assert text[json_offset(text, ("a", 1, "b")):].startswith('"x\\"y"')
    assert text[json_offset(text, ("a", 1, "c", 1)):].startswith("null")
    assert text[json_offset(text, ("e", "a")):].startswith("2}")  # a key written twice: the one json.loads keeps
    assert text[json_offset(text, ("e", "a"), key=True):].startswith('"a": 2')
    assert json_position(text, ("e",)) == (3, 8)
    # a place that does not exist is located as deep as it goes
    assert text[json_offset(text, ("a", 7)):].startswith("[1,")
    assert json_offset(text, ("missing",)) == 0
    assert json_field_path(("tables", "attempts", 3, "confidence")) == "tables.attempts[3].confidence"
    assert json_field_path(("k\x1b[31m\nforged",)) == "k[31m⏎forged"


def _place(text: str, needle: str) -> tuple[int, int]:
    """Line and column (1-based) of the first character after ``needle`` in ``text``."""
    at = text.index(needle) + len(needle)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


# -- imports ------------------------------------------------------------------------------------------------------


def _export(tmp_path: Path) -> dict[str, Any]:
    store = ProgressStore(tmp_path / "source.sqlite3")
    store.mark_section_read("n0-l1", "roofline")
    attempt = store.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1",
                                    prediction={"value": 2.0, "choice": None, "confidence": 0.7}, confidence=0.7)
    store.record_grade(attempt, measurement={"gbs": 20.0}, truth={"value": 2.5}, verdict="partly", score=0.5)
    doc = export_document(store)
    store.close()
    return doc


def _refused(tmp_path: Path, doc: Any, lang: str = "en") -> tuple[str, str, ProgressStore]:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    target = ProgressStore(tmp_path / "target.sqlite3")
    with pytest.raises(ExchangeError) as caught:
        import_from(target, path)
    return caught.value.describe(lang), path.read_text(encoding="utf-8"), target


def test_a_wrong_typed_field_is_refused_at_its_own_line_and_column(tmp_path: Path) -> None:
    doc = _export(tmp_path)
    doc["tables"]["attempts"][0]["hints_used"] = "many"
    said, text, target = _refused(tmp_path, doc)
    line, col = _place(text, '"hints_used": ')
    assert line > 10  # pretty-printed: far from the top
    path = tmp_path / "export.json"
    assert said == f"{path}:{line}:{col}: error: tables.attempts[0].hints_used: unexpected value 'many'"
    assert target.is_empty()  # nothing was imported


def test_an_unknown_column_is_refused_at_its_key(tmp_path: Path) -> None:
    doc = _export(tmp_path)
    doc["tables"]["sections_read"][0]["forged"] = 1
    said, text, _ = _refused(tmp_path, doc, "es")
    at = text.index('"forged"')
    line, col = text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
    assert said.startswith(f"{tmp_path / 'export.json'}:{line}:{col}: error: tables.sections_read[0].forged: ")
    assert "columna desconocida" in said


def test_a_wrong_format_is_refused_at_the_format_value(tmp_path: Path) -> None:
    doc = _export(tmp_path)
    doc["format"] = "something/else"
    said, text, _ = _refused(tmp_path, doc)
    line, col = _place(text, '"format": ')
    assert said.startswith(f"{tmp_path / 'export.json'}:{line}:{col}: error: ")


def test_an_import_through_the_cli_is_one_located_line_in_spanish(tmp_path: Path, data_dir: Path) -> None:
    doc = _export(tmp_path)
    doc["tables"]["attempts"][0]["score"] = 7
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    code, out, err = run_cli(["progress", "import", str(path), "--lang", "es"])
    line, col = _place(path.read_text(encoding="utf-8"), '"score": ')
    assert code == 2 and out == "" and "Traceback" not in err and err.count("\n") == 1
    assert f"{path}:{line}:{col}: error: tables.attempts[0].score: 7 no es un número finito entre 0 y 1" in err


def test_a_table_just_over_the_row_limit_is_refused_naming_the_limit(tmp_path: Path) -> None:
    doc = _export(tmp_path)
    doc["tables"]["sections_read"] = [{}] * (MAX_ROWS + 1)  # the rows are not looked at: the count is first
    said, text, target = _refused(tmp_path, doc)
    assert re.search(rf":\d+:\d+: error: tables\.sections_read\[{MAX_ROWS}\]: {MAX_ROWS + 1:,} rows, more than the "
                     rf"limit of {MAX_ROWS:,} a table", said), said
    line = int(said.split(":")[1])
    assert line == text.count("\n", 0, json_offset(text, ("tables", "sections_read", MAX_ROWS))) + 1
    assert target.is_empty()
    doc["tables"]["sections_read"] = [{}] * MAX_ROWS
    doc["tables"]["attempts"] = [{}] * (MAX_TOTAL_ROWS - MAX_ROWS)
    doc["tables"]["lab_runs"] = [{}]  # each table within its limit, one row over in all
    said, _, _ = _refused(tmp_path, doc)
    assert f"more than {MAX_TOTAL_ROWS:,} rows in all" in said


@pytest.mark.parametrize("kind", ["items", "string"])
def test_a_stored_value_just_over_its_limits_is_refused_at_that_value(tmp_path: Path, kind: str) -> None:
    doc = _export(tmp_path)
    big: Any = list(range(MAX_JSON_ITEMS + 1)) if kind == "items" else "x" * (MAX_JSON_STRING + 1)
    doc["tables"]["attempts"][0]["measurement"] = {"gbs": 20.0, "samples": big}
    said, text, target = _refused(tmp_path, doc)
    if kind == "items":
        where = f"tables.attempts[0].measurement.samples[{MAX_JSON_ITEMS}]"
        assert f"{where}: more than {MAX_JSON_ITEMS:,} items (the limit)" in said
        item = re.search(rf"\n( +){MAX_JSON_ITEMS}\n", text)  # the last item, on a line of its own
        assert item is not None
        line = text.count("\n", 0, item.start()) + 2
        assert said.split(":")[1] == str(line)
    else:
        line, col = _place(text, '"samples": ')
        assert f":{line}:{col}: error: tables.attempts[0].measurement.samples: text longer than" in said
    assert target.is_empty()
    doc["tables"]["attempts"][0]["measurement"] = {"samples": big[:-1]}  # at the limit: accepted
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert import_from(ProgressStore(tmp_path / "ok.sqlite3"), path)["attempts"] == 1


# -- the environment lock -----------------------------------------------------------------------------------------


def _lock(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "lock.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def test_a_lock_of_another_schema_is_refused_at_its_schema_value(tmp_path: Path) -> None:
    path = _lock(tmp_path, {"created_at": "now", "torch": {"version": "2.7"}, "schema": "gpu-tutor/lock/v9"})
    with pytest.raises(LockError) as caught:
        read_lock(path)
    line, col = _place(path.read_text(encoding="utf-8"), '"schema": ')
    assert line == 6
    assert caught.value.message("en").startswith(f"{path}:{line}:{col}: error: schema: not an environment lock")
    assert caught.value.message("es").startswith(f"{path}:{line}:{col}: error: schema: no es un lock del entorno")


@pytest.mark.parametrize("kind", ["items", "string"])
def test_a_lock_just_over_its_limits_is_refused_where_it_grows(tmp_path: Path, kind: str, data_dir: Path) -> None:
    packages: Any = ({f"p{i}": "1.0" for i in range(MAX_LOCK_ITEMS + 1)} if kind == "items"
                     else {"numpy": "1." + "0" * MAX_LOCK_STRING})
    path = _lock(tmp_path, {"schema": LOCK_SCHEMA, "packages": packages})
    code, out, err = run_cli(["doctor", "--check-lock", str(path), "--lang", "en"])
    assert code == 2 and out == "" and "Traceback" not in err and err.count("\n") == 1
    text = path.read_text(encoding="utf-8")
    if kind == "items":
        line, col = _place(text, '"packages": ')
        assert f"{path}:{line}:{col}: error: packages: more than {MAX_LOCK_ITEMS:,} items (the limit)" in err
    else:
        line, col = _place(text, '"numpy": ')
        assert f"{path}:{line}:{col}: error: packages.numpy: text longer than {MAX_LOCK_STRING:,}" in err
    within = {"schema": LOCK_SCHEMA, "packages": {f"p{i}": "1.0" for i in range(MAX_LOCK_ITEMS)}}
    assert (read_lock(_lock(tmp_path, within)).packages or {})["p0"] == "1.0"


# -- recorded traces ----------------------------------------------------------------------------------------------


def _sample(**metrics: Any) -> str:
    return json.dumps({"t": 1.0, "device": "host", "metrics": metrics})


def _trace(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "trace.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("metric", "limit", "item"), [
    ("cpu_per_core_pct", MAX_CORES, 1.0),
    ("throttle", 64, "power"),
    ("processes", MAX_PROCESSES, [1, "py", 10]),
])
def test_a_trace_list_just_over_its_limit_is_refused_at_the_first_item_past_it(
    tmp_path: Path, metric: str, limit: int, item: Any
) -> None:
    over = _sample(**{metric: [item] * (limit + 1)})
    path = _trace(tmp_path, _sample(cpu_pct=1.0), over)
    with pytest.raises(TraceError) as caught:
        read_trace(path)
    col = json_offset(over, ("metrics", metric, limit)) + 1
    where = f"metrics.{metric}[{limit}]"
    assert str(caught.value) == f"{path}:2:{col}: error: {where}: more than {limit:,} items (the limit)"
    read_trace(_trace(tmp_path, _sample(**{metric: [item] * limit})))  # at the limit: read


def test_a_header_with_too_many_devices_is_refused_at_the_device_past_the_limit(tmp_path: Path) -> None:
    device = {"id": "gpu0", "kind": "gpu", "name": "X", "metrics": []}
    header = json.dumps({"trace": "gpu-tutor-telemetry", "version": 1, "backend": "nvml", "status": {},
                         "devices": [device] * (MAX_DEVICES + 1)})
    path = _trace(tmp_path, header, _sample(cpu_pct=1.0))
    with pytest.raises(TraceError) as caught:
        read_trace(path)
    col = json_offset(header, ("devices", MAX_DEVICES)) + 1
    assert str(caught.value).startswith(f"{path}:1:{col}: error: devices[{MAX_DEVICES}]: bad header: more than")


def test_a_trace_just_over_the_line_limit_is_refused_at_that_line(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # the real limit (200 000 lines) would take seconds to write and read here; the rule is the same
    monkeypatch.setattr(trace_module, "MAX_LINES", 5)
    path = _trace(tmp_path, *[_sample(cpu_pct=float(i)) for i in range(6)])
    with pytest.raises(TraceError, match=r"trace\.jsonl:6:1: error: more than 5 lines \(the limit of a trace\)"):
        read_trace(path)
    assert len(read_trace(_trace(tmp_path, *[_sample(cpu_pct=1.0)] * 5)).ticks) == 1


def test_a_wrong_typed_trace_value_deep_in_a_line_is_located(tmp_path: Path) -> None:
    line = _sample(cpu_pct=1.0, processes=[[1, "a", 2], [2, "b", 3], ["pid", "c", 4]])
    path = _trace(tmp_path, _sample(cpu_pct=1.0), _sample(cpu_pct=2.0), line)
    with pytest.raises(TraceError) as caught:
        read_trace(path)
    col = line.index('["pid"') + 1
    assert str(caught.value).startswith(f"{path}:3:{col}: error: metrics.processes[2]: expected [pid, name, bytes]")


@pytest.mark.parametrize(("text", "where", "english", "spanish"), [
    ("{oops", "1:2", "a key in double quotes was expected here", "aquí se esperaba una clave entre comillas dobles"),
    ('{\n  "a" 1}', "2:7", "':' was expected here", "aquí se esperaba ':'"),
    ('{"a": 1\n "b": 2}', "2:2", "',' was expected here", "aquí se esperaba ','"),
    ("[1]\nx", "2:1", "more text after the JSON value", "hay más texto después del valor JSON"),
    ('{"a": "abc', "1:7", "a string that is never closed", "una cadena que nunca se cierra"),
    ('{"a":}', "1:6", "a value was expected here", "aquí se esperaba un valor"),
])
def test_a_decode_error_is_located_and_said_in_the_readers_language(
    tmp_path: Path, data_dir: Path, text: str, where: str, english: str, spanish: str
) -> None:
    path = tmp_path / "export.json"
    path.write_text(text, encoding="utf-8")
    for lang, said in (("en", f"invalid JSON ({english})"), ("es", f"JSON no válido ({spanish})")):
        code, out, err = run_cli(["progress", "import", str(path), "--lang", lang])
        assert code == 2 and out == "" and "Traceback" not in err and err.count("\n") == 1
        assert err.rstrip().endswith(f"{path}:{where}: error: {said}"), err


def _paths(value: Any, loc: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], Any]]:
    found = [(loc, value)]
    if isinstance(value, dict):
        for k, v in value.items():
            found.extend(_paths(v, (*loc, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found.extend(_paths(v, (*loc, i)))
    return found


def test_every_value_of_any_document_is_found_where_it_is_written() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
    documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                             | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=20)

    @settings(max_examples=200, deadline=None)
    @given(documents, st.sampled_from([None, 0, 1, 3]), st.booleans())
    def check(doc: Any, indent: int | None, ascii_only: bool) -> None:
        text = json.dumps(doc, indent=indent, ensure_ascii=ascii_only)
        for loc, value in _paths(doc):
            at = json_offset(text, loc)
            decoded, _ = json.JSONDecoder().raw_decode(text, at)
            assert decoded == value, (text, loc)

    check()


def test_a_bad_trace_is_said_in_the_readers_language_through_the_cli(tmp_path: Path, data_dir: Path) -> None:
    bad = _sample(cpu_pct=1.0, throttle=[1, 2])
    path = _trace(tmp_path, _sample(cpu_pct=1.0), bad)
    col = json_offset(bad, ("metrics", "throttle")) + 1
    code, out, err = run_cli(["telemetry", "--backend", f"replay:{path}", "--samples", "1", "--lang", "es"])
    assert code != 0 and "Traceback" not in out + err and err.count("\n") == 1, (out, err)
    assert f"{path}:2:{col}: error: metrics.throttle: se esperaba una lista de palabras, y hay [1, 2]" in err, err
