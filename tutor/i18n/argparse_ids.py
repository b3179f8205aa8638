"""argparse's own messages, by the English msgids CPython's ``argparse`` passes to ``gettext`` (3.11), so that
Babel's extraction puts them in the tutor's catalog beside the tutor's ids.

argparse looks its module-level ``_`` and ``ngettext`` up when it writes a message; :mod:`tutor.commands.parsing`
points them at the catalog of the parser's language while a tutor parser works, so "usage: ", "the following
arguments are required: %s" and the rest read in Spanish. A later Python that rewords a message shows that one in
English until its msgid is added here (``tests/test_i18n_catalog.py`` extracts the running Python's argparse and
fails on a msgid the catalog lacks).
"""

from __future__ import annotations

from tutor.i18n import N_, N_plural

# what a learner meets: help, usage and the errors of a command line
N_("usage: ")
N_("positional arguments")
N_("options")
N_("show this help message and exit")
N_("%(prog)s: error: %(message)s\n")
N_("argument %(argument_name)s: %(message)s")
N_("the following arguments are required: %s")
N_("unrecognized arguments: %s")
N_("one of the arguments %s is required")
N_("not allowed with argument %s")
N_("ignored explicit argument %r")
N_("expected one argument")
N_("expected at most one argument")
N_("expected at least one argument")
N_plural("expected %s argument", "expected %s arguments")
N_("ambiguous option: %(option)s could match %(matches)s")
N_("unexpected option string: %s")
N_("invalid %(type)s value: %(value)r")
N_("invalid choice: %(value)r (choose from %(choices)s)")
N_("unknown parser %(parser_name)r (choices: %(choices)s)")
N_("argument \"-\" with mode %r")
N_("can't open '%(filename)s': %(error)s")

# what only a mistake in the tutor's own parsers could show
N_(".__call__() not defined")
N_("conflicting subparser: %s")
N_("conflicting subparser alias: %s")
N_("cannot merge actions - two groups are named %r")
N_("'required' is an invalid argument for positionals")
N_("invalid option string %(option)r: must start with a character %(prefix_chars)r")
N_("dest= is required for options like %r")
N_("invalid conflict_resolution value: %r")
N_plural("conflicting option string: %s", "conflicting option strings: %s")
N_("mutually exclusive arguments must be optional")
N_("cannot have multiple subparser arguments")
N_("%r is not callable")
