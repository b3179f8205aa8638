"""The bench report (:class:`tutor.results.BenchReport`): the comparison with a previous run, and its one text
table and one Markdown rendering (``tutor bench``, the L4 lab and the notebook all show this one). Pure Python (no
torch) so the UI can show a stored report."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tutor.i18n import N_, Lang, as_lang, format_number, numbers, t, tn
from tutor.i18n.message import Message
from tutor.results import BENCH_SCHEMA as SCHEMA
from tutor.results import HEADLINE_KEYS, BenchComparison, BenchReport, BenchRow, ComparedFigure
from tutor.untrusted import clean_line

__all__ = [
    "COMPARISON_RULE",
    "DEFAULT_TOLERANCE",
    "HEADLINE_KEYS",
    "SCHEMA",
    "SpeedShift",
    "allowed_difference",
    "compare",
    "figure_label",
    "headline_rows",
    "label_of",
    "method_lines",
    "note_lines",
    "render_markdown",
    "render_table",
    "speed_shift",
    "speed_shift_line",
]
# Two passes agree when every headline figure is within its allowed difference of the other pass's: the floor
# below, or the figures' measured noise when that is larger (see COMPARISON_RULE), never more than NOISE_CAP.
DEFAULT_TOLERANCE = 0.05
NOISE_K = 2.0
NOISE_CAP = 0.15
COMPARISON_RULE = (f"comparison: two runs agree when each headline figure differs by at most max(floor, "
                   f"{NOISE_K:g}·√(CV₁² + CV₂²)) — twice the two runs' noise combined — with a floor of 5 % and a "
                   f"ceiling of {NOISE_CAP * 100:.0f} % ({t('bench.cv_spread', 'en')})")

#: Each headline figure's unit (its label is ``bench.fig.<key>`` in the catalogs; the matmul rows are
#: ``bench.fig.matmul`` with their dtype).
_UNITS: dict[str, str] = {
    "peak_bandwidth_gbs": "GB/s",
    "ridge_flops_per_byte": "FLOP/B",
    "decode_tokens_per_s": "tok/s",
    "decode_bound_tokens_per_s": "tok/s",
    "train_tokens_per_s": "tok/s",
    "mfu": "%",
}
#: The estimator the bench engine names in ``tests.rounds.estimator`` (data), as a catalog code.
_ESTIMATORS = {"median over the rounds of each round's value": N_("bench.estimator.median")}


def _lang(lang: str) -> Lang:
    return as_lang(lang)


def allowed_difference(cv_now: float | None, cv_before: float | None, tolerance: float = DEFAULT_TOLERANCE
                       ) -> float:
    """How far apart two runs of one figure may be and still agree: the floor ``tolerance``, or the noise both
    runs measured (``NOISE_K`` standard deviations of their difference) when that is larger, at most
    ``NOISE_CAP`` (a figure noisier than that cannot be reproduced on this machine, and the rule says so)."""
    noise = NOISE_K * ((cv_now or 0.0) ** 2 + (cv_before or 0.0) ** 2) ** 0.5
    return min(max(tolerance, noise), max(tolerance, NOISE_CAP))


def compare(current: BenchReport, previous: BenchReport | None, tolerance: float = DEFAULT_TOLERANCE
            ) -> BenchComparison | None:
    """Per headline figure: current ÷ previous, the difference allowed by both runs' measured noise (floor
    ``tolerance``) and whether they agree (:data:`COMPARISON_RULE`)."""
    if previous is None:
        return None
    before, cv_before = previous.headline(), previous.spreads()
    figures = []
    for row in _headline(current):
        was = before.get(row.key)
        if not was:
            continue
        ratio = row.value / was
        allowed = allowed_difference(row.cv, cv_before.get(row.key), tolerance)
        figures.append(ComparedFigure(row.key, row.value, was, ratio, allowed, abs(ratio - 1) <= allowed + 1e-12))
    return BenchComparison(tolerance=tolerance, figures=tuple(figures),
                           agree=bool(figures) and all(f.agree for f in figures), rule=COMPARISON_RULE,
                           previous_created_at=previous.created_at, previous_mode=previous.mode)


COMPUTE_KEYS = ("peak_flops_tflops.",)
"""Headline figures the cores' speed alone sets: the matmul peaks (ridge is a ratio of one of them; the training
step, on a CPU, moves much memory too, and measured here it can stay put while the peaks move 12 to 18 %)."""
MEMORY_KEYS = ("peak_bandwidth_gbs", "decode_tokens_per_s", "decode_bound_tokens_per_s")
"""Headline figures memory sets."""
SHIFT_MIN = 0.02
"""A figure counts as moved when it changed by at least this fraction."""


@dataclass(frozen=True)
class SpeedShift:
    """Two runs that disagree because the machine's speed moved, not one measurement: every matmul peak moved the
    same way (``compute``, the range of their ratios) and the memory figures either stayed (``whole_machine``
    False: the cores computed at another speed) or moved the same way too (True: the whole machine was busier or
    quieter)."""

    compute: tuple[float, float]
    memory: tuple[float, float] | None
    whole_machine: bool


def speed_shift(comparison: BenchComparison | None) -> SpeedShift | None:
    """:class:`SpeedShift` when two runs disagree and every matmul peak (at least two) moved the same way by at
    least ``SHIFT_MIN``, with the memory figures all within it or all moved the same way; None otherwise (an
    agreement, or figures that moved every which way: nothing to say)."""
    if comparison is None or comparison.agree:
        return None
    compute = [f.ratio for f in comparison.figures if f.key.startswith(COMPUTE_KEYS)]
    down = all(r <= 1 - SHIFT_MIN for r in compute)
    if len(compute) < 2 or not (down or all(r >= 1 + SHIFT_MIN for r in compute)):
        return None
    memory = [f.ratio for f in comparison.figures if f.key in MEMORY_KEYS]
    span = (min(memory), max(memory)) if memory else None
    if all(abs(r - 1) < SHIFT_MIN for r in memory):
        return SpeedShift((min(compute), max(compute)), span, whole_machine=False)
    if all((r <= 1 - SHIFT_MIN) if down else (r >= 1 + SHIFT_MIN) for r in memory):
        return SpeedShift((min(compute), max(compute)), span, whole_machine=True)
    return None


def speed_shift_line(comparison: BenchComparison | None, lang: str = "en") -> str | None:
    """:func:`speed_shift` in words, in ``lang``; None when it does not apply."""
    shift = speed_shift(comparison)
    return None if shift is None else shift_words(shift, lang)


def shift_words(shift: SpeedShift, lang: str = "en") -> str:
    """A :class:`SpeedShift` in words, in ``lang``."""
    code = _lang(lang)

    def ratio(value: float) -> str:
        return numbers.decimal(value, code, 2)

    (lo, hi), mem = shift.compute, shift.memory
    if shift.whole_machine and mem is not None:
        return t("bench.shift.machine", code, lo=ratio(lo), hi=ratio(hi), mlo=ratio(mem[0]), mhi=ratio(mem[1]))
    memory = t("bench.shift.memory", code, lo=ratio(mem[0]), hi=ratio(mem[1])) if mem else ""
    return t("bench.shift", code, lo=ratio(lo), hi=ratio(hi), memory=memory)


def _headline(report: BenchReport) -> list[BenchRow]:
    """The report's headline rows that the table shows, in :data:`HEADLINE_KEYS` order."""
    return sorted((r for r in report.rows if r.figure in HEADLINE_KEYS), key=lambda r: HEADLINE_KEYS.index(r.figure))


