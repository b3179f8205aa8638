"""The measurement lease: one measurement at a time on a shared device.

Two learners timing the same GPU at once corrupt each other's numbers. In a class (the PostgreSQL store) a
measurement first takes a session-level PostgreSQL advisory lock named after the device, on a connection of its own:
the server queues the waiters in order, and if the process dies its connection closes and the lock goes with it;
held, the connection beats every few seconds and the server ends it after a minute of silence, so a stopped holder
loses the device too (a holder that is not the tutor is the instructor's to break: :func:`break_lease`). On a
machine without an accelerator every spelling of the device is the CPU's one lease. While waiting, the queue is read
from ``pg_locks`` (holders, and waiters that started waiting earlier) and reported through ``on_queue``;
``cancelled()`` is polled, and a cancelled wait is interrupted with the protocol's cancel request. Alone (the SQLite
store) nothing waits: the lease only records the measurement's interval.

Every stored measurement keeps :meth:`MeasurementLease.to_json` under ``lease``: whether it ran under the lease, the
device, and when it was acquired and released — so overlaps can be checked after the fact.
"""

from __future__ import annotations

import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from tutor.i18n import Lang, t
from tutor.results.wire import JsonObject

__all__ = [
    "LEASE_NAMESPACE",
    "HeldLease",
    "LeaseCancelled",
    "MeasurementLease",
    "break_lease",
    "device_holder",
    "device_key",
    "has_accelerator",
    "held_leases",
    "holder_text",
    "lease_device",
    "local_lease",
    "postgres_lease",
    "queue_text",
]


def holder_text(who: str, lang: Lang) -> str:
    """"ana is measuring on this device" in ``lang`` (``who`` comes from the database: control characters go)."""
    from tutor.untrusted import clean_line

    return t("lease.held_by", lang, who=clean_line(who))


def queue_text(ahead: int, lang: Lang, *, where: str = "tui") -> str:
    """"Waiting for the shared device: 2 learners ahead (Esc cancels)" in ``lang`` (``where``: tui or cli)."""
    queue = t("lease.ahead_one", lang) if ahead == 1 else t("lease.ahead_many", lang, n=ahead)
    return t(f"lease.waiting_{where}", lang, queue=queue)

#: The first key of every lease's advisory lock ("tu"), so a lease never collides with another program's locks.
LEASE_NAMESPACE = 0x7475
#: While a lease is held its connection says "still here" this often, and the server ends a session that has
#: been silent for ``LEASE_SILENCE_S`` (``idle_session_timeout``): a holder that was stopped (SIGSTOP, a laptop
#: lid) or hangs loses the device instead of holding it forever. A holder that is not the tutor (psql) is the
#: instructor's to break (``tutor class break-lease``).
LEASE_HEARTBEAT_S = 5.0
LEASE_SILENCE_S = 60.0
#: How a lease's connection names itself in ``pg_stat_activity``: the tutor, when it took the lease, the device.
LEASE_APP_PREFIX = "gpu-tutor lease"


class LeaseCancelled(Exception):
    """The learner cancelled while waiting for the device; nothing was measured."""


@dataclass
class MeasurementLease:
    """One measurement's hold on a device: ``held`` is True when it ran under the class's lease."""

    device: str
    held: bool
    acquired_at: float
    released_at: float | None = None
    waited_s: float = 0.0
    ahead_at_start: int = 0

    def to_json(self) -> JsonObject:
        return {
            "device": self.device,
            "held": self.held,
            "acquired_at": self.acquired_at,
            "released_at": self.released_at,
            "waited_s": round(self.waited_s, 6),
            "ahead_at_start": self.ahead_at_start,
        }


def has_accelerator() -> bool:
    """Whether this machine has a GPU the measurements could use, without importing torch for it: torch's own
    answer when it is already loaded, else whether an NVIDIA device node is present and not hidden."""
    import sys

    torch = sys.modules.get("torch")
    if torch is not None:
        with suppress(Exception):
            return bool(torch.cuda.is_available())
    import glob
    import os

    if os.environ.get("CUDA_VISIBLE_DEVICES", None) in ("", "-1"):
        return False
    return bool(glob.glob("/dev/nvidia[0-9]*"))


def lease_device(device: str, *, accelerator: bool | None = None) -> str:
    """The name a lease is taken on: this machine and the physical device a request lands on, whatever its
    spelling. ``auto``, ``cuda`` and ``cuda:0`` mean the machine's default accelerator; on a machine without one
    (``accelerator``: default :func:`has_accelerator`) they and ``cpu`` all mean the CPU, so two learners asking
    either way queue for the same device."""
    name = "default" if device in ("auto", "cuda", "cuda:0", "") else device
    if name in ("default", "cpu") and not (has_accelerator() if accelerator is None else accelerator):
        name = "cpu"
    return f"{socket.gethostname()}:{name}"


def device_key(device: str) -> tuple[int, int]:
    """The advisory lock's two 32-bit keys for ``device`` (both non-negative, as ``pg_locks`` shows them)."""
    return LEASE_NAMESPACE, zlib.crc32(device.encode("utf-8")) & 0x7FFFFFFF


