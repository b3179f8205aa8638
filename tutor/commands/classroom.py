"""``tutor class`` — teaching a class on one PostgreSQL: set it up, add, list, reset and remove learners, see and
break device leases, and report on the class.

Every action works on the store ``--store``/``TUTOR_STORE`` names, which must be a PostgreSQL one, with the class
owner's connection (the instructor's; its password in ``~/.pgpass`` rather than on a command line).
"""

from __future__ import annotations

import argparse
from typing import Any

from tutor.commands import output_lang
from tutor.i18n import Lang, t


def register(sub: argparse._SubParsersAction, lang: Lang) -> None:
    from tutor.commands import add_common_options, add_lang_option

    parser = sub.add_parser(
        "class",
        help=t("cli.help.class", lang),
        description=t("cli.desc.class", lang),
    )
    add_common_options(parser)
    actions = parser.add_subparsers(dest="class_command", metavar="ACTION", title=t("cli.title.actions", lang),
                                    required=True)

    init = actions.add_parser("init", help=t("cli.help.class.init", lang))
    add_common_options(init)
    init.add_argument("--allow-superuser", action="store_true", help=t("cli.help.class.allow_superuser", lang))
    add_lang_option(init)
    init.set_defaults(func=run_init)

    add = actions.add_parser("add-learner", help=t("cli.help.class.add_learner", lang))
    add_common_options(add)
    add.add_argument("name", metavar="NAME", help=t("cli.help.class.add_learner.name", lang))
    add.add_argument("--host", default=None, help=t("cli.help.class.add_learner.host", lang))
    add_lang_option(add)
    add.set_defaults(func=run_add_learner)

    learners = actions.add_parser("learners", help=t("cli.help.class.learners", lang))
    add_common_options(learners)
    learners.add_argument("--json", action="store_true", help=t("cli.help.class.learners.json", lang))
    add_lang_option(learners)
    learners.set_defaults(func=run_learners)

    reset = actions.add_parser("reset-token", help=t("cli.help.class.reset_token", lang))
    add_common_options(reset)
    reset.add_argument("name", metavar="NAME", help=t("cli.help.class.add_learner.name", lang))
    reset.add_argument("--host", default=None, help=t("cli.help.class.add_learner.host", lang))
    add_lang_option(reset)
    reset.set_defaults(func=run_reset_token)

    remove = actions.add_parser("remove-learner", help=t("cli.help.class.remove_learner", lang))
    add_common_options(remove)
    remove.add_argument("name", metavar="NAME", help=t("cli.help.class.add_learner.name", lang))
    add_lang_option(remove)
    remove.set_defaults(func=run_remove_learner)

    leases = actions.add_parser("leases", help=t("cli.help.class.leases", lang))
    add_common_options(leases)
    leases.add_argument("--json", action="store_true", help=t("cli.help.class.leases.json", lang))
    add_lang_option(leases)
    leases.set_defaults(func=run_leases)

    brk = actions.add_parser("break-lease", help=t("cli.help.class.break_lease", lang))
    add_common_options(brk)
    brk.add_argument("who", metavar="SESSION|LEARNER", nargs="?", default=None,
                     help=t("cli.help.class.break_lease.who", lang))
    brk.add_argument("--older-than", type=float, default=None, metavar="SECONDS",
                     help=t("cli.help.class.break_lease.older_than", lang))
    add_lang_option(brk)
    brk.set_defaults(func=run_break_lease)

    report = actions.add_parser(
        "report",
        help=t("cli.help.class.report", lang),
        description=t("cli.desc.class.report", lang),
    )
    add_common_options(report)
    how = report.add_mutually_exclusive_group()
    how.add_argument("--json", action="store_true", help=t("cli.help.class.report.json", lang))
    how.add_argument("--markdown", action="store_true", help=t("cli.help.class.report.markdown", lang))
    add_lang_option(report)
    report.set_defaults(func=run_report)


def _admin_dsn() -> str:
    from tutor.progress.classroom import NotAClassStore
    from tutor.progress.engines import is_class_store, store_spec

    spec = store_spec()
    if spec is None or not is_class_store(spec):
        raise NotAClassStore()
    return spec


def _lang(args: argparse.Namespace) -> Lang:

    return output_lang(args)


