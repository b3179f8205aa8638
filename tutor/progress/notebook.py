"""The Lab Notebook: one entry per lab run, in the course's template, rendered to Markdown.

An entry has the template's parts: hypothesis and prediction (the learner's, written before the run), the set-up
(filled from the device the run measured), the procedure, the result (filled from the run, never edited by hand:
it is evidence), the gap between prediction and result with its explanation, and the next question.

Pure logic: no textual, no torch. The store keeps each entry as the JSON of :meth:`NotebookEntry.to_dict`.
"""

from __future__ import annotations

import math
import platform
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from importlib import metadata
from typing import Any, TypeGuard

from tutor.grading.truth import measurement_label
from tutor.i18n import LANGS, N_, Lang, numbers, t
from tutor.i18n import format_number as locale_number
from tutor.progress.rows import ENTRY_SCHEMA as ENTRY_SCHEMA  # re-exported with the entry's parts
from tutor.progress.rows import LEARNER_FIELDS as LEARNER_FIELDS
from tutor.progress.rows import SECTIONS, LabPrediction, LabResult, NotebookEntry, NotebookNote, StoredEntry
from tutor.progress.rows import PredictionLocked as PredictionLocked
from tutor.results import BenchReport, Device, Measurement, RooflineReference, SweepPoint, VramFigures, device_label
from tutor.results import sweep_point as sweep_point  # re-exported: the lab screen plots streamed points
from tutor.telemetry.format import describe_window
from tutor.untrusted import clean, clean_line

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


# -- filling an entry from a lab run ---------------------------------------------------------------------------


def draft_entry(
    *,
    lab_id: str,
    lesson_id: str,
    title: str,
    result: LabResult | None,
    lang: Lang,
    lab_run_id: int | None = None,
    prediction: LabPrediction | None = None,
    prediction_unit: str | None = None,
    prediction_question: str = "",
    hypothesis: str = "",
    procedure: str = "",
    next_question: str = "",
    device: Device | None = None,
) -> NotebookEntry:
    """A new entry for a finished lab run, pre-filled from the lab's template texts and the run's result."""
    device = device if device is not None else result.device if result is not None else None
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


def format_prediction(prediction: LabPrediction | None, unit: str | None = None, question: str = "",
                      lang: Lang = "en") -> str:
    """The learner's prediction as a line of text (with the question it answered, when there was one)."""
    if prediction is None:
        answer = ""
    elif prediction.value is not None:
        answer = f"{format_number(prediction.value, lang)} {prediction.unit or unit or ''}".strip()
    else:
        answer = prediction.text.strip()
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


def describe_setup(device: Device | None, lang: Lang, *, result: LabResult | None = None) -> str:
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


def _run_line(result: LabResult | None) -> str:
    if result is None:
        return ""
    if result.doctor is not None:
        return "`tutor doctor`"
    kind, name, shown = result.kind, "", ""
    if result.measurement is not None:
        m = result.measurement
        name = m.name or m.workload or ""
        shown = ", ".join(f"{k}={v}" for k, v in m.params.items())
    elif result.bench is not None and result.bench.mode:
        shown = f"mode={result.bench.mode}"
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


def summarise_result(result: LabResult | None, lang: Lang) -> str:
    """The run's result as Markdown: its headline figures and, for a sweep, a table of its points."""
    if result is None:
        return ""
    m = result.measurement
    if result.bench is not None:
        body = _describe_bench(result.bench, lang)
    elif result.roofline is not None:
        body = _describe_roofline(result.roofline, lang)
    elif result.doctor is not None:
        body = _describe_doctor(result.doctor, lang)
    elif m is not None and m.kind == "sweep":
        body = describe_sweep(m, lang)
    elif m is not None and m.kind == "workload":
        body = _describe_workload(m, lang)
    elif m is not None and m.kind == "vram":
        body = _describe_vram(m, lang)
    else:  # a decode, decode-gap or training run: its top-level figures
        figures = {k: v for k, v in (m.to_json() if m is not None else {}).items()
                   if _is_figure(v) or isinstance(v, str)}
        for key in ("kind", "device", "device_kind"):
            figures.pop(key, None)
        body = _figure_list(figures, lang)
    measured_on = device_label(result.device, "")
    if measured_on:
        body += f"\n\n_{word('measured_on', lang)}: {measured_on}._"
    lines = [describe_window(dev, s, lang) for dev, s in result.telemetry.items()]
    if any(lines):
        body += f"\n\n**{word('telemetry', lang)}:** " + "; ".join(line for line in lines if line)
    return body.strip()