@contextmanager
def local_lease(device: str) -> Iterator[MeasurementLease]:
    """One learner alone: nothing to wait for; the interval is still recorded."""
    lease = MeasurementLease(device=device, held=False, acquired_at=time.time())
    try:
        yield lease
    finally:
        lease.released_at = time.time()


_AHEAD_SQL = """
SELECT count(*) FROM pg_catalog.pg_locks o
WHERE o.locktype = 'advisory' AND o.classid = %(a)s::oid AND o.objid = %(b)s::oid AND o.objsubid = 2
  AND o.pid <> %(pid)s::integer
  AND (o.granted OR o.waitstart <= COALESCE(
        (SELECT me.waitstart FROM pg_catalog.pg_locks me
          WHERE me.pid = %(pid)s::integer AND me.locktype = 'advisory' AND me.classid = %(a)s::oid
            AND me.objid = %(b)s::oid AND me.objsubid = 2 AND NOT me.granted), now()))
"""

_HOLDER_SQL = """
SELECT a.usename FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.classid = %(a)s::oid AND l.objid = %(b)s::oid AND l.objsubid = 2
  AND l.granted LIMIT 1
"""


def _ahead(conn: Any, key: tuple[int, int], pid: int) -> int:
    row = conn.execute(_AHEAD_SQL, {"a": key[0], "b": key[1], "pid": pid}).fetchone()
    return int(row[0]) if row else 0


def device_holder(conn: Any, device: str) -> str | None:
    """The database role holding ``device``'s lease now, or None (``conn``: an open psycopg connection)."""
    key = device_key(device)
    row = conn.execute(_HOLDER_SQL, {"a": key[0], "b": key[1]}).fetchone()
    return None if row is None else str(row[0])


def connect_pinned(conninfo: str, *, application_name: str) -> Any:
    """A connection for the lease alone: it reads only the catalogs, so its ``search_path`` is ``pg_catalog,
    pg_temp`` — nothing another role created can shadow what it calls (every call is qualified as well)."""
    import psycopg

    conn = psycopg.connect(conninfo, autocommit=True, application_name=application_name)
    try:
        conn.execute("SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', false)")
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def postgres_lease(
    conninfo: str,
    device: str,
    *,
    on_queue: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    poll_s: float = 0.2,
    heartbeat_s: float | None = None,
    silence_s: float | None = None,
) -> Iterator[MeasurementLease]:
    """Hold ``device`` through a session-level advisory lock on a connection of its own (see the module docstring).
    Held, the connection beats every ``heartbeat_s`` and the server drops it after ``silence_s`` without a beat
    (defaults :data:`LEASE_HEARTBEAT_S`, :data:`LEASE_SILENCE_S`); a lease lost that way ends ``held = False``.

    Raises :class:`LeaseCancelled` when ``cancelled()`` turns true while waiting, and a ``psycopg.Error`` when the
    server cannot be reached (the caller reports it as a store error)."""
    import psycopg

    key = device_key(device)
    params = {"a": key[0], "b": key[1]}
    lock_conn = connect_pinned(conninfo, application_name=LEASE_APP_PREFIX)
    lease: MeasurementLease | None = None
    abandoned = False
    beating: threading.Event | None = None
    try:
        pid = lock_conn.info.backend_pid
        started = time.time()
        ahead_at_start = 0
        row = lock_conn.execute("SELECT pg_catalog.pg_try_advisory_lock(%(a)s::integer, %(b)s::integer)",
                                params).fetchone()
        if not (row and row[0]):
            try:
                ahead_at_start = _wait(lock_conn, params, key, pid, on_queue, cancelled, poll_s, conninfo)
            except _Abandoned as gone:
                # The learner is not kept waiting for the server to confirm: the wait is cancelled, and the
                # connection (with any lock it still gets) closed, on a thread of its own.
                abandoned = True
                threading.Thread(target=_let_go, args=(lock_conn, gone.waiter), name="lease-cancel",
                                 daemon=True).start()
                raise LeaseCancelled from None
        now = time.time()
        lease = MeasurementLease(device=device, held=True, acquired_at=now, waited_s=now - started,
                                 ahead_at_start=ahead_at_start)
        beating = _keep_alive(lock_conn, device, now, LEASE_HEARTBEAT_S if heartbeat_s is None else heartbeat_s,
                              LEASE_SILENCE_S if silence_s is None else silence_s)
        if on_queue is not None:
            on_queue(0)
        yield lease
    finally:
        if beating is not None:
            beating.set()
        if lease is not None:
            lease.released_at = time.time()
            try:
                row = lock_conn.execute("SELECT pg_catalog.pg_advisory_unlock(%(a)s::integer, %(b)s::integer)",
                                        params).fetchone()
                lost = not (row and row[0])
            except psycopg.Error:
                lost = True
            if lost:  # the server ended the session (silence, or the instructor broke the lease)
                lease.held = False
        if not abandoned:
            with suppress(psycopg.Error):
                lock_conn.close()


