"""``tutor serve``'s limit on failed logins, per client address, across all of that client's browser tabs.

Each tab is an app process of its own and ends after :data:`tutor.ui.screens.login.MAX_TRIES` wrong tries, so
without a shared count a client could keep guessing by opening tabs. The serve process makes one small SQLite
file (in a folder only its user may read) and tells every app process where it is (``TUTOR_SERVE_LOGINS``) and
which address its browser connected from (``TUTOR_SERVE_CLIENT``). Every refused name or token is written there;
after ``max_failed`` of them from one address within ``window_s`` that address is refused for ``block_s``:
its tabs' logins are answered "too many failed logins, try again in N min" without asking the database, and
the serve process answers its new pages and sessions with HTTP 429 before any app process starts.

The count is by address, as the server sees it: behind a TLS proxy (``--public-url``) the address is the last
one the proxy wrote in ``X-Forwarded-For`` — otherwise every learner would share the proxy's one address.
"""

from __future__ import annotations

import ipaddress
import math
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from tutor.progress.classroom import LoginThrottled

__all__ = [
    "BLOCK_S",
    "CLIENT_ENV",
    "LIMITS_ENV",
    "MAX_FAILED",
    "WINDOW_S",
    "LoginLimits",
    "client_address",
]

LIMITS_ENV = "TUTOR_SERVE_LOGINS"
CLIENT_ENV = "TUTOR_SERVE_CLIENT"
#: Failed logins from one address within WINDOW_S seconds that close it for BLOCK_S seconds (two tabs' worth).
MAX_FAILED = 10
WINDOW_S = 600.0
BLOCK_S = 900.0

Store = TypeVar("Store")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS failures (client TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS failures_by_client ON failures (client, at);
CREATE TABLE IF NOT EXISTS blocks (client TEXT PRIMARY KEY, until REAL NOT NULL);
CREATE TABLE IF NOT EXISTS settings (max_failed INTEGER NOT NULL, window_s REAL NOT NULL, block_s REAL NOT NULL);
"""


@dataclass(frozen=True)
class LoginLimits:
    """The shared count of failed logins (``path``: the SQLite file) and its rule."""

    path: Path
    max_failed: int = MAX_FAILED
    window_s: float = WINDOW_S
    block_s: float = BLOCK_S
    clock: Callable[[], float] = field(default=time.time, compare=False)

    @classmethod
    def create(cls, path: Path, *, max_failed: int = MAX_FAILED, window_s: float = WINDOW_S,
               block_s: float = BLOCK_S) -> LoginLimits:
        """Make the file with its rule (the serve process, once)."""
        with sqlite3.connect(path) as db:
            db.executescript(_SCHEMA)
            db.execute("DELETE FROM settings")
            db.execute("INSERT INTO settings VALUES (?, ?, ?)", (max_failed, window_s, block_s))
        return cls(path, max_failed, window_s, block_s)

    @classmethod
    def open(cls, path: Path, clock: Callable[[], float] = time.time) -> LoginLimits:
        """The limits the serve process made (an app process, from ``TUTOR_SERVE_LOGINS``)."""
        with sqlite3.connect(f"file:{path}?mode=rw", uri=True) as db:
            row = db.execute("SELECT max_failed, window_s, block_s FROM settings").fetchone()
        if row is None:
            return cls(path, clock=clock)
        return cls(path, int(row[0]), float(row[1]), float(row[2]), clock=clock)

    def _db(self) -> sqlite3.Connection:
        return sqlite3.connect(f"file:{self.path}?mode=rw", uri=True, timeout=5, isolation_level="IMMEDIATE")

    def blocked_for(self, client: str) -> float:
        """Seconds ``client`` is still refused (0 when it may try)."""
        with self._db() as db:
            row = db.execute("SELECT until FROM blocks WHERE client = ?", (client,)).fetchone()
        return max(0.0, float(row[0]) - self.clock()) if row else 0.0

    def failed(self, client: str) -> float:
        """Count one refused login from ``client``; returns how long it is now refused (0 if not yet)."""
        now = self.clock()
        with self._db() as db:
            db.execute("DELETE FROM failures WHERE at < ?", (now - self.window_s,))
            db.execute("INSERT INTO failures VALUES (?, ?)", (client, now))
            count = int(db.execute("SELECT COUNT(*) FROM failures WHERE client = ?", (client,)).fetchone()[0])
            if count >= self.max_failed:
                db.execute("INSERT INTO blocks VALUES (?, ?) ON CONFLICT (client) DO UPDATE SET until = excluded.until",
                           (client, now + self.block_s))
                db.execute("DELETE FROM failures WHERE client = ?", (client,))
                return self.block_s
        return 0.0

    def guard(self, login: Callable[[str, str], Store], client: str) -> Callable[[str, str], Store]:
        """``login`` for ``client``'s tab: refused with :class:`LoginThrottled` while the address is blocked
        (the database is not asked), each refusal it gives counted."""
        from tutor.progress.store_errors import StoreDenied

        def guarded(name: str, token: str) -> Store:
            self._refuse_if_blocked(client)
            try:
                return login(name, token)
            except StoreDenied:
                self.failed(client)
                raise

        return guarded

    def _refuse_if_blocked(self, client: str) -> None:
        left = self.blocked_for(client)
        if left > 0:
            raise LoginThrottled(client=client, minutes=str(max(1, math.ceil(left / 60))))


def client_address(peer: str | None, forwarded_for: str | None, behind_proxy: bool) -> str:
    """The address a login is counted against: the TCP peer, or — behind a proxy on this machine
    (``--public-url``) — the last address the proxy added to ``X-Forwarded-For`` (earlier ones are the
    client's own to write, so never trusted)."""
    peer = peer or "?"
    if behind_proxy and forwarded_for:
        try:
            local = ipaddress.ip_address(peer).is_loopback
        except ValueError:
            local = False
        last = forwarded_for.split(",")[-1].strip()
        if local and last:
            try:
                return str(ipaddress.ip_address(last))
            except ValueError:
                return peer
    return peer
