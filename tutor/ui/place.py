"""Which place of the course a screen is: what the app records as the learner's last place when it is shown.

A lesson is its lesson and the section on screen, an exercise its exercise (and pass), a lab its lab; the map is
no place (the next start opens on the map). Every other screen — help, progress, the notebook, an exercise's
attempts, the doctor — says :data:`KEEP`: the learner is still where they were before opening it.
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Any, Final, Literal

from textual.screen import Screen

from tutor.progress.place import Place

__all__ = ["KEEP", "screen_place"]


class _Keep(Enum):
    KEEP = "keep"


KEEP: Final = _Keep.KEEP
"""The screen is no place of the course: the last place stays what it was."""


def screen_place(screen: Screen[Any]) -> Place | Literal[_Keep.KEEP] | None:
    """``screen``'s place, None for the map, :data:`KEEP` for a screen that is no place."""
    from tutor.ui.screens.course_map import CourseMapScreen
    from tutor.ui.screens.lesson import LessonScreen

    if isinstance(screen, CourseMapScreen):
        return None
    if isinstance(screen, LessonScreen):
        return screen.place
    # The exercise and lab screens are imported when the first one opens (not at start): a screen of theirs
    # exists only once their module is loaded.
    exercise = sys.modules.get("tutor.ui.screens.exercise")
    if exercise is not None and isinstance(screen, exercise.ExerciseScreen):
        ex = screen.exercise
        return Place("exercise", ex.lesson, ex.id, pass_number=screen.pass_number)
    lab = sys.modules.get("tutor.ui.screens.lab")
    if lab is not None and isinstance(screen, lab.LabScreen):
        return Place("lab", screen.lesson.id, screen.lab.id)
    return KEEP
