"""Reading a course file as data: ``yaml.safe_load`` semantics, plus what a lesson pack must never do.

On top of the safe loader: the file is read through :mod:`tutor.untrusted` (a regular file only, at most
:data:`MAX_FILE_BYTES`, never through a link out of the course folder); duplicate keys are errors; anchors/aliases
are refused (no alias bombs), and so are merge keys; nesting and the number of values are bounded; every text must
be plain (a control character, raw or escaped, is a located error); every number must be finite (``.inf``,
``.nan``, ``1.0e+400``) and integers fit in 64 bits.
Every value keeps its YAML node so a validation error can point at the line.

libyaml (``CSafeLoader``) scans and parses when PyYAML was built with it; the nodes are composed here, in Python,
so the alias, depth and text checks hold with either parser, and the plain data is built in the same pass.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tutor.content.problems import ContentError, Problem
from tutor.i18n.message import Message
from tutor.untrusted import UnsafeFile, clean_line, describe_control, first_unsafe, read_bounded

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 32
MAX_NODES = 100_000
"""Values (keys included) in one file: a bundled lesson of 30 kB holds about 2,000."""
MAX_INT = 2**63 - 1
MAX_PROBLEMS_PER_FILE = 20

try:  # libyaml: a 5,000-lesson check takes a fifth of the CPU time of the pure-Python scanner
    _Base: Any = yaml.CSafeLoader
    FAST_PARSER = True
except AttributeError:  # pragma: no cover - PyYAML without libyaml
    _Base = yaml.SafeLoader
    FAST_PARSER = False

# What untrusted.clean removes (by Unicode property: categories Cc, Cf, Zl, Zp, Co, Cs and Bidi_Control), TAB and
# LF aside, is an error in a course file; a CR is allowed where it ends a line (CRLF files).


def _unsafe_at(text: str, start: int = 0) -> int | None:
    found = first_unsafe(text[start:] if start else text, allow_crlf=True)
    return None if found is None else found + start


_CONTROL_NAMES = {
    0x00: "NUL", 0x07: "BEL", 0x08: "BS", 0x0B: "VT", 0x0C: "FF", 0x0D: "CR", 0x1B: "ESC", 0x7F: "DEL", 0x85: "NEL",
    0x9B: "CSI", 0x9D: "OSC", 0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2028: "LINE SEPARATOR", 0xFEFF: "BOM",
}

_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_NULL_TAG = "tag:yaml.org,2002:null"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MAP_TAG = "tag:yaml.org,2002:map"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_YAML_TAG_PREFIX = "tag:yaml.org,2002:"


def _tag_refused(tag: str) -> Message:
    """A tag outside text, numbers, true/false, null, lists and mappings (``!!binary``, ``!!set``, ``!local``)."""
    short = "!!" + tag[len(_YAML_TAG_PREFIX):] if tag.startswith(_YAML_TAG_PREFIX) else tag
    return Message.of("problem.yaml_tag_not_data", tag=clean_line(short, 60))


def has_control(text: str) -> bool:
    """Whether ``text`` holds a character that :func:`tutor.untrusted.clean` would remove (CRLF aside)."""
    return _unsafe_at(text) is not None


def control_name(char: str) -> str:
    """``U+001B (ESC)``: a control character, named for an error message."""
    name = _CONTROL_NAMES.get(ord(char))
    return f"{describe_control(char)} ({name})" if name else describe_control(char)


@dataclass(frozen=True)
class Source:
    """A parsed file: the plain data and the node tree it came from."""

    path: Path
    data: Any
    root: Node


def _resolve_plain(value: str) -> str:
    """The tag YAML 1.1 gives a plain (unquoted) scalar: what ``Resolver.resolve`` does, without its overhead."""
    for tag, regexp in _IMPLICIT.get(value[:1], ()):
        if regexp.match(value):
            return tag  # type: ignore[no-any-return]
    return _STR_TAG


_IMPLICIT: dict[str, Any] = yaml.resolver.Resolver.yaml_implicit_resolvers


MAX_KEY_SHOWN = 60


def field_path(loc: list[str | int]) -> str:
    """``sections[0].title``: where a value is, for a message. A key is the pack's own text: one that is not a
    short name is cut, so that a message stays one readable line."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        name = str(part)
        if len(name) > MAX_KEY_SHOWN:
            name = name[:MAX_KEY_SHOWN] + "…"
        out += f".{name}" if out else name
    return out or "(document)"


