"""The roofline the CLI tests put in the cache before measuring, so each run times only its cheap workload."""

from __future__ import annotations

from tutor.measure.roofline_model import ROOFLINE_FORMAT

# Roofs no CPU here beats (a measurement above its roof would have the roofline measured again), ridge 5.
ROOF = {"peak_bandwidth_gbs": 320.0, "peak_gflops": {"float32": 1600.0}, "peak_tflops": {"float32": 1.6},
        "ridge_flops_per_byte": {"float32": 5.0}, "ridge_point": 5.0, "datasheet": None,
        "device": {"kind": "cpu", "name": "test", "fingerprint": "x"}, "format": ROOFLINE_FORMAT}
