"""A course's outline, read fast: levels and lesson titles, enough for the course map to paint at once.

:func:`tutor.content.load_course` validates every file (thousands of lessons take seconds); the map only needs each
lesson's ``id``, ``level``, ``order`` and ``title`` to draw its tree. :func:`outline_course` walks the course with
the same bounds as the loader (:mod:`tutor.content.walk`), reads each lesson file within the same size limit, and
reads YAML events only until those four top-level keys are seen (with libyaml, the rest of the file is never
parsed). Nothing here is validated beyond what painting needs: a file that cannot be outlined is listed in
``problems``; the full load, run afterwards (in a worker), has the last word and the located errors.

Every string is passed through :func:`tutor.untrusted.clean_line` (one-line, no control characters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.events import (
    CollectionEndEvent,
    CollectionStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    StreamEndEvent,
)

from tutor.content import yaml_source
from tutor.content.models import CourseInfo, Level, Text
from tutor.content.problems import ContentError, Problem
from tutor.content.walk import walk_targets
from tutor.i18n import LANGS, Lang
from tutor.i18n.message import Message
from tutor.untrusted import clean_line

_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
_WANTED = ("id", "level", "order", "title")
MAX_TITLE = 200


@dataclass(frozen=True)
class LessonOutline:
    """What the map shows of a lesson before it is loaded: its place and its title."""

    id: str
    level: str
    order: int
    title: dict[str, str]
    path: Path

    def title_in(self, lang: Lang) -> str:
        return next((title for code in (lang, *LANGS) if (title := self.title.get(code))), self.id)


@dataclass
class Outline:
    root: Path
    info: CourseInfo | None = None
    lessons: dict[str, LessonOutline] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def levels(self) -> list[Level]:
        """Levels from ``course.yaml``, plus any a lesson names that it does not declare (as :class:`Course`)."""
        declared = list(self.info.levels) if self.info else []
        known = {lvl.id for lvl in declared}
        for lesson in self.lessons.values():
            if lesson.level not in known:
                known.add(lesson.level)
                declared.append(Level(id=lesson.level, order=999, title=Text(en=lesson.level)))
        return sorted(declared, key=lambda lvl: (lvl.order, lvl.id))

    def lessons_in(self, level_id: str) -> list[LessonOutline]:
        return sorted((x for x in self.lessons.values() if x.level == level_id), key=lambda x: (x.order, x.id))


def _skim(path: Path, text: str) -> dict[str, Any]:
    """The top-level ``id``/``level``/``order`` scalars and the ``title`` mapping, reading no further than needed."""
    loader = yaml_source.fast_event_loader(text)
    found: dict[str, Any] = {}
    try:
        if not (loader.check_event(yaml.StreamStartEvent) and loader.get_event()):
            return found
        loader.get_event()  # document start
        if not loader.check_event(MappingStartEvent):
            return found
        loader.get_event()
        while not loader.check_event(MappingEndEvent, StreamEndEvent) and len(found) < len(_WANTED):
            key = loader.get_event()
            if not isinstance(key, ScalarEvent):
                _skip(loader, key)
                _skip(loader, loader.get_event())
                continue
            value = loader.get_event()
            if key.value in ("id", "level", "order") and isinstance(value, ScalarEvent):
                found[key.value] = value.value
            elif key.value == "title" and isinstance(value, MappingStartEvent):
                title: dict[str, str] = {}
                while not loader.check_event(MappingEndEvent):
                    lang, text_event = loader.get_event(), loader.get_event()
                    if isinstance(lang, ScalarEvent) and isinstance(text_event, ScalarEvent):
                        if lang.value in ("es", "en"):
                            title[lang.value] = clean_line(text_event.value)[:MAX_TITLE]
                    else:
                        _skip(loader, lang)
                        _skip(loader, text_event)
                loader.get_event()
                found["title"] = title
            else:
                _skip(loader, value)
    finally:
        loader.dispose()
    return found


def _skip(loader: Any, event: Any) -> None:
    """Consume the rest of the node ``event`` starts (nothing for a scalar)."""
    depth = 1 if isinstance(event, CollectionStartEvent) else 0
    while depth:
        event = loader.get_event()
        if isinstance(event, CollectionStartEvent):
            depth += 1
        elif isinstance(event, CollectionEndEvent):
            depth -= 1
        if depth > yaml_source.MAX_DEPTH:
            raise yaml.YAMLError("nesting too deep")


def outline_course(root: Path) -> Outline:
    """The outline of the course folder ``root``: fast, bounded, never raises for bad content."""
    outline = Outline(root=root)
    walk = walk_targets([root])
    outline.problems.extend(walk.problems)
    for item in walk.files:
        try:
            text = yaml_source.read_text(item.path, root=item.root)
            if item.hint == "course":
                info = yaml_source.parse_text(item.path, text)
                outline.info = CourseInfo.model_validate(info.data)
                continue
            if item.hint != "lesson":
                continue
            found = _skim(item.path, text)
        except ContentError as exc:
            outline.problems.extend(exc.problems)
            continue
        except (yaml.YAMLError, ValueError) as exc:  # the full load reports it, located
            outline.problems.append(Problem.of(
                item.path, 1, 1, Message.of("problem.cannot_outline", reason=Message.verbatim(clean_line(exc)[:200]))
            ))
            continue
        lesson_id, level = found.get("id"), found.get("level")
        if not (isinstance(lesson_id, str) and _ID.match(lesson_id) and isinstance(level, str) and _ID.match(level)):
            outline.problems.append(Problem.of(item.path, 1, 1, Message.of("problem.no_id_level")))
            continue
        try:
            order = int(str(found.get("order", 0)))
        except ValueError:
            order = 0
        if lesson_id in outline.lessons:
            continue  # the full load reports the duplicate
        outline.lessons[lesson_id] = LessonOutline(
            lesson_id[:80], level[:80], max(0, min(order, 10_000)), found.get("title") or {}, item.path
        )
    return outline
