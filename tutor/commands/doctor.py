"""`tutor doctor` — diagnose the PyTorch/CUDA stack in seconds and lock a reproducible environment."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tutor.commands import CliError, output_lang
from tutor.i18n import Lang, as_lang, t
from tutor.untrusted import json_for_terminal

_SENTINEL_DEFAULT = "__default__"


def register(sub: argparse._SubParsersAction, lang: Lang) -> None:
    from tutor.commands import add_common_options, add_lang_option

    parser = sub.add_parser(
        "doctor",
        help=t("cli.help.doctor", lang),
        description=t("cli.desc.doctor", lang),
    )
    add_common_options(parser)
    parser.add_argument("--json", action="store_true", help=t("cli.help.doctor.json", lang))
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--lock",
        nargs="?",
        const=_SENTINEL_DEFAULT,
        default=None,
        metavar="FILE",
        help=t("cli.help.doctor.lock", lang),
    )
    group.add_argument(
        "--check-lock",
        nargs="?",
        const=_SENTINEL_DEFAULT,
        default=None,
        metavar="FILE",
        help=t("cli.help.doctor.check_lock", lang),
    )
    parser.add_argument(
        "--no-probe",
        action="store_true",
        help=t("cli.help.doctor.no_probe", lang),
    )
    add_lang_option(parser)
    parser.set_defaults(func=run)


def _lock_path(value: str) -> Path:
    if value == _SENTINEL_DEFAULT:
        from tutor import paths

        return paths.environment_lock()
    return Path(value).expanduser()


def run(args: argparse.Namespace) -> int:
    from tutor.doctor import LockError, run_doctor
    from tutor.results.lock import LockRebuild

    if args.lock is not None:
        mode, lock_path = "write", _lock_path(args.lock)
        from tutor.commands.output import output_file

        output_file(lock_path, output_lang(args))  # the lock is renamed into place: never over a device or FIFO
    elif args.check_lock is not None:
        mode, lock_path = "check", _lock_path(args.check_lock)
    else:
        mode, lock_path = "auto", None
    try:
        report = run_doctor(lock_mode=mode, lock_path=lock_path, probe_kernel=not args.no_probe)  # type: ignore[arg-type]
    except LockError as exc:
        raise CliError(exc.message(output_lang(args)), exit_code=2) from None
    except OSError as exc:
        raise CliError(t("doctor.cli.cannot_write_lock", output_lang(args), path=lock_path,
                         reason=exc.strerror or str(exc)), exit_code=2) from None

    document = report.to_json()
    _record(report.passed, document, report.lock.matches if report.lock else None, output_lang(args))
    if args.json:
        print(json_for_terminal(document, indent=2))
    else:
        lang = output_lang(args)
        print(report.render_text(lang=lang))
        if report.lock is not None and report.lock.written:
            rebuild = report.lock.rebuild or LockRebuild()
            print(t("doctor.cli.lock_written", lang, path=report.lock.path, requirements=rebuild.requirements,
                    dockerfile=rebuild.dockerfile, image=rebuild.base_image))
    return report.exit_code


def _record(passed: bool, document: dict[str, object], lock_matches: bool | None, lang: str = "en") -> None:
    """Store the run as C0 evidence; a store problem is one line on stderr, never a lost report."""
    try:
        from tutor.progress.engines import open_store

        store = open_store()
        try:
            # A corrupt file moved aside is announced on stderr by the CLI's recovery listener.
            store.record_doctor_run(passed=passed, report=document, lock_matches=lock_matches)
        finally:
            store.close()
    except Exception as exc:  # the diagnosis is still printed
        print("tutor: " + t("doctor.cli.not_recorded", as_lang(lang), reason=exc), file=sys.stderr)
