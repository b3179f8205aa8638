"""The Lab Notebook: one entry per lab run, in the course's template, rendered to Markdown.

An entry has the template's parts: hypothesis and prediction (the learner's, written before the run), the set-up
(filled from the device the run measured), the procedure, the result (filled from the run, never edited by hand:
it is evidence), the gap between prediction and result with its explanation, and the next question.

Pure logic: no textual, no torch. The store keeps each entry as the JSON of :meth:`NotebookEntry.to_dict`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from typing import Any

from tutor.i18n import Lang

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
    "exported": {"es": "Exportado", "en": "Exported"},
}


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
    device: Mapping[str, Any] | None = None,
) -> NotebookEntry:
    """A new entry for a finished lab run, pre-filled from the lab's template texts and the run's result."""
    device = device if device is not None else _device_of(result)
    return NotebookEntry(
        lab_id=lab_id,
        lesson_id=lesson_id,
        title=title,
        lab_run_id=lab_run_id,
        hypothesis=hypothesis.strip(),
        prediction=format_prediction(prediction, prediction_unit, prediction_question),
        setup=describe_setup(device, lang),
        procedure=procedure.strip(),
        result=summarise_result(result, lang),
        next_question=next_question.strip(),
        device=_device_label(device),
        fingerprint=(device or {}).get("fingerprint") if device else None,
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
        return f"{question}\n\n**{answer}**"
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


def _device_of(result: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    if not result:
        return None
    device = result.get("device")
    if isinstance(device, Mapping):
        return device
    if isinstance(device, str):
        return {"kind": device, "name": device}
    return None


def _device_label(device: Mapping[str, Any] | None) -> str:
    if not device:
        return ""
    kind = str(device.get("kind", "")).upper()
    name = str(device.get("name", "") or "")
    return f"{kind} · {name}".strip(" ·") if kind else name


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
    ("torch", {"es": "torch", "en": "torch"}),
    ("numpy", {"es": "numpy", "en": "numpy"}),
)


def describe_setup(device: Mapping[str, Any] | None, lang: Lang) -> str:
    """The set-up as Markdown bullets, from the run's device and its fingerprint fields."""
    if not device:
        return word("no_device", lang)
    lines = [f"- {word('device', lang)}: {_device_label(device)}"]
    fp_fields = device.get("fingerprint_fields")
    fp_fields = fp_fields if isinstance(fp_fields, Mapping) else {}
    for key, label in _SETUP_FIELDS:
        value = fp_fields.get(key)
        if value is None or value == "" or (key == "cpu_model" and value == device.get("name")):
            continue
        shown = format_bytes(value) if key == "total_memory_bytes" and isinstance(value, int | float) else value
        lines.append(f"- {label[lang]}: {shown}")
    caches = device.get("caches")
    if isinstance(caches, Mapping) and caches:
        sizes = ", ".join(f"{k} {format_bytes(v)}" for k, v in caches.items() if isinstance(v, int | float))
        if sizes:
            lines.append(f"- caches: {sizes}")
    if device.get("fingerprint"):
        lines.append(f"- {word('fingerprint', lang)}: `{device['fingerprint']}`")
    return "\n".join(lines)


def summarise_result(result: Mapping[str, Any] | None, lang: Lang) -> str:
    """The run's result as Markdown: its headline figures and, for a sweep, a table of its series."""
    if not result:
        return ""
    parts: list[str] = []
    summary = result.get("summary")
    if isinstance(summary, str) and summary.strip():
        parts.append(summary.strip())
    headline = result.get("headline")
    if isinstance(headline, Mapping) and headline:
        parts.append(_figure_list(headline))
    series = result.get("series")
    if isinstance(series, Sequence) and not isinstance(series, str):
        table = series_table(series, x_label=str(result.get("x_label", "x")), y_label=str(result.get("y_label", "y")))
        if table:
            parts.append(table)
    if not parts:
        flat = {k: v for k, v in result.items() if isinstance(v, int | float | str) and not isinstance(v, bool)}
        flat.pop("device", None)
        if flat:
            parts.append(_figure_list(flat))
    measured_on = _device_label(_device_of(result))
    if measured_on:
        parts.append(f"_{word('measured_on', lang)}: {measured_on}._")
    return "\n\n".join(parts)


def _figure_list(figures: Mapping[str, Any]) -> str:
    lines = []
    for key, value in figures.items():
        if isinstance(value, Mapping):
            inner = ", ".join(f"{k} {format_number(v)}" for k, v in value.items() if v is not None)
            lines.append(f"- {key}: {inner}")
        elif value is not None:
            lines.append(f"- {key}: {format_number(value)}")
    return "\n".join(lines)


def series_table(series: Iterable[Any], *, x_label: str = "x", y_label: str = "y", max_rows: int = 40) -> str:
    """A Markdown table of every series' points (one column per series, rows by x)."""
    columns: list[tuple[str, dict[Any, Any]]] = []
    for s in series:
        if not isinstance(s, Mapping):
            continue
        label = str(s.get("label") or s.get("name") or "")
        if s.get("extrapolated"):
            label += " (extrapolated)"
        points: dict[Any, Any] = {}
        for p in s.get("points") or ():
            x, y = _xy(p)
            if x is not None:
                points[x] = y
        if points:
            columns.append((label, points))
    if not columns:
        return ""
    xs = sorted({x for _, pts in columns for x in pts}, key=lambda v: (not isinstance(v, int | float), v))
    if len(xs) > max_rows:
        step = math.ceil(len(xs) / max_rows)
        xs = xs[::step]
    head = f"| {x_label} | " + " | ".join(f"{label} ({y_label})" for label, _ in columns) + " |"
    rule = "|" + "---|" * (len(columns) + 1)
    rows = [
        f"| {format_number(x)} | " + " | ".join(format_number(pts[x]) if x in pts else "" for _, pts in columns) + " |"
        for x in xs
    ]
    return "\n".join([head, rule, *rows])


def _xy(point: Any) -> tuple[Any, Any]:
    if isinstance(point, Mapping):
        return point.get("x"), point.get("y")
    if isinstance(point, Sequence) and len(point) >= 2:
        return point[0], point[1]
    return None, None


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
    """Every entry as one Markdown document, oldest first."""
    entries = list(entries)
    when = datetime.now().strftime("%Y-%m-%d %H:%M")
    head = [f"# {title or word('notebook', lang)}", "", f"_{word('exported', lang)}: {when}_", ""]
    if not entries:
        return "\n".join([*head, word("no_entries", lang), ""])
    body = "\n---\n\n".join(render_entry(e, lang) for e in entries)
    return "\n".join(head) + "\n" + body


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
