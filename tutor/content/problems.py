"""A problem found in a course file, located at ``path:line:col``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tutor.untrusted import clean_line

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one file. Lines and columns are 1-based, as editors count them."""

    path: Path
    line: int
    col: int
    message: str
    severity: Severity = "error"

    def format(self) -> str:
        """``path:line:col: severity: message`` on one line, with no control character (a path or a message may
        quote the file's own text)."""
        return f"{clean_line(str(self.path))}:{self.line}:{self.col}: {self.severity}: {clean_line(self.message)}"


class ContentError(Exception):
    """A file could not be loaded; carries every problem found in it."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(p.format() for p in problems))
        self.problems = problems
