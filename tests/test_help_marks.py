"""The help screen (? or F1) explains the keys and every progress mark, in es and en (issue 30 item 7), and a
learner alone sees no class wording: the class report is a class's (PostgreSQL) key."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

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