def _scaled(row: BenchRow) -> float:
    """The row's value in the unit the table shows (GFLOP/s for the matmul peaks, % for MFU)."""
    return row.value * (1e3 if row.figure == "peak_flops_tflops" else 100 if row.figure == "mfu" else 1)


def label_of(row: BenchRow, lang: str) -> tuple[str, str]:
    """A headline row's label in ``lang`` and its unit (``matmul peak float32`` keeps its dtype)."""
    if row.figure == "peak_flops_tflops":
        return t("bench.fig.matmul", _lang(lang), dtype=clean_line(row.dtype or "?")), "GFLOP/s"
    return t(f"bench.fig.{row.key}", _lang(lang)), _UNITS.get(row.key, "")


def figure_label(key: str, lang: str) -> str:
    """A headline figure's label in ``lang`` from its flat key (``peak_flops_tflops.float32`` → "matmul peak
    float32"); an unknown key (a hand-edited report) as it is, cleaned."""
    row = BenchRow(key, 0.0)
    if row.figure != "peak_flops_tflops" and key not in HEADLINE_KEYS:
        return clean_line(key)
    return label_of(row, lang)[0]


def _fmt(value: float, unit: str, lang: str) -> str:
    """A figure of the plain-text table with its unit, in ``lang``."""
    if unit == "%":
        return f"{numbers.decimal(value, lang, 1)} %"
    if abs(value) >= 100:
        return f"{numbers.integer(value, lang)} {unit}"
    return f"{numbers.significant(value, lang, 3)} {unit}"


