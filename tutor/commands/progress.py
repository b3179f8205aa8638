"""``tutor progress`` — the progress report (lessons, the C0 checklist with evidence, calibration, history),
export/import of everything as JSON, and resets.

Import never overwrites silently: into a store that already has data it refuses unless ``--merge`` (add what is
missing, skipping rows already there) or ``--replace`` (discard the current progress first) is given.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.commands import CliError, output_lang
from tutor.i18n import Lang, t
from tutor.untrusted import clean_line, json_for_terminal

ID_WIDTH = 64
LINE_WIDTH = 1000

if TYPE_CHECKING:
    from tutor.progress.report import ProgressReport, StoreNotices
    from tutor.progress.rows import Attempt


def register(sub: argparse._SubParsersAction, lang: Lang) -> None:
    from tutor.commands import add_common_options, add_lang_option

    parser = sub.add_parser(
        "progress",
        help=t("cli.help.progress", lang),
        description=t("cli.desc.progress", lang),
    )
    add_common_options(parser)
    parser.add_argument("--json", action="store_true", help=t("cli.help.progress.json", lang))
    add_lang_option(parser)
    parser.add_argument("--check-env", action="store_true",
                        help=t("cli.help.progress.check_env", lang))
    parser.set_defaults(func=run_report)
    actions = parser.add_subparsers(dest="progress_command", metavar="ACTION", title=t("cli.title.actions", lang))

    export = actions.add_parser("export", help=t("cli.help.progress.export", lang))
    add_common_options(export)
    add_lang_option(export)
    export.add_argument("file", type=Path, metavar="FILE", help=t("cli.help.progress.export.file", lang))
    export.set_defaults(func=run_export)

    imp = actions.add_parser(
        "import",
        help=t("cli.help.progress.import", lang),
        description=t("cli.desc.progress.import", lang),
    )
    add_common_options(imp)
    add_lang_option(imp)
    imp.add_argument("file", type=Path, metavar="FILE", help=t("cli.help.progress.import.file", lang))
    how = imp.add_mutually_exclusive_group()
    how.add_argument("--merge", action="store_true", help=t("cli.help.progress.import.merge", lang))
    how.add_argument("--replace", action="store_true", help=t("cli.help.progress.import.replace", lang))
    imp.set_defaults(func=run_import)

    ack = actions.add_parser(
        "acknowledge",
        help=t("cli.help.progress.acknowledge", lang),
        description=t("cli.desc.progress.acknowledge", lang),
    )
    add_common_options(ack)
    add_lang_option(ack)
    ack.set_defaults(func=run_acknowledge)

    reset = actions.add_parser("reset", help=t("cli.help.progress.reset", lang))
    add_common_options(reset)
    add_lang_option(reset)
    which = reset.add_mutually_exclusive_group(required=True)
    which.add_argument("--exercise", metavar="ID", help=t("cli.help.progress.reset.exercise", lang))
    which.add_argument("--lesson", metavar="ID", help=t("cli.help.progress.reset.lesson", lang))
    which.add_argument("--all", action="store_true", help=t("cli.help.progress.reset.all", lang))
    reset.add_argument("--yes", action="store_true", help=t("cli.help.progress.reset.yes", lang))
    reset.set_defaults(func=run_reset)


CONFIRM_WORD = "yes"
"""What confirms a reset, in both languages: one exact word ('y', 'Yes' or 'sí' leave everything as it was)."""


def _store() -> Any:
    from tutor.progress.engines import open_store

    return open_store()


def env_lock_matches() -> bool | None:
    """A fresh comparison of the saved environment lock with this environment (None when there is no lock)."""
    from tutor import paths

    lock_path = paths.environment_lock()
    if not lock_path.exists():
        return None
    from tutor.doctor.lock import LockError, compare, current_lock, read_lock

    try:
        return compare(read_lock(lock_path), current_lock()) == []
    except LockError:
        return False


def render_store_notices(notices: StoreNotices, lang: str) -> list[str]:
    """The lines that say a corrupt file was moved aside (until acknowledged) or rows were kept aside."""
    import time

    from tutor.i18n import as_lang, t

    lines = []
    for r in notices.recoveries:
        at = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.recovered_at))
        said = t("store.recovered", as_lang(lang), backup=clean_line(r.backup_path), at=at)
        lines.append("! " + said.removeprefix("tutor: "))
    if notices.quarantined_rows:
        lines.append("! " + t("progress.cli.quarantined", as_lang(lang), n=notices.quarantined_rows))
    return lines + ([""] if lines else [])


def render_report(report: ProgressReport, lang: str) -> str:
    from tutor.i18n import as_lang, format_number, t, tn
    from tutor.practice.reveal import verdict_word
    from tutor.progress.c0 import when
    from tutor.progress.report import damaged_lines

    code = as_lang(lang)
    c0 = report.c0
    lines = [*render_store_notices(report.store, code),
             *("! " + line for line in damaged_lines(report.damaged, code)),
             t("progress.cli.c0_passed" if c0.passed else "progress.cli.c0_not_yet", code, name=c0.name)]
    if c0.cpu_only:
        lines.append("  " + t("progress.cli.cpu_only", code))
    for cond in c0.conditions:
        mark = "✓" if cond.passed else "✗"
        lines.append(f"  {mark} {cond.title.render(code)}")
        lines.append(f"      {cond.evidence.render(code)}")
    lines.append("")
    lines.append(t("progress.lessons", code))
    for lesson in report.lessons:
        ex = lesson.exercises
        n = len(ex)
        passes = t("progress.cli.passes", code, pass1=lesson.pass1_count, pass2=lesson.pass2_count,
                   reproduced=lesson.reproduced_count, n=n) if n else ""
        summary = t("progress.cli.lesson", code, mark="✓" if lesson.passed else "·", passed=lesson.passed_count,
                    n=n, read=lesson.sections_read, total=lesson.sections_total)
        lines.append(f"  {clean_line(lesson.lesson_id, ID_WIDTH):<14} {summary}{passes}")
        for e in ex:
            note = t("progress.cli.reproduced", code) if e.reproduced else ""
            lines.append(f"      {e.marks} {clean_line(e.exercise_id, ID_WIDTH)}{note}")
    if any(lesson.exercises for lesson in report.lessons):
        lines.append("  " + t("progress.cli.marks", code))
    cal = report.calibration
    lines.append("")
    lines.append(t("progress.calibration", code))
    if cal.n:
        lines.append("  " + t("progress.brier", code, brier=format_number(cal.brier or 0.0, code, ".3f"),
                              predictions=tn("count.prediction", cal.n, code)))
        for b in cal.buckets:
            lines.append("  " + b.sentence(code))
    else:
        lines.append("  " + t("progress.no_graded", code))
    if report.history:
        lines.append("")
        lines.append(t("progress.history", code))
        for h in report.history:
            score = "" if h.score is None else f" {format_number(h.score, code, '.2f')}"
            state = (t(f"progress.state.{h.state}", code) if h.state in ATTEMPT_STATES
                     else clean_line(h.state, 20))
            verdict = verdict_word(h.verdict, code) if h.verdict else ""
            lines.append(f"  #{clean_line(h.id, 24):<4} {clean_line(when(h.created_at), 40)}  "
                         f"{clean_line(h.exercise_id, ID_WIDTH):<24} p{clean_line(h.pass_number, 8)} {state:<10} "
                         f"{clean_line(verdict, 20):<10}{score}")
    # every entry is one line, whatever a stored or imported value holds (a newline shows as ⏎)
    return "\n".join(clean_line(line, LINE_WIDTH) for line in lines)


#: An attempt's states (the store's ids; ``progress.state.<id>`` in the catalogs).
ATTEMPT_STATES = ("locked", "graded", "cancelled", "failed")


def run_report(args: argparse.Namespace) -> int:
    from tutor.commands import course_dir
    from tutor.content import load_course
    from tutor.i18n import as_lang, t
    from tutor.progress.report import progress_report

    lang = output_lang(args)
    course = load_course(course_dir(args))
    env = env_lock_matches() if args.check_env else None
    store = _store()
    try:
        report = progress_report(course, store, env)
        location = str(store.path)
        from tutor.practice import unfinished

        left = unfinished.unfinished(store)
    finally:
        store.close()
    if args.json:
        document = {**report.to_json(), "store_location": location,
                    "unfinished": [{"id": a.id, "exercise": a.exercise_id, "pass": a.pass_number,
                                    "prediction": a.prediction.to_json(), "created_at": a.created_at} for a in left]}
        print(json_for_terminal(document, default=str))
    else:
        print(render_report(report, lang))
        lines = render_unfinished(left, lang)
        if lines:
            print("\n" + "\n".join(lines))
        print("\n" + t("progress.stored_at", as_lang(lang), where=clean_line(location)))
    return 0


def render_unfinished(attempts: Sequence[Attempt], lang: str) -> list[str]:
    """The unfinished attempts (locked, never measured) with the commands that resume or discard each."""
    from tutor.i18n import as_lang, t
    from tutor.practice.unfinished import describe

    code = as_lang(lang)
    if not attempts:
        return []
    lines = [t("unfinished.title", code)]
    for a in attempts:
        lines.append("  " + clean_line(describe(a, code), LINE_WIDTH))
        lines.append("  " + clean_line(t("unfinished.cli_hint", code, exercise=a.exercise_id, id=a.id), LINE_WIDTH))
    return lines


def rows_text(counts: dict[str, int], lang: str) -> str:
    """``3 attempts, 0 lab runs`` in ``lang``: each table of the store by its catalog name (an unknown one as
    stored)."""
    from tutor.i18n import as_lang, tn

    code = as_lang(lang)
    parts = []
    for table, n in counts.items():
        key = f"store.table.{table}"
        parts.append(tn(key, int(n), code) if t(key + ".other", code) != key + ".other"
                     else tn("count.row", int(n), code, table=table))
    return ", ".join(parts)


def run_acknowledge(args: argparse.Namespace) -> int:
    store = _store()
    try:
        n = store.acknowledge_recoveries()
    finally:
        store.close()
    lang = output_lang(args)
    print(t("progress.cli.acknowledged", lang, n=n) if n else t("progress.cli.nothing_to_acknowledge", lang))
    return 0


def run_export(args: argparse.Namespace) -> int:
    from tutor.commands.output import output_file
    from tutor.progress.exchange import export_to

    output_file(args.file, output_lang(args))  # never a rename over a device, a FIFO or a folder
    store = _store()
    try:
        counts = export_to(store, args.file)
    except OSError as exc:
        raise CliError(t("cli.cannot_write", output_lang(args), path=args.file,
                         reason=exc.strerror or str(exc)), 1) from None
    finally:
        store.close()
    lang = output_lang(args)
    print(t("progress.cli.exported", lang, file=args.file, rows=rows_text(counts, lang)))
    return 0


def run_import(args: argparse.Namespace) -> int:
    from tutor.progress.exchange import ExchangeError, import_from

    mode = "merge" if args.merge else "replace" if args.replace else "refuse"
    store = _store()
    try:
        added = import_from(store, args.file, mode)  # type: ignore[arg-type]
    except ExchangeError as exc:
        raise CliError(exc.describe(output_lang(args)), 2) from None
    finally:
        store.close()
    lang = output_lang(args)
    print(t(f"progress.cli.imported_{mode}", lang, file=args.file, rows=rows_text(added, lang)))
    return 0


def _check_reset_target(args: argparse.Namespace, counts: dict[str, int]) -> None:
    """An id that is neither in the course nor in the store is a typo: say so instead of deleting nothing."""
    if not (args.exercise or args.lesson) or any(counts.values()):
        return
    from tutor.commands import course_dir
    from tutor.content import load_course

    course = load_course(course_dir(args), require_translations=False, check_registry=False)
    if args.exercise and args.exercise not in course.exercises:
        raise CliError(t("progress.cli.unknown_exercise", output_lang(args), id=clean_line(args.exercise)), 2)
    if args.lesson and args.lesson not in course.lessons:
        raise CliError(t("progress.cli.unknown_lesson", output_lang(args), id=clean_line(args.lesson)), 2)


def run_reset(args: argparse.Namespace) -> int:
    store = _store()
    try:
        kwargs = {"exercise_id": args.exercise, "lesson_id": args.lesson}
        counts = store.reset_counts(**kwargs)
        _check_reset_target(args, counts)
        lang = output_lang(args)
        what = (t("progress.what_exercise", lang, id=args.exercise) if args.exercise
                else t("progress.what_lesson", lang, id=args.lesson) if args.lesson else t("progress.what_all", lang))
        summary = rows_text(counts, lang)
        word = CONFIRM_WORD
        if not args.yes:
            if not sys.stdin or not sys.stdin.isatty():
                raise CliError(t("progress.cli.needs_confirmation", lang, what=what), 2)
            try:
                answer = input(t("progress.cli.confirm", lang, what=what, summary=summary, word=word) + " ")
            except EOFError:
                answer = ""
            if answer.strip() != word:
                print(t("progress.cli.nothing_deleted", lang, word=word))
                return 1
        deleted = store.reset(**kwargs)
    finally:
        store.close()
    print(t("progress.cli.reset_done", lang, what=what, rows=rows_text(deleted, lang)))
    return 0
