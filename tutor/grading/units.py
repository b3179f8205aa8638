"""Units of the figures an exercise asks for, and conversion between them (GB ↔ bytes, TFLOP/s ↔ FLOP/s, …).

A unit belongs to one dimension (bytes, bytes/s, FLOP/s, …) with a scale to that dimension's base; two units
convert only within one dimension. Measurement metrics carry their unit in their name (``achieved_gbs`` is GB/s,
``time_s.median`` is seconds); :func:`unit_of_metric` reads it.
"""

from __future__ import annotations

import math

_UNITS: dict[str, tuple[str, float]] = {
    # bytes
    "bytes": ("bytes", 1.0),
    "B": ("bytes", 1.0),
    "KB": ("bytes", 1e3),
    "MB": ("bytes", 1e6),
    "GB": ("bytes", 1e9),
    "TB": ("bytes", 1e12),
    "KiB": ("bytes", 2.0**10),
    "MiB": ("bytes", 2.0**20),
    "GiB": ("bytes", 2.0**30),
    # bandwidth
    "bytes/s": ("bytes/s", 1.0),
    "MB/s": ("bytes/s", 1e6),
    "GB/s": ("bytes/s", 1e9),
    "TB/s": ("bytes/s", 1e12),
    # compute rate
    "FLOP/s": ("FLOP/s", 1.0),
    "GFLOP/s": ("FLOP/s", 1e9),
    "TFLOP/s": ("FLOP/s", 1e12),
    "PFLOP/s": ("FLOP/s", 1e15),
    # work
    "FLOP": ("FLOP", 1.0),
    "GFLOP": ("FLOP", 1e9),
    "TFLOP": ("FLOP", 1e12),
    "FLOP/token": ("FLOP/token", 1.0),
    # time
    "s": ("s", 1.0),
    "ms": ("s", 1e-3),
    "us": ("s", 1e-6),
    "ns": ("s", 1e-9),
    # intensity
    "FLOP/B": ("FLOP/B", 1.0),
    "FLOP/byte": ("FLOP/B", 1.0),
    # throughput
    "tokens/s": ("tokens/s", 1.0),
    # plain ratios: a speed-up, a fraction, a percentage
    "x": ("ratio", 1.0),
    "fraction": ("ratio", 1.0),
    "%": ("ratio", 0.01),
}


# What a learner may type for a unit, beyond the spellings above (matched without regard to case otherwise).
_TYPED_ALIASES = {"×": "x", "µs": "us", "μs": "us", "tok/s": "tokens/s", "token/s": "tokens/s",
                  "tokens/sec": "tokens/s", "flop/byte": "FLOP/B", "byte": "bytes", "percent": "%"}


def units_like(unit: str) -> list[str]:
    """Every unit of ``unit``'s dimension (``GB`` → B, bytes, GB, GiB, …), ``unit`` first; [] for an unknown one."""
    dim = _UNITS.get(unit, (None, 0.0))[0]
    if dim is None:
        return []
    others = sorted((u for u, (d, _) in _UNITS.items() if d == dim and u != unit), key=lambda u: _UNITS[u][1])
    return [unit, *others]


def typed_unit(typed: str, unit: str) -> str | None:
    """The unit of ``unit``'s dimension that a learner's ``typed`` spelling names (``mb`` → MB, ``µs`` → us,
    ``×`` → x), or None: a strict table, never a guess across dimensions (``furlongs`` is None)."""
    like = units_like(unit)
    text = typed.strip()
    if text in like:
        return text
    alias = _TYPED_ALIASES.get(text.lower()) or _TYPED_ALIASES.get(text)
    if alias in like:
        return alias
    folded = {u.lower(): u for u in like}
    return folded.get(text.lower())


class UnitError(ValueError):
    """Two units that do not measure the same thing, or a unit nobody knows."""


def dimension(unit: str) -> str:
    try:
        return _UNITS[unit][0]
    except KeyError:
        raise UnitError(f"unknown unit {unit!r}") from None


