"""Lesson packs written by an attacker (issue 10, the content side): every resource bounded, every number finite,
no control character passed on, every problem located at the offending key — and never a traceback.

The resource cases run ``tutor lessons check`` in a subprocess under ``RLIMIT_AS`` and a timeout, so a regression
(reading a sparse 3 GB file whole, walking ``/``, blocking on a FIFO) fails the test instead of eating the machine.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.content import EXERCISE, LESSON, write_course
from tutor.content import check_paths, load_course, walk
from tutor.content.yaml_source import FAST_PARSER

DIAGNOSE = """\
format_version: 1
id: demo-l1-copy
lesson: demo-l1
kind: diagnose
title: {es: "Diagnóstico", en: "Diagnosis"}
prompt: {es: "¿Qué pasa?", en: "What is going on?"}
choices:
  - {id: a, label: {es: A, en: A}}
  - {id: b, label: {es: B, en: B}}
answer: c
explanation: {es: "e", en: "e"}
"""

MEMORY_LIMIT = 1 << 30  # 1 GiB of address space: far more than a check needs, far less than a 3 GB read


def make_course(root: Path, lesson: str = LESSON, exercise: str = EXERCISE) -> Path:
    return write_course(root, {"l1.yaml": lesson}, {"e1.yaml": exercise})


def lines_of(problems: list) -> list[str]:
    return [p.format() for p in problems]


def run_check(*args: str | Path, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """``tutor lessons check ARGS`` as a user runs it, bounded in memory and time."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    return subprocess.run(
        [sys.executable, "-m", "tutor", "lessons", "check", *map(str, args), "--lang", "en"],
        capture_output=True,
        timeout=timeout,
        preexec_fn=limit,
    )


def assert_clean_failure(result: subprocess.CompletedProcess[bytes]) -> str:
    out = result.stdout.decode() + result.stderr.decode()
    assert result.returncode == 1, out
    assert "Traceback" not in out and "internal error" not in out, out
    assert "\x1b" not in out and "\x9b" not in out, out
    return out


# -- 3. unbounded reads ------------------------------------------------------------------------------------------


def test_a_sparse_3_gb_lesson_is_refused_by_its_size(tmp_path: Path) -> None:
    root = make_course(tmp_path / "c")
    big = root / "lessons" / "big.yaml"
    with open(big, "wb") as f:
        f.truncate(3 * 10**9)  # sparse: no disk used
    start = time.perf_counter()
    out = assert_clean_failure(run_check(root))
    assert time.perf_counter() - start < 30
    assert f"{big}:1:1: error: file is larger than 1000 kB (is 3,000,000,000 bytes" in out
    assert out.rstrip().endswith("1 lesson, 1 exercise, 1 problem")  # the rest of the course still loads


def test_links_out_of_the_course_are_never_followed(tmp_path: Path) -> None:
    root = make_course(tmp_path / "c")
    secret = tmp_path / "secret.yaml"
    secret.write_text(LESSON.replace("demo-l1", "secret"))
    (root / "lessons" / "all").symlink_to("/")
    (root / "lessons" / "zero.yaml").symlink_to("/dev/zero")
    (root / "lessons" / "s.yaml").symlink_to(secret)
    (root / "exercises" / "up").symlink_to(root)  # a loop inside the course: each folder is read once
    out = assert_clean_failure(run_check(root))
    for name in ("all", "zero.yaml", "s.yaml"):
        assert f"{root / 'lessons' / name}:1:1: error: is a link that leads out of the course folder" in out, out
    assert "secret" not in out.replace(str(secret), "").replace("s.yaml", "")
    assert out.rstrip().endswith("1 lesson, 1 exercise, 3 problems")


def test_a_lessons_folder_linked_to_the_root_is_not_walked(tmp_path: Path) -> None:
    root = make_course(tmp_path / "c")
    (root / "lessons" / "l1.yaml").unlink()
    (root / "lessons").rmdir()
    (root / "lessons").symlink_to("/")
    out = assert_clean_failure(run_check(root, timeout=30))
    assert f"{root / 'lessons'}:1:1: error: is a link that leads out of the course folder; it was not read" in out


