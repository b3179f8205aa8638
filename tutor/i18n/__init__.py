"""UI strings in Spanish and English: one catalog per language (``es.py``, ``en.py``, flat ``MESSAGES`` tables with the
same keys and ``{placeholders}``), rendered by :func:`t` / :func:`tn`. Lesson text carries its own ``{es, en}``; the
catalogs are the chrome. New strings go into both catalogs under the same key."""

from __future__ import annotations

import locale
import os
from typing import Literal

from tutor.i18n import en, es

Lang = Literal["es", "en"]
LANGS: tuple[Lang, ...] = ("es", "en")

_CATALOGS: dict[Lang, dict[str, str]] = {"es": es.MESSAGES, "en": en.MESSAGES}


def t(key: str, lang: Lang, **fields: object) -> str:
    """The UI string ``key`` in ``lang``; a missing key shows itself rather than crashing."""
    text = _CATALOGS.get(lang, en.MESSAGES).get(key) or en.MESSAGES.get(key)
    if text is None:
        return key
    return text.format(**fields) if fields else text


def tn(key: str, n: int, lang: Lang, **fields: object) -> str:
    """``key`` counted: ``key.one`` when ``n`` is 1, else ``key.other`` (Spanish and English agree: 0 and 2+ are
    plural), with ``{n}`` filled in. ``tn("count.warning", 1, "en")`` → "1 warning"."""
    return t(f"{key}.one" if n == 1 else f"{key}.other", lang, n=n, **fields)


def _symbols(lang: str) -> tuple[str, str]:
    """(decimal, group) symbols for ``lang`` from the CLDR data Babel ships; English's if Babel is missing."""
    try:
        from babel.numbers import get_decimal_symbol, get_group_symbol
    except ImportError:  # pragma: no cover - babel is a dependency; stay usable without it
        return (",", ".") if lang == "es" else (".", ",")
    return get_decimal_symbol(lang), get_group_symbol(lang)


def localize_number(formatted: str, lang: str) -> str:
    """A number formatted the Python way (``1,234.5``, ``45%``, ``1.2e+09``) written the way ``lang`` writes it
    (``1.234,5``, ``45 %`` in Spanish). Only separators change; digits and exponent stay."""
    if lang == "en":
        return formatted
    decimal, group = _symbols(lang)
    table: dict[str, str | int | None] = {".": "\0", ",": group}
    out = formatted.translate(str.maketrans(table)).replace("\0", decimal)
    if out.endswith("%") and not out.endswith("\u00a0%"):
        out = out[:-1].rstrip() + "\u00a0%"
    return out


def format_number(value: float, lang: str, spec: str = ".3g") -> str:
    """``value`` with a Python format ``spec``, in ``lang``'s separators (one place for every number shown)."""
    return localize_number(format(value, spec), lang)


def format_bytes(n: float, lang: str) -> str:
    """A size in binary units (KiB, MiB, GiB), with ``lang``'s decimal separator."""
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(value) < 1024 or unit == "TiB":
            spec = ".0f" if unit == "B" or value >= 100 else ".1f"
            return f"{format_number(value, lang, spec)} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def default_lang() -> Lang:
    """Spanish unless the locale says English (the course is Spanish first)."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "en" if value.lower().startswith("en") else "es"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "en" if loc.lower().startswith("en") else "es"
