"""The headless subcommands of ``tutor``, one module each (each exposes ``register(subparsers)``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from tutor import paths
from tutor.i18n import Lang

# Order is the order ``tutor --help`` lists them in.
COMMAND_MODULES: tuple[str, ...] = (
    "lessons",
    "exercise",
    "lab",
    "bench",
    "doctor",
    "telemetry",
    "progress",
    "notebook",
    "classroom",
    "serve",
)


class CliError(Exception):
    """A problem to report as one line on stderr, with an exit code (never a traceback)."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """Options every command understands (also accepted after the subcommand)."""
    parser.add_argument(
        "--course",
        type=Path,
        default=argparse.SUPPRESS,
        metavar="DIR",
        help="open another course folder (DIR/lessons and DIR/exercises) instead of the bundled one",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=argparse.SUPPRESS,
        metavar="DIR",
        help="where progress is stored (default: the user data dir, or $TUTOR_DATA_DIR)",
    )
    parser.add_argument(
        "--store",
        default=argparse.SUPPRESS,
        metavar="URL",
        help="the progress store: a postgresql://… URL for a class (or $TUTOR_STORE); default: the SQLite file "
             "in the data dir",
    )


def add_lang_option(parser: argparse.ArgumentParser, help: str = "language of the output (default: from the locale)"
                    ) -> None:
    """``--lang es|en`` after the subcommand (the top-level ``--lang`` works too)."""
    parser.add_argument("--lang", choices=["es", "en"], default=argparse.SUPPRESS, help=help)


def output_lang(args: argparse.Namespace) -> Lang:
    """The language a command speaks: ``--lang``, else the one the learner last chose (the TUI's setting), else
    the locale's."""
    from tutor.i18n import as_lang, default_lang
    from tutor.settings import saved_lang

    chosen = getattr(args, "lang", None)
    return as_lang(chosen) if chosen else (saved_lang() or default_lang())


def course_dir(args: argparse.Namespace) -> Path:
    """The course folder the command works on."""
    course = getattr(args, "course", None)
    return Path(course) if course is not None else paths.bundled_course()
