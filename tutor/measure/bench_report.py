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
# Two passes agree when every headline figure is within this ratio of the other pass's.
DEFAULT_TOLERANCE = 0.05

_LABELS: dict[str, tuple[str, str]] = {
    "peak_bandwidth_gbs": ("peak bandwidth", "GB/s"),
    "ridge_flops_per_byte": ("ridge point (fp32)", "FLOP/B"),
    "decode_tokens_per_s": ("decode, batch 1", "tok/s"),
    "decode_bound_tokens_per_s": ("decode bound, batch 1", "tok/s"),
    "train_tokens_per_s": ("training step", "tok/s"),
    "mfu": ("MFU", ""),
}


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


def compare(current: dict[str, Any], previous: dict[str, Any] | None, tolerance: float = DEFAULT_TOLERANCE
            ) -> dict[str, Any] | None:
    """Per headline figure: current ÷ previous and whether they agree within ``tolerance``."""
    if previous is None:
        return None
    now, before = flat_headline(current["headline"]), flat_headline(previous["headline"])
    figures = []
    for key, value in now.items():
        if key not in before or before[key] == 0:
            continue
        ratio = value / before[key]
        figures.append({"key": key, "current": value, "previous": before[key], "ratio": ratio,
                        "agree": abs(ratio - 1) <= tolerance})
    return {
        "previous_created_at": previous.get("created_at"),
        "previous_mode": previous.get("mode"),
        "tolerance": tolerance,
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
        if fig:
            line += f"  ×{fig['ratio']:.3f} {'agrees' if fig['agree'] else 'DIFFERS'}"
        lines.append(line)
    if comparison:
        tol = comparison["tolerance"] * 100
        verdict = "agree" if comparison["agree"] else "do NOT agree"
        lines.append(f"  the two passes {verdict} within {tol:.0f} % (previous run {comparison['previous_mode']})")
    else:
        lines.append("  no previous run on this fingerprint to compare with")
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


def render_markdown(report: dict[str, Any], comparison: dict[str, Any] | None = None) -> str:
    dev, env = report["device"], report.get("env", {})
    out = [
        f"# GPU Tutor bench — {dev['name']}",
        "",
        f"- mode: {report['mode']}; device: {dev['kind']}; fingerprint `{dev['fingerprint']}`",
        f"- torch {env.get('torch')}, CUDA {env.get('cuda')}, Python {env.get('python')}, "
        f"{env.get('torch_threads')} torch threads",
        f"- took {report.get('duration_s', 0):.1f} s",
        "",
        "| figure | value | CV |" + (" vs previous |" if comparison else ""),
        "|---|---:|---:|" + ("---|" if comparison else ""),
    ]
    by_key = {f["key"]: f for f in (comparison or {}).get("figures", [])}
    for (label, value, cv), key in zip(headline_rows(report), _row_keys(report), strict=True):
        row = f"| {label} | {value} | {cv} |"
        if comparison:
            fig = by_key.get(key)
            row += f" ×{fig['ratio']:.3f} {'agrees' if fig['agree'] else 'differs'} |" if fig else " — |"
        out.append(row)
    out.append("")
    if comparison:
        out.append(f"Compared with the previous run on this fingerprint: the passes "
                   f"{'agree' if comparison['agree'] else 'do not agree'} within "
                   f"{comparison['tolerance'] * 100:.0f} %.")
    notes = report.get("notes", [])
    if notes:
        out += ["", "## How these were measured", ""] + [f"- {n}" for n in notes]
    return "\n".join(out) + "\n"