def _significant(value: float, lang: str) -> str:
    """About three significant digits, trailing zeros kept (``30.0``, ``0.150``, ``1,500``), in ``lang``."""
    if value == 0 or not math.isfinite(value):
        return format_number(value, lang, "g")
    if abs(value) >= 1e7 or abs(value) < 1e-3:
        return format_number(value, lang, ".3g")
    return format_number(value, lang, f",.{max(0, 2 - math.floor(math.log10(abs(value))))}f")


def _pct(fraction: float, lang: str, digits: int = 1) -> str:
    """A fraction in percent, a space before the sign in both languages (``15,0 %``, ``15.0 %``)."""
    return f"{numbers.decimal(fraction * 100, lang, digits)} %"


def headline_rows(report: BenchReport, lang: str = "en") -> list[tuple[str, str, str, str]]:
    """(key, figure, value, CV) rows for the table, in ``lang``."""
    rows: list[tuple[str, str, str, str]] = []
    for row in _headline(report):
        label, unit = label_of(row, lang)
        rows.append((row.key, label, _fmt(_scaled(row), unit, lang), _cv(row.cv, lang)))
    return rows


def _cv(value: Any, lang: str = "en") -> str:
    return "—" if value is None else _pct(float(value), lang)


def decode_roof_line(report: BenchReport, lang: str = "en") -> str | None:
    """Which roof bounds the report's decode (DRAM, or the cache the weights live in) and, when decode sits above
    its bound, why and what was measured again; None for a report from before the feeding roof existed."""
    from tutor.measure.decode_sizing import decode_roof_text, dig

    decode = report.tests.get("decode")
    if not isinstance(decode, dict):
        return None
    return decode_roof_text(dig(decode), _lang(lang))


def _ratio_word(fig: ComparedFigure, lang: Lang, table: bool) -> str:
    """``×1,100 DIFFERS (±15,0 %)``: the ratio to the previous run, whether it agrees, and the allowed difference."""
    word = t(f"bench.{'table' if table else 'md'}.{'agrees' if fig.agree else 'differs'}", lang)
    return f"×{numbers.decimal(fig.ratio, lang, 3)} {word} (±{_pct(fig.allowed, lang)})"


