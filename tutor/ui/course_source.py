"""Loading the course for the TUI a part at a time, so the map draws at once whatever the course's size.

The file list is found first (cheap); the files are then parsed and validated in growing batches by a worker
thread, each batch with the loader's own :func:`~tutor.content.loader.load_files`, and merged into the app's
:class:`~tutor.content.Course` on the UI thread. The first lessons are on the map well before the last file is read.
Textual is not imported here: this is the plain part of the loading, tested on its own.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from tutor.content import Course, InvalidFile, load_course
from tutor.content.loader import MAX_COURSE_BYTES, load_files
from tutor.content.problems import Problem
from tutor.content.walk import CourseFile, walk_targets


@dataclass
class CourseSource:
    """A course folder and the files the loader will read from it."""

    root: Path
    files: list[CourseFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    """What the walk did not read (links out of the folder, too many files…) and files past the text budget."""

    @classmethod
    def scan(cls, root: Path) -> CourseSource:
        """The course files under ``root`` (listed with the loader's bounded walk, not read).

        The loader caps the text one load reads (:data:`MAX_COURSE_BYTES`); loaded in batches, the cap is kept for
        the course as a whole here: files past it (by their size on disk) are not read, and each says so."""
        if not root.is_dir():
            return cls(root)
        walk = walk_targets([root])
        files: list[CourseFile] = []
        problems = list(walk.problems)
        budget = MAX_COURSE_BYTES
        for item in walk.files:
            try:
                size = os.stat(item.path).st_size
            except OSError:
                size = 0  # the loader says what is wrong with it
            if budget <= 0:
                problems.append(Problem(item.path, 1, 1, f"the course holds more than {MAX_COURSE_BYTES // 2**20} "
                                        "MiB of text; this file was not read"))
                continue
            budget -= size
            files.append(item)
        return cls(root, files, problems)

    def unread(self) -> Course:
        """The files the walk did not read, as a part of the course (shown in the map like a file that failed)."""
        course = Course(root=self.root)
        course.invalid.extend(InvalidFile(p.path, (p,)) for p in self.problems)
        course.problems.extend(self.problems)
        return course

    def batches(self, first: int = 24, most: int = 400) -> Iterator[list[CourseFile]]:
        """The files in the loader's order, in batches that start small (the first lessons show at once) and grow."""
        size, i = first, 0
        while i < len(self.files):
            yield self.files[i : i + size]
            i += size
            size = min(most, size * 2)

    def load_batch(self, batch: list[CourseFile]) -> Course:
        """One batch loaded and validated as the loader does for a whole course (files in it checked together)."""
        return load_files(batch, root=self.root, require_translations=False)

    def load_in_parts(
        self, should_stop: Callable[[], bool] = lambda: False, *, helper_process: bool = True
    ) -> Iterator[tuple[Course, int]]:
        """Each batch loaded, with its number of files. The first in this thread (the map's first lessons at once);
        the rest in a helper process, so that parsing thousands of files never holds the UI thread's GIL."""
        batches = list(self.batches())
        if self.problems:
            yield self.unread(), 0
        if not batches:
            return
        yield self.load_batch(batches[0]), len(batches[0])
        if len(batches) == 1:
            return
        pool: ProcessPoolExecutor | None = None
        if helper_process and os.environ.get("TUTOR_LOAD_IN_THREAD") != "1":
            try:
                pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            except (OSError, ValueError, ImportError):  # no processes here: load in this thread
                pool = None
        if pool is None:
            for batch in batches[1:]:
                if should_stop():
                    return
                yield self.load_batch(batch), len(batch)
            return
        try:
            # One batch ahead: the process parses the next while this thread hands one to the UI (and no more, so
            # that a consumer that pauses pauses the parsing too).
            pending = [(1, pool.submit(_load_batch, self.root, batches[1]))]
            following = len(pending) + 1
            while pending:
                if should_stop():
                    return
                index, future = pending.pop(0)
                try:
                    part = future.result()
                except (BrokenProcessPool, OSError):  # the helper died: this batch is read here instead
                    part = self.load_batch(batches[index])
                if following < len(batches):
                    pending.append((following, pool.submit(_load_batch, self.root, batches[following])))
                    following += 1
                yield part, len(batches[index])
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def load_all(self) -> Course:
        """The whole course at once (what the headless commands use)."""
        return load_course(self.root, require_translations=False)


def _load_batch(root: Path, batch: list[CourseFile]) -> Course:
    """What the helper process runs: one batch loaded (module-level so that it can be pickled)."""
    return load_files(batch, root=root, require_translations=False)


def merge(into: Course, part: Course) -> None:
    """Add a loaded batch to the course: the first definition of an id wins, as in a whole-course load."""
    if into.info is None and part.info is not None:
        into.info = part.info
    for lesson_id, lesson in part.lessons.items():
        if lesson_id not in into.lessons and lesson_id not in into.exercises:
            into.lessons[lesson_id] = lesson
            into.sources[lesson_id] = part.sources[lesson_id]
    for exercise_id, exercise in part.exercises.items():
        if exercise_id not in into.exercises and exercise_id not in into.lessons:
            into.exercises[exercise_id] = exercise
            into.sources[exercise_id] = part.sources[exercise_id]
    into.invalid.extend(part.invalid)
    into.problems.extend(p for bad in part.invalid for p in bad.problems)
