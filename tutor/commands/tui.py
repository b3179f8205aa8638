"""Starting the terminal UI (what ``tutor`` does with no subcommand)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from tutor.commands import CliError, output_lang
from tutor.i18n import default_lang, format_number, t
from tutor.settings import saved_lang


def run_tui(args: argparse.Namespace) -> int:
    from tutor.commands import course_dir
    from tutor.commands.telemetry import MAX_INTERVAL
    from tutor.progress.engines import open_store
    from tutor.progress.store import StoreError
    from tutor.ui.app import make_app
    from tutor.ui.course_source import CourseSource
    from tutor.untrusted import clean_line

    if not 0.25 <= args.telemetry_interval <= MAX_INTERVAL:  # NaN and 1e10 (a sleep past time_t) too
        lang = output_lang(args)
        raise CliError(t("cli.between", lang, option="--telemetry-interval",
                         low=f"{format_number(0.25, lang, '.3g')} s",
                         high=f"{format_number(MAX_INTERVAL, lang, '.6g')} s",
                         got=format_number(float(args.telemetry_interval), lang, ".3g")))
    root = course_dir(args)
    # Only the file list is read here; the app loads the files after the map has drawn.
    course = CourseSource.scan(root)
    if not course.files and not course.problems:
        shown = clean_line(str(root))
        raise CliError(t("cli.no_course", output_lang(args), path=shown))
    login = None
    store = None
    if getattr(args, "class_login", False):
        from pathlib import Path

        from tutor.commands.serve import CLASS_SERVER_ENV
        from tutor.commands.serve_logins import CLIENT_ENV, LIMITS_ENV, LoginLimits
        from tutor.progress.classroom import class_login

        server = os.environ.get(CLASS_SERVER_ENV)
        if not server:
            raise CliError(t("cli.class_login", output_lang(args), env=CLASS_SERVER_ENV))
        login = class_login(server)
        limits = os.environ.get(LIMITS_ENV)
        if limits:  # tutor serve counts this browser's failed logins with all its other tabs'
            login = LoginLimits.open(Path(limits)).guard(login, os.environ.get(CLIENT_ENV) or "?")
    else:
        try:
            store = open_store()
        except StoreError as exc:
            raise CliError(str(exc)) from None
    app = make_app(
        course=course,
        store=store,
        lang=args.lang or saved_lang() or default_lang(),
        telemetry=args.telemetry,
        telemetry_interval=args.telemetry_interval,
        login=login,
        resume=not getattr(args, "map", False),
    )
    try:
        app.run()
    finally:
        if app.logged_in:  # a browser tab closed before its learner logged in has no store to close
            app.store.close()
    exit_now(0)
    return 0  # not reached


def exit_now(code: int) -> None:
    """End the process at once once the app has returned: the terminal is restored, the store closed (every write
    was committed when it was made) and the measurement worker killed by the app's ``stop_everything``. What is
    left — joining threads stuck in a driver call, finalizers, the interpreter's teardown (a second or more on a
    loaded machine) — must not keep the learner waiting after ctrl+q."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
