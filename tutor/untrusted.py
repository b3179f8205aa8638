"""The one boundary for input that may come from anyone: lesson packs, imports, locks, replay traces.

Two promises, used by every room that reads or shows such input:

* :func:`clean` turns any value into text that is safe to show a person: every character whose Unicode general
  category is ``Cc``, ``Cf``, ``Zl``, ``Zp``, ``Co`` or ``Cs``, and every ``Bidi_Control`` code point, is removed
  (``\\n`` and ``\\t`` kept), a lone surrogate (an undecodable byte of a file name, ``\\udc9b`` in JSON) becomes
  U+FFFD, bytes are decoded as UTF-8 — so no ESC/OSC/CSI sequence reaches a terminal, no text can pretend to be
  something else, and the result always encodes. :func:`clean_line` is the same for a one-line place: a line
  break inside shows as ⏎, and the line is cut with an ellipsis. Neither interprets markup; the UI still renders the
  result as plain text (``Content``/``Text``), never as Textual markup. The headless commands write through
  :class:`tutor.commands.output.CleanStream`, which applies :func:`clean` to every write.
* :func:`read_bounded` reads a user-chosen file only if it is a regular file (never a FIFO, a device or a socket,
  opened non-blocking so a FIFO cannot hang the reader), at most ``limit`` bytes (checked with ``stat`` first, then
  by reading at most ``limit + 1`` bytes), optionally only inside a root folder (no symlink leads out of it).

Failures are :class:`UnsafeFile` with a one-line message naming the path; callers turn it into their own located
error (``path:1:1: error: …``) or a CLI error, never a traceback.
"""

from __future__ import annotations

import math
import os
import re
import stat
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, NewType

from tutor.i18n import N_
from tutor.i18n.message import Message

DEFAULT_LIMIT_BYTES = 8 * 1024 * 1024

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs"})
"""Unicode general categories never shown: controls, format characters (bidi marks, zero-width, BOM), line and
paragraph separators, private use, surrogates."""
BIDI_CONTROL = frozenset({0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})
"""The code points with the Unicode ``Bidi_Control`` property (PropList.txt): ALM, LRM, RLM, the embeddings and
overrides, the isolates. All are ``Cf`` today; named here so that the rule does not depend on the categories."""
LINE_MARK = "\u23ce"
"""What a line break inside a one-line field is shown as (⏎): seen, never obeyed."""
REPLACEMENT = "\ufffd"
"""What a lone surrogate (an undecodable byte of a file name, ``\\udc9b`` in JSON) is shown as."""
DEFAULT_LINE_LIMIT = 400
"""Characters a one-line field may take before it is cut with an ellipsis."""
_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""Everything ``str.splitlines`` breaks a line at."""
_LINE_BREAK = re.compile("\r\n|[" + _BREAKS + "]")


def is_unsafe(char: str) -> bool:
    """Whether one character must never reach a terminal, a widget or a report (TAB and LF aside, see
    :func:`clean`): its general category is one of :data:`UNSAFE_CATEGORIES`, or it is a ``Bidi_Control``."""
    return unicodedata.category(char) in UNSAFE_CATEGORIES or ord(char) in BIDI_CONTROL


def as_text(value: object) -> str:
    """Any value as a string to clean: bytes decoded as UTF-8 (an undecodable byte becomes U+FFFD), anything
    else through ``str``."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8", "replace")
    return str(value)


def _shown(char: str) -> str:
    if char in "\n\t":
        return char
    if "\ud800" <= char <= "\udfff":
        return REPLACEMENT
    return "" if is_unsafe(char) else char


def _cleaned(s: str) -> str:
    if s.isprintable():  # the common case: no Cc/Cf/Cs/Co/Cn/Zl/Zp/Zs but the space, nothing to look at
        return s
    # line by line, so that only a line holding something isprintable() does not pass is read character by character
    return "\n".join(line if line.isprintable() else "".join(ch if ch.isprintable() else _shown(ch) for ch in line)
                     for line in s.split("\n"))


