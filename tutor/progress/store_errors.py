"""What can go wrong with the progress store, as codes with parameters (the words live in the i18n catalog).

Only real corruption (``SQLITE_CORRUPT``, ``SQLITE_NOTADB`` or a failed ``quick_check``) lets the store move a
database aside. Everything else — locked, disk full, read-only, an I/O error, a file that cannot be opened — is a
:class:`StoreError` subclass whose ``str()`` is one English line naming the cause, and the file stays where it is.

Callers catch :class:`StoreError` (or :class:`StoreWriteError` for "this write did not happen; retry later") and
show ``exc.describe(lang)``; they never see a raw ``sqlite3`` exception.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any, ClassVar

from tutor.i18n import N_, Lang, t

# Primary SQLite result codes (the low byte of an extended code).
SQLITE_PERM = 3
SQLITE_BUSY = 5
SQLITE_LOCKED = 6
SQLITE_NOMEM = 7
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_CONSTRAINT = 19
SQLITE_NOTADB = 26


class StoreError(Exception):
    """The progress store cannot be used. ``code`` names the cause (an i18n key), ``params`` fill it in.

    ``str(exc)`` is one English line; :meth:`describe` gives it in another language. ``exit_code`` is what a
    headless command exits with.
    """

    code: ClassVar[str] = N_("store.error")
    exit_code: ClassVar[int] = 2

    def __init__(self, message: str | None = None, **params: Any) -> None:
        self.params: dict[str, Any] = {"path": "", "detail": "", **{k: str(v) for k, v in params.items()}}
        self._message = message
        super().__init__(message or t(self.code, "en", **self.params))

    def describe(self, lang: Lang) -> str:
        """The one-line message in ``lang`` (a message given in English only stays English)."""
        return self._message or t(self.code, lang, **self.params)


class StoreNewerSchema(StoreError):
    """The file was written by a newer tutor; it is never downgraded."""

    code = N_("store.newer_schema")


class StoreCannotOpen(StoreError):
    """The file or its folder cannot be opened (missing permission, a file where a folder should be, ...)."""

    code = N_("store.cannot_open")


class DataDirError(StoreCannotOpen):
    """The data folder itself is unusable (a file, not a folder; cannot be created)."""

    code = N_("store.data_dir")


class StoreCorrupt(StoreError):
    """Corruption met while the store was already open: nothing is moved under a running program."""

    code = N_("store.corrupt")


class StoreWriteError(StoreError):
    """A read or write that did not happen and may succeed later (the UI keeps what it was saving and retries)."""


class StoreBusy(StoreWriteError):
    code = N_("store.busy")


class StoreFull(StoreWriteError):
    code = N_("store.full")


class StoreReadOnly(StoreWriteError):
    code = N_("store.read_only")


class StoreIOError(StoreWriteError):
    code = N_("store.io")


class StoreRejected(StoreWriteError):
    """A CHECK constraint refused a value (NaN, out of range): a bug upstream, reported instead of stored."""

    code = N_("store.rejected")


class StoreDenied(StoreError):
    """The database refused this role the operation (a learner reaching past their own rows, a wrong token)."""

    code = N_("store.denied")


class StoreNoSuchRow(StoreError):
    """An update named a row this learner does not have (never theirs, or deleted): nothing was changed."""

    code = N_("store.no_row")


class StoreUnreachable(StoreWriteError):
    """The PostgreSQL server cannot be reached now (down, restarting, the network): retry later."""

    code = N_("store.unreachable")


def primary_code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def is_corruption(exc: sqlite3.Error) -> bool:
    """True only for errors that mean the file's bytes are not a healthy database."""
    return primary_code(exc) in (SQLITE_CORRUPT, SQLITE_NOTADB)


def _disk_nearly_full(path: Path) -> bool:
    import shutil

    try:
        return shutil.disk_usage(path.parent).free < 1024 * 1024
    except OSError:
        return False


def _why_cannot_open(path: Path) -> str:
    folder = path.parent
    if path.is_dir():
        return "it is a folder, not a file"
    if folder.exists() and not folder.is_dir():
        return f"{folder} is a file, not a folder"
    if not folder.exists():
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return "no permission to read and write it"
    return "SQLite could not open it (a read-only mount, or a folder it may not write in?)"


def classify(exc: sqlite3.Error, path: Path, busy_seconds: float = 10) -> StoreError:
    """The :class:`StoreError` that says what ``exc`` means for ``path`` (corruption is :class:`StoreCorrupt`)."""
    code = primary_code(exc)
    detail = getattr(exc, "sqlite_errorname", None) or str(exc)
    if code in (SQLITE_CORRUPT, SQLITE_NOTADB):
        return StoreCorrupt(path=path, detail=detail)
    if code in (SQLITE_BUSY, SQLITE_LOCKED):
        return StoreBusy(path=path, seconds=f"{busy_seconds:g}")
    if code == SQLITE_FULL:
        return StoreFull(path=path)
    if code in (SQLITE_READONLY, SQLITE_PERM):
        return StoreReadOnly(path=path)
    if code == SQLITE_IOERR:
        # SQLite reports a full disk met while growing the WAL index (or a short write) as an I/O error.
        return StoreFull(path=path) if _disk_nearly_full(path) else StoreIOError(path=path, detail=detail)
    if code == SQLITE_CANTOPEN:
        return StoreCannotOpen(path=path, detail=_why_cannot_open(path))
    if code == SQLITE_CONSTRAINT:
        return StoreRejected(path=path, detail=str(exc))
    return StoreError(path=path, detail=f"{detail}: {exc}" if detail != str(exc) else detail)


def from_os_error(exc: OSError, path: Path) -> StoreError:
    """An ``OSError`` met while preparing the store's folder or moving a file aside."""
    import errno

    reason = exc.strerror or type(exc).__name__
    if exc.errno == errno.ENOSPC:
        return StoreFull(path=path)
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return StoreReadOnly(path=path)
    if exc.errno in (errno.ENOTDIR, errno.EEXIST):
        return DataDirError(path=path.parent, detail=f"{reason} (a file is in the way of a folder)")
    return StoreCannotOpen(path=path, detail=reason)
