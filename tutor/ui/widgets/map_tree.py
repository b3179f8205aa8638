"""The course map's tree: a label longer than the room it has is cut with an ellipsis (…), never silently.

Textual's :class:`~textual.widgets.Tree` lets a long label run past the edge and scroll sideways, so at 80×24 a
lesson title ended mid-word ("L1 — La GPU como máquina fís") with nothing saying more was there. The whole title
is in the detail pane beside the tree and in the lesson's own header.
"""

from __future__ import annotations

from typing import TypeVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

T = TypeVar("T")


def label_room(width: int, depth: int, guide_depth: int, show_root: bool) -> int:
    """The cells a label has on a tree ``width`` wide at ``depth`` (the root is 0), after the guides."""
    guides = max(0, depth - (0 if show_root else 1)) * guide_depth
    return width - guides


class MapTree(Tree[T]):
    """A :class:`Tree` whose labels end in … when they do not fit its width."""

    def _room(self, node: TreeNode[T]) -> int:
        depth, parent = 0, node.parent
        while parent is not None:
            depth, parent = depth + 1, parent.parent
        return label_room(self.scrollable_content_region.width, depth, self.guide_depth, self.show_root)

    def render_label(self, node: TreeNode[T], base_style: Style, style: Style) -> Text:
        text = super().render_label(node, base_style, style)
        room = self._room(node)
        if room >= 4 and text.cell_len > room:
            text.truncate(room, overflow="ellipsis")
        return text

    def label_is_cut(self, node: TreeNode[T]) -> bool:
        """Whether ``node``'s label is shown cut (ending in …) at the tree's width now (``z`` shows it whole)."""
        room = self._room(node)
        return room >= 4 and super().render_label(node, Style(), Style()).cell_len > room

    def on_resize(self, _event: events.Resize) -> None:
        self._invalidate()  # the labels' room changed: cut them again
