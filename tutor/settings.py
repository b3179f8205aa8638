"""The learner's preferences that outlive a run (today: the language), kept next to the progress store.

A preference is never worth an error: a missing, unreadable or hostile file reads as "no preference", and a
failed write is ignored (the next toggle tries again). The file is read through the untrusted-file boundary.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from tutor import paths
from tutor.i18n import LANGS, Lang
from tutor.untrusted import UnsafeFile, load_json_bounded

SETTINGS_FILE = "settings.json"
_LIMIT = 64 * 1024


def _path() -> Path:
    return paths.data_dir() / SETTINGS_FILE


def _read() -> dict[str, object]:
    try:
        data = load_json_bounded(_path(), limit=_LIMIT)
    except (UnsafeFile, OSError, paths.DataDirError):
        return {}
    return data if isinstance(data, dict) else {}


def saved_lang() -> Lang | None:
    """The language the learner last chose in the TUI, if any."""
    value = _read().get("lang")
    return next((lang for lang in LANGS if lang == value), None)


def save_lang(lang: Lang) -> None:
    """Remember ``lang`` for the next run (atomically; silently skipped when the data dir cannot be written)."""
    with contextlib.suppress(OSError, paths.DataDirError):
        path = _path()
        data = {**_read(), "lang": lang}
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh)
            os.replace(tmp, path)
        finally:
            Path(tmp).unlink(missing_ok=True)
