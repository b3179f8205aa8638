"""The command line's parsers in the reader's language: help, usage and argparse's own errors from the catalog.

Every parser of ``tutor`` is a :class:`TutorParser` built for one language (decided before parsing by
:func:`argv_lang`, the same rule as :func:`tutor.commands.output_lang`). Its descriptions and help texts are
catalog strings (``cli.help.*``), rendered when the parser is built. What argparse itself writes ("usage: ",
"positional arguments", "the following arguments are required: %s", ...) it passes through its module-level
``_`` and ``ngettext``, looked up when it writes; while a tutor parser is built, parses, formats its help or
reports an error, those two point at the parser's language's catalog (:func:`argparse_speaks`), where argparse's
English msgids have their translations (:mod:`tutor.i18n.argparse_ids`). Other parsers in the process are
untouched, and the names are restored afterwards.

A value the user typed is shown as argparse shows it (quoted, its control characters escaped by ``repr``), and
the whole message is cleaned of control characters (:func:`tutor.untrusted.clean_line`) before it is printed,
for the values argparse writes as they came (``unrecognized arguments: %s``).
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

from tutor.i18n import LANGS, N_, Lang, as_lang, t
from tutor.i18n.catalog import translations
from tutor.untrusted import clean_line

_T = TypeVar("_T")
# argparse names a bad value's type by its callable's ``__name__`` ("invalid int value"): in the reader's words
_TYPE_KEYS: dict[Callable[[str], Any], str] = {int: N_("argparse.type.int"), float: N_("argparse.type.float")}


@contextmanager
def argparse_speaks(lang: Lang) -> Iterator[None]:
    """argparse's ``_`` and ``ngettext`` on ``lang``'s catalog for the duration (nested uses restore in turn)."""
    catalog = translations(lang)
    saved = (getattr(argparse, "_"), getattr(argparse, "ngettext"))  # noqa: B009
    setattr(argparse, "_", catalog.gettext)  # noqa: B010
    setattr(argparse, "ngettext", catalog.ngettext)  # noqa: B010
    try:
        yield
    finally:
        setattr(argparse, "_", saved[0])  # noqa: B010
        setattr(argparse, "ngettext", saved[1])  # noqa: B010


def _named(convert: Callable[[str], _T], name: str) -> Callable[[str], _T]:
    def named(text: str) -> _T:
        return convert(text)

    named.__name__ = name
    return named


class TutorFormatter(argparse.HelpFormatter):
    """argparse's formatter; help texts shown as written."""

    def _expand_help(self, action: argparse.Action) -> str:
        # the help texts are catalog strings, complete as they are: no ``%(default)s`` to fill, and a "%" is a
        # percent sign, not a format
        return self._get_help_string(action) or ""


class TutorParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` that speaks ``lang``: its titles, ``-h``, usage and errors. Its
    subcommands' parsers are TutorParsers in the same language."""

    def __init__(self, prog: str | None = None, *, lang: Lang = "en", **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", TutorFormatter)
        self.lang: Lang = lang
        with argparse_speaks(lang):
            super().__init__(prog, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if kwargs.get("type") in _TYPE_KEYS:
            kwargs["type"] = _named(kwargs["type"], t(_TYPE_KEYS[kwargs["type"]], self.lang))
        return super().add_argument(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> argparse._SubParsersAction:  # type: ignore[type-arg]
        kwargs.setdefault("parser_class", functools.partial(TutorParser, lang=self.lang))
        with argparse_speaks(self.lang):
            return super().add_subparsers(**kwargs)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        with argparse_speaks(self.lang):
            return super().parse_known_args(args, namespace)

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        with argparse_speaks(self.lang):
            return super().parse_args(args, namespace)

    def format_usage(self) -> str:
        with argparse_speaks(self.lang):
            return super().format_usage()

    def format_help(self) -> str:
        with argparse_speaks(self.lang):
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        with argparse_speaks(self.lang):
            self.print_usage(sys.stderr)
            template = translations(self.lang).gettext("%(prog)s: error: %(message)s\n")
        said = template % {"prog": self.prog, "message": clean_line(message)}
        self.exit(2, said)


def argv_lang(argv: Sequence[str]) -> Lang:
    """The language the command line will speak, before it is parsed: ``--lang es|en`` (``--lang=es``) anywhere
    before ``--``, else the language last chosen in the tutor, else the locale's (as
    :func:`tutor.commands.output_lang`)."""
    from tutor.i18n import default_lang
    from tutor.settings import saved_lang

    chosen: str | None = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            chosen = argv[i + 1]
        elif arg.startswith("--lang="):
            chosen = arg.partition("=")[2]
    if chosen in LANGS:
        return as_lang(chosen)
    return saved_lang() or default_lang()


MAX_ROW_ID = 2**63 - 1
"""The largest id a stored row can have (SQLite's and PostgreSQL's 64-bit integers)."""


def check_row_id(value: int | None, option: str, lang: Lang) -> None:
    """Refuse an attempt's or entry's id that no store can hold (0, negative, past 64 bits) with one line, before
    it reaches a query (``OverflowError: Python int too large to convert to SQLite INTEGER``)."""
    from tutor.commands import CliError

    if value is not None and not 1 <= value <= MAX_ROW_ID:
        shown = clean_line(str(value), 40)
        raise CliError(t("cli.between", lang, option=option, low="1", high="2^63 − 1", got=shown), 2)

