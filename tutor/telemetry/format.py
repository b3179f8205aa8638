"""Figures as people read them, shared by ``tutor telemetry`` and the panel. N/A is always spelled out
(``na`` lets the panel spell it in the learner's language; the CLI keeps ``N/A``)."""

from __future__ import annotations

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
