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


@dataclass
class WorkFailed(Message):
    """Blocking work of a screen did not finish: the app shows one notice for it, the same on every screen.

    ``kind`` says what was running (``exercise``, ``lab``, ``doctor``, ``course``: the notice's title); ``code``
    is a failure code of :mod:`tutor.practice.failures` (``cancelled``, ``killed``, ``engine``, ...) and
    ``detail`` the one English line the store keeps (the catalog words the notice from both)."""

    kind: str
    code: str
    detail: str = ""
