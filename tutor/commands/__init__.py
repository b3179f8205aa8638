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
    """Options every command understands (also accepted after the subcommand), helped in the parser's language."""
    from tutor.i18n import t

    lang = parser_lang(parser)
    parser.add_argument("--course", type=Path, default=argparse.SUPPRESS, metavar="DIR",
                        help=t("cli.help.course", lang))
    parser.add_argument("--data-dir", type=Path, default=argparse.SUPPRESS, metavar="DIR",
                        help=t("cli.help.data_dir", lang))
    parser.add_argument("--store", default=argparse.SUPPRESS, metavar="URL", help=t("cli.help.store", lang))
    parser.add_argument("--token-file", default=argparse.SUPPRESS, metavar="FILE", help=t("cli.help.token_file", lang))


def add_lang_option(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """``--lang es|en`` after the subcommand (the top-level ``--lang`` works too); ``help`` defaults to the
    catalog's words for how the language is chosen."""
    from tutor.i18n import t

    parser.add_argument("--lang", choices=["es", "en"], default=argparse.SUPPRESS,
                        help=t("cli.help.lang", parser_lang(parser)) if help is None else help)


def parser_lang(parser: argparse.ArgumentParser) -> Lang:
    """The language a parser was built for (:class:`tutor.commands.parsing.TutorParser`; English otherwise)."""
    from tutor.i18n import as_lang

    return as_lang(getattr(parser, "lang", "en"))


def output_lang(args: argparse.Namespace) -> Lang:
    """The language a command speaks: ``--lang``, else the one the learner last chose (the TUI's setting), else
    the locale's."""
    from tutor.i18n import as_lang, default_lang
    from tutor.settings import saved_lang

    chosen = getattr(args, "lang", None)
    return as_lang(chosen) if chosen else (saved_lang() or default_lang())


def course_dir(args: argparse.Namespace) -> Path:
    """The course folder the command works on; a ``--course`` that is not a folder is a :class:`CliError` (exit 1),
    never an empty course that every command would report on as if it were the learner's."""
    course = getattr(args, "course", None)
    if course is None:
        return paths.bundled_course()
    root = Path(course)
    try:
        is_folder = root.is_dir()
    except (OSError, ValueError):  # a name too long for the system, a NUL byte
        is_folder = False
    if not is_folder:
        from tutor.i18n import t
        from tutor.untrusted import clean_line

        raise CliError(t("cli.no_course", output_lang(args), path=clean_line(str(root), 200)), 1)
    return root
