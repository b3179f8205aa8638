"""The bench report (:class:`tutor.results.BenchReport`): the comparison with a previous run, and its one text
table and one Markdown rendering (``tutor bench``, the L4 lab and the notebook all show this one). Pure Python (no
torch) so the UI can show a stored report."""

from __future__ import annotations

import math
from typing import Any

from tutor.i18n import format_number, t
from tutor.results import BENCH_SCHEMA as SCHEMA
from tutor.results import HEADLINE_KEYS, BenchComparison, BenchReport, BenchRow, ComparedFigure

__all__ = ["COMPARISON_RULE", "DEFAULT_TOLERANCE", "HEADLINE_KEYS", "SCHEMA", "allowed_difference", "compare",
           "headline_rows", "render_markdown", "render_table"]
# Two passes agree when every headline figure is within its allowed difference of the other pass's: the floor
# below, or the figures' measured noise when that is larger (see COMPARISON_RULE), never more than NOISE_CAP.
DEFAULT_TOLERANCE = 0.05
NOISE_K = 2.0
NOISE_CAP = 0.15
COMPARISON_RULE = (f"comparison: two runs agree when each headline figure differs by at most max(floor, "
                   f"{NOISE_K:g}·√(CV₁² + CV₂²)) — the two runs' intervals overlap — with a floor of 5 % and a "
                   f"ceiling of {NOISE_CAP * 100:.0f} % ({t('bench.cv_spread', 'en')})")

_LABELS: dict[str, tuple[str, str]] = {
    "peak_bandwidth_gbs": ("peak bandwidth", "GB/s"),
    "ridge_flops_per_byte": ("ridge point (fp32)", "FLOP/B"),
    "decode_tokens_per_s": ("decode, batch 1", "tok/s"),
    "decode_bound_tokens_per_s": ("decode bound, batch 1", "tok/s"),
    "train_tokens_per_s": ("training step", "tok/s"),
    "mfu": ("MFU", ""),
}
_LABELS_ES = {
    "peak bandwidth": "ancho de banda pico",
    "matmul peak": "pico de matmul",
    "ridge point (fp32)": "punto de cresta (fp32)",
    "decode, batch 1": "decodificación, lote 1",
    "decode bound, batch 1": "cota de decodificación, lote 1",
    "training step": "paso de entrenamiento",
}
# The Markdown report's words; the method notes keep the engine's English details after a translated lead-in.
_WORDS = {
    "en": {"mode": "mode", "device": "device", "fingerprint": "fingerprint", "threads": "torch threads",
           "took": "took", "figure": "figure", "value": "value", "unit": "unit", "vs": "vs previous",
           "agrees": "agrees", "differs": "differs", "agree": "agree", "disagree": "do not agree",
           "how": "How these were measured",
           "compared": "Compared with the previous run on this fingerprint, the two passes {verdict} within {tol:.0f}% "
                       "(each figure within max({tol:.0f} %, 2·√(CV₁² + CV₂²)), at most 15 %: the two runs' "
                       "intervals overlap)."},
    "es": {"mode": "modo", "device": "dispositivo", "fingerprint": "huella", "threads": "hilos de torch",
           "took": "duró", "figure": "cifra", "value": "valor", "unit": "unidad", "vs": "frente a la anterior",
           "agrees": "coincide", "differs": "difiere", "agree": "coinciden", "disagree": "no coinciden",
           "how": "Cómo se midieron",
           "compared": "Comparado con la ejecución anterior en esta huella, las dos pasadas {verdict} dentro del "
                       "{tol:.0f} % (cada cifra dentro de máx({tol:.0f} %, 2·√(CV₁² + CV₂²)), como mucho 15 %: los "
                       "intervalos de las dos ejecuciones se solapan)."},
}
_NOTES_ES = (
    ("peak bandwidth: ", "ancho de banda pico: "),
    ("matmul peak: ", "pico de matmul: "),
    ("ridge point: fp32 matmul peak ÷ peak bandwidth", "punto de cresta: pico de matmul fp32 ÷ ancho de banda pico"),
    ("decode: ", "decodificación: "),
    ("training: ", "entrenamiento: "),
    ("comparison: two runs agree when", "comparación: dos ejecuciones coinciden cuando"),
    ("threads: torch pinned to", "hilos: torch fijado a"),
    ("CV = coefficient of variation of the timed repeats; ridge and MFU combine their inputs' CVs",
     "CV = coeficiente de variación de las repeticiones cronometradas; el punto de cresta y el MFU combinan "
     "los CV de sus entradas"),
)


