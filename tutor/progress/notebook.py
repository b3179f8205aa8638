"""The Lab Notebook: one entry per lab run, in the course's template, rendered to Markdown.

An entry has the template's parts: hypothesis and prediction (the learner's, written before the run), the set-up
(filled from the device the run measured), the procedure, the result (filled from the run, never edited by hand:
it is evidence), the gap between prediction and result with its explanation, and the next question.

Pure logic: no textual, no torch. The store keeps each entry as the JSON of :meth:`NotebookEntry.to_dict`.
"""

from __future__ import annotations

import math
import platform
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from importlib import metadata
from typing import Any

from tutor.i18n import Lang, t
from tutor.i18n import format_number as locale_number
from tutor.results import BenchReport, Device, ResultError, SweepPoint, device_label, sweep_point
from tutor.telemetry.format import describe_window
from tutor.untrusted import clean

ENTRY_SCHEMA = "gpu-tutor/notebook/v1"

#: The template's parts, in order.
SECTIONS: tuple[str, ...] = ("hypothesis", "prediction", "setup", "procedure", "result", "gap", "next_question")

#: The parts the learner writes (the set-up and the result come from the run).
LEARNER_FIELDS: tuple[str, ...] = ("hypothesis", "prediction", "procedure", "gap", "next_question")

HEADINGS: dict[str, dict[Lang, str]] = {
    "hypothesis": {"es": "Hipótesis", "en": "Hypothesis"},
    "prediction": {"es": "Predicción", "en": "Prediction"},
    "setup": {"es": "Montaje", "en": "Set-up"},
    "procedure": {"es": "Procedimiento", "en": "Procedure"},
    "result": {"es": "Resultado", "en": "Result"},
    "gap": {"es": "La diferencia y su explicación", "en": "The gap and its explanation"},
    "next_question": {"es": "Siguiente pregunta", "en": "Next question"},
}

_WORDS: dict[str, dict[Lang, str]] = {
    "notebook": {"es": "Cuaderno de laboratorio", "en": "Lab Notebook"},
    "empty": {"es": "_(sin escribir)_", "en": "_(not written yet)_"},
    "no_entries": {"es": "Todavía no hay entradas.", "en": "No entries yet."},
    "lab": {"es": "Laboratorio", "en": "Lab"},
    "lesson": {"es": "Lección", "en": "Lesson"},
    "run": {"es": "ejecución", "en": "run"},
    "date": {"es": "Fecha", "en": "Date"},
    "device": {"es": "Dispositivo", "en": "Device"},
    "fingerprint": {"es": "Huella del dispositivo", "en": "Device fingerprint"},
    "no_device": {
        "es": "No se registró el dispositivo de esta ejecución.",
        "en": "The device of this run was not recorded.",
    },
    "measured_on": {"es": "Medido en", "en": "Measured on"},
    "telemetry": {"es": "Telemetría durante la ejecución", "en": "Telemetry during the run"},
    "run_what": {"es": "Qué se ejecutó", "en": "What ran"},
    "exported": {"es": "Exportado", "en": "Exported"},
}


# The sentences a result is summarised in (the figures themselves are the run's).
_SENTENCES: dict[str, dict[Lang, str]] = {
    "caches": {"es": "Caches: {sizes}.", "en": "Caches: {sizes}."},
    "ws_peak": {
        "es": "Pico de {peak} GB/s a {at} ({level}); {last} GB/s a {last_at} ({last_level}).",
        "en": "Peak {peak} GB/s at {at} ({level}); {last} GB/s at {last_at} ({last_level}).",
    },
    "gemm_best": {"es": "Lo mejor: {best} GFLOP/s a N = {n}.", "en": "Best {best} GFLOP/s at N = {n}."},
    "gemm_share": {
        "es": "Con {low} tokens por paso, los GEMM se llevan el {low_pct} % del paso; con {high}, el {high_pct} % "
        "({clock}).",
        "en": "At {low} tokens per step GEMMs take {low_pct} % of the step; at {high}, {high_pct} % ({clock}).",
    },
    "naive_ratio": {
        "es": "A N = {n} (ambos medidos) numpy es {ratio}× más rápido.",
        "en": "At N = {n} (both measured) numpy is {ratio}× faster.",
    },
    "no_points": {"es": "(sin puntos)", "en": "(no points)"},
    "peak_bw": {"es": "ancho de banda pico (medido)", "en": "peak bandwidth (measured)"},
    "peak_mm": {"es": "pico de matmul {dtype} (medido)", "en": "peak matmul {dtype} (measured)"},
    "ridge": {"es": "punto de cresta (float32)", "en": "ridge point (float32)"},
    "cached": {"es": "(roofline de la caché de este dispositivo)", "en": "(roofline from this device's cache)"},
}

