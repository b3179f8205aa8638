"""Pack text on screen: always plain text, never Textual markup, never a terminal control sequence.

Every string a lesson pack, an import, a lock or a trace supplies reaches a widget through one of these helpers.
They first remove control characters (:func:`tutor.untrusted.clean`), so no ESC/OSC/CSI/C1 byte reaches the
terminal, then build :class:`~textual.content.Content` (or a Rich :class:`~rich.text.Text` where a widget wants one)
without parsing markup, so ``[@click=app.screenshot(…)]Pick[/]`` is shown as those characters and no click on it
runs an action.

Styled lines are written as a trusted template whose ``$name`` variables are filled with untrusted values:
``styled("[b]$label:[/b] $value", label=t("ex.target", lang), value=exercise.target.get(lang))``. A value is inserted
as text; its square brackets and dollar signs stay literal.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.content import Content
from textual.widgets import Markdown

from tutor.ui.widgets.cut_text import CutFence, CutTable
from tutor.untrusted import clean, clean_line

__all__ = ["PackMarkdown", "lines", "plain", "plain_line", "plain_text", "styled"]


def plain(text: object) -> Content:
    """``text`` as literal content, control characters removed (newlines kept)."""
    return Content(clean(text))


def plain_line(text: object) -> Content:
    """``text`` as one literal line (newlines and tabs become spaces), control characters removed."""
    return Content(clean_line(text))


def plain_text(text: object) -> Text:
    """A Rich :class:`Text` for widgets that take one (tree labels): literal, one line, no control characters."""
    return Text(clean_line(text))


def styled(template: str, **values: object) -> Content:
    """A trusted markup ``template`` with each ``$name`` filled by the cleaned, literal text of ``values[name]``."""
    return Content.from_markup(template, **{name: clean(value) for name, value in values.items()})


def lines(parts: list[Content]) -> Content:
    """Contents joined one per line."""
    return Content("\n").join(parts)


def _link_text(href: str) -> str:
    return clean_line(href)[:200]


class PackMarkdown(Markdown):
    """Markdown written by a lesson pack: control characters removed, and links never followed.

    Textual's Markdown already treats the document as text (no markup), but a link would be opened by the app on
    click; here a click only tells the learner where the link points, as plain text.
    """

    # A code block or table that does not fit shows it (…) and can be shown whole (tutor.ui.widgets.cut_text).
    BLOCKS = {**Markdown.BLOCKS, "fence": CutFence, "code_block": CutFence, "table_open": CutTable}

    def __init__(self, markdown: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("open_links", False)
        super().__init__(clean(markdown) if markdown is not None else None, **kwargs)

    def update(self, markdown: str) -> Any:
        """Show ``markdown`` after removing its control characters."""
        return super().update(clean(markdown))

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        event.prevent_default()
        self.notify(f"→ {_link_text(event.href)}", markup=False, timeout=6)
