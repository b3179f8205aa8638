"""At 80×24 the course map cuts a long lesson title with an ellipsis (issue 30 item 4), never silently: every row of
the tree fits its width, and a row that had to be cut ends in "…"."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Tree

from tests.support.pilot import quiet, wait_for
from tutor.content.loader import bundled
from tutor.i18n import Lang
from tutor.progress import ProgressStore
from tutor.ui.app import make_app


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_long_titles_end_in_an_ellipsis_at_80x24(lang: Lang, tmp_path: Path) -> None:
    app = make_app(course=bundled(), store=ProgressStore(tmp_path / "p.sqlite3"), lang=lang, telemetry=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query(Tree)) and app.screen.query_one(Tree).last_line > 5)
        tree = app.screen.query_one(Tree)
        await quiet(pilot)
        width = tree.scrollable_content_region.width
        assert tree.virtual_size.width <= width  # nothing runs past the edge to be scrolled to
        rows = []
        for y in range(min(tree.last_line + 1, tree.scrollable_content_region.height)):
            strip = tree.render_line(y)
            rows.append("".join(segment.text for segment in strip))
    titles = [r.rstrip() for r in rows if r.strip()]
    assert any(r.endswith("…") for r in titles), titles  # some bundled titles are longer than 80×24 leaves
    for title in bundled().lessons.values():
        full = title.title.get(lang)
        for r in titles:
            # a row holding the start of a long title either holds all of it or ends in …
            if full[:12] in r and full not in r:
                assert r.endswith("…"), r
