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

from tutor.grading.truth import measurement_label
from tutor.i18n import LANGS, Lang, numbers, t
from tutor.i18n import format_number as locale_number
from tutor.results import BenchReport, Device, ResultError, SweepPoint, device_label, sweep_point
from tutor.telemetry.format import describe_window
from tutor.untrusted import clean

ENTRY_SCHEMA = "gpu-tutor/notebook/v1"

#: The template's parts, in order.
SECTIONS: tuple[str, ...] = ("hypothesis", "prediction", "setup", "procedure", "result", "gap", "next_question")

#: The parts the learner writes (the set-up and the result come from the run).
LEARNER_FIELDS: tuple[str, ...] = ("hypothesis", "prediction", "procedure", "gap", "next_question")

#: Each part's heading per language (``notebook.h.<part>`` in the catalogs).
HEADINGS: dict[str, dict[Lang, str]] = {name: {lang: t(f"notebook.h.{name}", lang) for lang in LANGS}
                                         for name in SECTIONS}


def _s(key: str, lang: Lang, **fields: Any) -> str:
    return t(f"notebook.s.{key}", lang, **fields)


def word(key: str, lang: Lang) -> str:
    """A word of the notebook (``notebook.w.<key>``, or a part's heading) in ``lang``."""
    return t(f"notebook.h.{key}" if key in SECTIONS else f"notebook.w.{key}", lang)


def _columns(key: str, lang: Lang) -> list[str]:
    return t(f"notebook.cols.{key}", lang).split("|")


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
        prediction=format_prediction(prediction, prediction_unit, prediction_question, lang),
        setup=describe_setup(device, lang, result=result),
        procedure=procedure.strip(),
        result=summarise_result(result, lang),
        next_question=next_question.strip(),
        device=device.label() if device is not None else "",
        fingerprint=device.fingerprint if device else None,
    )


def format_prediction(prediction: Any, unit: str | None = None, question: str = "", lang: Lang = "en") -> str:
    """The learner's prediction as a line of text (with the question it answered, when there was one)."""
    if prediction is None or prediction == "":
        answer = ""
    elif isinstance(prediction, Mapping):
        value = prediction.get("value", prediction.get("text", ""))
        unit = prediction.get("unit", unit)
        answer = f"{format_number(value, lang)} {unit}".strip() if isinstance(value, int | float) else str(value)
    elif isinstance(prediction, int | float) and not isinstance(prediction, bool):
        answer = f"{format_number(prediction, lang)} {unit or ''}".strip()
    else:
        answer = str(prediction).strip()
    question = question.strip()
    if question and answer:
        return f"{question}\n\n→ {answer}"
    return answer or question