PlainText = NewType("PlainText", str)
"""Text that is safe to show a person: what :func:`clean` and :func:`clean_line` return, and the type a lesson
pack's words have once read (``Text.get``, a choice's label, a lab's unit; the models clean them as they validate).

Only this module makes one (a test holds every other module to that), so a ``PlainText`` holds no control, format,
bidi or surrogate code point. Anything built from one with ``str``'s own operations (``+``, an f-string,
``.replace``) is a plain ``str`` again, so wherever ``PlainText`` is asked for, mypy refuses a raw ``str`` from a
file: checked by the type, not remembered. At run time it is a ``str`` (a subclass would break ``sys.intern``, which
``pathlib`` calls on every name).

It does not make markup harmless: ``[@click=…]`` is plain text here and must still reach Textual as
``Content``/``Text`` (never parsed as markup), which :mod:`tutor.ui.plain` does.
"""


def clean(text: object) -> PlainText:
    """``text`` as a string safe to show a person: every character :func:`is_unsafe` names is removed (``\\n`` and
    ``\\t`` kept) and every lone surrogate becomes U+FFFD, so the result always encodes as UTF-8."""
    return PlainText(_cleaned(as_text(text)))


def clean_line(text: object, limit: int = DEFAULT_LINE_LIMIT) -> PlainText:
    """Like :func:`clean`, for one-line places (a title, an id, a file name): a line break inside the text is shown
    as ⏎ (breaks at either end are dropped), a tab as a space, and the result is at most ``limit`` characters
    (cut with an ellipsis)."""
    s = as_text(text).strip(_BREAKS)
    s = _LINE_BREAK.sub(LINE_MARK, s).replace("\t", " ")
    return PlainText(cap(_cleaned(s), limit))


