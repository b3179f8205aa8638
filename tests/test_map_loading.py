"""A course of hundreds of lessons: the map draws before the course has loaded, fills in, and stays usable.

``bench/big_course.py`` measures the same with 5,000 lessons; this keeps a small size so the suite stays quick.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.widgets import Markdown, Tree

from tests.fixtures.big_course import write_course
from tutor.progress import ProgressStore
from tutor.ui.app import make_app
from tutor.ui.course_source import CourseSource, merge

N = 300


def _lesson_labels(tree: Tree) -> list[str]:  # type: ignore[type-arg]
    return [str(lesson.label.plain) for level in tree.root.children for lesson in level.children]


def test_batches_cover_every_file_once_and_start_small(tmp_path: Path) -> None:
    source = CourseSource.scan(write_course(tmp_path / "course", 40))
    batches = list(source.batches(first=8, most=32))
    assert [len(b) for b in batches] == [8, 16, 32, 25]
    assert [f for b in batches for f in b] == source.files
    whole = source.load_all()
    from tutor.content import Course

    course = Course(root=source.root)
    for batch in batches:
        merge(course, source.load_batch(batch))
    assert course.lessons.keys() == whole.lessons.keys() and course.exercises.keys() == whole.exercises.keys()
    assert course.info == whole.info


async def test_the_map_draws_at_once_and_fills_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = write_course(tmp_path / "course", N)
    # Batches read in this thread, each a little slower than a loaded machine's, so "before the last file" shows.
    monkeypatch.setenv("TUTOR_LOAD_IN_THREAD", "1")
    read = CourseSource.load_batch

    def slow(self: CourseSource, batch: list) -> object:  # type: ignore[type-arg]
        time.sleep(0.1)
        return read(self, batch)

    monkeypatch.setattr(CourseSource, "load_batch", slow)
    source = CourseSource.scan(root)
    assert len(source.files) == 2 * N + 1
    app = make_app(course=source, store=ProgressStore(tmp_path / "p.sqlite3"), lang="en", telemetry="host")
    started = time.monotonic()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        tree = app.screen.query_one(Tree)
        assert app.screen.id == "course-map"
        # the first lessons are on the map long before the last file is read
        while not _lesson_labels(tree):
            await pilot.pause(0.05)
            assert time.monotonic() - started < 10
        first_seen = len(_lesson_labels(tree))
        # the batches are slowed above, so the first look always comes before the last file, and the map says so
        assert first_seen < N and "loading the course" in (app.screen.sub_title or "")
        while not app.course_loaded:
            await pilot.pause(0.1)
            assert time.monotonic() - started < 60
        await pilot.pause()
        labels = _lesson_labels(tree)
        assert len(labels) == N and "○ Lesson 0" in labels and f"○ Lesson {N - 1}" in labels
        assert app.screen.sub_title is None and app.sub_title  # the app's own subtitle is back
        # lessons are drawn without their children until opened; expanding one adds them
        first = tree.root.children[0].children[0]
        assert not first.children
        tree.move_cursor(first)
        await pilot.press("space")
        await pilot.pause()
        assert [str(c.label.plain) for c in first.children] == ["Theory", "Exercises"]
        # a section opens its lesson at once
        await pilot.press("down", "down")
        assert str(tree.cursor_node.label.plain) == "· Section 0"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.id == "lesson-l00000"
        assert "Text of lesson 0." in app.screen.query_one("#lesson-text", Markdown).source
        await pilot.press("escape")
        await pilot.pause()
        # back on the map: the marks are redrawn, the lesson is still expanded and the cursor where it was
        assert str(tree.cursor_node.label.plain) == "✓ Section 0"
        lesson = tree.root.children[0].children[0]
        assert str(lesson.label.plain) == "◐ Lesson 0" and lesson.is_expanded


def test_an_empty_folder_is_still_one_line(tmp_path: Path) -> None:
    from tutor.cli import main

    (tmp_path / "empty").mkdir()
    assert main(["--course", str(tmp_path / "empty")]) == 2
