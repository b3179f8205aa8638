"""``tutor serve`` in class mode: the browser's app opens on a login; a wrong name or token gets nothing of the
course; the right ones open the course map with the learner's own store. Driven with Pilot here, and in headless
Chromium through textual-serve in test_serve_browser.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from tests.conftest import Classroom
from tests.support.pilot import wait_for
from tutor.commands.serve import app_command, server_without_credentials
from tutor.content import load_course
from tutor.progress.classroom import class_login
from tutor.ui.app import make_app
from tutor.ui.screens import login as login_screen
from tutor.ui.screens.course_map import CourseMapScreen
from tutor.ui.screens.login import LoginScreen

pytestmark = pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
COURSE = Path(__file__).parent / "fixtures" / "course"



async def log_in(pilot: Any, app: Any, name: str, token: str) -> None:
    from textual.widgets import Button

    screen = app.screen
    await wait_for(pilot, lambda: not screen.query_one("#login-enter", Button).disabled)  # the last try answered
    screen.query_one("#login-name", Input).value = name
    box = screen.query_one("#login-token", Input)
    box.value = token
    box.focus()
    await pilot.press("enter")


async def test_a_wrong_token_gets_nothing_and_the_right_one_opens_the_course(
    classroom: Classroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(login_screen, "REFUSED_PAUSE_S", 0.1)
    ana = classroom.learners["ana"]
    server = server_without_credentials(classroom.admin)
    assert "password" not in server and "user=" not in server
    app = make_app(course=load_course(COURSE), store=None, lang="en", telemetry="host", login=class_login(server))
    async with app.run_test(size=(150, 44)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LoginScreen) and not app.logged_in
        # nothing of the course before the login: no command opens a lesson, no key opens a screen
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert not any(str(title).startswith("Open:") for title in titles)
        await pilot.press("N", "I")
        assert isinstance(app.screen, LoginScreen)
        wrong = ((ana.name, "not-the-token"), ("nobody_here", ana.token), (ana.name, ""))
        for tries, (name, token) in enumerate(wrong):
            await log_in(pilot, app, name, token)
            await wait_for(pilot, lambda n=tries: app.screen.tries == n + 1)
            assert "Wrong name or token." in str(app.screen.query_one("#login-status", Static).render())
            assert isinstance(app.screen, LoginScreen) and not app.logged_in
        await log_in(pilot, app, ana.name, ana.token)
        await wait_for(pilot, lambda: isinstance(app.screen, CourseMapScreen))
        assert app.store.learner == ana.name
        app.store.mark_section_read("l1", "s1")
    with __import__("psycopg").connect(classroom.admin, autocommit=True) as owner:
        assert owner.execute("SELECT learner FROM sections_read").fetchall() == [(ana.name,)]


async def test_the_login_speaks_spanish_and_ends_after_five_wrong_tries(
    classroom: Classroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(login_screen, "REFUSED_PAUSE_S", 0.0)
    server = server_without_credentials(classroom.admin)
    app = make_app(course=load_course(COURSE), store=None, lang="es", telemetry="host", login=class_login(server))
    async with app.run_test(size=(150, 44)) as pilot:
        await pilot.pause()
        assert "token que te dio" in str(app.screen.query_one("#login-intro", Static).render())
        for n in range(5):
            await log_in(pilot, app, classroom.learners["ben"].name, "wrong")
            await wait_for(pilot, lambda n=n: app.screen.tries == n + 1)
        assert "Demasiados intentos" in str(app.screen.query_one("#login-status", Static).render())
        await wait_for(pilot, lambda: app.return_code is not None, timeout=3)  # the session ended


def test_the_served_command_logs_in_and_never_carries_the_instructors_credentials(classroom: Classroom) -> None:
    import argparse

    command = app_command(argparse.Namespace(lang="es"), class_mode=True)
    assert command.endswith("-m tutor --lang es --class-login")
    server = server_without_credentials("postgresql://teacher:s3cret@db.example:5433/tutor?sslmode=require")
    assert "s3cret" not in server and "teacher" not in server and "db.example" in server and "5433" in server


def test_a_browser_session_closed_before_the_login_ends_without_a_traceback(
    classroom: Classroom, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tutor.cli import main
    from tutor.commands import tui
    from tutor.commands.serve import CLASS_SERVER_ENV
    from tutor.ui.app import TutorApp

    monkeypatch.setenv(CLASS_SERVER_ENV, server_without_credentials(classroom.admin))
    ran: list[bool] = []
    monkeypatch.setattr(TutorApp, "run", lambda self, *a, **k: ran.append(self.logged_in))  # the tab closed
    ended: list[int] = []
    monkeypatch.setattr(tui, "exit_now", ended.append)
    assert main(["--class-login", "--lang", "en"]) == 0
    assert ran == [False] and ended == [0]
    assert "Traceback" not in capsys.readouterr().err
