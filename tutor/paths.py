"""Every file location the tutor uses, in one place.

The user data dir comes from platformdirs and is overridden by ``TUTOR_DATA_DIR`` (or ``--data-dir``, which the
CLI turns into that variable before anything opens a file), so tests never touch a learner's progress.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import platformdirs

APP_NAME = "gpu-tutor"
DATA_DIR_ENV = "TUTOR_DATA_DIR"

_PACKAGE_DIR = Path(__file__).resolve().parent


class DataDirError(Exception):
    """The data folder cannot be used (a file where the folder should be, no permission, a full disk).

    ``str()`` is one line naming the folder and the cause; ``exit_code`` is what the CLI exits with.
    """

    exit_code = 2

    def __init__(self, path: Path, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(f"the data folder {path} cannot be used: {detail}")


def _make_dir(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise DataDirError(path, "it is a file, not a folder") from None
    except NotADirectoryError:
        raise DataDirError(path, "a file is in the way (one of its parents is not a folder)") from None
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise DataDirError(path, "the disk is full") from None
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            raise DataDirError(path, "it cannot be created here (read-only or no permission)") from None
        raise DataDirError(path, exc.strerror or type(exc).__name__) from None


def data_dir() -> Path:
    """The directory that holds the progress database, caches and exported files (:class:`DataDirError` when it
    cannot be used)."""
    override = os.environ.get(DATA_DIR_ENV)
    path = Path(override).expanduser() if override else Path(platformdirs.user_data_dir(APP_NAME))
    _make_dir(path)
    return path


def set_data_dir(path: str | os.PathLike[str]) -> None:
    """Point every later lookup at ``path`` (what ``--data-dir`` does)."""
    os.environ[DATA_DIR_ENV] = str(Path(path).expanduser().resolve())


def progress_db() -> Path:
    """The SQLite progress store."""
    return data_dir() / "progress.sqlite3"


def cache_dir() -> Path:
    """Measured figures cached per device fingerprint (e.g. the measured roofline)."""
    path = data_dir() / "cache"
    _make_dir(path)
    return path


def roofline_cache() -> Path:
    return cache_dir() / "roofline.json"


def environment_lock() -> Path:
    """The default environment lock written by ``tutor doctor --lock``."""
    return data_dir() / "environment.lock.json"


def reports_dir() -> Path:
    """Bench reports and notebook exports written without an explicit path."""
    path = data_dir() / "reports"
    _make_dir(path)
    return path


def bundled_course() -> Path:
    """The course that ships with the tutor.

    A wheel carries it as ``tutor/_course``; a source checkout (editable install) has it at the repository root.
    """
    packaged = _PACKAGE_DIR / "_course"
    if (packaged / "lessons").is_dir():
        return packaged
    return _PACKAGE_DIR.parent


BUNDLED_PARTS = ("lessons", "exercises", "course.yaml")
"""What of :func:`bundled_course` is the course (a source checkout's root holds other folders too)."""


def is_bundled_file(path: Path) -> bool:
    """Whether ``path`` is one of the bundled course's own files (links followed): only those may define the
    bundled ids; a pack anywhere else, beside it included, cannot."""
    try:
        resolved = path.resolve()
        root = bundled_course().resolve()
    except (OSError, RuntimeError, ValueError):
        return False
    return any(resolved == root / part or resolved.is_relative_to(root / part) for part in BUNDLED_PARTS)
