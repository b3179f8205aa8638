"""Markdown for the terminal: lesson and explanation text printed by the CLI as Rich renders it (bold, lists,
code), plain when stdout is not a terminal (no escape codes in a pipe or a file)."""

from __future__ import annotations

import io
import shutil
import sys


def render_markdown(text: str, *, width: int | None = None, color: bool | None = None, indent: int = 0) -> str:
    """``text`` (Markdown) as the terminal shows it: ``**bold**`` bold, lists bulleted, code kept; colours only
    when ``color`` (default: stdout is a terminal). Lines are wrapped to ``width`` (default: the terminal's)
    less ``indent``, and indented by it."""
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.padding import Padding

    tty = sys.stdout.isatty() if color is None else color
    columns = width or min(100, shutil.get_terminal_size((100, 24)).columns)
    buffer = io.StringIO()
    console = Console(file=buffer, width=columns, force_terminal=tty, color_system="standard" if tty else None,
                      no_color=not tty, highlight=False, emoji=False, markup=False, soft_wrap=False)
    console.print(Padding(Markdown(text, hyperlinks=False), (0, 0, 0, indent)))
    return buffer.getvalue().rstrip("\n")
