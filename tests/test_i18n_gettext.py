"""The gettext catalogs are what Babel makes of the source: extracting and updating them changes nothing, every
id the source uses has its words in es and en, none is left over, none is fuzzy, both languages take the same
placeholders, the compiled ``.mo`` files are current, and argparse's own messages are all there.

The checks read the catalogs with Babel (``babel.messages``), as ``make i18n`` writes them; the faults each check
catches are shown on small catalogs built here.
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from tutor.i18n import catalog as gettext_catalog
from tutor.i18n.extract import ids_in_source

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "tutor" / "i18n" / "locale"
LANGS = ("es", "en")
# the POT-Creation-Date line is the time extraction ran: the one line a re-extraction may change
CREATION_DATE = re.compile(rb'^"POT-Creation-Date: .*\\n"\n', re.M)
SYMBOLIC = re.compile(r"[a-z0-9_]+(?:\.[a-z0-9_]+)*")
PERCENT = re.compile(r"%(?:\((\w+)\))?[sr]")


def _read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def _key(message: Message) -> str:
    return str(message.id[0] if isinstance(message.id, (tuple, list)) else message.id)


def _forms(message: Message) -> list[str]:
    if isinstance(message.string, (tuple, list)):
        return [str(s or "") for s in message.string]
    return [str(message.string or "")]


def _english_msgids() -> set[str]:
    """argparse's msgids (English text, %-formats), as tutor/i18n/argparse_ids.py lists them."""
    source = (ROOT / "tutor" / "i18n" / "argparse_ids.py").read_text(encoding="utf-8")
    return {found for _, found, _ in ids_in_source(source, {"N_": (1, None), "N_plural": (1, None)})}


def _brace_fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _percent_fields(text: str) -> list[str]:
    return sorted(name or "%" for name in PERCENT.findall(text))


def catalog_problems(template: Catalog, catalogs: dict[str, Catalog], english_msgids: set[str]) -> list[str]:
    """One line per fault: an id the source uses that a catalog lacks or leaves empty, an entry the source does not
    use (or an obsolete one), a fuzzy entry, a plural entry that is not one, and placeholders that differ between
    the languages (brace fields of a message id; %-fields of argparse's msgids against the msgid)."""
    used = {_key(m): m for m in template if m.id}
    out: list[str] = []
    for lang, cat in catalogs.items():
        if cat.fuzzy:
            out.append(f"{lang}: the header is fuzzy")
        have = {}
        for m in cat:
            if not m.id:
                continue
            key = _key(m)
            have[key] = m
            if key not in used:
                out.append(f"{lang}: {key!r} is not used in the source (no extraction finds it)")
                continue
            if m.fuzzy:
                out.append(f"{lang}: {key!r} is fuzzy")
            if not all(_forms(m)):
                out.append(f"{lang}: {key!r} is untranslated")
            if m.pluralizable != used[key].pluralizable:
                out.append(f"{lang}: {key!r} should {'' if used[key].pluralizable else 'not '}have plural forms")
        out += [f"{lang}: {_key(m)!r} is obsolete" for m in cat.obsolete.values()]
        out += [f"{lang}: {key!r} is used in the source and missing" for key in sorted(set(used) - set(have))]
        if (cat.num_plurals, cat.plural_expr) != (2, "(n != 1)"):
            out.append(f"{lang}: Plural-Forms is nplurals={cat.num_plurals}; plural={cat.plural_expr}")
    by_lang = {lang: {_key(m): m for m in cat if m.id} for lang, cat in catalogs.items()}
    for key in sorted(used):
        entries = {lang: by_lang[lang][key] for lang in by_lang if key in by_lang[lang]}
        if key in english_msgids:
            want = _percent_fields(key)
            for lang, m in entries.items():
                for form in _forms(m):
                    if form and _percent_fields(form) != want:
                        out.append(f"{lang}: {key!r}: placeholders {_percent_fields(form)} differ from {want}")
            continue
        fields: dict[str, list[set[str]]] = {}
        for lang, m in entries.items():
            try:
                fields[lang] = [_brace_fields(form) for form in _forms(m)]
            except ValueError as exc:
                out.append(f"{lang}: {key!r}: not a format string ({exc})")
        complete = all(all(_forms(m)) for m in entries.values()) and len({len(f) for f in fields.values()}) == 1
        if len(fields) == 2 and complete and fields["es"] != fields["en"]:  # (an empty or missing form: said above)
            out.append(f"{key!r}: placeholders differ: es {fields['es']} en {fields['en']}")
    return out


