"""UI strings in Spanish and English. Lesson text carries its own ``{es, en}``; this is only the chrome."""

from __future__ import annotations

import locale
import os
from typing import Literal

Lang = Literal["es", "en"]
LANGS: tuple[Lang, ...] = ("es", "en")

_STRINGS: dict[str, dict[Lang, str]] = {
    "app.subtitle": {"es": "predice, luego mide", "en": "predict, then measure"},
    "app.no_class": {
        "es": "El informe de la clase necesita el almacén de una clase (tutor --store postgresql://…)",
        "en": "The class report needs a class's store (tutor --store postgresql://…)",
    },
    "map.title": {"es": "Mapa del curso", "en": "Course map"},
    "map.invalid": {"es": "Archivos con errores", "en": "Files with errors"},
    "map.sections": {"es": "Teoría", "en": "Theory"},
    "map.labs": {"es": "Laboratorios", "en": "Labs"},
    "map.exercises": {"es": "Ejercicios", "en": "Exercises"},
    "map.empty": {"es": "Elige una lección en el mapa.", "en": "Pick a lesson in the map."},
    "map.hint": {
        "es": "↑/↓ para moverte, Intro para abrir, l para cambiar de idioma.",
        "en": "↑/↓ to move, Enter to open, l to switch language.",
    },
    "lesson.no_exercises": {"es": "Esta lección no tiene ejercicios.", "en": "This lesson has no exercises."},
    "map.second_pass_hint": {
        "es": "Elige un ejercicio y pulsa 2 para el segundo pase (sin pistas ni teoría).",
        "en": "Pick an exercise and press 2 for the second pass (no hints, no theory).",
    },
    "lesson.outcome": {"es": "Resultado", "en": "Outcome"},
    "invalid.title": {"es": "Este archivo no se pudo cargar", "en": "This file could not be loaded"},
    "invalid.body": {
        "es": "El resto del curso funciona. Corrige estos problemas y vuelve a abrir el tutor:",
        "en": "The rest of the course works. Fix these problems and reopen the tutor:",
    },
    "lang.switched": {"es": "Idioma: español", "en": "Language: English"},
    "side.memory": {"es": "memoria", "en": "memory"},
    "roof.cache_resident": {
        "es": "Nota del tutor: alcanzó el {fraction} del techo de memoria, más que la DRAM, porque su working set "
        "({ws}) cabe en tu caché de último nivel ({llc}, leída del sistema): el techo se midió en DRAM y este kernel "
        "no salió de la caché.",
        "en": "Tutor's note: it reached {fraction} of the memory roof, more than DRAM allows, because its working "
        "set ({ws}) fits in your last-level cache ({llc}, read from the system): the roof was measured in DRAM and "
        "this kernel never left the cache.",
    },
    "roof.remeasured": {
        "es": "Nota del tutor: quedó al {fraction} de un techo que no debería superar, así que el techo guardado era "
        "dudoso (medido con la máquina ocupada, o la máquina cambió). El tutor volvió a medir tu roofline y juzgó "
        "este resultado contra el nuevo.",
        "en": "Tutor's note: it landed at {fraction} of a roof it should not beat, so the cached roof was suspect "
        "(measured while the machine was busy, or the machine changed). The tutor measured your roofline again and "
        "judged this result against the new one.",
    },
    "roof.still_above": {
        "es": "Aun con el techo medido de nuevo queda al {fraction}: es el ruido de una máquina compartida o un reloj "
        "que subió por encima del nominal; tómalo como una cota, no como un récord.",
        "en": "Even against the re-measured roof it sits at {fraction}: that is the noise of a shared machine or a "
        "clock that rose above nominal; read it as a bound, not a record.",
    },
    "side.compute": {"es": "cómputo", "en": "compute"},
    "progress.stored_at": {"es": "Tu progreso se guarda en: {where}", "en": "Your progress is stored in: {where}"},
}


def t(key: str, lang: Lang, **fields: object) -> str:
    """The UI string ``key`` in ``lang``; a missing key shows itself rather than crashing."""
    entry = _STRINGS.get(key)
    if entry is None:
        return key
    text = entry.get(lang) or entry["en"]
    return text.format(**fields) if fields else text


def tn(key: str, n: int, lang: Lang, **fields: object) -> str:
    """``key`` counted: ``key.one`` when ``n`` is 1, else ``key.other`` (Spanish and English agree: 0 and 2+ are
    plural), with ``{n}`` filled in. ``tn("count.warning", 1, "en")`` → "1 warning"."""
    return t(f"{key}.one" if n == 1 else f"{key}.other", lang, n=n, **fields)


def register(strings: dict[str, dict[Lang, str]]) -> None:
    """Add UI strings from a feature's own module (each key once; both languages required)."""
    for key, entry in strings.items():
        if set(entry) != set(LANGS):
            raise ValueError(f"UI string {key!r} needs both es and en")
        _STRINGS.setdefault(key, entry)


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


register(
    {
        "count.attempt.one": {"es": "{n} intento", "en": "{n} attempt"},
        "count.attempt.other": {"es": "{n} intentos", "en": "{n} attempts"},
        "count.warning.one": {"es": "{n} aviso", "en": "{n} warning"},
        "count.warning.other": {"es": "{n} avisos", "en": "{n} warnings"},
        "count.failure.one": {"es": "{n} fallo", "en": "{n} failed"},
        "count.failure.other": {"es": "{n} fallos", "en": "{n} failed"},
        "count.ok.one": {"es": "{n} bien", "en": "{n} ok"},
        "count.ok.other": {"es": "{n} bien", "en": "{n} ok"},
        "count.skip.one": {"es": "{n} no aplica", "en": "{n} not applicable"},
        "count.skip.other": {"es": "{n} no aplican", "en": "{n} not applicable"},
        "count.sample.one": {"es": "{n} muestra", "en": "{n} sample"},
        "count.sample.other": {"es": "{n} muestras", "en": "{n} samples"},
        "count.prediction.one": {"es": "{n} predicción", "en": "{n} prediction"},
        "count.prediction.other": {"es": "{n} predicciones", "en": "{n} predictions"},
        "count.row.one": {"es": "{n} fila de {table}", "en": "{n} {table} row"},
        "count.row.other": {"es": "{n} filas de {table}", "en": "{n} {table} rows"},
    }
)
