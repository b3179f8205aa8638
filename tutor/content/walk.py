"""Finding a course's files without trusting its folder: bounded, inside the course, never through a link out.

A lesson pack is a folder anyone can write. Walking it must not follow ``lessons -> /`` across the machine, loop
on a link to its own parent, or spend minutes in a folder of a million files: links are followed only when they
resolve inside the course folder, each real folder is visited once, and the number of entries, course files and
folder levels is capped. What is skipped is reported as a located problem on the entry (``path:1:1``), so
``tutor lessons check`` says why a file was not read. Reading each file is :func:`tutor.untrusted.read_bounded`'s
job (regular files only, size checked first).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from tutor.content.problems import Problem
from tutor.content.yaml_source import has_control
from tutor.i18n.message import Message
from tutor.untrusted import clean_line

COURSE_FILE = "course.yaml"
YAML_SUFFIXES = (".yaml", ".yml")
MAX_FILES = 20_000
"""Course files (``*.yaml``) read from one target."""
MAX_ENTRIES = 200_000
"""Folder entries looked at (of any kind) in one target."""
MAX_FOLDER_DEPTH = 8
"""Folder levels below ``lessons/`` or ``exercises/`` (or below a folder given to ``lessons check``)."""

_HINTS = {"lessons": "lesson", "exercises": "exercise"}


class CourseFile(NamedTuple):
    """One file to load: its path, the kind its folder implies, and the folder it must stay inside."""

    path: Path
    hint: str | None
    root: Path | None = None


@dataclass
class Walk:
    files: list[CourseFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    entries: int = 0
    stopped: bool = False
    visited: set[str] = field(default_factory=set)
    """Real folders already read (or the course folder itself): a link back to one is not followed again."""


def _inside(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def _is_yaml(name: str) -> bool:
    return name.endswith(YAML_SUFFIXES)


def _scan(start: Path, hint: str | None, root: Path, walk: Walk) -> None:
    """Add the course files under ``start`` (a folder inside ``root``) to ``walk``."""
    root_real = os.path.realpath(root)
    start_real = os.path.realpath(start)
    if not _inside(start_real, root_real):
        walk.problems.append(Problem.of(start, 1, 1, Message.of("file.link_outside")))
        return
    visited = walk.visited
    visited.add(root_real)
    stack: list[tuple[Path, str, int]] = [(start, start_real, 0)]
    while stack and not walk.stopped:
        folder, real, depth = stack.pop()
        if real in visited:
            continue
        visited.add(real)
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            walk.problems.append(Problem.of(
                folder, 1, 1, Message.of("problem.folder_unreadable", reason=exc.strerror or type(exc).__name__)
            ))
            continue
        folders: list[tuple[Path, str, int]] = []
        for entry in entries:
            walk.entries += 1
            if walk.entries > MAX_ENTRIES:
                walk.problems.append(
                    Problem.of(root, 1, 1, Message.of("problem.too_many_entries", limit=MAX_ENTRIES))
                )
                walk.stopped = True
                return
            path = Path(entry.path)
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir()  # follows a link: checked below
            except OSError:
                continue
            if not (is_dir or _is_yaml(entry.name)):
                continue
            if has_control(entry.name) or "\n" in entry.name or "\t" in entry.name:
                # reported under its cleaned name (a line break shown as ⏎): the raw one would reach a terminal
                shown = path.with_name(clean_line(entry.name) or "?")
                walk.problems.append(Problem.of(shown, 1, 1, Message.of("problem.name_control")))
                continue
            entry_real = os.path.realpath(entry.path) if is_link else os.path.join(real, entry.name)
            if is_link and not _inside(entry_real, root_real):
                walk.problems.append(
                    Problem.of(path, 1, 1, Message.of("file.link_outside"))
                )
                continue
            if is_dir:
                if depth + 1 > MAX_FOLDER_DEPTH:
                    walk.problems.append(
                        Problem.of(path, 1, 1, Message.of("problem.too_deep_folders", limit=MAX_FOLDER_DEPTH))
                    )
                elif entry_real not in visited:
                    folders.append((path, entry_real, depth + 1))
                continue
            if len(walk.files) >= MAX_FILES:
                walk.problems.append(
                    Problem.of(path, 1, 1, Message.of("problem.too_many_files", limit=MAX_FILES))
                )
                walk.stopped = True
                return
            walk.files.append(CourseFile(path, hint, root))
        stack.extend(reversed(folders))  # depth first, in name order


def walk_targets(targets: Iterable[Path]) -> Walk:
    """The course files under ``targets`` (files or folders), with a problem for each thing not read.

    A folder holding ``lessons/`` or ``exercises/`` is a course: its ``course.yaml`` and the files under those two
    folders. Any other folder: every YAML file under it. A file: itself (the person named it; it is still read
    only if it is a regular file of bounded size).
    """
    walk = Walk()
    for target in targets:
        if not target.is_dir():
            walk.files.append(CourseFile(target, _HINTS.get(target.parent.name)))
            continue
        subs = [(target / sub, hint) for sub, hint in _HINTS.items() if os.path.lexists(target / sub)]
        if subs:
            if os.path.lexists(target / COURSE_FILE):
                walk.files.append(CourseFile(target / COURSE_FILE, "course", target))
            for sub, hint in subs:
                if sub.is_dir() or sub.is_symlink():
                    _scan(sub, hint, target, walk)
        else:
            _scan(target, _HINTS.get(target.name), target, walk)
        walk.entries = 0
        walk.stopped = False
        walk.visited = set()
    return walk