def render_table(report: BenchReport, comparison: BenchComparison | None = None, lang: str = "en") -> str:
    """A plain-text table of the headline figures (with the comparison when there is one), in ``lang``."""
    code = _lang(lang)
    dev = report.device
    lines = [t("bench.table.title", code, mode=report.mode, kind=dev.kind, name=dev.name,
               fingerprint=dev.fingerprint)]
    rows = headline_rows(report, code)
    figure, value = t("bench.col.figure", code), t("bench.col.value", code)
    w0 = max([len(r[1]) for r in rows] + [len(figure)])
    w1 = max([len(r[2]) for r in rows] + [len(value)])
    header = f"  {figure:<{w0}}  {value:>{w1}}  {'CV':>7}"
    if comparison:
        header += f"  {t('bench.col.vs', code)}"
    lines += [header, "  " + "-" * (len(header) - 2)]
    for key, label, shown, cv in rows:
        line = f"  {label:<{w0}}  {shown:>{w1}}  {cv:>7}"
        fig = comparison.figure(key) if comparison else None
        if fig:
            line += f"  {_ratio_word(fig, code, table=True)}"
        lines.append(line)
    if comparison:
        verdict = t("bench.table.agree" if comparison.agree else "bench.table.disagree", code)
        lines.append("  " + t("bench.table.compared", code, verdict=verdict, mode=comparison.previous_mode,
                              tol=_pct(comparison.tolerance, code, 0), cap=_pct(NOISE_CAP, code, 0)))
        shift = speed_shift_line(comparison, code)
        if shift:
            lines.append(f"  {shift}")
    else:
        lines.append("  " + t("bench.table.no_previous", code))
    roof_line = decode_roof_line(report, code)
    if roof_line:
        lines.append(f"  {roof_line}")
    lines += [f"  {line}" for line in method_lines(report, code)]
    for w in warning_lines(report, code):
        lines.append("  " + t("bench.table.warning", code, warning=w))
    return "\n".join(lines)


def warning_lines(report: BenchReport, lang: str = "en") -> list[str]:
    """The run's warnings in ``lang`` (an older report's, recorded as English sentences, as they were)."""
    said = [Message.from_dict(m, clean_line) for m in report.warnings_said]
    if said and len(said) == len(report.warnings) and all(m is not None for m in said):
        return [m.render(lang) for m in said if m is not None]
    return list(report.warnings)


def _whole(value: object) -> int:
    """A count from a stored report (an older or hand-edited one may hold anything): 1 unless a whole number."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 1


def method_lines(report: BenchReport, lang: str = "en") -> list[str]:
    """How the headline and its CV were estimated, and where MFU's theoretical peak comes from (for the table)."""
    code = _lang(lang)
    out = []
    rounds = report.tests.get("rounds")
    if isinstance(rounds, dict) and rounds.get("count"):
        out.append(t("bench.estimator.stream" if _stream_best(report.tests.get("bandwidth")) else "bench.estimator",
                     code, rounds=rounds["count"], decode_rounds=rounds.get("decode_rounds", "?"),
                     train_steps=tn("count.step", _whole(rounds.get("train_steps_per_round", 1)), code),
                     read_passes=tn("count.read_pass", _whole(rounds.get("read_passes", 1)), code)))
    train = report.tests.get("train_step")
    if isinstance(train, dict) and isinstance(train.get("theoretical_gflops"), int | float) \
            and train["theoretical_gflops"] > 0:
        source = _peak_source(report, str(train.get("peak_dtype") or "float32"), code)
        if source is not None:
            out.append(t("bench.method.mfu", code, gflops=numbers.integer(train["theoretical_gflops"], code),
                         source=source))
    return out


def _stream_best(bw: object) -> bool:
    """Whether the report's peak bandwidth is STREAM's best copy (issue 32) rather than a median of rounds (the
    reports before it keep the words they were measured with)."""
    return isinstance(bw, Mapping) and "fastest timed call" in str(bw.get("method", ""))


def _num(data: Any, key: str) -> float | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _peak_source(report: BenchReport, dtype: str, lang: Lang) -> str | None:
    """Where the theoretical ``dtype`` peak comes from, from the roofline's physical limits: cores × clock ×
    FLOPs per cycle on a CPU (the clock read from cpufreq, or /proc/cpuinfo, or the clock a measured matmul needs),
    the datasheet on a GPU; None when the report does not say."""
    limits = report.roofline.physical_limits if report.roofline is not None else None
    if limits is None:
        return None
    cores, ghz, per_cycle = limits.cores, limits.ghz, limits.flops_per_cycle.get(dtype)
    if cores is not None and ghz is not None and per_cycle is not None:
        implied, reported = limits.ghz_implied_by, limits.ghz_reported
        clock = t("bench.clock.cpufreq" if limits.gflops else "bench.clock.cpuinfo", lang)
        if implied is not None and reported is not None:
            clock = t("bench.clock.implied", lang, dtype=implied, reported=numbers.decimal(reported, lang, 2),
                      clock=clock)
        return t("bench.peak.cpu", lang, cores=numbers.integer(cores, lang), ghz=numbers.decimal(ghz, lang, 2),
                 clock=clock, per_cycle=numbers.integer(per_cycle, lang))
    return t("bench.peak.datasheet", lang, source=limits.source) if limits.source else None


