"""Figures as people read them, shared by ``tutor telemetry`` and the panel. N/A is always spelled out
(``na`` lets the panel spell it in the learner's language; the CLI keeps ``N/A``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.i18n import N_, as_lang, numbers, t, tn
from tutor.telemetry.model import MetricValue

if TYPE_CHECKING:
    from tutor.telemetry.sampler import WindowSummary

NA = "N/A"


def number(value: MetricValue) -> float | None:
    """A metric as a float, or ``None`` when it is not a number (N/A)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


SIZE_UNITS: dict[str, float] = {"GiB": 2.0**30, "GB": 1e9}
"""The two units a memory size is shown in, each with its own scale, so a figure cannot be labelled with the other
one's name: GiB (2³⁰ B) for what the OS and the driver report, GB (10⁹ B) for the course's budgets and formulas
(n0-l3, "¿32 GB de qué?")."""


def size_number(value: MetricValue, unit: str = "GiB", digits: int = 1, *, na: str = NA, lang: str = "en") -> str:
    """Bytes as a number of ``unit`` (a key of :data:`SIZE_UNITS`), without the unit's name."""
    x = number(value)
    return na if x is None else numbers.decimal(x / SIZE_UNITS[unit], lang, digits)


def size(value: MetricValue, unit: str = "GiB", digits: int = 1, *, na: str = NA, lang: str = "en") -> str:
    """Bytes in ``unit``, named: ``"31.8 GiB"``, ``"34.2 GB"`` (N/A alone when unknown)."""
    x = number(value)
    return na if x is None else f"{size_number(x, unit, digits, lang=lang)} {unit}"


def gib(value: MetricValue, digits: int = 1, *, na: str = NA, lang: str = "en") -> str:
    """Bytes as a number of GiB, without the unit (a catalog entry names it)."""
    return size_number(value, "GiB", digits, na=na, lang=lang)


def used_of(used: MetricValue, total: MetricValue, unit: str = "GiB", *, na: str = NA, lang: str = "en") -> str:
    """``"6.1 / 24.0 GiB"`` (``"6,1 / 24,0 GiB"`` in Spanish); either side may be N/A. Both sides are divided by
    ``unit``'s own scale."""
    return f"{size_number(used, unit, na=na, lang=lang)} / {size_number(total, unit, na=na, lang=lang)} {unit}"


def pct(value: MetricValue, *, na: str = NA, lang: str = "en") -> str:
    x = number(value)
    return na if x is None else numbers.decimal(x, lang, 0) + " %"


def watts(value: MetricValue, *, na: str = NA, lang: str = "en") -> str:
    x = number(value)
    return na if x is None else f"{numbers.decimal(x, lang, 0)} W"


def mhz(value: MetricValue, *, na: str = NA, lang: str = "en") -> str:
    x = number(value)
    return na if x is None else numbers.decimal(x, lang, 0)


def celsius(value: MetricValue, *, na: str = NA, lang: str = "en") -> str:
    x = number(value)
    return na if x is None else f"{numbers.decimal(x, lang, 0)} °C"


def rate(value: MetricValue, *, na: str = NA, lang: str = "en") -> str:
    """Bytes per second, scaled (``"3.2 GB/s"``; ``"3,2 GB/s"`` in Spanish)."""
    x = number(value)
    if x is None:
        return na
    for unit, scale in (("GB/s", 1e9), ("MB/s", 1e6), ("kB/s", 1e3)):
        if x >= scale:
            return f"{numbers.decimal(x / scale, lang, 1)} {unit}"
    return f"{numbers.decimal(x, lang, 0)} B/s"


def load(value: MetricValue, *, na: str = NA, lang: str = "en") -> str:
    """A load average, two decimals."""
    x = number(value)
    return na if x is None else numbers.decimal(x, lang, 2)


def ratio(value: MetricValue, total: MetricValue) -> float | None:
    """``value / total`` clamped to [0, 1], or ``None`` when either is N/A or the total is 0."""
    v, t = number(value), number(total)
    if v is None or t is None or t <= 0:
        return None
    return min(max(v / t, 0.0), 1.0)


def words(value: MetricValue) -> tuple[str, ...]:
    """A tuple-of-words metric (throttle reasons); empty when N/A."""
    return tuple(str(w) for w in value) if isinstance(value, tuple) else ()


def describe_window(device: str, summary: WindowSummary, lang: str = "en") -> str | None:
    """One line for the telemetry over a measurement's window: mean and peak utilization, peak memory, mean
    power — what the reveal and the lab notebook show. None without samples."""
    if not summary.samples:
        return None
    code = as_lang(lang)
    gpu = summary.kind != "host"
    parts = []
    mean, peak = number(summary.util_mean_pct), number(summary.util_peak_pct)
    if mean is not None:
        text = t("window.busy_mean" if gpu else "window.cpu_mean", code, value=pct(mean, lang=code))
        parts.append(text + (t("window.peak", code, value=pct(peak, lang=code)) if peak is not None else ""))
    mem = number(summary.mem_peak_bytes)
    if mem is not None:
        total = number(summary.mem_total_bytes)
        key = (N_("window.vram") if gpu else N_("window.ram")) + ("_of" if total is not None else "")
        parts.append(t(key, code, peak=gib(mem, lang=code), total=gib(total, lang=code)))
    power = number(summary.power_mean_w)
    if power is not None:
        parts.append(t("window.power", code, value=watts(power, lang=code)))
    name = summary.name or device
    samples = tn("count.sample", summary.samples, code)
    return f"{name}: " + " · ".join(parts) + f" ({samples})"
