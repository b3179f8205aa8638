"""The command palette's lessons: "Open: <title>" for every lesson, titles shown as plain text.

Textual's system commands parse their names as markup; a lesson title comes from a pack, so the lessons are offered
by this provider instead, which builds each entry as :class:`~textual.content.Content` (literal text, control
characters removed) and highlights the matched letters itself.
"""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from tutor.ui.messages import OpenLesson
from tutor.untrusted import clean_line


class LessonCommands(Provider):
    """Open any lesson of the course from the palette."""

    def _lessons(self) -> list[tuple[str, str]]:
        from tutor.ui.app import TutorApp

        app = self.app
        if not isinstance(app, TutorApp):
            return []
        return [(lesson.id, clean_line(f"Open: {lesson.title.get(app.lang)}"))
                for lesson in app.course.ordered_lessons()]

    def _open(self, lesson_id: str) -> None:
        self.app.post_message(OpenLesson(lesson_id))

    async def discover(self) -> Hits:
        for lesson_id, name in self._lessons()[:50]:
            yield DiscoveryHit(Content(name), partial(self._open, lesson_id), text=name,
                               help=_literal(f"Lesson {lesson_id}"))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for lesson_id, name in self._lessons():
            score, offsets = matcher.fuzzy_search.match(matcher.query, name)
            if score <= 0:
                continue
            shown = Content(name)
            for offset in offsets:
                if not name[offset].isspace():
                    shown = shown.stylize(matcher.match_style, offset, offset + 1)
            yield Hit(score, shown, partial(self._open, lesson_id), text=name, help=_literal(f"Lesson {lesson_id}"))


def _literal(text: str) -> str:
    """``text`` for a palette help line, which Textual reads as markup: brackets escaped, control characters gone."""
    from textual.markup import escape

    return escape(clean_line(text))