_HEADERS: dict[str, dict[Lang, list[str]]] = {
    "working_set": {"es": ["working set", "nivel", "GB/s", "CV"], "en": ["working set", "level", "GB/s", "CV"]},
    "gemm_sizes": {"es": ["N", "GFLOP/s", "tiempo (s)", "FLOP/B"], "en": ["N", "GFLOP/s", "time (s)", "FLOP/B"]},
    "naive_vs_numpy": {
        "es": ["N", "python (s)", "python", "numpy (s)", "numpy GFLOP/s", "cociente"],
        "en": ["N", "python (s)", "python is", "numpy (s)", "numpy GFLOP/s", "ratio"],
    },
    "roofline_points": {"es": ["kernel", "FLOP/B", "GFLOP/s", "GB/s"], "en": ["kernel", "FLOP/B", "GFLOP/s", "GB/s"]},
    "gemm_share": {
        "es": ["tokens por paso", "GEMM %", "optimizador %", "elemento a elemento %", "softmax %"],
        "en": ["tokens per step", "GEMM %", "optimizer %", "element-wise %", "softmax %"],
    },
}


def _s(key: str, lang: Lang, **fields: Any) -> str:
    return _SENTENCES[key][lang].format(**fields)


def word(key: str, lang: Lang) -> str:
    entry = _WORDS.get(key) or HEADINGS.get(key)
    return (entry or {}).get(lang, key)


@dataclass
class NotebookEntry:
    """One Lab Notebook entry (one lab run)."""

    lab_id: str
    lesson_id: str = ""
    title: str = ""
    lab_run_id: int | None = None
    created_at: float = field(default_factory=time.time)
    hypothesis: str = ""
    prediction: str = ""
    setup: str = ""
    procedure: str = ""
    result: str = ""
    gap: str = ""
    next_question: str = ""
    device: str = ""
    fingerprint: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"schema": ENTRY_SCHEMA, **asdict(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], **defaults: Any) -> NotebookEntry:
        """Build an entry from stored JSON; unknown keys are ignored, missing ones take ``defaults``."""
        known = {f.name for f in fields(cls)}
        values = {**defaults, **{k: v for k, v in data.items() if k in known}}
        for name in (*SECTIONS, "title", "lesson_id", "device"):
            if values.get(name) is None:
                values[name] = ""
            elif not isinstance(values[name], str):
                values[name] = str(values[name])
        values.setdefault("lab_id", "")
        return cls(**values)

    def with_fields(self, **changes: str) -> NotebookEntry:
        """A copy with some learner-written parts changed (the set-up and result cannot be)."""
        bad = [k for k in changes if k not in LEARNER_FIELDS]
        if bad:
            raise ValueError(f"{bad[0]!r} is not a part the learner writes ({', '.join(LEARNER_FIELDS)})")
        data = asdict(self)
        data.update(changes)
        return NotebookEntry(**data)


@dataclass(frozen=True)
class StoredEntry:
    """An entry as the store holds it: its row id and the entry."""

    id: int
    entry: NotebookEntry
    updated_at: float | None = None


# -- filling an entry from a lab run ---------------------------------------------------------------------------


def draft_entry(
    *,
    lab_id: str,
    lesson_id: str,
    title: str,
    result: Mapping[str, Any] | None,
    lang: Lang,
    lab_run_id: int | None = None,
    prediction: Any = None,
    prediction_unit: str | None = None,
    prediction_question: str = "",
    hypothesis: str = "",
    procedure: str = "",
    next_question: str = "",
    device: Device | None = None,
) -> NotebookEntry:
    """A new entry for a finished lab run, pre-filled from the lab's template texts and the run's result."""
    device = device if device is not None else Device.of(result)
    return NotebookEntry(
        lab_id=lab_id,
        lesson_id=lesson_id,
        title=title,
        lab_run_id=lab_run_id,
        hypothesis=hypothesis.strip(),
        prediction=format_prediction(prediction, prediction_unit, prediction_question),
        setup=describe_setup(device, lang, result=result),
        procedure=procedure.strip(),
        result=summarise_result(result, lang),
        next_question=next_question.strip(),
        device=device.label() if device is not None else "",
        fingerprint=device.fingerprint if device else None,
    )