def _is_figure(v: Any) -> TypeGuard[int | float]:
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
def sweep_points(result: LabResult | Measurement | None) -> list[SweepPoint]:
    """Every plottable point of a sweep result, in order."""
    m = result.measurement if isinstance(result, LabResult) else result
    return [p for p in m.points if p.plottable] if m is not None else []


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]], lang: Lang) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(c if isinstance(c, str) else format_number(c, lang) for c in row) + " |"
              for row in rows]
    return "\n".join(lines)


def describe_sweep(result: Measurement, lang: Lang) -> str:
    """A sweep's result: a sentence with its headline figures, then a table of every point."""
    name = result.name
    figures = result.figures
    points = [p.values for p in result.points if p.plottable]  # each has its sweep's x and y figures
    if not points:
        return _s("no_points", lang)
    parts: list[str] = []
    if name == "working_set":
        caches = result.device.caches if result.device is not None else {}
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
            (p["n"], p["gflops"], p.get("time_s", ""), p.get("arithmetic_intensity", "")) for p in points], lang))
    elif name == "naive_vs_numpy":
        speedup = figures.get("speedup") if isinstance(figures.get("speedup"), Mapping) else {}
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
            # worded here, not the engine's English label ("measured", "extrapolated (∝ N³)")
            how_key = N_("notebook.naive.extrapolated") if py.get("extrapolated") else N_("lab.series.measured")
            how = t(how_key, lang) if py else ""
            rows.append((n, py.get("time_s", ""), how, npy.get("time_s", ""),
                         npy.get("gflops", ""), f"{format_number(speedup.get(str(n), 0), lang)}×" if speedup else ""))
        parts.append(_table(_columns("naive_vs_numpy", lang), rows, lang))
        if figures.get("note"):
            parts.append(t("notebook.naive.note", lang))  # the engine's note, in the reader's language
    elif name == "gemm_share":
        first, last = points[0], points[-1]
        parts.append(_s("gemm_share", lang, low=first["tokens_per_step"],
                        low_pct=format_number(first["gemm_pct"], lang),
                        high=last["tokens_per_step"], high_pct=format_number(last["gemm_pct"], lang),
                        clock=str(figures.get("clock", ""))))

        def pct(p: Mapping[str, Any], group: str) -> float:
            shares = p.get("shares")
            return 100 * float(shares.get(group, 0.0)) if isinstance(shares, Mapping) else 0.0

        parts.append(_table(_columns("gemm_share", lang), [
            (p["tokens_per_step"], p["gemm_pct"], pct(p, "optimizer"), pct(p, "elementwise"), pct(p, "softmax"))
            for p in points], lang))
    elif name == "roofline_points":
        if result.roofline is not None:
            parts.append(_describe_roofline(result.roofline, lang))
        check = result.roof_check
        if check is not None and check.remeasured:
            note = t("roof.points_remeasured", lang,
                     points=", ".join(str(p) for p in check.extra.get("points") or ()),
                     fraction=locale_number(check.fraction, lang, ".0%"))
            if check.still_above and check.fraction_after is not None:
                note += " " + t("roof.still_above", lang, fraction=locale_number(check.fraction_after, lang, ".0%"))
            parts.append(note)
        parts.append(_table(_columns("roofline_points", lang), [
            (str(p.get("name", "")), p["arithmetic_intensity"], p["gflops"], p.get("gbs", "")) for p in points], lang))
    else:
        parts.append(_figure_list(points[0], lang))
    return "\n\n".join(parts)


