"""One-off converter (issue 29 item 5): the flat tables tutor/i18n/en.py and es.py -> gettext catalogs.

Writes tutor/i18n/locale/tutor.pot (extracted by Babel from the source, babel.cfg) and
tutor/i18n/locale/{es,en}/LC_MESSAGES/tutor.po (each entry's text from the tables; ``key.one``/``key.other`` become
the plural forms of ``key``), then runs ``make i18n``'s update and compile so the files are as Babel writes them.
Prints the ids the source uses that the tables lack and the table keys the source does not use. Deleted once the
tables are gone.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
LOCALE = ROOT / "tutor" / "i18n" / "locale"
POT = LOCALE / "tutor.pot"
BIN = Path(sys.executable).parent

from tutor.i18n import en, es  # noqa: E402

# argparse's English msgids (tutor/i18n/argparse_ids.py) in Spanish; the English catalog repeats the msgid
ARGPARSE_ES: dict[str, str | tuple[str, str]] = {
    "usage: ": "uso: ",
    "positional arguments": "argumentos posicionales",
    "options": "opciones",
    "show this help message and exit": "muestra esta ayuda y termina",
    "%(prog)s: error: %(message)s\n": "%(prog)s: error: %(message)s\n",
    "argument %(argument_name)s: %(message)s": "argumento %(argument_name)s: %(message)s",
    "the following arguments are required: %s": "faltan estos argumentos obligatorios: %s",
    "unrecognized arguments: %s": "argumentos no reconocidos: %s",
    "one of the arguments %s is required": "hace falta uno de los argumentos %s",
    "not allowed with argument %s": "no se puede usar junto con el argumento %s",
    "ignored explicit argument %r": "se ignoró el argumento explícito %r",
    "expected one argument": "se esperaba un argumento",
    "expected at most one argument": "se esperaba como mucho un argumento",
    "expected at least one argument": "se esperaba al menos un argumento",
    "expected %s argument": ("se esperaba %s argumento", "se esperaban %s argumentos"),
    "ambiguous option: %(option)s could match %(matches)s": "opción ambigua: %(option)s puede ser %(matches)s",
    "unexpected option string: %s": "opción inesperada: %s",
    "invalid %(type)s value: %(value)r": "valor %(type)s no válido: %(value)r",
    "invalid choice: %(value)r (choose from %(choices)s)": "opción no válida: %(value)r (elige entre %(choices)s)",
    "unknown parser %(parser_name)r (choices: %(choices)s)":
        "subcomando desconocido %(parser_name)r (opciones: %(choices)s)",
    'argument "-" with mode %r': 'el argumento "-" con el modo %r',
    "can't open '%(filename)s': %(error)s": "no se puede abrir «%(filename)s»: %(error)s",
    ".__call__() not defined": ".__call__() no está definido",
    "conflicting subparser: %s": "subcomando repetido: %s",
    "conflicting subparser alias: %s": "alias de subcomando repetido: %s",
    "cannot merge actions - two groups are named %r": "no se pueden unir las acciones: dos grupos se llaman %r",
    "'required' is an invalid argument for positionals": "«required» no vale para argumentos posicionales",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r":
        "opción no válida %(option)r: debe empezar por un carácter de %(prefix_chars)r",
    "dest= is required for options like %r": "hace falta dest= para opciones como %r",
    "invalid conflict_resolution value: %r": "valor de conflict_resolution no válido: %r",
    "conflicting option string: %s": ("opción repetida: %s", "opciones repetidas: %s"),
    "mutually exclusive arguments must be optional": "los argumentos mutuamente excluyentes deben ser opcionales",
    "cannot have multiple subparser arguments": "no puede haber varios argumentos de subcomandos",
    "%r is not callable": "%r no se puede llamar",
}

def run(*args: str) -> None:
    subprocess.run([str(BIN / "pybabel"), "-q", *args], cwd=ROOT, check=True)


def main() -> int:
    LOCALE.mkdir(parents=True, exist_ok=True)
    run("extract", "-F", "babel.cfg", "--no-location", "--sort-output", "--project=GPU Tutor",
        "--copyright-holder=GPU Tutor", "-o", str(POT.relative_to(ROOT)), "tutor")
    with POT.open("rb") as f:
        template = read_po(f)
    used: set[str] = set()
    for lang, table in (("es", es.MESSAGES), ("en", en.MESSAGES)):
        catalog = Catalog(locale=lang, domain="tutor", project="GPU Tutor", copyright_holder="GPU Tutor",
                          fuzzy=False, last_translator="GPU Tutor", language_team=f"GPU Tutor ({lang})")
        # both languages: one form for 1, the other for 0 and 2+ (Babel's CLDR rule would give Spanish a third
        # form for millions, which no string of the tutor needs)
        catalog._num_plurals, catalog._plural_expr = 2, "(n != 1)"
        name = {"es": "Spanish", "en": "English"}[lang]
        catalog.header_comment = (f"# {name} catalog of GPU Tutor, by message id.\n"
                                  "# How to add a string: tutor/i18n/README.md.")
        missing = []
        for message in template:
            if not message.id:
                continue
            msgid = message.id
            key = msgid[0] if isinstance(msgid, tuple) else msgid
            string: str | tuple[str, ...]
            if key in ARGPARSE_ES:
                string = ARGPARSE_ES[key] if lang == "es" else msgid
            elif isinstance(msgid, tuple):
                string = (table.get(key + ".one", ""), table.get(key + ".other", ""))
                used |= {key + ".one", key + ".other"}
                if not all(string):
                    missing.append(key)
            else:
                string = table.get(key, "")
                used.add(key)
                if not string:
                    missing.append(key)
            catalog.add(msgid, string)
        out = LOCALE / lang / "LC_MESSAGES" / "tutor.po"
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("wb") as f:
            write_po(f, catalog, omit_header=False, no_location=True)
        print(f"{lang}: {len(catalog)} entries; used in the source, not in {lang}.py: {missing}")
    print("in the tables, not used in the source:", sorted(set(en.MESSAGES) - used))
    run("update", "-i", str(POT.relative_to(ROOT)), "-d", str(LOCALE.relative_to(ROOT)), "-D", "tutor",
        "--no-fuzzy-matching", "--ignore-obsolete")
    run("compile", "-d", str(LOCALE.relative_to(ROOT)), "-D", "tutor", "--statistics")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
