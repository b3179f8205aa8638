"""The rooms have doors: the core never imports Textual, and the UI never imports torch."""

from __future__ import annotations

import subprocess
import sys

import pytest

CORE = ["tutor.content", "tutor.progress", "tutor.grading", "tutor.telemetry", "tutor.measure", "tutor.doctor",
        "tutor.paths", "tutor.i18n", "tutor.cli"]


def modules_after_import(*names: str) -> set[str]:
    code = "import sys\n" + "".join(f"import {n}\n" for n in names) + "print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize("package", CORE)
def test_core_packages_do_not_import_textual(package: str) -> None:
    loaded = modules_after_import(package)
    assert "textual" not in loaded, f"{package} imports textual"
    assert "torch" not in loaded, f"{package} imports torch at import time"


def test_the_ui_does_not_import_torch() -> None:
    loaded = modules_after_import("tutor.ui.app")
    assert "textual" in loaded
    assert "torch" not in loaded


def test_the_cli_help_builds_without_heavy_imports() -> None:
    code = (
        "import sys\nfrom tutor.cli import build_parser\nbuild_parser()\n"
        "print('torch' in sys.modules, 'textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["False", "False"]
