"""Text that does not fit is cut with a sign, and can be shown whole.

Textual lets a code block (a lesson's formula) run past the right edge and scroll sideways with no scroll bar, so
at 80×24 a formula such as ``21 760 cores × 2 FLOP/ciclo (una FMA) × 2,41 GHz = 104,8 TFLOP/s`` ended at "× 2,"
with nothing saying more was there. Here:

- :class:`CutFence` (the code blocks of :class:`~tutor.ui.plain.PackMarkdown`) ends every line that does not fit
  with ``…`` and can be focused; ``z`` or Enter on it posts :class:`ShowWhole` with the whole code.
- :class:`CutTable` (its tables) keeps Textual's cells, which end a word that does not fit with ``…``, and can be
  focused; ``z`` or Enter shows the table whole, one row at a time, each cell under its header.
- :func:`cut_blocks` finds the cut blocks of a Markdown view, for a screen's own ``z``.

The screen that hears :class:`ShowWhole` opens :class:`~tutor.ui.screens.whole_text.WholeText`.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.css.query import NoMatches
from textual.events import Resize
from textual.geometry import Region
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Label, Markdown, Static
from textual.widgets._markdown import MarkdownFence, MarkdownTable

from tutor.i18n import Lang, t

__all__ = ["ELLIPSIS", "CutFence", "CutTable", "ShowWhole", "cut_blocks", "cut_header", "cut_lines", "table_text"]

ELLIPSIS = "…"

#: ``z`` or Enter on a focused cut block shows it whole (the screens list ``z`` in their footer and help).
_SHOW_WHOLE: list[BindingType] = [Binding("z,enter", "show_whole", t("key.expand", "en"), id="expand")]


@dataclass
class ShowWhole(Message):
    """Show ``text`` whole (``kind``: ``code``, ``table`` or ``title``), in a view of its own."""

    text: Content
    kind: str


def cut_lines(code: Content, room: int) -> tuple[Content, bool]:
    """``code`` with every line wider than ``room`` cells cut to end in …; whether any was cut."""
    if room < 2:
        return code, False
    out: list[Content] = []
    cut = False
    for line in code.split("\n", allow_blank=True):
        if line.cell_length > room:
            cut = True
            line = line.truncate(room - 1) + Content(ELLIPSIS)
        out.append(line)
    return Content("\n").join(out), cut


class CutFence(MarkdownFence):
    """A code block whose lines that do not fit end in … (never scrolled out of sight); focusable, ``z`` or Enter
    shows it whole."""

    DEFAULT_CSS = """
    CutFence {
        overflow: hidden hidden;
    }
    CutFence:focus {
        background: $accent 20%;
    }
    CutFence > Label {
        width: 100%;
    }
    """
    BINDINGS = list(_SHOW_WHOLE)
    can_focus = True

    is_cut: bool = False
    """Whether a line of the code is cut at the width the block has now."""

    def set_content(self, content: Content) -> None:
        self._content = content
        self._fit()

    def on_resize(self, _event: Resize) -> None:
        self._fit()

    def on_mount(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        try:
            label = self.query_one("#code-content", Label)
        except NoMatches:
            return
        room = label.content_region.width or (self.content_region.width - label.styles.gutter.width)
        if room <= 0:
            return  # not laid out yet: on_resize fits it
        shown, self.is_cut = cut_lines(self._highlighted_code, room)
        label.update(shown)
        self.set_class(self.is_cut, "-cut")

    def action_show_whole(self) -> None:
        self.post_message(ShowWhole(Content(self.code.rstrip("\n")), "code"))


def table_text(headers: list[Content], rows: list[list[Content]]) -> Content:
    """A table whole, one row after another: each cell's full text under its header."""
    parts: list[Content] = []
    for row in rows:
        for i, cell in enumerate(row):
            header = headers[i] if i < len(headers) else Content("")
            parts.append(Content.assemble((header.plain, "bold"), ": ", cell))
        parts.append(Content(""))
    return Content("\n").join(parts[:-1] if parts else parts)


class CutTable(MarkdownTable):
    """A table whose cells end a word that does not fit in … (Textual's cells); focusable, ``z`` or Enter shows it
    whole."""

    DEFAULT_CSS = """
    CutTable:focus {
        background: $accent 20%;
    }
    """
    BINDINGS = list(_SHOW_WHOLE)
    can_focus = True

    @property
    def is_cut(self) -> bool:
        """Whether a cell holds a word wider than its column (Textual shows it cut, ending in …)."""
        for cell in self.query(".cell, .header").results(Static):
            room = cell.content_region.width
            content = cell.content
            words = content.plain.split() if isinstance(content, Content) else str(content).split()
            if room > 0 and any(Content(word).cell_length > room for word in words):
                return True
        return False

    def action_show_whole(self) -> None:
        headers, rows = self._get_headers_and_rows()
        self.post_message(ShowWhole(table_text(headers, rows), "table"))


def cut_header(screen: Widget) -> Content | None:
    """The screen's header title whole when the header shows it cut (Textual ends it in …), else None."""
    from textual.widgets._header import HeaderTitle

    for title in screen.query(HeaderTitle):
        content = title.content
        text = content if isinstance(content, Content) else Content(str(content))
        room = title.content_region.width
        if room > 0 and text.cell_length > room:
            return text
    return None


def show_cut_header(screen: Widget, lang: Lang) -> None:
    """The last step of ``z`` on a screen: its header title whole when the header cut it, else a short notice that
    nothing on screen is cut."""
    title = cut_header(screen)
    if title is not None:
        screen.post_message(ShowWhole(title, "title"))
    else:
        screen.notify(t("whole.nothing_cut", lang), timeout=3, markup=False)


def cut_blocks(markdown: Markdown, visible: Region | None = None) -> list[CutFence | CutTable]:
    """The blocks of ``markdown`` shown cut now (code and tables), in order; only those on screen in ``visible``
    (a region of the screen) when it is given."""
    found: list[CutFence | CutTable] = []
    for block in markdown.query("CutFence, CutTable"):
        if not isinstance(block, CutFence | CutTable) or not block.is_cut:
            continue
        if visible is not None and not block.region.overlaps(visible):
            continue
        found.append(block)
    return found
