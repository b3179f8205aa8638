"""The one keymap: a key means the same thing on every screen.

Screens declare which of these they offer (``BINDINGS = bindings("back", "lock", "run", ...)``), never a key of
their own; the footer's words come from the i18n catalog and follow the language toggle live
(:func:`translate_bindings`). A screen may word an entry for its own case (``run`` is "Measure" on a measured
exercise, "Reveal" on a diagnose one) by defining ``binding_label(key_id, lang)``.

The keys that must work while a text field has focus (lock, run, hint, telemetry, view code, help) are control or
function keys bound with priority; plain letters only where no field takes text.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from textual.binding import Binding, BindingType

from tutor.i18n import Lang, t


@dataclass(frozen=True)
class KeySpec:
    """One entry of the keymap: the keys, the default action, and the catalog key of its description."""

    keys: str
    action: str
    priority: bool = False
    show: bool = True


KEYMAP: dict[str, KeySpec] = {
    "help": KeySpec("f1,question_mark", "app.help", priority=False, show=True),
    "back": KeySpec("escape", "back"),
    "lang": KeySpec("f2", "app.toggle_lang", show=True),
    "lang_letter": KeySpec("l", "app.toggle_lang", show=False),
    "quit": KeySpec("q", "app.quit", show=False),
    "telemetry": KeySpec("ctrl+t", "toggle_telemetry", priority=True),
    "telemetry_enlarge": KeySpec("T", "enlarge_telemetry", show=False),
    "hint": KeySpec("ctrl+g", "hint", priority=True),
    "lock": KeySpec("ctrl+l", "lock", priority=True),
    "run": KeySpec("ctrl+r", "run", priority=True),
    "next_pending": KeySpec("ctrl+n", "next_pending", priority=True),
    "view_code": KeySpec("f3", "view_code", priority=True),
    "open": KeySpec("enter", "open"),
    "second_pass": KeySpec("2", "second_pass"),
    "progress": KeySpec("p", "app.open_progress"),
    "notebook": KeySpec("N", "app.open_notebook"),
    "next_section": KeySpec("n,right", "next_section"),
    "previous_section": KeySpec("b,left", "previous_section"),
    "write_lock": KeySpec("w", "write_lock"),
    "reset_lesson": KeySpec("d", "reset_lesson"),
    "reset_exercise": KeySpec("x", "reset_exercise"),
    "reset_all": KeySpec("D", "reset_all"),
    "save": KeySpec("ctrl+s", "save", priority=True),
    "export": KeySpec("ctrl+o", "export"),
    "class_report": KeySpec("I", "app.open_class_report", show=False),
    "remeasure_roof": KeySpec("f5", "remeasure_roof", priority=True),
    "attempts": KeySpec("f4", "app.open_attempts", priority=True),
    "expand": KeySpec("z", "expand"),  # a formula, table or title shown cut (…), whole
}


def bindings(*names: str, **actions: str) -> list[BindingType]:
    """The bindings of the keymap entries ``names`` (in this order). ``actions`` maps an entry to the screen's own
    action name where it differs from the default (``run="measure"``); an entry ending in ``!`` is hidden from the
    footer (``"quit!"``)."""
    out: list[BindingType] = []
    # Help second in every screen's footer (after Esc), so a narrow terminal that cuts the footer's end never hides
    # the one key that lists all the others.
    if "help" not in [n.rstrip("!") for n in names]:
        at = 1 if names and names[0].rstrip("!") == "back" else 0
        names = (*names[:at], "help", *names[at:])
    for raw in names:
        name = raw.rstrip("!")
        spec = KEYMAP[name]
        out.append(Binding(spec.keys, actions.get(name, spec.action), t(f"key.{name}", "en"),
                           show=spec.show and not raw.endswith("!"), priority=spec.priority, id=name))
    return out


def label(node: Any, key_id: str, lang: Lang) -> str:
    """The footer's word for ``key_id`` on ``node`` in ``lang`` (the node's own wording first)."""
    own = getattr(node, "binding_label", None)
    if own is not None:
        worded = own(key_id, lang)
        if worded:
            return str(worded)
    return t(f"key.{key_id}", lang)


def _worded(binding: Binding, node: Any, lang: Lang) -> Binding:
    """``binding`` described in ``lang``: a keymap entry or a binding whose id has a ``key.<id>`` catalog entry by
    its id, Textual's command palette key by the catalog's ``key.palette``; any other as it is."""
    if binding.action in ("command_palette", "app.command_palette"):
        return dataclasses.replace(binding, description=t("key.palette", lang), tooltip=t("help.palette", lang))
    if binding.id is None:
        return binding
    if binding.id in KEYMAP or t(f"key.{binding.id}", "en") != f"key.{binding.id}":
        return dataclasses.replace(binding, description=label(node, binding.id, lang))
    return binding


def translate_bindings(node: Any, lang: Lang) -> None:
    """Reword ``node``'s bindings in ``lang`` (see :func:`_worded`) and refresh the footer."""
    key_to_bindings = node._bindings.key_to_bindings
    for key, items in key_to_bindings.items():
        key_to_bindings[key] = [_worded(b, node, lang) for b in items]
    refresh = getattr(node, "refresh_bindings", None)
    if refresh is not None:
        refresh()
