"""Which engine holds the progress: the embedded SQLite file (the default) or a class's PostgreSQL.

``--store`` (or ``TUTOR_STORE``) names it: a ``postgresql://`` URL (or a libpq ``key=value`` string) opens
:class:`~tutor.progress.postgres.PostgresStore`; a path, or nothing, opens the SQLite file (in the data dir).
"""

from __future__ import annotations

import os
from pathlib import Path

from tutor.progress.store import ProgressStore, StoreBase

__all__ = ["STORE_ENV", "is_class_store", "open_store", "store_spec"]

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
    path = chosen.removeprefix("sqlite://").removeprefix("sqlite:")
    return ProgressStore(Path(path).expanduser())
