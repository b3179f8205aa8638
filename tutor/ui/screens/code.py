""""View code": the exact functions a workload or a lab times, read from the measurement engine's source."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from tutor.i18n import Lang, t
from tutor.measure.source import timed_code


def open_code(screen: Any, op: str, name: str | None, lang: Lang) -> None:
    """Push the code screen for ``op``/``name`` over ``screen``, or say there is nothing single to show."""
    code = timed_code(op, name)
    if code is None:
        screen.notify(t("code.none", lang), severity="information")
        return
    screen.app.push_screen(CodeScreen(code.markdown(), lang))


class CodeScreen(ModalScreen[None]):
    """The timed code of one measurement, scrollable; Esc closes."""

    BINDINGS = [Binding("escape,q,f3", "close", "Close", show=False)]
    DEFAULT_CSS = """
    CodeScreen { align: center middle; }
    CodeScreen > VerticalScroll { width: 100; max-width: 100%; height: 90%; border: thick $accent;
                                  background: $surface; padding: 0 1; }
    """

    def __init__(self, markdown: str, lang: Lang) -> None:
        super().__init__(id="code")
        self.markdown = markdown
        self.lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="code-body"):
            yield Static(t("code.intro", self.lang), id="code-intro", markup=False)
            yield Markdown(self.markdown, id="code-text")

    def on_mount(self) -> None:
        self.query_one("#code-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)