def run_init(args: argparse.Namespace) -> int:
    from tutor.progress.classroom import init_class

    setup = init_class(_admin_dsn(), allow_superuser=args.allow_superuser)
    print(t("class.init_done", _lang(args), server=setup.server, schema=setup.schema, owner=setup.owner,
            count=len(setup.tables)))
    return 0


def run_add_learner(args: argparse.Namespace) -> int:
    from tutor.progress.classroom import add_learner

    creds = add_learner(_admin_dsn(), args.name, host=args.host)
    print(t("class.learner_added", _lang(args), name=creds.name, token=creds.token, dsn=creds.address,
            pgpass=creds.pgpass))
    return 0


def run_learners(args: argparse.Namespace) -> int:
    import json
    from dataclasses import asdict

    from tutor.progress.classroom import class_learners
    from tutor.untrusted import clean_line

    learners = class_learners(_admin_dsn())
    lang = _lang(args)
    if args.json:
        print(json.dumps([asdict(r) for r in learners], ensure_ascii=False, indent=1))
    elif not learners:
        print(t("class.learners_none", lang))
    for role in learners if not args.json else ():
        extra = t("class.learner_extra", lang, extra=clean_line(role.extra)) if role.extra else ""
        if role.token == "changed":
            extra += t("class.learner_token_changed", lang, name=clean_line(role.name))
        print(t("class.learner_line", lang, name=clean_line(role.name), sessions=str(role.sessions),
                login=t("class.learner_can_login" if role.can_login else "class.learner_cannot_login", lang),
                extra=extra))
    if not args.json and any(role.token == "unknown" for role in learners):
        print(t("class.learners_tokens_unknown", lang))
    return 0


def run_reset_token(args: argparse.Namespace) -> int:
    from tutor.progress.classroom import reset_token

    creds = reset_token(_admin_dsn(), args.name, host=args.host)
    lang = _lang(args)
    print(t("class.token_reset", lang, name=creds.name))
    print(t("class.learner_added", lang, name=creds.name, token=creds.token, dsn=creds.address,
            pgpass=creds.pgpass))
    return 0


def run_remove_learner(args: argparse.Namespace) -> int:
    from tutor.progress.classroom import remove_learner

    remove_learner(_admin_dsn(), args.name)
    print(t("class.learner_removed", _lang(args), name=args.name))
    return 0


def _lease_line(held: Any, lang: Lang, now: float) -> str:
    from tutor.i18n import format_number
    from tutor.untrusted import clean_line

    device = clean_line(held.device) if held.device is not None else t("class.lease_unknown", lang)
    since = (t("class.lease_for", lang, seconds=format_number(max(0.0, now - held.since), lang, ".0f"))
             if held.since is not None else t("class.lease_since_unknown", lang))
    return t("class.lease_line", lang, pid=str(held.pid), learner=clean_line(held.learner), device=device,
             since=since, waiting=str(held.waiting))


def run_leases(args: argparse.Namespace) -> int:
    import json
    import time
    from dataclasses import asdict

    from tutor.progress.classroom import class_leases

    held = class_leases(_admin_dsn())
    lang = _lang(args)
    if args.json:
        print(json.dumps([asdict(h) for h in held], ensure_ascii=False, indent=1))
    elif not held:
        print(t("class.leases_none", lang))
    else:
        now = time.time()
        for lease in held:
            print(_lease_line(lease, lang, now))
    return 0


def run_break_lease(args: argparse.Namespace) -> int:
    import time

    from tutor.commands import CliError
    from tutor.progress.classroom import break_leases

    lang = _lang(args)
    if args.who is None and args.older_than is None:
        raise CliError(t("class.break_what", lang))
    now = time.time()
    for held in break_leases(_admin_dsn(), who=args.who, older_than_s=args.older_than):
        print(t("class.lease_broken", lang, line=_lease_line(held, lang, now)))
    return 0


def run_report(args: argparse.Namespace) -> int:
    import json

    from tutor.commands import course_dir
    from tutor.content import load_course
    from tutor.progress.class_report import class_report, render_class_report
    from tutor.progress.postgres import PostgresStore

    store = PostgresStore(_admin_dsn())
    try:
        report = class_report(load_course(course_dir(args)), store)
    finally:
        store.close()
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=1, default=str))
    else:
        print(render_class_report(report, _lang(args)), end="")
    return 0
