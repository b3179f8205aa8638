"""The bench report as data: its headline, the comparison with a previous run, and its text and Markdown
renderings. Pure Python (no torch) so the UI can show a stored report."""

from __future__ import annotations

from typing import Any

SCHEMA = "gpu-tutor/bench/v1"
HEADLINE_KEYS: tuple[str, ...] = (
    "peak_bandwidth_gbs",
    "peak_flops_tflops",
    "ridge_flops_per_byte",
    "decode_tokens_per_s",
    "decode_bound_tokens_per_s",
    "train_tokens_per_s",
    "mfu",
)
# Two passes agree when every headline figure is within its allowed difference of the other pass's: the floor
# below, or the figures' measured noise when that is larger (see COMPARISON_RULE), never more than NOISE_CAP.
DEFAULT_TOLERANCE = 0.05
NOISE_K = 2.0
NOISE_CAP = 0.15
COMPARISON_RULE = (f"comparison: two runs agree when each headline figure differs by at most max(floor, "
                   f"{NOISE_K:g}·√(CV₁² + CV₂²)) — the two runs' intervals overlap — with a floor of 5 % and a "
                   f"ceiling of {NOISE_CAP * 100:.0f} %")

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
           "took": "took", "figure": "figure", "value": "value", "vs": "vs previous", "agrees": "agrees",
           "differs": "differs", "agree": "agree", "disagree": "do not agree", "how": "How these were measured",
           "compared": "Compared with the previous run on this fingerprint: the passes {verdict} (each figure within "
                       "max({tol:.0f} %, 2·√(CV₁² + CV₂²)), at most 15 %: the two runs' intervals overlap)."},
    "es": {"mode": "modo", "device": "dispositivo", "fingerprint": "huella", "threads": "hilos de torch",
           "took": "duró", "figure": "cifra", "value": "valor", "vs": "frente a la anterior", "agrees": "coincide",
           "differs": "difiere", "agree": "coinciden", "disagree": "no coinciden", "how": "Cómo se midieron",
           "compared": "Comparado con la ejecución anterior en esta huella: las pasadas {verdict} (cada cifra "
                       "dentro de máx({tol:.0f} %, 2·√(CV₁² + CV₂²)), como mucho 15 %: los intervalos de las dos "
                       "ejecuciones se solapan)."},
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


def flat_headline(headline: dict[str, Any]) -> dict[str, float]:
    """The headline as flat keys (``peak_flops_tflops.float32`` etc.)."""
    out: dict[str, float] = {}
    for key in HEADLINE_KEYS:
        value = headline.get(key)
        if isinstance(value, dict):
            for sub, v in value.items():
                if v is not None:
                    out[f"{key}.{sub}"] = float(v)
        elif value is not None:
            out[key] = float(value)
    return out


def flat_cv(report: dict[str, Any]) -> dict[str, float]:
    """The report's CV per flat headline key (missing where the report has none)."""
    cv = report.get("cv") if isinstance(report.get("cv"), dict) else {}
    out: dict[str, float] = {}
    for key, value in (cv or {}).items():
        if isinstance(value, dict):
            for sub, v in value.items():
                if isinstance(v, int | float) and v >= 0:
                    out[f"{key}.{sub}"] = float(v)
        elif isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            out[key] = float(value)
    return out


def allowed_difference(cv_now: float | None, cv_before: float | None, tolerance: float = DEFAULT_TOLERANCE
                       ) -> float:
    """How far apart two runs of one figure may be and still agree: the floor ``tolerance``, or the noise both
    runs measured (``NOISE_K`` standard deviations of their difference) when that is larger, at most
    ``NOISE_CAP`` (a figure noisier than that cannot be reproduced on this machine, and the rule says so)."""
    noise = NOISE_K * ((cv_now or 0.0) ** 2 + (cv_before or 0.0) ** 2) ** 0.5
    return min(max(tolerance, noise), max(tolerance, NOISE_CAP))


def compare(current: dict[str, Any], previous: dict[str, Any] | None, tolerance: float = DEFAULT_TOLERANCE
            ) -> dict[str, Any] | None:
    """Per headline figure: current ÷ previous, the difference allowed by both runs' measured noise (floor
    ``tolerance``) and whether they agree (:data:`COMPARISON_RULE`)."""
    if previous is None:
        return None
    now, before = flat_headline(current["headline"]), flat_headline(previous["headline"])
    cv_now, cv_before = flat_cv(current), flat_cv(previous)
    figures = []
    for key, value in now.items():
        if key not in before or before[key] == 0:
            continue
        ratio = value / before[key]
        allowed = allowed_difference(cv_now.get(key), cv_before.get(key), tolerance)
        figures.append({"key": key, "current": value, "previous": before[key], "ratio": ratio,
                        "allowed": allowed, "agree": abs(ratio - 1) <= allowed + 1e-12})
    return {
        "previous_created_at": previous.get("created_at"),
        "previous_mode": previous.get("mode"),
        "tolerance": tolerance,
        "rule": COMPARISON_RULE,
        "figures": figures,
        "agree": bool(figures) and all(f["agree"] for f in figures),
    }


def _fmt(value: float, unit: str) -> str:
    if unit == "":
        return f"{value * 100:.1f} %"
    if abs(value) >= 100:
        return f"{value:,.0f} {unit}"
    return f"{value:.3g} {unit}"