def note_lines(report: BenchReport, lang: str = "en") -> list[str]:
    """How the figures were measured, in ``lang``, from what the report recorded (the arrays, the matmul size,
    the models, the rounds); a report without those records (an older one) keeps the notes it was written with."""
    code = _lang(lang)
    tests = report.tests
    bw, gemm, decode, train, rounds = (tests.get(k) for k in ("bandwidth", "gemm", "decode", "train_step", "rounds"))
    fp32 = gemm.get("float32") if isinstance(gemm, dict) else None
    if not all(isinstance(x, dict) for x in (bw, fp32, decode, train, rounds)):
        return list(report.notes)
    assert isinstance(bw, dict) and isinstance(fp32, dict) and isinstance(decode, dict)
    assert isinstance(train, dict) and isinstance(rounds, dict)
    estimator_code = _ESTIMATORS.get(str(rounds.get("estimator")))
    estimator = t(estimator_code, code) if estimator_code else str(rounds.get("estimator"))
    kernels = bw.get("kernels")
    copy = kernels.get("copy") if isinstance(kernels, dict) else None
    triad = kernels.get("triad") if isinstance(kernels, dict) else None
    gbs = [_num(copy, "gbs_best"), _num(copy, "gbs_round_median"), _num(triad, "gbs_best")]
    out = [
        t("bench.note.bandwidth_stream", code, rounds=bw.get("rounds", "?"),
          best=numbers.quantity(gbs[0] or 0, "GB/s", code), median=numbers.quantity(gbs[1] or 0, "GB/s", code),
          triad=numbers.quantity(gbs[2], "GB/s", code) if gbs[2] is not None else "—",
          array=numbers.binary_size(_num(bw, "array_bytes") or 0, code),
          llc=numbers.binary_size(_num(bw, "last_level_cache_bytes") or 0, code))
        if _stream_best(bw) and gbs[0] is not None and gbs[1] is not None else
        t("bench.note.bandwidth", code, estimator=estimator, rounds=bw.get("rounds", "?"),
          array=numbers.binary_size(_num(bw, "array_bytes") or 0, code),
          llc=numbers.binary_size(_num(bw, "last_level_cache_bytes") or 0, code)),
        t("bench.note.matmul", code, n=fp32.get("n", "?"), estimator=estimator, calls=fp32.get("calls_per_round", "?")),
        t("bench.note.ridge", code),
        t("bench.note.decode", code, params=numbers.quantity(_num(decode, "n_params") or 0, "", code),
          dtype=decode.get("dtype", "float32"), steps=decode.get("decode_steps", "?"),
          prompt=decode.get("prompt_tokens", "?")),
    ]
    peak_dtype = str(train.get("peak_dtype") or "float32")
    theoretical = _num(train, "theoretical_gflops")
    source = _peak_source(report, peak_dtype, code)
    out.append(t("bench.note.training", code, batch=train.get("batch", "?"), seq=train.get("seq_len", "?"),
                 precision=train.get("precision", "?"), dtype=peak_dtype,
                 peak=t("bench.note.peak", code, gflops=numbers.integer(theoretical, code),
                        source=source or t("bench.note.unknown", code)) if theoretical else
                 t("bench.note.unknown", code),
                 fraction=_pct(_num(train, "fraction_of_measured_peak") or 0, code, 0)))
    batch1 = decode.get("batches", {}).get("1") if isinstance(decode.get("batches"), dict) else None
    threads = report.env.get("torch_threads")
    if isinstance(threads, int) and isinstance(batch1, dict) and isinstance(batch1.get("threads"), int):
        out.append(t("bench.note.threads", code, threads=threads, decode=batch1["threads"]))
    order = rounds.get("order")
    if isinstance(order, list) and order:
        out.append(t("bench.note.rounds", code, count=rounds.get("count", "?"),
                     order=", ".join(_round_name(str(o), code) for o in order),
                     decode=rounds.get("decode_rounds", "?"), estimator=estimator))
    out.append(t("bench.note.comparison", code, k=numbers.significant(NOISE_K, code),
                 floor=_pct(DEFAULT_TOLERANCE, code, 0), cap=_pct(NOISE_CAP, code, 0)))
    out.append(t("bench.note.cv", code))
    return out


