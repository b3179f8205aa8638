"""``tutor lab`` — the course's labs without the TUI: list them, or run one headless (predict, lock, measure in the
measurement worker process, store the run, file the Lab Notebook entry).

``run`` goes through the flow the lab screen uses (:class:`tutor.practice.labs.LabRunner`). Exit codes: 0 once the
run is stored and its entry filed; 2 on bad input (nothing runs); 1 when the measurement fails; 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from typing import Any

from tutor.commands import CliError, output_lang
from tutor.commands.output import ProgressPrinter
from tutor.i18n import Lang, t
from tutor.untrusted import clean_line, json_for_terminal


def register(sub: argparse._SubParsersAction, lang: Lang) -> None:
    from tutor.commands import add_common_options, add_lang_option

    parser = sub.add_parser(
        "lab",
        help=t("cli.help.lab", lang),
        description=t("cli.desc.lab", lang),
    )
    add_common_options(parser)
    parser.set_defaults(func=lambda args: (parser.print_help(), 0)[1])
    actions = parser.add_subparsers(dest="lab_command", metavar="ACTION", title=t("cli.title.actions", lang))

    listing = actions.add_parser("list", help=t("cli.help.lab.list", lang))
    add_common_options(listing)
    add_lang_option(listing)
    listing.add_argument("--json", action="store_true", help=t("cli.help.lab.list.json", lang))
    listing.set_defaults(func=run_list)

    run = actions.add_parser(
        "run",
        help=t("cli.help.lab.run", lang),
        description=t("cli.desc.lab.run", lang),
    )
    add_common_options(run)
    run.add_argument("lab_id", metavar="LAB_ID", help=t("cli.help.lab.run.lab_id", lang))
    run.add_argument("--predict", required=True, metavar="ANSWER", help=t("cli.help.lab.run.predict", lang))
    add_lang_option(run)
    run.add_argument("--json", action="store_true", help=t("cli.help.lab.run.json", lang))
    run.set_defaults(func=run_lab)


def _lang(args: argparse.Namespace) -> Any:

    return output_lang(args)


def _labs(args: argparse.Namespace) -> list[tuple[Any, Any]]:
    from tutor.commands import course_dir
    from tutor.content import load_course

    course = load_course(course_dir(args))
    return [(lesson, lab) for lesson in course.ordered_lessons() for lab in lesson.labs]


def run_list(args: argparse.Namespace) -> int:
    lang = _lang(args)
    labs = _labs(args)
    if args.json:
        print(json_for_terminal([{"id": lab.id, "lesson": lesson.id, "title": {"es": lab.title.es, "en": lab.title.en},
                                  "run": lab.run.model_dump(), "prediction_unit": lab.prediction_unit}
                                 for lesson, lab in labs]))
        return 0
    for lesson, lab in labs:
        what = f"{lab.run.op}:{lab.run.name}" if lab.run.name else lab.run.op
        print(f"{clean_line(lab.id, 64):<28} {clean_line(lesson.id, 64):<12} {clean_line(what, 80):<28} "
              f"{clean_line(lab.prediction_unit or '-', 20):<10} {clean_line(lab.title.get(lang), 120)}")
    if not labs:
        print(t("labcli.none", lang))
    return 0


def run_lab(args: argparse.Namespace) -> int:
    from tutor.measure.errors import MeasureCancelled, MeasureError, MeasureFailed
    from tutor.practice.lab_checks import read_lab, reading_lines
    from tutor.practice.labs import LabInputError, LabRunner, lab_question, lab_request, parse_lab_prediction
    from tutor.progress.engines import open_store
    from tutor.progress.notebook import summarise_result

    lang = _lang(args)
    found = [(lesson, lab) for lesson, lab in _labs(args) if lab.id == args.lab_id]
    if not found:
        raise CliError(t("labcli.unknown", lang, lab=args.lab_id), 2)
    lesson, lab = found[0]
    try:
        prediction = parse_lab_prediction(args.predict, lab.prediction_unit, lang)
    except LabInputError as exc:
        raise CliError(f"{lab.id}: {exc}", 2) from None
    try:
        lab_request(lab)  # the lab's parameters and the caps: refused before anything starts
    except MeasureError as exc:
        raise CliError(f"{lab.id}: {exc}", 2) from None

    if not args.json:
        question = clean_line(lab_question(lab, lang))
        print(f"{clean_line(lab.title.get(lang))}\n  {t('labcli.question', lang)}: {question}\n"
              f"  {t('labcli.prediction', lang)}: {prediction.describe(lang)}", flush=True)
    worker = None
    if lab.run.op != "doctor":
        from tutor.measure.worker import MeasureWorker

        worker = MeasureWorker()
    store = open_store()
    cancel = threading.Event()
    runner = LabRunner(store, worker.run if worker is not None else None)
    try:
        filed = runner.run(lesson, lab, prediction, lang, on_progress=_progress(not args.json, lang),
                           cancel_event=cancel, on_queue=_queue_printer(lang))
    except KeyboardInterrupt:
        cancel.set()
        raise
    except MeasureCancelled:
        raise CliError(f"{lab.id}: {t('labcli.cancelled', lang)}", 1) from None
    except MeasureFailed as exc:
        raise CliError(f"{lab.id}: {t('labcli.failed', lang, reason=exc.message(lang))}", 1) from None
    except MeasureError as exc:
        raise CliError(f"{lab.id}: {t('labcli.failed', lang, reason=exc)}", 1) from None
    finally:
        if worker is not None:
            worker.close()
        store.close()
        if not args.json and sys.stderr.isatty():
            sys.stderr.write("\r\033[K")
    reading = read_lab(lab, prediction, filed.result)
    if args.json:
        print(json.dumps({"lab": lab.id, "lab_run_id": filed.lab_run_id, "entry_id": filed.entry_id,
                          "prediction": prediction.to_json(), "result": filed.result.to_json(),
                          "reading": {"predicted": reading.predicted, "measured": reading.measured,
                                      "ratio": reading.ratio, "spread": reading.spread,
                                      "flags": [{"code": f.code, "x": f.x, "series": f.series, **f.figures}
                                                for f in reading.flags]}},
                         ensure_ascii=False, indent=1, default=str))
        return 0
    print()
    print(summarise_result(filed.result, lang))
    for line in reading_lines(reading, lab.run.name or "", lang):
        print(f"  {line}")
    print()
    print(t("labcli.filed", lang, entry=filed.entry_id))
    return 0


def _queue_printer(lang: Any) -> Any:
    from tutor.commands.exercise import _queue_printer as printer

    return printer(lang)


def _progress(enabled: bool, lang: str) -> ProgressPrinter | None:
    return ProgressPrinter(lang) if enabled else None
