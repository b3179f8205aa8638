"""Issue 28, round two: what a pack, a file name, an import, a lock or a flag carries stays data.

Each test names the class of input it is about; each failed on the code before the fix (the sanitizer was a hand
list, a line break inside a one-line field printed a second line, ``!!binary`` reached a title as bytes, …).
"""

from __future__ import annotations

import contextlib
import unicodedata
from pathlib import Path

import pytest

from tests.support.cli import run_cli
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
    assert any("range[2]: más de 2 elementos (el límite)" in line for line in spanish), spanish
    assert any("capacity_gb: se esperaba un número" in line for line in spanish), spanish
    assert any("choice ids must be unique" in line for line in english), english
    for line in spanish:
        for english_word in ("Input should", "should be", "Value error", "needs", "must", "expected"):
            assert english_word not in line, line


# -- crashes become errors ------------------------------------------------------------------------------------------


def _no_traceback(status: int, out: str, err: str) -> None:
    assert "Traceback" not in out + err and "Error:" not in err.replace("error:", ""), err[-800:]


def test_a_lone_surrogate_in_json_is_a_located_error_for_imports_locks_and_traces(tmp_path: Path) -> None:
    from tutor.doctor.lock import LockError, read_lock
    from tutor.telemetry.trace import TraceError, read_trace
    from tutor.untrusted import UnsafeFile, loads_bounded

    with pytest.raises(UnsafeFile) as caught:
        loads_bounded('{"a": 1,\n "b": "cpu\\udc9b"}', "x.json")
    assert "x.json:2:11: error: " in caught.value.describe("en") and "\\udc9b" in caught.value.describe("en")
    assert "x.json:2:11: error: " in caught.value.describe("es") and "media pareja" in caught.value.describe("es")
    assert loads_bounded('"\\ud83d\\ude00"', "x.json") == "😀"  # a pair is one character
    lock = tmp_path / "environment.lock.json"
    lock.write_text('{"format": "tutor-env-lock", "python": "3.11\\udc9b"}', encoding="utf-8")
    with pytest.raises(LockError):
        read_lock(lock)
    trace = tmp_path / "trace.jsonl"
    trace.write_text('{"kind": "header", "backend": "nvml\\udc85"}\n', encoding="utf-8")
    with pytest.raises(TraceError):
        read_trace(trace)


def test_an_import_with_a_lone_surrogate_is_refused_in_one_line(tmp_path: Path, data_dir: Path) -> None:
    import json

    status, _, err = run_cli(["exercise", "run", "n0-l2-cpu-wheel", "--predict", "cpu-wheel", "--lang", "en"])
    assert status == 0, err
    export = tmp_path / "export.json"
    assert run_cli(["progress", "export", str(export)])[0] == 0
    doc = json.loads(export.read_text(encoding="utf-8"))
    doc["tables"]["attempts"][0]["prediction"]["choice"] = "cpu\udc9b"  # json.dumps writes it as \udc9b
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(doc), encoding="utf-8")
    status, out, err = run_cli(["progress", "import", "--replace", str(hostile), "--lang", "es"])
    _no_traceback(status, out, err)
    assert status == 2 and "\\udc9b es media pareja UTF-16" in err, err


def test_a_file_name_too_long_for_the_system_is_an_error_not_a_traceback(tmp_path: Path, data_dir: Path) -> None:
    long = str(tmp_path / ("n" * 300 + ".md"))
    for args in (["notebook", "export", long], ["progress", "import", long], ["progress", "export", long],
                 ["exercise", "list", "--course", long]):
        status, out, err = run_cli([*args, "--lang", "en"])
        _no_traceback(status, out, err)
        assert status in (1, 2) and err.startswith("tutor: error:") and len(err.splitlines()) == 1, (args, err)


