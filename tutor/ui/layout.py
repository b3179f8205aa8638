"""The one rule for narrow terminals: below :data:`NARROW_COLUMNS` the app sets ``-narrow`` on every screen (Textual's
horizontal breakpoints), and the styles in ``styles/app.tcss`` turn each screen's telemetry column into a strip docked
at the bottom. The telemetry key then expands the strip instead of hiding the column."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

NARROW_COLUMNS = 120
"""Below this width the telemetry column becomes a compact strip."""

BREAKPOINTS = [(0, "-narrow"), (NARROW_COLUMNS, "-wide")]


def is_narrow(screen: Screen[Any]) -> bool:
    """True when ``screen`` is laid out for a narrow terminal."""
    return screen.has_class("-narrow")


def toggle_telemetry(screen: Screen[Any]) -> None:
    """The telemetry key on any screen: on a wide terminal show or hide the column; on a narrow one expand the
    strip to most of the screen or fold it back to its summary line."""
    columns = screen.query("#telemetry-column")
    if not columns:
        return
    column = columns.first()
    if is_narrow(screen):
        column.display = True
        column.toggle_class("expanded")
    else:
        column.display = not column.display
