"""Where does a matmul peak's run-to-run spread come from? Fresh processes, the same rounds, three estimators.

Each of ``--processes`` fresh processes allocates ``--rounds`` pairs of ``--n``² matrices of ``--dtype`` (with
spacer allocations of random sizes between them, so that each pair lands on other physical pages), warms them up,
and runs ``--rounds`` rounds. In each round it times, as ``tutor bench`` does (a round's value the best of the calls
that fill a slice):

- ``fixed``: the first pair, a 0.1 s slice (the bench's estimator);
- ``rotating``: round r's own pair, a 0.1 s slice: if where the matrices land in memory (cache sets, pages)
  decided a process's speed, this would turn a process's offset into round-to-round spread, and the median over
  the rounds would average it away;
- ``long slice``: the first pair, a 0.4 s slice: if short interruptions decided it, a longer best-of would
  remove them.

It prints each process's medians, then per estimator the CV across processes (what decides whether two runs
agree) and the mean CV across a process's rounds (the noise a run can see in itself). When ``fixed`` and
``rotating`` move together process by process, and the long slice does no better, the spread is the machine's
speed drifting between processes (another tenant of the host, the clock), which no in-process estimator removes.
Run::

    .venv/bin/python bench/matmul_drift.py [--processes 8] [--dtype bfloat16] [--n 2048] [--rounds 7]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

ESTIMATORS = ("fixed", "rotating", "long slice")


def child(dtype_name: str, n: int, rounds: int) -> dict[str, list[float]]:
    import random
    import time

    import torch

    dtype = getattr(torch, dtype_name)
    pairs, spacers = [], []
    for _ in range(rounds):
        spacers.append(torch.ones(random.randint(1, 4096) * 1031, dtype=torch.float32))
        pairs.append((torch.randn(n, n, dtype=dtype), torch.randn(n, n, dtype=dtype)))

    def call(pair: tuple[torch.Tensor, torch.Tensor]) -> float:
        t0 = time.perf_counter()
        torch.mm(*pair)
        return time.perf_counter() - t0

    for pair in pairs:
        for _ in range(3):
            call(pair)
    per_call = min(call(pairs[0]) for _ in range(3))
    flops = 2 * n ** 3

    def best_of(pair: tuple[torch.Tensor, torch.Tensor], slice_s: float) -> float:
        calls = max(2, round(slice_s / per_call))
        return flops / min(call(pair) for _ in range(calls)) / 1e9

    values: dict[str, list[float]] = {name: [] for name in ESTIMATORS}
    for r in range(rounds):
        values["fixed"].append(best_of(pairs[0], 0.1))
        values["rotating"].append(best_of(pairs[r], 0.1))
        values["long slice"].append(best_of(pairs[0], 0.4))
    return values


def cv(values: list[float]) -> float:
    return statistics.stdev(values) / statistics.fmean(values) if len(values) > 1 else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--n", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.dtype, args.n, args.rounds)))
        return 0
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; {args.dtype} {args.n}³, "
          f"{args.rounds} rounds per process, GFLOP/s")
    runs = []
    for i in range(args.processes):
        out = subprocess.run([sys.executable, __file__, "--child", "--dtype", args.dtype, "--n", str(args.n),
                              "--rounds", str(args.rounds)], capture_output=True, text=True, check=True)
        run = json.loads(out.stdout)
        runs.append(run)
        print(f"process {i + 1}: " + "  ".join(f"{name} {statistics.median(run[name]):7.1f}" for name in ESTIMATORS),
              flush=True)
    print(f"{'estimator':<12} {'median':>9} {'CV across processes':>20} {'mean CV within':>15}")
    for name in ESTIMATORS:
        medians = [statistics.median(r[name]) for r in runs]
        within = statistics.fmean(cv(r[name]) for r in runs)
        print(f"{name:<12} {statistics.median(medians):>9.1f} {cv(medians) * 100:>19.1f}% {within * 100:>14.1f}%")
    fixed = [statistics.median(r["fixed"]) for r in runs]
    rotating = [statistics.median(r["rotating"]) for r in runs]
    if len(runs) > 2:
        print(f"correlation of fixed and rotating across processes: {statistics.correlation(fixed, rotating):.2f}")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