def headline_rows(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(figure, value, CV) rows for the table."""
    head, cv = report["headline"], report.get("cv", {})
    rows: list[tuple[str, str, str]] = []
    for key in HEADLINE_KEYS:
        value = head.get(key)
        if key == "peak_flops_tflops":
            for dtype, v in (value or {}).items():
                c = (cv.get(key) or {}).get(dtype)
                rows.append((f"matmul peak {dtype}", _fmt(v * 1e3, "GFLOP/s"), _cv(c)))
            continue
        if value is None:
            continue
        label, unit = _LABELS[key]
        rows.append((label, _fmt(float(value), unit), _cv(cv.get(key))))
    return rows


def _cv(value: Any) -> str:
    return "—" if value is None else f"{float(value) * 100:.1f} %"


def decode_roof_line(report: dict[str, Any], lang: str = "en") -> str | None:
    """Which roof bounds the report's decode (DRAM, or the cache the weights live in) and, when decode sits above
    its bound, why and what was measured again; None for a report from before the feeding roof existed."""
    from tutor.measure.decode_sizing import decode_roof_text, dig

    decode = (report.get("tests") or {}).get("decode")
    if not isinstance(decode, dict):
        return None
    return decode_roof_text(dig(decode), "es" if lang == "es" else "en")


def render_table(report: dict[str, Any], comparison: dict[str, Any] | None = None) -> str:
    """A plain-text table of the headline figures (with the comparison when there is one)."""
    dev = report["device"]
    lines = [f"tutor bench ({report['mode']}) on {dev['kind']}: {dev['name']}  [fingerprint {dev['fingerprint']}]"]
    rows = headline_rows(report)
    by_key = {f["key"]: f for f in (comparison or {}).get("figures", [])}
    keys = _row_keys(report)
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    header = f"  {'figure':<{w0}}  {'value':>{w1}}  {'CV':>7}"
    if comparison:
        header += "  vs previous"
    lines += [header, "  " + "-" * (len(header) - 2)]
    for (label, value, cv), key in zip(rows, keys, strict=True):
        line = f"  {label:<{w0}}  {value:>{w1}}  {cv:>7}"
        fig = by_key.get(key)
        if fig and comparison:
            line += (f"  ×{fig['ratio']:.3f} {'agrees' if fig['agree'] else 'DIFFERS'}"
                     f" (±{fig.get('allowed', comparison['tolerance']) * 100:.1f} %)")
        lines.append(line)
    if comparison:
        tol = comparison["tolerance"] * 100
        verdict = "agree" if comparison["agree"] else "do NOT agree"
        lines.append(f"  the two passes {verdict} (previous run {comparison['previous_mode']}): each figure within "
                     f"max({tol:.0f} %, 2·√(CV₁² + CV₂²)), at most {NOISE_CAP * 100:.0f} %")
    else:
        lines.append("  no previous run on this fingerprint to compare with")
    roof_line = decode_roof_line(report)
    if roof_line:
        lines.append(f"  {roof_line}")
    for w in report.get("warnings", []):
        lines.append(f"  warning: {w}")
    return "\n".join(lines)


def _row_keys(report: dict[str, Any]) -> list[str]:
    keys = []
    for key in HEADLINE_KEYS:
        value = report["headline"].get(key)
        if key == "peak_flops_tflops":
            keys += [f"{key}.{d}" for d in (value or {})]
        elif value is not None:
            keys.append(key)
    return keys


def render_markdown(report: dict[str, Any], comparison: dict[str, Any] | None = None, lang: str = "en") -> str:
    """The report as Markdown, in English or Spanish (the CLI writes English; the L4 lab follows the learner)."""
    w = _WORDS.get(lang, _WORDS["en"])
    dev, env = report["device"], report.get("env", {})
    out = [
        f"# GPU Tutor bench — {dev['name']}",
        "",
        f"- {w['mode']}: {report['mode']}; {w['device']}: {dev['kind']}; {w['fingerprint']} `{dev['fingerprint']}`",
        f"- torch {env.get('torch')}, CUDA {env.get('cuda')}, Python {env.get('python')}, "
        f"{env.get('torch_threads')} {w['threads']}",
        f"- {w['took']} {report.get('duration_s', 0):.1f} s",
        "",
        f"| {w['figure']} | {w['value']} | CV |" + (f" {w['vs']} |" if comparison else ""),
        "|---|---:|---:|" + ("---|" if comparison else ""),
    ]
    by_key = {f["key"]: f for f in (comparison or {}).get("figures", [])}
    for (label, value, cv), key in zip(headline_rows(report), _row_keys(report), strict=True):
        row = f"| {label_in(label, lang)} | {value} | {cv} |"
        if comparison:
            fig = by_key.get(key)
            row += (f" ×{fig['ratio']:.3f} {w['agrees'] if fig['agree'] else w['differs']} "
                    f"(±{fig.get('allowed', comparison['tolerance']) * 100:.1f} %) |" if fig else " — |")
        out.append(row)
    out.append("")
    roof_line = decode_roof_line(report, lang)
    if roof_line:
        out += [roof_line, ""]
    if comparison:
        verdict = w["agree"] if comparison["agree"] else w["disagree"]
        out.append(w["compared"].format(verdict=verdict, tol=comparison["tolerance"] * 100))
    notes = [str(n) for n in report.get("notes", [])]
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
