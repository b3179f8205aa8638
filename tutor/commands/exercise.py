"""``tutor exercise`` — list the course's exercises, or run one headless: predict, lock, measure, grade, store.

``run`` goes through the same flow as the exercise screen (:class:`tutor.practice.ExerciseRunner`), measuring
in-process with :func:`tutor.measure.api.run_request`. Exit codes: 0 once an attempt is graded and stored
(whatever the verdict); 2 on bad input (nothing stored); 1 when the measurement fails or is cancelled (the locked
prediction stays stored, marked failed/cancelled).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tutor.commands import CliError, output_lang
from tutor.commands.output import ProgressPrinter, raw_stderr
from tutor.commands.parsing import check_row_id
from tutor.i18n import Lang, as_lang, t
from tutor.i18n.numbers import decimal
from tutor.results.wire import JsonObject
from tutor.untrusted import clean_line, json_for_terminal

if TYPE_CHECKING:
    from tutor.progress.rows import Attempt
    from tutor.telemetry.sampler import WindowSummary


def register(sub: argparse._SubParsersAction, lang: Lang) -> None:
    from tutor.commands import add_common_options, add_lang_option

    parser = sub.add_parser(
        "exercise",
        help=t("cli.help.exercise", lang),
        description=t("cli.desc.exercise", lang),
    )
    add_common_options(parser)
    parser.set_defaults(func=lambda args: (parser.print_help(), 0)[1])
    actions = parser.add_subparsers(dest="exercise_command", metavar="ACTION", title=t("cli.title.actions", lang))

    listing = actions.add_parser("list", help=t("cli.help.exercise.list", lang))
    add_common_options(listing)
    listing.add_argument("--json", action="store_true", help=t("cli.help.exercise.list.json", lang))
    add_lang_option(listing)
    listing.set_defaults(func=run_list)

    run = actions.add_parser(
        "run",
        help=t("cli.help.exercise.run", lang),
        description=t("cli.desc.exercise.run", lang),
    )
    add_common_options(run)
    run.add_argument("exercise_id", metavar="ID", help=t("cli.help.exercise.run.exercise_id", lang))
    run.add_argument("--predict", default=None, metavar="VALUE",
                     help=t("cli.help.exercise.run.predict", lang))
    run.add_argument("--resume", type=int, default=None, metavar="N",
                     help=t("cli.help.exercise.run.resume", lang))
    run.add_argument("--gb", default=None, metavar="GB", help=t("cli.help.exercise.run.gb", lang))
    run.add_argument("--confidence", default="80", metavar="P",
                     help=t("cli.help.exercise.run.confidence", lang))
    run.add_argument("--pass", dest="pass_number", type=int, choices=[1, 2], default=1,
                     help=t("cli.help.exercise.run.pass", lang))
    run.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto",
                     help=t("cli.help.exercise.run.device", lang))
    run.add_argument("--roofline-mode", choices=["tiny", "quick", "full"], default=None,
                     help=t("cli.help.exercise.run.roofline_mode", lang))
    run.add_argument("--budget", type=float, default=None, metavar="S",
                     help=t("cli.help.exercise.run.budget", lang))
    add_lang_option(run)
    run.add_argument("--json", action="store_true", help=t("cli.help.exercise.run.json", lang))
    run.set_defaults(func=run_exercise)

    discard = actions.add_parser(
        "discard", help=t("cli.help.exercise.discard", lang),
        description=t("cli.desc.exercise.discard", lang))
    add_common_options(discard)
    discard.add_argument("attempt_id", type=int, metavar="N", help=t("cli.help.exercise.discard.attempt_id", lang))
    add_lang_option(discard)
    discard.set_defaults(func=run_discard)


def _course(args: argparse.Namespace) -> Any:
    from tutor.commands import course_dir
    from tutor.content import load_course

    return load_course(course_dir(args))


def course_order(course: Any) -> list[Any]:
    """Every exercise in the order the course meets them: lesson by lesson, each lesson's in its own order; one no
    lesson lists comes after its lesson's, and one of an unknown lesson last (by id)."""
    lesson_order = {lesson.id: i for i, lesson in enumerate(course.ordered_lessons())}
    listed = {ex_id: (lesson_order[lesson.id], i) for lesson in course.ordered_lessons()
              for i, ex_id in enumerate(lesson.exercises) if lesson.id in lesson_order}
    last = 10**6
    return sorted(course.exercises.values(),
                  key=lambda e: (*listed.get(e.id, (lesson_order.get(e.lesson, last), last)), e.id))


