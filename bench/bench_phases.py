"""Where does ``tutor bench --quick`` spend its time? Each progress phase's wall and CPU seconds, in one process.

Runs :func:`tutor.measure.bench.run_bench` as the CLI does and records, at every progress message, the wall clock
and the process's CPU time (all threads): a phase's CPU seconds are robust to other work on a shared machine (its
wall seconds are not), and CPU ÷ wall near the thread count says a phase keeps every core busy. Also prints the
time to import torch and the tutor CLI before measuring. Run::

    .venv/bin/python bench/bench_phases.py [--mode quick]
"""

from __future__ import annotations

import argparse
import itertools
import os
import time

T0_WALL, T0_CPU = time.perf_counter(), time.process_time()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="quick")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs", flush=True)
    import torch  # noqa: F401

    import tutor.cli  # noqa: F401
    from tutor.measure.bench import run_bench

    print(f"imports (torch, tutor.cli, tutor.measure.bench): {time.perf_counter() - T0_WALL:.2f} s wall, "
          f"{time.process_time() - T0_CPU:.2f} s CPU", flush=True)
    marks: list[tuple[float, float, str]] = []

    def progress(_fraction: float, said: object) -> None:
        render = getattr(said, "render", None)
        text = render("en") if callable(render) else str(said)
        if marks and marks[-1][2] == text:
            return
        marks.append((time.perf_counter(), time.process_time(), text))

    w0, c0 = time.perf_counter(), time.process_time()
    report = run_bench(args.mode, "cpu", progress)
    w1, c1 = time.perf_counter(), time.process_time()
    marks.append((w1, c1, "(end)"))
    print(f"{'wall s':>7} {'CPU s':>7}  phase (from this message to the next)")
    for (wa, ca, text), (wb, cb, _) in itertools.pairwise(marks):
        if wb - wa >= 0.05:
            print(f"{wb - wa:7.2f} {cb - ca:7.2f}  {text[:110]}")
    print(f"run_bench: {w1 - w0:.2f} s wall, {c1 - c0:.2f} s CPU (report's duration {report.duration_s or 0:.1f} s)")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
