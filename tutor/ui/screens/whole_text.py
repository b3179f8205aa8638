"""A text shown whole: a formula, a table or a title that the screen below shows cut (ending in …).

The text wraps at the view's width, so every character of it is on screen at once (scrolling down where it is long);
Esc, ``z``, Enter or ``q`` closes it.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from tutor.i18n import N_, Lang, t
from tutor.ui.screens.base import TutorModal

__all__ = ["WholeText"]

#: What the view's title says it shows, by the kind of text.
_TITLES = {"code": N_("whole.code"), "table": N_("whole.table"), "title": N_("whole.title")}


class WholeText(TutorModal[None]):
    """One text, whole, in a bordered view over the screen it came from."""

    BINDINGS = [Binding("escape,z,enter,q", "close", t("key.close", "en"), show=False, id="close")]

    def __init__(self, text: Content, kind: str) -> None:
        super().__init__(id="whole-text")
        self.text = text
        self.kind = kind if kind in _TITLES else "title"

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="whole-scroll"):
            yield Static(self.text, id="whole-body")
            yield Static(id="whole-close")

    def on_mount(self) -> None:
        self.lang_changed(self.lang)
        self.query_one("#whole-scroll").focus()

    def lang_changed(self, lang: Lang) -> None:
        self.query_one("#whole-scroll").border_title = t(_TITLES[self.kind], lang)
        self.query_one("#whole-close", Static).update(Content(t("whole.close", lang)))

    def action_close(self) -> None:
        self.dismiss(None)
