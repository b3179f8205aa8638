"""The learner's guess on the reveal's roofline says what it says (issue 30 item 3): a "compute-bound" choice is not
a point drawn at the compute peak above the memory roof, and a GB/s guess is drawn as the roof it would make (a
dotted slope-1 line with its legend), not as a point."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from tests.support.exercise import fake_measure
from tests.support.pilot import wait_for
from tutor.content import load_course
from tutor.progress import ProgressStore
from tutor.ui.app import make_app
from tutor.ui.chart_geometry import is_braille
from tutor.ui.screens.exercise import ExerciseScreen
from tutor.ui.widgets.roofline_chart import RooflineChart

FIXTURES = Path(__file__).parent / "fixtures"


async def _revealed(tmp_path: Path, exercise: str, keys: tuple[str, ...], number: str | None = None) -> RooflineChart:
    app = make_app(course=load_course(FIXTURES / "exercise_course"), store=ProgressStore(tmp_path / "p.sqlite3"),
                   lang="en", telemetry=None)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = ExerciseScreen(app.session, app.course.exercises[exercise], measure=fake_measure)
        app.push_screen(screen)
        await wait_for(pilot, lambda: app.screen is screen)
        if number is not None:
            await wait_for(pilot, lambda: bool(screen.query("#ex-number")))
            screen.query_one("#ex-number", Input).value = number
        await pilot.press(*keys)
        await wait_for(pilot, lambda: screen.state == "revealed")
        chart = screen.query_one("#ex-chart", RooflineChart)
        await pilot.pause()
        return chart


async def test_a_bound_choice_is_not_a_point_above_the_roof(tmp_path: Path) -> None:
    chart = await _revealed(tmp_path, "t-copy-bound", ("down", "enter", "ctrl+l", "ctrl+r"))  # "compute"
    assert [p.marker for p in chart.points] == ["●"]  # the workload only
    canvas, _area = chart.canvas(100, 20)
    assert not canvas.find("x")


async def test_a_bandwidth_guess_is_drawn_as_its_roof(tmp_path: Path) -> None:
    chart = await _revealed(tmp_path, "t-copy-gbs", ("ctrl+l", "ctrl+r"), number="50")
    assert chart.guess_bandwidth is not None and chart.guess_bandwidth[0] == 50.0
    assert [p.marker for p in chart.points] == ["●"]
    canvas, area = chart.canvas(100, 20)
    magenta = [(c, r) for r in range(area.top, area.bottom + 1) for c in range(area.left, area.right + 1)
               if is_braille(canvas.char_at(c, r)) and canvas.styles[r][c] == "magenta"]
    assert len(magenta) >= 5
    assert any("your guess" in label for _m, label, _s in chart.legend_entries())
