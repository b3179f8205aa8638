"""The one boundary for input that may come from anyone: lesson packs, imports, locks, replay traces.

Two promises, used by every room that reads or shows such input:

* :func:`clean` turns any string into text that is safe to show a person: every control character (C0 but ``\\n``
  and ``\\t``, DEL, C1) and every bidirectional override is removed, so no ESC/OSC/CSI sequence reaches a terminal
  and no text can pretend to be something else. It never interprets markup; the UI still renders the result as
  plain text (``Content``/``Text``), never as Textual markup.
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
from pathlib import Path

from tutor.i18n.message import Message

# C0 controls except TAB (\x09) and LF (\x0a); DEL; C1 controls; bidi embeddings/overrides/isolates; the line and
# paragraph separators some terminals treat as newlines; BOM/zero-width no-break space.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]")
_UNSAFE_OR_NEWLINE = re.compile(_UNSAFE.pattern[:-1] + "\n\t]")

DEFAULT_LIMIT_BYTES = 8 * 1024 * 1024


def clean(text: object) -> str:
    """``text`` as a string with every control character removed (``\\n`` and ``\\t`` kept)."""
    return _UNSAFE.sub("", text if isinstance(text, str) else str(text))


def clean_line(text: object) -> str:
    """Like :func:`clean`, for one-line places (a title, an id, a file name): newlines and tabs become spaces."""
    s = text if isinstance(text, str) else str(text)
    return _UNSAFE.sub("", s.replace("\n", " ").replace("\t", " ").replace("\r", " "))


def control_characters(text: str) -> list[int]:
    """Offsets of the characters :func:`clean` would remove (for a checker that reports them)."""
    return [m.start() for m in _UNSAFE.finditer(text)]


def describe_control(char: str) -> str:
    """``U+001B`` style name of one character, for error messages."""
    return f"U+{ord(char):04X}"


class UnsafeFile(Exception):
    """A user-chosen file that cannot be read safely; ``str()`` is one line that names the path (in English).

    ``said`` is the same complaint as a catalog message, so a screen or a ``--lang es`` command shows it in its
    language (:meth:`describe`); ``message`` is its English rendering."""

    def __init__(self, path: Path | str, message: str | Message) -> None:
        self.path = Path(path)
        self.said = message if isinstance(message, Message) else Message.verbatim(message)
        self.message = self.said.render("en")
        super().__init__(f"{clean_line(str(path))}: {self.message}")

    def describe(self, lang: str) -> str:
        """``path: complaint`` on one line, in ``lang``."""
        return f"{clean_line(str(self.path))}: {clean_line(self.said.render(lang))}"


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
        kind = (
            "file.kind.fifo"
            if stat.S_ISFIFO(st.st_mode)
            else "file.kind.device"
            if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
            else "file.kind.socket"
            if stat.S_ISSOCK(st.st_mode)
            else "file.kind.other"
        )
        raise UnsafeFile(p, Message.of("file.not_regular_kind", kind=Message.of(kind)))
    if st.st_size > limit:
        raise UnsafeFile(p, Message.of("file.over_limit", size=st.st_size, limit=limit))
    return st


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


def loads_bounded(text: str, path: Path | str, *, max_depth: int = MAX_JSON_DEPTH) -> object:
    """:func:`load_json_bounded` for text already read (one line of a JSON-lines file, say); errors name ``path``."""
    import json

    deep_at = _json_depth_ok(text, max_depth)
    if deep_at is not None:
        line = text.count("\n", 0, deep_at) + 1
        col = deep_at - (text.rfind("\n", 0, deep_at) + 1) + 1
        raise UnsafeFile(path, Message.of("json.too_deep", line=str(line), col=str(col), depth=max_depth))
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise UnsafeFile(
            path, Message.of("json.invalid_at", line=str(exc.lineno), col=str(exc.colno), reason=exc.msg)
        ) from None
    except _NotANumber as exc:
        line, col = _locate_token(text, exc.token)
        token = clean_line(exc.token)[:40]
        raise UnsafeFile(path, Message.of("json.not_finite", line=str(line), col=str(col), token=token)) from None
    except (ValueError, RecursionError) as exc:
        raise UnsafeFile(path, Message.of("json.invalid", reason=clean_line(str(exc)))) from None
