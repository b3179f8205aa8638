"""The content pipeline: YAML → models, with every problem located at path:line:col."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.content import EXERCISE, LESSON, write_course
from tutor.content import check_paths, load_course
from tutor.content.models import Exercise
from tutor.paths import bundled_course


def formatted(course_problems: list) -> list[str]:
    return [p.format() for p in course_problems]


def test_a_valid_course_loads(tmp_path: Path) -> None:
    root = write_course(tmp_path, {"l1.yaml": LESSON}, {"e1.yaml": EXERCISE})
    course = load_course(root)
    assert formatted(course.problems) == []
    assert list(course.lessons) == ["demo-l1"]
    assert course.exercises["demo-l1-copy"].measure is not None
    assert course.summary() == "1 lesson, 1 exercise, no problems"
    assert course.summary("es") == "1 lección, 1 ejercicio, ningún problema"
    assert course.exercises["demo-l1-copy"].placeholders() == {"achieved_gbs"}


def test_a_missing_field_points_at_its_mapping(tmp_path: Path) -> None:
    bad = LESSON.replace('    title: {es: "Intro", en: "Intro"}\n', "")
    root = write_course(tmp_path, {"l1.yaml": bad}, {"e1.yaml": EXERCISE})
    course = load_course(root)
    path = root / "lessons" / "l1.yaml"
    assert f"{path}:8:5: error: sections[0].title: required field is missing" in formatted(course.problems)
    # the rest of the course still loads, and the bad file is flagged
    assert [f.path for f in course.invalid] == [path]
    assert "demo-l1-copy" in course.exercises


def test_an_unknown_field_points_at_its_key(tmp_path: Path) -> None:
    bad = LESSON.replace("order: 1\n", "order: 1\ncolour: red\n")
    root = write_course(tmp_path, {"l1.yaml": bad}, {"e1.yaml": EXERCISE})
    lines = formatted(load_course(root).problems)
    assert any(line.endswith("l1.yaml:5:1: error: colour: unknown field (not part of the format; check the spelling)")
               for line in lines), lines


def test_a_wrong_type_points_at_the_value(tmp_path: Path) -> None:
    bad = LESSON.replace("order: 1\n", "order: [1, 2]\n")
    root = write_course(tmp_path, {"l1.yaml": bad}, {"e1.yaml": EXERCISE})
    lines = formatted(load_course(root).problems)
    assert any(":4:8: error: order: " in line for line in lines), lines


def test_missing_translation_is_an_error_for_bundled_content(tmp_path: Path) -> None:
    bad = LESSON.replace('outcome: {es: "Sabes", en: "You know"}', 'outcome: {es: "Sabes"}')
    root = write_course(tmp_path, {"l1.yaml": bad}, {"e1.yaml": EXERCISE})
    lines = formatted(load_course(root).problems)
    assert any(line.endswith(":6:10: error: outcome: missing the en text") for line in lines), lines
    assert load_course(root, require_translations=False).errors == []


def test_cross_file_rules(tmp_path: Path) -> None:
    lesson = LESSON.replace("exercises: [demo-l1-copy]", "exercises: [demo-l1-copy, demo-l1-ghost]")
    twin = EXERCISE  # the same id in a second file
    root = write_course(tmp_path, {"l1.yaml": lesson}, {"e1.yaml": EXERCISE, "e2.yaml": twin})
    lines = formatted(load_course(root).problems)
    assert any("exercises[1]: exercise 'demo-l1-ghost' is not defined by any file" in line for line in lines), lines
    assert any("e2.yaml:2:5: error: id: exercise id 'demo-l1-copy' is already defined in" in line for line in lines)


def test_workload_parameters_are_bounded_by_the_registry(tmp_path: Path) -> None:
    greedy = EXERCISE.replace("n: 1048576", "n: 1000000000000")
    unknown = EXERCISE.replace("name: copy", "name: rm_rf")
    root = write_course(tmp_path, {"l1.yaml": LESSON}, {"e1.yaml": greedy})
    lines = formatted(load_course(root).problems)
    # at the offending parameter's key, not at the top of the call
    assert any("e1.yaml:7:46: error: measure.params.n: " in line and "1000000000000" in line for line in lines), lines
    (root / "exercises" / "e1.yaml").write_text(unknown)
    lines = formatted(load_course(root).problems)
    assert any("unknown workload 'rm_rf'" in line for line in lines), lines


def test_exercise_kind_rules() -> None:
    base = {
        "format_version": 1, "id": "x", "lesson": "l", "title": {"en": "t"}, "prompt": {"en": "p"},
        "explanation": {"en": "e"},
    }
    with pytest.raises(ValueError, match="needs 'unit'"):
        Exercise.model_validate({**base, "kind": "number", "truth": {"source": "formula", "formula": "f"}})
    with pytest.raises(ValueError, match="answer 'c' is not one of the choices"):
        Exercise.model_validate({
            **base, "kind": "diagnose", "answer": "c",
            "choices": [{"id": "a", "label": {"en": "A"}}, {"id": "b", "label": {"en": "B"}}],
        })


HOSTILE = {
    "syntax.yaml": ("title: {es: 'a'\nbody: x\n", ":2:"),
    "tag.yaml": ("id: !!python/object/apply:os.system ['touch /tmp/pwned']\n", "is not allowed: course files are data"),
    "name.yaml": ("id: !!python/name:os.system\n", "is not allowed"),
    "empty.yaml": ("", ":1:1: error: empty file"),
    "comments.yaml": ("# nothing here\n", "empty file"),
    "binary.yaml": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
    "latin1.yaml": ("título: sí\n".encode("latin-1"), "not UTF-8"),
    "dupkey.yaml": ("id: a\nid: b\n", ":2:1: error: YAML: duplicate key 'id' (first defined at line 1)"),
    "list.yaml": ("- 1\n- 2\n", "expected a mapping"),
    "deep.yaml": ("a: " + "[" * 5000 + "]" * 5000 + "\n", "nesting"),
    "tabs.yaml": ("id: a\n\tb: c\n", ":2:1: error: YAML:"),
}


def alias_bomb() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_files_get_one_located_error(tmp_path: Path, name: str) -> None:
    content, expected = HOSTILE[name]
    path = tmp_path / "lessons" / name
    path.parent.mkdir()
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    course = check_paths([path])
    lines = formatted(course.errors)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{path}:") and expected in lines[0], lines


def test_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb())
    start = time.perf_counter()
    lines = formatted(check_paths([path]).errors)
    assert time.perf_counter() - start < 5
    assert lines == [f"{path}:2:8: error: YAML: anchors and aliases (*name) are not allowed in course files"]


def test_no_code_runs_from_yaml(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.yaml"
    path.write_text(f"id: !!python/object/apply:os.system ['touch {marker}']\n")
    check_paths([path])
    assert not marker.exists()


def test_the_bundled_course_is_clean() -> None:
    course = load_course(bundled_course())
    assert formatted(course.errors) == []
    assert "n0-l1" in course.lessons


def test_lessons_check_cli(tmp_path: Path) -> None:
    root = write_course(tmp_path / "c", {"l1.yaml": LESSON, "broken.yaml": "id: [\n"}, {"e1.yaml": EXERCISE})
    result = subprocess.run(
        [sys.executable, "-m", "tutor", "lessons", "check", str(root), "--lang", "en"], capture_output=True, text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith(f"{root / 'lessons' / 'broken.yaml'}:2:1: error: YAML:")
    assert lines[-1] == "1 lesson, 1 exercise, 1 problem"
    (root / "lessons" / "broken.yaml").unlink()
    ok = subprocess.run(
        [sys.executable, "-m", "tutor", "lessons", "check", str(root), "--lang", "en"], capture_output=True, text=True,
        timeout=60,
    )
    assert (ok.returncode, ok.stdout.strip()) == (0, "1 lesson, 1 exercise, no problems")


def test_lessons_check_names_a_missing_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    lines = formatted(check_paths([missing]).errors)
    assert lines == [f"{missing}:1:1: error: no such file or folder"]



FORMULA_EXERCISE = """\
format_version: 1
id: demo-l1-ridge
lesson: demo-l1
kind: number
title: {es: "Cresta", en: "Ridge"}
prompt: {es: "¿Dónde está la cresta?", en: "Where is the ridge?"}
truth:
  source: formula
  formula: ridge_point
  inputs: {peak_flops: PEAK, peak_bandwidth_bytes_per_s: "measured:peak_bandwidth_gbs"}
unit: FLOP/B
measure: {op: roofline}
explanation: {es: "e", en: "e"}
"""


def test_formula_inputs_are_tried_at_check_time(tmp_path: Path) -> None:
    lesson = LESSON.replace("exercises: [demo-l1-copy]", "exercises: [demo-l1-ridge]")
    good = FORMULA_EXERCISE.replace("PEAK", "209500000000000")
    root = write_course(tmp_path, {"l1.yaml": lesson}, {"e1.yaml": good})
    assert formatted(load_course(root).errors) == []
    # YAML 1.1 reads 209.5e12 (no sign in the exponent) as a string: caught here, not at run time
    (root / "exercises" / "e1.yaml").write_text(FORMULA_EXERCISE.replace("PEAK", "209.5e12"))
    lines = formatted(load_course(root).errors)
    expected = ":10:12: error: truth.inputs.peak_flops: ridge_point: peak_flops must be a finite number"
    assert len(lines) == 1 and expected in lines[0], lines
