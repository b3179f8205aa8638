"""The CLI in tests: the roofline they put in the cache before measuring (so each run times only its cheap
workload), and ``tutor ARGS`` run in this process."""

from __future__ import annotations

import contextlib
import io

from tutor.measure.roofline_model import ROOFLINE_FORMAT

# Roofs no CPU here beats (a measurement above its roof would have the roofline measured again), ridge 5.
ROOF = {"peak_bandwidth_gbs": 320.0, "peak_gflops": {"float32": 1600.0}, "peak_tflops": {"float32": 1.6},
        "ridge_flops_per_byte": {"float32": 5.0}, "ridge_point": 5.0, "datasheet": None,
        "device": {"kind": "cpu", "name": "test", "fingerprint": "x"}, "format": ROOFLINE_FORMAT}


def run_cli(args: list[str]) -> tuple[int, str, str]:
    """``tutor ARGS`` in this process: the exit status, stdout and stderr (through the CLI's own streams)."""
    from tutor.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(args)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
    return status, out.getvalue(), err.getvalue()
