"""The two catalogs speak the same keys, and every key the code asks for is in them."""

from __future__ import annotations

import ast
import string
from pathlib import Path

from tutor.i18n import en, es, t, tn

TUTOR = Path(__file__).resolve().parents[1] / "tutor"


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _key_uses() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(exact keys, f-string prefixes) passed to ``t``/``tn`` anywhere in ``tutor/``, each with where it was found.
    A key given as a module-level string constant counts as exact."""
    exact: list[tuple[str, str]] = []
    prefixes: list[tuple[str, str]] = []
    for path in sorted(TUTOR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {
            node.targets[0].id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name not in ("t", "tn"):
                continue
            arg = node.args[0]
            where = f"{path.relative_to(TUTOR.parent)}:{node.lineno}"
            suffixes = (".one", ".other") if name == "tn" else ("",)
            key: str | None = None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                key = arg.value
            elif isinstance(arg, ast.Name) and arg.id in constants:
                key = constants[arg.id]
            elif isinstance(arg, ast.JoinedStr) and arg.values:
                head = arg.values[0]
                if isinstance(head, ast.Constant) and isinstance(head.value, str) and head.value:
                    prefixes.append((head.value, where))
            if key is not None:
                exact.extend((key + suffix, where) for suffix in suffixes)
    return exact, prefixes


def test_both_catalogs_have_the_same_keys() -> None:
    assert sorted(set(es.MESSAGES) - set(en.MESSAGES)) == []
    assert sorted(set(en.MESSAGES) - set(es.MESSAGES)) == []


def test_each_key_has_the_same_placeholders_in_both_languages() -> None:
    differ = {
        key: (_fields(es.MESSAGES[key]), _fields(en.MESSAGES[key]))
        for key in es.MESSAGES
        if _fields(es.MESSAGES[key]) != _fields(en.MESSAGES.get(key, ""))
    }
    assert differ == {}


def test_no_value_is_empty_or_untranslated_padding() -> None:
    empty = [(lang, key) for lang, cat in (("es", es.MESSAGES), ("en", en.MESSAGES)) for key, v in cat.items()
             if not v.strip()]
    assert empty == []


def test_every_key_used_in_the_code_is_in_the_catalog() -> None:
    exact, prefixes = _key_uses()
    assert len(exact) > 200  # the walk really found the call sites
    missing = sorted({f"{key} ({where})" for key, where in exact if key not in en.MESSAGES})
    assert missing == []
    dangling = sorted({f"{prefix}… ({where})" for prefix, where in prefixes
                       if not any(key.startswith(prefix) for key in en.MESSAGES)})
    assert dangling == []


def test_rendering_fills_placeholders_and_counts_in_each_language() -> None:
    assert tn("count.warning", 1, "en") == "1 warning"
    assert tn("count.warning", 3, "es") == "3 avisos"
    assert t("lang.switched", "es") == "Idioma: español"
    assert t("progress.stored_at", "en", where="/tmp/x") == "Your progress is stored in: /tmp/x"
    assert t("no.such.key", "es") == "no.such.key"


def test_no_module_registers_strings_of_its_own() -> None:
    """One mechanism: the catalogs. No ``register({...})`` tables scattered in the modules."""
    import tutor.i18n

    assert not hasattr(tutor.i18n, "register")
    offenders = [str(p.relative_to(TUTOR.parent)) for p in TUTOR.rglob("*.py")
                 if "i18n import register" in p.read_text(encoding="utf-8")
                 or "i18n.register(" in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_the_measuring_engines_progress_codes_are_in_both_catalogs_with_their_parameters() -> None:
    """Every code of :data:`tutor.measure.phases.PHASES` has an entry in es and en whose placeholders are the
    parameters the engine sends; and every ``said("…", **params)`` in the engine names a code of the vocabulary with
    exactly its parameters (the parent would otherwise show "measuring…")."""
    from tutor.measure.phases import PHASES, check_vocabulary

    assert check_vocabulary({"es": es.MESSAGES, "en": en.MESSAGES}) == []
    calls = []
    for path in sorted((TUTOR / "measure").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("said", "phase")
                    and node.args and isinstance(node.args[0], ast.Constant)):
                calls.append((f"{path.name}:{node.lineno}", node.args[0].value, {k.arg for k in node.keywords}))
            if isinstance(node, ast.IfExp) and isinstance(node.body, ast.Constant) and str(node.body.value).startswith(
                    "measure.progress."):  # said("a" if x else "b", ...): both branches are codes
                assert node.body.value in PHASES and getattr(node.orelse, "value", None) in PHASES
    assert len(calls) > 25  # the walk found the engine's call sites
    wrong = [(where, code, sorted(params)) for where, code, params in calls
             if code not in PHASES or set(PHASES[code]) != params]
    assert wrong == []
