"""How long a large course takes to check and to load (issue 10, scale: ``lessons check`` under 10 s for 5,000
lessons).

    .venv/bin/python bench/content_scale.py [--lessons 5000] [--sections 1]

Builds a course of N lessons (each with one exercise) in a temporary folder, then times, best of three:
``tutor lessons check DIR`` as a user runs it (a fresh process, start-up included); ``load_course(DIR)``
in-process (the full, validated load).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LESSON = """\
format_version: 1
id: {id}
level: {level}
order: {order}
title: {{es: "Lección {order}", en: "Lesson {order}"}}
outcome: {{es: "Sabes medir", en: "You can measure"}}
sections:
{sections}exercises: [{id}-copy]
"""

SECTION = """\
  - id: s{i}
    title: {{es: "Parte {i}", en: "Part {i}"}}
    body:
      es: |
        # Parte {i}
        Un párrafo de teoría con **negrita** y una fórmula: intensidad = FLOP / bytes.
      en: |
        # Part {i}
        A paragraph of theory with **bold** and a formula: intensity = FLOP / bytes.
"""

EXERCISE = """\
format_version: 1
id: {id}-copy
lesson: {id}
kind: bound
title: {{es: "Copia", en: "Copy"}}
prompt: {{es: "¿Memoria o cómputo?", en: "Memory or compute?"}}
measure: {{op: workload, name: copy, params: {{n: 1048576}}}}
explanation: {{es: "Movió {{achieved_gbs:.1f}} GB/s", en: "It moved {{achieved_gbs:.1f}} GB/s"}}
"""


def build(root: Path, lessons: int, sections: int) -> int:
    (root / "lessons").mkdir(parents=True)
    (root / "exercises").mkdir()
    body = "".join(SECTION.format(i=i) for i in range(sections))
    size = 0
    for n in range(lessons):
        lesson_id = f"b{n:05d}"
        text = LESSON.format(id=lesson_id, level=f"lv{n // 500}", order=n % 10_000, sections=body)
        (root / "lessons" / f"{lesson_id}.yaml").write_text(text, encoding="utf-8")
        (root / "exercises" / f"{lesson_id}.yaml").write_text(EXERCISE.format(id=lesson_id), encoding="utf-8")
        size += len(text.encode()) + len(EXERCISE.format(id=lesson_id).encode())
    return size


def best(fn: object, repeats: int = 3) -> str:
    """Best wall time and best CPU time (this process and its children) of ``repeats`` runs: on a shared machine
    the CPU time is the steadier figure."""
    walls, cpus = [], []
    for _ in range(repeats):
        start, cpu = time.perf_counter(), _cpu()
        fn()  # type: ignore[operator]
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
    return f"{min(walls):5.2f} s wall, {min(cpus):5.2f} s CPU"


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lessons", type=int, default=5000)
    parser.add_argument("--sections", type=int, default=1, help="theory sections per lesson")
    args = parser.parse_args()

    from tutor.content import load_course
    from tutor.content.yaml_source import FAST_PARSER

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "course"
        size = build(root, args.lessons, args.sections)
        print(f"course: {args.lessons} lessons + {args.lessons} exercises, {size / 2**20:.1f} MiB of YAML; "
              f"libyaml: {'yes' if FAST_PARSER else 'no'}")

        def check() -> None:
            result = subprocess.run([sys.executable, "-m", "tutor", "lessons", "check", str(root)],
                                    capture_output=True, text=True)
            last = result.stdout.strip().splitlines()[-1]
            assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
            assert last == f"{args.lessons} lessons, {args.lessons} exercises, no problems", last

        def full() -> None:
            assert len(load_course(root).lessons) == args.lessons

        print(f"tutor lessons check (a fresh process): {best(check)}   (target: under 10 s)")
        print(f"load_course (full validation):         {best(full)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
