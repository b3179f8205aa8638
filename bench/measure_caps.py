"""How the measurement plans' estimates compare with real runs (issue 10 item 4: the caps must bound reality).

    .venv/bin/python bench/measure_caps.py [--quick]

For each request: the plan's estimated seconds (at the deliberately slow rates of ``tutor.measure.plan.RATES``),
its time limit, and the measured wall time of ``run_request`` on this machine (the roofline measured once first,
in tiny mode, so it is cached and not counted); for workloads also the estimated peak bytes next to the peak of
live torch storages while the inputs are drawn and the kernel runs twice (``LiveStorageTracker``). A ratio
estimate/measured below 1 would mean the estimate does not bound the run.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from typing import Any

REQUESTS: list[dict[str, Any]] = [
    {"op": "workload", "name": "gemm", "params": {"m": 2048, "n": 2048, "k": 2048, "dtype": "float32"}},
    {"op": "workload", "name": "gemm", "params": {"m": 2048, "n": 2048, "k": 2048, "dtype": "bfloat16"}},
    {"op": "workload", "name": "gemm", "params": {"m": 1024, "n": 1024, "k": 1024, "dtype": "float16"}},
    {"op": "workload", "name": "attention_naive",
     "params": {"batch": 1, "heads": 8, "seq_len": 2048, "head_dim": 64, "dtype": "bfloat16"}},
    {"op": "workload", "name": "softmax", "params": {"rows": 8192, "cols": 4096, "dtype": "float16"}},
    {"op": "workload", "name": "triad", "params": {"n": 2**26, "dtype": "float32"}},
    {"op": "workload", "name": "matmul_python", "params": {"n": 96}},
    {"op": "sweep", "name": "working_set", "params": {"min_kib": 16, "max_mib": 512}},
    {"op": "sweep", "name": "gemm_sizes", "params": {"min_n": 32, "max_n": 2048, "points": 7}},
    {"op": "sweep", "name": "naive_vs_numpy", "params": {"max_naive_n": 128, "max_n": 1024}},
    {"op": "sweep", "name": "gemm_share", "params": {"max_batch": 8, "steps": 1}},
    {"op": "vram", "params": {"preset": "llama-3-8b", "mode": "training", "seq_len": 8192}},
    {"op": "decode"},
    {"op": "train_step"},
]


def live_peak(name: str, params: dict[str, Any]) -> int:
    from tutor.measure import kernels
    from tutor.measure.registry import validate_params
    from tutor.measure.vram import LiveStorageTracker

    tracker = LiveStorageTracker()
    with tracker:
        fn = kernels.build(name, validate_params(name, params), "cpu")
        fn()
        fn()
        del fn
    return tracker.peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="workloads only")
    args = parser.parse_args()
    os.environ.setdefault("TUTOR_DATA_DIR", tempfile.mkdtemp(prefix="tutor-caps-"))
    from tutor.measure.api import run_request
    from tutor.measure.plan import parse_request

    run_request({"op": "roofline", "device": "cpu", "mode": "tiny"})
    print(f"{'request':58} {'est s':>7} {'limit s':>8} {'ran s':>7} {'est/ran':>7} {'est MiB':>8} {'live MiB':>8}")
    for request in REQUESTS:
        if args.quick and request["op"] != "workload":
            continue
        full = {**request, "device": "cpu"}
        if request["op"] in ("workload", "sweep", "decode", "train_step"):
            full["roofline_mode"] = "tiny"
        plan = parse_request(full)
        est = plan.estimate
        start = time.perf_counter()
        run_request(full)
        ran = time.perf_counter() - start
        torch_kernel = request["op"] == "workload" and not request["name"].startswith("matmul_")
        live = live_peak(request["name"], request["params"]) if torch_kernel else None  # torch storages only
        label = f"{request['op']} {request.get('name', '')} {request.get('params', '')}"[:58]
        live_text = f"{live / 2**20:8.1f}" if live is not None else f"{'—':>8}"
        print(f"{label:58} {est.seconds:7.1f} {plan.time_limit_s:8.0f} {ran:7.2f} {est.seconds / ran:7.1f} "
              f"{est.peak_bytes / 2**20:8.1f} {live_text}", flush=True)


if __name__ == "__main__":
    main()
