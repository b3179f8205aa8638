"""The measured roofline's cache, one entry per device fingerprint (the classification itself is theory:
:mod:`tutor.theory.roofline`)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tutor import paths

# -- the cache ------------------------------------------------------------------------------------------------


def _cache_path(path: Path | None) -> Path:
    return path if path is not None else paths.roofline_cache()


def load_cache(path: Path | None = None) -> dict[str, Any]:
    p = _cache_path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


ROOFLINE_FORMAT = 2
"""Bumped when a measured roofline gains or changes fields; an older cached one is measured again."""


def cached_roofline(fingerprint: str, path: Path | None = None) -> dict[str, Any] | None:
    entry = load_cache(path).get(fingerprint)
    if not isinstance(entry, dict) or entry.get("format") != ROOFLINE_FORMAT:
        return None
    return entry


def store_roofline(fingerprint: str, roofline: dict[str, Any], path: Path | None = None) -> None:
    """Write the roofline for ``fingerprint`` atomically (a reader never sees half a file)."""
    p = _cache_path(path)
    data = load_cache(p)
    data[fingerprint] = roofline
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=p.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, sort_keys=True)
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
