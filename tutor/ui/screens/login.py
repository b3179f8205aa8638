"""The class's door in the browser: a learner's name and token before anything of the course is shown.

``tutor serve`` in class mode opens the app with no store: this screen asks for the name and token and hands
them to the app's ``login`` (which connects to the class's PostgreSQL as that learner's role — the database
checks the token). A wrong name or token gets one line, the same for both, after a pause, and nothing else; after
a few wrong tries the session ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Button, Input, Label, Static
from textual.worker import Worker

from tutor.i18n import Lang, t
from tutor.practice.failures import Failure
from tutor.progress import StoreBase
from tutor.ui.screens.base import TutorScreen

#: Seconds a refused try waits before it is answered (slows down guessing), and tries before the session ends.
REFUSED_PAUSE_S = 1.0
MAX_TRIES = 5


class LoginScreen(TutorScreen[None]):
    """Name and token; Enter submits."""

    CSS_PATH = "../styles/login.tcss"
    BINDINGS = [Binding("f2", "app.toggle_lang", t("key.lang", "en"), show=True, id="lang")]

    class LoggedIn(Message):
        """The database accepted the learner: ``store`` is theirs."""

        def __init__(self, store: StoreBase) -> None:
            super().__init__()
            self.store = store

    class Refused(Message):
        """A try refused; ``final``: this session may try no more (``tutor serve``'s limit per address)."""

        def __init__(self, code: str, params: dict[str, str] | None = None, *, final: bool = False) -> None:
            super().__init__()
            self.code = code
            self.params = params or {}
            self.final = final

    def __init__(self, login: Callable[[str, str], StoreBase] | None) -> None:
        super().__init__(id="login")
        self._login = login
        self.tries = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="login-box"):
            yield Static(id="login-title")
            yield Static(id="login-intro")
            yield Label(id="login-name-label")
            yield Input(id="login-name", max_length=31)
            yield Label(id="login-token-label")
            yield Input(id="login-token", password=True, max_length=200)
            yield Button(id="login-enter", variant="primary")
            yield Static(id="login-status")

    def on_mount(self) -> None:
        self.lang_changed(self.lang)
        self.query_one("#login-name", Input).focus()

    def lang_changed(self, lang: Lang) -> None:
        self.query_one("#login-title", Static).update(Text(t("login.title", self.lang)))
        self.query_one("#login-intro", Static).update(Text(t("login.intro", self.lang)))
        self.query_one("#login-name-label", Label).update(t("login.name", self.lang))
        self.query_one("#login-token-label", Label).update(t("login.token", self.lang))
        self.query_one("#login-enter", Button).label = t("login.enter", self.lang)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "login-name":
            self.query_one("#login-token", Input).focus()
        else:
            self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "login-enter":
            self._submit()

    def _submit(self) -> None:
        name = self.query_one("#login-name", Input).value.strip()
        token = self.query_one("#login-token", Input).value.strip()
        self.query_one("#login-enter", Button).disabled = True
        self.query_one("#login-status", Static).update(Text(t("login.checking", self.lang)))
        self._check(name, token)

    @work(thread=True, exclusive=True, exit_on_error=False, group="login")
    def _check(self, name: str, token: str) -> None:
        from tutor.progress.classroom import LoginThrottled
        from tutor.progress.store_errors import StoreDenied, StoreError, StoreUnreachable

        started = time.monotonic()
        if self._login is None:
            raise RuntimeError("this tutor has no class to log in to")
        try:
            store = self._login(name, token)
        except LoginThrottled as exc:
            self.post_message(self.Refused(exc.code, exc.params, final=True))
            return
        except StoreUnreachable:
            self.post_message(self.Refused("login.unreachable"))
            return
        except (StoreDenied, StoreError, ValueError):
            time.sleep(max(0.0, REFUSED_PAUSE_S - (time.monotonic() - started)))
            self.post_message(self.Refused("login.refused"))
            return
        self.post_message(self.LoggedIn(store))

    def work_failed(self, worker: Worker[object], failure: Failure) -> None:
        # the check itself broke (the notice says how): the learner can try again
        self.query_one("#login-status", Static).update("")
        self.query_one("#login-enter", Button).disabled = False

    def on_login_screen_refused(self, message: Refused) -> None:
        self.tries += 1
        token = self.query_one("#login-token", Input)
        token.value = ""
        if message.final or self.tries >= MAX_TRIES:
            code, params = (message.code, message.params) if message.final else ("login.too_many", {})
            self.query_one("#login-status", Static).update(Text(t(code, self.lang, **params)))
            self.set_timer(1.0, self.app.exit)
            return
        self.query_one("#login-status", Static).update(Text(t(message.code, self.lang)))
        self.query_one("#login-enter", Button).disabled = False
        token.focus()
