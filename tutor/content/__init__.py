"""Course content: YAML lesson and exercise files loaded into validated models, with located errors."""

from tutor.content import walk
from tutor.content.loader import Course, InvalidFile, check_paths, load_course
from tutor.content.models import Exercise, Lab, Lesson, Section, Text
from tutor.content.problems import Problem

__all__ = [
    "Course",
    "Exercise",
    "InvalidFile",
    "Lab",
    "Lesson",
    "Problem",
    "Section",
    "Text",
    "check_paths",
    "load_course",
    "walk",
]
