"""Per-lesson status and the course's two passes.

Pass 2 of a lesson's exercises is done without hints or theory ("rebuild without looking"); it counts only when,
exercise by exercise, its verdict reproduces pass 1's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tutor.progress.c0 import PASS_SCORE


@dataclass(frozen=True)
class ExerciseStatus:
    exercise_id: str
    attempts: int
    best_score: float | None
    passed: bool
    pass1_verdict: str | None
    pass2_verdict: str | None

    @property
    def reproduced(self) -> bool:
        """Pass 2 exists and gave the same verdict as pass 1."""
        return self.pass2_verdict is not None and self.pass2_verdict == self.pass1_verdict

    def to_json(self) -> dict[str, Any]:
        return {"exercise": self.exercise_id, "attempts": self.attempts, "best_score": self.best_score,
                "passed": self.passed, "pass1_verdict": self.pass1_verdict, "pass2_verdict": self.pass2_verdict,
                "reproduced": self.reproduced}


@dataclass(frozen=True)
class LessonStatus:
    lesson_id: str
    exercises: tuple[ExerciseStatus, ...]
    sections_read: int
    sections_total: int

    @property
    def passed(self) -> bool:
        return bool(self.exercises) and all(e.passed for e in self.exercises)

    @property
    def second_pass_counts(self) -> bool:
        """Every exercise's pass 2 reproduced its pass 1."""
        return bool(self.exercises) and all(e.reproduced for e in self.exercises)

    def to_json(self) -> dict[str, Any]:
        return {"lesson": self.lesson_id, "passed": self.passed, "second_pass": self.second_pass_counts,
                "sections_read": self.sections_read, "sections_total": self.sections_total,
                "exercises": [e.to_json() for e in self.exercises]}


def _latest_verdict(attempts: Sequence[Mapping[str, Any]], pass_number: int) -> str | None:
    graded = [a for a in attempts if a.get("state") == "graded" and int(a.get("pass") or 1) == pass_number]
    return str(graded[-1]["verdict"]) if graded else None


def exercise_status(exercise_id: str, attempts: Sequence[Mapping[str, Any]]) -> ExerciseStatus:
    mine = [a for a in attempts if a.get("exercise_id") == exercise_id]
    scores = [float(a["score"]) for a in mine if a.get("state") == "graded" and a.get("score") is not None]
    best = max(scores) if scores else None
    return ExerciseStatus(exercise_id, len(mine), best, best is not None and best >= PASS_SCORE,
                          _latest_verdict(mine, 1), _latest_verdict(mine, 2))


def lesson_statuses(course: Any, attempts: Sequence[Mapping[str, Any]],
                    sections_read: set[tuple[str, str]]) -> list[LessonStatus]:
    """Every lesson of ``course`` (a :class:`tutor.content.Course`) in course order."""
    out = []
    for lesson in course.ordered_lessons():
        exercises = tuple(exercise_status(e.id, attempts) for e in course.exercises_of(lesson))
        read = sum(1 for s in lesson.sections if (lesson.id, s.id) in sections_read)
        out.append(LessonStatus(lesson.id, exercises, read, len(lesson.sections)))
    return out
