"""The exercise screen's words that are not a widget's: the setup lines, the device, the first run's roofline
note, and which exercise comes next."""

from __future__ import annotations

from typing import Any

from textual.content import Content

from tutor.content import Course, Exercise
from tutor.grading.units import format_value
from tutor.i18n import Lang, t
from tutor.i18n.message import Message as Said
from tutor.measure.phases import is_roofline
from tutor.practice.sizing import setup_line
from tutor.telemetry import TelemetrySnapshot
from tutor.ui.plain import plain, styled


def device_text(device: str, snapshot: TelemetrySnapshot | None, lang: Lang) -> str:
    """The device a measurement runs on, as the telemetry sees it (a GPU's name, the CPU, or "auto")."""
    if device == "cpu":
        return "CPU"
    gpus = [d for d in snapshot.devices if d.kind != "host"] if snapshot is not None else []
    if gpus:
        return t("ex.device_gpu", lang, name=gpus[0].name)
    if snapshot is not None:
        return t("ex.device_cpu_only", lang)
    return t("ex.device_auto", lang)


def setup_text(exercise: Exercise, pass_number: int, device: str, lang: Lang) -> Content:
    """What the exercise measures, on which device, against which target and capacity (pack text as plain)."""
    ex = exercise
    lines: list[Content] = []
    field = "[b]$label:[/b] $value"
    call = ex.measure
    if call is not None:
        what = call.name or call.op
        params = ", ".join(f"{k}={v}" for k, v in call.params.items())
        lines.append(styled(field, label=t("ex.workload", lang), value=f"{what}({params})"))
        lines.append(styled(field, label=t("ex.device", lang), value=device))
        setup = setup_line(ex, lang)
        if setup:
            lines.append(styled("[i]$setup[/i]", setup=setup))
    else:
        lines.append(plain(t("ex.nothing_measured", lang)))
    if ex.target is not None:
        lines.append(styled(field, label=t("ex.target", lang), value=ex.target.get(lang)))
    if ex.capacity_gb is not None:
        lines.append(styled(field, label=t("ex.capacity", lang), value=format_value(ex.capacity_gb, "GB")))
    if pass_number > 1:
        lines.append(styled("[i]$text[/i]", text=t("ex.no_hints_pass2", lang)))
    return Content("\n").join(lines)


def hints_text(exercise: Exercise, shown: int, lang: Lang) -> Content:
    """The hints shown so far, numbered out of all of them."""
    total = len(exercise.hints)
    return Content("\n").join(
        styled("[b]$label:[/b] $hint", label=t("ex.hint_n", lang, n=i + 1, total=total), hint=h.get(lang))
        for i, h in enumerate(exercise.hints[:shown]))


def roofline_note(said: Said, lang: Lang) -> str | None:
    """What the first measurement on a machine is doing while it measures the roofline (the engine says so with a
    roofline phase only then; a cached roofline is not measured again), else None."""
    return t("ex.roofline_first", lang) if is_roofline(said) else None


def next_pending_exercise(course: Course, marks: Any, current: str) -> str | None:
    """The id of the first exercise after ``current`` in course order (wrapping round) that is not passed."""
    order = [ex.id for lesson in course.ordered_lessons() for ex in course.exercises_of(lesson)]
    if current in order:
        i = order.index(current)
        order = order[i + 1:] + order[:i]
    return next((eid for eid in order if marks.exercise(eid) != "✓"), None)
