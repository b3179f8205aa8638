"""Issue 28, round two: what a pack, a file name, an import, a lock or a flag carries stays data.

Each test names the class of input it is about; each failed on the code before the fix (the sanitizer was a hand
list, a line break inside a one-line field printed a second line, ``!!binary`` reached a title as bytes, …).
"""

from __future__ import annotations

import contextlib
import io
import unicodedata
from pathlib import Path

import pytest

from tutor import untrusted
from tutor.untrusted import clean, clean_line

UNSAFE_CATEGORIES = ("Cc", "Cf", "Zl", "Zp", "Co", "Cs")


def _code_points_of(categories: tuple[str, ...]) -> list[str]:
    return [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in categories]


# -- one output boundary, by Unicode property ---------------------------------------------------------------------


def test_clean_removes_every_code_point_of_the_unsafe_categories_and_the_bidi_controls() -> None:
    every = _code_points_of(UNSAFE_CATEGORIES)
    assert "\u061c" in every  # the Arabic letter mark, which the hand list missed
    text = "".join(every)
    out = clean(text)
    assert set(out) <= {"\n", "\t", "\ufffd"}, sorted({f"U+{ord(c):04X}" for c in out} - {"U+000A", "U+0009"})
    for point in untrusted.BIDI_CONTROL:
        assert untrusted.is_unsafe(chr(point)) and chr(point) not in clean(f"a{chr(point)}b")
    assert clean("Año — niño ⏎ ✓ 😀 日本") == "Año — niño ⏎ ✓ 😀 日本"  # text is kept


def test_surrogate_escaped_bytes_are_never_printed_raw_and_always_encode() -> None:
    name = b"lesson\x9b31m\xff.yaml".decode("utf-8", "surrogateescape")  # what os.listdir gives for such a name
    for out in (clean(name), clean_line(name), clean("\ud83d alone"), clean_line("x\udc9by")):
        out.encode("utf-8")  # no UnicodeEncodeError
        assert not any("\ud800" <= ch <= "\udfff" for ch in out)
    assert clean_line(name) == "lesson\ufffd31m\ufffd.yaml"


def test_bytes_are_decoded_not_shown_as_their_repr() -> None:
    assert clean(b"caf\xc3\xa9 \x1b[31m") == "café [31m"


def test_a_line_break_in_a_one_line_field_is_a_visible_mark_and_the_line_is_capped() -> None:
    for brk in ("\n", "\r\n", "\r", "\x0b", "\x0c", "\x85", "\u2028", "\u2029", "\x1c"):
        out = clean_line(f"Hello{brk}✓ C0 reached")
        assert out == "Hello⏎✓ C0 reached", (brk, out)
    assert clean_line("title\n") == "title"  # a folded YAML scalar's last break is not a mark
    long = clean_line("x" * 10_000, 80)
    assert len(long) == 80 and long.endswith("…")


def test_json_for_the_terminal_escapes_what_clean_would_drop_and_keeps_the_data() -> None:
    import json

    value = {"id": "e\u061c\x85\udc9b\u202e\n", "title": "Año"}
    text = untrusted.json_for_terminal(value)
    assert json.loads(text) == value and "Año" in text
    assert clean(text) == text  # nothing left for the stream to remove
    text.encode("utf-8")


def test_widget_ids_from_any_id_are_valid_and_distinct() -> None:
    from textual.dom import check_identifiers

    ids = ["s.1", "s_1", "s-1", "1a", "a b", "ñ", "x\u202e", "s_002e1"]
    made = [untrusted.widget_id("lesson-", i) for i in ids]
    for made_id in made:
        check_identifiers("id", made_id)
    assert len(set(made)) == len(made)


# -- YAML values that decode to bytes, or to anything but text -----------------------------------------------------


def _lesson(title: str, *, lesson_id: str = "l1", section_id: str = "s1") -> str:
    return (
        f"format_version: 1\nid: {lesson_id}\nlevel: lv\norder: 1\ntitle: {title}\noutcome: {{en: o, es: o}}\n"
        f"sections:\n  - id: {section_id}\n    title: {{en: t, es: t}}\n    body: {{en: b, es: b}}\n"
    )