# -- the real catalogs ---------------------------------------------------------------------------------------


def test_the_catalogs_have_no_fault() -> None:
    template = _read(LOCALE / "tutor.pot")
    catalogs = {lang: _read(LOCALE / lang / "LC_MESSAGES" / "tutor.po") for lang in LANGS}
    assert len(template) > 1000  # the extraction really read the source
    assert catalog_problems(template, catalogs, _english_msgids()) == []


def test_babel_extract_and_update_leave_the_catalogs_as_they_are(tmp_path: Path) -> None:
    """``make i18n``'s extract and update, run on a copy: every file byte for byte the same but the template's
    POT-Creation-Date line (the time of the run, copied into each catalog by update)."""
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE, copy)
    cli = CommandLineInterface()
    cli.run(["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), "--no-location", "--sort-output",
             "--project=GPU Tutor", "--copyright-holder=GPU Tutor", "-o", str(copy / "tutor.pot"), str(ROOT / "tutor")])
    cli.run(["pybabel", "-q", "update", "-i", str(copy / "tutor.pot"), "-d", str(copy), "-D", "tutor",
             "--no-fuzzy-matching", "--ignore-obsolete"])
    for name in ("tutor.pot", "es/LC_MESSAGES/tutor.po", "en/LC_MESSAGES/tutor.po"):
        before = CREATION_DATE.sub(b"", (LOCALE / name).read_bytes())
        after = CREATION_DATE.sub(b"", (copy / name).read_bytes())
        assert after == before, f"{name} is not what `make i18n` makes of the source: run it"


@pytest.mark.parametrize("lang", LANGS)
def test_the_compiled_catalogs_are_current(lang: str) -> None:
    out = io.BytesIO()
    write_mo(out, _read(LOCALE / lang / "LC_MESSAGES" / "tutor.po"))
    assert out.getvalue() == (LOCALE / lang / "LC_MESSAGES" / "tutor.mo").read_bytes(), "run `make i18n`"


def test_every_message_of_this_pythons_argparse_is_in_the_catalog() -> None:
    with open(argparse.__file__, "rb") as f:
        msgids = {m[0] if isinstance(m, tuple) else m for _, m, _, _ in extract("python", f)}
    assert len(msgids) > 20
    assert sorted(msgids - _english_msgids()) == []


# -- what each check catches, on small catalogs ----------------------------------------------------------


def _small(entries: dict[str, str | tuple[str, str]], lang: str) -> Catalog:
    cat = Catalog(locale=lang, domain="tutor", fuzzy=False)
    cat._num_plurals, cat._plural_expr = 2, "(n != 1)"
    for key, text in entries.items():
        cat.add((key, key) if isinstance(text, tuple) else key, text)
    return cat


TEMPLATE = {"grade.right": "", "count.step": ("", ""), "usage: ": ""}
GOOD_ES = {"grade.right": "Bien, {name}", "count.step": ("{n} paso", "{n} pasos"), "usage: ": "uso: "}
GOOD_EN = {"grade.right": "Right, {name}", "count.step": ("{n} step", "{n} steps"), "usage: ": "usage: "}


def _problems(es: dict[str, str | tuple[str, str]], en: dict[str, str | tuple[str, str]] = GOOD_EN,
              template: dict[str, str | tuple[str, str]] = TEMPLATE) -> list[str]:
    pot = Catalog(domain="tutor")
    for key, text in template.items():
        pot.add((key, key) if isinstance(text, tuple) else key)
    return catalog_problems(pot, {"es": _small(es, "es"), "en": _small(en, "en")}, {"usage: "})


