"""The command line's parsers in the reader's language: help, usage and argparse's own errors from the catalog.

Every parser of ``tutor`` is a :class:`TutorParser` built for one language (decided before parsing by
:func:`argv_lang`, the same rule as :func:`tutor.commands.output_lang`). Its descriptions and help texts are
catalog strings (``cli.help.*``), rendered when the parser is built; what argparse itself writes is translated
here, inside the subclass:

* the titles it creates ("positional arguments", "options"), ``-h``'s help and the "usage: " prefix are set when
  the parser and its help formatter are made;
* its errors reach :meth:`TutorParser.error` as English text (CPython formats them through ``gettext`` and then
  calls ``error``). The English templates are those of CPython's ``argparse`` (:data:`ARGPARSE_TEMPLATES`); each
  becomes a pattern, and a message that matches one is rendered again from the catalog (``argparse.*``), with the
  values the user typed cleaned of control characters (:func:`tutor.untrusted.clean_line`).

Why not gettext: argparse binds ``gettext.gettext`` at import time, so translating through it would mean ``.mo``
files (a second catalog beside the project's one) or replacing ``argparse._``/``gettext`` for the whole process,
which would also change what every other library's parser prints. The subclass changes only ``tutor``'s parsers.
A message whose template changes in a later Python shows in English, cleaned; ``tests/test_cli_language.py``
produces every translated error and fails if one stops matching.
"""

from __future__ import annotations

import argparse
import ast
import functools
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from tutor.i18n import LANGS, Lang, as_lang, t, tn
from tutor.untrusted import clean_line

# English templates as CPython's argparse writes them (3.11; each ``%s`` given a name), with the catalog key that
# renders each. ``%(name)r``: a value the user typed (shown cleaned); ``%(name)s``: names from the parser.
ARGPARSE_TEMPLATES: tuple[tuple[str, str], ...] = (
    ("argparse.required", "the following arguments are required: %(names)s"),
    ("argparse.unrecognized", "unrecognized arguments: %(args)s"),
    ("argparse.one_of_required", "one of the arguments %(names)s is required"),
    ("argparse.not_allowed_with", "not allowed with argument %(other)s"),
    ("argparse.invalid_choice", "invalid choice: %(value)r (choose from %(choices)s)"),
    ("argparse.expected_one", "expected one argument"),
    ("argparse.expected_at_most_one", "expected at most one argument"),
    ("argparse.expected_at_least_one", "expected at least one argument"),
    ("argparse.expected_n", "expected %(n)s arguments?"),
    ("argparse.invalid_value", "invalid %(type)s value: %(value)r"),
    ("argparse.ambiguous", "ambiguous option: %(option)s could match %(matches)s"),
    ("argparse.ignored_explicit", "ignored explicit argument %(value)r"),
    ("argparse.unknown_parser", "unknown parser %(value)r (choices: %(choices)s)"),
)
_ARGUMENT = re.compile(r"argument (?P<argument>.+?): (?P<message>.*)", re.DOTALL)
# argparse's type names for the ``type=`` callables tutor uses; another shows as its name
_TYPE_KEYS = {"int": "argparse.type.int", "float": "argparse.type.float"}


def _pattern(template: str) -> re.Pattern[str]:
    out = []
    for piece in re.split(r"(%\(\w+\)[sr])", template):
        named = re.fullmatch(r"%\((\w+)\)([sr])", piece)
        if named:
            out.append(f"(?P<{named.group(1)}__{named.group(2)}>.+?)")
        else:
            # the template's literal text; "arguments?" (argparse's ngettext) is the one regex in it
            out.append(re.escape(piece).replace(r"arguments\?", "arguments?"))
    return re.compile("".join(out), re.DOTALL)


_PATTERNS = tuple((key, _pattern(template)) for key, template in ARGPARSE_TEMPLATES)


def _typed_value(shown: str) -> str:
    """A value argparse showed with ``%r``, as the user typed it (cleaned): ``'\\x1b]52…'`` → ``]52…``."""
    try:
        value = ast.literal_eval(shown)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        value = shown
    return clean_line(value if isinstance(value, str) else shown)


def translate_error(message: str, lang: Lang) -> str:
    """One argparse error message in ``lang`` (unknown ones as they came, cleaned of control characters)."""
    argument = _ARGUMENT.fullmatch(message)
    if argument:
        return t("argparse.argument", lang, argument=clean_line(argument.group("argument")),
                 message=translate_error(argument.group("message"), lang))
    for key, pattern in _PATTERNS:
        found = pattern.fullmatch(message)
        if not found:
            continue
        fields: dict[str, str] = {}
        for group, text in found.groupdict().items():
            name, kind = group.split("__")
            fields[name] = _typed_value(text) if kind == "r" else clean_line(text)
        if key == "argparse.expected_n":
            count = int(fields["n"]) if fields["n"].isdigit() else 2
            return tn(key, count, lang)
        if key == "argparse.invalid_value" and fields["type"] in _TYPE_KEYS:
            fields["type"] = t(_TYPE_KEYS[fields["type"]], lang)
        return t(key, lang, **fields)
    return clean_line(message)


class TutorFormatter(argparse.HelpFormatter):
    """argparse's formatter with the "usage: " prefix in the reader's language; help texts shown as written."""

    def __init__(self, prog: str, *, lang: Lang = "en", **kwargs: Any) -> None:
        super().__init__(prog, **kwargs)
        self.lang = lang

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup], prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, t("argparse.usage", self.lang) if prefix is None else prefix)

    def _expand_help(self, action: argparse.Action) -> str:
        # the help texts are catalog strings, complete as they are: no ``%(default)s`` to fill, and a "%" is a
        # percent sign, not a format
        return self._get_help_string(action) or ""


class TutorParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` that speaks ``lang``: its titles, ``-h``, usage and errors. Its
    subcommands' parsers are TutorParsers in the same language."""

    def __init__(self, prog: str | None = None, *, lang: Lang = "en", add_help: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", functools.partial(TutorFormatter, lang=lang))
        super().__init__(prog, add_help=False, **kwargs)
        self.lang: Lang = lang
        self._positionals.title = t("argparse.positionals", lang)
        self._optionals.title = t("argparse.options", lang)
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=t("argparse.help", lang))

    def add_subparsers(self, **kwargs: Any) -> argparse._SubParsersAction:  # type: ignore[type-arg]
        kwargs.setdefault("parser_class", functools.partial(TutorParser, lang=self.lang))
        return super().add_subparsers(**kwargs)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        said = t("argparse.error", self.lang, prog=self.prog, message=translate_error(message, self.lang))
        self.exit(2, said + "\n")


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

