"""`tutor notebook` — the Lab Notebook: list its entries, write the learner's own parts, export them to Markdown."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from tutor.commands import CliError, output_lang
from tutor.i18n import Lang, format_number, t
from tutor.untrusted import clean, clean_line

# The parts of an entry the learner writes (tutor.progress.notebook.LEARNER_FIELDS, repeated here so that building
# the parser imports nothing heavy; a test checks they are the same).
LEARNER_PARTS: tuple[str, ...] = ("hypothesis", "prediction", "procedure", "gap", "next_question")
PART_LIMIT_CHARS = 20_000


def register(sub: argparse._SubParsersAction, lang: Lang) -> None:
    from tutor.commands import add_common_options, add_lang_option

    parser = sub.add_parser(
        "notebook",
        help=t("cli.help.notebook", lang),
        description=t("cli.desc.notebook", lang),
    )
    add_common_options(parser)
    parser.set_defaults(func=run)
    actions = parser.add_subparsers(dest="notebook_command", metavar="ACTION", title=t("cli.title.actions", lang))

    listing = actions.add_parser("list", help=t("cli.help.notebook.list", lang))
    add_common_options(listing)
    add_lang_option(listing)

    export = actions.add_parser("export", help=t("cli.help.notebook.export", lang))
    add_common_options(export)
    add_lang_option(export)
    export.add_argument(
        "file",
        nargs="?",
        default=None,
        metavar="FILE",
        help=t("cli.help.notebook.export.file", lang),
    )
    export.add_argument("--entry", type=int, action="append", metavar="ID",
                        help=t("cli.help.notebook.export.entry", lang))
    export.add_argument("--lab", metavar="LAB_ID", help=t("cli.help.notebook.export.lab", lang))

    write = actions.add_parser(
        "write",
        help=t("cli.help.notebook.write", lang),
        description=t("cli.desc.notebook.write", lang, limit=format_number(PART_LIMIT_CHARS, lang, ",d")),
    )
    add_common_options(write)
    add_lang_option(write)
    write.add_argument("entry_id", type=int, metavar="ID", help=t("cli.help.notebook.write.entry_id", lang))
    for part in LEARNER_PARTS:
        write.add_argument(f"--{part.replace('_', '-')}", dest=f"part_{part}", metavar="TEXT", default=None,
                           help=t(f"cli.help.notebook.write.{part}", lang))
    write.add_argument("--note", dest="note", metavar="TEXT", default=None,
                       help=t("cli.help.notebook.write.note", lang))


def run(args: argparse.Namespace) -> int:
    from tutor import paths
    from tutor.i18n import t
    from tutor.progress.engines import open_store
    from tutor.progress.notebook import load_entries, render_notebook
    from tutor.untrusted import clean_line

    lang = output_lang(args)
    if args.notebook_command == "write":
        return _write(args, lang)
    store = open_store()
    try:
        entries = load_entries(store)
    finally:
        store.close()

    if (args.notebook_command or "list") == "list":
        if not entries:
            print(t("notebookcli.empty", lang))
            return 0
        for item in entries:
            e = item.entry
            when = datetime.fromtimestamp(e.created_at).strftime("%Y-%m-%d %H:%M")
            device = f"  [{clean_line(e.device, 80)}]" if e.device else ""
            print(f"{item.id:>4}  {when}  {clean_line(e.lab_id, 64):<28} {clean_line(e.title, 120)}{device}")
            if item.damaged:  # kept, and said: the row's JSON did not read
                print(f"      {t('notebook.w.damaged', lang, error=clean_line(item.damaged))}")
        return 0

    chosen = entries
    if args.entry:
        known = {item.id for item in entries}
        missing = [i for i in args.entry if i not in known]
        if missing:
            raise CliError(t("notebookcli.no_entry", lang, entry=missing[0]))
        chosen = [item for item in entries if item.id in set(args.entry)]
    if args.lab:
        chosen = [item for item in chosen if item.entry.lab_id == args.lab]
        if not chosen:
            raise CliError(t("notebookcli.no_lab_entry", lang, lab=clean_line(args.lab)))
    text = render_notebook([item.entry for item in chosen], lang)

    if args.file == "-":
        sys.stdout.write(text)
        return 0
    if args.file is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = paths.reports_dir() / f"lab-notebook-{stamp}.md"
    else:
        target = Path(args.file).expanduser()
        try:
            is_dir = target.is_dir()
        except OSError:  # a name too long for the system (errno 36): the write below says so
            is_dir = False
        if is_dir:
            raise CliError(t("notebookcli.is_dir", lang, path=clean_line(target)))
        from tutor.commands.output import output_file

        output_file(target, lang)  # a FIFO would block the write, a device would take the notebook
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        reason = exc.strerror or exc
        raise CliError(t("cli.cannot_write", lang, path=clean_line(target), reason=reason)) from None
    print(clean_line(target))
    return 0


def _part_text(value: str, part: str, lang: Lang) -> str:
    """The text given for one part: '-' reads standard input (bounded); control characters are removed."""
    from tutor.i18n import t
    from tutor.i18n.numbers import integer

    if value == "-":
        value = sys.stdin.read(PART_LIMIT_CHARS + 1)
    if len(value) > PART_LIMIT_CHARS:
        name = t("notebook.w.note" if part == "note" else f"notebook.h.{part}", lang)
        raise CliError(t("notebookcli.too_long", lang, part=name,
                         limit=integer(PART_LIMIT_CHARS, lang)))
    return clean(value).strip()


def _write(args: argparse.Namespace, lang: Lang) -> int:
    """`tutor notebook write ID --gap TEXT …`: the learner's own parts, as the notebook screen saves them."""
    from tutor.i18n import t, tn
    from tutor.progress.engines import open_store
    from tutor.progress.notebook import load_entries, save_entry

    given = {part: getattr(args, f"part_{part}") for part in LEARNER_PARTS
             if getattr(args, f"part_{part}", None) is not None}
    note_given = getattr(args, "note", None)
    if not given and note_given is None:
        raise CliError(t("notebookcli.nothing_to_write", lang))
    changes = {part: _part_text(value, part, lang) for part, value in given.items()}
    note = _part_text(note_given, "note", lang) if note_given is not None else None
    store = open_store()
    try:
        stored = {item.id: item for item in load_entries(store)}
        item = stored.get(args.entry_id)
        if item is None:
            raise CliError(t("notebookcli.no_entry", lang, entry=args.entry_id))
        if item.damaged:  # its stored JSON did not read: kept as it is, never overwritten with empty parts
            raise CliError(t("notebookcli.damaged", lang, entry=item.id, error=clean_line(item.damaged)))
        entry = item.entry
        if "prediction" in changes and entry.prediction_locked and changes["prediction"] != entry.prediction:
            raise CliError(t("notebookcli.prediction_locked", lang, entry=item.id))  # predict first: nothing written
        entry = entry.with_fields(**changes)
        if note:
            entry = entry.with_note(note)
        save_entry(store, entry, entry_id=item.id)
    finally:
        store.close()
    lab = clean_line(item.entry.lab_id)
    for part, text in changes.items():
        print(tn("notebookcli.written", len(text.split()), lang, entry=item.id, part=t(f"notebook.h.{part}", lang),
                 lab=lab))
    if note:
        when = datetime.fromtimestamp(entry.notes[-1].at).strftime("%Y-%m-%d %H:%M")
        print(t("notebookcli.note_added", lang, entry=item.id, lab=lab, when=when))
    return 0