def _describe_roofline(roof: RooflineReference, lang: Lang = "en") -> str:
    lines = [f"- {_s('peak_bw', lang)}: {format_number(roof.peak_bandwidth_gbs, lang)} GB/s"]
    lines += [f"- {_s('peak_mm', lang, dtype=d)}: {format_number(v, lang)} GFLOP/s"
              for d, v in roof.peak_gflops.items()]
    if roof.ridge_point is not None:
        lines.append(f"- {_s('ridge', lang)}: {format_number(roof.ridge_point, lang)} FLOP/byte")
    sheet = roof.datasheet
    if sheet is not None and sheet.name:
        bandwidth = format_number(sheet.bandwidth_gbs if sheet.bandwidth_gbs is not None else "", lang)
        lines.append(f"- {word('datasheet', lang)}: {sheet.name}, {bandwidth} GB/s")
    if roof.cached:
        lines.append(f"- {_s('cached', lang)}")
    return "\n".join(lines)


def _describe_bench(bench: BenchReport, lang: Lang = "en") -> str:
    """The bench report as ``tutor bench`` and the L4 lab render it (one renderer), without its H1."""
    from tutor.measure.bench_report import render_markdown

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


def _worded(prefix: str, word: Any, lang: Lang) -> str:
    """A stored id (``inference``, ``kv_cache``) by its catalog word under ``prefix``; one the catalog lacks (an
    older or another program's row) as stored, underscores as spaces."""
    key = f"{prefix}.{word}"
    said = t(key, lang)
    return str(word).replace("_", " ") if said == key else said


def _describe_vram(result: Measurement, lang: Lang = "en") -> str:
    gb = 1e9
    fig = result.vram or VramFigures()
    name = fig.display or fig.preset or t("notebook.vram.the_model", lang)
    verdict = t("notebook.vram.fits" if fig.fits else "notebook.vram.does_not_fit", lang)
    label = result.label
    lines = [
        t("notebook.vram.headline", lang, name=name, mode=_worded("notebook.vram.mode", fig.mode, lang),
          dtype=fig.dtype, batch=fig.batch if fig.batch is not None else "?",
          seq=format_number(fig.seq_len, lang) if fig.seq_len is not None else "",
          total=format_number(fig.total_gb or 0, lang),
          label=measurement_label(label).render(lang) if label is not None else "",
          capacity=format_number(fig.capacity_gb, lang) if fig.capacity_gb is not None else "", verdict=verdict),
        "",
    ]
    rows: list[tuple[str, Any]] = [
        (t("notebook.vram.formula", lang, part=_worded("notebook.vram.part", k, lang)), v / gb)
        for k, v in fig.formula_bytes.items()]
    source = (t(f"notebook.vram.source.{fig.context_kind}", lang)
              if fig.context_kind in ("measured", "estimate") else fig.context_source or "")
    for value, label_key in ((fig.extrapolated_bytes, "extrapolated"), (fig.peak_allocated_bytes, "peak_allocated"),
                             (fig.peak_reserved_bytes, "peak_reserved"), (fig.context_bytes, "context"),
                             (fig.total_bytes, "total")):
        if _is_figure(value):
            rows.append((t(f"notebook.vram.{label_key}", lang, source=source), value / gb))
    if rows:
        lines.append(_table([t("notebook.vram.part", lang), "GB"], rows, lang))
    if _is_figure(fig.measured_over_formula):
        lines += ["", t("notebook.vram.ratio", lang, ratio=format_number(fig.measured_over_formula, lang))]
    if fig.oom:
        lines += ["", t("notebook.vram.oom", lang)]
    return "\n".join(lines)


def _describe_workload(result: Measurement, lang: Lang = "en") -> str:
    cls = result.classification
    figures: dict[str, Any] = {
        "workload": result.workload,
        "achieved_gbs": result.achieved_gbs,
        "achieved_gflops": result.achieved_gflops,
        "intensity": result.arithmetic_intensity,
    }
    if result.time_s is not None:
        figures["median_time"] = result.time_s.median
        figures["cv"] = result.time_s.cv
    if cls is not None:
        figures["bound"] = t(f"notebook.bound.{cls.bound}", lang) if cls.bound in ("memory", "compute") else cls.bound
    return "\n".join(f"- {t(f'notebook.fig.{k}', lang)}: {format_number(v, lang)}" for k, v in figures.items()
                     if v is not None)