def format_prediction(prediction: Any, unit: str | None = None, question: str = "") -> str:
    """The learner's prediction as a line of text (with the question it answered, when there was one)."""
    if prediction is None or prediction == "":
        answer = ""
    elif isinstance(prediction, Mapping):
        value = prediction.get("value", prediction.get("text", ""))
        unit = prediction.get("unit", unit)
        answer = f"{format_number(value)} {unit}".strip() if isinstance(value, int | float) else str(value)
    elif isinstance(prediction, int | float) and not isinstance(prediction, bool):
        answer = f"{format_number(prediction)} {unit or ''}".strip()
    else:
        answer = str(prediction).strip()
    question = question.strip()
    if question and answer:
        return f"{question}\n\n→ {answer}"
    return answer or question


def format_number(value: Any) -> str:
    """A figure with about three significant digits, in plain notation where that stays short."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if isinstance(value, int) and abs(value) < 10**7:
        return f"{value:,}".replace(",", " ")
    if not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1e7 or magnitude < 1e-3:
        return f"{value:.3g}"
    decimals = max(0, 2 - math.floor(math.log10(magnitude)))
    return f"{value:,.{decimals}f}".replace(",", " ")


def format_bytes(n: float) -> str:
    """Bytes in binary units (KiB, MiB, GiB), as cache sizes are quoted."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if abs(n) >= scale:
            value = n / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n:.0f} B"


_SETUP_FIELDS: tuple[tuple[str, dict[Lang, str]], ...] = (
    ("cpu_model", {"es": "CPU", "en": "CPU"}),
    ("physical_cores", {"es": "núcleos físicos", "en": "physical cores"}),
    ("logical_cpus", {"es": "CPU lógicas", "en": "logical CPUs"}),
    ("torch_threads", {"es": "hilos de torch", "en": "torch threads"}),
    ("max_ghz", {"es": "reloj máximo (GHz)", "en": "max clock (GHz)"}),
    ("capability", {"es": "compute capability", "en": "compute capability"}),
    ("sms", {"es": "SMs", "en": "SMs"}),
    ("total_memory_bytes", {"es": "memoria", "en": "memory"}),
    ("driver", {"es": "driver", "en": "driver"}),
    ("cuda", {"es": "CUDA", "en": "CUDA"}),
    ("max_sm_clock_mhz", {"es": "reloj SM máx. (MHz)", "en": "max SM clock (MHz)"}),
    ("max_mem_clock_mhz", {"es": "reloj memoria máx. (MHz)", "en": "max memory clock (MHz)"}),
    ("power_limit_w", {"es": "límite de potencia (W)", "en": "power limit (W)"}),
)


def describe_setup(device: Device | None, lang: Lang, *, result: Mapping[str, Any] | None = None) -> str:
    """The set-up as Markdown bullets: the run's device and its fingerprint fields, what was run with which
    parameters, the cache sizes a working-set sweep saw, and the software versions."""
    if not device:
        return word("no_device", lang)
    lines = [f"- {word('device', lang)}: {device.label()}"]
    run = _run_line(result)
    if run:
        lines.append(f"- {word('run_what', lang)}: {run}")
    fp_fields = device.fields
    for key, label in _SETUP_FIELDS:
        value = fp_fields.get(key)
        if value is None or value == "" or (key == "cpu_model" and value == device.name):
            continue
        shown = format_bytes(value) if key == "total_memory_bytes" and isinstance(value, int | float) else value
        lines.append(f"- {label[lang]}: {shown}")
    caches = device.caches
    if caches:
        sizes = ", ".join(f"{k} {format_bytes(v)}" for k, v in caches.items() if isinstance(v, int | float))
        if sizes:
            lines.append(f"- caches: {sizes}")
    software = _software(fp_fields)
    if software:
        lines.append(f"- software: {software}")
    if device.fingerprint:
        lines.append(f"- {word('fingerprint', lang)}: `{device.fingerprint}`")
    return "\n".join(lines)