@pytest.mark.parametrize(
    "title",
    [
        '{en: !!binary "G1szMW1SRUQbWzBt4oCu"}',  # ESC[31mRED ESC[0m and U+202E, as bytes
        "{en: !!set {a: null}}",
        "{en: !!omap [a: 1]}",
        "{en: !local text}",
        "{en: !!timestamp 2024-01-01}",
    ],
)
def test_a_yaml_tag_that_is_not_text_is_a_located_error(tmp_path: Path, title: str) -> None:
    from tutor.content import check_paths

    path = tmp_path / "lessons" / "a.yaml"
    path.parent.mkdir()
    path.write_text(_lesson(title), encoding="utf-8")
    course = check_paths([path], require_translations=False)
    lines = [p.format("en") for p in course.errors]
    assert len(lines) == 1 and lines[0].startswith(f"{path}:5:"), lines
    assert "title.en" in lines[0] and "is not allowed" in lines[0], lines
    es = course.errors[0].format("es")
    assert "no está permitida" in es, es


def test_an_unquoted_date_in_a_text_is_that_text(tmp_path: Path) -> None:
    from tutor.content import check_paths

    path = tmp_path / "lessons" / "a.yaml"
    path.parent.mkdir()
    path.write_text(_lesson("{en: 2024-01-01}"), encoding="utf-8")
    course = check_paths([path], require_translations=False)
    assert not course.errors, [p.format() for p in course.errors]
    assert course.lessons["l1"].title.en == "2024-01-01"


def test_the_arabic_letter_mark_in_a_pack_is_a_located_error(tmp_path: Path) -> None:
    from tutor.content import check_paths

    path = tmp_path / "lessons" / "a.yaml"
    path.parent.mkdir()
    path.write_text(_lesson('{en: "a\\u061cb"}'), encoding="utf-8")
    course = check_paths([path], require_translations=False)
    lines = [p.format("en") for p in course.errors]
    assert len(lines) == 1 and f"{path}:5:" in lines[0] and "U+061C" in lines[0], lines


# -- forged lines in the listings ----------------------------------------------------------------------------------


def run_cli(args: list[str]) -> tuple[int, str, str]:
    """``tutor ARGS`` in this process: the exit status, stdout and stderr (through the CLI's own streams)."""
    from tutor.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(args)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
    return status, out.getvalue(), err.getvalue()


FORGED = "✓ C0 reached"


def _forging_pack(root: Path) -> Path:
    (root / "lessons").mkdir(parents=True)
    (root / "exercises").mkdir()
    (root / "lessons" / "l1.yaml").write_text(
        _lesson('{en: "Hello\\n✓ C0 reached", es: "Hola\\n✓ C0 reached"}') + "exercises: [e1]\n", encoding="utf-8")
    (root / "exercises" / "e1.yaml").write_text(
        "format_version: 1\nid: e1\nlesson: l1\nkind: diagnose\n"
        'title: {en: "Ex\\n✓ C0 reached", es: "Ej\\n✓ C0 reached"}\nprompt: {en: p, es: p}\n'
        "choices:\n  - {id: a, label: {en: A, es: A}}\n  - {id: b, label: {en: B, es: B}}\nanswer: a\n"
        "explanation: {en: x, es: x}\n",
        encoding="utf-8",
    )
    return root


@pytest.mark.parametrize("command", [["lessons", "list"], ["exercise", "list"]])
def test_a_newline_in_a_title_does_not_forge_a_line(tmp_path: Path, data_dir: Path, command: list[str]) -> None:
    pack = _forging_pack(tmp_path / "pack")
    status, out, err = run_cli([*command, "--course", str(pack), "--lang", "en"])
    assert status == 0, err
    forged = [line for line in out.splitlines() if line.startswith(FORGED)]
    assert not forged, out
    assert f"⏎{FORGED}" in out, out