_where = field_path


class _CourseLoader(_Base):  # type: ignore[misc]
    """The safe loader with its own composer: aliases refused, depth bounded, scalars checked as they are read."""

    def __init__(self, stream: str, path: Path) -> None:
        super().__init__(stream)
        self._path = path
        self._depth = 0
        self._nodes = 0
        self._loc: list[str | int] = []
        self.problems: list[Problem] = []
        self.data: Any = None
        """The plain data, built while composing (unless ``exotic``)."""
        self.exotic = False
        """A node has a tag other than str/int/float/bool/null/seq/map: ``data`` must be built by :meth:`construct`."""

    # -- composing (replaces both yaml.composer.Composer and CParser's C composer) -----------------------------

    def get_single_node(self) -> Node | None:
        self.get_event()  # stream start
        node = None
        if not self.check_event(StreamEndEvent):
            self.get_event()  # document start
            node, self.data = self._compose()
            self.get_event()  # document end
        if not self.check_event(StreamEndEvent):
            event = self.get_event()
            raise yaml.composer.ComposerError(
                None, None, "expected a single document, but found another document", event.start_mark
            )
        self.get_event()
        return node

    def _problem(self, mark: Any, said: Message) -> None:
        if len(self.problems) < MAX_PROBLEMS_PER_FILE:
            if self._loc:
                said = Message.of("problem.at", where=_where(self._loc), what=said)
            self.problems.append(Problem.of(self._path, mark.line + 1, mark.column + 1, said))

    def _compose(self, is_key: bool = False) -> tuple[Node, Any]:
        """The next node and its plain data, built together (one pass; the common tags only, see ``exotic``)."""
        event = self.peek_event()
        cls = event.__class__
        if cls is AliasEvent:  # an anchor alone is harmless: every alias to it is refused
            raise _Refused(Message.of("problem.yaml_alias"), event.start_mark)
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise _Refused(Message.of("problem.yaml_too_many_values", limit=MAX_NODES), event.start_mark)
        if cls is ScalarEvent:
            self.get_event()
            return self._scalar(event, is_key)
        if self._depth >= MAX_DEPTH:
            raise _Refused(Message.of("problem.yaml_nested_over", limit=MAX_DEPTH), event.start_mark)
        self._depth += 1
        try:
            if cls is SequenceStartEvent:
                return self._sequence()
            return self._mapping()
        finally:
            self._depth -= 1

    def _scalar(self, event: Any, is_key: bool) -> tuple[Node, Any]:
        value: str = event.value
        tag = event.tag
        if tag is None or tag == "!":
            tag = _resolve_plain(value) if event.implicit[0] else _STR_TAG
        node = ScalarNode(tag, value, event.start_mark, event.end_mark, style=event.style)
        bad = _unsafe_at(value)
        if bad is not None:
            self._problem(
                event.start_mark,
                Message.of("problem.control_in_key" if is_key else "problem.control_in_text",
                           name=control_name(value[bad])),
            )
            return node, value
        if tag == _STR_TAG:
            return node, value
        if tag == _INT_TAG:
            too_long = sum(c.isdigit() for c in value) > 19  # (int() of 5,000 digits raises)
            number = MAX_INT + 1 if too_long else self.construct_yaml_int(node)
            if abs(number) > MAX_INT:
                self._problem(event.start_mark, Message.of(
                    "problem.int_range", value=f"{value[:40]}{'…' if len(value) > 40 else ''}"))
            return node, number
        if tag == _FLOAT_TAG:
            real = self.construct_yaml_float(node)
            if not math.isfinite(real):
                self._problem(event.start_mark, Message.of("problem.not_finite", value=value[:40]))
            return node, real
        if tag == _NULL_TAG:
            return node, None
        if tag == _BOOL_TAG:
            return node, self.bool_values[value.lower()]
        if tag == _TIMESTAMP_TAG and event.implicit[0]:  # an unquoted date is the text it reads as
            return ScalarNode(_STR_TAG, value, event.start_mark, event.end_mark, style=event.style), value
        # !!binary (bytes, which would carry ESC past the text check), !!timestamp, a local tag: not course data
        self._problem(event.start_mark, _tag_refused(tag))
        return node, None

    def _sequence(self) -> tuple[Node, Any]:
        start = self.get_event()
        tag = start.tag
        if tag is None or tag == "!":
            tag = _SEQ_TAG
        elif tag != _SEQ_TAG:
            self._problem(start.start_mark, _tag_refused(tag))
        items: list[Node] = []
        data: list[Any] = []
        node = SequenceNode(tag, items, start.start_mark, None, flow_style=start.flow_style)
        loc = self._loc
        loc.append(0)
        index = 0
        while not self.check_event(SequenceEndEvent):
            loc[-1] = index
            item, value = self._compose()
            items.append(item)
            data.append(value)
            index += 1
        loc.pop()
        node.end_mark = self.get_event().end_mark
        return node, data

    def _mapping(self) -> tuple[Node, Any]:
        start = self.get_event()
        tag = start.tag
        if tag is None or tag == "!":
            tag = _MAP_TAG
        elif tag != _MAP_TAG:
            self._problem(start.start_mark, _tag_refused(tag))
        pairs: list[tuple[Node, Node]] = []
        data: dict[Any, Any] = {}
        first: dict[Any, Node] = {}
        node = MappingNode(tag, pairs, start.start_mark, None, flow_style=start.flow_style)
        loc = self._loc
        while not self.check_event(MappingEndEvent):
            key_node, key = self._compose(is_key=True)
            if key_node.tag == _MERGE_TAG:
                raise yaml.constructor.ConstructorError(
                    None, None, "merge keys (<<) are not allowed in course files", key_node.start_mark
                )
            try:
                seen = first.get(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a plain value", key_node.start_mark
                ) from None
            if seen is not None and not self.exotic:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"duplicate key {key!r} (first defined at line {seen.start_mark.line + 1})",
                    key_node.start_mark,
                )
            first[key] = key_node
            loc.append(key_node.value if isinstance(key_node, ScalarNode) else "?")
            value_node, value = self._compose()
            loc.pop()
            pairs.append((key_node, value_node))
            data[key] = value
        node.end_mark = self.get_event().end_mark
        return node, data

    # -- constructing --------------------------------------------------------------------------------------------

    def construct(self, node: Node) -> Any:
        """The plain data of ``node``: the common tags built directly, any other through the safe constructor."""
        tag = node.tag
        if isinstance(node, ScalarNode):
            if tag == _STR_TAG:
                return node.value
            if tag == _INT_TAG:
                return self.construct_yaml_int(node)
            if tag == _FLOAT_TAG:
                return self.construct_yaml_float(node)
            if tag == _BOOL_TAG:
                return self.bool_values[node.value.lower()]
            if tag == _NULL_TAG:
                return None
        elif isinstance(node, SequenceNode) and tag == _SEQ_TAG:
            return [self.construct(item) for item in node.value]
        elif isinstance(node, MappingNode) and tag == _MAP_TAG:
            out: dict[Any, Any] = {}
            seen: dict[Any, Node] = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    raise yaml.constructor.ConstructorError(
                        None, None, "merge keys (<<) are not allowed in course files", key_node.start_mark
                    )
                key = self.construct(key_node)
                _remember_key(seen, key, key_node)
                out[key] = self.construct(value_node)
            return out
        # another tag (a timestamp, !!binary, !!set, or one that is refused): the safe constructor decides
        return self.construct_object(node, deep=True)

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, Node] = {}
        for key_node, _ in node.value:
            _remember_key(seen, self.construct_object(key_node, deep=True), key_node)
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]


