"""The tutor on the small bundled test course, as the shell tests open it."""

from __future__ import annotations

from pathlib import Path

from tutor.content import load_course
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp, make_app

FIXTURE = Path(__file__).parents[1] / "fixtures" / "course"


def build_app(tmp_path: Path, lang: str = "es") -> TutorApp:
    course = load_course(FIXTURE, require_translations=True)
    store = ProgressStore(tmp_path / "progress.sqlite3")
    return make_app(course=course, store=store, lang=lang, telemetry="host")  # type: ignore[arg-type]
