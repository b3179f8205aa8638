"""App-wide messages (attributes down, messages up): what a screen asks the app to do."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class OpenLesson(Message):
    """Open a lesson, at one of its sections if given."""

    lesson_id: str
    section_id: str | None = None


@dataclass
class OpenExercise(Message):
    exercise_id: str
    pass_number: int = 1


@dataclass
class OpenLab(Message):
    lesson_id: str
    lab_id: str


@dataclass
class ProgressChanged(Message):
    """Something was recorded in the progress store; screens showing marks refresh them."""
