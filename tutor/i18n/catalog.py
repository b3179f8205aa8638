"""The gettext catalogs: ``locale/<lang>/LC_MESSAGES/tutor.mo``, compiled by ``make i18n`` from the ``.po`` files
beside them, read with the standard library's :mod:`gettext` (Babel is needed to build them, not to read them).

The msgids are the tutor's message ids (``"grade.bound.right"``), so a code stored in a trace or a result is still
its entry; argparse's own messages are in the same catalog under their English msgids. An entry with plural forms
(``tn``'s ids, ``msgstr[0]``/``msgstr[1]``) is chosen by the catalog's ``Plural-Forms`` header.
"""

from __future__ import annotations

import functools
import gettext
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "tutor"
PLURAL_SUFFIXES = {"one": 1, "other": 2}
"""A stored code may name a plural form itself (``"tel.status.nvml_ok.other"``, as the tables wrote them); it is
read as the entry's form for that count."""


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """``lang``'s compiled catalog (a missing file reads as an empty one: every id then shows itself)."""
    try:
        with mo_path(lang).open("rb") as f:
            return gettext.GNUTranslations(f)
    except OSError:
        return gettext.NullTranslations()


def lookup(message_id: str, lang: str, n: object = None) -> str | None:
    """The text of ``message_id`` in ``lang``, else in English, else ``None``. A plural entry asked for by its
    own id gives the form for ``n`` (the form for 2 without one)."""
    if not message_id:  # gettext("") is the catalog's header, not a message
        return None
    base, _, suffix = message_id.rpartition(".")
    for code in (lang, "en") if lang != "en" else ("en",):
        catalog = translations(code)
        text = catalog.gettext(message_id)
        if text != message_id:
            return text
        if base and suffix in PLURAL_SUFFIXES:
            count = n if isinstance(n, int) else PLURAL_SUFFIXES[suffix]
            text = catalog.ngettext(base, base, count)
            if text != base:
                return text
    return None


def plural(message_id: str, n: int, lang: str) -> str | None:
    """The form of the plural entry ``message_id`` for ``n`` in ``lang``, else in English, else ``None``."""
    if not message_id:
        return None
    for code in (lang, "en") if lang != "en" else ("en",):
        text = translations(code).ngettext(message_id, message_id, n)
        if text != message_id:
            return text
    return None


def messages(lang: str) -> dict[str, str]:
    """Every entry of ``lang``'s ``.po`` as ``{id: text}``, a plural entry as ``id.one`` and ``id.other`` (for
    tests and checks that read all the words; the app reads the compiled ``.mo``)."""
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        catalog = read_po(f)
    out: dict[str, str] = {}
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = [str(f) for f in message.string] if isinstance(message.string, (tuple, list)) else [""]
            out[f"{message.id[0]}.one"], out[f"{message.id[0]}.other"] = forms[0], forms[-1]
        else:
            out[str(message.id)] = str(message.string)
    return out
