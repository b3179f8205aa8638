"""UI strings in Spanish and English: gettext catalogs (``locale/{es,en}/LC_MESSAGES/tutor.po``, compiled to ``.mo``
by ``make i18n``) whose msgids are the tutor's message ids, with ``{placeholders}`` filled by :func:`t` and plural
forms chosen by :func:`tn` through ``ngettext``. Lesson text carries its own ``{es, en}``; the catalogs are the
chrome. How to add a string: ``tutor/i18n/README.md``."""

from __future__ import annotations

import locale
import os
from typing import Literal

from tutor.i18n import catalog
from tutor.i18n.numbers import binary_size as format_bytes
from tutor.i18n.numbers import format_number

Lang = Literal["es", "en"]
LANGS: tuple[Lang, ...] = ("es", "en")

__all__ = ["LANGS", "N_", "Lang", "N_plural", "as_lang", "default_lang", "format_bytes", "format_number", "t", "tn"]


def N_(message_id: str) -> str:
    """``message_id`` unchanged: marks an id the code passes around before :func:`t` renders it, so that Babel's
    extraction (``make i18n``) finds it (``_BOUND = {"memory": N_("grade.bound.memory"), ...}``)."""
    return message_id


def N_plural(message_id: str, plural_id: str | None = None) -> str:
    """As :func:`N_` for an id rendered by :func:`tn` (a catalog entry with plural forms); ``plural_id`` is the
    msgid_plural where it differs (argparse's English msgids), else the id itself."""
    return message_id


def as_lang(lang: str) -> Lang:
    """``lang`` as one of :data:`LANGS` (anything but a known language reads English)."""
    return "es" if lang == "es" else "en"


def t(key: str, lang: Lang, **fields: object) -> str:
    """The UI string ``key`` in ``lang`` (else in English); a missing key shows itself rather than crashing."""
    text = catalog.lookup(key, lang, fields.get("n"))
    if text is None:
        return key
    return text.format(**fields) if fields else text


def tn(key: str, n: int, lang: Lang, **fields: object) -> str:
    """``key`` counted: the catalog's plural form for ``n`` (its ``Plural-Forms``: one form for 1, the other for 0
    and 2+ in both languages), with ``{n}`` filled in. ``tn("count.warning", 1, "en")`` → "1 warning"."""
    text = catalog.plural(key, n, lang)
    if text is None:
        return key
    return text.format(n=n, **fields)


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
