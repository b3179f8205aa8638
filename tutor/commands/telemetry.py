"""``tutor telemetry`` — live telemetry without the TUI: a readable table, or JSON lines for tools and traces.

Uses the same backends and sampler as the panel (:mod:`tutor.telemetry`). Writes nothing to stderr in normal
use: a missing GPU is not an error, it is the ``status`` of every line.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import IO, TextIO

from tutor.commands import CliError, add_common_options, add_lang_option, output_lang
from tutor.commands.output import output_file
from tutor.i18n import Lang, format_number, t
from tutor.telemetry import MIN_INTERVAL, BackendSpecError, Sampler, TelemetrySnapshot, open_backend
from tutor.telemetry import format as fmt
from tutor.telemetry.trace import TraceWriter, dumps, sample_lines
from tutor.untrusted import clean_line

MAX_INTERVAL = 3600.0
"""The longest --interval (an hour): a longer wait is a mistake, and past ~1e9 s a sleep overflows."""


def register(sub: argparse._SubParsersAction, lang: Lang) -> None:
    parser = sub.add_parser(
        "telemetry",
        help=t("cli.help.telemetry", lang),
        description=t("cli.desc.telemetry", lang),
    )
    add_common_options(parser)
    add_lang_option(parser)
    parser.add_argument("--json", action="store_true", help=t("cli.help.telemetry.json", lang))
    parser.add_argument(
        "--samples", type=int, default=None, metavar="N", help=t("cli.help.telemetry.samples", lang)
    )
    parser.add_argument(
        "--interval",
        type=float,
        default=1.0,
        metavar="S",
        help=t("cli.help.telemetry.interval", lang, minimum=format_number(MIN_INTERVAL, lang, ".3g")),
    )
    parser.add_argument(
        "--record", type=Path, default=None, metavar="FILE", help=t("cli.help.telemetry.record", lang)
    )
    parser.add_argument("--backend", default="auto", metavar="BACKEND", help=t("cli.help.telemetry.backend", lang))
    parser.add_argument(
        "--pcie", action="store_true", help=t("cli.help.telemetry.pcie", lang)
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    lang = output_lang(args)
    interval = float(args.interval)
    if not interval >= MIN_INTERVAL:
        raise CliError(t("cli.at_least", lang, option="--interval",
                         minimum=f"{format_number(MIN_INTERVAL, lang, '.3g')} s",
                         got=format_number(interval, lang, ".3g")))
    if not interval <= MAX_INTERVAL:  # a sleep past the platform's time_t (1e10 s) is an OverflowError
        raise CliError(t("cli.between", lang, option="--interval",
                         low=f"{format_number(MIN_INTERVAL, lang, '.3g')} s",
                         high=f"{format_number(MAX_INTERVAL, lang, '.6g')} s",
                         got=format_number(interval, lang, ".3g")))
    if args.samples is not None and args.samples < 1:
        raise CliError(t("cli.at_least", lang, option="--samples", minimum="1", got=args.samples))
    try:
        backend = open_backend(args.backend, pcie=args.pcie)
    except BackendSpecError as exc:
        raise CliError(exc.said.render(lang)) from None
    status = backend.probe()
    if args.backend.strip().lower() == "nvml" and not status.ok:
        backend.close()
        raise CliError(t("telemetrycli.no_nvml", lang, reason=status.text(lang)),
                       exit_code=1)
    out: TextIO = sys.stdout
    with contextlib.ExitStack() as stack:
        stack.callback(backend.close)
        writer: TraceWriter | None = None
        if args.record is not None:
            output_file(args.record, lang)  # a FIFO would block the open, a device would take the trace
            try:
                stream: IO[str] = stack.enter_context(open(args.record, "w", encoding="utf-8"))
            except OSError as exc:
                raise CliError(t("cli.cannot_write", lang, path=clean_line(args.record), reason=exc.strerror or exc),
                               exit_code=1) from None
            writer = TraceWriter(stream)
            writer.write_header(status, backend.devices())
        sampler = Sampler(backend, interval)
        table = _Table(out, output_lang(args))
        try:
            next_due = time.monotonic() + sampler.interval  # the first CPU % needs one interval to measure
            count = 0
            while args.samples is None or count < args.samples:
                time.sleep(max(0.0, next_due - time.monotonic()))
                snapshot = sampler.sample_once()
                next_due += sampler.interval
                count += 1
                lines = sample_lines(snapshot.t, snapshot.backend, snapshot.status, snapshot.samples)
                if writer is not None:
                    writer.write_lines(lines)
                if args.json:
                    for line in lines:
                        out.write(dumps(line) + "\n")
                    out.flush()
                else:
                    table.show(snapshot)
        except KeyboardInterrupt:
            pass  # Ctrl-C is how an open-ended run ends
        except BrokenPipeError:
            with contextlib.suppress(OSError):
                sys.stdout = open("/dev/null", "w")  # noqa: SIM115 - keep Python quiet at exit (| head)
    return 0


class _Table:
    """The readable form: the banner when it changes, then one line per device per sample."""

    def __init__(self, out: TextIO, lang: Lang = "en") -> None:
        self._out = out
        self._banner: str | None = None
        self.lang = lang

    def show(self, snap: TelemetrySnapshot) -> None:
        lang = self.lang
        banner = f"[{snap.backend}] {snap.status.text(lang)}"
        if banner != self._banner:
            self._banner = banner
            self._out.write(banner + "\n")
            for note in snap.status.note_texts(lang):
                self._out.write("  " + t("tel.note", lang, note=note) + "\n")
        stamp = datetime.fromtimestamp(snap.t).strftime("%H:%M:%S")
        names = {d.id: d.name for d in snap.devices}
        for s in snap.samples:
            m = s.metrics
            if s.state == "lost":
                body = t("tel.lost", lang)
            elif s.device == "host":
                load = " ".join(fmt.load(m.get(k), lang=lang) for k in ("load_1", "load_5", "load_15"))
                ram = fmt.used_of(m.get("ram_used_bytes"), m.get("ram_total_bytes"), lang=lang)
                swap = fmt.used_of(m.get("swap_used_bytes"), m.get("swap_total_bytes"), lang=lang)
                cpu = fmt.pct(m.get("cpu_pct"), lang=lang)
                body = f"CPU {cpu}  RAM {ram}  swap {swap}  {t('tel.load', lang)} {load}"
            else:
                vram = fmt.used_of(m.get("mem_used_bytes"), m.get("mem_total_bytes"), lang=lang)
                clocks = t("tel.clocks", lang, temp=fmt.celsius(m.get("temp_c"), lang=lang),
                           sm=fmt.mhz(m.get("sm_clock_mhz"), lang=lang),
                           sm_max=fmt.mhz(m.get("sm_clock_max_mhz"), lang=lang),
                           mem=fmt.mhz(m.get("mem_clock_mhz"), lang=lang),
                           mem_max=fmt.mhz(m.get("mem_clock_max_mhz"), lang=lang))
                body = (
                    f"{t('tel.busy', lang)} {fmt.pct(m.get('gpu_util_pct'), lang=lang)}"
                    f"  {t('tel.mem_bus', lang)} {fmt.pct(m.get('mem_bus_util_pct'), lang=lang)}  VRAM {vram}"
                    f"  {t('tel.power', lang)} {fmt.watts(m.get('power_w'), lang=lang)} / "
                    f"{fmt.watts(m.get('power_limit_w'), lang=lang)}  {clocks}"
                )
                if m.get("pcie_tx_bytes_s") is not None or m.get("pcie_rx_bytes_s") is not None:
                    body += (f"  PCIe TX {fmt.rate(m.get('pcie_tx_bytes_s'), lang=lang)}"
                             f" RX {fmt.rate(m.get('pcie_rx_bytes_s'), lang=lang)}")
                reasons = fmt.words(m.get("throttle"))
                if reasons:
                    body += f"  {t('tel.clocks_held', lang)}{', '.join(reasons)}"
            self._out.write(f"{stamp}  {s.device:<5} {names.get(s.device, '')[:28]:<28}  {body}\n")
        self._out.flush()