def test_a_store_path_that_names_no_store_is_refused_and_left_alone(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    monkeypatch.chdir(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    other = tmp_path / "photos.db"
    with contextlib.closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE photos (x)")
        conn.commit()
    before = sorted(p.name for p in tmp_path.iterdir())
    for spec in ("./notes.txt", "sqlite:notes.txt", str(other)):
        status, out, err = run_cli(["--store", spec, "progress", "--json", "--lang", "en"])
        _no_traceback(status, out, err)
        assert status == 2 and "is not a GPU Tutor progress store" in err and "left as it is" in err, err
    status, out, err = run_cli(["--store", "./notes.txt", "progress", "--lang", "es"])
    assert "no es un almacén de progreso de GPU Tutor" in err, err
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing renamed, nothing created beside
    for spec in ("sqlite:", "sqlite://"):
        status, out, err = run_cli(["--store", spec, "progress", "--lang", "en"])
        _no_traceback(status, out, err)
        assert status == 2 and "names no file" in err, err


def test_a_store_path_that_is_a_folder_holds_the_store_inside_it(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for spec, folder in ((".", tmp_path), ("sqlite:sub", tmp_path / "sub")):
        folder.mkdir(exist_ok=True)
        status, out, err = run_cli(["--store", spec, "progress", "--lang", "en"])
        _no_traceback(status, out, err)
        assert status == 0 and (folder / "progress.db").is_file(), err


@pytest.mark.parametrize(
    "args",
    [["exercise", "run", "n0-l2-cpu-wheel", "--resume", str(2**64)], ["exercise", "discard", str(2**63)],
     ["exercise", "discard", "0"], ["telemetry", "--interval", "1e10", "--samples", "1"],
     ["telemetry", "--interval", "nan", "--samples", "1"], ["--lang", "en", "--telemetry-interval", "1e10"]],
)
def test_numbers_out_of_range_on_the_command_line_are_one_line_errors(data_dir: Path, args: list[str]) -> None:
    status, out, err = run_cli([*args, "--lang", "en"] if args[0] != "--lang" else args)
    _no_traceback(status, out, err)
    assert status == 2 and err.startswith("tutor: error:") and "must be" in err, err


@pytest.mark.parametrize("command", [["lessons", "list"], ["exercise", "list"], ["lab", "list"], ["progress"]])
def test_a_missing_course_folder_is_an_error(tmp_path: Path, data_dir: Path, command: list[str]) -> None:
    status, out, err = run_cli([*command, "--course", str(tmp_path / "nowhere"), "--lang", "en"])
    assert status == 1 and "no course found in" in err, (status, out, err)


def test_a_subnormal_or_huge_prediction_never_crashes_the_number_score() -> None:
    import math

    from tutor.content.models import Grading
    from tutor.grading.kinds import number_score, ratio_of

    for prediction, truth in ((5e-324, 100.0), (1e-310, 1e10), (1e308, 1e-300), (2.0, 1.0)):
        ratio = ratio_of(prediction, truth)
        assert ratio >= 1.0
        score, _ = number_score(prediction, truth, Grading())
        assert 0.0 <= score <= 1.0
    assert math.isinf(ratio_of(5e-324, 100.0))


# -- numbers with units ---------------------------------------------------------------------------------------------


def _number_exercise(unit: str = "GB") -> object:
    from tutor.content.models import Exercise

    return Exercise.model_validate({
        "format_version": 1, "id": "e1", "lesson": "l1", "kind": "number", "title": {"en": "t"},
        "prompt": {"en": "p"}, "unit": unit, "truth": {"source": "formula", "formula": "weights_bytes"},
        "explanation": {"en": "x"}, "range": [0.001, 100000],
    })


def test_a_unit_is_converted_or_refused_with_the_accepted_ones() -> None:
    from tutor.grading.predict import PredictionError, parse_prediction, unit_read

    exercise = _number_exercise("GB")
    assert parse_prediction(exercise, "14000 MB").value == pytest.approx(14.0)  # not 14,000 GB
    assert parse_prediction(exercise, "14 GB").value == 14.0
    assert parse_prediction(exercise, "14").value == 14.0
    assert parse_prediction(exercise, "1 GiB").value == pytest.approx(1.073741824)
    said = unit_read(exercise, "14000 MB")
    assert said is not None and said.render("en") == "read as 14 GB (you wrote 14,000 MB)"
    assert unit_read(exercise, "14 GB") is None
    for typed in ("14 furlongs", "14 GB/s", "14 ms"):
        with pytest.raises(PredictionError) as caught:
            parse_prediction(exercise, typed)
        assert "is not a unit this answer takes" in caught.value.describe("en")
        assert "GB, bytes, B, KB" in caught.value.describe("en")
        assert "no es una unidad" in caught.value.describe("es")
    timed = _number_exercise("ms")
    assert parse_prediction(timed, "1.5 s").value == pytest.approx(1500.0)
    assert parse_prediction(timed, "250 µs").value == pytest.approx(0.25)
    for typed in ("5e-324", "1e308", "1e29 TB"):
        with pytest.raises(PredictionError):
            parse_prediction(exercise, typed)


def test_the_cli_says_which_unit_it_read(data_dir: Path) -> None:
    status, out, err = run_cli(["exercise", "run", "n0-l3-kv-cache-gb", "--predict", "14 furlongs", "--lang", "en"])
    assert status == 2 and "'furlongs' is not a unit this answer takes" in err, err
    status, out, err = run_cli(["exercise", "run", "n0-l3-kv-cache-gb", "--predict", "14000 MB", "--lang", "en"])
    assert status == 0, err
    assert out.count("Your prediction: read as 14 GB (you wrote 14,000 MB)") == 2, out  # at the lock and the reveal
    assert "you said 14.0 GB" in out, out


def test_cross_file_problems_read_in_spanish(tmp_path: Path) -> None:
    from tutor.content import check_paths

    (tmp_path / "lessons").mkdir()
    (tmp_path / "exercises").mkdir()
    lesson = tmp_path / "lessons" / "l1.yaml"
    lesson.write_text(_lesson("{en: t, es: t}") + "exercises: [e9]\n", encoding="utf-8")
    exercise = tmp_path / "exercises" / "e1.yaml"
    exercise.write_text(
        "format_version: 1\nid: e1\nlesson: nowhere\nkind: diagnose\ntitle: {en: t, es: t}\nprompt: {en: p, es: p}\n"
        "choices:\n  - {id: a, label: {en: A, es: A}}\n  - {id: b, label: {en: B, es: B}}\nanswer: a\n"
        "explanation: {en: x, es: x}\n", encoding="utf-8")
    course = check_paths([lesson, exercise])
    spanish = sorted(p.format("es") for p in course.errors)
    assert any(f"{lesson}:11:" in line and "ningún archivo define el ejercicio 'e9'" in line for line in spanish)
    assert any(f"{exercise}:3:" in line and "no hay ninguna lección con id 'nowhere'" in line for line in spanish)
    english = sorted(p.format("en") for p in course.errors)
    assert any("exercise 'e9' is not defined by any file" in line for line in english), english


def test_a_lab_prediction_keeps_its_unit() -> None:
    from tutor.practice.labs import LabInputError, parse_lab_prediction

    assert parse_lab_prediction("150000 MB/s", "GB/s", "en").value == pytest.approx(150.0)
    assert parse_lab_prediction("1,5e2 GB/s", "GB/s", "en").value == 150.0
    assert parse_lab_prediction("3 widgets", "widgets", "en").value == 3.0  # a lab's own unit, as it names it
    with pytest.raises(LabInputError, match="write it in GB/s, bytes/s, MB/s, TB/s"):
        parse_lab_prediction("3 furlongs", "GB/s", "en")


def test_file_names_with_c1_bytes_bidi_or_a_line_break_are_flagged_not_read(tmp_path: Path) -> None:
    from tutor.content import check_paths

    lessons = tmp_path / "lessons"
    lessons.mkdir()
    for raw in (b"evil\x9b31m\xff.yaml", "two\nlines ✓ C0 reached.yaml".encode(), "bidi\u202egpj.yaml".encode()):
        with open(bytes(lessons) + b"/" + raw, "wb") as f:
            f.write(b"format_version: 1\nid: l1\n")
    course = check_paths([tmp_path])
    lines = [p.format("en") for p in course.problems]
    assert len(lines) == 3 and all("the name holds a control character" in line for line in lines), lines
    for line in lines:
        line.encode("utf-8")
        assert "\n" not in line and "\u202e" not in line and "\x9b" not in line


def test_the_reveal_prints_each_labelled_line_once(tmp_path: Path, data_dir: Path) -> None:
    pack = _forging_pack(tmp_path / "pack")
    exercise = pack / "exercises" / "e1.yaml"
    exercise.write_text(exercise.read_text(encoding="utf-8").replace(
        "{id: a, label: {en: A, es: A}}", '{id: a, label: {en: "A\\n✓ C0 reached", es: "A\\n✓ C0 reached"}}'),
        encoding="utf-8")
    status, out, err = run_cli(["exercise", "run", "e1", "--predict", "a", "--course", str(pack), "--lang", "en"])
    assert status == 0, err
    assert not [line for line in out.splitlines() if line.startswith(FORGED)], out
    assert "A⏎✓ C0 reached" in out and "Ex⏎✓ C0 reached" in out, out


@pytest.mark.parametrize(
    "command",
    [["progress", "export"], ["notebook", "export"], ["telemetry", "--samples", "1", "--interval", "0.25", "--record"]],
)
def test_an_output_that_is_not_a_regular_file_is_refused_and_left_alone(
    tmp_path: Path, data_dir: Path, command: list[str]
) -> None:
    """Exports write a temporary file and rename it over the target: over a device (as root, /dev/full itself) or
    a FIFO that replaced the node with a file; --record's open blocked on a FIFO. A FIFO stands for both here."""
    import os
    import stat

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    status, out, err = run_cli([*command, str(fifo), "--lang", "en"])
    _no_traceback(status, out, err)
    assert status == 1 and "is a FIFO, not a regular file; nothing was written to it" in err, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]
