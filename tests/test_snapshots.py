"""SVG snapshots of the main screens (update with `pytest --snapshot-update` after checking the PNGs)."""

from __future__ import annotations

from pathlib import Path

from tutor.content import load_course
from tutor.progress import ProgressStore
from tutor.ui.app import make_app

FIXTURE = Path(__file__).parent / "fixtures" / "course"


def test_course_map_snapshot(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app(course=load_course(FIXTURE), store=ProgressStore(tmp_path / "p.sqlite3"), lang="es",
                   telemetry="host")
    assert snap_compare(app, terminal_size=(120, 36))
