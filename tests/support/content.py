"""A one-lesson course with one measured exercise, as YAML texts, and a writer for courses built on the fly."""

from __future__ import annotations

from pathlib import Path

LESSON = """\
format_version: 1
id: demo-l1
level: demo
order: 1
title: {es: "Uno", en: "One"}
outcome: {es: "Sabes", en: "You know"}
sections:
  - id: intro
    title: {es: "Intro", en: "Intro"}
    body: {es: "# Hola", en: "# Hello"}
exercises: [demo-l1-copy]
"""

EXERCISE = """\
format_version: 1
id: demo-l1-copy
lesson: demo-l1
kind: bound
title: {es: "Copia", en: "Copy"}
prompt: {es: "¿Memoria o cómputo?", en: "Memory or compute?"}
measure: {op: workload, name: copy, params: {n: 1048576}}
explanation: {es: "Movió {achieved_gbs:.1f} GB/s", en: "It moved {achieved_gbs:.1f} GB/s"}
"""


def write_course(root: Path, lessons: dict[str, str], exercises: dict[str, str]) -> Path:
    (root / "lessons").mkdir(parents=True)
    (root / "exercises").mkdir()
    for name, text in lessons.items():
        (root / "lessons" / name).write_text(text, encoding="utf-8")
    for name, text in exercises.items():
        (root / "exercises" / name).write_text(text, encoding="utf-8")
    return root
