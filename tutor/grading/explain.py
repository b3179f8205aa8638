"""The explanation formatter: fills ``{name}`` / ``{name:.1f}`` placeholders from a flat dict of this run's figures.

A lesson pack is untrusted, so this never calls ``str.format`` on its text: a regular expression finds each
placeholder, the name is looked up as a plain key (no attribute access, no indexing, no evaluation), and the format
spec must match a small allow-list (fill/align, sign, width ≤ 40, precision ≤ 12, a numeric type) before the
built-in ``format`` of a number or string sees it. Anything else is left as written.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from tutor.i18n.numbers import format_number, significant

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_.]{0,120})(?::([^{}]{0,20}))?\}")
_SPEC = re.compile(
    r"^(?:(?P<fill>[^{}])?(?P<align>[<>^]))?(?P<sign>[+\- ])?(?P<width>\d{1,2})?[,_]?"
    r"(?:\.(?P<prec>\d{1,2}))?[eEfFgG%d]?$"
)
_CORE = re.compile(r",?(?:\.\d{1,2})?[eEfFgG%d]?$")
MISSING = "—"
MAX_WIDTH = 40
MAX_PRECISION = 12


def flatten(data: Mapping[str, Any], prefix: str = "", depth: int = 0) -> dict[str, Any]:
    """Dotted keys for every scalar inside nested dicts: ``{"time_s": {"median": 1}}`` → ``{"time_s.median": 1}``.

    Lists are skipped (a placeholder names a figure, not a position); depth is capped.
    """
    out: dict[str, Any] = {}
    if depth > 8:
        return out
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(flatten(value, name + ".", depth + 1))
        elif isinstance(value, bool | int | float | str) or value is None:
            out[name] = value
    return out


def _format_one(value: Any, spec: str | None, lang: str = "en") -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        text = _format_number(float(value) if isinstance(value, float) else value, spec, lang)
        if text is not None:
            return text
    return _format_raw(value, spec)


def _format_number(value: float, spec: str | None, lang: str) -> str | None:
    """A number through the locale formatter (``3,07`` in Spanish): the spec's precision and type, then its sign,
    width and alignment. ``None`` when the spec is not allowed (the caller shows ``—``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if not spec:
        return significant(value, lang, 4) if isinstance(value, float) else format_number(value, lang, "d")
    m = _SPEC.match(spec)
    if m is None or int(m.group("width") or 0) > MAX_WIDTH or int(m.group("prec") or 0) > MAX_PRECISION:
        return None
    core = _CORE.search(spec)
    text = format_number(value, lang, core.group(0) if core else "")
    if m.group("sign") == "+" and value >= 0:
        text = "+" + text
    elif m.group("sign") == " " and value >= 0:
        text = " " + text
    width = int(m.group("width") or 0)
    align = m.group("align") or ">"
    fill = m.group("fill") or " "
    pad = max(width - len(text), 0)
    if align == "<":
        return text + fill * pad
    if align == "^":
        return fill * (pad // 2) + text + fill * (pad - pad // 2)
    return fill * pad + text


def _format_raw(value: Any, spec: str | None) -> str:
    if value is None:
        return MISSING
    if spec:
        m = _SPEC.match(spec)
        if m is None:
            return MISSING
        if int(m.group("width") or 0) > MAX_WIDTH or int(m.group("prec") or 0) > MAX_PRECISION:
            return MISSING
        try:
            if isinstance(value, bool):
                return str(value)
            if isinstance(value, int | float):
                if isinstance(value, float) and not math.isfinite(value):
                    return str(value)
                if spec.endswith("d") and isinstance(value, float):
                    value = round(value)
                return format(value, spec)
            return format(str(value), spec.rstrip("eEfFgG%d"))
        except (ValueError, TypeError):
            return MISSING
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def fill(template: str, values: Mapping[str, Any], lang: str = "en") -> str:
    """``template`` with each known placeholder replaced by its formatted value (numbers in ``lang``'s
    separators: ``3,07`` in Spanish); unknown names show ``—``."""

    def sub(match: re.Match[str]) -> str:
        whole = match.group(0)
        if whole == "{{":
            return "{"
        if whole == "}}":
            return "}"
        name, spec = match.group(1), match.group(2)
        if name not in values:
            return MISSING
        return _format_one(values[name], spec, lang)

    return _PLACEHOLDER.sub(sub, template)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def condition_holds(
    *,
    bound: str | None,
    metric: str | None,
    above: float | None,
    below: float | None,
    values: Mapping[str, Any],
    side: str | None,
    too_close: bool,
) -> bool:
    """Whether one ``explanation_when`` condition holds for this run (every given field must hold).

    ``side`` is the side this run measured and ``too_close`` whether the reveal called it too close to call. A
    figure that was not measured (missing, not a number, not finite) never satisfies a comparison.
    """
    if bound is not None:
        if bound == "too_close":
            if not too_close:
                return False
        elif side != bound:
            return False
    if metric is not None:
        number = _number(values.get(metric))
        if number is None:
            return False
        if above is not None and not number > above:
            return False
        if below is not None and not number < below:
            return False
    return True
