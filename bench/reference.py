"""Hand-written reference figures next to `tutor bench`'s, measured in the same run.

    .venv/bin/python bench/reference.py [--mode quick|full] [--device cpu|cuda]

The references are written the plain way, independent of tutor.measure: a copy of large arrays (512 MiB each,
well over 4× a 32 MiB last-level cache) with torch ``copy_`` and with ``numpy.copyto``, best of many, counting
read + write (2 words per element, as STREAM does); and ``torch.mm`` of 512², 1024² and 2048² fp32 matrices
(2048²–8192² on a GPU), best of many at the best size. They run before and after the bench (so a machine that
changes speed mid-run shows up as a spread), and the script prints each bench headline figure as a ratio of the
best reference.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import torch


def best_of(fn: Any, repeats: int, sync: Any = None) -> float:
    fn()
    if sync:
        sync()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        if sync:
            sync()
        best = min(best, time.perf_counter() - t0)
    return best


def torch_copy_gbs(n: int, device: str, sync: Any) -> float:
    a = torch.rand(n, device=device) + 0.5
    b = torch.empty_like(a)
    return 2 * n * 4 / best_of(lambda: b.copy_(a), 12, sync) / 1e9


def numpy_copy_gbs(n: int) -> float:
    x = np.random.default_rng(0).random(n, dtype=np.float32) + 0.5
    y = np.empty_like(x)
    return 2 * n * 4 / best_of(lambda: np.copyto(y, x), 10) / 1e9


def torch_mm_gflops(m: int, device: str, sync: Any) -> float:
    p = torch.rand(m, m, device=device) + 0.5
    q = torch.rand(m, m, device=device) + 0.5
    r = torch.empty(m, m, device=device)
    return 2 * m**3 / best_of(lambda: torch.mm(p, q, out=r), 10, sync) / 1e9


def references(device: str) -> dict[str, float]:
    sync = torch.cuda.synchronize if device == "cuda" else None
    n = (2 << 30 if device == "cuda" else 512 << 20) // 4
    out = {"torch_copy_gbs": torch_copy_gbs(n, device, sync)}
    if device == "cpu":
        out["numpy_copy_gbs"] = numpy_copy_gbs(n)
    sizes = (2048, 4096, 8192) if device == "cuda" else (512, 1024, 2048)
    for m in sizes:
        out[f"torch_mm_fp32_{m}_gflops"] = torch_mm_gflops(m, device, sync)
    out["torch_mm_fp32_gflops"] = max(out[f"torch_mm_fp32_{m}_gflops"] for m in sizes)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="quick", choices=["quick", "full"])
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--json", action="store_true", help="print everything as JSON")
    args = parser.parse_args()

    from tutor.measure.bench import run_bench

    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, device {args.device}")
    before = references(args.device)
    t0 = time.perf_counter()
    report = run_bench(args.mode, args.device)
    bench_s = time.perf_counter() - t0
    after = references(args.device)
    best = {k: max(before[k], after[k]) for k in before}
    head = report["headline"]
    bw, mm = head["peak_bandwidth_gbs"], head["peak_flops_tflops"]["float32"] * 1e3
    rows = [
        ("bandwidth vs torch copy_", bw, best["torch_copy_gbs"], "GB/s"),
        ("fp32 GEMM vs torch.mm", mm, best["torch_mm_fp32_gflops"], "GFLOP/s"),
    ]
    if "numpy_copy_gbs" in best:
        rows.insert(1, ("bandwidth vs numpy.copyto", bw, best["numpy_copy_gbs"], "GB/s"))
    if args.json:
        print(json.dumps({"before": before, "after": after, "headline": head, "cv": report["cv"],
                          "bench_s": bench_s}, indent=1))
        return
    print(f"references before: {json.dumps({k: round(v, 1) for k, v in before.items()})}")
    print(f"references after:  {json.dumps({k: round(v, 1) for k, v in after.items()})}")
    print(f"tutor bench --{args.mode}: {bench_s:.1f} s")
    for label, mine, ref, unit in rows:
        print(f"  {label:<28} bench {mine:8.1f} {unit:<8} reference {ref:8.1f}  ratio {mine / ref:.3f}")
    print("  headline:", json.dumps({k: v for k, v in head.items()}, default=lambda x: x))
    print("  cv:", json.dumps(report["cv"]))


if __name__ == "__main__":
    main()