def test_fifos_and_devices_are_refused_without_blocking(tmp_path: Path) -> None:
    root = make_course(tmp_path / "c")
    fifo = root / "lessons" / "pipe.yaml"
    os.mkfifo(fifo)
    named = tmp_path / "named.yaml"
    os.mkfifo(named)
    out = assert_clean_failure(run_check(root, named, "/dev/zero", timeout=30))
    assert f"{fifo}:1:1: error: is a FIFO, not a regular file; it was not read" in out
    assert f"{named}:1:1: error: is a FIFO, not a regular file; it was not read" in out
    assert "/dev/zero:1:1: error: is a device, not a regular file; it was not read" in out


def test_folder_depth_and_file_count_are_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_course(tmp_path / "c")
    deep = root / "lessons"
    for _ in range(walk.MAX_FOLDER_DEPTH + 3):
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "x.yaml").write_text(LESSON.replace("demo-l1", "deep"))
    ok = root / "lessons" / "d" / "d" / "near.yaml"  # two levels down: read
    ok.write_text(LESSON.replace("exercises: [demo-l1-copy]\n", "").replace("demo-l1", "near"))
    course = load_course(root)
    too_deep = root / "lessons" / Path(*["d"] * (walk.MAX_FOLDER_DEPTH + 1))
    assert lines_of(course.errors) == [
        f"{too_deep}:1:1: error: folders nested more than {walk.MAX_FOLDER_DEPTH} levels deep; not read"
    ]
    assert sorted(course.lessons) == ["demo-l1", "near"]

    monkeypatch.setattr(walk, "MAX_FILES", 3)
    for i in range(5):
        (root / "exercises" / f"z{i}.yaml").write_text("x: 1\n")
    errors = lines_of(load_course(root).errors)
    assert any("more than 3 course files; this one and the rest were not read" in e for e in errors), errors


def test_a_file_with_a_control_character_in_its_name_is_not_read(tmp_path: Path) -> None:
    root = make_course(tmp_path / "c")
    (root / "lessons" / "evil\x1b]0;pwned\x07.yaml").write_text(LESSON.replace("demo-l1", "evil"))
    out = assert_clean_failure(run_check(root))
    assert "evil]0;pwned.yaml:1:1: error: the name holds a control character; it was not read" in out
    assert all("\x1b" not in str(bad.path) for bad in load_course(root).invalid)  # the map lists it cleaned too


def test_a_flood_of_values_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "lessons" / "flood.yaml"
    path.parent.mkdir()
    path.write_text("a: [" + ",".join(["1"] * 120_000) + "]\n")
    start = time.perf_counter()
    errors = lines_of(check_paths([path]).errors)
    assert time.perf_counter() - start < 10
    assert len(errors) == 1 and "YAML: more than 100,000 values in one file" in errors[0], errors


# -- 5. non-finite and absurd numbers ------------------------------------------------------------------------------

NUMBERS = {
    "inf-param": (EXERCISE.replace("n: 1048576", "n: .inf"), "7:49", "measure.params.n: .inf is not a finite number"),
    "nan-param": (EXERCISE.replace("n: 1048576", "n: .NaN"), "7:49", "measure.params.n: .NaN is not a finite number"),
    "overflow": (EXERCISE.replace("n: 1048576", "n: 1.0e+400"), "7:49", "1.0e+400 is not a finite number"),
    "range-inf": (EXERCISE + "range: [0, -.inf]\n", "9:12", "range[1]: -.inf is not a finite number"),
    "capacity-nan": (EXERCISE + "capacity_gb: .nan\n", "9:14", "capacity_gb: .nan is not a finite number"),
    "grading-inf": (EXERCISE + "grading: {full: .inf}\n", "9:17", "grading.full: .inf is not a finite number"),
    "huge-int": (EXERCISE.replace("n: 1048576", "n: 1" + "0" * 5000), "7:49", "is out of range"),
}


