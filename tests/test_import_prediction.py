"""An import never changes a locked prediction (issue 30 item 1): an export whose attempt — the same exercise and
pass, locked at the same moment — holds another prediction than the store's is refused, whole, with the file's line
and column of that prediction; the stored prediction and every row stay as they were. On both engines, and
through ``tutor progress import --merge`` as a learner would run it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import Stores
from tutor.progress.exchange import ExchangeError, export_to, import_from


def _store_with_a_locked_attempt(stores: Stores) -> object:
    store = stores.open()
    store.lock_prediction(exercise_id="n0-l1-copy", lesson_id="n0-l1", prediction={"choice": "memory"},
                          confidence=0.6)
    return store


def _changed_export(store: object, tmp_path: Path) -> tuple[Path, int]:
    """The store's export with the attempt's prediction changed (same id, same exercise, same time); the line the
    changed prediction's value starts on."""
    path = tmp_path / "export.json"
    export_to(store, path)  # type: ignore[arg-type]
    doc = json.loads(path.read_text())
    [attempt] = doc["tables"]["attempts"]
    attempt["prediction"] = {"choice": "compute"}
    text = json.dumps(doc, indent=1, sort_keys=True)
    path.write_text(text)
    line = next(i for i, li in enumerate(text.splitlines(), 1) if '"prediction": {' in li)
    return path, line


def test_a_changed_prediction_is_refused_at_its_line_and_nothing_is_imported(stores: Stores, tmp_path: Path) -> None:
    store = _store_with_a_locked_attempt(stores)
    path, line = _changed_export(store, tmp_path)
    before = {t: store.rows(t) for t in ("attempts", "sections_read")}  # type: ignore[attr-defined]
    with pytest.raises(ExchangeError) as refused:
        import_from(store, path, mode="merge")  # type: ignore[arg-type]
    said = refused.value.describe("en")
    where = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): error: tables\.attempts\[0\]\.prediction: ", said)
    assert where is not None, said
    assert int(where.group(1)) == line
    assert "locked prediction" in said and "n0-l1-copy" in said
    assert "predicción fijada" in refused.value.describe("es")
    assert {t: store.rows(t) for t in before} == before  # type: ignore[attr-defined]
    [attempt] = store.attempts()  # type: ignore[attr-defined]
    assert attempt.prediction.choice == "memory"


def test_the_same_export_merged_again_adds_nothing(stores: Stores, tmp_path: Path) -> None:
    store = _store_with_a_locked_attempt(stores)
    path = tmp_path / "same.json"
    export_to(store, path)  # type: ignore[arg-type]
    assert import_from(store, path, mode="merge")["attempts"] == 0  # type: ignore[arg-type]
    assert len(store.attempts()) == 1  # type: ignore[attr-defined]


def test_the_cli_refuses_it_in_one_located_line(data_dir: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from tutor.cli import main
    from tutor.progress.engines import open_store

    store = open_store()
    store.lock_prediction(exercise_id="n0-l1-copy", lesson_id="n0-l1", prediction={"choice": "memory"},
                          confidence=0.6)
    path, line = _changed_export(store, tmp_path)
    store.close()
    capsys.readouterr()
    assert main(["progress", "import", str(path), "--merge", "--lang", "es"]) != 0
    err = capsys.readouterr().err
    assert re.search(rf"{re.escape(str(path))}:{line}:\d+: error: tables\.attempts\[0\]\.prediction: ", err), err
    assert "Traceback" not in err
    again = open_store()
    assert [a.prediction.choice for a in again.attempts()] == ["memory"]
    again.close()
