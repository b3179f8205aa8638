"""A problem found in a course file, located at ``path:line:col``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tutor.i18n.message import Message
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
    said: Message | None = field(default=None, compare=False)
    """The complaint as a catalog message, for a screen or a ``--lang es`` command; ``message`` is its English."""

    @classmethod
    def of(cls, path: Path, line: int, col: int, said: Message, severity: Severity = "error") -> Problem:
        """A problem worded by the catalog (``message`` is its English rendering)."""
        return cls(path, line, col, said.render("en"), severity, said)

    def text(self, lang: str = "en") -> str:
        """The complaint alone, in ``lang`` (as the file had it when it has no catalog wording)."""
        return clean_line(self.said.render(lang) if self.said is not None else self.message)

    def format(self, lang: str = "en") -> str:
        """``path:line:col: severity: message`` on one line, with no control character (a path or a message may
        quote the file's own text), in ``lang``."""
        severity = Message.of(f"problem.severity.{self.severity}").render(lang)
        return f"{clean_line(str(self.path))}:{self.line}:{self.col}: {severity}: {self.text(lang)}"


class ContentError(Exception):
    """A file could not be loaded; carries every problem found in it."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(p.format() for p in problems))
        self.problems = problems
