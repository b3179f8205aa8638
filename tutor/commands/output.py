"""The one boundary between the headless commands and the terminal.

While a command runs, ``sys.stdout`` and ``sys.stderr`` are :class:`CleanStream` wrappers: every write has its
control characters removed (``\\n`` and ``\\t`` kept), so an ESC/OSC/CSI/C1 sequence in a pack's title, an id, a
file name or an imported row never reaches the terminal, whatever ``print`` printed it. The few escape sequences
the tutor itself writes (the progress line's ``\\r\\033[K`` on a terminal) go through :func:`raw_stderr`.

A reader that goes away (``tutor progress | head -1``) ends the command quietly: :func:`quiet_broken_pipe` points the
standard streams at ``/dev/null`` so nothing more is written, and the command exits with 141 (128 + SIGPIPE), as a
program killed by SIGPIPE would.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from tutor.i18n.message import Message
from tutor.untrusted import clean

SIGPIPE_EXIT = 141


class CleanStream(io.TextIOBase):
    """A text stream that writes to ``inner`` with the control characters removed."""

    def __init__(self, inner: TextIO) -> None:
        super().__init__()
        self.inner = inner

    def write(self, text: str) -> int:  # type: ignore[override]
        self.inner.write(clean(text))
        return len(text)

    def flush(self) -> None:
        self.inner.flush()

    def isatty(self) -> bool:
        return self.inner.isatty()

    def fileno(self) -> int:
        return self.inner.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.inner, "encoding", "utf-8") or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.inner, "errors", None)


@contextlib.contextmanager
def cleaned_streams() -> Iterator[None]:
    """Wrap ``sys.stdout`` and ``sys.stderr`` in :class:`CleanStream` for the duration of a command."""
    saved = sys.stdout, sys.stderr
    sys.stdout = CleanStream(saved[0])  # type: ignore[assignment]
    sys.stderr = CleanStream(saved[1])  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def output_file(path: str | Path, lang: str) -> None:
    """A file a command is asked to write: refused in one line (exit 1) unless it is a regular file or new (see
    :func:`tutor.untrusted.check_output_target`)."""
    from tutor.commands import CliError
    from tutor.untrusted import UnsafeFile, check_output_target

    try:
        check_output_target(path)
    except UnsafeFile as exc:
        raise CliError(exc.describe(lang), 1) from None


def raw_stderr() -> TextIO:
    """The real stderr, for the tutor's own terminal control sequences (never for text from outside)."""
    stream = sys.stderr
    return stream.inner if isinstance(stream, CleanStream) else stream


def quiet_broken_pipe() -> int:
    """After a ``BrokenPipeError``: send whatever is still buffered to ``/dev/null`` and return the exit status."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.__stdout__, sys.__stderr__, sys.stdout):
        if stream is None:
            continue
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(devnull, stream.fileno())
    os.close(devnull)
    return SIGPIPE_EXIT


class ProgressPrinter:
    """The measuring engine's progress on stderr in the reader's language: ``[ 42 %] roofline: bandwidth: …``.

    On a terminal the line is rewritten in place (through :func:`raw_stderr`, the only escape it writes); otherwise
    one line per new step, so a log or a pipe reads as a list. ``elapsed`` adds the seconds since the start (the
    bench's runs are long)."""

    def __init__(self, lang: str, *, elapsed: bool = False, stream: TextIO | None = None) -> None:
        import time

        from tutor.i18n import as_lang

        self.lang = as_lang(lang)
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.elapsed = elapsed
        self.started = time.monotonic()
        self.last = ""

    def __call__(self, fraction: float, said: Message) -> None:
        import time

        from tutor.i18n import numbers
        from tutor.measure.phases import progress_text
        from tutor.untrusted import clean_line

        sentence = progress_text(None, said, self.lang)
        if not self.tty and sentence == self.last:
            return
        self.last = sentence
        done = numbers.percent(100 * max(0.0, min(1.0, fraction)), self.lang)
        clock = f" {numbers.decimal(time.monotonic() - self.started, self.lang, 1):>5} s" if self.elapsed else ""
        line = clean_line(f"[{done:>5}{clock}] {sentence}")
        if self.tty:
            raw_stderr().write("\r\033[K" + line[:150])
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def done(self) -> None:
        """Clear the rewritten line (a terminal), so what is printed next starts clean."""
        if self.tty:
            raw_stderr().write("\r\033[K")
            raw_stderr().flush()
