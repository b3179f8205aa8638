"""Reading a course file as data: ``yaml.safe_load`` semantics, plus what a lesson pack must never do.

On top of the safe loader: duplicate keys are errors, anchors/aliases are refused (no alias bombs), files must be
UTF-8 text of bounded size and depth. Every value keeps its YAML node so a validation error can point at the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node

from tutor.content.problems import ContentError, Problem

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 32


@dataclass(frozen=True)
class Source:
    """A parsed file: the plain data and the node tree it came from."""

    path: Path
    data: Any
    root: Node


class _CourseLoader(yaml.SafeLoader):
    """SafeLoader that refuses aliases and limits nesting while composing."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, "anchors and aliases (*name) are not allowed in course files", event.start_mark
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                event = self.peek_event()
                raise yaml.composer.ComposerError(
                    None, None, f"nesting deeper than {MAX_DEPTH} levels", event.start_mark
                )
            return super().compose_node(parent, index)  # type: ignore[no-any-return]
        finally:
            self._depth -= 1

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, Node] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a plain value", key_node.start_mark
                ) from None
            if key in seen:
                first = seen[key].start_mark
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"duplicate key {key!r} (first defined at line {first.line + 1})",
                    key_node.start_mark,
                )
            seen[key] = key_node
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]


def _problem_from_yaml_error(path: Path, exc: yaml.YAMLError) -> Problem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    message = problem if not context or context in problem else f"{problem} ({context})"
    context_mark = getattr(exc, "context_mark", None)
    if context and context_mark is not None and mark is not None and context_mark.line != mark.line:
        message = f"{problem} ({context} that started at line {context_mark.line + 1})"
    if "could not determine a constructor for the tag" in message:
        tag = message.split("tag", 1)[1].strip()
        message = f"tag {tag} is not allowed: course files are data, not code"
    line = mark.line + 1 if mark is not None else 1
    col = mark.column + 1 if mark is not None else 1
    return Problem(path, line, col, f"YAML: {message}")


def load(path: Path) -> Source:
    """Parse one course file, or raise :class:`ContentError` with located problems."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ContentError([Problem(path, 1, 1, f"cannot read file: {exc.strerror or exc}")]) from None
    if len(raw) > MAX_FILE_BYTES:
        raise ContentError([Problem(path, 1, 1, f"file is larger than {MAX_FILE_BYTES // 1000} kB")])
    if b"\x00" in raw:
        raise ContentError([Problem(path, 1, 1, "binary file (contains NUL bytes), expected YAML text")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ContentError([Problem(path, line, col, "not UTF-8 text (binary file?)")]) from None
    if not text.strip():
        raise ContentError([Problem(path, 1, 1, "empty file")])
    loader = _CourseLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            raise ContentError([Problem(path, 1, 1, "empty file (only comments)")])
        data = loader.construct_document(root)
    except yaml.YAMLError as exc:
        raise ContentError([_problem_from_yaml_error(path, exc)]) from None
    except RecursionError:
        raise ContentError([Problem(path, 1, 1, "YAML nesting is too deep")]) from None
    finally:
        loader.dispose()
    return Source(path=path, data=data, root=root)
