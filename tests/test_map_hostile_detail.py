"""The course map's detail pane shows a pack's one-line fields on one line and only a bounded preview of its long
texts (issue 28): a title with a line break forged a second Markdown heading there, and an 8,000-item list in a
lesson's summary took the map 47-97 s to draw."""

from __future__ import annotations

import time
from pathlib import Path

from textual.widgets import Tree

from tests.support.pilot import wait_for
from tutor.progress import ProgressStore
from tutor.ui.app import make_app
from tutor.ui.course_source import CourseSource
from tutor.ui.plain import PackMarkdown


def _pack(root: Path) -> Path:
    (root / "lessons").mkdir(parents=True)
    (root / "exercises").mkdir()
    items = "\\n".join(f"- {i % 10}" for i in range(8_000))  # 32,000 characters: within a text's 60,000
    (root / "lessons" / "l1.yaml").write_text(
        "format_version: 1\nid: l1\nlevel: lv\norder: 1\n"
        'title: {en: "Hello\\n\\n# ✓ C0 reached", es: "Hola\\n\\n# ✓ C0 reached"}\n'
        f'outcome: {{en: o, es: o}}\nsummary: {{en: "{items}", es: "{items}"}}\n'
        "sections:\n  - id: s1\n    title: {en: t, es: t}\n    body: {en: b, es: b}\n",
        encoding="utf-8",
    )
    return root


async def test_the_detail_pane_of_a_hostile_lesson_is_one_heading_and_a_bounded_preview(tmp_path: Path) -> None:
    source = CourseSource.scan(_pack(tmp_path / "pack"))
    app = make_app(course=source, store=ProgressStore(tmp_path / "p.sqlite3"), lang="en", telemetry="host")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.course_loaded)
        tree = app.screen.query_one(Tree)
        await wait_for(pilot, lambda: bool(tree.root.children and tree.root.children[0].children))
        lesson = tree.root.children[0].children[0]
        assert "\n" not in str(lesson.label.plain) and "⏎" in str(lesson.label.plain)
        started = time.monotonic()
        tree.move_cursor(lesson)
        await pilot.pause()
        detail = app.screen.query_one("#map-detail-text", PackMarkdown)
        await wait_for(pilot, lambda: "Hello" in detail.source)
        took = time.monotonic() - started
        source_text = detail.source
        headings = [line for line in source_text.splitlines() if line.startswith("#")]
        assert headings == ["# Hello⏎⏎# ✓ C0 reached"], headings  # one heading: the title, shown, not obeyed
        assert sum(line.startswith("- ") for line in source_text.splitlines()) == 40 and "…" in source_text
        assert took < 20, took  # a bound against freezing, not a speed check
