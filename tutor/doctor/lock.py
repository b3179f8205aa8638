"""The environment lock: the versions a learner's numbers were measured with, and what changed since.

``tutor doctor --lock`` writes :func:`current_lock` (an :class:`~tutor.results.lock.EnvironmentLock`) to a JSON
file; ``tutor doctor --check-lock`` reads it back with :func:`read_lock` and lists :func:`compare`'s differences. The
C0 "reproducible stack" condition uses the same two pure pieces: ``compare(read_lock(path), current_lock()) == []``.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutor.doctor.view import EnvironmentView, gather
from tutor.i18n.message import Message, Param
from tutor.results.lock import LOCK_SCHEMA, EnvironmentLock, GpuPin, LockShapeError, TorchPin
from tutor.results.wire import JsonObject

# A lock lists a few hundred packages: a few tens of KiB. Anything near this limit is not a lock.
LOCK_LIMIT_BYTES = 4 * 1024 * 1024


class LockError(Exception):
    """The lock file cannot be used: missing, unreadable, not JSON, or not a gpu-tutor lock. One line.

    ``said`` is the catalog message; ``str(exc)`` its English line, :meth:`message` the line in a language.
    """

    def __init__(self, said: Message) -> None:
        super().__init__(said.render("en"))
        self.said = said

    def message(self, lang: str) -> str:
        return self.said.render(lang)

    @property
    def message_es(self) -> str:
        return self.message("es")


@dataclass(frozen=True)
class Difference:
    """One value that is not what the lock says. ``key`` is dotted, e.g. ``packages.numpy`` or ``torch.cuda``."""

    key: str
    locked: Any
    current: Any

    def describe(self) -> str:
        return self.describe_in("en")

    def describe_in(self, lang: str) -> str:
        """The difference in ``lang`` ("es" or "en")."""
        from tutor.i18n import as_lang, t

        code = as_lang(lang)
        absent = t("doctor.lock.absent", code)
        return t("doctor.lock.difference", code, name=self.key, locked=_show(self.locked, absent),
                 current=_show(self.current, absent))

    def to_json(self) -> JsonObject:
        return {"key": self.key, "locked": self.locked, "current": self.current}


def _show(value: Any, absent: str = "absent") -> str:
    if value is None:
        return absent
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True)


def current_lock(view: EnvironmentView | None = None) -> EnvironmentLock:
    """The lock for this environment: Python, platform, torch/CUDA/cuDNN, driver, GPUs and key package versions.

    Built from ``view`` (gathered without the kernel probe when not given).
    """
    if view is None:
        view = gather(probe_kernel=False)
    from tutor import __version__

    t = view.torch
    return EnvironmentLock(
        created_at=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        created_ts=round(time.time(), 3),
        lock_id=uuid.uuid4().hex[:16],
        written_by=f"gpu-tutor {__version__}",
        python_version=view.python_version, python_implementation=view.python_implementation,
        system=view.system, machine=view.machine, wsl=view.is_wsl,
        torch=TorchPin(version=t.version, cuda=t.cuda, cudnn=t.cudnn, arch_list=tuple(t.arch_list)),
        driver_version=view.driver_version, cuda_driver_version=view.cuda_driver_version,
        gpus=tuple(
            GpuPin(name=g.name,
                   compute_capability=f"{g.compute_capability[0]}.{g.compute_capability[1]}"
                   if g.compute_capability else None,
                   memory_total_mib=round(g.memory_total_mib) if g.memory_total_mib else None)
            for g in view.gpus
        ),
        packages=dict(sorted(view.packages.items(), key=lambda kv: kv[0].lower())),
    )


def compare(lock: EnvironmentLock, current: EnvironmentLock) -> list[Difference]:
    """What differs between a lock and the current environment.

    Pure: the two environments are compared key by key as the lock file writes them (a key missing on one side
    counts as ``None``), lists as wholes. The file's own metadata (schema, creation time, tutor version, what
    rebuilds it) is ignored. An empty list means "matches".
    """
    diffs: list[Difference] = []
    _walk(lock.environment(), current.environment(), "", diffs)
    return diffs


def _walk(locked: Any, current: Any, prefix: str, out: list[Difference]) -> None:
    if isinstance(locked, dict) and isinstance(current, dict):
        for key in sorted(set(locked) | set(current), key=str.lower):
            _walk(locked.get(key), current.get(key), f"{prefix}{key}" if not prefix else f"{prefix}.{key}", out)
    elif locked != current:
        out.append(Difference(prefix, locked, current))


MAX_LOCK_ITEMS = 5_000
"""Items a list or an object of a lock may hold (a lock lists a few hundred packages)."""
MAX_LOCK_STRING = 10_000
"""Characters a string of a lock may hold (a version, a path, a GPU's name)."""


def read_lock(path: Path) -> EnvironmentLock:
    """Load a lock file; raise :class:`LockError` with one line saying what is wrong.

    The file may come from anywhere (``--check-lock FILE``): it is read through
    :class:`tutor.untrusted.JsonDocument` (a regular file, at most :data:`LOCK_LIMIT_BYTES`, UTF-8, bounded
    nesting, no NaN; every list and string bounded), so a FIFO, ``/dev/zero``, a latin-1 file or JSON nested
    100,000 deep is one line, not a hang or a traceback; a value at fault is named with its line and column
    (``path:line:col: error: schema: …``, ``…: torch.cuda: expected text, got int``).
    """
    from tutor.untrusted import JsonDocument, UnsafeFile, clean_line, first_oversized, read_text_bounded

    shown = clean_line(str(path))
    try:
        text = read_text_bounded(path, limit=LOCK_LIMIT_BYTES)
    except UnsafeFile as exc:
        if exc.message == "no such file":
            raise LockError(Message.of("doctor.lockfile.missing", path=shown)) from None
        raise LockError(Message.of("doctor.lockfile.unreadable", error=exc.full())) from None
    try:
        document = JsonDocument.parse(path, text)
    except UnsafeFile as exc:
        raise LockError(Message.of("doctor.lockfile.not_json", error=exc.full())) from None
    data = document.value
    if not isinstance(data, dict):
        raise LockError(document.error((), Message.of("doctor.lockfile.not_object_here")).full())
    if data.get("schema") != LOCK_SCHEMA:
        schema: Param = (Message.of("doctor.lockfile.no_schema") if data.get("schema") is None
                         else clean_line(repr(data.get("schema")))[:60])
        said = Message.of("doctor.lockfile.schema_here", schema=schema, expected=repr(LOCK_SCHEMA))
        raise LockError(document.error(("schema",), said).full())
    oversized = first_oversized(data, max_items=MAX_LOCK_ITEMS, max_string=MAX_LOCK_STRING)
    if oversized is not None:
        raise LockError(document.error(*oversized).full())
    try:
        return EnvironmentLock.from_json(data)
    except LockShapeError as exc:
        value: Any = data
        for part in exc.loc:
            value = value[part]
        got = "null" if value is None else type(value).__name__
        said = Message.of("result.expected", what=Message.of(f"result.what.{exc.what}"), got=got)
        raise LockError(document.error(exc.loc, said).full()) from None


def write_lock(path: Path, lock: EnvironmentLock | None = None) -> Path:
    """Write ``lock`` (default: :func:`current_lock`) atomically to ``path``; returns the path."""
    path = Path(path)
    data = (lock if lock is not None else current_lock()).to_json()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path
