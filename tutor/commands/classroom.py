"""``tutor class`` — teaching a class on one PostgreSQL: set it up, add learners, and (later) report on them.

Every action works on the store ``--store``/``TUTOR_STORE`` names, which must be a PostgreSQL one; ``init`` and
``add-learner`` need the class owner's connection (the instructor's).
"""

from __future__ import annotations

import argparse

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
    add_lang_option(init)
    init.set_defaults(func=run_init)

    add = actions.add_parser("add-learner", help=t("cli.help.class.add_learner", lang))
    add_common_options(add)
    add.add_argument("name", metavar="NAME", help=t("cli.help.class.add_learner.name", lang))
    add.add_argument("--host", default=None, help=t("cli.help.class.add_learner.host", lang))
    add_lang_option(add)
    add.set_defaults(func=run_add_learner)

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

    setup = init_class(_admin_dsn())
    print(t("class.init_done", _lang(args), server=setup.server, schema=setup.schema, owner=setup.owner,
            count=len(setup.tables)))
    return 0


def run_add_learner(args: argparse.Namespace) -> int:
    from tutor.progress.classroom import add_learner

    creds = add_learner(_admin_dsn(), args.name, host=args.host)
    print(t("class.learner_added", _lang(args), name=creds.name, token=creds.token, dsn=creds.address,
            pgpass=creds.pgpass))
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
        print(json.dumps(report, ensure_ascii=False, indent=1, default=str))
    else:
        print(render_class_report(report, _lang(args)), end="")
    return 0
