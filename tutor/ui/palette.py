"""The command palette in the learner's language: its lessons ("Abrir: <title>" / "Open: <title>"), its search
field and its "no matches" line from the catalog.

Textual's system commands parse their names as markup; a lesson title comes from a pack, so the lessons are offered
by :class:`LessonCommands` instead, which builds each entry as :class:`~textual.content.Content` (literal text,
control characters removed) and highlights the matched letters itself. :class:`TutorPalette` is Textual's palette
with its two English words (the placeholder, "No matches found") taken from the catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rich.align import Align
from rich.text import Text
from textual.command import CommandInput, CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.widgets.option_list import Option

from tutor.i18n import Lang, t
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


@dataclass(frozen=True)
class Command:
    """One entry of the palette: its name (plain text, shown literally), its help line and what it does."""

    name: str
    help: str
    run: Callable[[], None]
    listed: bool = True
    """Shown in the list the palette opens with; ``False`` for the many entries found only by a search (exercises),
    so the opening list keeps the screen's and the app's own commands in sight."""


class CommandRegistry:
    """The palette's entries beside the screen's keys: sources the app registers, asked each time the palette
    opens (so an entry follows the language and a course that grew)."""

    def __init__(self) -> None:
        self._sources: list[Callable[[], Iterable[Command]]] = []

    def register(self, source: Callable[[], Iterable[Command]]) -> None:
        self._sources.append(source)

    def commands(self) -> list[Command]:
        return [command for source in self._sources for command in source()]


@runtime_checkable
class CommandHost(Protocol):
    """An app that offers palette entries (the tutor's app fills its registry)."""

    palette_commands: CommandRegistry


class LessonCommands(Provider):
    """The registry's entries (every lesson of the course) in the palette, each name as literal text."""

    def _commands(self) -> list[tuple[Command, str]]:
        app = self.app
        if not isinstance(app, CommandHost):
            return []
        return [(command, _literal(command.help)) for command in app.palette_commands.commands()]

    async def discover(self) -> Hits:
        for command, help_text in [entry for entry in self._commands() if entry[0].listed][:50]:
            yield DiscoveryHit(Content(command.name), command.run, text=command.name, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command, help_text in self._commands():
            name = command.name
            score, offsets = matcher.fuzzy_search.match(matcher.query, name)
            if score <= 0:  # found by its help line (an exercise's id), the name shown as it is
                score, offsets = matcher.fuzzy_search.match(matcher.query, command.help)
                offsets = ()
            if score <= 0:
                continue
            shown = Content(name)
            for offset in offsets:
                if not name[offset].isspace():
                    shown = shown.stylize(matcher.match_style, offset, offset + 1)
            yield Hit(score, shown, command.run, text=name, help=help_text)


def _literal(text: str) -> str:
    """``text`` for a palette help line, which Textual reads as markup: brackets escaped, control characters gone."""
    from textual.markup import escape

    return escape(clean_line(text))
