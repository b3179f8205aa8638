"""The ``tutor`` command: the TUI by default, and the headless subcommands.

Each subcommand lives in its own module under :mod:`tutor.commands` and registers itself with ``register``.
No command module imports torch or textual at import time, so ``tutor --help`` is instant.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tutor import __version__, paths
from tutor.commands import COMMAND_MODULES, CliError, add_common_options
from tutor.i18n import Lang, t


def build_parser(lang: Lang | None = None) -> argparse.ArgumentParser:
    """``tutor``'s parser, its help, usage and errors in ``lang`` (default: :func:`argv_lang` of this process's
    arguments: ``--lang``, else the language last chosen in the tutor, else the locale's)."""
    from tutor.commands.parsing import TutorParser, argv_lang

    lang = argv_lang(sys.argv[1:]) if lang is None else lang
    parser = TutorParser(prog="tutor", description=t("cli.desc.tutor", lang), lang=lang)
    parser.add_argument("--version", action="version", version=f"gpu-tutor {__version__}",
                        help=t("argparse.version", lang))
    add_common_options(parser)
    parser.add_argument("--lang", choices=["es", "en"], default=None, help=t("cli.help.tutor.lang", lang))
    parser.add_argument("--telemetry", default="auto", metavar="BACKEND", help=t("cli.help.tutor.telemetry", lang))
    parser.add_argument("--telemetry-interval", type=float, default=1.0, metavar="S",
                        help=t("cli.help.tutor.telemetry_interval", lang))
    parser.add_argument("--map", action="store_true", help=t("cli.help.tutor.map", lang))
    # the browser's door to a class (``tutor serve`` runs each tab's app with it): name and token first
    parser.add_argument("--class-login", action="store_true", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title=t("cli.title.commands", lang))
    for name in COMMAND_MODULES:
        importlib.import_module(f"tutor.commands.{name}").register(sub, lang)
    return parser


def announce_recovery(report: object) -> None:
    """One stderr line for a corrupt progress file moved aside (the store also records it for later starts).

    In English unless ``--lang es`` was given, like the CLI's other stderr lines."""
    import time

    from tutor.i18n import t
    from tutor.progress.store import StoreOpenReport

    if isinstance(report, StoreOpenReport) and report.recovered_from_corrupt is not None:
        at = time.strftime("%Y-%m-%d %H:%M")
        print(t("store.recovered", _announce_lang, backup=report.recovered_from_corrupt, at=at), file=sys.stderr)


_announce_lang: Lang = "en"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``tutor``; every headless command's output goes through :mod:`tutor.commands.output` (control
    characters removed; a closed pipe ends the command quietly with status 141)."""
    from tutor.commands.output import cleaned_streams, quiet_broken_pipe

    try:
        from tutor.commands.parsing import argv_lang

        parser = build_parser(argv_lang(sys.argv[1:] if argv is None else argv))
        args = parser.parse_args(argv)
        if getattr(args, "func", None) is None:
            return _run(args)
        with cleaned_streams():
            status = _run(args)
            sys.stdout.flush()
            return status
    except BrokenPipeError:
        return quiet_broken_pipe()


def _warn_of_a_token_in_argv(store: str, args: argparse.Namespace) -> None:
    """A password in ``--store`` is in this process's command line: every user of the machine reads it (ps)."""
    from tutor.progress.postgres import conninfo_password, is_postgres_dsn

    if is_postgres_dsn(store) and conninfo_password(store) is not None:
        print(t("cli.token_in_argv", _lang_of(args), prog="tutor"), file=sys.stderr)


def _token_sources(args: argparse.Namespace) -> None:
    """``--token-file`` (through the environment, for worker processes) and, in a terminal, a hidden prompt."""
    import os

    from tutor.progress.engines import is_class_store

    token_file = getattr(args, "token_file", None)
    if token_file is not None:
        from tutor.progress.postgres import TOKEN_FILE_ENV

        os.environ[TOKEN_FILE_ENV] = str(token_file)
    if is_class_store() and sys.stdin is not None and sys.stdin.isatty():
        import getpass

        from tutor.progress.postgres import PostgresStore

        lang = _lang_of(args)
        PostgresStore.token_prompt = lambda server: getpass.getpass(t("cli.token_prompt", lang, server=server))


def _run(args: argparse.Namespace) -> int:
    data_dir = getattr(args, "data_dir", None)
    if data_dir is not None:
        paths.set_data_dir(data_dir)
    store = getattr(args, "store", None)
    if store is not None:
        import os

        from tutor.progress.engines import STORE_ENV

        # through the environment, so worker processes and the browser's app processes open the same store
        os.environ[STORE_ENV] = store
        _warn_of_a_token_in_argv(store, args)
    _token_sources(args)
    handler = getattr(args, "func", None)
    from tutor.progress.store import StoreError, on_recovery

    try:
        if handler is None:
            from tutor.commands.tui import run_tui

            return run_tui(args)
        # Every headless command says so on stderr when it had to move a corrupt progress file aside.
        global _announce_lang
        from tutor.commands import output_lang

        _announce_lang = output_lang(args)
        on_recovery(announce_recovery)
        return int(handler(args) or 0)
    except (CliError, StoreError, paths.DataDirError) as exc:
        lang = _lang_of(args)
        said = exc.describe(lang) if isinstance(exc, StoreError) else str(exc)  # a store's error in its language
        print(t("argparse.error", lang, prog="tutor", message=said), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(t("cli.interrupted", _lang_of(args), prog="tutor"), file=sys.stderr)
        return 130


def _lang_of(args: argparse.Namespace) -> Lang:
    from tutor.commands import output_lang

    return output_lang(args)


if __name__ == "__main__":
    raise SystemExit(main())
