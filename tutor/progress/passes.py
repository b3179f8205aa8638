"""The course's two passes, exercise by exercise, and per-lesson status.

The course (Nivel 0 index): *"primero reproduce, luego reconstruye sin mirar … C0 se aprueba solo en el segundo
pase reproducible"*. Pass 1 is done with the lesson at hand and hints on demand. Pass 2 — no hints, no theory, no
earlier answer shown — opens only once pass 1 was attempted (graded). An exercise counts for C0 when its latest
pass-2 attempt passed without hints and *reproduces* pass 1: pass 1 had already reached the same outcome (passed)
before it. Every rule here reads the store's rows and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tutor.progress.rows import PASS_SCORE as PASS_SCORE  # re-exported: the one pass mark
from tutor.progress.rows import Attempt
from tutor.results.wire import JsonObject


class PassClosed(ValueError):
    """Pass 2 was asked for before any pass-1 attempt of the exercise was graded."""

    def __init__(self, exercise_id: str) -> None:
        super().__init__(f"{exercise_id}: pass 2 opens once pass 1 was attempted — run pass 1 first")
        self.exercise_id = exercise_id


@dataclass(frozen=True)
class ExerciseStatus:
    """One exercise in both passes: the attempt each mark rests on (ids, so every claim names its evidence)."""

    exercise_id: str
    attempts: int
    best_score: float | None
    pass1_score: float | None
    """The best graded pass-1 score (pass 1 is practice: hints allowed, any try counts)."""
    pass1_attempt: int | None
    pass2_score: float | None
    """The latest graded pass-2 score without hints (what the learner rebuilt last)."""
    pass2_attempt: int | None
    pass1_verdict: str | None = None
    pass2_verdict: str | None = None
    pass1_before_pass2: bool = False
    """Pass 1 had passed before that pass-2 attempt was made."""

    @property
    def pass1_passed(self) -> bool:
        return self.pass1_score is not None and self.pass1_score >= PASS_SCORE

    @property
    def pass2_passed(self) -> bool:
        return self.pass2_score is not None and self.pass2_score >= PASS_SCORE

    @property
    def pass2_open(self) -> bool:
        return self.pass1_attempt is not None

    @property
    def reproduced(self) -> bool:
        """Pass 2 reached pass 1's outcome: both passed, pass 1 first."""
        return self.pass2_passed and self.pass1_before_pass2

    @property
    def passed(self) -> bool:
        """Passed in either pass (the lesson's ✓); C0 asks for :attr:`counts_for_c0`."""
        return self.pass1_passed or self.pass2_passed

    @property
    def counts_for_c0(self) -> bool:
        return self.reproduced

    @property
    def marks(self) -> str:
        """Two marks, pass 1 then pass 2: ✓ passed, ~ partial credit (scored, under the pass mark), ✗ tried and
        scored nothing, ○ not tried (e.g. ✓✓, ✓○, ~○, ✗○)."""
        return _mark(self.pass1_score) + _mark(self.pass2_score)

    def to_json(self) -> JsonObject:
        return {"exercise": self.exercise_id, "attempts": self.attempts, "best_score": self.best_score,
                "passed": self.passed, "marks": self.marks,
                "pass1": {"score": self.pass1_score, "attempt": self.pass1_attempt, "passed": self.pass1_passed,
                          "verdict": self.pass1_verdict},
                "pass2": {"open": self.pass2_open, "score": self.pass2_score, "attempt": self.pass2_attempt,
                          "passed": self.pass2_passed, "verdict": self.pass2_verdict},
                "pass1_verdict": self.pass1_verdict, "pass2_verdict": self.pass2_verdict,
                "reproduced": self.reproduced, "counts_for_c0": self.counts_for_c0}


#: The mark of an attempt that scored above 0 but under :data:`PASS_SCORE` (the verdict "partly").
PARTIAL_MARK = "~"


def _mark(score: float | None) -> str:
    if score is None:
        return "○"
    if score >= PASS_SCORE:
        return "✓"
    return PARTIAL_MARK if score > 0 else "✗"  # a 0.40 earned something: partial, not a plain miss


def exercise_status(exercise_id: str, attempts: Sequence[Attempt]) -> ExerciseStatus:
    """Both passes of ``exercise_id`` from the store's attempts (in id order)."""
    mine = [a for a in attempts if a.exercise_id == exercise_id]
    graded = [(a, a.score) for a in mine if a.graded and a.score is not None]
    best = max((score for _, score in graded), default=None)
    first = [(a, score) for a, score in graded if a.pass_number == 1]
    # Pass 2 counts only without hints; an attempt that opened one is practice, whatever its pass number says.
    second = [(a, score) for a, score in graded if a.pass_number >= 2 and a.hints_used == 0]
    best1 = max(first, key=lambda pair: pair[1], default=None)
    last2 = second[-1] if second else None
    before = False
    if last2 is not None:
        before = any(a.passed and a.id < last2[0].id and a.at <= last2[0].at for a, _ in first)
    return ExerciseStatus(
        exercise_id, len(mine), best,
        best1[1] if best1 else None, best1[0].id if best1 else None,
        last2[1] if last2 else None, last2[0].id if last2 else None,
        first[-1][0].verdict if first else None, last2[0].verdict if last2 else None,
        before,
    )


def require_pass2_open(exercise_id: str, attempts: Sequence[Attempt]) -> None:
    """Raise :class:`PassClosed` unless a pass-1 attempt of ``exercise_id`` was graded."""
    if not exercise_status(exercise_id, attempts).pass2_open:
        raise PassClosed(exercise_id)


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

    @property
    def passed_count(self) -> int:
        """How many of its exercises are passed."""
        return sum(1 for e in self.exercises if e.passed)

    @property
    def pass1_count(self) -> int:
        return sum(1 for e in self.exercises if e.pass1_passed)

    @property
    def pass2_count(self) -> int:
        return sum(1 for e in self.exercises if e.pass2_passed)

    @property
    def reproduced_count(self) -> int:
        return sum(1 for e in self.exercises if e.reproduced)

    def to_json(self) -> JsonObject:
        return {"lesson": self.lesson_id, "passed": self.passed, "second_pass": self.second_pass_counts,
                "pass1_passed": self.pass1_count, "pass2_passed": self.pass2_count,
                "reproduced": self.reproduced_count,
                "sections_read": self.sections_read, "sections_total": self.sections_total,
                "exercises": [e.to_json() for e in self.exercises]}


def lesson_statuses(course: Any, attempts: Sequence[Attempt],
                    sections_read: set[tuple[str, str]]) -> list[LessonStatus]:
    """Every lesson of ``course`` (a :class:`tutor.content.Course`) in course order."""
    out = []
    for lesson in course.ordered_lessons():
        exercises = tuple(exercise_status(e.id, attempts) for e in course.exercises_of(lesson))
        read = sum(1 for s in lesson.sections if (lesson.id, s.id) in sections_read)
        out.append(LessonStatus(lesson.id, exercises, read, len(lesson.sections)))
    return out
