"""The progress marks drawn in the course map and the lesson, from what the store holds.

An exercise shows two marks, pass 1 then pass 2 (✓ passed, ~ partial credit, ✗ tried and no credit, ○ not tried),
and the word
"reproduced" once pass 2 reproduced pass 1 (:mod:`tutor.progress.passes`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from tutor.content import Course, Lesson
from tutor.i18n import N_, Lang, t
from tutor.i18n.numbers import percent
from tutor.progress.passes import PASS_SCORE, ExerciseStatus, exercise_status
from tutor.progress.rows import Attempt, LabRun

__all__ = ["MARKS", "PASS_SCORE", "CourseMarks", "mark_rows"]

#: Every mark the map and the lessons draw, with the catalog key of what it means (the help screen's table and the
#: README's read the same list). An exercise has two marks side by side: pass 1, then pass 2.
MARKS: tuple[tuple[str, str], ...] = (
    ("✓", N_("marks.help.passed")),
    ("~", N_("marks.help.partial")),
    ("✗", N_("marks.help.failed")),
    ("○", N_("marks.help.not_tried")),
    ("✓○", N_("marks.help.two")),
    ("◐", N_("marks.help.started")),
    ("·", N_("marks.help.unread")),
    ("⚠", N_("marks.help.invalid")),
)


def mark_rows(lang: Lang) -> list[tuple[str, str]]:
    """(mark, what it means) for every mark, in ``lang``; the word "reproduced" last."""
    rows = [(mark, t(key, lang, pass_score=percent(PASS_SCORE * 100, lang))) for mark, key in MARKS]
    rows.append((t("marks.reproduced", lang), t("marks.help.reproduced", lang)))
    return rows


class MarksSource(Protocol):
    """What the marks are read from: the learner's store, or the session that stands for it in a screen."""

    def attempts(self) -> Sequence[Attempt]: ...

    def lab_runs(self) -> Sequence[LabRun]: ...

    def sections_read(self) -> Iterable[tuple[str, str]]: ...


@dataclass(frozen=True)
class CourseMarks:
    """Which sections are read and how each exercise stands in both passes, read once from the store."""

    read: frozenset[tuple[str, str]]
    exercises: dict[str, ExerciseStatus]
    lab_runs: frozenset[str]

    @classmethod
    def load(cls, store: MarksSource) -> CourseMarks:
        attempts = store.attempts()
        ids = {a.exercise_id for a in attempts}
        statuses = {ex: exercise_status(ex, attempts) for ex in ids}
        labs = frozenset(run.lab_id for run in store.lab_runs())
        return cls(frozenset(store.sections_read()), statuses, labs)

    def status(self, exercise_id: str) -> ExerciseStatus:
        return self.exercises.get(exercise_id) or exercise_status(exercise_id, ())

    def section(self, lesson_id: str, section_id: str) -> str:
        return "✓" if (lesson_id, section_id) in self.read else "·"

    def exercise(self, exercise_id: str) -> str:
        """The two marks: pass 1, then pass 2 (e.g. ✓✓, ✓○)."""
        return self.status(exercise_id).marks

    def reproduced(self, exercise_id: str, lang: Lang) -> str:
        """" · reproduced" after an exercise whose pass 2 reproduced pass 1, else nothing."""
        return f" · {t('marks.reproduced', lang)}" if self.status(exercise_id).reproduced else ""

    def lab(self, lab_id: str) -> str:
        return "✓" if lab_id in self.lab_runs else "○"

    def lesson(self, course: Course, lesson: Lesson) -> str:
        """✓ all read, labs run and exercises passed; ◐ started; ○ not started."""
        parts = [(lesson.id, s.id) in self.read for s in lesson.sections]
        parts += [lab.id in self.lab_runs for lab in lesson.labs]
        parts += [self.status(e.id).passed for e in course.exercises_of(lesson)]
        if parts and all(parts):
            return "✓"
        started = any(parts) or any(self.status(e.id).attempts for e in course.exercises_of(lesson))
        return "◐" if started else "○"