@pytest.mark.parametrize("case", sorted(NUMBERS))
def test_non_finite_numbers_are_located_errors(tmp_path: Path, case: str) -> None:
    exercise, where, message = NUMBERS[case]
    root = make_course(tmp_path, exercise=exercise)
    course = load_course(root)
    path = root / "exercises" / "e1.yaml"
    errors = [e for e in lines_of(course.errors) if e.startswith(str(path))]
    assert len(errors) == 1 and errors[0].startswith(f"{path}:{where}: error: ") and message in errors[0], errors
    assert [bad.path for bad in course.invalid] == [path]


def test_the_lists_and_the_check_survive_an_infinite_number(tmp_path: Path) -> None:
    root = make_course(tmp_path, exercise=EXERCISE.replace("n: 1048576", "n: .inf"))
    env = {**os.environ, "TUTOR_DATA_DIR": str(tmp_path / "data")}
    for argv in (["lessons", "check", str(root)], ["lessons", "list", "--course", str(root)],
                 ["exercise", "list", "--course", str(root)]):
        result = subprocess.run([sys.executable, "-m", "tutor", *argv], capture_output=True, text=True, timeout=60,
                                env=env)
        assert "Traceback" not in result.stdout + result.stderr, (argv, result.stderr)
        assert result.returncode in (0, 1), (argv, result.returncode, result.stderr)


# -- 2. control characters in pack text ----------------------------------------------------------------------------

