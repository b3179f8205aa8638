"""The progress marks drawn in the course map, from what the store holds."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.content import Course, Lesson
from tutor.progress import StoreBase
from tutor.progress.c0 import PASS_SCORE

__all__ = ["PASS_SCORE", "CourseMarks"]


@dataclass(frozen=True)
class CourseMarks:
    """Which sections are read and how each exercise stands, read once from the store."""

    read: frozenset[tuple[str, str]]
    best_scores: dict[str, float]
    lab_runs: frozenset[str]

    @classmethod
    def load(cls, store: StoreBase) -> CourseMarks:
        best: dict[str, float] = {}
        for attempt in store.attempts():
            if attempt["state"] == "graded" and attempt["score"] is not None:
                best[attempt["exercise_id"]] = max(best.get(attempt["exercise_id"], 0.0), float(attempt["score"]))
        labs = frozenset(run["lab_id"] for run in store.lab_runs())
        return cls(frozenset(store.sections_read()), best, labs)

    def section(self, lesson_id: str, section_id: str) -> str:
        return "✓" if (lesson_id, section_id) in self.read else "·"

    def exercise(self, exercise_id: str) -> str:
        if exercise_id not in self.best_scores:
            return "○"
        return "✓" if self.best_scores[exercise_id] >= PASS_SCORE else "✗"

    def lab(self, lab_id: str) -> str:
        return "✓" if lab_id in self.lab_runs else "○"

    def lesson(self, course: Course, lesson: Lesson) -> str:
        """✓ all read, labs run and exercises passed; ◐ started; ○ not started."""
        parts = [(lesson.id, s.id) in self.read for s in lesson.sections]
        parts += [lab.id in self.lab_runs for lab in lesson.labs]
        parts += [self.best_scores.get(e.id, 0.0) >= PASS_SCORE for e in course.exercises_of(lesson)]
        if parts and all(parts):
            return "✓"
        started = any(parts) or any(e.id in self.best_scores for e in course.exercises_of(lesson))
        return "◐" if started else "○"
