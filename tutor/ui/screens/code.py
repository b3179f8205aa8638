""""View code": the exact functions a workload or a lab times, read from the measurement engine's source."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Markdown, Static

from tutor.i18n import Lang, t
from tutor.measure.source import timed_code
from tutor.ui.screens.base import TutorModal


def open_code(screen: Any, op: str, name: str | None, lang: Lang) -> None:
    """Push the code screen for ``op``/``name`` over ``screen``, or say there is nothing single to show."""
    code = timed_code(op, name)
    if code is None:
        screen.notify(t("code.none", lang), severity="information")
        return
    screen.app.push_screen(CodeScreen(code.markdown()))


class CodeScreen(TutorModal[None]):
    """The timed code of one measurement, scrollable; Esc closes."""

    BINDINGS = [Binding("escape,q,f3", "close", t("key.close", "en"), show=False, id="close")]

    def __init__(self, markdown: str) -> None:
        super().__init__(id="code")
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="code-body"):
            yield Static(t("code.intro", self.lang), id="code-intro", markup=False)
            yield Markdown(self.markdown, id="code-text")

    def on_mount(self) -> None:
        self.query_one("#code-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)
