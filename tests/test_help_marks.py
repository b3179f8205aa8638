"""The help screen (? or F1) explains the keys and every progress mark, in es and en (issue 30 item 7), and a
learner alone sees no class wording: the class report is a class's (PostgreSQL) key."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tests.support.pilot import wait_for
from tutor.content import load_course
from tutor.i18n import Lang, t
from tutor.progress import ProgressStore
from tutor.ui.app import make_app
from tutor.ui.marks import MARKS, mark_rows
from tutor.ui.screens.help import HelpScreen

FIXTURES = Path(__file__).parent / "fixtures"


def _screen_text(svg: str) -> str:
    """The text of a screenshot, line by line, as a person reads it."""
    lines = re.findall(r"<text[^>]*>(.*?)</text>", svg, flags=re.S)
    return "\n".join(html.unescape(re.sub(r"<[^>]+>", "", line)).replace("\xa0", " ") for line in lines)


def _terminal_lines(app: Any) -> list[str]:
    """The terminal's rows as text."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return [line for line in console.export_text().splitlines() if line.strip()]


def _help_text(screen: HelpScreen) -> str:
    keys = "\n".join(f"{keys} {what}" for keys, what, _ in screen.rows)
    marks = "\n".join(f"{mark} {what}" for mark, what in mark_rows(screen.lang))
    return f"{keys}\n{marks}"


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_question_mark_explains_keys_and_marks_and_no_class_words_alone(lang: Lang, tmp_path: Path) -> None:
    app = make_app(course=load_course(FIXTURES / "exercise_course"), store=ProgressStore(tmp_path / "p.sqlite3"),
                   lang=lang, telemetry=None)
    async with app.run_test(size=(120, 48)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        await pilot.pause()
        shown = _screen_text(app.export_screenshot())
        # the marks, each with its meaning, on the screen
        assert t("help.marks", lang) in shown
        for mark, key in MARKS:
            meaning = t(key, lang, pass_score="70")
            assert mark in _help_text(screen) and meaning.split("(")[0].split("{")[0].strip()[:15] in shown, mark
        assert t("marks.help.reproduced", lang) in shown
        # the class report is not offered to a learner alone
        assert t("key.class_report", lang) not in _help_text(screen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))


async def test_a_class_s_learner_is_offered_the_class_report(tmp_path: Path) -> None:
    """The class key is listed when the session's store is a class's (the engine is what tells; a PostgreSQL store
    is not needed to check the rule)."""
    store = ProgressStore(tmp_path / "p.sqlite3")
    store.engine = "postgresql"  # type: ignore[misc]  # this store stands for a class's
    app = make_app(course=load_course(FIXTURES / "exercise_course"), store=store, lang="en", telemetry=None)
    async with app.run_test(size=(120, 48)) as pilot:
        assert app.session.in_class
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert isinstance(app.screen, HelpScreen)
        assert t("key.class_report", "en") in _help_text(app.screen)


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_the_footer_at_80x24_keeps_the_help_key_in_sight(lang: Lang, tmp_path: Path) -> None:
    """A footer wider than 80 columns is cut at its end; the help key, which lists every other, comes right after Esc
    so it is never the part cut away (it used to be last, after eight exercise keys)."""
    from tests.support.exercise import fake_measure
    from tutor.ui.screens.exercise import ExerciseScreen

    app = make_app(course=load_course(FIXTURES / "exercise_course"), store=ProgressStore(tmp_path / "p.sqlite3"),
                   lang=lang, telemetry=None)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = ExerciseScreen(app.session, app.course.exercises["t-copy-bound"], measure=fake_measure)
        app.push_screen(screen)
        await wait_for(pilot, lambda: app.screen is screen)
        def footer() -> str:
            return next((line for line in reversed(_terminal_lines(app)) if line.lstrip().startswith("esc")), "")

        await wait_for(pilot, lambda: t("key.lock", lang) in footer())
        assert t("key.help", lang) in footer(), footer()
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
