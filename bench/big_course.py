"""How the TUI copes with a course of thousands of lessons (issue 10, item 9).

Generates a course (default 5,000 lessons, each with 3 sections and one exercise: 10,001 files), then, in a
headless app, measures:

* map paint: from the app's start to the first lessons drawn in the map;
* course loaded: until the last file has been read and the map holds every lesson;
* lesson open: from the key (Enter on a lesson in the map) to the lesson screen showing its text, once while the
  course is still loading and once after;
* for comparison, loading the whole course at once (what the TUI did before).

Usage: ``.venv/bin/python bench/big_course.py [--lessons N] [--keep DIR]``
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fixtures.big_course import write_course
from tutor.content import load_course
from tutor.progress import ProgressStore
from tutor.ui.app import make_app
from tutor.ui.course_source import CourseSource


async def measure(root: Path, data: Path) -> dict[str, float]:
    from textual.widgets import Markdown, Tree

    figures: dict[str, float] = {}
    t0 = time.perf_counter()
    source = CourseSource.scan(root)
    figures["scan_s"] = time.perf_counter() - t0
    app = make_app(course=source, store=ProgressStore(data / "p.sqlite3"), lang="en", telemetry="host")
    async with app.run_test(size=(120, 40)) as pilot:
        tree = app.screen.query_one(Tree)

        def lessons_drawn() -> int:
            return sum(len(level.children) for level in tree.root.children)

        while lessons_drawn() == 0:
            await asyncio.sleep(0.005)
        figures["map_paint_s"] = time.perf_counter() - t0
        figures["lessons_at_paint"] = lessons_drawn()

        async def open_lesson() -> float:
            tree.move_cursor(tree.root.children[0].children[0])
            await pilot.pause()
            start = time.perf_counter()
            await pilot.press("enter")
            while not (app.screen.id or "").startswith("lesson-"):
                await asyncio.sleep(0.005)
            while not app.screen.query_one("#lesson-text", Markdown).source:
                await asyncio.sleep(0.005)
            await pilot.pause()
            took = time.perf_counter() - start
            await pilot.press("escape")
            await pilot.pause()
            return took

        figures["lesson_open_while_loading_s"] = await open_lesson()
        while not app.course_loaded:
            await asyncio.sleep(0.02)
        await pilot.pause()
        figures["course_loaded_s"] = time.perf_counter() - t0
        figures["lessons_in_map"] = lessons_drawn()
        figures["lesson_open_s"] = await open_lesson()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lessons", type=int, default=5000)
    parser.add_argument("--keep", type=Path, default=None, help="write the course here and keep it")
    parser.add_argument("--no-eager", action="store_true", help="skip timing a whole-course load")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp) / "course"
        if not (root / "lessons").is_dir():
            write_course(root, args.lessons)
        figures = asyncio.run(measure(root, Path(tmp)))
        if not args.no_eager:
            t0 = time.perf_counter()
            load_course(root, require_translations=False)
            figures["whole_course_load_s"] = time.perf_counter() - t0
    print(f"course: {args.lessons:,} lessons, {2 * args.lessons + 1:,} files")
    for name, value in figures.items():
        print(f"  {name:<30} {value:10.3f}" if isinstance(value, float) else f"  {name:<30} {value:10,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
