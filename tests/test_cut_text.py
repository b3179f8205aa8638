"""Cut text shows it and can be shown whole (issue 30 item 4), at 80×24 on the bundled course: a lesson's formula
(a code block) ends in … where it does not fit and ``z`` shows it whole; a table with a cut cell, and a map title
cut with …, likewise; ``z`` is in the footer and the ``?`` help, in es and en."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Label, Static

from tests.support.pilot import quiet, wait_for
from tutor.content import load_course
from tutor.paths import bundled_course
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp, make_app
from tutor.ui.messages import OpenLesson

SIZE = (80, 24)
FORMULA = "21 760 cores × 2 FLOP/ciclo (una FMA) × 2,407e9 ciclos/s ≈ 104,8e12 FLOP/s"


@pytest.fixture(scope="module")
def course():  # type: ignore[no-untyped-def]
    return load_course(bundled_course())


def _app(tmp_path: Path, course: object, lang: str = "es") -> TutorApp:
    return make_app(course=course, store=ProgressStore(tmp_path / "p.sqlite3"), lang=lang,  # type: ignore[arg-type]
                    telemetry=None, resume=False)


def _whole(app: TutorApp) -> str:
    assert app.screen.id == "whole-text"
    body = app.screen.query_one("#whole-body", Static)
    return str(body.content)


def _all_on_screen(app: TutorApp) -> bool:
    """Every line of the whole view is inside the view (nothing cut, nothing left to scroll to)."""
    scroll = app.screen.query_one("#whole-scroll")
    return scroll.max_scroll_y == 0 and scroll.max_scroll_x == 0


async def test_a_long_formula_ends_in_an_ellipsis_and_z_shows_it_whole(tmp_path: Path, course: object) -> None:
    from tutor.ui.widgets.cut_text import CutFence

    app = _app(tmp_path, course)
    async with app.run_test(size=SIZE) as pilot:
        app.post_message(OpenLesson("n0-l1", "machine"))
        await wait_for(pilot, lambda: app.screen.id == "lesson-n0-l1")
        await wait_for(pilot, lambda: any(FORMULA in f.code for f in app.screen.query(CutFence)))
        fence = next(f for f in app.screen.query(CutFence) if FORMULA in f.code)
        main = app.screen.query_one("#lesson-main")
        # the learner pages down until the formula is on screen
        for _ in range(40):
            if fence.region.overlaps(main.region) and fence.region.height:
                break
            await pilot.press("pagedown")
            await quiet(pilot)
        shown = str(fence.query_one("#code-content", Label).content)
        line = next(li for li in shown.splitlines() if li.strip().startswith("21 760"))
        assert line.rstrip().endswith("…") and FORMULA not in shown  # cut, and it says so
        assert fence.has_class("-cut")
        await pilot.press("z")
        await wait_for(pilot, lambda: app.screen.id == "whole-text")
        await quiet(pilot)
        assert FORMULA in _whole(app)
        assert _all_on_screen(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "lesson-n0-l1")


async def test_a_table_with_a_cut_cell_is_shown_whole_row_by_row(tmp_path: Path, course: object) -> None:
    from tutor.ui.widgets.cut_text import CutTable

    app = _app(tmp_path, course, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        app.post_message(OpenLesson("n0-l1", "memory-hierarchy"))
        await wait_for(pilot, lambda: app.screen.id == "lesson-n0-l1")
        await wait_for(pilot, lambda: any(t.is_cut for t in app.screen.query(CutTable)))
        table = next(t for t in app.screen.query(CutTable) if t.is_cut)
        table.focus()  # Tab reaches it; here focused directly
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen.id == "whole-text")
        whole = _whole(app)
        assert "Who sees it: one thread" in whole and "Level: Registers" in whole


async def test_a_cut_map_title_is_shown_whole(tmp_path: Path, course: object) -> None:
    from tutor.ui.widgets.map_tree import MapTree

    app = _app(tmp_path, course)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.id == "course-map")
        await quiet(pilot)
        tree = app.screen.query_one(MapTree)
        title = "L1 — La GPU como máquina física: roofline"
        for _ in range(10):  # down the tree to the lesson, as the learner would
            node = tree.cursor_node
            if node is not None and title in node.label.plain:
                break
            await pilot.press("down")
        assert tree.cursor_node is not None and tree.label_is_cut(tree.cursor_node)
        line = tree.render_line(tree.cursor_line - tree.scroll_offset.y)
        assert "…" in "".join(s.text for s in line) and title not in "".join(s.text for s in line)
        await pilot.press("z")
        await wait_for(pilot, lambda: app.screen.id == "whole-text")
        assert title in _whole(app)
        await pilot.press("z")  # z closes it again
        await wait_for(pilot, lambda: app.screen.id == "course-map")


@pytest.mark.parametrize("lang, word", [("es", "Ver entero"), ("en", "Show whole")])
async def test_z_is_listed_in_the_help_and_the_footer(tmp_path: Path, course: object, lang: str, word: str) -> None:
    from tutor.ui.screens.help import screen_keys

    app = _app(tmp_path, course, lang=lang)
    async with app.run_test(size=(160, 48)) as pilot:
        app.post_message(OpenLesson("n0-l1"))
        await wait_for(pilot, lambda: app.screen.id == "lesson-n0-l1")
        await quiet(pilot)
        keys = screen_keys(app, app.screen, lang, in_class=False)  # type: ignore[arg-type]
        assert ("z", word, False) in keys
        from textual.widgets._footer import FooterKey

        await wait_for(pilot, lambda: any(k.description == word for k in app.screen.query(FooterKey)))
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: app.screen.id == "help")
