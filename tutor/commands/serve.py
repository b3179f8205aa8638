"""``tutor serve`` — the same app in a web browser, through textual-serve, for learners without a good terminal.

Each browser tab gets its own app process. With a class's store (``--store postgresql://…``) every tab opens on
the login screen: the learner's name and token are checked by the database (their role's password) before any
of the course is shown, and the app then works with that learner's own connection. The instructor's
credentials never reach the app processes: they get the server's address only (``TUTOR_CLASS_SERVER``).
Without a class store it serves the one learner's progress on this machine: keep it on 127.0.0.1 then.
Put it behind a TLS proxy (``--public-url https://…``) before learners reach it over a network.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import os
import shlex
import sys
from contextlib import suppress
from typing import Any

from tutor.commands import add_common_options, add_lang_option, output_lang
from tutor.commands.serve_logins import LIMITS_ENV, MAX_FAILED, LoginLimits
from tutor.i18n import Lang, t

log = logging.getLogger("textual-serve")

CLASS_SERVER_ENV = "TUTOR_CLASS_SERVER"
#: Browser sessions served at once (each one is an app process of its own, ~64 MB, started before any login).
DEFAULT_MAX_SESSIONS = 40


def same_origin(origin: str | None, host: str | None, public_url: str | None) -> bool:
    """Whether a WebSocket's ``Origin`` is this server's own page: the address the browser asked for (``Host``)
    or ``--public-url``. A page on another site (or a client that sends no Origin) is not: without this, any
    site a learner visits could open sessions on the tutor in their name (cross-site WebSocket hijacking)."""
    from urllib.parse import urlsplit

    if not origin or origin == "null":
        return False
    try:
        asked = urlsplit(origin)
    except ValueError:
        return False
    if asked.scheme not in ("http", "https") or not asked.netloc:
        return False
    allowed = {host.lower()} if host else set()
    if public_url:
        with suppress(ValueError):
            allowed.add(urlsplit(public_url).netloc.lower())
    return asked.netloc.lower() in allowed


def guarded_server(command: str, *, host: str, port: int, public_url: str | None, max_sessions: int,
                   logins: LoginLimits | None = None, lang: Lang = "en") -> Any:
    """textual-serve's server with three limits: only this server's own pages may open a session, at most
    ``max_sessions`` run at once, and an address that failed too many logins (``logins``) gets neither a page nor
    a session for a while (403, 503 and 429, before any app process starts). Each app process is told its
    browser's address (``TUTOR_SERVE_CLIENT``), which its login counts failures against."""
    from aiohttp import web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server, to_int

    from tutor.commands.serve_logins import CLIENT_ENV, client_address

    class ClientAppService(AppService):
        def __init__(self, *args: Any, client: str, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.client = client

        def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
            environment = super()._build_environment(width=width, height=height)
            environment[CLIENT_ENV] = self.client
            return environment

    def client_of(request: web.Request) -> str:
        return client_address(request.remote, request.headers.get("X-Forwarded-For"), public_url is not None)

    def throttled(request: web.Request) -> web.Response | None:
        if logins is None:
            return None
        client = client_of(request)
        left = logins.blocked_for(client)
        if left <= 0:
            return None
        from tutor.progress.classroom import LoginThrottled

        said = LoginThrottled(client=client, minutes=str(max(1, math.ceil(left / 60)))).describe(lang)
        return web.Response(status=429, text=said, headers={"Retry-After": str(math.ceil(left))})

    class GuardedServer(Server):
        sessions = 0

        async def handle_index(self, request: web.Request) -> Any:
            refused = throttled(request)
            if refused is not None:
                return refused
            return await super().handle_index(request)

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            if not same_origin(request.headers.get("Origin"), request.host, public_url):
                raise web.HTTPForbidden(text="forbidden origin")
            refused = throttled(request)
            if refused is not None:
                raise web.HTTPTooManyRequests(text=refused.text, headers=refused.headers)
            if GuardedServer.sessions >= max_sessions:
                raise web.HTTPServiceUnavailable(text="too many sessions")
            GuardedServer.sessions += 1
            try:
                return await self._session(request)
            finally:
                GuardedServer.sessions -= 1

        async def _session(self, request: web.Request) -> web.WebSocketResponse:
            """textual-serve's ``handle_websocket`` (as of 1.1.3), its app process told the client's address."""
            websocket = web.WebSocketResponse(heartbeat=15)
            width = to_int(request.query.get("width", "80"), 80)
            height = to_int(request.query.get("height", "24"), 24)
            app_service: AppService | None = None
            try:
                await websocket.prepare(request)
                app_service = ClientAppService(
                    self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                    close=websocket.close, download_manager=self.download_manager, debug=self.debug,
                    client=client_of(request),
                )
                await app_service.start(width, height)
                try:
                    await self._process_messages(websocket, app_service)
                finally:
                    await app_service.stop()
            except asyncio.CancelledError:
                await websocket.close()
            except Exception as error:
                log.exception(error)
            finally:
                if app_service is not None:
                    await app_service.stop()
            return websocket

    return GuardedServer(command, host=host, port=port, title="GPU Tutor", public_url=public_url)


def register(sub: argparse._SubParsersAction, lang: Lang) -> None:
    parser = sub.add_parser(
        "serve",
        help=t("cli.help.serve", lang),
        description=t("cli.desc.serve", lang),
    )
    add_common_options(parser)
    parser.add_argument("--host", default="127.0.0.1", help=t("cli.help.serve.host", lang))
    parser.add_argument("--port", type=int, default=8000, help=t("cli.help.serve.port", lang))
    parser.add_argument("--public-url", default=None, metavar="URL",
                        help=t("cli.help.serve.public_url", lang))
    parser.add_argument("--max-sessions", type=int, default=DEFAULT_MAX_SESSIONS, metavar="N",
                        help=t("cli.help.serve.max_sessions", lang, n=DEFAULT_MAX_SESSIONS))
    parser.add_argument("--max-failed-logins", type=int, default=MAX_FAILED, metavar="N",
                        help=t("cli.help.serve.max_failed_logins", lang, n=MAX_FAILED))
    add_lang_option(parser, t("cli.help.lang.serve", lang))
    parser.set_defaults(func=run_serve)


def server_without_credentials(dsn: str) -> str:
    """The class server's address (host, port, database, options) with no user and no password."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    parts = {k: v for k, v in conninfo_to_dict(dsn).items() if k not in ("user", "password", "passfile")}
    return make_conninfo("", **parts)


def app_command(args: argparse.Namespace, class_mode: bool) -> str:
    """The command each browser tab runs (this Python, this tutor)."""
    argv = [sys.executable, "-m", "tutor"]
    if getattr(args, "lang", None):
        argv += ["--lang", args.lang]
    course = getattr(args, "course", None)
    if course is not None:
        argv += ["--course", str(course)]
    if class_mode:
        argv.append("--class-login")
    return shlex.join(argv)


def run_serve(args: argparse.Namespace) -> int:
    from tutor.commands import CliError
    from tutor.progress.engines import STORE_ENV, is_class_store, store_spec

    lang = output_lang(args)
    for option, value in (("--max-sessions", args.max_sessions), ("--max-failed-logins", args.max_failed_logins)):
        if value < 1:
            raise CliError(t("cli.at_least", lang, option=option, minimum="1", got=str(value)))
    class_mode = is_class_store()
    logins = None
    if class_mode:
        import tempfile
        from pathlib import Path

        # only this user may read the folder (mkdtemp makes it 0700); it goes when the server ends
        folder = Path(tempfile.mkdtemp(prefix="tutor-serve-"))
        logins = LoginLimits.create(folder / "logins.sqlite3", max_failed=args.max_failed_logins)
        os.environ[LIMITS_ENV] = str(logins.path)
        from tutor.progress.postgres import TOKEN_FILE_ENV

        os.environ[CLASS_SERVER_ENV] = server_without_credentials(store_spec() or "")
        # The app processes log learners in with the token they type: none of the instructor's secrets.
        for name in (STORE_ENV, TOKEN_FILE_ENV, "PGPASSWORD", "PGSERVICEFILE", "PGSERVICE"):
            os.environ.pop(name, None)
        os.environ["PGPASSFILE"] = os.devnull
    print(t("serve.class" if class_mode else "serve.single", lang, host=args.host, port=args.port), flush=True)
    server = guarded_server(app_command(args, class_mode), host=args.host, port=args.port,
                            public_url=args.public_url, max_sessions=args.max_sessions, logins=logins, lang=lang)
    try:
        server.serve()
    finally:
        if logins is not None:
            import shutil

            shutil.rmtree(logins.path.parent, ignore_errors=True)
            os.environ.pop(LIMITS_ENV, None)
    return 0
