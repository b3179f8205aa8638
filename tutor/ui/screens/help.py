"""The help screen (``?`` or F1): every key of the screen below it and what each progress mark means, in the current
language. The class keys (the class report) are listed only when the store is a class's."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from tutor.i18n import Lang, t
from tutor.ui.keys import KEYMAP, label
from tutor.ui.marks import mark_rows
from tutor.ui.screens.base import TutorModal


def screen_keys(app: Any, screen: Screen[Any], lang: Lang, *, in_class: bool) -> list[tuple[str, str, bool]]:
    """(keys, what it does, app-wide?) for every binding active on ``screen``, keymap entries first; the class
    keys only ``in_class`` (a learner alone has no class to report on)."""
    rows: list[tuple[str, str, bool]] = []
    seen: set[str] = set()
    for node in (screen, app):
        for items in node._bindings.key_to_bindings.values():
            for b in items:
                # the keymap's own keys, and quit; Textual's focus and copy keys are not the course's
                if b.system or b.id in seen or (b.id not in KEYMAP and b.action != "quit"):
                    continue
                if b.id in CLASS_ONLY and not in_class:
                    continue
                seen.add(b.id or b.key)
                spec = KEYMAP.get(b.id or "")
                keys = spec.keys if spec is not None else b.key
                shown = " / ".join(app.get_key_display(Binding(k.strip(), "")) for k in keys.split(","))
                what = label(screen, b.id or "", lang) if spec is not None else t("key.quit", lang)
                rows.append((shown, what, node is app))
    rows.append((app.get_key_display(Binding("ctrl+p", "")), t("help.palette", lang), True))
    return rows


#: Keymap entries that only mean something in a class (a PostgreSQL store).
CLASS_ONLY = frozenset({"class_report"})


class HelpScreen(TutorModal[None]):
    """A table of the keys of the screen it covers, then the marks and what each means; Esc, ? or F1 closes it."""

    BINDINGS = [Binding("escape,question_mark,f1,q", "close", t("key.close", "en"), show=False, id="close")]

    def __init__(self, rows: list[tuple[str, str, bool]], title: str) -> None:
        super().__init__(id="help")
        self.rows = rows
        self.title_text = title

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=False, expand=True, pad_edge=False)
        table.add_column(style="bold", no_wrap=True)
        table.add_column(ratio=1)
        everywhere = t("help.everywhere", self.lang)
        for keys, what, app_wide in self.rows:
            table.add_row(keys, f"{what} {everywhere}" if app_wide else what)
        with VerticalScroll():
            yield Static(Text(f"{t('help.title', self.lang)} — {self.title_text}", style="bold"), id="help-title")
            yield Static(table, id="help-keys")
            marks = Table(box=None, show_header=False, expand=True, pad_edge=False)
            marks.add_column(style="bold", no_wrap=True)
            marks.add_column(ratio=1)
            for mark, what in mark_rows(self.lang):
                marks.add_row(mark, what)
            yield Static(Text(t("help.marks", self.lang), style="bold"), id="help-marks-title")
            yield Static(marks, id="help-marks")
            yield Static(f"[dim]{t('help.close', self.lang)}[/dim]", id="help-close")

    def action_close(self) -> None:
        self.dismiss(None)