def _run_line(result: Mapping[str, Any] | None) -> str:
    if not result:
        return ""
    if str(result.get("schema", "")).startswith("gpu-tutor/doctor"):
        return "`tutor doctor`"
    kind = str(result.get("kind") or "")
    name = result.get("name") or result.get("workload") or ""
    params = result.get("params")
    shown = ", ".join(f"{k}={v}" for k, v in params.items()) if isinstance(params, Mapping) else ""
    if kind == "bench" and result.get("mode"):
        shown = f"mode={result['mode']}"
    head = f"`{kind} {name}`".replace(" `", "`") if kind else ""
    return f"{head} ({shown})" if shown else head


def _software(fp_fields: Mapping[str, Any]) -> str:
    """Versions of the packages that shape the numbers (read from package metadata: nothing is imported)."""
    versions = []
    for dist in ("torch", "numpy"):
        version = fp_fields.get(dist) or _dist_version(dist)
        if version:
            versions.append(f"{dist} {version}")
    versions.append(f"Python {platform.python_version()}")
    return ", ".join(versions)


def _dist_version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def summarise_result(result: Mapping[str, Any] | None, lang: Lang) -> str:
    """The run's result as Markdown: its headline figures and, for a sweep, a table of its points."""
    if not result:
        return ""
    kind = result.get("kind")
    schema = str(result.get("schema", ""))
    if kind == "sweep":
        body = describe_sweep(result, lang)
    elif kind == "bench" or schema.startswith("gpu-tutor/bench"):
        body = _describe_bench(result, lang)
    elif kind == "roofline":
        body = _describe_roofline(result, lang)
    elif schema.startswith("gpu-tutor/doctor"):
        body = _describe_doctor(result, lang)
    elif kind == "workload":
        body = _describe_workload(result, lang)
    elif kind == "vram":
        body = _describe_vram(result, lang)
    else:
        figures = {k: v for k, v in result.items() if _is_figure(v) or isinstance(v, str)}
        for key in ("kind", "device", "device_kind"):
            figures.pop(key, None)
        body = _figure_list(figures)
    measured_on = device_label(result, "")
    if measured_on:
        body += f"\n\n_{word('measured_on', lang)}: {measured_on}._"
    telemetry = result.get("telemetry")
    if isinstance(telemetry, Mapping):
        lines = [describe_window(dev, s, lang) for dev, s in telemetry.items() if isinstance(s, Mapping)]
        if any(lines):
            body += f"\n\n**{word('telemetry', lang)}:** " + "; ".join(line for line in lines if line)
    return body.strip()