class _Refused(yaml.composer.ComposerError):  # type: ignore[misc]
    """A limit of the course format (aliases, values, nesting) met while composing: said by the catalog."""

    def __init__(self, said: Message, mark: Any) -> None:
        super().__init__(None, None, said.render("en"), mark)
        self.said = said


def _problem_from_yaml_error(path: Path, exc: yaml.YAMLError, text: str) -> Problem:
    if isinstance(exc, _Refused):
        at = exc.problem_mark
        line, col = (at.line + 1, at.column + 1) if at is not None else (1, 1)
        return Problem.of(path, line, col, exc.said)
    if isinstance(exc, yaml.reader.ReaderError):
        # libyaml counts bytes of the UTF-8 text, the Python reader counts characters
        offset = len(text.encode("utf-8")[: exc.position].decode("utf-8", "ignore")) if FAST_PARSER else exc.position
        line, col = _line_col(text, offset)
        char = text[offset] if offset < len(text) else ""
        what = (Message.of("problem.character", name=describe_control(char)) if char
                else Message.of("problem.a_character"))
        return Problem.of(path, line, col, Message.of("problem.yaml_not_allowed", what=what))
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    message = problem if not context or context in problem else f"{problem} ({context})"
    context_mark = getattr(exc, "context_mark", None)
    if context and context_mark is not None and mark is not None and context_mark.line != mark.line:
        message = f"{problem} ({context} that started at line {context_mark.line + 1})"
    line = mark.line + 1 if mark is not None else 1
    col = mark.column + 1 if mark is not None else 1
    if "could not determine a constructor for the tag" in message:
        tag = message.split("tag", 1)[1].strip()
        return Problem.of(path, line, col, Message.of("problem.yaml_tag", tag=tag))
    # the parser's own words (PyYAML's English), quoted as they are
    return Problem.of(path, line, col, Message.of("problem.yaml", what=Message.verbatim(message)))


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text``."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _raw_controls(path: Path, text: str) -> list[Problem]:
    """Control characters typed into the file itself, each at its line and column."""
    problems = []
    at = _unsafe_at(text)
    while at is not None:
        line, col = _line_col(text, at)
        problems.append(Problem.of(path, line, col, Message.of("problem.control_char", name=control_name(text[at]))))
        if len(problems) >= MAX_PROBLEMS_PER_FILE:
            break
        at = _unsafe_at(text, at + 1)
    return problems