def _round_name(name: str, lang: Lang) -> str:
    """A figure the interleaved rounds measured (``bandwidth``, ``matmul float32``, ``training``), in ``lang``."""
    if name.startswith("matmul "):
        return t("bench.round.matmul", lang, dtype=name.removeprefix("matmul "))
    return t(f"bench.round.{name}", lang) if name in ("bandwidth", "training") else name


def _env_text(value: object) -> str:
    """A field of a report's environment as one clean line ("?" when it was not recorded)."""
    return clean_line(str(value)) if value not in (None, "") else "?"


def render_markdown(report: BenchReport, comparison: BenchComparison | None = None, lang: str = "en", *,
                    title: bool = True) -> str:
    """The report as Markdown, in English or Spanish (the CLI writes English; the L4 lab and the notebook follow
    the learner, and leave out the H1 with ``title=False``)."""
    code = _lang(lang)
    dev, env = report.device, report.env
    out = [f"# {t('bench.md.title', code, device=dev.name)}", ""] if title else []
    out.append("- " + t("bench.md.mode", code, mode=report.mode, kind=dev.kind, fingerprint=dev.fingerprint))
    if env:
        cuda = (t("bench.md.cuda", code, version=_env_text(env.get("cuda"))) if env.get("cuda")
                else t("bench.md.no_cuda", code))
        out.append("- " + t("bench.md.env", code, torch=_env_text(env.get("torch")), cuda=cuda,
                            python=_env_text(env.get("python")), threads=_env_text(env.get("torch_threads"))))
    if report.duration_s is not None:
        out.append("- " + t("bench.md.took", code, seconds=numbers.decimal(report.duration_s, code, 1)))
    columns = [t("bench.col.figure", code), t("bench.col.value", code), t("bench.col.unit", code), "CV"]
    if comparison:
        columns.append(t("bench.col.vs", code))
    out += ["", "| " + " | ".join(columns) + " |", "|---|---:|---|---:|" + ("---|" if comparison else "")]
    for row in _headline(report):
        label, unit = label_of(row, code)
        line = f"| {label} | {_significant(_scaled(row), code)} | {unit} | {_cv(row.cv, code)} |"
        if comparison:
            fig = comparison.figure(row.key)
            line += f" {_ratio_word(fig, code, table=False)} |" if fig else " — |"
        out.append(line)
    out.append("")
    roof_line = decode_roof_line(report, code)
    if roof_line:
        out += [roof_line, ""]
    if comparison:
        verdict = t("bench.md.agree" if comparison.agree else "bench.md.disagree", code)
        out.append(t("bench.md.compared", code, verdict=verdict, tol=_pct(comparison.tolerance, code, 0),
                     cap=_pct(NOISE_CAP, code, 0)))
        shift = speed_shift_line(comparison, code)
        if shift:
            out += ["", shift]
    elif report.compared:
        out.append(t("bench.no_previous", code))
    notes = note_lines(report, code)
    if notes:
        out += ["", f"## {t('bench.md.how', code)}", ""]
        out += [f"- {note}" for note in notes]
    return "\n".join(out) + "\n"
