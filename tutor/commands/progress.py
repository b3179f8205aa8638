"""`tutor progress` — placeholder until its issue lands (see the issue tracker)."""

from __future__ import annotations

import argparse

from tutor.commands import CliError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("progress", help="(not built yet)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    raise CliError("'tutor progress' is not built yet", exit_code=2)
