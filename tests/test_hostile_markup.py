"""A pack whose every text is Textual action markup: clicked everywhere, nothing runs, the text shows literally.

The pack's titles, targets, hints, choice labels, section titles and bodies are
``[@click=app.screenshot('pwned.svg','<dir>')]Pick[/]``. Rendered as markup, a click on "Pick" would write a
screenshot into ``<dir>``; rendered as text, the brackets are on screen and a click does nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Label, OptionList, RadioButton, Static, Tree

from tests.fixtures.hostile_pack import click_markup, write_markup_pack
from tests.support.pilot import quiet, wait_for
from tutor.content import load_course
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp, make_app
from tutor.ui.plain import PackMarkdown

SIZE = (150, 50)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = tmp_path / "shots"
    folder.mkdir()
    return folder


def _app(tmp_path: Path, shots: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[TutorApp, list[Any]]:
    root = write_markup_pack(tmp_path / "pack", shots)
    course = load_course(root, require_translations=False)
    assert "evil-l1" in course.lessons and "evil-x1" in course.exercises, course.problems
    app = make_app(course=course, store=ProgressStore(tmp_path / "p.sqlite3"), lang="en", telemetry="host")
    ran: list[Any] = []
    # Any action a pack could name: record it instead of running it (and the folder must stay empty as well).
    for name in ("action_screenshot", "action_quit", "action_open_notebook", "action_toggle_lang"):
        monkeypatch.setattr(app, name, lambda *a, _n=name, **k: ran.append((_n, a, k)))
    return app, ran


#: The word a parsed ``@click`` would make clickable is "Pick", 4 cells wide: a click every 4th column of a line's
#: first ``width`` columns lands on it wherever it starts in columns 0 to ``width`` - 2.
PICK_CELLS = 4


async def _click_along(pilot: Any, widget: Any, rows: int = 1, width: int = 14) -> None:
    """Click the start of the first ``rows`` lines of ``widget``: where "Pick" would be if the markup had been
    parsed (the pack text starts each line, after at most a mark or a tree guide)."""
    region = widget.content_region
    if region.width == 0 or region.height == 0:
        return
    screen = pilot.app.screen.size.region
    for y in range(min(rows, region.height)):
        for x in range(0, min(width, region.width), PICK_CELLS):
            if screen.contains(region.x + x, region.y + y):
                await pilot.click(offset=(region.x + x, region.y + y))


def _no_click_meta(label: Any) -> bool:
    """A Rich Text label carries no ``@click`` action anywhere."""
    from rich.style import Style

    return not any(isinstance(span.style, Style) and span.style.meta for span in label.spans)


def _tree_labels(tree: Tree[Any]) -> list[str]:
    out: list[str] = []

    def walk(node: Any) -> None:
        for child in node.children:
            out.append(child.label.plain)
            walk(child)

    walk(tree.root)
    return out


async def test_map_and_lesson_show_markup_as_text_and_clicks_run_nothing(
    tmp_path: Path, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    evil = click_markup(shots)
    app, ran = _app(tmp_path, shots, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tree = app.screen.query_one(Tree)
        lesson = next(n for n in tree.root.children[0].children)
        lesson.expand()
        await pilot.pause()
        labels = _tree_labels(tree)
        assert f"{evil} level" in labels
        assert f"○ {evil} lesson" in labels
        assert f"· {evil} section" in labels and f"○○ {evil} exercise" in labels and f"○ {evil} lab" in labels
        walk = [tree.root]
        while walk:  # no label carries an action (clicking a tree entry opens it, so it is checked, not clicked)
            node = walk.pop()
            assert _no_click_meta(node.label)
            walk.extend(node.children)
        detail = app.screen.query_one("#map-detail-text", PackMarkdown)
        for line in range(tree.last_line + 1):  # every entry's detail: literal, and its first line clicked
            tree.cursor_line = line
            await pilot.pause()
            assert "Pick[/]" in detail.source
            await _click_along(pilot, detail)
        assert not ran and not list(shots.iterdir())

        # the command palette lists the lesson by its literal title
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Open")

        def palette_text_now() -> str:
            return " ".join(str(o.prompt) for o in app.screen.query(OptionList).first().options)

        await wait_for(pilot, lambda: "Open" in palette_text_now())  # the palette's search worker has answered
        await quiet(pilot)
        palette_text = palette_text_now()
        assert evil in palette_text
        await pilot.press("escape")
        await pilot.pause()

        app.post_message(__import__("tutor.ui.messages", fromlist=["OpenLesson"]).OpenLesson("evil-l1"))
        await pilot.pause()
        assert app.screen.id == "lesson-evil-l1"
        nav = app.screen.query_one("#lesson-nav", OptionList)
        prompts = [str(o.prompt) for o in nav.options]
        assert f"· {evil} section" in prompts[0] or f"✓ {evil} section" in prompts[0]
        body = app.screen.query_one("#lesson-text", PackMarkdown)
        assert evil in body.source
        await _click_along(pilot, body, rows=3)
        await _click_along(pilot, nav)  # the first entry only: the others open screens
        assert not ran and not list(shots.iterdir())


async def test_exercise_screen_shows_markup_as_text_and_clicks_run_nothing(
    tmp_path: Path, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tutor.ui.messages import OpenExercise

    evil = click_markup(shots)
    app, ran = _app(tmp_path, shots, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.post_message(OpenExercise("evil-x1"))
        await pilot.pause()
        screen = app.screen
        assert type(screen).__name__ == "ExerciseScreen"
        await pilot.press("ctrl+g", "ctrl+g")  # both hints (the keymap's hint key)
        await pilot.pause()
        title = screen.query_one("#ex-title", Static)
        assert evil in str(title.render())
        assert f"{evil} target" in str(screen.query_one("#ex-setup", Static).render())
        hints = str(screen.query_one("#ex-hints", Static).render())
        assert f"{evil} hint one" in hints and f"{evil} hint two" in hints
        buttons = list(screen.query(RadioButton))
        assert [str(b.label) for b in buttons] == [f"{evil} A", f"{evil} B"]
        for widget in [title, screen.query_one("#ex-setup", Static), screen.query_one("#ex-hints", Static),
                       screen.query_one("#ex-prompt", PackMarkdown), *buttons]:
            await _click_along(pilot, widget)
        assert not ran and not list(shots.iterdir())

        # lock (the first choice is pressed by the clicks above), reveal: the verdict quotes the labels literally
        buttons[0].value = True
        await pilot.press("ctrl+l")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await pilot.pause()
        verdict = str(screen.query_one("#ex-verdict", Static).render())
        assert f"{evil} A" in verdict
        await _click_along(pilot, screen.query_one("#ex-verdict", Static), rows=3)
        await _click_along(pilot, screen.query_one("#ex-explanation", PackMarkdown), rows=3)
        assert not ran and not list(shots.iterdir())


async def test_lab_screen_and_notifications_show_markup_as_text(
    tmp_path: Path, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tutor.ui.messages import OpenLab

    evil = click_markup(shots)
    app, ran = _app(tmp_path, shots, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.post_message(OpenLab("evil-l1", "evil-lab"))
        await pilot.pause()
        screen = app.screen
        assert type(screen).__name__ == "LabScreen"
        question = screen.query_one("#lab-question", Label)
        assert f"{evil} question" in str(question.render())
        assert evil in screen.query_one("#lab-goal", PackMarkdown).source
        await _click_along(pilot, question)
        await _click_along(pilot, screen.query_one("#lab-goal", PackMarkdown), rows=3)
        # a notification quoting pack text is plain text too
        app.notify(f"{evil} notice", markup=False)
        await pilot.pause()
        assert any(n.message == f"{evil} notice" and not n.markup for n in app._notifications)
        assert not ran and not list(shots.iterdir())


async def test_a_markdown_link_in_a_pack_is_shown_not_followed(
    tmp_path: Path, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tutor.ui.messages import OpenLesson

    app, ran = _app(tmp_path, shots, monkeypatch)
    opened: list[str] = []
    monkeypatch.setattr(app, "open_url", lambda url, **_k: opened.append(url))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.post_message(OpenLesson("evil-l1"))
        await pilot.pause()
        body = app.screen.query_one("#lesson-text", PackMarkdown)
        body.post_message(PackMarkdown.LinkClicked(body, "app.quit"))
        await pilot.pause()
        assert opened == [] and not ran
        assert any("→ app.quit" in str(n.message) for n in app._notifications)