# -- identifiers: a strict grammar, checked at load -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lesson_id", "section_id", "bad_line"),
    [("l.1", "s1", 2), ("L1", "s1", 2), ("-l1", "s1", 2), ("a" * 65, "s1", 2), ("l1", "s.1", 8), ("l1", "s_1", 8),
     ("l1", "ñ", 8), ("l1", '"s 1"', 8)],
)
def test_an_id_outside_the_grammar_is_a_located_error(
    tmp_path: Path, lesson_id: str, section_id: str, bad_line: int
) -> None:
    from tutor.content import check_paths

    path = tmp_path / "lessons" / "a.yaml"
    path.parent.mkdir()
    path.write_text(_lesson("{en: t, es: t}", lesson_id=lesson_id, section_id=section_id), encoding="utf-8")
    course = check_paths([path])
    lines = [p.format("en") for p in course.errors]
    assert len(lines) == 1 and lines[0].startswith(f"{path}:{bad_line}:"), lines
    assert "not a valid id: 1 to 64 of a-z, 0-9 and '-'" in lines[0], lines
    assert "no es un id válido" in course.errors[0].format("es")


def test_every_id_of_the_bundled_course_follows_the_grammar() -> None:
    import re

    from tutor import paths
    from tutor.content import load_course
    from tutor.content.models import CHOICE_GRAMMAR, ID_GRAMMAR

    course = load_course(paths.bundled_course())
    assert not course.errors, [p.format() for p in course.errors]
    ids = [lvl.id for lvl in course.levels]
    for lesson in course.lessons.values():
        ids += [lesson.id, lesson.level, *(s.id for s in lesson.sections), *(lab.id for lab in lesson.labs)]
    ids += list(course.exercises)
    assert ids and all(re.fullmatch(ID_GRAMMAR, i) for i in ids)
    choices = [c.id for ex in course.exercises.values() for c in ex.choices]
    assert choices and all(re.fullmatch(CHOICE_GRAMMAR, c) for c in choices)


# -- located errors, in the reader's language -----------------------------------------------------------------------


@pytest.mark.parametrize(("key", "line", "col"), [("true", 11, 1), ("null", 11, 1), ("1.5", 11, 1), ("~", 11, 1),
                                                  ("1", 11, 1)])
def test_a_key_that_is_not_text_is_reported_at_its_line(tmp_path: Path, key: str, line: int, col: int) -> None:
    from tutor.content import check_paths

    path = tmp_path / "lessons" / "a.yaml"
    path.parent.mkdir()
    path.write_text(_lesson("{en: t, es: t}") + f"{key}: 2\n", encoding="utf-8")
    course = check_paths([path])
    lines = [p.format("en") for p in course.errors]
    assert len(lines) == 1 and lines[0].startswith(f"{path}:{line}:{col}:"), lines
    assert f"the key {key} is not text" in lines[0]
    assert f"la clave {key} no es texto" in course.errors[0].format("es")


def test_validation_errors_read_in_spanish(tmp_path: Path) -> None:
    """pydantic's own sentences and the format's rules between fields, all through the catalog."""
    from tutor.content import check_paths

    (tmp_path / "exercises").mkdir()
    path = tmp_path / "exercises" / "e.yaml"
    exercise = (
        "format_version: 1\nid: e1\nlesson: l1\nkind: diagnose\ntitle: {title}\nprompt: {{en: p, es: p}}\n"
        "choices:\n  - {{id: a, label: {{en: A, es: A}}}}\n  - {{id: a, label: {{en: B, es: B}}}}\nanswer: a\n"
        "explanation: {{en: x, es: x}}\n{extra}"
    )
    path.write_text(exercise.format(title="{}", extra="range: [1, 2, 3]\ncapacity_gb: lots\n"), encoding="utf-8")
    other = tmp_path / "exercises" / "f.yaml"
    other.write_text(exercise.format(title="{en: t, es: t}", extra="").replace("id: e1", "id: e2"), encoding="utf-8")
    course = check_paths([path, other])
    spanish = [p.format("es") for p in course.errors]
    english = [p.format("en") for p in course.errors]
    assert len(spanish) == 4, spanish
    assert any("necesita texto en al menos un idioma" in line for line in spanish), spanish
    assert any("los ids de las opciones deben ser únicos" in line for line in spanish), spanish
    assert any("range: demasiado largo" in line for line in spanish), spanish
    assert any("capacity_gb: se esperaba un número" in line for line in spanish), spanish
    assert any("choice ids must be unique" in line for line in english), english
    for line in spanish:
        for english_word in ("Input should", "should be", "Value error", "needs", "must", "expected"):
            assert english_word not in line, line
