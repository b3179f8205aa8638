"""bench/check_presets_hf.py, the presets' check against transformers + accelerate (issue 31), stays a script of its
own: the project does not depend on either library, the script says how to install them, and it maps every preset
to a transformers architecture."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

from tutor.theory.formulas import model_presets

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "check_presets_hf.py"


def _architecture_keys() -> set[str]:
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "ARCHITECTURE" for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise AssertionError("ARCHITECTURE not found")


def test_every_preset_has_a_transformers_architecture() -> None:
    assert _architecture_keys() == set(model_presets())


def test_the_project_does_not_depend_on_transformers_or_accelerate() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = [*project["project"].get("dependencies", [])]
    for extra in project["project"].get("optional-dependencies", {}).values():
        declared += extra
    assert not [d for d in declared if d.lower().startswith(("transformers", "accelerate"))]
    doc = ast.get_docstring(ast.parse(SCRIPT.read_text(encoding="utf-8"))) or ""
    assert "pip install transformers accelerate" in doc and "init_empty_weights" in doc


def test_without_the_libraries_it_says_how_to_install_them() -> None:
    try:
        import transformers  # noqa: F401
    except ImportError:
        pass
    else:  # pragma: no cover - a venv that has them runs the check itself
        return
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0 and "pip install transformers accelerate" in done.stderr