def unknown_exercise(course: Any, wanted: str, lang: Lang) -> CliError:
    """The refusal of an id the course lacks, with the closest ids ("did you mean …?") when some are close."""
    import difflib

    ids = [ex.id for ex in course_order(course)]
    close = difflib.get_close_matches(wanted, ids, n=3, cutoff=0.75)
    if not close:  # a typo in the lesson part ("n0-l9-…") still finds the exercise by its name
        tails = {ex_id.split("-", 2)[-1]: ex_id for ex_id in ids}
        close = [tails[t] for t in difflib.get_close_matches(wanted.split("-", 2)[-1], list(tails), n=3, cutoff=0.75)]
    shown = clean_line(wanted, 64)
    if close:
        return CliError(t("exercise.cli.did_you_mean", lang, id=shown, suggestions=" · ".join(close)), 2)
    return CliError(t("exercise.cli.unknown", lang, id=shown, known=", ".join(ids[:12]) or "-"), 2)


def exercise_listing(course: Any, attempts: Sequence[Attempt] | None = None) -> list[dict[str, Any]]:
    """The JSON ``tutor exercise list --json`` prints (also used by tests), in course order; with the store's
    ``attempts``, each exercise's two passes (marks, scores, the attempts they rest on, reproduced)."""
    from tutor.grading import choices_of
    from tutor.progress.passes import exercise_status

    out = []
    for ex in course_order(course):
        item: dict[str, Any] = {
            "id": ex.id,
            "kind": ex.kind,
            "lesson": ex.lesson,
            "title": {"es": ex.title.es, "en": ex.title.en},
            "unit": "GB" if ex.kind == "fit" else ex.unit,
            "range": list(ex.range) if ex.range else None,
            "measure": ex.measure.model_dump() if ex.measure else None,
            "truth_source": ex.truth.source if ex.truth else ("measurement" if ex.kind == "bound" else "answer"),
        }
        if ex.kind in ("bound", "fit", "diagnose"):
            item["choices"] = [{"id": c.id, "label": {"es": c.label.es, "en": c.label.en}} for c in choices_of(ex)]
        if ex.kind == "fit":
            item["capacity_gb"] = ex.capacity_gb
        if attempts is not None:
            status = exercise_status(ex.id, attempts)
            item["passes"] = {"marks": status.marks, "pass1": status.to_json()["pass1"],
                              "pass2": status.to_json()["pass2"], "reproduced": status.reproduced}
        out.append(item)
    return out


def run_list(args: argparse.Namespace) -> int:
    from tutor.progress.engines import open_store

    course = _course(args)
    store = open_store()
    try:
        attempts = store.attempts()
    finally:
        store.close()
    listing = exercise_listing(course, attempts)
    lang = output_lang(args)
    if args.json:
        print(json_for_terminal(listing))
        return 0
    if not listing:
        print(t("exercise.cli.none", as_lang(lang)))
        return 0
    rows = [t("exercise.cli.columns", as_lang(lang)).split("|")]
    for item in listing:
        answers = ""
        if "choices" in item:
            answers = clean_line(" | ".join(clean_line(c["id"], 64) for c in item["choices"]), 120)
        elif item["unit"]:
            answers = clean_line(item["unit"], 20)
        title = item["title"].get(lang) or item["title"].get("es") or item["title"].get("en") or ""
        passes = item["passes"]
        note = t("progress.cli.reproduced", as_lang(lang)) if passes["reproduced"] else ""
        kind = t(f"exercise.kind.{item['kind']}", as_lang(lang))
        kind = item["kind"] if kind.startswith("exercise.kind.") else kind
        rows.append([passes["marks"], clean_line(item["id"], 64), kind, clean_line(item["lesson"], 64),
                     clean_line(title, 60) + note, answers])
    for line in _aligned(rows):
        print(line)
    print("\n" + t("exercise.cli.legend", as_lang(lang)))
    return 0


