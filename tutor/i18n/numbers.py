"""Every number a learner reads, written the way their language writes it — one implementation, on Babel (CLDR).

Spanish gets the decimal comma (``0,17``) and, as the RAE recommends for figures, a narrow space to group thousands
(``12 345,6``: a dot there would read as a decimal point to anyone who learnt the English way). English gets
``12,345.6``. Units scale with SI prefixes (``16,1 GB``, ``35,3 GB/s``, ``1,2 TFLOP/s``); memory capacities with
binary ones (``1,5 GiB``).

``format_number(value, lang, spec)`` takes the small part of Python's format-spec language the code and lesson
packs use (``,``, ``.N``, ``f``/``g``/``e``/``%``/``d``) and renders it through Babel, so ``f"{x:.1f}"`` and
``format_number(x, lang, ".1f")`` agree in English and differ only by the locale's symbols in Spanish.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from babel import Locale
from babel.numbers import format_decimal, format_scientific

_LOCALES = {"es": "es_ES", "en": "en_US"}
_NARROW_NBSP = "\u202f"
_SPEC = re.compile(r"^(?P<group>,)?(?:\.(?P<prec>\d{1,2}))?(?P<type>[fFgGeE%dn])?$")
_SI = (("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3))
_BINARY = ("B", "KiB", "MiB", "GiB", "TiB")
_SI_UNITS = frozenset({"B", "FLOP", "W", "Hz"})
_UNIT_SPELLING = {"bytes": "B", "bytes/s": "B/s", "byte": "B"}


def locale_of(lang: str) -> str:
    """The CLDR locale for a UI language (Spanish as spoken in Spain; English as in the US)."""
    return _LOCALES.get(lang, "en_US")


@lru_cache(maxsize=4)
def percent_sign(lang: str) -> str:
    """``" %"`` (no-break space) where the locale puts a space before the percent sign (es), ``"%"`` where not."""
    pattern = Locale.parse(locale_of(lang)).percent_formats[None].pattern
    return "\u00a0%" if re.search(r"[\s\u00a0\u202f]%", pattern) else "%"


def _finish(text: str, lang: str) -> str:
    """Babel's output with Spanish thousands grouped by a narrow no-break space instead of a dot."""
    return text.replace(".", _NARROW_NBSP) if lang == "es" else text


def _special(value: float) -> str | None:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return None


def decimal(value: float, lang: str, digits: int = 2, *, group: bool = False) -> str:
    """``value`` with exactly ``digits`` decimals (``decimal(3.14159, "es", 2)`` → ``"3,14"``)."""
    special = _special(float(value))
    if special is not None:
        return special
    pattern = ("#,##0" if group else "0") + ("." + "0" * digits if digits > 0 else "")
    return _finish(format_decimal(value, format=pattern, locale=locale_of(lang)), lang)


def scientific(value: float, lang: str, digits: int = 2) -> str:
    """``value`` in scientific notation with ``digits`` decimals in the mantissa (``1,61E10``)."""
    special = _special(float(value))
    if special is not None:
        return special
    pattern = "0" + ("." + "0" * digits if digits > 0 else "") + "E0"
    return format_scientific(value, format=pattern, locale=locale_of(lang))


def significant(value: float, lang: str, digits: int = 3, *, group: bool = False) -> str:
    """``value`` to ``digits`` significant figures, trailing zeros dropped, like Python's ``g``: scientific only
    outside ``[1e-4, 10**digits)`` (``significant(0.0123456, "es")`` → ``"0,0123"``)."""
    value = float(value)
    special = _special(value)
    if special is not None:
        return special
    digits = max(digits, 1)
    if value == 0:
        return "0"
    rounded = float(f"{value:.{digits - 1}e}")
    exponent = math.floor(math.log10(abs(rounded)))
    if exponent < -4 or exponent >= digits:
        mantissa = f"{rounded:.{digits - 1}e}".split("e")[0].rstrip("0").rstrip(".")
        places = len(mantissa.split(".")[1]) if "." in mantissa else 0
        return scientific(rounded, lang, places)
    places = max(digits - 1 - exponent, 0)
    pattern = ("#,##0" if group else "0") + ("." + "#" * places if places else "")
    return _finish(format_decimal(rounded, format=pattern, locale=locale_of(lang)), lang)


def percent(value: float, lang: str, digits: int = 0) -> str:
    """A percentage given in percent (``percent(45.3, "es")`` → ``"45 %"``; English ``"45%"``)."""
    special = _special(float(value))
    if special is not None:
        return special
    return decimal(value, lang, digits, group=True) + percent_sign(lang)


def integer(value: float, lang: str) -> str:
    """A whole number with the locale's grouping (``12 345`` / ``12,345``)."""
    return decimal(round(value), lang, 0, group=True)


def format_number(value: float, lang: str, spec: str = ".3g") -> str:
    """``value`` written per ``lang`` from a Python-style ``spec`` (``",.2f"``, ``".3g"``, ``".0%"``, ``"d"``).

    Only separators and the percent sign's spacing differ from Python's ``format``; an unknown spec falls back to
    three significant figures rather than failing in front of a learner."""
    m = _SPEC.match(spec)
    if m is None:
        return significant(value, lang, 3)
    group = bool(m.group("group"))
    kind = (m.group("type") or "g").lower()
    prec = m.group("prec")
    if kind == "f":
        return decimal(value, lang, int(prec) if prec is not None else 6, group=group)
    if kind in ("g", "n"):
        return significant(value, lang, int(prec) if prec is not None else 6, group=group)
    if kind == "e":
        return scientific(value, lang, int(prec) if prec is not None else 6)
    if kind == "%":
        return percent(float(value) * 100, lang, int(prec) if prec is not None else 6)
    return decimal(round(value), lang, 0, group=group)


def quantity(value: float, unit: str, lang: str, digits: int = 3) -> str:
    """``value`` in ``unit`` to ``digits`` significant figures; byte, FLOP, watt and hertz units scale by an SI
    prefix: ``quantity(1.606e10, "B", "es")`` → ``"16,1 GB"``, ``quantity(3.53e10, "B/s", "en")`` → ``"35.3 GB/s"``,
    ``quantity(2e12, "FLOP/s", "es")`` → ``"2 TFLOP/s"``. Other units are appended as given, grouped
    (``quantity(12345.6, "tokens/s", "es")`` → ``"12 346 tokens/s"``). ``bytes`` is spelt ``B``."""
    unit = _UNIT_SPELLING.get(unit, unit)
    value = float(value)
    special = _special(value)
    if special is not None:
        return f"{special} {unit}".strip()
    if unit.split("/")[0] in _SI_UNITS:
        magnitude = abs(value)
        for prefix, scale in _SI:
            if magnitude >= scale * (1 - 0.5 * 10 ** (-digits)):
                return f"{significant(value / scale, lang, digits, group=True)} {prefix}{unit}"
    text = integer(value, lang) if abs(value) >= 10**digits else significant(value, lang, digits, group=True)
    return f"{text} {unit}".strip()


def binary_size(n: float, lang: str) -> str:
    """A memory size in binary units (``512 B``, ``1,5 GiB``): one decimal below 100, none above."""
    value = float(n)
    for unit in _BINARY:
        if abs(value) < 1024 or unit == _BINARY[-1]:
            return f"{decimal(value, lang, 0 if unit == 'B' or abs(value) >= 100 else 1)} {unit}"
        value /= 1024
    raise AssertionError("unreachable")
