"""Rendering from the gettext catalogs, and the measuring engine's vocabulary in both. (That the catalogs hold every
id the code uses, none left over, with the same placeholders in es and en: tests/test_i18n_gettext.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

from tutor.i18n import t, tn
from tutor.i18n.catalog import messages

TUTOR = Path(__file__).resolve().parents[1] / "tutor"


def test_rendering_fills_placeholders_and_counts_in_each_language() -> None:
    assert tn("count.warning", 1, "en") == "1 warning"
    assert tn("count.warning", 3, "es") == "3 avisos"
    assert t("lang.switched", "es") == "Idioma: español"
    assert t("progress.stored_at", "en", where="/tmp/x") == "Your progress is stored in: /tmp/x"
    assert t("no.such.key", "es") == "no.such.key"
    assert tn("count.warning", 0, "es") == "0 avisos" and tn("count.step", 1, "es") == "1 paso"
    assert t("count.warning.one", "en", n=1) == "1 warning"  # a stored code naming a form still renders


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

    assert check_vocabulary({"es": messages("es"), "en": messages("en")}) == []
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
