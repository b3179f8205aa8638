"""`tutor notebook` — the Lab Notebook: list its entries, export them to Markdown."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from tutor.commands import CliError, output_lang


def register(sub: argparse._SubParsersAction) -> None:
    from tutor.commands import add_common_options, add_lang_option

    parser = sub.add_parser(
        "notebook",
        help="the Lab Notebook: list entries, export them to Markdown",
        description="The Lab Notebook: one entry per lab run (hypothesis, set-up, prediction, result, the gap).",
    )
    add_common_options(parser)
    parser.set_defaults(func=run)
    actions = parser.add_subparsers(dest="notebook_command", metavar="ACTION", title="actions")

    listing = actions.add_parser("list", help="one line per entry (id, date, lab, device)")
    add_common_options(listing)
    add_lang_option(listing, "language of the headings")

    export = actions.add_parser("export", help="write every entry (or some) as one Markdown file")
    add_common_options(export)
    add_lang_option(export, "language of the headings")
    export.add_argument(
        "file",
        nargs="?",
        default=None,
        metavar="FILE",
        help="where to write ('-' for stdout; default: a new file in the reports folder, whose path is printed)",
    )
    export.add_argument("--entry", type=int, action="append", metavar="ID", help="only this entry (repeatable)")
    export.add_argument("--lab", metavar="LAB_ID", help="only the entries of this lab")



def run(args: argparse.Namespace) -> int:
    from tutor import paths
    from tutor.progress.engines import open_store
    from tutor.progress.notebook import load_entries, render_notebook

    lang = output_lang(args)
    store = open_store()
    try:
        entries = load_entries(store)
    finally:
        store.close()

    if (args.notebook_command or "list") == "list":
        if not entries:
            print("The Lab Notebook is empty: finish a lab in the tutor to file its first entry.")
            return 0
        for item in entries:
            e = item.entry
            when = datetime.fromtimestamp(e.created_at).strftime("%Y-%m-%d %H:%M")
            device = f"  [{e.device}]" if e.device else ""
            print(f"{item.id:>4}  {when}  {e.lab_id:<28} {e.title}{device}")
        return 0

    chosen = entries
    if args.entry:
        known = {item.id for item in entries}
        missing = [i for i in args.entry if i not in known]
        if missing:
            raise CliError(f"no notebook entry with id {missing[0]} (see 'tutor notebook list')")
        chosen = [item for item in entries if item.id in set(args.entry)]
    if args.lab:
        chosen = [item for item in chosen if item.entry.lab_id == args.lab]
        if not chosen:
            raise CliError(f"no notebook entry for lab {args.lab!r} (see 'tutor notebook list')")
    text = render_notebook([item.entry for item in chosen], lang)

    if args.file == "-":
        sys.stdout.write(text)
        return 0
    if args.file is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = paths.reports_dir() / f"lab-notebook-{stamp}.md"
    else:
        target = Path(args.file).expanduser()
        if target.is_dir():
            raise CliError(f"{target} is a directory; give a file name")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {target}: {exc.strerror or exc}") from None
    print(target)
    return 0