CONTROLS = {
    # escaped in a double-quoted scalar: YAML itself turns them into control characters
    "osc-title": (LESSON.replace('en: "One"', 'en: "\\e]0;pwned\\aOne"'), "5:24",
                  "title.en: control character U+001B (ESC) in the text"),
    "osc52-body": (LESSON.replace('en: "# Hello"', 'en: "\\e]52;c;ZXZpbA==\\a"'), "10:30",
                   "sections[0].body.en: control character U+001B (ESC)"),
    "c1-csi": (LESSON.replace('en: "One"', 'en: "\\x9b31mOne"'), "5:24", "control character U+009B (CSI)"),
    "bidi": (LESSON.replace('en: "One"', 'en: "\\u202eenO"'), "5:24", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    "in-id": (LESSON.replace("id: demo-l1\n", 'id: "demo\\e[2J"\n'), "2:5", "id: control character U+001B (ESC)"),
    "in-key": (LESSON.replace("order: 1\n", 'order: 1\n"\\e[31mcolour": red\n'), "5:1",
               "control character U+001B (ESC) in a key"),
    # typed into the file: found before YAML sees it, at its own column
    "raw-esc": (LESSON.replace('en: "One"', 'en: "\x1b]0;pwned\x07One"'), "5:25", "control character U+001B (ESC)"),
    "raw-c1": (LESSON.replace('en: "One"', 'en: "\x9b31mOne"'), "5:25", "control character U+009B (CSI)"),
    "raw-bidi": (LESSON.replace('en: "One"', 'en: "\u202eenO"'), "5:25", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
}


@pytest.mark.parametrize("case", sorted(CONTROLS))
def test_control_characters_are_located_errors(tmp_path: Path, case: str) -> None:
    lesson, where, message = CONTROLS[case]
    root = make_course(tmp_path, lesson=lesson)
    path = root / "lessons" / "l1.yaml"
    errors = [e for e in lines_of(load_course(root).errors) if e.startswith(str(path))]
    assert errors and errors[0].startswith(f"{path}:{where}: error: ") and message in errors[0], errors
    assert all("\x1b" not in e and "\x9b" not in e for e in errors)


def test_crlf_files_and_tabs_are_plain_text(tmp_path: Path) -> None:
    lesson = LESSON.replace('en: "# Hello"', 'en: "col\\tcol"').replace("\n", "\r\n")
    root = make_course(tmp_path, lesson=lesson)
    assert lines_of(load_course(root).problems) == []


def test_no_escape_byte_reaches_the_terminal_from_lessons_check(tmp_path: Path) -> None:
    osc52 = EXERCISE.replace("name: copy", 'name: "\\e]52;c;x\\a"')
    root = make_course(tmp_path, lesson=CONTROLS["raw-esc"][0], exercise=osc52)
    out = assert_clean_failure(run_check(root))
    assert f"{root / 'lessons' / 'l1.yaml'}:5:25: error: control character U+001B (ESC)" in out
    assert f"{root / 'exercises' / 'e1.yaml'}:7:31: error: measure.name: control character U+001B (ESC)" in out


# -- 6. errors at the offending key --------------------------------------------------------------------------------


def located(tmp_path: Path, exercise: str) -> list[str]:
    root = make_course(tmp_path, exercise=exercise)
    path = root / "exercises" / "e1.yaml"
    return [e.removeprefix(f"{path}:") for e in lines_of(load_course(root).errors) if e.startswith(str(path))]


def test_an_answer_that_is_not_a_choice_is_reported_at_answer(tmp_path: Path) -> None:
    assert located(tmp_path, DIAGNOSE) == ["10:1: error: answer: answer 'c' is not one of the choices ['a', 'b']"]


def test_a_reversed_range_is_reported_at_range(tmp_path: Path) -> None:
    errors = located(tmp_path, EXERCISE + "range: [10, 1]\n")
    assert errors == ["9:1: error: range: range must be [low, high] with low < high"]


def test_rules_between_nested_fields_point_at_their_key(tmp_path: Path) -> None:
    grading = EXERCISE + "grading:\n  full: 1.5\n  most: 1.2\n"
    assert located(tmp_path / "a", grading) == ["11:3: error: grading.most: tolerances must grow: full ≤ most ≤ some"]
    missing = EXERCISE.replace("kind: bound", "kind: fit")
    assert located(tmp_path / "b", missing) == ["4:1: error: kind: a fit exercise needs 'capacity_gb'"]


def test_an_unknown_formula_is_reported_at_formula(tmp_path: Path) -> None:
    exercise = EXERCISE.replace("kind: bound", "kind: number").replace(
        "measure: {op: workload, name: copy, params: {n: 1048576}}\n",
        "truth:\n  source: formula\n  formula: no_such_formula\n  inputs:\n    a: 1\nunit: GB\n",
    )
    errors = located(tmp_path, exercise)
    assert len(errors) == 1 and errors[0].startswith("9:3: error: truth.formula: unknown formula 'no_such_formula'")


def test_a_bad_dtype_in_block_style_is_reported_at_dtype(tmp_path: Path) -> None:
    exercise = EXERCISE.replace(
        "measure: {op: workload, name: copy, params: {n: 1048576}}\n",
        "measure:\n  op: workload\n  name: copy\n  params:\n    n: 1048576\n    dtype: int9\n",
    )
    errors = located(tmp_path, exercise)
    assert len(errors) == 1 and errors[0].startswith("12:5: error: measure.params.dtype: copy: dtype='int9'"), errors
    unknown = exercise.replace("name: copy", "name: rm_rf")
    assert located(tmp_path / "b", unknown)[0].startswith("9:3: error: measure.name: unknown workload 'rm_rf'")


def test_a_raw_control_byte_is_located_not_an_internal_error(tmp_path: Path) -> None:
    root = make_course(tmp_path, lesson=LESSON.replace("order: 1\n", "order: 1\x01\n"))
    errors = lines_of(load_course(root).errors)
    assert errors == [f"{root / 'lessons' / 'l1.yaml'}:4:9: error: control character U+0001; course text must be plain"]


# -- 9. the parser -----------------------------------------------------------------------------------------------


def test_libyaml_does_the_scanning_when_pyyaml_has_it() -> None:
    import yaml

    assert bool(getattr(yaml, "__with_libyaml__", False)) == FAST_PARSER


def test_a_long_unknown_key_is_cut_short_in_its_message(tmp_path: Path) -> None:
    root = make_course(tmp_path, lesson=LESSON.replace("order: 1\n", "order: 1\n? " + "k" * 5000 + "\n: 1\n"))
    [error] = lines_of(load_course(root).errors)
    expected = f"l1.yaml:5:3: error: {'k' * 60}…: unknown field (not part of the format; check the spelling)"
    assert error.endswith(expected), error
