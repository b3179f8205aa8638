"""A pack cannot redefine a bundled id (issue 28, trust boundaries): a lesson or exercise of a ``--course`` pack, or
of a pack checked beside the bundled course, whose id is the bundled course's is refused at its ``id`` line, and C0
is the bundled course's whatever course is open, so a pack's attempts and notebook entries are never its evidence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.content import EXERCISE, LESSON, write_course
from tutor.cli import main
from tutor.content import check_paths, load_course
from tutor.paths import bundled_course
from tutor.progress.c0 import evaluate_c0, evaluate_store, level_exercise_ids
from tutor.progress.rows import Attempt, StoredEntry

EXPLANATION = " ".join(["the decode is slow because the fixed cost of each step dominates the time"] * 3)


def pack(tmp_path: Path) -> Path:
    """A pack that takes the bundled lesson n0-l4 and the bundled exercise n0-l4-gap-fixed, with a lesson of its own
    in a level it calls n0 (the level C0 reads)."""
    lessons = {
        "l4.yaml": LESSON.replace("id: demo-l1", "id: n0-l4").replace("exercises: [demo-l1-copy]", "exercises: []"),
        "own.yaml": LESSON.replace("id: demo-l1", "id: p-l1").replace("level: demo", "level: n0")
        .replace("[demo-l1-copy]", "[p-l1-copy, n0-l4-gap-fixed]"),
    }
    exercises = {
        "gap.yaml": EXERCISE.replace("id: demo-l1-copy", "id: n0-l4-gap-fixed").replace("lesson: demo-l1",
                                                                                      "lesson: p-l1"),
        "own.yaml": EXERCISE.replace("id: demo-l1-copy", "id: p-l1-copy").replace("lesson: demo-l1", "lesson: p-l1"),
    }
    return write_course(tmp_path / "pack", lessons, exercises)


def test_a_pack_that_redefines_bundled_ids_is_refused_at_the_id(tmp_path: Path) -> None:
    root = pack(tmp_path)
    course = load_course(root)
    lines = [p.format() for p in course.errors]
    lesson, exercise = root / "lessons" / "l4.yaml", root / "exercises" / "gap.yaml"
    assert (f"{lesson}:2:5: error: id: lesson id 'n0-l4' belongs to the bundled course; a pack cannot redefine it"
            in "\n".join(lines))
    assert f"{exercise}:2:5: error: id: exercise id 'n0-l4-gap-fixed' belongs to the bundled course" in "\n".join(lines)
    spanish = "\n".join(p.format("es") for p in course.errors)
    assert f"{exercise}:2:5: error: id: el id de ejercicio 'n0-l4-gap-fixed' es del curso incluido" in spanish
    assert f"{lesson}:2:5: error: id: el id de lección 'n0-l4' es del curso incluido" in spanish
    # refused, flagged in the map, and the rest of the pack loads
    assert "n0-l4" not in course.lessons and "n0-l4-gap-fixed" not in course.exercises
    assert {f.path for f in course.invalid} == {lesson, exercise}
    assert set(course.lessons) == {"p-l1"} and set(course.exercises) == {"p-l1-copy"}


def test_a_pack_beside_the_bundled_course_is_refused_and_the_bundled_course_is_not(tmp_path: Path) -> None:
    root = pack(tmp_path)
    course = check_paths([bundled_course(), root])
    refused = {p.path for p in course.errors if "belongs to the bundled course" in p.format()}
    assert refused == {root / "lessons" / "l4.yaml", root / "exercises" / "gap.yaml"}
    assert all(p.path.is_relative_to(root) for p in course.errors)  # the bundled files stay clean
    assert course.exercises["n0-l4-gap-fixed"].lesson == "n0-l4"  # the bundled one


def test_lessons_check_says_it_in_one_located_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = pack(tmp_path)
    assert main(["lessons", "check", str(root), "--lang", "es"]) == 1
    out = capsys.readouterr().out
    assert f"{root / 'exercises' / 'gap.yaml'}:2:5: error: id: el id de ejercicio 'n0-l4-gap-fixed' es del curso" in out
    assert "Traceback" not in out


def _attempt(i: int, ex: str, pass_number: int, kind: str = "cpu") -> Attempt:
    return Attempt.from_json({"id": i, "exercise_id": ex, "lesson_id": "p-l1", "pass": pass_number,
                              "state": "graded", "score": 1.0, "verdict": "correct", "confidence": 0.8,
                              "hints_used": 0, "created_at": 3000.0 + i, "graded_at": 3000.5 + i,
                              "measurement": {"device": {"kind": kind, "name": "X"}}})


class _Store:
    def __init__(self, attempts: list[Attempt], notebook: list[StoredEntry]) -> None:
        self._attempts, self._notebook = attempts, notebook

    def attempts(self) -> list[Attempt]:
        return self._attempts

    def notebook_entries(self) -> list[StoredEntry]:
        return self._notebook

    def bench_runs(self) -> list[Any]:
        return []

    def doctor_runs(self) -> list[Any]:
        return []


def test_c0_is_the_bundled_course_s_whatever_course_is_open(tmp_path: Path) -> None:
    course = load_course(pack(tmp_path))
    bundled = load_course(bundled_course(), require_translations=False, check_registry=False)
    expected = [e.id for lesson in bundled.lessons_in("n0") for e in bundled.exercises_of(lesson)]
    assert level_exercise_ids(course) == expected and "p-l1-copy" not in expected
    # the pack's own "n0" exercise reproduced, on a GPU: no evidence, and it does not make this "C0" (not CPU)
    store = _Store([_attempt(1, "p-l1-copy", 1, "cuda"), _attempt(2, "p-l1-copy", 2, "cuda")], [])
    c0 = evaluate_store(course, store)
    level = c0.conditions[3]
    assert not level.passed and "p-l1-copy" not in level.evidence.render("en")
    assert c0.cpu_only and c0.name == "C0 (CPU)"


def test_a_pack_lab_named_like_the_bundled_l4_lab_is_not_the_gap_explanation() -> None:
    def entry(lesson: str, lab: str) -> StoredEntry:
        return StoredEntry.from_row({"id": 1, "lab_id": lab, "entry": {"lab_id": lab, "lesson_id": lesson,
                                                                       "gap": EXPLANATION}, "created_at": 4000.0})

    def explained(notebook: list[StoredEntry]) -> bool:
        gap = evaluate_c0(attempts=[], bench_runs=[], doctor_runs=[], level_exercises=[], notebook=notebook)
        return gap.conditions[2].refs["notebook_entry"] is not None

    assert not explained([entry("p-l4", "n0-l4-lab-bench")])  # a pack's lesson, the bundled lab's name
    assert explained([entry("n0-l4", "n0-l4-lab-bench")])
    assert explained([entry("", "n0-l4-lab-bench")])  # an entry that names no lesson counts by its lab
