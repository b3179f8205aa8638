"""The palette finds the course's entries through the registry the app fills (issue 29 item 1), not by asking
whether the app is a TutorApp: an entry registered there is offered, found by a search and run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.command import CommandList, CommandPalette

from tests.support.exercise import app_for
from tests.support.pilot import wait_for
from tutor.ui.palette import Command, TutorPalette


async def _search(pilot: Any, app: Any, text: str) -> CommandList:
    """From the map, open the palette and type ``text``: the palette's list of hits."""
    await wait_for(pilot, lambda: app.screen.id == "course-map")
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(app.screen, TutorPalette))
    await pilot.press(*text)
    return app.screen.query_one(CommandList)


async def test_an_entry_registered_with_the_app_is_found_and_run(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    ran: list[str] = []
    app.palette_commands.register(lambda: [Command("Zebra [b]drill[/b]", "a registered entry",
                                                   lambda: ran.append("zebra"))])
    async with app.run_test(size=(120, 40)) as pilot:
        options = await _search(pilot, app, "zebra")
        await wait_for(pilot, lambda: any("Zebra [b]drill[/b]" in str(options.get_option_at_index(i).prompt)
                                          for i in range(options.option_count)))
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: ran == ["zebra"])  # and the name was shown literally, markup and all
        assert not CommandPalette.is_open(app)


def test_the_app_registers_every_lesson_and_every_exercise_of_its_course(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    names = [c.name for c in app.palette_commands.commands()]
    lessons = app.course.ordered_lessons()
    exercises = [e for lesson in lessons for e in app.course.exercises_of(lesson)]
    assert exercises and len(names) == len(lessons) + len(exercises)


async def test_the_palette_finds_an_exercise_by_its_id_and_opens_it(tmp_path: Path) -> None:
    """Issue 30 item 7: the palette could find lessons, not exercises."""
    from tutor.ui.screens.exercise import ExerciseScreen

    app = app_for(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        options = await _search(pilot, app, "t-copy-gbs")
        await wait_for(pilot, lambda: options.option_count > 0)
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ExerciseScreen))
        assert app.screen.exercise.id == "t-copy-gbs"  # type: ignore[attr-defined]
