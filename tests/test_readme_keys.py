"""The README's set-up and "Keys and marks" sections say what the app does (issue 30 item 8): every mark the help
screen explains is in the table, every key named there is the keymap's, and the install section gives both wheel
indexes with a visible progress display."""

from __future__ import annotations

import re
from pathlib import Path

from tutor.ui.keys import KEYMAP
from tutor.ui.marks import MARKS

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
MAKEFILE = (Path(__file__).resolve().parents[1] / "Makefile").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(f"## {title}")
    end = README.find("\n## ", start + 3)
    return README[start:end if end > 0 else None]


def test_every_mark_is_explained_in_the_readme() -> None:
    table = _section("Keys and marks")
    for mark, _key in MARKS:
        assert f"| {mark} |" in table, mark


def test_the_readme_names_the_keymap_s_keys() -> None:
    table = _section("Keys and marks")
    # Ctrl+P is Textual's command palette
    bound = {k.strip().lower() for spec in KEYMAP.values() for k in spec.keys.split(",")} | {"ctrl+p"}
    named = re.findall(r"\b(Ctrl\+[A-Z]|F\d)\b", table)
    assert named
    for key in named:
        assert key.lower() in bound, key
    assert "f4" in bound and "F4" in table  # the attempts view


def test_the_install_section_gives_both_indexes_and_keeps_the_progress_bar() -> None:
    install = _section("Installing torch for your machine")
    assert "download.pytorch.org/whl/cpu" in install and "download.pytorch.org/whl/cu128" in install
    assert "several GB" in install and "--progress-bar on" in install
    run_recipe = MAKEFILE[MAKEFILE.index("$(RUN_STAMP):"):MAKEFILE.index("run: $(RUN_STAMP)")]
    assert "--quiet" not in run_recipe and "[test]" not in run_recipe