def cap(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, the last of them an ellipsis when anything was cut."""
    if limit <= 0 or len(text) <= limit:
        return text
    return text[: limit - 1] + "\u2026"


def control_characters(text: str) -> list[int]:
    """Offsets of the characters :func:`clean` would remove or replace (for a checker that reports them)."""
    if text.isprintable():
        return []
    return [i for i, ch in enumerate(text) if ch not in "\n\t" and not ch.isprintable() and _shown(ch) != ch]


def first_unsafe(text: str, *, allow_crlf: bool = False) -> int | None:
    """Offset of the first character :func:`clean` would not show as it is (``\\r`` before ``\\n`` allowed
    when ``allow_crlf``), or None. Line by line, so that a long file is looked at in C but where a line holds
    something ``str.isprintable`` does not pass."""
    start = 0
    for line in text.split("\n"):
        if not line.isprintable():
            for i, ch in enumerate(line):
                if ch == "\t" or ch.isprintable() or _shown(ch) == ch:
                    continue
                if allow_crlf and ch == "\r" and i == len(line) - 1 and start + i + 1 < len(text):
                    continue
                return start + i
        start += len(line) + 1
    return None


def json_for_terminal(value: object, *, indent: int | None = 1, default: Callable[[Any], Any] | None = None) -> str:
    """``json.dumps`` of ``value`` (readable non-ASCII text kept) with every character :func:`clean` would drop or
    replace written as its ``\\uXXXX`` escape: the same data, nothing a terminal acts on, lone surrogates
    included (they would not even encode)."""
    import json

    text = json.dumps(value, ensure_ascii=False, indent=indent, default=default)
    if text.isprintable():
        return text
    return "".join(ch if ch == "\n" or ch.isprintable() or _shown(ch) == ch else f"\\u{ord(ch):04x}" for ch in text)


def describe_control(char: str) -> str:
    """``U+001B`` style name of one character, for error messages."""
    return f"U+{ord(char):04X}"


def widget_id(prefix: str, ident: str) -> str:
    """A Textual widget id for a pack's id: ``prefix`` (a letter first) and ``ident`` with every character outside
    ``[a-z0-9-]`` written as ``_xxxx`` (its code point), so that any id gives a valid, distinct widget id."""
    body = "".join(ch if ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "-") else f"_{ord(ch):04x}" for ch in ident)
    return f"{prefix}{body}"


class UnsafeFile(Exception):
    """A user-chosen file that cannot be read safely; ``str()`` is one line that names the path (in English).

    ``said`` is the same complaint as a catalog message, so a screen or a ``--lang es`` command shows it in its
    language (:meth:`describe`); ``message`` is its English rendering. A complaint about a place inside the file
    (a JSON value of the wrong type, a decode error) has its ``line`` and ``col`` (1-based), and then reads
    ``path:line:col: error: complaint``, as ``tutor lessons check`` writes a lesson's problems."""

    def __init__(self, path: Path | str, message: str | Message, *, line: int | None = None,
                 col: int | None = None) -> None:
        self.path = Path(path)
        self.said = message if isinstance(message, Message) else Message.verbatim(message)
        self.message = self.said.render("en")
        self.line = line
        self.col = col
        super().__init__(self.describe("en"))

    def full(self) -> Message:
        """The whole line as a catalog message (the path, the place when it has one, the complaint), so that a
        reader that wraps it in its own message still says it in the reader's language."""
        if self.line is None:
            return Message.of("json.at", where=clean_line(str(self.path)), what=self.said)
        return Message.of("problem.line", path=clean_line(str(self.path)), line=str(self.line), col=str(self.col or 1),
                          severity=Message.of("problem.severity.error"), what=self.said)

    def where(self) -> str:
        """``path`` or ``path:line:col``, one line."""
        shown = clean_line(str(self.path))
        return shown if self.line is None else f"{shown}:{self.line}:{self.col or 1}"

    def describe(self, lang: str) -> str:
        """``path: complaint`` (``path:line:col: error: complaint`` when it has a place) on one line, in ``lang``."""
        what = clean_line(self.said.render(lang))
        if self.line is None:
            return f"{self.where()}: {what}"
        return f"{self.where()}: {Message.of('problem.severity.error').render(lang)}: {what}"


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _within(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def check_regular_file(
    path: Path | str, *, limit: int = DEFAULT_LIMIT_BYTES, root: Path | None = None
) -> os.stat_result:
    """``stat`` of ``path`` if it may be read: a regular file of at most ``limit`` bytes (inside ``root``, if given)."""
    p = Path(path)
    if root is not None:
        try:
            real = p.resolve(strict=True)
            real_root = Path(root).resolve(strict=True)
        except OSError as exc:
            raise UnsafeFile(p, Message.of("file.cannot_open", reason=_reason(exc))) from None
        except RuntimeError:
            raise UnsafeFile(p, Message.of("file.link_loop")) from None
        if not _within(real, real_root):
            raise UnsafeFile(p, Message.of("file.link_outside"))
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise UnsafeFile(p, Message.of("file.missing")) from None
    except OSError as exc:
        raise UnsafeFile(p, Message.of("file.cannot_open", reason=_reason(exc))) from None
    if stat.S_ISDIR(st.st_mode):
        raise UnsafeFile(p, Message.of("file.is_folder"))
    if not stat.S_ISREG(st.st_mode):
        kind = _node_kind(st.st_mode)
        raise UnsafeFile(p, Message.of("file.not_regular_kind", kind=Message.of(kind)))
    if st.st_size > limit:
        raise UnsafeFile(p, Message.of("file.over_limit", size=st.st_size, limit=limit))
    return st


def _node_kind(mode: int) -> str:
    """The catalog code of a file-system node that is not a regular file or a folder."""
    if stat.S_ISFIFO(mode):
        return N_("file.kind.fifo")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return N_("file.kind.device")
    if stat.S_ISSOCK(mode):
        return N_("file.kind.socket")
    return N_("file.kind.other")


def check_output_target(path: Path | str) -> None:
    """Refuse to write to ``path`` unless it is a regular file or does not exist yet: a folder, a device
    (``/dev/full``), a FIFO or a socket — or a link to one (``/dev/stdout``) — is :class:`UnsafeFile`. A write
    through a temporary file and a rename would replace such a node with a file (as root, the device itself); an
    ``open`` would block on a FIFO."""
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        return
    except (OSError, ValueError):  # a name too long, a link loop, a NUL: the write itself reports why
        return
    if stat.S_ISDIR(st.st_mode):
        raise UnsafeFile(p, Message.of("file.is_folder"))
    if not stat.S_ISREG(st.st_mode):
        kind = _node_kind(st.st_mode)
        raise UnsafeFile(p, Message.of("file.not_written_kind", kind=Message.of(kind)))


def read_bounded(path: Path | str, *, limit: int = DEFAULT_LIMIT_BYTES, root: Path | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; :class:`UnsafeFile` for anything else."""
    p = Path(path)
    check_regular_file(p, limit=limit, root=root)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(p, flags)
    except OSError as exc:
        raise UnsafeFile(p, Message.of("file.cannot_open", reason=_reason(exc))) from None
    try:
        # The file may have been swapped between stat and open: check what was opened, then read at most limit+1.
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFile(p, Message.of("file.not_regular"))
        chunks: list[bytes] = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    except OSError as exc:
        raise UnsafeFile(p, Message.of("file.cannot_read", reason=_reason(exc))) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise UnsafeFile(p, Message.of("file.larger_than", limit=limit))
    return data


def read_text_bounded(path: Path | str, *, limit: int = DEFAULT_LIMIT_BYTES, root: Path | None = None) -> str:
    """:func:`read_bounded` decoded as UTF-8 (a file in another encoding is an :class:`UnsafeFile`)."""
    data = read_bounded(path, limit=limit, root=root)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnsafeFile(path, Message.of("file.not_utf8", byte=str(exc.start))) from None


def finite(value: float) -> bool:
    """True for a real, finite float (no NaN, no infinity)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


MAX_JSON_DEPTH = 64


def _json_depth_ok(text: str, max_depth: int) -> int | None:
    """Offset where nesting first exceeds ``max_depth`` (ignoring brackets inside strings), or None."""
    depth = 0
    in_string = False
    escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                return i
        elif ch in "]}":
            depth -= 1
    return None


class _NotANumber(ValueError):
    """A JSON number Python would read as NaN or infinity (``NaN``, ``Infinity``, ``1e400``)."""

    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def _reject_constant(name: str) -> float:
    raise _NotANumber(name)


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _NotANumber(literal)
    return value


def _locate_token(text: str, token: str) -> tuple[int, int]:
    """Line and column (1-based) of the first ``token`` outside a JSON string (1, 1 if not found)."""
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif text.startswith(token, i):
            return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1
    return 1, 1


def load_json_bounded(path: Path | str, *, limit: int = DEFAULT_LIMIT_BYTES, max_depth: int = MAX_JSON_DEPTH) -> object:
    """Parse a user-chosen JSON file within bounds; NaN/Infinity, numbers too large for a float (``1e400``) and
    deep nesting are refused with the line and column (:class:`UnsafeFile`)."""
    return loads_bounded(read_text_bounded(path, limit=limit), path, max_depth=max_depth)


def _line_col(text: str, offset: int, first_line: int = 1) -> tuple[int, int]:
    return text.count("\n", 0, offset) + first_line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def loads_bounded(text: str, path: Path | str, *, max_depth: int = MAX_JSON_DEPTH, first_line: int = 1) -> object:
    """:func:`load_json_bounded` for text already read (one line of a JSON-lines file, say: ``first_line`` is its
    line in the file); errors name ``path`` and the line and column."""
    import json

    deep_at = _json_depth_ok(text, max_depth)
    if deep_at is not None:
        line, col = _line_col(text, deep_at, first_line)
        raise UnsafeFile(path, Message.of("json.too_deep", depth=max_depth), line=line, col=col)
    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        line, col = _line_col(text, exc.pos, first_line)
        raise UnsafeFile(path, Message.of("json.invalid_at", reason=_decode_reason(exc.msg)), line=line,
                         col=col) from None
    except _NotANumber as exc:
        line, col = _locate_token(text, exc.token)
        token = clean_line(exc.token)[:40]
        raise UnsafeFile(path, Message.of("json.not_finite", token=token), line=line + first_line - 1,
                         col=col) from None
    except (ValueError, RecursionError) as exc:
        raise UnsafeFile(path, Message.of("json.invalid", reason=clean_line(str(exc)))) from None
    half = _lone_surrogate(value)
    if half is not None:
        # "\udc9b" alone is half of a UTF-16 pair: no character, and no text file or database can hold it
        line, col = _locate_escape(text, half)
        raise UnsafeFile(path, Message.of("json.lone_surrogate", escape=f"\\u{ord(half):04x}"),
                         line=line + first_line - 1, col=col)
    return value


_DECODE_REASONS = (
    ("Expecting value", N_("json.reason.value")),
    ("Expecting property name", N_("json.reason.key")),
    ("Expecting ':'", N_("json.reason.colon")),
    ("Expecting ','", N_("json.reason.comma")),
    ("Extra data", N_("json.reason.extra")),
    ("Unterminated string", N_("json.reason.unterminated")),
    ("Invalid control character", N_("json.reason.control")),
    ("Invalid \\", N_("json.reason.escape")),
)
"""The decoder's complaints (CPython's json, C and Python scanners), by how they start: said by the catalog."""


def _decode_reason(reason: str) -> Message:
    """json's English complaint in the catalog's words (as it is, cleaned, if it is one this list does not know)."""
    code = next((code for start, code in _DECODE_REASONS if reason.startswith(start)), None)
    return Message.of(code) if code else Message.verbatim(clean_line(reason, 120))


JsonLoc = tuple[str | int, ...]
"""Where a value is inside a JSON document: keys and list indexes from the top (``("tables", "attempts", 3)``)."""
_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def json_field_path(loc: JsonLoc) -> PlainText:
    """``tables.attempts[3].confidence``: a place in a document, for a message (a file's own keys cleaned, cut)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            name = clean_line(part, 40)
            out += f".{name}" if out else name
    return clean_line(out or "(top)", 200)


def json_offset(text: str, loc: JsonLoc, *, key: bool = False) -> int:
    """Offset in ``text`` (valid JSON) of the value ``loc`` names, or of its key when ``key`` (an unknown or
    misspelt key); as deep as ``loc`` exists (a missing key is located at its object). Walks only along ``loc``:
    the values beside it are skipped with the decoder, so a large file costs one pass where the error is."""
    import json
    from json.decoder import scanstring  # type: ignore[attr-defined]

    skip = json.JSONDecoder().raw_decode

    def space(i: int) -> int:
        found = _JSON_SPACE.match(text, i)
        return found.end() if found else i

    at = space(0)
    for n, part in enumerate(loc):
        last = n == len(loc) - 1
        if at >= len(text):
            break
        if text[at] == "{" and isinstance(part, str):
            i = space(at + 1)
            hit: tuple[int, int] | None = None
            while i < len(text) and text[i] == '"':
                key_at = i
                name, i = scanstring(text, i + 1)
                i = space(space(i) + 1)  # past the ':'
                if name == part:
                    hit = (key_at, i)  # the last one wins, as json.loads keeps the last of a key written twice
                _, i = skip(text, i)
                i = space(i)
                if i < len(text) and text[i] == ",":
                    i = space(i + 1)
            if hit is None:
                break
            at = hit[0] if (key and last) else hit[1]
        elif text[at] == "[" and isinstance(part, int) and part >= 0:
            i = space(at + 1)
            index = 0
            found_item = None
            while i < len(text) and text[i] != "]":
                if index == part:
                    found_item = i
                    break
                _, i = skip(text, i)
                i = space(i)
                if i < len(text) and text[i] == ",":
                    i = space(i + 1)
                index += 1
            if found_item is None:
                break
            at = found_item
        else:
            break
    return at


def json_position(text: str, loc: JsonLoc, *, key: bool = False, first_line: int = 1) -> tuple[int, int]:
    """Line and column (1-based) of :func:`json_offset`."""
    try:
        offset = json_offset(text, loc, key=key)
    except (ValueError, IndexError):  # text that is not the JSON it was parsed from: its top
        offset = 0
    return _line_col(text, offset, first_line)


MAX_JSON_ITEMS = 10_000
"""Items a list or an object read from outside may hold, unless its reader sets a limit of its own."""
MAX_JSON_STRING = 200_000
"""Characters a string read from outside may hold, unless its reader sets a limit of its own."""


def first_oversized(value: object, where: JsonLoc = (), *, max_items: int = MAX_JSON_ITEMS,
                    max_string: int = MAX_JSON_STRING) -> tuple[JsonLoc, Message] | None:
    """Where parsed JSON first grows past the limits, and which limit: a list or an object of more than
    ``max_items`` (a list at its first item past the limit), a string of more than ``max_string`` characters.
    Checked before a reader looks at any value, so that no work scales with what a file chose to hold."""
    stack: list[tuple[object, JsonLoc]] = [(value, where)]
    while stack:
        item, loc = stack.pop()
        if isinstance(item, str):
            if len(item) > max_string:
                return loc, Message.of("json.string_too_long", limit=max_string)
        elif isinstance(item, dict):
            if len(item) > max_items:
                return loc, Message.of("json.too_many_items", limit=max_items)
            stack.extend((v, (*loc, str(k))) for k, v in item.items())
        elif isinstance(item, list):
            if len(item) > max_items:
                return (*loc, max_items), Message.of("json.too_many_items", limit=max_items)
            stack.extend((v, (*loc, i)) for i, v in enumerate(item))
    return None


class JsonDocument:
    """A JSON file that has been read and parsed, which can say where any of its values is.

    ``error(loc, said)`` is the :class:`UnsafeFile` for the value at ``loc``: ``path:line:col: error:
    field.path: complaint``, at the offending value (or its key), not at the top of the file."""

    def __init__(self, path: Path | str, text: str, value: object, *, first_line: int = 1) -> None:
        self.path = Path(path)
        self.text = text
        self.value = value
        self.first_line = first_line

    @classmethod
    def read(cls, path: Path | str, *, limit: int = DEFAULT_LIMIT_BYTES,
             max_depth: int = MAX_JSON_DEPTH) -> JsonDocument:
        """Read and parse a user-chosen file within bounds (see :func:`load_json_bounded`)."""
        text = read_text_bounded(path, limit=limit)
        return cls(path, text, loads_bounded(text, path, max_depth=max_depth))

    @classmethod
    def parse(cls, path: Path | str, text: str, *, max_depth: int = MAX_JSON_DEPTH) -> JsonDocument:
        """Parse text already read (see :func:`loads_bounded`)."""
        return cls(path, text, loads_bounded(text, path, max_depth=max_depth))

    def position(self, loc: JsonLoc, *, key: bool = False) -> tuple[int, int]:
        return json_position(self.text, loc, key=key, first_line=self.first_line)

    def error(self, loc: JsonLoc, said: Message, *, key: bool = False) -> UnsafeFile:
        """The complaint ``said`` about the value at ``loc`` (its key when ``key``), located and named."""
        line, col = self.position(loc, key=key)
        return UnsafeFile(self.path, Message.of("json.at", where=json_field_path(loc), what=said), line=line,
                          col=col)


def _lone_surrogate(value: object) -> str | None:
    """The first lone surrogate in any string (or key) of parsed JSON, or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isprintable():
                for ch in item:
                    if "\ud800" <= ch <= "\udfff":
                        return ch
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def _locate_escape(text: str, half: str) -> tuple[int, int]:
    """Line and column (1-based) of the ``\\uXXXX`` escape that wrote ``half`` (1, 1 if not found)."""
    found = re.search(re.escape(f"\\u{ord(half):04x}"), text, re.IGNORECASE)
    if found is None:
        return 1, 1
    i = found.start()
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1
