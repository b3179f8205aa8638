"""The course map's detail pane: what a highlighted node of the map says (a level's lessons, a lesson's summary
and outcome, the start of a section, a lab's goal, an exercise's prompt, a file that did not load)."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.content import Course, InvalidFile
from tutor.i18n import Lang, format_number, t
from tutor.untrusted import clean_line

DETAIL_LESSONS = 12
"""How many of a level's lessons its detail lists."""
DETAIL_LINES = 40
"""Lines of a summary, a prompt or a goal the map's detail pane shows: a preview, bounded, so a pack's 8,000-item
list (each item several widgets) cannot freeze the map."""
DETAIL_CHARS = 4_000


def _preview(text: str) -> str:
    """The start of a pack's Markdown text for the detail pane: at most :data:`DETAIL_LINES` lines and
    :data:`DETAIL_CHARS` characters, an ellipsis where it was cut."""
    lines = text.split("\n")
    cut = "\n".join(lines[:DETAIL_LINES])
    if len(cut) > DETAIL_CHARS:
        cut = cut[:DETAIL_CHARS]
    return cut + "\n\n…" if cut != text else text



@dataclass(frozen=True)
class MapEntry:
    """What a node of the map stands for."""

    kind: str  # level, lesson, group, section, lab, exercise, invalid
    lesson_id: str | None = None
    item_id: str | None = None
    invalid: InvalidFile | None = None



def detail_markdown(course: Course, entry: MapEntry | None, lang: Lang) -> str:
    """The detail pane's Markdown for a node of the map (pack text as literal text, previews bounded)."""
    if entry is None or entry.kind in ("root",):
        return f"{t('map.empty', lang)}\n\n{t('map.hint', lang)}"
    if entry.kind == "invalid" and entry.invalid is not None:
        lines = "\n".join(f"- `{p.format(lang)}`" for p in entry.invalid.problems[:DETAIL_LESSONS])
        path = clean_line(entry.invalid.path)
        return f"## ⚠ {t('invalid.title', lang)}\n\n`{path}`\n\n{t('invalid.body', lang)}\n\n{lines}"
    if entry.kind == "level" and entry.item_id:
        level = next(lv for lv in course.levels if lv.id == entry.item_id)
        summary = _preview(level.summary.get(lang)) if level.summary else ""
        in_level = course.lessons_in(level.id)
        # A Markdown list item is several widgets: list a few lessons, not a thousand.
        lessons = "\n".join(f"- {clean_line(ls.title.get(lang))}" for ls in in_level[:DETAIL_LESSONS])
        if len(in_level) > DETAIL_LESSONS:
            more = format_number(len(in_level) - DETAIL_LESSONS, lang, ",d")
            lessons += f"\n- {t('map.more_lessons', lang, n=more)}"
        return f"# {clean_line(level.title.get(lang))}\n\n{summary}\n\n{lessons}\n\n{t('map.hint', lang)}"
    lesson = course.lessons.get(entry.lesson_id or "")
    if lesson is None:
        return ""
    if entry.kind == "exercise" and entry.item_id in course.exercises:
        ex = course.exercises[entry.item_id]
        return f"## {clean_line(ex.title.get(lang))}\n\n{_preview(ex.prompt.get(lang))}"
    if entry.kind == "lab" and entry.item_id:
        lab = next(lb for lb in lesson.labs if lb.id == entry.item_id)
        return f"## {clean_line(lab.title.get(lang))}\n\n{_preview(lab.goal.get(lang))}"
    if entry.kind == "section" and entry.item_id:
        section = next(s for s in lesson.sections if s.id == entry.item_id)
        first = section.body.get(lang).strip().split("\n\n")
        preview = next((p for p in first if not p.lstrip().startswith("#")), "")
        return f"## {clean_line(section.title.get(lang))}\n\n{_preview(preview)}"
    summary = _preview(lesson.summary.get(lang)) if lesson.summary else ""
    outcome = _preview(lesson.outcome.get(lang))
    return (
        f"# {clean_line(lesson.title.get(lang))}\n\n{summary}\n\n**{t('lesson.outcome', lang)}:** {outcome}"
        f"\n\n{t('map.hint', lang)}"
    )
