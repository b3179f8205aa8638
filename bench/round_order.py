"""Why do a run's rounds differ? Every step of every round timed, in several round orders, inside one process.

Builds the quick bench's round workloads exactly as ``tutor bench`` does (:mod:`tutor.measure.bench_rounds`: STREAM
copy on its arrays, each dtype's matmul at the size the probe picks, the training step after its warm-up), then runs
blocks of rounds, each block in one order, alternating the orders block by block so that every order sees the same
load. It prints each round's per-call times (training: each step's tok/s; matmuls: each call's GFLOP/s) and, per order
and figure, the median round value and the CV across rounds — the figure's "own CV" in the bench report. A within-
process A/B is robust to other work on the machine; whole-bench timing is not. Run::

    .venv/bin/python bench/round_order.py [--rounds 7] [--blocks 2] [--orders default,train-first,train-alone]

Orders (names for --orders): default = bandwidth, fp32, fp64, bf16, training (the bench's); train-first = training,
bandwidth, fp32, fp64, bf16; after-fp64 = bandwidth, bf16, fp32, fp64, training; train-alone = training only;
no-bw = fp32, fp64, bf16, training.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

ORDERS = {
    "default": ["bandwidth", "matmul float32", "matmul float64", "matmul bfloat16", "training"],
    "train-first": ["training", "bandwidth", "matmul float32", "matmul float64", "matmul bfloat16"],
    "after-fp64": ["bandwidth", "matmul bfloat16", "matmul float32", "matmul float64", "training"],
    "train-alone": ["training"],
    "no-bw": ["matmul float32", "matmul float64", "matmul bfloat16", "training"],
    "bw-last": ["matmul float32", "matmul float64", "matmul bfloat16", "training", "bandwidth"],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--blocks", type=int, default=2)
    parser.add_argument("--orders", default="default,train-first,train-alone")
    parser.add_argument("--steps", type=int, default=None, help="training steps per round (default: the mode's)")
    parser.add_argument("--mode", default="quick")
    args = parser.parse_args()
    orders = args.orders.split(",")

    import gc

    import torch

    from tutor.measure import bench_rounds
    from tutor.measure.estimators import cv, interleave
    from tutor.measure.model import TrainRig
    from tutor.measure.roofline import MODES

    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads", flush=True)
    rcfg = MODES[args.mode]
    steps = args.steps or rcfg["train_round_steps"]
    log: dict[str, list[float]] = {}

    def logged(name: str, task: Callable[[], float]) -> Callable[[], float]:
        def run() -> float:
            t0 = time.perf_counter()
            value = task()
            log.setdefault(name, []).append(time.perf_counter() - t0)
            return value
        return run

    def quiet(_fraction: float, _message: object) -> None:
        return None

    tasks: dict[str, Callable[[], float]] = {}
    copy_task, _bw, _samples = bench_rounds._copy_task("cpu", args.mode, None, None, quiet)
    tasks["bandwidth"] = copy_task
    for dtype in ("float32", "float64", "bfloat16"):
        task, info = bench_rounds._gemm_task("cpu", dtype, args.mode, None, quiet)
        print(f"matmul {dtype}: n={info['n']}, {info['calls_per_round']} calls per round", flush=True)
        tasks[f"matmul {dtype}"] = task
    rig = TrainRig("cpu", args.mode, "float32")
    for _ in range(rcfg["train_warmup_steps"]):
        rig.step()
    tokens = rig.batch * rig.seq
    step_log: list[list[float]] = []

    def train() -> float:
        times = [rig.step() for _ in range(steps)]
        step_log.append(times)
        return tokens / min(times)

    tasks["training"] = train
    results: dict[str, dict[str, list[float]]] = {o: {} for o in orders}
    step_rows: dict[str, list[list[float]]] = {o: [] for o in orders}
    for block in range(args.blocks):
        for order in (orders if block % 2 == 0 else orders[::-1]):
            names = ORDERS[order]
            step_log.clear()
            figures = interleave([(n, logged(n, tasks[n])) for n in names], args.rounds)
            for name, fig in figures.items():
                results[order].setdefault(name, []).extend(fig.values)
            step_rows[order].extend(list(s) for s in step_log)
            print(f"block {block + 1} {order:<12} training steps (tok/s): " +
                  " | ".join(" ".join(f"{tokens / s:5.0f}" for s in r) for r in step_log) +
                  f"; load {os.getloadavg()[0]:.1f}", flush=True)
            gc.collect()
    print(f"\n{'order':<12} {'figure':<16} {'median':>10} {'own CV':>8}   (round values: best call/step per round)")
    for order in orders:
        for name, values in results[order].items():
            print(f"{order:<12} {name:<16} {statistics.median(values):>10.4g} {cv(values) * 100:>7.1f}%   " +
                  " ".join(f"{v:.4g}" for v in values))
        rows = step_rows[order]
        if rows and len(rows[0]) > 1:
            for i in range(len(rows[0])):
                col = [tokens / r[i] for r in rows]
                print(f"{order:<12} {'step ' + str(i + 1):<16} {statistics.median(col):>10.4g} {cv(col) * 100:>7.1f}%"
                      "   (that step of every round, tok/s)")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
