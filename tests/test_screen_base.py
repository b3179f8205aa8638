"""Every screen stands on the typed base: no screen guesses at its app (``getattr(self.app, …)``, ``type: ignore``)
and every screen class of the tutor is a :class:`TutorScreen` (one language watcher, one error path)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest
from textual.screen import Screen

import tutor.ui
from tutor.ui.screens.base import TutorModal, TutorScreen

UI_MODULES = sorted(info.name for info in pkgutil.walk_packages(tutor.ui.__path__, "tutor.ui."))


@pytest.mark.parametrize("module", UI_MODULES)
def test_the_ui_reads_its_app_typed(module: str) -> None:
    source = Path(inspect.getfile(importlib.import_module(module))).read_text(encoding="utf-8")
    assert "type: ignore" not in source, module
    assert "getattr(self.app" not in source and "getattr(app," not in source, module


def test_every_screen_of_the_tutor_is_a_tutor_screen() -> None:
    modules = [importlib.import_module(name) for name in UI_MODULES]
    classes = (cls for module in modules for _, cls in inspect.getmembers(module, inspect.isclass))
    screens = {cls for cls in classes if issubclass(cls, Screen) and cls.__module__.startswith("tutor.ui.")}
    assert len(screens) >= 11, sorted(c.__name__ for c in screens)
    assert {c.__name__ for c in screens if not issubclass(c, TutorScreen)} == set()
    modals = {c.__name__ for c in screens if issubclass(c, TutorModal)}
    assert {"HelpScreen", "CodeScreen", "ConfirmReset"} <= modals
