"""The measured roofline's cache file, one entry per device fingerprint: the file boundary, so its entries are
JSON (:data:`~tutor.results.wire.JsonObject`); :func:`tutor.measure.roofline.read_cached_roof` reads an entry as
the typed :class:`~tutor.results.RooflineReference` (the classification itself is theory:
:mod:`tutor.theory.roofline`)."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from tutor import paths
from tutor.results.wire import JsonObject

# -- the cache ------------------------------------------------------------------------------------------------


def _cache_path(path: Path | None) -> Path:
    return path if path is not None else paths.roofline_cache()


CACHE_LIMIT_BYTES = 4 * 1024 * 1024
"""The measured-roofline cache is a few kilobytes a device; a larger file is not one the tutor wrote."""


def _read_cache(p: Path) -> JsonObject | None:
    """The cache's entries; ``{}`` when there is none yet, None when the file is there but unusable (not a regular
    file, too large, not UTF-8, not JSON, a NaN or an infinity in it, not an object)."""
    from tutor.untrusted import UnsafeFile, load_json_bounded

    if not p.exists():
        return {}
    try:
        data = load_json_bounded(p, limit=CACHE_LIMIT_BYTES)
    except (UnsafeFile, OSError):
        return None
    return data if isinstance(data, dict) else None


def load_cache(path: Path | None = None) -> JsonObject:
    """The measured rooflines by device fingerprint; an unusable cache reads as empty (measured again)."""
    return _read_cache(_cache_path(path)) or {}


ROOFLINE_FORMAT = 2
"""Bumped when a measured roofline gains or changes fields; an older cached one is measured again."""


def cached_roofline(fingerprint: str, path: Path | None = None) -> JsonObject | None:
    """The cached entry of ``fingerprint`` as the file holds it; None without one of the current format."""
    entry = load_cache(path).get(fingerprint)
    if not isinstance(entry, dict) or entry.get("format") != ROOFLINE_FORMAT:
        return None
    return entry


def store_roofline(fingerprint: str, roofline: JsonObject, path: Path | None = None) -> None:
    """Write the roofline for ``fingerprint`` atomically (a reader never sees half a file)."""
    p = _cache_path(path)
    data = _read_cache(p)
    if data is None:
        # an unusable cache is kept beside the new one, not overwritten: what it held is not lost
        with contextlib.suppress(OSError):
            os.replace(p, p.with_name(p.name + ".unreadable"))
        data = {}
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
