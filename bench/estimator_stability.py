"""Which estimator reproduces better? The same rounds, several estimators, compared across fresh processes.

Each process (``--processes``, default 3) builds the quick bench's training step and a stand-in for decode's
weights (``--weights-mib`` of fp32 matrices read by one-token GEMVs, as the decode bound reads them), then runs
``--rounds`` interleaved rounds: a few fp32 and bf16 matmuls (the other figures' slices), ``--steps`` training
steps, and ``--passes`` passes over the weights. From the same rounds it computes, per figure, the old and the new
estimator:

- training tokens/s: old = median over rounds of the round's first step (one step per round, GC on);
  new = median over rounds of the best of the round's steps (GC off during the rounds);
- weights read GB/s: old = the best pass of a one-second block after the rounds;
  new = median over rounds of each round's best pass.

and prints each process's values, then per estimator the CV across processes (run-to-run noise: what decides
whether two ``tutor bench`` runs agree) and the mean CV across rounds within a process. Since old and new come from
the same processes under the same load, the comparison is fair on a shared machine. Run::

    .venv/bin/python bench/estimator_stability.py [--processes 3] [--rounds 7] [--steps 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys


def child(rounds: int, steps: int, passes: int, weights_mib: int) -> dict[str, float]:
    import gc
    import time

    import torch
    from torch.nn import functional as F

    from tutor.measure import kernels
    from tutor.measure.estimators import cv, interleave
    from tutor.measure.model import TrainRig
    from tutor.measure.registry import GemmParams

    rig = TrainRig("cpu", "quick")
    rig.step()
    f32 = kernels.build("gemm", GemmParams(m=1024, n=1024, k=1024, dtype="float32"), "cpu")
    bf16 = kernels.build("gemm", GemmParams(m=2048, n=2048, k=2048, dtype="bfloat16"), "cpu")
    for _ in range(4):
        bf16()
    side = 2048
    mats = [torch.randn(side, side) for _ in range(max(1, weights_mib * 2**20 // (side * side * 4)))]
    x = torch.randn(1, 1, side)
    read_bytes = sum(m.numel() * 4 for m in mats)

    def one_pass() -> float:
        t0 = time.perf_counter()
        with torch.inference_mode():
            for m in mats:
                F.linear(x, m)
        return time.perf_counter() - t0

    one_pass()
    tokens = rig.batch * rig.seq
    first: list[float] = []
    best: list[float] = []
    read_best: list[float] = []

    def others() -> float:
        for _ in range(2):
            f32()
        for _ in range(6):
            bf16()
        return 0.0

    def train() -> float:
        times = [rig.step() for _ in range(steps)]
        first.append(tokens / times[0])
        best.append(tokens / min(times))
        return best[-1]

    def read() -> float:
        read_best.append(read_bytes / min(one_pass() for _ in range(passes)) / 1e9)
        return read_best[-1]

    interleave([("others", others), ("train", train), ("read", read)], rounds)
    gc.enable()
    block: list[float] = []
    t_end = time.perf_counter() + 1.0
    while time.perf_counter() < t_end or len(block) < 3:
        block.append(one_pass())
    return {"train_old": statistics.median(first), "train_new": statistics.median(best),
            "train_old_own_cv": cv(first), "train_new_own_cv": cv(best),
            "read_old": read_bytes / min(block) / 1e9, "read_new": statistics.median(read_best),
            "read_old_own_cv": cv([read_bytes / t / 1e9 for t in block]), "read_new_own_cv": cv(read_best)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--weights-mib", type=int, default=256)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.rounds, args.steps, args.passes, args.weights_mib)))
        return 0
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs", flush=True)
    results = []
    for i in range(args.processes):
        out = subprocess.run([sys.executable, __file__, "--child", "--rounds", str(args.rounds), "--steps",
                              str(args.steps), "--passes", str(args.passes), "--weights-mib", str(args.weights_mib)],
                             capture_output=True, text=True, check=True)
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(f"process {i + 1}: " + ", ".join(f"{k} {v:.4g}" for k, v in results[-1].items()) +
              f"; load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"{'estimator':<12} {'median':>10} {'CV across processes':>20} {'mean CV across rounds':>22}")
    for key in ("train_old", "train_new", "read_old", "read_new"):
        values = [r[key] for r in results]
        spread = statistics.stdev(values) / statistics.fmean(values) if len(values) > 1 else 0.0
        own = statistics.fmean(r[f"{key}_own_cv"] for r in results)
        print(f"{key:<12} {statistics.median(values):>10.4g} {spread * 100:>19.1f}% {own * 100:>21.1f}%")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