def label_in(label: str, lang: str) -> str:
    """A headline row's label in ``lang`` (``matmul peak float32`` keeps its dtype)."""
    if lang != "es":
        return label
    if label.startswith("matmul peak "):
        return _LABELS_ES["matmul peak"] + label.removeprefix("matmul peak")
    return _LABELS_ES.get(label, label)


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


def _headline(report: BenchReport) -> list[BenchRow]:
    """The report's headline rows that the table shows, in :data:`HEADLINE_KEYS` order."""
    return sorted((r for r in report.rows if r.figure in HEADLINE_KEYS), key=lambda r: HEADLINE_KEYS.index(r.figure))


def _fmt(value: float, unit: str) -> str:
    if unit == "":
        return f"{value * 100:.1f} %"
    if abs(value) >= 100:
        return f"{value:,.0f} {unit}"
    return f"{value:.3g} {unit}"


def _label_unit(row: BenchRow) -> tuple[str, str]:
    if row.figure == "peak_flops_tflops":
        return f"matmul peak {row.dtype}", "GFLOP/s"
    label, unit = _LABELS[row.key]
    return label, unit or "%"


def _significant(value: float, lang: str) -> str:
    """About three significant digits, trailing zeros kept (``30.0``, ``0.150``, ``1,500``), in ``lang``."""
    if value == 0 or not math.isfinite(value):
        return format_number(value, lang, "g")
    if abs(value) >= 1e7 or abs(value) < 1e-3:
        return format_number(value, lang, ".3g")
    return format_number(value, lang, f",.{max(0, 2 - math.floor(math.log10(abs(value))))}f")


def headline_rows(report: BenchReport) -> list[tuple[str, str, str, str]]:
    """(key, figure, value, CV) rows for the table."""
    rows: list[tuple[str, str, str, str]] = []
    for row in _headline(report):
        if row.figure == "peak_flops_tflops":
            rows.append((row.key, f"matmul peak {row.dtype}", _fmt(row.value * 1e3, "GFLOP/s"), _cv(row.cv)))
        else:
            label, unit = _LABELS[row.key]
            rows.append((row.key, label, _fmt(row.value, unit), _cv(row.cv)))
    return rows


def _cv(value: Any) -> str:
    return "—" if value is None else f"{float(value) * 100:.1f} %"


def decode_roof_line(report: BenchReport, lang: str = "en") -> str | None:
    """Which roof bounds the report's decode (DRAM, or the cache the weights live in) and, when decode sits above
    its bound, why and what was measured again; None for a report from before the feeding roof existed."""
    from tutor.measure.decode_sizing import decode_roof_text, dig

    decode = report.tests.get("decode")
    if not isinstance(decode, dict):
        return None
    return decode_roof_text(dig(decode), "es" if lang == "es" else "en")


def render_table(report: BenchReport, comparison: BenchComparison | None = None) -> str:
    """A plain-text table of the headline figures (with the comparison when there is one)."""
    dev = report.device
    lines = [f"tutor bench ({report.mode}) on {dev.kind}: {dev.name}  [fingerprint {dev.fingerprint}]"]
    rows = headline_rows(report)
    w0 = max((len(r[1]) for r in rows), default=6)
    w1 = max((len(r[2]) for r in rows), default=5)
    header = f"  {'figure':<{w0}}  {'value':>{w1}}  {'CV':>7}"
    if comparison:
        header += "  vs previous"
    lines += [header, "  " + "-" * (len(header) - 2)]
    for key, label, value, cv in rows:
        line = f"  {label:<{w0}}  {value:>{w1}}  {cv:>7}"
        fig = comparison.figure(key) if comparison else None
        if fig:
            line += f"  ×{fig.ratio:.3f} {'agrees' if fig.agree else 'DIFFERS'} (±{fig.allowed * 100:.1f} %)"
        lines.append(line)
    if comparison:
        tol = comparison.tolerance * 100
        verdict = "agree" if comparison.agree else "do NOT agree"
        lines.append(f"  the two passes {verdict} (previous run {comparison.previous_mode}): each figure within "
                     f"max({tol:.0f} %, 2·√(CV₁² + CV₂²)), at most {NOISE_CAP * 100:.0f} %")
    else:
        lines.append("  no previous run on this fingerprint to compare with")
    roof_line = decode_roof_line(report)
    if roof_line:
        lines.append(f"  {roof_line}")
    lines += [f"  {line}" for line in method_lines(report)]
    for w in report.warnings:
        lines.append(f"  warning: {w}")
    return "\n".join(lines)


