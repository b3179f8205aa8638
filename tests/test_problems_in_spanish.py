"""A broken course file is reported in the learner's language: the same places (path:line:col, field path) in both,
the complaint worded by the catalog in Spanish where the tutor words it; only a parser's own text is quoted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Markdown, Tree

from tests.support.content import EXERCISE, LESSON, write_course
from tutor.content import load_course
from tutor.progress import ProgressStore
from tutor.ui.app import make_app
from tutor.untrusted import UnsafeFile, load_json_bounded, read_text_bounded

BROKEN_LESSON = (
    LESSON.replace("order: 1", "order: [1]")  # a list where a whole number goes
    .replace("exercises: [demo-l1-copy]", "exercises: [demo-l1-copy]\ncolour: blue")  # a field the format lacks
)
UNTRANSLATED_LESSON = (
    LESSON.replace("id: demo-l1", "id: demo-l2").replace("exercises: [demo-l1-copy]", "exercises: []")
    .replace('outcome: {es: "Sabes", en: "You know"}', 'outcome: {es: "Sabes"}')  # no English text
)
BROKEN_EXERCISE = EXERCISE.replace('title: {es: "Copia", en: "Copy"}\n', "")  # a required field missing
LOCATION = re.compile(r"^(\S+?:\d+:\d+): (\w+): ([\w.\[\]]+): ")


def _check(root: Path, lang: str) -> list[str]:
    run = subprocess.run([sys.executable, "-m", "tutor", "lessons", "check", str(root), "--lang", lang],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    return run.stdout.splitlines()


def test_lessons_check_speaks_the_learners_language_at_the_same_places(tmp_path: Path) -> None:
    root = write_course(tmp_path / "c", {"l1.yaml": BROKEN_LESSON, "l2.yaml": UNTRANSLATED_LESSON},
                        {"e1.yaml": BROKEN_EXERCISE})
    es, en = _check(root, "es"), _check(root, "en")
    assert len(es) == len(en) == 5, (es, en)
    # the places are the same in both languages
    assert [LOCATION.match(x).group(1, 3) for x in es[:-1]] == [LOCATION.match(x).group(1, 3) for x in en[:-1]]
    es_text, en_text = "\n".join(es), "\n".join(en)
    for spanish, english in (
        ("falta el texto en en", "missing the en text"),
        ("se esperaba un número entero", "expected a whole number"),
        ("campo desconocido", "unknown field"),
        ("falta un campo obligatorio", "required field is missing"),
        ("4 problemas", "4 problems"),
    ):
        assert spanish in es_text and english in en_text, (spanish, english)
        assert english not in es_text
    assert "error: " in es_text and "Input should" not in es_text


def test_an_unsafe_file_is_described_in_both_languages(tmp_path: Path) -> None:
    with pytest.raises(UnsafeFile) as folder:
        read_text_bounded(tmp_path)
    assert folder.value.describe("es").endswith(": es una carpeta, no un archivo")
    assert str(folder.value).endswith(": is a folder, not a file")
    bad = tmp_path / "x.json"
    bad.write_text('{"a": 1,\n "b": NaN}', encoding="utf-8")
    with pytest.raises(UnsafeFile) as nan:
        load_json_bounded(bad)
    assert nan.value.describe("es").endswith("x.json:2:7: error: NaN no es un número finito")
    assert nan.value.message == "NaN is not a finite number" and (nan.value.line, nan.value.col) == (2, 7)


async def test_the_map_shows_a_broken_file_in_spanish(tmp_path: Path) -> None:
    root = write_course(tmp_path / "c", {"l1.yaml": LESSON}, {"e1.yaml": BROKEN_EXERCISE})
    app = make_app(course=load_course(root), store=ProgressStore(tmp_path / "p.sqlite3"), lang="es",
                   telemetry="host")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        tree = app.screen.query_one(Tree)
        nodes, stack = [], [tree.root]
        while stack:
            node = stack.pop()
            nodes.append(node)
            stack.extend(node.children)
        tree.move_cursor(next(n for n in nodes if str(n.label.plain) == "⚠ e1.yaml"))
        await pilot.pause()
        detail = app.screen.query_one("#map-detail-text", Markdown).source
        assert "e1.yaml:1:1: error: title: falta un campo obligatorio" in detail, detail
        assert "required" not in detail
