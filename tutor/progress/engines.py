"""Which engine holds the progress: the embedded SQLite file (the default) or a class's PostgreSQL.

``--store`` (or ``TUTOR_STORE``) names it: a ``postgresql://`` URL (or a libpq ``key=value`` string) opens
:class:`~tutor.progress.postgres.PostgresStore`; a path, or nothing, opens the SQLite file (in the data dir).

A path the learner names is theirs: it may be a new file, a folder (the store is ``progress.db`` inside it) or an
existing tutor store. Anything else — a text file, another program's database, a FIFO or a device — is refused and
left exactly as it is; only the tutor's own store is ever moved aside when it is corrupt.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

from tutor.i18n import N_
from tutor.progress.store import TABLES, ProgressStore, StoreBase
from tutor.progress.store_errors import StoreCannotOpen, from_os_error
from tutor.untrusted import clean_line

__all__ = ["STORE_ENV", "NotATutorStore", "StorePathMissing", "is_class_store", "open_store", "sqlite_store_path",
           "store_spec"]

STORE_ENV = "TUTOR_STORE"


def store_spec(spec: str | None = None) -> str | None:
    """The store asked for: ``spec`` if given, else ``$TUTOR_STORE``, else None (the SQLite default)."""
    chosen = spec if spec is not None else os.environ.get(STORE_ENV)
    return chosen.strip() or None if chosen else None


def is_class_store(spec: str | None = None) -> bool:
    from tutor.progress.postgres import is_postgres_dsn

    chosen = store_spec(spec)
    return chosen is not None and is_postgres_dsn(chosen)


def open_store(spec: str | None = None) -> StoreBase:
    """Open the store ``spec`` names (see the module docstring)."""
    chosen = store_spec(spec)
    if chosen is None:
        return ProgressStore()
    from tutor.progress.postgres import PostgresStore, is_postgres_dsn

    if is_postgres_dsn(chosen):
        return PostgresStore(chosen)
    return ProgressStore(sqlite_store_path(chosen))


class NotATutorStore(StoreCannotOpen):
    """A ``--store`` path that names something other than a tutor store (left as it is)."""

    code = N_("store.not_a_store")


class StorePathMissing(StoreCannotOpen):
    """``--store sqlite:`` with nothing after it."""

    code = N_("store.no_path")


SQLITE_HEADER = b"SQLite format 3\x00"
STORE_FILE_NAME = "progress.db"


def sqlite_store_path(spec: str) -> Path:
    """The SQLite file ``spec`` (``PATH``, ``sqlite:PATH``, ``sqlite://PATH``) names, once it is known to be safe to
    open: a file that does not exist yet, a folder (its ``progress.db``), or an existing tutor store. Anything
    else is :class:`NotATutorStore` and is never touched (the tutor would otherwise move it aside as corrupt)."""
    raw = spec.removeprefix("sqlite://").removeprefix("sqlite:")
    shown = clean_line(spec, 200)
    if not raw.strip():
        raise StorePathMissing(path=shown)
    path = Path(raw).expanduser()
    for _ in range(2):  # the path, then the store inside it when it is a folder
        try:
            info = os.stat(path)
        except FileNotFoundError:
            return path
        except (OSError, ValueError) as exc:  # ENAMETOOLONG, ELOOP, a NUL in the name
            if isinstance(exc, OSError):
                raise from_os_error(exc, Path(clean_line(str(path), 200))) from None
            raise StoreCannotOpen(path=shown, detail=clean_line(str(exc), 120)) from None
        if stat.S_ISDIR(info.st_mode):
            path = path / STORE_FILE_NAME
            continue
        if not stat.S_ISREG(info.st_mode):
            raise NotATutorStore(path=clean_line(str(path), 200))
        if info.st_size and not _is_tutor_store(path):
            raise NotATutorStore(path=clean_line(str(path), 200))
        return path
    raise NotATutorStore(path=clean_line(str(path), 200))


def _is_tutor_store(path: Path) -> bool:
    """Whether a non-empty file is a SQLite database that holds the tutor's tables (or no table yet). A SQLite
    file that cannot be read past its header counts as the tutor's: its own recovery judges it."""
    try:
        with open(path, "rb") as f:
            if f.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                return False
    except OSError:
        return True  # cannot be read: opening it reports why, and nothing is moved for an OSError
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except (sqlite3.Error, ValueError):
        return True
    try:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error:
        return True
    finally:
        conn.close()
    return not names or bool(names & set(TABLES))
