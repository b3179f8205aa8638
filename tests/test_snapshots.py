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


REPLAY = f"replay:{Path(__file__).parent / 'fixtures' / 'telemetry' / 'rtx5090_gemm_synthetic.jsonl'}"


def test_lesson_view_snapshot(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A lesson beside the telemetry panel, fed by a recorded (synthetic, labelled) RTX 5090 trace."""
    app = make_app(course=load_course(FIXTURE), store=ProgressStore(tmp_path / "p.sqlite3"), lang="en",
                   telemetry=REPLAY)

    async def open_lesson(pilot) -> None:  # type: ignore[no-untyped-def]
        from tutor.ui.messages import OpenLesson

        app.post_message(OpenLesson("demo-l1"))
        await pilot.pause(0.5)
        # under load the first replayed sample can come late: wait for it (at most 10 s) before the snapshot
        from tutor.ui.widgets.telemetry_panel import TelemetryPanel

        for _ in range(200):
            panels = list(app.screen.query(TelemetryPanel))
            if app.screen.id == "lesson-demo-l1" and panels and panels[0].snapshot is not None:
                break
            await pilot.pause(0.05)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=(140, 40), run_before=open_lesson)
