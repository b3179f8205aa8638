"""Figures as people read them, shared by ``tutor telemetry`` and the panel. N/A is always spelled out
(``na`` lets the panel spell it in the learner's language; the CLI keeps ``N/A``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tutor.i18n import tn
from tutor.telemetry.model import MetricValue

NA = "N/A"


def number(value: MetricValue) -> float | None:
    """A metric as a float, or ``None`` when it is not a number (N/A)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def gib(value: MetricValue, digits: int = 1, *, na: str = NA) -> str:
    x = number(value)
    return na if x is None else f"{x / 2**30:.{digits}f}"


def used_of(used: MetricValue, total: MetricValue, unit: str = "GiB", *, na: str = NA) -> str:
    """``"6.1 / 24.0 GiB"``; either side may be N/A."""
    return f"{gib(used, na=na)} / {gib(total, na=na)} {unit}"


def pct(value: MetricValue, *, na: str = NA) -> str:
    x = number(value)
    return na if x is None else f"{x:.0f} %"


def watts(value: MetricValue, *, na: str = NA) -> str:
    x = number(value)
    return na if x is None else f"{x:.0f} W"


def mhz(value: MetricValue, *, na: str = NA) -> str:
    x = number(value)
    return na if x is None else f"{x:.0f}"


def celsius(value: MetricValue, *, na: str = NA) -> str:
    x = number(value)
    return na if x is None else f"{x:.0f} °C"


def rate(value: MetricValue, *, na: str = NA) -> str:
    """Bytes per second, scaled (``"3.2 GB/s"``)."""
    x = number(value)
    if x is None:
        return na
    for unit, scale in (("GB/s", 1e9), ("MB/s", 1e6), ("kB/s", 1e3)):
        if x >= scale:
            return f"{x / scale:.1f} {unit}"
    return f"{x:.0f} B/s"


def ratio(value: MetricValue, total: MetricValue) -> float | None:
    """``value / total`` clamped to [0, 1], or ``None`` when either is N/A or the total is 0."""
    v, t = number(value), number(total)
    if v is None or t is None or t <= 0:
        return None
    return min(max(v / t, 0.0), 1.0)


def words(value: MetricValue) -> tuple[str, ...]:
    """A tuple-of-words metric (throttle reasons); empty when N/A."""
    return tuple(str(w) for w in value) if isinstance(value, tuple) else ()


_WINDOW_WORDS = {
    "es": {"busy": "GPU activa", "cpu": "CPU", "mean": "media", "peak": "pico", "vram": "VRAM pico",
           "ram": "RAM pico", "of": "de", "power": "potencia media", "samples": "muestras"},
    "en": {"busy": "GPU busy", "cpu": "CPU", "mean": "mean", "peak": "peak", "vram": "peak VRAM",
           "ram": "peak RAM", "of": "of", "power": "mean power", "samples": "samples"},
}


def describe_window(device: str, summary: Mapping[str, Any], lang: str = "en") -> str | None:
    """One line for the telemetry over a measurement's window (a ``WindowSummary.as_dict()``): mean and peak
    utilization, peak memory, mean power — what the reveal and the lab notebook show. None without samples."""
    if not summary.get("samples"):
        return None
    w = _WINDOW_WORDS.get(lang, _WINDOW_WORDS["en"])
    gpu = summary.get("kind") != "host"
    parts = []
    mean, peak = number(summary.get("util_mean_pct")), number(summary.get("util_peak_pct"))
    if mean is not None:
        text = f"{w['busy'] if gpu else w['cpu']} {w['mean']} {mean:.0f} %"
        parts.append(text + (f", {w['peak']} {peak:.0f} %" if peak is not None else ""))
    mem = number(summary.get("mem_peak_bytes"))
    if mem is not None:
        total = number(summary.get("mem_total_bytes"))
        of = f" {w['of']} {total / 2**30:.1f}" if total is not None else ""
        parts.append(f"{w['vram'] if gpu else w['ram']} {mem / 2**30:.1f}{of} GiB")
    power = number(summary.get("power_mean_w"))
    if power is not None:
        parts.append(f"{w['power']} {power:.0f} W")
    name = summary.get("name") or device
    samples = tn("count.sample", int(summary["samples"]), "es" if lang == "es" else "en")
    return f"{name}: " + " · ".join(parts) + f" ({samples})"