def test_small_catalogs_that_are_right_pass() -> None:
    assert _problems(GOOD_ES) == []


def test_a_message_id_used_in_the_source_and_missing_in_a_catalog_fails() -> None:
    es = {k: v for k, v in GOOD_ES.items() if k != "grade.right"}
    assert _problems(es) == ["es: 'grade.right' is used in the source and missing"]


def test_an_entry_no_extraction_finds_fails() -> None:
    assert _problems({**GOOD_ES, "grade.gone": "Ya no"}) == [
        "es: 'grade.gone' is not used in the source (no extraction finds it)"]


def test_a_fuzzy_entry_fails() -> None:
    pot = Catalog(domain="tutor")
    for key, text in TEMPLATE.items():
        pot.add((key, key) if isinstance(text, tuple) else key)
    es = _small(GOOD_ES, "es")
    es["grade.right"].flags.add("fuzzy")
    assert catalog_problems(pot, {"es": es, "en": _small(GOOD_EN, "en")}, {"usage: "}) == [
        "es: 'grade.right' is fuzzy"]


def test_an_untranslated_spanish_entry_fails() -> None:
    assert _problems({**GOOD_ES, "grade.right": ""}) == ["es: 'grade.right' is untranslated"]
    assert _problems({**GOOD_ES, "count.step": ("{n} paso", "")}) == ["es: 'count.step' is untranslated"]


def test_placeholders_that_differ_between_spanish_and_english_fail() -> None:
    assert _problems({**GOOD_ES, "grade.right": "Bien, {nombre}"}) == [
        "'grade.right': placeholders differ: es [{'nombre'}] en [{'name'}]"]
    assert _problems({**GOOD_ES, "usage: ": "uso %s: "}) == ["es: 'usage: ': placeholders ['%'] differ from []"]


def test_a_plural_entry_written_as_a_single_one_fails() -> None:
    assert _problems({**GOOD_ES, "count.step": "{n} pasos"}) == ["es: 'count.step' should have plural forms"]


# -- the extraction method and the compiled catalogs at run time -----------------------------------------------


def test_extraction_reads_both_branches_a_module_constant_and_plural_entries() -> None:
    source = (
        'KEY = "lab.kept"\n'
        'a = t("grade.right" if ok else "grade.wrong", lang)\n'
        'b = tn("count.step", n, lang)\n'
        'c = t(KEY, lang)\n'
        'd = N_plural("expected %s argument", "expected %s arguments")\n'
        'e = FieldRule("op", "rule.op_needs_name")\n'
        'f = t(f"fail.{code}", lang)\n'
    )
    specs = {"t": (1, None), "tn": (1, None), "N_plural": (1, None), "FieldRule": (2, None)}
    found = sorted((key, plural) for _, key, plural in ids_in_source(source, specs, {"tn", "N_plural"}))
    assert found == [("count.step", "count.step"), ("expected %s argument", "expected %s arguments"),
                     ("grade.right", None), ("grade.wrong", None), ("lab.kept", None), ("rule.op_needs_name", None)]


def test_plural_forms_come_from_the_catalog() -> None:
    assert gettext_catalog.plural("count.step", 1, "es") == "{n} paso"
    assert gettext_catalog.plural("count.step", 0, "es") == "{n} pasos"
    assert gettext_catalog.plural("count.step", 2, "en") == "{n} steps"
    # a stored code naming a form itself still reads (traces keep "tel.status.nvml_ok.other")
    assert gettext_catalog.lookup("count.step.one", "es") == "{n} paso"
    assert gettext_catalog.lookup("count.step.other", "es", n=1) == "{n} paso"
    assert gettext_catalog.lookup("no.such.id", "es") is None
    assert gettext_catalog.lookup("", "es") is None  # not the catalog's header