def _keep_alive(lock_conn: Any, device: str, since: float, heartbeat_s: float, silence_s: float) -> threading.Event:
    """Name the holder, ask the server to end the session after ``silence_s`` without a statement, and beat
    every ``heartbeat_s`` on a daemon thread until the returned event is set."""
    import psycopg

    label = f"{LEASE_APP_PREFIX} {int(since)} {device}"[:63]
    with suppress(psycopg.Error):
        lock_conn.execute("SELECT pg_catalog.set_config('application_name', %s::text, false),"
                          " pg_catalog.set_config('idle_session_timeout', %s::text, false)",
                          (label, f"{max(1, int(silence_s * 1000))}ms"))
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(heartbeat_s):
            try:
                lock_conn.execute("SELECT 1")
            except psycopg.Error:
                return

    threading.Thread(target=beat, name="lease-heartbeat", daemon=True).start()
    return stop


@dataclass(frozen=True)
class HeldLease:
    """A device lease held now, as the instructor sees it. ``device`` and ``since`` are what the holder's
    connection says of itself (the tutor writes them; another program may write anything, or nothing)."""

    pid: int
    learner: str
    key: int
    waiting: int
    device: str | None
    since: float | None


_LEASES_SQL = """
SELECT l.pid, a.usename, l.objid::pg_catalog.int8 AS key, a.application_name,
       (SELECT pg_catalog.count(*) FROM pg_catalog.pg_locks w
         WHERE w.locktype = 'advisory' AND w.classid = l.classid AND w.objid = l.objid AND w.objsubid = 2
           AND NOT w.granted) AS waiting
FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.classid = %s::oid AND l.objsubid = 2 AND l.granted
ORDER BY l.pid
"""


def held_leases(conn: Any) -> list[HeldLease]:
    """Every device lease held on the server now (``conn``: an open psycopg connection)."""
    held = []
    for pid, who, key, app, waiting in conn.execute(_LEASES_SQL, (LEASE_NAMESPACE,)).fetchall():
        device, since = None, None
        parts = str(app or "").removeprefix(LEASE_APP_PREFIX).split(" ", 2)
        if str(app or "").startswith(LEASE_APP_PREFIX + " ") and len(parts) == 3 and parts[1].isdigit():
            since, device = float(parts[1]), parts[2]
        held.append(HeldLease(pid=int(pid), learner=str(who), key=int(key), waiting=int(waiting), device=device,
                              since=since))
    return held


def break_lease(conn: Any, pid: int) -> bool:
    """End the session ``pid`` if it holds a device lease (its lock goes with it); False if it holds none.
    Raises ``psycopg.errors.InsufficientPrivilege`` when this role may not end that session."""
    if not any(h.pid == pid for h in held_leases(conn)):
        return False
    row = conn.execute("SELECT pg_catalog.pg_terminate_backend(%s::integer, 5000::pg_catalog.int8)",
                       (pid,)).fetchone()
    return bool(row and row[0])


class _Abandoned(Exception):
    """The wait was cancelled; ``waiter`` is the thread still blocked in ``pg_advisory_lock``."""

    def __init__(self, waiter: threading.Thread) -> None:
        super().__init__()
        self.waiter = waiter


def _let_go(lock_conn: Any, waiter: threading.Thread) -> None:
    """Cancel the blocked wait, then close its connection (the server drops any lock it still got)."""
    import psycopg

    with suppress(psycopg.Error):
        lock_conn.cancel()
    waiter.join(10)
    with suppress(psycopg.Error):
        lock_conn.close()


def _wait(lock_conn: Any, params: dict[str, int], key: tuple[int, int], pid: int,
          on_queue: Callable[[int], None] | None, cancelled: Callable[[], bool] | None, poll_s: float,
          conninfo: str) -> int:
    """Block on the lock in a thread while this one reports the queue and watches for a cancel."""
    import psycopg

    outcome: dict[str, BaseException | bool] = {}

    def block() -> None:
        try:
            lock_conn.execute("SELECT pg_catalog.pg_advisory_lock(%(a)s::integer, %(b)s::integer)", params)
            outcome["ok"] = True
        except BaseException as exc:
            outcome["error"] = exc

    waiter = threading.Thread(target=block, name="lease-wait", daemon=True)
    waiter.start()
    first: int | None = None
    last: int | None = None
    with connect_pinned(conninfo, application_name="gpu-tutor lease queue") as watch:
        next_look = 0.0
        while waiter.is_alive():
            if cancelled is not None and cancelled():
                raise _Abandoned(waiter)
            if time.monotonic() >= next_look:  # the queue every poll_s; a cancel is seen within 50 ms
                next_look = time.monotonic() + poll_s
                with suppress(psycopg.Error):
                    ahead = _ahead(watch, key, pid)
                    if first is None:
                        first = ahead
                    if ahead != last and on_queue is not None:
                        on_queue(ahead)
                    last = ahead
            waiter.join(0.05)
    error = outcome.get("error")
    if isinstance(error, BaseException):
        if cancelled is not None and cancelled():
            raise LeaseCancelled from None
        raise error
    return first or 0