def _aligned(rows: list[list[str]]) -> list[str]:
    """Rows as lines whose columns line up (by terminal cells: ✓ and accented letters are one cell each); the
    last column is not padded."""
    from rich.cells import cell_len

    widths = [max(cell_len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for row in rows:
        cells = [cell + " " * (width - cell_len(cell)) for cell, width in zip(row, widths, strict=False)]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return lines


def _queue_printer(lang: Any) -> Any:
    """In a class, while another learner holds the device: one stderr line each time the queue moves."""
    from tutor.progress.lease import queue_text

    def show(ahead: int) -> None:
        if ahead > 0:
            sys.stderr.write(queue_text(ahead, lang, where="cli") + "\n")
            sys.stderr.flush()

    return show


def _progress_printer(enabled: bool, lang: str = "en") -> ProgressPrinter | None:
    return ProgressPrinter(lang) if enabled else None


def _precheck(exercise: Any, device: str, lang: str = "en") -> None:
    """Reject what would fail for the input's sake before anything is stored: unknown device, bad params."""
    from tutor.measure.errors import MeasureError

    call = exercise.measure
    if call is None:
        return
    try:
        if call.op != "doctor":
            from tutor.measure.plan import build_request

            build_request(call, device=device, size_dram=False)  # parameters, caps: refused before the lock
        if call.op == "workload" and call.name:
            from tutor.measure.registry import get_workload

            workload = get_workload(call.name)
        else:
            workload = None
        from tutor.measure.device import resolve_device

        resolved = resolve_device(device)
        if workload is not None and resolved not in workload.devices:
            raise CliError(t("exercise.cli.device", as_lang(lang), workload=call.name,
                             devices=", ".join(workload.devices), device=resolved), 2)
    except MeasureError as exc:
        raise CliError(str(exc), 2) from None


def _open_telemetry() -> Any:
    try:
        from tutor.telemetry.sampler import Sampler
        from tutor.telemetry.spec import open_backend

        return Sampler(open_backend("auto"), interval=0.25).start()
    except Exception:  # telemetry is optional for a headless run
        return None


def run_exercise(args: argparse.Namespace) -> int:
    from tutor.grading import PredictionError, parse_prediction
    from tutor.grading.predict import unit_read
    from tutor.practice import AttemptFailed, ExerciseRunner
    from tutor.progress.engines import open_store
    from tutor.progress.passes import PassClosed, exercise_status, require_pass2_open

    lang = output_lang(args)
    course = _course(args)
    exercise = course.exercises.get(args.exercise_id)
    if exercise is None:
        raise unknown_exercise(course, args.exercise_id, lang)
    if (args.predict is None) == (args.resume is None):
        raise CliError(t("exercise.cli.predict_or_resume", lang), 2)
    check_row_id(args.resume, "--resume", lang)
    prediction = None
    if args.predict is not None:
        try:
            prediction = parse_prediction(exercise, args.predict, args.confidence, args.gb)
        except PredictionError as exc:
            raise CliError(f"{exercise.id}: {exc.describe(lang)}", 2) from None
    if args.budget is not None and not 0.05 <= args.budget <= 10:
        raise CliError(t("exercise.cli.budget", lang, low=decimal(0.05, lang), high=10), 2)
    _precheck(exercise, args.device, lang)
    # "14000 MB" for a GB exercise is graded as 14 GB: said before the measurement and again with the reveal
    read_as = unit_read(exercise, args.predict) if args.predict is not None else None
    if read_as is not None and not args.json:
        print(f"{t('exercise.cli.prediction', lang)}: {read_as.render(lang)}", flush=True)

    sampler = _open_telemetry() if exercise.measure is not None else None
    cancel = threading.Event()

    measure, close_measure = make_measure(lang, quiet=args.json)

    def window(t0: float, t1: float) -> dict[str, WindowSummary] | None:
        if sampler is None:
            return None
        return sampler.window_summary(t0, t1)

    if not args.json:
        from tutor.practice.sizing import setup_line

        setup = setup_line(exercise, lang)
        if setup:
            print(setup, flush=True)
    store = open_store()
    runner = ExerciseRunner(store, measure, telemetry_window=window)
    try:
        if args.resume is not None:
            outcome = _resume(runner, store, exercise, args, cancel)
        else:
            assert prediction is not None
            if args.pass_number > 1:
                try:
                    require_pass2_open(exercise.id, store.attempts(exercise.id))
                except PassClosed as exc:
                    raise CliError(str(exc), 2) from None
            outcome = runner.run(exercise, prediction, pass_number=args.pass_number, device=args.device,
                                 on_progress=_progress_printer(not args.json, lang), on_queue=_queue_printer(lang),
                                 cancel=cancel, roofline_mode=args.roofline_mode, budget_s=args.budget)
        second = outcome.pass_number > 1
        first_pass = _first_pass_verdict(store, exercise.id) if second else None
        reproduced = exercise_status(exercise.id, store.attempts(exercise.id)).reproduced if second else None
    except AttemptFailed as exc:
        if not args.json and sys.stderr.isatty():
            sys.stderr.write("\n")
        if args.json:
            print(json_for_terminal({"exercise": exercise.id, "state": exc.state, "code": exc.code,
                                     "error": exc.reason}, indent=None))
        kept = t("fail.prediction_kept", as_lang(lang))
        if exc.code == "interrupted":  # Ctrl-C after the lock: marked cancelled, the shell's 130
            print(f"tutor: {exercise.id}: {exc.message(lang)} ({kept})", file=sys.stderr)
            return 130
        raise CliError(f"{exercise.id}: {exc.message(lang)} ({kept})", 1) from None
    finally:
        close_measure()
        if sampler is not None:
            sampler.close()
        store.close()
    if not args.json and sys.stderr.isatty():
        raw_stderr().write("\r\033[K")
    if args.json:
        document = outcome.to_json()
        if read_as is not None:
            document["prediction_read"] = {code: read_as.render(code) for code in ("es", "en")}
        document["feedback_text"] = {code: outcome.verdict.feedback_in(code) for code in ("es", "en")}
        print(json_for_terminal(document, default=str))
    else:
        print(render_outcome(outcome, lang, first_pass, reproduced))
        if read_as is not None:
            print(f"{t('exercise.cli.prediction', lang)}: {read_as.render(lang)}")
    return 0


def make_measure(lang: str, *, quiet: bool = False) -> tuple[Any, Any]:
    """``(measure, close)``: the measurement in the worker process the TUI uses (so a killed or out-of-memory
    run is reported, not fatal), saying on stderr when it goes silent."""
    from tutor.measure.worker import MeasureWorker
    from tutor.practice.failures import stalled_text

    worker = MeasureWorker()

    def on_stall(seconds: float | None) -> None:
        if seconds is not None and not quiet:
            print(f"\n{stalled_text(seconds, as_lang(lang))} (Ctrl-C)", file=sys.stderr, flush=True)

    def measure(request: JsonObject, on_progress: Any, cancel_event: Any) -> JsonObject:
        return worker.run(request, on_progress=on_progress, cancel_event=cancel_event, on_stall=on_stall)

    return measure, worker.close


def _resume(runner: Any, store: Any, exercise: Any, args: argparse.Namespace, cancel: threading.Event) -> Any:
    """Measure and grade the unfinished attempt ``args.resume`` with the prediction it stored."""
    from tutor.practice import unfinished

    try:
        attempt = unfinished.take(store, args.resume, exercise.id)
    except unfinished.UnfinishedError as exc:
        raise CliError(str(exc), 2) from None
    prediction = attempt.prediction
    result, telemetry = runner.measure(exercise, args.resume, device=args.device,
                                       on_progress=_progress_printer(not args.json, output_lang(args)), cancel=cancel,
                                       roofline_mode=args.roofline_mode, budget_s=args.budget)
    return runner.grade(exercise, args.resume, prediction, result, telemetry, pass_number=attempt.pass_number)


def run_discard(args: argparse.Namespace) -> int:
    from tutor.practice import unfinished
    from tutor.progress.engines import open_store

    lang = output_lang(args)
    check_row_id(args.attempt_id, "N", lang)
    store = open_store()
    try:
        unfinished.discard(store, args.attempt_id)
    except unfinished.UnfinishedError as exc:
        raise CliError(str(exc), 2) from None
    finally:
        store.close()
    print(t("unfinished.discarded", as_lang(lang), id=args.attempt_id))
    return 0


def _first_pass_verdict(store: Any, exercise_id: str) -> str | None:
    from tutor.progress.passes import exercise_status

    return exercise_status(exercise_id, store.attempts(exercise_id)).pass1_verdict


#: A reveal's line is the tutor's own sentences around bounded pack text: the feedback of a noisy, disturbed run
#: with its roof stamp runs past the one-line default (400), which cut "…the load moves this…" mid-sentence.
REVEAL_LINE_LIMIT = 4000


def _one_line_each(view: Any) -> Any:
    """The reveal's labelled lines, each one line whatever the pack's labels or the store's text hold (a choice's
    label with a line break printed a forged line under 'Your prediction')."""
    from tutor.practice.reveal import RevealField

    def line(text: str) -> str:
        return clean_line(text, REVEAL_LINE_LIMIT)

    def field(f: RevealField | None) -> RevealField | None:
        return None if f is None else RevealField(line(f.label), line(f.text))

    return dataclasses.replace(
        view, verdict_line=field(view.verdict_line), fields=tuple(field(f) for f in view.fields),
        feedback=line(view.feedback), reproduced=line(view.reproduced) if view.reproduced else None,
        measured_on=field(view.measured_on), figures=tuple(line(f) for f in view.figures))


def render_outcome(outcome: Any, lang: Any, first_pass_verdict: str | None = None,
                   reproduced: bool | None = None) -> str:
    """The reveal as plain text: the view the exercise screen shows (:func:`tutor.practice.reveal.build_reveal`)."""
    from tutor.commands.terminal import render_markdown
    from tutor.practice.reveal import build_reveal, render_reveal_text

    view = build_reveal(outcome, lang, first_pass_verdict=first_pass_verdict, reproduced=reproduced)
    text = render_reveal_text(_one_line_each(dataclasses.replace(view, explanation="")),
                              clean_line(f"{outcome.exercise.id} — {outcome.exercise.title.get(lang)}"))
    if view.explanation:
        # the explanation is Markdown: rendered for the terminal (bold, lists), never printed as raw **stars**
        text += f"\n\n  {view.explanation_title}:\n" + render_markdown(view.explanation, indent=2)
    return text
