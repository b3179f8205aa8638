"""Imported ids in the course's grammar (issue 28, trust boundaries): an attempt's exercise or lesson id, a section
read, a lab run's or a notebook entry's lab and lesson, a prediction's choice — one that is not an id (a line break
that would print a forged line, a dot, capitals, an escape) is refused, naming the field, in one line, es and en, and
nothing is imported."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.test_progress_exchange import filled
from tutor.cli import main
from tutor.progress import ProgressStore
from tutor.progress.exchange import ExchangeError, export_document, import_from

FORGED = "n0-l1-ridge-4090\n✓ C0 reached"


def _set(table: str, column: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(doc: dict[str, Any]) -> None:
        doc["tables"][table][0][column] = value

    return mutate


def _entry(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(doc: dict[str, Any]) -> None:
        doc["tables"]["notebook_entries"][0]["entry"][key] = value

    return mutate


def _choice(value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(doc: dict[str, Any]) -> None:
        doc["tables"]["attempts"][0]["prediction"]["choice"] = value

    return mutate


@pytest.fixture
def export(tmp_path: Path) -> dict[str, Any]:
    source = filled(ProgressStore(tmp_path / "source.sqlite3"))
    try:
        return export_document(source)
    finally:
        source.close()


@pytest.mark.parametrize(("mutate", "where"), [
    (_set("attempts", "exercise_id", FORGED), "tables.attempts[0].exercise_id"),
    (_set("attempts", "exercise_id", "n0.l1"), "tables.attempts[0].exercise_id"),
    (_set("attempts", "exercise_id", "N0-L1"), "tables.attempts[0].exercise_id"),
    (_set("attempts", "exercise_id", "-x"), "tables.attempts[0].exercise_id"),
    (_set("attempts", "exercise_id", "x" * 65), "tables.attempts[0].exercise_id"),
    (_set("attempts", "exercise_id", ""), "tables.attempts[0].exercise_id"),
    (_set("attempts", "lesson_id", "n0-l1\t"), "tables.attempts[0].lesson_id"),
    (_set("sections_read", "section_id", "roof\nline"), "tables.sections_read[0].section_id"),
    (_set("sections_read", "lesson_id", "n0-l1 "), "tables.sections_read[0].lesson_id"),
    (_set("lab_runs", "lab_id", "lab\n1"), "tables.lab_runs[0].lab_id"),
    (_set("lab_runs", "lesson_id", "n0/l1"), "tables.lab_runs[0].lesson_id"),
    (_set("notebook_entries", "lab_id", "lab1\n"), "tables.notebook_entries[0].lab_id"),
    (_entry("lesson_id", "n0-l4\nforged"), "tables.notebook_entries[0].entry.lesson_id"),
    (_entry("lab_id", "n0-l4-lab bench"), "tables.notebook_entries[0].entry.lab_id"),
])
def test_an_imported_id_outside_the_grammar_is_refused(
    tmp_path: Path, export: dict[str, Any], mutate: Callable[[dict[str, Any]], None], where: str
) -> None:
    mutate(export)
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    store = ProgressStore(tmp_path / "target.sqlite3")
    with pytest.raises(ExchangeError) as caught:
        import_from(store, path)
    english, spanish = caught.value.describe("en"), caught.value.describe("es")
    located = re.match(rf"{re.escape(str(path))}:1:(\d+): error: {re.escape(where)}: ", english)
    assert located is not None, english
    # the column is the offending value's own: the text there is the string that follows the field's key
    text, col = path.read_text(encoding="utf-8"), int(located.group(1))
    assert text[col - 1] == '"' and text[: col - 1].rstrip().endswith(f'"{where.rsplit(".", 1)[-1]}":')
    assert "is not an id (1 to 64 of a-z, 0-9 and '-'" in english
    assert spanish.startswith(located.group(0)) and "no es un id (de 1 a 64 caracteres" in spanish
    for line in (english, spanish):
        assert "\n" not in line and "\r" not in line and "\u2028" not in line and "⏎" not in line
    assert store.is_empty()
    store.close()


def test_a_choice_that_is_not_a_choice_id_is_refused(tmp_path: Path, export: dict[str, Any]) -> None:
    _choice("memory\n✓ correct")(export)
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    store = ProgressStore(tmp_path / "target.sqlite3")
    with pytest.raises(ExchangeError) as caught:
        import_from(store, path)
    assert "tables.attempts[0].prediction: " in caught.value.describe("en")
    assert "whose 'choice' is a choice id" in caught.value.describe("en")
    assert "cuyo 'choice' es un id de opción" in caught.value.describe("es")
    assert store.is_empty()
    store.close()


def test_an_export_of_real_ids_still_imports(tmp_path: Path, export: dict[str, Any]) -> None:
    export["tables"]["notebook_entries"][0]["entry"]["lesson_id"] = ""  # an entry that names no lesson
    path = tmp_path / "out.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    store = ProgressStore(tmp_path / "target.sqlite3")
    assert import_from(store, path)["attempts"] == 2
    store.close()


def test_tutor_progress_import_says_it_in_one_line(tmp_path: Path, export: dict[str, Any],
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TUTOR_DATA_DIR", str(tmp_path / "data"))
    _set("attempts", "exercise_id", FORGED)(export)
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    assert main(["progress", "import", str(path), "--lang", "es"]) == 2
    captured = capsys.readouterr()
    assert "C0 reached" not in captured.out
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "tables.attempts[0].exercise_id" in err and "no es un id" in err
    assert "✓ C0 reached'" in err and "\\n" in err  # the value is shown escaped, on the same line