def _is_figure(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _figure_list(figures: Mapping[str, Any]) -> str:
    lines = []
    for key, value in figures.items():
        if isinstance(value, Mapping):
            inner = ", ".join(f"{k} {format_number(v)}" for k, v in value.items() if _is_figure(v))
            if inner:
                lines.append(f"- {key}: {inner}")
        elif isinstance(value, bool):
            lines.append(f"- {key}: {'yes' if value else 'no'}")
        elif value is not None and not isinstance(value, list | tuple):
            lines.append(f"- {key}: {format_number(value)}")
    return "\n".join(lines)


# What each sweep plots: x key, y key, and how its points split into series.
def sweep_points(result: Mapping[str, Any]) -> list[SweepPoint]:
    """Every plottable point of a sweep result (as a lab run stores it), in order."""
    name = str(result.get("name", ""))
    points = (sweep_point(name, p) for p in result.get("points") or () if isinstance(p, Mapping))
    return [p for p in points if p is not None]


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(c if isinstance(c, str) else format_number(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def describe_sweep(result: Mapping[str, Any], lang: Lang) -> str:
    """A sweep's result: a sentence with its headline figures, then a table of every point."""
    name = result.get("name")
    points = [p for p in result.get("points") or () if isinstance(p, Mapping)]
    if not points:
        return _s("no_points", lang)
    parts: list[str] = []
    if name == "working_set":
        caches = (result.get("caches") or {}).get("levels", {}) if isinstance(result.get("caches"), Mapping) else {}
        if caches:
            parts.append(_s("caches", lang, sizes=", ".join(f"{k} {format_bytes(v)}" for k, v in caches.items())))
        best = max(points, key=lambda p: p.get("gbs", 0))
        last = points[-1]
        parts.append(_s(
            "ws_peak", lang, peak=format_number(best["gbs"]), at=format_bytes(best["working_set_bytes"]),
            level=best.get("level", "?"), last=format_number(last["gbs"]),
            last_at=format_bytes(last["working_set_bytes"]), last_level=last.get("level", "?"),
        ))
        parts.append(_table(_HEADERS["working_set"][lang], [
            (format_bytes(p["working_set_bytes"]), str(p.get("level", "")), p["gbs"], f"{p.get('cv', 0):.1%}")
            for p in points]))
    elif name == "gemm_sizes":
        best = max(points, key=lambda p: p.get("gflops", 0))
        parts.append(_s("gemm_best", lang, best=format_number(best["gflops"]), n=best["n"]))
        parts.append(_table(_HEADERS["gemm_sizes"][lang], [
            (p["n"], p["gflops"], p["time_s"], p.get("arithmetic_intensity", "")) for p in points]))
    elif name == "naive_vs_numpy":
        speedup = result.get("speedup") if isinstance(result.get("speedup"), Mapping) else {}
        by_n: dict[Any, dict[str, Mapping[str, Any]]] = {}
        for p in points:
            by_n.setdefault(p["n"], {})[str(p.get("series"))] = p
        measured = [n for n, d in by_n.items() if "python" in d and not d["python"].get("extrapolated")]
        if measured and speedup:
            n = max(measured)
            parts.append(_s("naive_ratio", lang, n=n, ratio=format_number(speedup.get(str(n), 0))))
        rows = []
        for n, d in sorted(by_n.items()):
            py, npy = d.get("python", {}), d.get("numpy", {})
            rows.append((n, py.get("time_s", ""), py.get("label", ""), npy.get("time_s", ""),
                         npy.get("gflops", ""), f"{format_number(speedup.get(str(n), 0))}×" if speedup else ""))
        parts.append(_table(_HEADERS["naive_vs_numpy"][lang], rows))
        if result.get("note"):
            parts.append(str(result["note"]))
    elif name == "gemm_share":
        first, last = points[0], points[-1]
        parts.append(_s("gemm_share", lang, low=first["tokens_per_step"], low_pct=format_number(first["gemm_pct"]),
                        high=last["tokens_per_step"], high_pct=format_number(last["gemm_pct"]),
                        clock=str(result.get("clock", ""))))

        def pct(p: Mapping[str, Any], group: str) -> float:
            shares = p.get("shares")
            return 100 * float(shares.get(group, 0.0)) if isinstance(shares, Mapping) else 0.0

        parts.append(_table(_HEADERS["gemm_share"][lang], [
            (p["tokens_per_step"], p["gemm_pct"], pct(p, "optimizer"), pct(p, "elementwise"), pct(p, "softmax"))
            for p in points]))
    elif name == "roofline_points":
        roof = result.get("roofline") if isinstance(result.get("roofline"), Mapping) else {}
        if roof:
            parts.append(_describe_roofline(roof, lang))
        check = result.get("roof_check")
        if isinstance(check, Mapping) and check.get("remeasured") and _is_figure(check.get("fraction")):
            note = t("roof.points_remeasured", lang, points=", ".join(str(p) for p in check.get("points") or ()),
                     fraction=locale_number(float(check["fraction"]), lang, ".0%"))
            if check.get("still_above") and _is_figure(check.get("fraction_after")):
                note += " " + t("roof.still_above", lang,
                                fraction=locale_number(float(check["fraction_after"]), lang, ".0%"))
            parts.append(note)
        parts.append(_table(_HEADERS["roofline_points"][lang], [
            (str(p.get("name", "")), p["arithmetic_intensity"], p["gflops"], p.get("gbs", "")) for p in points]))
    else:
        parts.append(_figure_list(points[0]))
    return "\n\n".join(parts)


def _describe_roofline(roof: Mapping[str, Any], lang: Lang = "en") -> str:
    lines = []
    if _is_figure(roof.get("peak_bandwidth_gbs")):
        lines.append(f"- {_s('peak_bw', lang)}: {format_number(roof['peak_bandwidth_gbs'])} GB/s")
    peaks = roof.get("peak_gflops")
    if isinstance(peaks, Mapping):
        lines += [f"- {_s('peak_mm', lang, dtype=d)}: {format_number(v)} GFLOP/s" for d, v in peaks.items()]
    if _is_figure(roof.get("ridge_point")):
        lines.append(f"- {_s('ridge', lang)}: {format_number(roof['ridge_point'])} FLOP/byte")
    sheet = roof.get("datasheet")
    if isinstance(sheet, Mapping) and sheet.get("name"):
        sheet_word = "ficha técnica" if lang == "es" else "datasheet"
        lines.append(f"- {sheet_word}: {sheet.get('name')}, {format_number(sheet.get('bandwidth_gbs', ''))} GB/s")
    if roof.get("cached"):
        lines.append(f"- {_s('cached', lang)}")
    return "\n".join(lines)


_WORDS_ES = {
    "measured (extrapolated to full size)": "medido (extrapolado al tamaño completo)",
    "measured: peak allocated": "medido: pico asignado",
    "measured: peak reserved": "medido: pico reservado",
    "CUDA context": "contexto CUDA",
    "total": "total",
    "formula": "fórmula",
    "part": "parte",
    "fits": "cabe",
    "does not fit": "no cabe",
    "does_not_fit": "no cabe",
    "achieved GB/s": "GB/s alcanzados",
    "achieved GFLOP/s": "GFLOP/s alcanzados",
    "arithmetic intensity (FLOP/B)": "intensidad aritmética (FLOP/B)",
    "median time (s)": "tiempo mediano (s)",
    "bound": "límite",
    "workload": "carga",
    "memory": "memoria",
    "compute": "cómputo",
}


def _w(text: str, lang: Lang) -> str:
    """A short English label of this module in ``lang`` (Spanish from ``_WORDS_ES``; unknown text as is)."""
    return _WORDS_ES.get(text, text) if lang == "es" else text


def _describe_bench(report: Mapping[str, Any], lang: Lang = "en") -> str:
    """The bench report as ``tutor bench`` and the L4 lab render it (one renderer), without its H1."""
    from tutor.measure.bench_report import render_markdown

    try:
        bench = BenchReport.from_json(report, "the bench report")
    except ResultError as exc:
        return str(exc)
    return render_markdown(bench, bench.comparison, lang, title=False)


def _describe_doctor(report: Mapping[str, Any], lang: Lang = "en") -> str:
    marks = {"ok": "✓", "warn": "!", "fail": "✗", "skip": "–"}
    lines = [str(report.get("headline", "")), ""]
    for c in report.get("checks") or ():
        if isinstance(c, Mapping):
            lines.append(f"- {marks.get(str(c.get('status')), '?')} **{c.get('id')}**: {c.get('seen', '')}")
    lines.append("")
    if lang == "es":
        lines.append("Doctor: " + ("todo en orden." if report.get("passed") else "HA FALLADO."))
    else:
        lines.append("Doctor " + ("passed." if report.get("passed") else "FAILED."))
    return "\n".join(lines)


def _describe_vram(result: Mapping[str, Any], lang: Lang = "en") -> str:
    gb = 1e9
    es = lang == "es"
    name = result.get("display") or result.get("preset") or ("el modelo" if es else "the model")
    verdict = _w(str(result.get("verdict", "fits" if result.get("fits") else "does not fit")), lang)
    batch, against = ("lote", "frente a") if es else ("batch", "against")
    lines = [
        f"**{name}**, {result.get('mode', '')}, {result.get('dtype', '')}, {batch} {result.get('batch', '?')}, "
        f"{format_number(result.get('seq_len', ''))} tokens: **{format_number(result.get('total_gb', 0))} GB** "
        f"({result.get('label', '')}) {against} {format_number(result.get('capacity_gb', ''))} GB → "
        f"**{verdict}**.",
        "",
    ]
    rows: list[tuple[str, Any]] = []
    formula = result.get("formula_bytes")
    if isinstance(formula, Mapping):
        rows += [(f"{_w('formula', lang)}: {k.replace('_', ' ')}", v / gb) for k, v in formula.items()
                 if _is_figure(v)]
    for key, label in (("extrapolated_bytes", _w("measured (extrapolated to full size)", lang)),
                       ("peak_allocated_bytes", _w("measured: peak allocated", lang)),
                       ("peak_reserved_bytes", _w("measured: peak reserved", lang)),
                       ("context_bytes", f"{_w('CUDA context', lang)} ({result.get('context_source', '')})"),
                       ("total_bytes", _w("total", lang))):
        if _is_figure(result.get(key)):
            rows.append((label, result[key] / gb))
    if rows:
        lines.append(_table([_w("part", lang), "GB"], rows))
    if _is_figure(result.get("measured_over_formula")):
        ratio = format_number(result["measured_over_formula"])
        lines += ["", f"Medido ÷ fórmula: {ratio}×." if es else f"Measured ÷ formula: {ratio}×."]
    if result.get("oom"):
        lines += ["", "La ejecución se quedó sin memoria: esa es la prueba de que no cabe." if es
                  else "The run ran out of memory: that is the evidence it does not fit."]
    return "\n".join(lines)


def _describe_workload(result: Mapping[str, Any], lang: Lang = "en") -> str:
    cls = result.get("classification")
    bound = cls.get("bound") if isinstance(cls, Mapping) else None
    figures: dict[str, Any] = {
        "workload": result.get("workload"),
        "achieved GB/s": result.get("achieved_gbs"),
        "achieved GFLOP/s": result.get("achieved_gflops"),
        "arithmetic intensity (FLOP/B)": result.get("arithmetic_intensity"),
    }
    time_s = result.get("time_s")
    if isinstance(time_s, Mapping):
        figures["median time (s)"] = time_s.get("median")
        figures["CV"] = time_s.get("cv")
    if isinstance(cls, Mapping):
        figures["bound"] = _w(str(bound), lang) if isinstance(bound, str) else bound
    return "\n".join(f"- {_w(k, lang)}: {format_number(v)}" for k, v in figures.items() if v is not None)


# -- Markdown ------------------------------------------------------------------------------------------------


def render_entry(entry: NotebookEntry, lang: Lang, *, level: int = 2) -> str:
    """One entry as Markdown, in the template's order; parts not yet written say so."""
    h = "#" * level
    title = entry.title or entry.lab_id
    when = datetime.fromtimestamp(entry.created_at).strftime("%Y-%m-%d %H:%M")
    meta = [f"{word('lab', lang)}: `{entry.lab_id}`"]
    if entry.lesson_id:
        meta.append(f"{word('lesson', lang)}: `{entry.lesson_id}`")
    if entry.lab_run_id is not None:
        meta.append(f"{word('run', lang)} #{entry.lab_run_id}")
    meta.append(f"{word('date', lang)}: {when}")
    lines = [f"{h} {title}", "", " · ".join(meta), ""]
    for name in SECTIONS:
        text = getattr(entry, name).strip()
        lines += [f"{h}# {HEADINGS[name][lang]}", "", text or word("empty", lang), ""]
    return "\n".join(lines).rstrip() + "\n"


def render_notebook(entries: Iterable[NotebookEntry], lang: Lang, *, title: str | None = None) -> str:
    """Every entry as one Markdown document, oldest first (control characters removed: lab titles and set-ups come
    from a lesson pack, and the file is meant to be read in a terminal too)."""
    entries = list(entries)
    when = datetime.now().strftime("%Y-%m-%d %H:%M")
    head = [f"# {title or word('notebook', lang)}", "", f"_{word('exported', lang)}: {when}_", ""]
    if not entries:
        return clean("\n".join([*head, word("no_entries", lang), ""]))
    body = "\n---\n\n".join(render_entry(e, lang) for e in entries)
    return clean("\n".join(head) + "\n" + body)


# -- the store -------------------------------------------------------------------------------------------------


def load_entries(store: Any) -> list[StoredEntry]:
    """Every notebook entry in ``store`` (a :class:`~tutor.progress.ProgressStore`), oldest first."""
    out = []
    for row in store.notebook_entries():
        data = row.get("entry") or {}
        entry = NotebookEntry.from_dict(
            data if isinstance(data, Mapping) else {},
            lab_id=row.get("lab_id", ""),
            lab_run_id=row.get("lab_run_id"),
            created_at=row.get("created_at") or time.time(),
        )
        out.append(StoredEntry(id=int(row["id"]), entry=entry, updated_at=row.get("updated_at")))
    return out


def save_entry(store: Any, entry: NotebookEntry, entry_id: int | None = None) -> int:
    """Write ``entry`` (a new one when ``entry_id`` is None); returns its id."""
    return int(
        store.save_notebook_entry(
            lab_id=entry.lab_id, entry=entry.to_dict(), lab_run_id=entry.lab_run_id, entry_id=entry_id
        )
    )
