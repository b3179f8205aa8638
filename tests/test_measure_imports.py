"""Import hygiene: the modules the UI and the content checker import never import torch (or textual)."""

from __future__ import annotations

import subprocess
import sys


def test_light_modules_do_not_import_torch() -> None:
    code = (
        "import sys\n"
        "import tutor.measure, tutor.measure.worker, tutor.measure.registry, tutor.theory.formulas\n"
        "import tutor.measure.specs, tutor.measure.roofline_model, tutor.measure.bench_report, tutor.measure.api\n"
        "import tutor.measure.errors, tutor.commands.bench\n"
        "tutor.measure.registry.validate_params('gemm', {'m': 64})\n"
        "tutor.measure.registry.validate_vram_params({})\n"
        "bad = [m for m in ('torch', 'numpy', 'textual') if m in sys.modules]\n"
        "print(bad)\n"
        "raise SystemExit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
