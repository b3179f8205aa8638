"""``tutor serve``'s limit on failed logins per client address, across all of that address's browser tabs.

A tab ends after five wrong tries; without a count shared by the tabs a guesser would open another. Driven
here as a learner would meet it: wrong tokens typed on the login screen of one tab, then another tab from the
same address refused even with the right token (the database is not asked), while a learner at another
address logs in; and the serve process answering a blocked address's page and session with 429.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from tests.conftest import Classroom
from tests.support.pilot import wait_for
from tests.test_serve import COURSE, log_in
from tutor.commands.serve import server_without_credentials
from tutor.commands.serve_logins import BLOCK_S, LoginLimits, client_address
from tutor.content import load_course
from tutor.progress.classroom import LoginThrottled, class_login
from tutor.progress.store_errors import StoreDenied
from tutor.ui.app import make_app
from tutor.ui.screens import login as login_screen
from tutor.ui.screens.course_map import CourseMapScreen
from tutor.ui.screens.login import LoginScreen


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def limits(tmp_path: Path, clock: Clock, max_failed: int = 3) -> LoginLimits:
    made = LoginLimits.create(tmp_path / "logins.sqlite3", max_failed=max_failed, window_s=600, block_s=900)
    return LoginLimits.open(made.path, clock=clock)


def test_an_address_is_closed_after_max_failed_within_the_window_and_opens_again(tmp_path: Path) -> None:
    clock = Clock()
    rule = limits(tmp_path, clock)
    assert rule.failed("203.0.113.7") == 0 and rule.failed("203.0.113.7") == 0
    clock.now += 601  # the first two fall out of the window
    assert rule.failed("203.0.113.7") == 0 and rule.blocked_for("203.0.113.7") == 0
    assert rule.failed("203.0.113.7") == 0
    assert rule.failed("203.0.113.7") == 900  # three within ten minutes
    assert rule.blocked_for("203.0.113.7") == 900 and rule.blocked_for("198.51.100.2") == 0
    clock.now += 899
    assert rule.blocked_for("203.0.113.7") == pytest.approx(1)
    clock.now += 1
    assert rule.blocked_for("203.0.113.7") == 0
    assert rule.failed("203.0.113.7") == 0  # the count started again


def test_the_guard_asks_nothing_of_the_database_while_the_address_is_closed(tmp_path: Path) -> None:
    clock = Clock()
    rule = limits(tmp_path, clock, max_failed=2)
    asked: list[str] = []

    def login(name: str, token: str) -> str:
        asked.append(token)
        if token != "right":
            raise StoreDenied(path="postgresql://class", detail="wrong name or token")
        return name

    tab = rule.guard(login, "203.0.113.7")
    for _ in range(2):
        with pytest.raises(StoreDenied):
            tab("ana", "wrong")
    with pytest.raises(LoginThrottled) as refused:
        rule.guard(login, "203.0.113.7")("ana", "right")  # a new tab, the right token
    assert asked == ["wrong", "wrong"]
    assert refused.value.describe("en") == ("Too many failed logins from your address (203.0.113.7): try again in "
                                            "15 min.")
    assert "dentro de 15 min" in refused.value.describe("es")
    assert rule.guard(login, "198.51.100.2")("ben", "right") == "ben"  # another address is not held back
    clock.now += BLOCK_S
    assert tab("ana", "right") == "ana"


def test_behind_the_proxy_the_address_is_the_one_the_proxy_wrote() -> None:
    assert client_address("127.0.0.1", "10.0.0.9, 203.0.113.7", behind_proxy=True) == "203.0.113.7"
    # without a proxy, or from a peer that is not this machine's proxy, the header is the client's own words
    assert client_address("127.0.0.1", "203.0.113.7", behind_proxy=False) == "127.0.0.1"
    assert client_address("198.51.100.2", "203.0.113.7", behind_proxy=True) == "198.51.100.2"
    assert client_address("127.0.0.1", "not an address", behind_proxy=True) == "127.0.0.1"


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_second_tab_from_the_same_address_is_refused_after_the_first_tabs_wrong_tries(
    classroom: Classroom, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, lang: str
) -> None:
    monkeypatch.setattr(login_screen, "REFUSED_PAUSE_S", 0.0)
    ana, ben = classroom.learners["ana"], classroom.learners["ben"]
    server = server_without_credentials(classroom.admin)
    rule = LoginLimits.open(LoginLimits.create(tmp_path / "logins.sqlite3", max_failed=3).path)
    course = load_course(COURSE)

    def tab(client: str) -> Any:
        return make_app(course=course, store=None, lang=lang, telemetry="host",
                        login=rule.guard(class_login(server), client))

    first = tab("203.0.113.7")
    async with first.run_test(size=(150, 44)) as pilot:
        await pilot.pause()
        for n in range(3):
            await log_in(pilot, first, ana.name, "guessed")
            await wait_for(pilot, lambda n=n: first.screen.tries == n + 1)
        said = str(first.screen.query_one("#login-status", Static).render())
        assert ("Wrong name or token." if lang == "en" else "incorrectos") in said, said
    second = tab("203.0.113.7")
    async with second.run_test(size=(150, 44)) as pilot:
        await pilot.pause()
        await log_in(pilot, second, ana.name, ana.token)  # the right token, from the blocked address
        await wait_for(pilot, lambda: "203.0.113.7" in str(second.screen.query_one("#login-status", Static).render()))
        said = str(second.screen.query_one("#login-status", Static).render())
        expected = "try again in 15 min" if lang == "en" else "vuelve a intentarlo dentro de 15 min"
        assert expected in said, said
        assert isinstance(second.screen, LoginScreen) and not second.logged_in
        await wait_for(pilot, lambda: second.return_code is not None)  # the session ends
    elsewhere = tab("198.51.100.2")
    async with elsewhere.run_test(size=(150, 44)) as pilot:
        await pilot.pause()
        await log_in(pilot, elsewhere, ben.name, ben.token)
        await wait_for(pilot, lambda: isinstance(elsewhere.screen, CourseMapScreen))
        assert elsewhere.store.learner == ben.name
        elsewhere.store.close()


async def test_serve_answers_a_closed_address_with_429_before_any_app_process(tmp_path: Path) -> None:
    from aiohttp import WSServerHandshakeError
    from aiohttp.test_utils import TestClient, TestServer

    from tutor.commands.serve import guarded_server

    rule = LoginLimits.create(tmp_path / "logins.sqlite3", max_failed=1)
    server = guarded_server("false", host="127.0.0.1", port=0, public_url=None, max_sessions=5, logins=rule,
                            lang="es")
    async with TestClient(TestServer(await server._make_app())) as client:
        own = f"http://{client.host}:{client.port}"
        page = await client.get("/")
        assert page.status == 200
        rule.failed("127.0.0.1")  # the test client's address: one failed login is the limit here
        page = await client.get("/")
        assert page.status == 429 and int(page.headers["Retry-After"]) > 800
        assert "Demasiados intentos fallidos desde tu dirección (127.0.0.1)" in await page.text()
        with pytest.raises(WSServerHandshakeError) as refused:
            await client.ws_connect("/ws", headers={"Origin": own})
        assert refused.value.status == 429
        assert type(server).sessions == 0


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_the_app_process_of_a_tab_counts_against_the_address_serve_gave_it(
    classroom: Classroom, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """What ``tutor serve`` starts per tab (``tutor --class-login`` with its two variables) logs in through the
    shared count: a closed address is refused without asking the database."""
    from tutor.cli import main
    from tutor.commands import tui
    from tutor.commands.serve import CLASS_SERVER_ENV
    from tutor.commands.serve_logins import CLIENT_ENV, LIMITS_ENV
    from tutor.ui.app import TutorApp

    rule = LoginLimits.create(tmp_path / "logins.sqlite3", max_failed=1)
    rule.failed("203.0.113.7")
    monkeypatch.setenv(CLASS_SERVER_ENV, server_without_credentials(classroom.admin))
    monkeypatch.setenv(LIMITS_ENV, str(rule.path))
    monkeypatch.setenv(CLIENT_ENV, "203.0.113.7")
    logins: list[Any] = []
    monkeypatch.setattr(TutorApp, "run", lambda self, *a, **k: logins.append(self.login))
    monkeypatch.setattr(tui, "exit_now", lambda code: None)
    assert main(["--class-login", "--lang", "en"]) == 0
    ana = classroom.learners["ana"]
    with pytest.raises(LoginThrottled):
        logins[0](ana.name, ana.token)
    monkeypatch.setenv(CLIENT_ENV, "198.51.100.2")
    assert main(["--class-login", "--lang", "en"]) == 0
    store = logins[1](ana.name, ana.token)
    assert store.learner == ana.name
    store.close()


async def test_each_tabs_app_process_is_told_its_browsers_address(tmp_path: Path) -> None:
    """The address the count is kept by reaches the tab's own process (``TUTOR_SERVE_CLIENT``), and the tab's
    session is counted against ``--max-sessions`` only while it is open."""
    import asyncio
    import shlex

    from aiohttp.test_utils import TestClient, TestServer

    from tests.support.pilot import PATIENCE_S
    from tutor.commands.serve import guarded_server

    seen = tmp_path / "client.txt"
    script = 'printf %s "$TUTOR_SERVE_CLIENT" > ' + shlex.quote(str(seen)) + "; exec cat"  # then waits on stdin
    command = "sh -c " + shlex.quote(script)
    rule = LoginLimits.create(tmp_path / "logins.sqlite3")
    server = guarded_server(command, host="127.0.0.1", port=0, public_url=None, max_sessions=1, logins=rule)
    async with TestClient(TestServer(await server._make_app())) as client:
        ws = await client.ws_connect("/ws", headers={"Origin": f"http://{client.host}:{client.port}"})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PATIENCE_S
        while not (seen.exists() and seen.read_text()) and loop.time() < deadline:
            await asyncio.sleep(0.05)
        assert seen.read_text() == "127.0.0.1"
        assert type(server).sessions == 1
        await ws.close()
        while type(server).sessions and loop.time() < deadline:
            await asyncio.sleep(0.05)
        assert type(server).sessions == 0
