"""The screens reach the learner's progress only through the session (issue 29 item 1).

``make_app`` builds one :class:`~tutor.practice.session.Session` and gives it to every screen. The first cut moved
``self.app.store`` to ``self.session.store``: the session was the door, but screens still opened the store behind it
(17 reads and writes: sections read, resets, notebook edits, doctor runs…). Now every such read or record is a
method of the session, so what the UI may do to the store is written in one place. Only the app (which builds the
session and, in a class, hands it the store a login opened) and the login screen (whose message carries that store)
name a store."""

from __future__ import annotations

import ast
from pathlib import Path

import tutor

UI = Path(tutor.__file__).parent / "ui"
#: The wiring: the app builds the session from a store; the login screen's message carries the store it opened.
ALLOWED = {"app.py", "screens/login.py"}


def _store_uses(source: str, name: str) -> list[str]:
    tree = ast.parse(source, filename=name)
    return [f"{name}:{node.lineno}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in ("store", "_store")]


def test_no_screen_or_widget_names_the_store() -> None:
    found = [use for path in sorted(UI.rglob("*.py")) if str(path.relative_to(UI)) not in ALLOWED
             for use in _store_uses(path.read_text(encoding="utf-8"), str(path.relative_to(UI)))]
    assert found == [], "read or record through a Session method instead: " + ", ".join(found)


def test_the_check_sees_a_store_read() -> None:
    """The scan finds ``self.session.store.x()`` (it would have found the 17 this replaced)."""
    old_line = "def read(self):\n    self.session.store.mark_section_read('a', 'b')\n"
    assert _store_uses(old_line, "screens/lesson.py") == ["screens/lesson.py:2"]
    assert _store_uses("self.session.mark_section_read('a', 'b')", "screens/lesson.py") == []
