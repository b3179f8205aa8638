"""Store helpers for tests that run on both engines (see ``tests/conftest.py``)."""

from __future__ import annotations

import sqlite3

from tests.conftest import Stores


def set_schema_version(stores: Stores, version: int) -> None:
    """Pretend a newer tutor wrote the store ``p``."""
    if stores.engine == "sqlite":
        conn = sqlite3.connect(stores.spec())
        conn.execute(f"PRAGMA user_version = {version}")
        conn.close()
    else:
        stores.open().close()
        with stores.admin() as pg:
            pg.execute("UPDATE tutor_schema SET version = %s", (version,))
