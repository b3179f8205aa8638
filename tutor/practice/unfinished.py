"""Unfinished attempts: a prediction locked and never measured to the end — the tutor or ``tutor exercise run``
was killed (kill -9, the OOM killer, a closed terminal) between the lock and the grade, or the learner left the
exercise screen after locking. Such an attempt stays ``locked`` in the store; this module finds it, and lets the
learner measure it now (resume: the stored prediction is graded against a new measurement) or discard it.

Who is still working on an attempt: the process that locked it holds an advisory lock (``flock``) on a small file
``<data dir>/attempts/<store>-<id>.lock`` until the attempt is graded or marked failed. The kernel drops that lock
when the process dies, however it dies; so a ``locked`` attempt whose file nobody holds is unfinished. (For a class
store on a server, only this machine's processes are seen.)
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor import paths
from tutor.i18n import N_, Lang, t

if TYPE_CHECKING:
    from tutor.progress.rows import Attempt

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Linux/macOS: every locked attempt not held here is unfinished
    fcntl = None  # type: ignore[assignment]

DISCARDED = "discarded by the learner: the measurement never finished"


_HELD: dict[tuple[str, int], int] = {}
"""(store key, attempt id) → the open file descriptor whose lock this process holds."""


class UnfinishedError(ValueError):
    """The attempt cannot be resumed or discarded (no such attempt, another exercise's, not locked, or a live
    process is still measuring it); the message says which."""


def _store_key(store: Any) -> str:
    return hashlib.sha1(str(getattr(store, "path", "store")).encode()).hexdigest()[:12]


def _lock_path(store: Any, attempt_id: int) -> Path:
    return paths.data_dir() / "attempts" / f"{_store_key(store)}-{int(attempt_id)}.lock"


def hold(store: Any, attempt_id: int) -> bool:
    """This process works on ``attempt_id`` (call right after locking it, or when resuming it). False when
    another live process holds it."""
    key = (_store_key(store), int(attempt_id))
    if key in _HELD:
        return True
    if fcntl is None:
        _HELD[key] = -1
        return True
    try:
        path = _lock_path(store, attempt_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        _HELD[key] = -1  # no lock file (read-only data dir): still known as held in this process
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False
    _HELD[key] = fd
    return True


def release(store: Any, attempt_id: int) -> None:
    """This process is done with ``attempt_id`` (graded, failed, cancelled, or left unfinished on purpose)."""
    key = (_store_key(store), int(attempt_id))
    fd = _HELD.pop(key, None)
    if fd is None or fd < 0:
        return
    with contextlib.suppress(OSError):
        _lock_path(store, attempt_id).unlink()
    with contextlib.suppress(OSError):
        os.close(fd)


def is_live(store: Any, attempt_id: int) -> bool:
    """Whether a running process (this one or another) is still working on ``attempt_id``."""
    key = (_store_key(store), int(attempt_id))
    if key in _HELD:
        return True
    if fcntl is None:
        return False
    try:
        fd = os.open(_lock_path(store, attempt_id), os.O_RDWR)
    except OSError:
        return False  # no file: nobody ever held it, or its holder finished
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True  # held: its process is alive
    finally:
        os.close(fd)
    return False


def unfinished(store: Any, exercise_id: str | None = None) -> list[Attempt]:
    """The store's locked attempts no live process is working on, oldest first."""
    return [a for a in store.attempts(exercise_id) if a.state == "locked" and not is_live(store, a.id)]


def check(store: Any, attempt_id: int, exercise_id: str | None = None) -> Attempt:
    """The attempt, if it can be resumed or discarded; else :class:`UnfinishedError`."""
    attempt: Attempt | None = store.attempt(int(attempt_id))
    if attempt is None:
        raise UnfinishedError(f"there is no attempt #{attempt_id}")
    if exercise_id is not None and attempt.exercise_id != exercise_id:
        raise UnfinishedError(f"attempt #{attempt_id} belongs to {attempt.exercise_id}, not {exercise_id}")
    if attempt.state != "locked":
        raise UnfinishedError(f"attempt #{attempt_id} is not unfinished (it is {attempt.state})")
    if is_live(store, attempt_id):
        raise UnfinishedError(f"attempt #{attempt_id} is being measured by another process")
    return attempt


def take(store: Any, attempt_id: int, exercise_id: str | None = None) -> Attempt:
    """:func:`check` the attempt and hold it for this process (to measure it now)."""
    attempt = check(store, attempt_id, exercise_id)
    if not hold(store, attempt_id):
        raise UnfinishedError(f"attempt #{attempt_id} is being measured by another process")
    return attempt


def discard(store: Any, attempt_id: int) -> None:
    """Mark an unfinished attempt cancelled (its prediction stays, with the reason); it no longer shows."""
    check(store, attempt_id)
    store.record_failure(int(attempt_id), state="cancelled", reason=DISCARDED)


def describe(attempt: Attempt, lang: Lang, key: str = N_("unfinished.line")) -> str:
    """One line about an unfinished attempt, in ``lang``."""
    import time

    shown = attempt.prediction.choice
    if shown is None and attempt.prediction.value is not None:
        shown = str(attempt.prediction.value)
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(attempt.created_at))
    return t(key, lang, id=attempt.id, exercise=attempt.exercise_id, pass_n=attempt.pass_number,
             prediction=shown or "?", when=when)