def convert(value: float, from_unit: str, to_unit: str) -> float:
    """``value`` in ``from_unit`` expressed in ``to_unit``; raises :class:`UnitError` across dimensions."""
    if from_unit == to_unit:
        return float(value)
    dim_from, scale_from = _UNITS.get(from_unit, (None, 0.0))
    dim_to, scale_to = _UNITS.get(to_unit, (None, 0.0))
    if dim_from is None or dim_to is None:
        raise UnitError(f"unknown unit {from_unit if dim_from is None else to_unit!r}")
    if dim_from != dim_to:
        raise UnitError(f"cannot convert {from_unit} ({dim_from}) to {to_unit} ({dim_to})")
    return float(value) * scale_from / scale_to


# Suffixes of metric names, longest first: ``achieved_gbs`` → GB/s.
_METRIC_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("tokens_per_s", "tokens/s"),
    ("flops_per_byte", "FLOP/B"),
    ("bytes_per_s", "bytes/s"),
    ("_tflops", "TFLOP/s"),
    ("_gflops", "GFLOP/s"),
    ("_flops", "FLOP/s"),
    ("_gbs", "GB/s"),
    ("_tbs", "TB/s"),
    ("_bytes", "bytes"),
    ("_gib", "GiB"),
    ("_gb", "GB"),
    ("_mb", "MB"),
    ("_ms", "ms"),
    ("_us", "us"),
    ("_ns", "ns"),
    ("_pct", "%"),
    ("_s", "s"),
    ("intensity", "FLOP/B"),
    ("speedup", "x"),
    ("fraction", "fraction"),
    ("ratio", "x"),
    ("mfu", "fraction"),
)


def unit_of_metric(path: str) -> str | None:
    """The unit a dotted metric path names, e.g. ``time_s.median`` → ``s``; None when the name does not say."""
    parts = path.split(".")
    if parts[-1] == "cv":  # a coefficient of variation is a ratio, whatever figure it describes
        return "fraction"
    exact = {"flops": "FLOP", "bytes": "bytes", "bytes_moved": "bytes", "tokens": None}
    # The statistic (median, min, …) inherits its unit from the figure it describes.
    for part in reversed(parts):
        if part in exact:
            return exact[part]
        if part.startswith(("fraction", "mfu", "utilization")):
            return "fraction"
        for suffix, unit in _METRIC_SUFFIXES:
            if part == suffix.lstrip("_") or part.endswith(suffix):
                return unit
    return None


def unit_of_formula_result(result_unit: str) -> str | None:
    """The unit of a named formula's result, in this module's spelling."""
    aliases = {"bytes": "bytes", "FLOP/byte": "FLOP/B", "FLOP/s": "FLOP/s", "tokens/s": "tokens/s", "s": "s",
               "FLOP": "FLOP", "FLOP/token": "FLOP/token", "fraction": "fraction", "bytes/s": "bytes/s"}
    if result_unit in _UNITS:
        return result_unit
    return aliases.get(result_unit)


def format_value(value: float, unit: str | None, lang: str = "en") -> str:
    """A figure for a learner in ``lang``: bytes and FLOP scaled by an SI prefix (``16,1 GB``), other units with
    three significant digits (``0,17``, ``1 234``)."""
    from tutor.i18n import numbers

    if unit in ("bytes", "bytes/s", "FLOP", "FLOP/s") and math.isfinite(value) and abs(value) >= 1000:
        return numbers.quantity(value, unit, lang)
    if not math.isfinite(value):
        return f"{numbers.significant(value, lang)} {unit or ''}".strip()
    magnitude = abs(value)
    if magnitude >= 1000 or magnitude == 0:
        text = numbers.integer(value, lang)
    elif magnitude >= 100:
        text = numbers.decimal(value, lang, 0)
    elif magnitude >= 10:
        text = numbers.decimal(value, lang, 1)
    elif magnitude >= 0.01:
        text = numbers.significant(value, lang, 3)
    else:
        text = numbers.scientific(value, lang, 2)
    if unit in (None, "", "fraction"):
        return text
    if unit == "x":
        return f"{text}×"
    if unit == "%":
        return text + numbers.percent_sign(lang)
    return f"{text} {unit}"
