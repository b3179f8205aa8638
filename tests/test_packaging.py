"""A wheel install (not only the editable one) carries the bundled course and finds it."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_wheel_carries_the_course_and_finds_it(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", str(REPO),
         "-w", str(tmp_path)],
        check=True, capture_output=True, timeout=300,
    )
    wheel = next(tmp_path.glob("gpu_tutor-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "tutor/_course/course.yaml" in names
    lessons = [n for n in names if n.startswith("tutor/_course/lessons/") and n.endswith(".yaml")]
    assert len(lessons) == len(list((REPO / "lessons").glob("*.yaml")))
    assert any(n.endswith(".tcss") for n in names), "the stylesheets must ship too"
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    env = {**os.environ, "PYTHONPATH": str(target)}
    code = "from tutor import paths; from tutor.content import load_course; c = load_course(paths.bundled_course());" \
           " print(paths.bundled_course()); print(len(c.lessons), len(c.errors))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                         check=True, timeout=60)
    where, counts = out.stdout.strip().splitlines()
    assert where == str(target / "tutor" / "_course")
    n_lessons, n_errors = map(int, counts.split())
    assert n_lessons == len(lessons) and n_errors == 0
