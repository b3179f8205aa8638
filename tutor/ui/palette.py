"""The command palette in the learner's language: its lessons ("Abrir: <title>" / "Open: <title>"), its search
field and its "no matches" line from the catalog.

Textual's system commands parse their names as markup; a lesson title comes from a pack, so the lessons are offered
by :class:`LessonCommands` instead, which builds each entry as :class:`~textual.content.Content` (literal text,
control characters removed) and highlights the matched letters itself. :class:`TutorPalette` is Textual's palette
with its two English words (the placeholder, "No matches found") taken from the catalog.
"""

from __future__ import annotations

from functools import partial

from rich.align import Align
from rich.text import Text
from textual.command import CommandInput, CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.widgets.option_list import Option

from tutor.i18n import Lang, t
from tutor.ui.messages import OpenLesson
from tutor.ui.screens.base import TutorScreen
from tutor.untrusted import clean_line


class TutorPalette(CommandPalette, TutorScreen[None]):
    """The command palette, its own words in the app's language (a tutor screen: it follows the toggle)."""

    def __init__(self, lang: Lang) -> None:
        super().__init__(placeholder=t("palette.placeholder", lang), id="--command-palette")

    def lang_changed(self, lang: Lang) -> None:
        self.query_one(CommandInput).placeholder = t("palette.placeholder", lang)

    def _start_no_matches_countdown(self, search_value: str) -> None:
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(
                    Option(Align.center(Text(t("palette.no_matches", self.lang), style="not bold")),
                           disabled=True, id=self._NO_MATCHES)
                )
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)


class LessonCommands(Provider):
    """Open any lesson of the course from the palette."""

    def _lessons(self) -> list[tuple[str, str, str]]:
        from tutor.ui.app import TutorApp

        app = self.app
        if not isinstance(app, TutorApp):
            return []
        lang = app.lang
        return [(lesson.id, clean_line(t("palette.open_lesson", lang, title=lesson.title.get(lang))),
                 _literal(t("palette.lesson_help", lang, id=lesson.id)))
                for lesson in app.course.ordered_lessons()]

    def _open(self, lesson_id: str) -> None:
        self.app.post_message(OpenLesson(lesson_id))

    async def discover(self) -> Hits:
        for lesson_id, name, help_text in self._lessons()[:50]:
            yield DiscoveryHit(Content(name), partial(self._open, lesson_id), text=name, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for lesson_id, name, help_text in self._lessons():
            score, offsets = matcher.fuzzy_search.match(matcher.query, name)
            if score <= 0:
                continue
            shown = Content(name)
            for offset in offsets:
                if not name[offset].isspace():
                    shown = shown.stylize(matcher.match_style, offset, offset + 1)
            yield Hit(score, shown, partial(self._open, lesson_id), text=name, help=help_text)


def _literal(text: str) -> str:
    """``text`` for a palette help line, which Textual reads as markup: brackets escaped, control characters gone."""
    from textual.markup import escape

    return escape(clean_line(text))
