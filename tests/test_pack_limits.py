"""Every list a lesson pack can grow is bounded, and a pack just over a limit is refused at the first item past it,
naming the limit (issue 28, collection limits): sections, labs and exercises of a lesson, choices, hints and
explanation variants of an exercise, levels of a course, parameters of a measurement. The rest of the course loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.cli import run_cli
from tutor.content import check_paths


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # a course file may hold no alias: write every item out
        return True


def _text() -> dict[str, str]:
    return {"es": "texto", "en": "text"}


def _lesson(**extra: Any) -> dict[str, Any]:
    return {"format_version": 1, "id": "p-l1", "level": "p", "order": 1, "title": _text(), "outcome": _text(),
            "sections": [{"id": "s0", "title": _text(), "body": _text()}], **extra}


def _exercise(**extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"format_version": 1, "id": "p-e1", "lesson": "p-l1", "kind": "diagnose",
                            "title": _text(), "prompt": _text(), "explanation": _text(), "answer": "c0",
                            "choices": [{"id": "c0", "label": _text()}, {"id": "c1", "label": _text()}]}
    return {**base, **extra}


def _sections(n: int) -> dict[str, Any]:
    return {"sections": [{"id": f"s{i}", "title": _text(), "body": _text()} for i in range(n)]}


def _labs(n: int) -> dict[str, Any]:
    return {"labs": [{"id": f"lab{i}", "title": _text(), "goal": _text(), "run": {"op": "roofline"}}
                     for i in range(n)]}


def _exercise_ids(n: int) -> dict[str, Any]:
    return {"exercises": [f"p-e{i}" for i in range(1, n + 1)]}


def _choices(n: int) -> dict[str, Any]:
    return {"choices": [{"id": f"c{i}", "label": _text()} for i in range(n)]}


def _hints(n: int) -> dict[str, Any]:
    return {"hints": [_text() for _ in range(n)]}


def _variants(n: int) -> dict[str, Any]:
    return {"explanation_when": [{"when": {"metric": "ratio", "above": float(i)}, "text": _text()}
                                 for i in range(n)]}


# (what, limit, the lesson's or exercise's extra fields for n items, which file, the list's field path)
CASES = [
    ("sections", 60, _sections, "lesson", "sections"),
    ("labs", 20, _labs, "lesson", "labs"),
    ("exercises", 100, _exercise_ids, "lesson", "exercises"),
    ("choices", 12, _choices, "exercise", "choices"),
    ("hints", 6, _hints, "exercise", "hints"),
    ("explanation_when", 8, _variants, "exercise", "explanation_when"),
]


def _write(root: Path, lesson: dict[str, Any], exercise: dict[str, Any]) -> tuple[Path, Path]:
    (root / "lessons").mkdir(parents=True)
    (root / "exercises").mkdir()
    lesson_path, exercise_path = root / "lessons" / "l.yaml", root / "exercises" / "e.yaml"
    lesson_path.write_text(yaml.dump(lesson, Dumper=_Dumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
    exercise_path.write_text(yaml.dump(exercise, Dumper=_Dumper, sort_keys=False, allow_unicode=True),
                             encoding="utf-8")
    return lesson_path, exercise_path


def _line_of_item(path: Path, field: str, index: int) -> tuple[int, int]:
    """Line and column of item ``index`` of the block list ``field`` (as yaml.dump writes it: ``- `` items)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{field}:"))
    seen = -1
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("- "):
            seen += 1
            if seen == index:
                return i + 1, 3
    raise AssertionError(f"no item {index} of {field}")


@pytest.mark.parametrize(("what", "limit", "items", "which", "field"), CASES, ids=[c[0] for c in CASES])
def test_a_list_just_over_its_limit_is_refused_at_the_first_item_past_it(
    tmp_path: Path, what: str, limit: int, items: Any, which: str, field: str
) -> None:
    over, at = tmp_path / "over", tmp_path / "at"
    for root, n in ((over, limit + 1), (at, limit)):
        lesson = _lesson(**{"exercises": ["p-e1"], **(items(n) if which == "lesson" else {})})
        exercise = _exercise(**(items(n) if which == "exercise" else {}))
        _write(root, lesson, exercise)
    lesson_path, exercise_path = over / "lessons" / "l.yaml", over / "exercises" / "e.yaml"
    path = lesson_path if which == "lesson" else exercise_path
    course = check_paths([over])
    errors = [p for p in course.errors if p.path == path]
    line, col = _line_of_item(path, field, limit)
    assert [p.format("en") for p in errors] == [
        f"{path}:{line}:{col}: error: {field}[{limit}]: more than {limit} items (the limit)"]
    assert errors[0].format("es").endswith(f"error: {field}[{limit}]: más de {limit} elementos (el límite)")
    # one file over a limit is flagged; the other file of the pack still loads
    assert (course.lessons if which == "exercise" else course.exercises)
    # at the limit: no complaint about that list
    assert not [p for p in check_paths([at]).errors if "(the limit)" in p.message]


def test_levels_just_over_the_limit_are_refused_through_the_cli(tmp_path: Path, data_dir: Path) -> None:
    root = tmp_path / "pack"
    _write(root, _lesson(exercises=["p-e1"]), _exercise())
    course_file = root / "course.yaml"
    levels = [{"id": f"v{i}", "title": _text()} for i in range(51)]
    course_file.write_text(yaml.dump({"format_version": 1, "title": _text(), "levels": levels}, Dumper=_Dumper,
                                     sort_keys=False), encoding="utf-8")
    code, out, err = run_cli(["lessons", "check", str(root), "--lang", "es"])
    line, col = _line_of_item(course_file, "levels", 50)
    assert code == 1 and "Traceback" not in out + err
    assert f"{course_file}:{line}:{col}: error: levels[50]: más de 50 elementos (el límite)" in out + err


def test_parameters_just_over_the_limit_are_refused_at_the_key_past_it(tmp_path: Path) -> None:
    params = {f"p{i}": i for i in range(21)}
    exercise = _exercise(kind="bound", measure={"op": "workload", "name": "copy", "params": params})
    del exercise["answer"], exercise["choices"]
    _, exercise_path = _write(tmp_path / "pack", _lesson(exercises=["p-e1"]), exercise)
    errors = [p for p in check_paths([tmp_path / "pack"]).errors if p.path == exercise_path]
    text = exercise_path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, row in enumerate(text) if row.strip().startswith("p20:")) + 1
    assert [(p.line, p.message) for p in errors][:1] == [(line, "measure.params: more than 20 items (the limit)")]


@pytest.mark.parametrize(("text", "english", "spanish"), [
    ("a: " + "[" * 40 + "]" * 40 + "\n", "YAML: nesting deeper than 32 levels", "YAML: anidado a más de 32 niveles"),
    ("a: &x [1]\nb: *x\n", "YAML: anchors and aliases (*name) are not allowed in course files",
     "YAML: en los archivos del curso no se permiten anclas ni alias (*nombre)"),
    ("a: [" + ",".join(["1"] * 100_001) + "]\n", "YAML: more than 100,000 values in one file",
     "YAML: más de 100\u202f000 valores en un solo archivo"),
])
def test_the_yaml_limits_are_said_in_the_readers_language(tmp_path: Path, text: str, english: str,
                                                          spanish: str) -> None:
    path = tmp_path / "lessons" / "l.yaml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    (problem,) = check_paths([path]).errors
    assert problem.format("en").endswith(f"error: {english}") and problem.format("es").endswith(f"error: {spanish}")
