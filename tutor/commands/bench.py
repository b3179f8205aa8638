"""`tutor bench` — regenerate the learner's serving and training numbers (the C0 deliverable).

Runs the reference benchmark of :mod:`tutor.measure.bench` in this process, prints progress on stderr and a table
of the headline figures with their CV, stores the run in the progress store, compares it with the previous run on
the same device fingerprint, and writes the ``gpu-tutor/bench/v1`` JSON and a Markdown report. Nothing is written
until the run has finished, so Ctrl-C leaves no half-written record.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from tutor.commands import CliError, output_lang
from tutor.commands.output import ProgressPrinter
from tutor.i18n import Lang, format_number, t
from tutor.i18n.numbers import decimal


def register(sub: argparse._SubParsersAction, lang: Lang) -> None:
    from tutor.commands import add_common_options, add_lang_option

    parser = sub.add_parser(
        "bench",
        help=t("cli.help.bench", lang),
        description=t("cli.desc.bench", lang),
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="mode", action="store_const", const="quick",
                      help=t("cli.help.bench.quick", lang))
    size.add_argument("--standard", dest="mode", action="store_const", const="standard",
                      help=t("cli.help.bench.standard", lang))
    size.add_argument("--full", dest="mode", action="store_const", const="full",
                      help=t("cli.help.bench.full", lang))
    size.add_argument("--tiny", dest="mode", action="store_const", const="tiny", help=argparse.SUPPRESS)
    parser.add_argument("--device", default="auto", metavar="DEVICE",
                        help=t("cli.help.bench.device", lang))
    parser.add_argument("--json", dest="json_path", metavar="FILE", nargs="?", const="-",
                        help=t("cli.help.bench.json", lang))
    parser.add_argument("--markdown", dest="markdown_path", metavar="FILE", help=t("cli.help.bench.markdown", lang))
    parser.add_argument("--tolerance", type=float, default=None, metavar="FRACTION",
                        help=t("cli.help.bench.tolerance", lang))
    parser.add_argument("--no-store", action="store_true",
                        help=t("cli.help.bench.no_store", lang))
    add_common_options(parser)
    add_lang_option(parser, t("cli.help.lang.bench", lang))
    parser.set_defaults(func=run, mode="standard")  # the reproducible one: C0's evidence, under 90 s


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace) -> int:
    from tutor.measure.errors import DeviceError, MeasureError, WorkloadError
    from tutor.theory.errors import FormulaError

    lang = output_lang(args)
    tolerance = args.tolerance
    if tolerance is not None and not 0 < tolerance < 1:
        raise CliError(t("cli.between", lang, option="--tolerance", low="0", high="1",
                         got=format_number(tolerance, lang, ".3g")))
    device = str(args.device).lower()
    if device not in ("auto", "cpu", "cuda"):
        raise CliError(t("cli.unknown_device", lang, device=args.device))
    json_to_stdout = args.json_path == "-"
    table_out = sys.stderr if json_to_stdout else sys.stdout
    from tutor.commands.output import output_file

    for target in (args.json_path, args.markdown_path):  # refused before a bench of minutes, not after it
        if target is not None and target != "-":
            output_file(target, lang)

    from tutor.measure.bench import run_bench
    from tutor.measure.bench_report import DEFAULT_TOLERANCE, render_markdown, render_table
    from tutor.measure.device import resolve_device

    try:
        resolve_device(device)
    except DeviceError as exc:
        raise CliError(str(exc), exit_code=2) from None

    lang = output_lang(args)
    progress = ProgressPrinter(lang, elapsed=True)
    try:
        report = run_bench(args.mode, device, progress)
    except (DeviceError, WorkloadError, FormulaError) as exc:
        raise CliError(str(exc), exit_code=2) from None
    except MeasureError as exc:
        raise CliError(t("bench.cli.could_not_finish", lang, reason=exc), exit_code=1) from None
    except RuntimeError as exc:  # e.g. a dtype the device lacks, a CUDA error
        raise CliError(t("bench.cli.could_not_finish", lang, reason=str(exc).splitlines()[0]), exit_code=1) from None
    finally:
        progress.done()

    if not args.no_store:
        from tutor.progress.bench_history import record_bench
        from tutor.progress.engines import open_store

        store = open_store()
        try:
            report = record_bench(store, report, tolerance if tolerance is not None else DEFAULT_TOLERANCE)
        finally:
            store.close()

    text = json.dumps(report.to_json(), indent=2, sort_keys=False, default=str)
    markdown = render_markdown(report, report.comparison, lang)
    written = []
    if args.json_path and not json_to_stdout:
        _write_atomic(Path(args.json_path), text + "\n")
        written.append(args.json_path)
    if args.markdown_path:
        _write_atomic(Path(args.markdown_path), markdown)
        written.append(args.markdown_path)
    if not args.json_path and not args.markdown_path:
        from tutor import paths

        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(report.created_at))
        base = paths.reports_dir() / f"bench-{report.mode}-{stamp}"
        _write_atomic(base.with_suffix(".json"), text + "\n")
        _write_atomic(base.with_suffix(".md"), markdown)
        written += [str(base.with_suffix(".json")), str(base.with_suffix(".md"))]

    print(render_table(report, report.comparison, lang), file=table_out)
    said = [t("bench.cli.took", lang, seconds=decimal(report.duration_s or 0, lang, 1))]
    if written:
        said.append(t("bench.cli.wrote", lang, files=", ".join(written)))
    if json_to_stdout:
        said.append(t("bench.cli.json_on_stdout", lang))
    print("  " + "; ".join(said), file=table_out)
    if json_to_stdout:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    return 0
