"""``tutor lessons`` — check a course's YAML files, or list what a course holds."""

from __future__ import annotations

import argparse
from pathlib import Path

from tutor import paths
from tutor.commands import output_lang
from tutor.content import check_paths, load_course
from tutor.i18n import Lang, t, tn
from tutor.untrusted import clean_line

ID_WIDTH = 64
TITLE_WIDTH = 120
PATH_WIDTH = 200


def register(sub: argparse._SubParsersAction, lang: Lang) -> None:
    from tutor.commands import add_common_options, add_lang_option

    parser = sub.add_parser("lessons", help=t("cli.help.lessons", lang))
    actions = parser.add_subparsers(dest="lessons_command", metavar="ACTION")
    check = actions.add_parser(
        "check",
        help=t("cli.help.lessons.check", lang),
        description=t("cli.desc.lessons.check", lang),
    )
    check.add_argument("paths", nargs="*", type=Path, metavar="PATH", help=t("cli.help.lessons.check.paths", lang))
    check.add_argument(
        "--allow-one-language",
        action="store_true",
        help=t("cli.help.lessons.check.allow_one_language", lang),
    )
    check.add_argument(
        "--strict",
        action="store_true",
        help=t("cli.help.lessons.check.strict", lang),
    )
    add_common_options(check)
    add_lang_option(check)
    check.set_defaults(func=run_check)
    listing = actions.add_parser("list", help=t("cli.help.lessons.list", lang))
    add_common_options(listing)
    add_lang_option(listing)
    listing.set_defaults(func=run_list)
    parser.set_defaults(func=lambda args: (parser.print_help(), 0)[1])


def run_check(args: argparse.Namespace) -> int:
    targets: list[Path] = list(args.paths)
    course_arg = getattr(args, "course", None)
    if not targets:
        targets = [Path(course_arg) if course_arg is not None else paths.bundled_course()]
    course = check_paths(targets, require_translations=not args.allow_one_language)
    if getattr(args, "strict", False):
        from tutor.content.loader import strict_problems
        from tutor.grading.truth import literal_truth

        course.problems = sorted([*course.problems, *strict_problems(course, literal_truth)])
    lang = output_lang(args)
    for problem in course.problems:
        print(problem.format(lang))
    print(course.summary(lang))
    return 1 if course.errors else 0


def run_list(args: argparse.Namespace) -> int:
    from tutor.commands import course_dir

    lang = output_lang(args)
    course = load_course(course_dir(args))
    for level in course.levels:
        print(f"{clean_line(level.id, ID_WIDTH)}  {clean_line(level.title.get(lang), TITLE_WIDTH)}")
        for lesson in course.lessons_in(level.id):
            counts = t("lessons.list_counts", lang, sections=tn("count.section", len(lesson.sections), lang),
                       labs=tn("count.lab", len(lesson.labs), lang),
                       exercises=tn("count.exercise", len(course.exercises_of(lesson)), lang))
            title = clean_line(lesson.title.get(lang), TITLE_WIDTH)
            print(f"  {clean_line(lesson.id, ID_WIDTH):<14} {title}  ({counts})")
    for bad in course.invalid:
        print(f"  ! {clean_line(bad.path, PATH_WIDTH)}: {clean_line(bad.problems[0].text(lang))}")
    return 1 if course.errors else 0