def method_lines(report: BenchReport) -> list[str]:
    """How the headline and its CV were estimated, and where MFU's theoretical peak comes from (for the table)."""
    out = []
    rounds = report.tests.get("rounds")
    if isinstance(rounds, dict) and rounds.get("count"):
        out.append(t("bench.estimator", "en", rounds=rounds["count"], decode_rounds=rounds.get("decode_rounds"),
                     train_steps=rounds.get("train_steps_per_round", 1), read_passes=rounds.get("read_passes", 1)))
    train = report.tests.get("train_step")
    if isinstance(train, dict) and train.get("theoretical_gflops") and train.get("theoretical_source"):
        out.append(f"MFU over a theoretical peak of {float(train['theoretical_gflops']):,.0f} GFLOP/s = "
                   f"{train['theoretical_source']}")
    return out


def render_markdown(report: BenchReport, comparison: BenchComparison | None = None, lang: str = "en", *,
                    title: bool = True) -> str:
    """The report as Markdown, in English or Spanish (the CLI writes English; the L4 lab and the notebook follow
    the learner, and leave out the H1 with ``title=False``)."""
    w = _WORDS.get(lang, _WORDS["en"])
    dev, env = report.device, report.env
    out = [f"# GPU Tutor bench — {dev.name}", ""] if title else []
    out.append(f"- {w['mode']}: {report.mode}; {w['device']}: {dev.kind}; {w['fingerprint']} `{dev.fingerprint}`")
    if env:
        out.append(f"- torch {env.get('torch')}, CUDA {env.get('cuda')}, Python {env.get('python')}, "
                   f"{env.get('torch_threads')} {w['threads']}")
    if report.duration_s is not None:
        out.append(f"- {w['took']} {report.duration_s:.1f} s")
    out += [
        "",
        f"| {w['figure']} | {w['value']} | {w['unit']} | CV |" + (f" {w['vs']} |" if comparison else ""),
        "|---|---:|---|---:|" + ("---|" if comparison else ""),
    ]
    for row in _headline(report):
        label, unit = _label_unit(row)
        value = row.value * (1e3 if row.figure == "peak_flops_tflops" else 100 if row.figure == "mfu" else 1)
        cv = "—" if row.cv is None else f"{format_number(row.cv * 100, lang, '.1f')} %"
        line = f"| {label_in(label, lang)} | {_significant(value, lang)} | {unit} | {cv} |"
        if comparison:
            fig = comparison.figure(row.key)
            line += (f" ×{format_number(fig.ratio, lang, '.3f')} {w['agrees'] if fig.agree else w['differs']} "
                     f"(±{format_number(fig.allowed * 100, lang, '.1f')} %) |" if fig else " — |")
        out.append(line)
    out.append("")
    roof_line = decode_roof_line(report, lang)
    if roof_line:
        out += [roof_line, ""]
    if comparison:
        verdict = w["agree"] if comparison.agree else w["disagree"]
        out.append(w["compared"].format(verdict=verdict, tol=comparison.tolerance * 100))
    elif report.compared:
        out.append(t("bench.no_previous", "es" if lang == "es" else "en"))
    notes = list(report.notes)
    if notes:
        out += ["", f"## {w['how']}", ""]
        for note in notes:
            if lang == "es":
                for en, es in _NOTES_ES:
                    if note.startswith(en):
                        note = es + note[len(en):]
                        break
            out.append(f"- {note}")
    return "\n".join(out) + "\n"
