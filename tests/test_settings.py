"""The language the learner chose is remembered between runs; a hostile or broken settings file is no preference."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from tests.support.shell import build_app
from tutor.settings import SETTINGS_FILE, save_lang, saved_lang


def test_no_file_is_no_preference(data_dir: Path) -> None:
    assert saved_lang() is None
    save_lang("en")
    assert saved_lang() == "en"
    save_lang("es")
    assert saved_lang() == "es"
    assert sorted(p.name for p in data_dir.iterdir() if p.name.startswith(SETTINGS_FILE)) == [SETTINGS_FILE]


def test_a_broken_or_hostile_file_reads_as_no_preference(data_dir: Path) -> None:
    path = data_dir / SETTINGS_FILE
    for text in ("{", "[1, 2]", '{"lang": "fr"}', '{"lang": NaN}', "\x1b]52;c;aGk=\x07", "[" * 100_000):
        path.write_text(text, encoding="utf-8")
        assert saved_lang() is None, text
    path.unlink()
    path.symlink_to("/dev/zero")
    assert saved_lang() is None
    path.unlink()
    os.mkfifo(path)
    assert saved_lang() is None  # a FIFO is refused, never waited on
    path.unlink()
    save_lang("en")
    assert saved_lang() == "en"


async def test_the_language_toggle_is_remembered(tmp_path: Path) -> None:
    app = build_app(tmp_path, lang="es")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        assert app.lang == "en"
    assert saved_lang() == "en"


def test_the_tui_opens_in_the_remembered_language(monkeypatch: pytest.MonkeyPatch) -> None:
    import tutor.ui.app as ui_app
    from tutor.commands import tui

    seen: list[str] = []

    class Stop(Exception):
        pass

    def fake_make_app(**kwargs: object) -> object:
        seen.append(str(kwargs["lang"]))
        raise Stop

    save_lang("en")
    monkeypatch.setattr(ui_app, "make_app", fake_make_app)
    args = argparse.Namespace(lang=None, telemetry="host", telemetry_interval=1.0)
    with pytest.raises(Stop):
        tui.run_tui(args)
    args.lang = "es"  # --lang still wins
    with pytest.raises(Stop):
        tui.run_tui(args)
    assert seen == ["en", "es"]