# -- Markdown ------------------------------------------------------------------------------------------------


TITLE_LIMIT = 200
"""The longest heading the export writes (a title past it is cut with an ellipsis)."""


def render_entry(entry: NotebookEntry, lang: Lang, *, level: int = 2) -> str:
    """One entry as Markdown, in the template's order; parts not yet written say so."""
    h = "#" * level
    # a heading is one line: a line break in a lab's title (a pack's, or an imported entry's) would end it and start
    # a block of the title's choosing (another heading, "✓ C0 reached")
    title = clean_line(entry.title, TITLE_LIMIT) or clean_line(entry.lab_id, TITLE_LIMIT)
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
        if name == "prediction" and entry.notes:
            lines += [f"{h}## {word('notes', lang)}", "", render_notes(entry.notes), ""]
    return "\n".join(lines).rstrip() + "\n"


def render_notes(notes: Iterable[NotebookNote]) -> str:
    """The later notes as Markdown bullets, each with its date, oldest first."""
    return "\n".join(f"- **{datetime.fromtimestamp(n.at).strftime('%Y-%m-%d %H:%M')}** — {n.text.strip()}"
                     for n in notes)


def render_notebook(entries: Iterable[NotebookEntry], lang: Lang, *, title: str | None = None) -> str:
    """Every entry as one Markdown document, oldest first (control characters removed: lab titles and set-ups come
    from a lesson pack, and the file is meant to be read in a terminal too)."""
    entries = list(entries)
    when = datetime.now().strftime("%Y-%m-%d %H:%M")
    heading = clean_line(title or "", TITLE_LIMIT) or word("notebook", lang)
    head = [f"# {heading}", "", f"_{word('exported', lang)}: {when}_", ""]
    if not entries:
        return clean("\n".join([*head, word("no_entries", lang), ""]))
    body = "\n---\n\n".join(render_entry(e, lang) for e in entries)
    return clean("\n".join(head) + "\n" + body)


# -- the store -------------------------------------------------------------------------------------------------


def load_entries(store: Any) -> list[StoredEntry]:
    """Every notebook entry in ``store`` (a :class:`~tutor.progress.ProgressStore`), oldest first, each read once
    by the store into a :class:`StoredEntry` (a damaged one says so in ``damaged``)."""
    return list(store.notebook_entries())


def save_entry(store: Any, entry: NotebookEntry, entry_id: int | None = None) -> int:
    """Write ``entry`` (a new one when ``entry_id`` is None); returns its id. Over a stored entry whose prediction
    is locked, a changed prediction, or notes that do not keep the stored ones in order, raise
    :class:`PredictionLocked` and write nothing: every writer (the screen, the CLI) comes through here."""
    if entry_id is not None:
        stored = next((item.entry for item in store.notebook_entries() if item.id == entry_id and not item.damaged),
                      None)
        if stored is not None:
            if stored.prediction_locked and entry.prediction != stored.prediction:
                raise PredictionLocked("the prediction was locked when the run started")
            if entry.notes[:len(stored.notes)] != stored.notes:
                raise PredictionLocked("notes are added, never edited or removed")
    return int(store.save_notebook_entry(entry, entry_id=entry_id))


def add_note(store: Any, entry_id: int, text: str, *, at: float | None = None) -> NotebookEntry:
    """Add a dated note to the stored entry ``entry_id`` (append-only); returns the entry as now stored."""
    stored = next((item for item in store.notebook_entries() if item.id == entry_id), None)
    if stored is None or stored.damaged:
        raise LookupError(entry_id)
    entry = stored.entry.with_note(text, at=at)
    save_entry(store, entry, entry_id)
    return entry