def format_number(value: Any, lang: Lang = "en") -> str:
    """A figure with about three significant digits, in plain notation where that stays short, written per
    ``lang`` (:mod:`tutor.i18n.numbers`: ``1 234,5`` in Spanish); anything else as text."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if isinstance(value, int) and abs(value) < 10**7:
        return numbers.integer(value, lang)
    if not math.isfinite(value) or value == 0:
        return numbers.significant(value, lang)
    magnitude = abs(value)
    if magnitude >= 1e7 or magnitude < 1e-3:
        return numbers.significant(value, lang, 3)
    return numbers.decimal(value, lang, max(0, 2 - math.floor(math.log10(magnitude))), group=True)


def format_bytes(n: float, lang: Lang = "en") -> str:
    """Bytes in binary units (KiB, MiB, GiB), as cache sizes are quoted, written per ``lang``."""
    return numbers.binary_size(n, lang)


#: The fingerprint fields the set-up lists (``notebook.setup.<field>`` names each).
_SETUP_FIELDS: tuple[str, ...] = (
    "cpu_model", "physical_cores", "logical_cpus", "torch_threads", "max_ghz", "capability", "sms",
    "total_memory_bytes", "driver", "cuda", "max_sm_clock_mhz", "max_mem_clock_mhz", "power_limit_w",
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
    for key in _SETUP_FIELDS:
        value = fp_fields.get(key)
        if value is None or value == "" or (key == "cpu_model" and value == device.name):
            continue
        shown = format_bytes(value, lang) if key == "total_memory_bytes" and isinstance(value, int | float) else value
        lines.append(f"- {t(f'notebook.setup.{key}', lang)}: {shown}")
    caches = device.caches
    if caches:
        sizes = ", ".join(f"{k} {format_bytes(v, lang)}" for k, v in caches.items() if isinstance(v, int | float))
        if sizes:
            lines.append(f"- {t('notebook.setup.caches', lang)}: {sizes}")
    software = _software(fp_fields)
    if software:
        lines.append(f"- {t('notebook.setup.software', lang)}: {software}")
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
        body = _figure_list(figures, lang)
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


def _figure_list(figures: Mapping[str, Any], lang: Lang) -> str:
    lines = []
    for key, value in figures.items():
        if isinstance(value, Mapping):
            inner = ", ".join(f"{k} {format_number(v, lang)}" for k, v in value.items() if _is_figure(v))
            if inner:
                lines.append(f"- {key}: {inner}")
        elif isinstance(value, bool):
            lines.append(f"- {key}: {word('yes' if value else 'no', lang)}")
        elif value is not None and not isinstance(value, list | tuple):
            lines.append(f"- {key}: {format_number(value, lang)}")
    return "\n".join(lines)


# What each sweep plots: x key, y key, and how its points split into series.
def sweep_points(result: Mapping[str, Any]) -> list[SweepPoint]:
    """Every plottable point of a sweep result (as a lab run stores it), in order."""
    name = str(result.get("name", ""))
    points = (sweep_point(name, p) for p in result.get("points") or () if isinstance(p, Mapping))
    return [p for p in points if p is not None]


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]], lang: Lang) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(c if isinstance(c, str) else format_number(c, lang) for c in row) + " |"
              for row in rows]
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
            parts.append(_s("caches", lang, sizes=", ".join(f"{k} {format_bytes(v, lang)}" for k, v in caches.items())))
        best = max(points, key=lambda p: p.get("gbs", 0))
        last = points[-1]
        parts.append(_s(
            "ws_peak", lang, peak=format_number(best["gbs"], lang), at=format_bytes(best["working_set_bytes"], lang),
            level=best.get("level", "?"), last=format_number(last["gbs"], lang),
            last_at=format_bytes(last["working_set_bytes"], lang), last_level=last.get("level", "?"),
        ))
        parts.append(_table(_columns("working_set", lang), [
            (format_bytes(p["working_set_bytes"], lang), str(p.get("level", "")), p["gbs"],
             locale_number(p.get("cv", 0), lang, ".1%"))
            for p in points], lang))
    elif name == "gemm_sizes":
        best = max(points, key=lambda p: p.get("gflops", 0))
        parts.append(_s("gemm_best", lang, best=format_number(best["gflops"], lang), n=best["n"]))
        parts.append(_table(_columns("gemm_sizes", lang), [
            (p["n"], p["gflops"], p["time_s"], p.get("arithmetic_intensity", "")) for p in points], lang))
    elif name == "naive_vs_numpy":
        speedup = result.get("speedup") if isinstance(result.get("speedup"), Mapping) else {}
        by_n: dict[Any, dict[str, Mapping[str, Any]]] = {}
        for p in points:
            by_n.setdefault(p["n"], {})[str(p.get("series"))] = p
        measured = [n for n, d in by_n.items() if "python" in d and not d["python"].get("extrapolated")]
        if measured and speedup:
            n = max(measured)
            parts.append(_s("naive_ratio", lang, n=n, ratio=format_number(speedup.get(str(n), 0), lang)))
        rows = []
        for n, d in sorted(by_n.items()):
            py, npy = d.get("python", {}), d.get("numpy", {})
            rows.append((n, py.get("time_s", ""), py.get("label", ""), npy.get("time_s", ""),
                         npy.get("gflops", ""), f"{format_number(speedup.get(str(n), 0), lang)}×" if speedup else ""))
        parts.append(_table(_columns("naive_vs_numpy", lang), rows, lang))
        if result.get("note"):
            parts.append(str(result["note"]))
    elif name == "gemm_share":
        first, last = points[0], points[-1]
        parts.append(_s("gemm_share", lang, low=first["tokens_per_step"],
                        low_pct=format_number(first["gemm_pct"], lang),
                        high=last["tokens_per_step"], high_pct=format_number(last["gemm_pct"], lang),
                        clock=str(result.get("clock", ""))))

        def pct(p: Mapping[str, Any], group: str) -> float:
            shares = p.get("shares")
            return 100 * float(shares.get(group, 0.0)) if isinstance(shares, Mapping) else 0.0

        parts.append(_table(_columns("gemm_share", lang), [
            (p["tokens_per_step"], p["gemm_pct"], pct(p, "optimizer"), pct(p, "elementwise"), pct(p, "softmax"))
            for p in points], lang))
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
        parts.append(_table(_columns("roofline_points", lang), [
            (str(p.get("name", "")), p["arithmetic_intensity"], p["gflops"], p.get("gbs", "")) for p in points], lang))
    else:
        parts.append(_figure_list(points[0], lang))
    return "\n\n".join(parts)


def _describe_roofline(roof: Mapping[str, Any], lang: Lang = "en") -> str:
    lines = []
    if _is_figure(roof.get("peak_bandwidth_gbs")):
        lines.append(f"- {_s('peak_bw', lang)}: {format_number(roof['peak_bandwidth_gbs'], lang)} GB/s")
    peaks = roof.get("peak_gflops")
    if isinstance(peaks, Mapping):
        lines += [f"- {_s('peak_mm', lang, dtype=d)}: {format_number(v, lang)} GFLOP/s" for d, v in peaks.items()]
    if _is_figure(roof.get("ridge_point")):
        lines.append(f"- {_s('ridge', lang)}: {format_number(roof['ridge_point'], lang)} FLOP/byte")
    sheet = roof.get("datasheet")
    if isinstance(sheet, Mapping) and sheet.get("name"):
        bandwidth = format_number(sheet.get("bandwidth_gbs", ""), lang)
        lines.append(f"- {word('datasheet', lang)}: {sheet.get('name')}, {bandwidth} GB/s")
    if roof.get("cached"):
        lines.append(f"- {_s('cached', lang)}")
    return "\n".join(lines)


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
    lines.append(t("notebook.doctor.passed" if report.get("passed") else "notebook.doctor.failed", lang))
    return "\n".join(lines)


def _describe_vram(result: Mapping[str, Any], lang: Lang = "en") -> str:
    gb = 1e9
    name = result.get("display") or result.get("preset") or t("notebook.vram.the_model", lang)
    fits = result.get("verdict", "fits" if result.get("fits") else "does_not_fit")
    verdict = t("notebook.vram.fits" if fits == "fits" else "notebook.vram.does_not_fit", lang)
    label = result.get("label")
    lines = [
        t("notebook.vram.headline", lang, name=name, mode=result.get("mode", ""), dtype=result.get("dtype", ""),
          batch=result.get("batch", "?"), seq=format_number(result.get("seq_len", ""), lang),
          total=format_number(result.get("total_gb", 0), lang),
          label=measurement_label(label).render(lang) if isinstance(label, str) else "",
          capacity=format_number(result.get("capacity_gb", ""), lang), verdict=verdict),
        "",
    ]
    rows: list[tuple[str, Any]] = []
    formula = result.get("formula_bytes")
    if isinstance(formula, Mapping):
        rows += [(t("notebook.vram.formula", lang, part=k.replace("_", " ")), v / gb) for k, v in formula.items()
                 if _is_figure(v)]
    for key, label_key in (("extrapolated_bytes", "extrapolated"), ("peak_allocated_bytes", "peak_allocated"),
                           ("peak_reserved_bytes", "peak_reserved"), ("context_bytes", "context"),
                           ("total_bytes", "total")):
        if _is_figure(result.get(key)):
            rows.append((t(f"notebook.vram.{label_key}", lang, source=result.get("context_source", "")),
                         result[key] / gb))
    if rows:
        lines.append(_table([t("notebook.vram.part", lang), "GB"], rows, lang))
    if _is_figure(result.get("measured_over_formula")):
        lines += ["", t("notebook.vram.ratio", lang, ratio=format_number(result["measured_over_formula"], lang))]
    if result.get("oom"):
        lines += ["", t("notebook.vram.oom", lang)]
    return "\n".join(lines)


def _describe_workload(result: Mapping[str, Any], lang: Lang = "en") -> str:
    cls = result.get("classification")
    bound = cls.get("bound") if isinstance(cls, Mapping) else None
    figures: dict[str, Any] = {
        "workload": result.get("workload"),
        "achieved_gbs": result.get("achieved_gbs"),
        "achieved_gflops": result.get("achieved_gflops"),
        "intensity": result.get("arithmetic_intensity"),
    }
    time_s = result.get("time_s")
    if isinstance(time_s, Mapping):
        figures["median_time"] = time_s.get("median")
        figures["cv"] = time_s.get("cv")
    if isinstance(cls, Mapping):
        figures["bound"] = t(f"notebook.bound.{bound}", lang) if bound in ("memory", "compute") else bound
    return "\n".join(f"- {t(f'notebook.fig.{k}', lang)}: {format_number(v, lang)}" for k, v in figures.items()
                     if v is not None)


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