def read_text(path: Path, *, root: Path | None = None) -> str:
    """The text of one course file, read within the limits, or :class:`ContentError` located at 1:1."""
    try:
        raw = read_bounded(path, limit=MAX_FILE_BYTES, root=root)
    except UnsafeFile as exc:
        said = exc.said
        if said.code in ("file.over_limit", "file.larger_than"):
            said = Message.of("problem.file_too_large", kb=str(MAX_FILE_BYTES // 1000), detail=said)
        raise ContentError([Problem.of(path, 1, 1, said)]) from None
    if b"\x00" in raw:
        raise ContentError([Problem.of(path, 1, 1, Message.of("problem.binary"))])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ContentError([Problem.of(path, line, col, Message.of("problem.not_utf8"))]) from None


def load(path: Path, *, root: Path | None = None) -> Source:
    """Parse one course file, or raise :class:`ContentError` with located problems.

    ``root``: the course folder the file must stay inside (a link out of it is refused).
    """
    return parse_text(path, read_text(path, root=root))


def parse_text(path: Path, text: str) -> Source:
    """Parse text already read (see :func:`load`)."""
    if not text.strip():
        raise ContentError([Problem.of(path, 1, 1, Message.of("problem.empty"))])
    raw_controls = _raw_controls(path, text)
    if raw_controls:
        raise ContentError(raw_controls)
    loader = _CourseLoader(text, path)
    try:
        root = loader.get_single_node()
        if root is None:
            raise ContentError([Problem.of(path, 1, 1, Message.of("problem.empty_comments"))])
        if loader.problems:
            raise ContentError(sorted(loader.problems))
        data = loader.construct(root) if loader.exotic else loader.data
    except yaml.YAMLError as exc:
        raise ContentError([_problem_from_yaml_error(path, exc, text)]) from None
    except RecursionError:
        raise ContentError([Problem.of(path, 1, 1, Message.of("problem.yaml_too_deep"))]) from None
    finally:
        loader.dispose()
    return Source(path=path, data=data, root=root)


def fast_event_loader(text: str) -> Any:
    """A bare safe parser over ``text`` (libyaml when available) for reading events; :func:`parse_text` composes."""
    return _Base(text)


def _remember_key(seen: dict[Any, Node], key: Any, key_node: Node) -> None:
    """Refuse a key that is not a plain value or that its mapping already has (at the key's own mark)."""
    try:
        hash(key)
    except TypeError:
        raise yaml.constructor.ConstructorError(
            None, None, "a mapping key must be a plain value", key_node.start_mark
        ) from None
    if key in seen:
        first = seen[key].start_mark
        raise yaml.constructor.ConstructorError(
            None, None, f"duplicate key {key!r} (first defined at line {first.line + 1})", key_node.start_mark
        )
    seen[key] = key_node
