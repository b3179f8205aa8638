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
import os
import shlex
import sys
from contextlib import suppress
from typing import Any

from tutor.commands import add_common_options, add_lang_option, output_lang
from tutor.i18n import Lang, t

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


def guarded_server(command: str, *, host: str, port: int, public_url: str | None, max_sessions: int) -> Any:
    """textual-serve's server with two limits: only this server's own pages may open a session, and at most
    ``max_sessions`` run at once (403 and 503 otherwise, before any app process starts)."""
    from aiohttp import web
    from textual_serve.server import Server

    class GuardedServer(Server):
        sessions = 0

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            if not same_origin(request.headers.get("Origin"), request.host, public_url):
                raise web.HTTPForbidden(text="forbidden origin")
            if GuardedServer.sessions >= max_sessions:
                raise web.HTTPServiceUnavailable(text="too many sessions")
            GuardedServer.sessions += 1
            try:
                return await super().handle_websocket(request)
            finally:
                GuardedServer.sessions -= 1

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
    if args.max_sessions < 1:
        raise CliError(t("cli.at_least", lang, option="--max-sessions", minimum="1", got=str(args.max_sessions)))
    class_mode = is_class_store()
    if class_mode:
        from tutor.progress.postgres import TOKEN_FILE_ENV

        os.environ[CLASS_SERVER_ENV] = server_without_credentials(store_spec() or "")
        # The app processes log learners in with the token they type: none of the instructor's secrets.
        for name in (STORE_ENV, TOKEN_FILE_ENV, "PGPASSWORD", "PGSERVICEFILE", "PGSERVICE"):
            os.environ.pop(name, None)
        os.environ["PGPASSFILE"] = os.devnull
    print(t("serve.class" if class_mode else "serve.single", lang, host=args.host, port=args.port), flush=True)
    server = guarded_server(app_command(args, class_mode), host=args.host, port=args.port,
                            public_url=args.public_url, max_sessions=args.max_sessions)
    server.serve()
    return 0
