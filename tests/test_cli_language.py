"""The command line speaks the reader's language: help, usage and argparse's own errors come from the catalog,
in Spanish and in English, chosen as the commands choose (``--lang``, else the tutor's last choice, else the
locale). Driven as a user drives it: ``tutor.cli.main`` with the process's streams captured, and one real process."""

from __future__ import annotations

import argparse
import re
import string
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tutor.cli import build_parser, main
from tutor.commands.parsing import TutorParser, argv_lang
from tutor.i18n import Lang
from tutor.i18n.catalog import messages
from tutor.telemetry.spec import BackendSpecError, open_backend

CATALOGS = {"es": messages("es"), "en": messages("en")}
HOSTILE = "\x1b]52;c;ZXZpbA==\x07"


def tutor(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``tutor argv…`` in this process; (exit status, stdout, stderr)."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _template(text: str) -> re.Pattern[str]:
    pieces = []
    for literal, field, _, _ in string.Formatter().parse(text):
        pieces.append(re.escape(literal))
        if field is not None:
            pieces.append(".+?")
    return re.compile("".join(pieces), re.DOTALL)


TEMPLATES = {lang: [(key, _template(text)) for key, text in cat.items()] for lang, cat in CATALOGS.items()}


def keys_for(text: str, lang: Lang) -> set[str]:
    """The catalog keys whose ``lang`` text renders as ``text``."""
    return {key for key, pattern in TEMPLATES[lang] if pattern.fullmatch(text)}


def words(parser: argparse.ArgumentParser, where: str = "tutor") -> Iterator[tuple[str, str]]:
    """Every text a reader sees in this parser's help and its subcommands' (where, text), in a fixed order."""
    if parser.description:
        yield f"{where} description", parser.description
    for group in parser._action_groups:
        if group._group_actions and group.title:
            yield f"{where} title", group.title
    for action in parser._actions:
        if action.help and action.help is not argparse.SUPPRESS:
            yield f"{where} {'/'.join(action.option_strings) or action.dest}", action.help
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield f"{where} {choice.dest}", choice.help or ""
            for name, sub in action._name_parser_map.items():
                yield from words(sub, f"{where} {name}")


def test_every_help_text_of_every_command_comes_from_the_catalog_in_both_languages() -> None:
    spanish, english = list(words(build_parser("es"))), list(words(build_parser("en")))
    assert len(spanish) == len(english) > 150  # the walk reached every subcommand
    untranslated = []
    for (where, es_text), (_, en_text) in zip(spanish, english, strict=True):
        same_key = keys_for(es_text, "es") & keys_for(en_text, "en")
        if not same_key:
            untranslated.append(f"{where}: {es_text!r} / {en_text!r}")
    assert untranslated == []


def test_spanish_help_has_no_english_left() -> None:
    code, out, _ = 0, build_parser("es").format_help(), ""
    assert code == 0 and out.startswith("uso: tutor ")
    english = ("usage", "options:", "positional arguments", "show this help", "commands:", "default", " the ")
    for parser in _all_parsers(build_parser("es")):
        text = parser.format_help()
        assert not [w for w in english if w in text], text


def _all_parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action._name_parser_map.values():
                yield from _all_parsers(sub)


def test_exercise_help_in_spanish_and_english(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = tutor(capsys, "exercise", "--help", "--lang", "es")
    assert code == 0 and err == ""
    assert out.startswith("uso: tutor exercise [-h]")
    assert "\nopciones:\n" in out and "\nacciones:\n" in out and "muestra esta ayuda y termina" in out
    assert "Ejercicios de predecir y luego medir sin la interfaz" in out
    assert "predice, fija la predicción, mide en esta máquina" in out
    code, out, err = tutor(capsys, "exercise", "run", "--help", "--lang", "en")
    assert code == 0 and out.startswith("usage: tutor exercise run [-h]")
    assert "\npositional arguments:\n  ID " in out and "\noptions:\n" in out
    assert "how sure you are in % (default 80), from chance to 100" in " ".join(out.split())
    code, out, err = tutor(capsys, "exercise", "run", "--help", "--lang", "es")
    assert "\nargumentos posicionales:\n  ID " in out
    assert "tu confianza en % (por omisión 80), del azar a 100" in " ".join(out.split())


def test_a_missing_exercise_id_in_spanish_and_english() -> None:
    """As the learner types it, in a real process: usage and error in their language, exit status 2."""
    for lang, usage, error in (
        ("es", "uso: tutor exercise run [-h]", "tutor exercise run: error: faltan estos argumentos obligatorios: ID"),
        ("en", "usage: tutor exercise run [-h]", "tutor exercise run: error: the following arguments are required: ID"),
    ):
        proc = subprocess.run([sys.executable, "-m", "tutor", "exercise", "run", "--lang", lang],
                              capture_output=True, text=True, timeout=60, check=False)
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.startswith(usage) and proc.stderr.rstrip("\n").endswith("\n" + error), proc.stderr


@pytest.mark.parametrize(("argv", "said"), [
    (("exercise", "run", "x", "--device", "tpu"),
     {"es": "argumento --device: opción no válida: 'tpu' (elige entre 'auto', 'cpu', 'cuda')",
      "en": "argument --device: invalid choice: 'tpu' (choose from 'auto', 'cpu', 'cuda')"}),
    (("exercise", "run", "x", "--colour"),
     {"es": "argumentos no reconocidos: --colour", "en": "unrecognized arguments: --colour"}),
    (("exercise", "run", "x", "--predict"),
     {"es": "argumento --predict: se esperaba un argumento", "en": "argument --predict: expected one argument"}),
    (("exercise", "run", "x", "--resume", "two"),
     {"es": "argumento --resume: valor entero no válido: 'two'", "en": "argument --resume: invalid int value: 'two'"}),
    (("exercise", "run", "x", "--budget", "1s"),
     {"es": "argumento --budget: valor numérico no válido: '1s'",
      "en": "argument --budget: invalid float value: '1s'"}),
    (("bench", "--quick", "--full"),
     {"es": "argumento --full: no se puede usar junto con el argumento --quick",
      "en": "argument --full: not allowed with argument --quick"}),
    (("progress", "reset"),
     {"es": "hace falta uno de los argumentos --exercise --lesson --all",
      "en": "one of the arguments --exercise --lesson --all is required"}),
    (("exercise", "wat"),
     {"es": "argumento ACTION: opción no válida: 'wat' (elige entre 'list', 'run', 'discard')",
      "en": "argument ACTION: invalid choice: 'wat' (choose from 'list', 'run', 'discard')"}),
])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_argparse_errors_in_the_readers_language(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                                  said: dict[str, str], lang: Lang) -> None:
    code, out, err = tutor(capsys, *argv, "--lang", lang)
    assert code == 2 and out == ""
    usage, _, last = err.rstrip("\n").rpartition("\n")
    assert usage.startswith("uso: tutor" if lang == "es" else "usage: tutor")
    assert last.split(": error: ", 1)[1] == said[lang], err


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_hostile_value_shows_without_its_control_characters(capsys: pytest.CaptureFixture[str], lang: Lang) -> None:
    for argv in (("exercise", "run", "x", "--device", HOSTILE), ("exercise", "run", "x", HOSTILE),
                 ("exercise", "run", "x", "--resume", HOSTILE), ("telemetry", "--backend", HOSTILE)):
        code, out, err = tutor(capsys, *argv, "--lang", lang)
        assert code == 2 and out == ""
        assert "\x1b" not in err and "\x07" not in err, err
        # the rest of what was typed, shown as text (a quoted value as argparse writes it, its controls escaped)
        assert "]52;c;ZXZpbA==" in err


@pytest.mark.parametrize(("lang", "said"), [
    ("es", "tutor: error: fuente de telemetría desconocida «cuda»: se esperaba auto, nvml, host o replay:FILE"),
    ("en", "tutor: error: unknown telemetry backend 'cuda': expected auto, nvml, host or replay:FILE"),
])
def test_an_unknown_telemetry_backend_in_the_readers_language(capsys: pytest.CaptureFixture[str], lang: Lang,
                                                              said: str) -> None:
    code, out, err = tutor(capsys, "telemetry", "--backend", "cuda", "--lang", lang)
    assert (code, out, err) == (2, "", said + "\n")
    with pytest.raises(BackendSpecError) as caught:
        open_backend("replay:")
    assert caught.value.said.render(lang) == {"es": "replay necesita un archivo de traza: replay:FILE",
                                              "en": "replay needs a trace file: replay:FILE"}[lang]
    assert str(caught.value) == "replay needs a trace file: replay:FILE"  # str(): the English, for logs


def test_the_language_is_decided_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.settings import save_lang

    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert argv_lang(["exercise", "run"]) == "en"
    assert argv_lang(["exercise", "run", "--lang", "es"]) == "es"
    assert argv_lang(["--lang=es", "exercise"]) == "es"
    assert argv_lang(["exercise", "--", "--lang", "es"]) == "en"  # after --, an argument, not an option
    assert argv_lang(["--lang", "fr"]) == "en"
    save_lang("es")  # the learner chose Spanish in the tutor: the help follows, unless --lang says otherwise
    assert argv_lang(["exercise"]) == "es" and argv_lang(["exercise", "--lang", "en"]) == "en"


def test_an_unknown_message_stays_as_it_came_but_cleaned(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        TutorParser("tutor", lang="es").error("something new\x1b[2J happened")
    assert capsys.readouterr().err.endswith("\ntutor: error: something new[2J happened\n")
    with pytest.raises(SystemExit):
        TutorParser("tutor", lang="es").parse_args(["a", "b"])
    assert capsys.readouterr().err.endswith("tutor: error: argumentos no reconocidos: a b\n")
