"""SVG snapshots of the main screens (update with `pytest --snapshot-update` after checking the PNGs)."""

from __future__ import annotations

from pathlib import Path

from tests.support.pilot import settle
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
    """A lesson beside the telemetry panel, fed by a recorded (synthetic, labelled) RTX 5090 trace.

    The replay's clock is frozen after its first sample: the sampler reads the trace at once when the panel is shown
    and then only every hour, so the picture holds exactly the first recorded sample and never says "stale" (with
    the default 1 s interval a loaded machine took the screenshot after the second sample had landed)."""
    app = make_app(course=load_course(FIXTURE), store=ProgressStore(tmp_path / "p.sqlite3"), lang="en",
                   telemetry=REPLAY, telemetry_interval=3600.0)

    async def open_lesson(pilot) -> None:  # type: ignore[no-untyped-def]
        from tutor.ui.messages import OpenLesson
        from tutor.ui.widgets.telemetry_panel import TelemetryPanel

        app.post_message(OpenLesson("demo-l1"))

        def first_sample_shown() -> bool:
            panels = list(app.screen.query(TelemetryPanel))
            snapshot = panels[0].snapshot if panels else None
            return app.screen.id == "lesson-demo-l1" and snapshot is not None and bool(snapshot.samples)

        await settle(pilot, first_sample_shown, timeout=30.0)

    assert snap_compare(app, terminal_size=(140, 40), run_before=open_lesson)
