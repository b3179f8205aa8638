"""The tutor's bandwidth roof beside the reference STREAM, measured in one run.

    .venv/bin/python bench/stream_compare.py [--array-mib 2048] [--runs 3] [--threads N] [--mode quick]

Builds the vendored STREAM (``bench/stream/stream.c``, McCalpin's v5.10, licence in ``bench/stream/LICENSE``) with
``gcc -O3 -march=native -fopenmp`` (and ``-mcmodel=medium``, which arrays over 2 GiB in total need), runs it with
``OMP_NUM_THREADS`` = all cores (or ``--threads``) on arrays of ``--array-mib`` MiB each, and runs the tutor's
bandwidth kernels — :func:`tutor.measure.roofline.measure_bandwidth`, what the roof, ``tutor bench`` and Lab 01
share — before, between and after the STREAM runs (tutor, STREAM, tutor, STREAM, …, tutor). Each side's figure is
its best over the runs (other programs on a shared machine only ever slow a run down), and the script prints the
ratios tutor ÷ STREAM for copy and triad, with the load average at each run.

Both sides count bytes as STREAM does (copy 2 words per element, triad 3; write-allocate traffic not counted);
STREAM's arrays are doubles, the tutor's float32 (the bandwidth does not depend on the element type). ``--bench``
also runs a whole ``tutor bench`` (``--mode``) in the middle and prints its bandwidth headline and triad.

``--same-moments SECONDS`` adds the closest comparison: STREAM's copy and triad loops (the same C, the same gcc
flags, built as a shared library) and the tutor's kernels, called in turn on the same arrays in one process for
that long; per window of a few calls each, the ratio tutor ÷ STREAM loop, with the cores other programs kept busy.
On a shared VM the machine's speed wanders (other programs, and the host's other guests, which no reading inside
the VM shows); called in turn, both sides see the same moments, so the ratio isolates the kernels themselves.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "stream" / "stream.c"
sys.path.insert(0, str(HERE.parent))

KERNELS = ("copy", "triad")
_ROW = re.compile(r"^(Copy|Scale|Add|Triad):\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", re.MULTILINE)


def compile_stream(build_dir: Path, elements: int, ntimes: int, cc: str) -> Path:
    """``stream.c`` compiled for ``elements`` doubles per array; returns the binary's path."""
    binary = build_dir / f"stream_{elements}"
    cmd = [cc, "-O3", "-march=native", "-fopenmp", "-mcmodel=medium", f"-DSTREAM_ARRAY_SIZE={elements}",
           f"-DNTIMES={ntimes}", str(SOURCE), "-o", str(binary)]
    subprocess.run(cmd, check=True)
    return binary


def run_stream(binary: Path, threads: int) -> dict[str, float]:
    """One STREAM run: each kernel's best rate in GB/s (STREAM prints MB/s of 10⁶ bytes)."""
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    done = subprocess.run([str(binary)], env=env, check=True, capture_output=True, text=True)
    if "Solution Validates" not in done.stdout:
        raise RuntimeError("STREAM did not validate:\n" + done.stdout)
    rates = {m.group(1).lower(): float(m.group(2)) / 1e3 for m in _ROW.finditer(done.stdout)}
    if not all(k in rates for k in KERNELS):
        raise RuntimeError("could not read STREAM's output:\n" + done.stdout)
    return rates


_LOOPS_C = r"""
#include <stddef.h>
void stream_copy(const float *a, float *c, long n) {
#pragma omp parallel for
    for (long j = 0; j < n; j++) c[j] = a[j];
}
void stream_triad(const float *a, const float *b, float *c, float s, long n) {
#pragma omp parallel for
    for (long j = 0; j < n; j++) c[j] = a[j] + s * b[j];
}
"""


def same_moments(build_dir: Path, cc: str, seconds: float, array_bytes: int | None) -> dict[str, Any]:
    """STREAM's loops (as a shared library) and the tutor's kernels in turn on the same arrays, windows of 3
    calls each: per window the best of each, and the ratios' median over the windows where other programs kept
    under 0.15 cores busy (all windows when there are none)."""
    import ctypes
    import statistics

    from tutor.measure import kernels, roofline
    from tutor.measure.interference import between, read_counters
    from tutor.measure.registry import StreamParams

    source = build_dir / "stream_loops.c"
    source.write_text(_LOOPS_C)
    lib_path = build_dir / "libstream_loops.so"
    subprocess.run([cc, "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", str(source), "-o", str(lib_path)],
                   check=True)
    lib = ctypes.CDLL(str(lib_path))
    size = array_bytes or roofline.stream_array_bytes("cpu", "quick")
    n = size // 4
    fns = kernels.stream_set(("copy", "triad"), StreamParams(n=n, dtype="float32"), "cpu")
    c = fns["copy"]()  # the closures' output array (copy returns it)
    a = c.clone()  # equal to the closures' input ``a``; the C loops read these two
    b = (fns["triad"]() - a) / kernels.STREAM_SCALAR
    out_c = c.clone()
    ptr = ctypes.c_void_p
    loops = {"copy": lambda: lib.stream_copy(ptr(a.data_ptr()), ptr(out_c.data_ptr()), ctypes.c_long(n)),
             "triad": lambda: lib.stream_triad(ptr(a.data_ptr()), ptr(b.data_ptr()), ptr(out_c.data_ptr()),
                                               ctypes.c_float(kernels.STREAM_SCALAR), ctypes.c_long(n))}
    gigabytes = {"copy": 2 * n * 4 / 1e9, "triad": 3 * n * 4 / 1e9}
    for k in KERNELS:
        for _ in range(2):
            fns[k]()
            loops[k]()
    windows: list[dict[str, float]] = []
    cpus = os.cpu_count() or 1
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = read_counters()
        best: dict[str, float] = {}
        for _ in range(3):
            for k in KERNELS:
                for side, fn in (("tutor", fns[k]), ("stream", loops[k])):
                    t0 = time.perf_counter()
                    fn()
                    rate = gigabytes[k] / (time.perf_counter() - t0)
                    best[f"{side}_{k}"] = max(best.get(f"{side}_{k}", 0.0), rate)
        windows.append({**best, "other_cores": between(start, read_counters(), cpus).other_cores})
    quiet = [w for w in windows if w["other_cores"] < 0.15] or windows
    return {"array_bytes": n * 4, "windows": len(windows), "quiet_windows": len(quiet),
            **{f"ratio_{k}": statistics.median(w[f"tutor_{k}"] / w[f"stream_{k}"] for w in quiet) for k in KERNELS},
            **{f"{side}_{k}_best": max(w[f"{side}_{k}"] for w in quiet) for side in ("tutor", "stream")
               for k in KERNELS}}


def run_tutor(mode: str, array_bytes: int | None) -> dict[str, Any]:
    """The tutor's bandwidth kernels as the roof measures them (copy and triad, whatever the mode lists)."""
    from tutor.measure import roofline

    cfg = roofline.MODES[mode]
    kernels = tuple(dict.fromkeys((*cfg["stream_kernels"], *KERNELS)))
    saved = cfg["stream_kernels"]
    cfg["stream_kernels"] = kernels  # triad is not in every mode's list; the comparison needs it
    try:
        bw = roofline.measure_bandwidth("cpu", mode, array_bytes=array_bytes)
    finally:
        cfg["stream_kernels"] = saved
    return {"array_bytes": bw["array_bytes"], "threads": bw.get("threads"),
            "rounds_other_cores": bw.get("rounds_other_cores"),
            **{k: bw["kernels"][k]["gbs_best"] for k in KERNELS},
            **{f"{k}_round_median": bw["kernels"][k]["gbs_round_median"] for k in KERNELS}}


def load() -> float:
    return round(os.getloadavg()[0], 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--array-mib", type=int, default=2048, help="STREAM's array size, MiB each (default 2048)")
    parser.add_argument("--tutor-array-mib", type=int, default=None,
                        help="the tutor's array size, MiB each (default: the roof's own size for --mode)")
    parser.add_argument("--runs", type=int, default=5, help="STREAM runs; the tutor runs once more (default 5)")
    parser.add_argument("--ntimes", type=int, default=10, help="STREAM's NTIMES (default 10)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="OMP_NUM_THREADS for STREAM (default: all cores)")
    parser.add_argument("--mode", default="quick", choices=["quick", "full"], help="the roof's mode (default quick)")
    parser.add_argument("--bench", action="store_true", help="also run a whole tutor bench in the middle")
    parser.add_argument("--same-moments", type=float, default=0.0, metavar="SECONDS",
                        help="also call STREAM's loops and the tutor's kernels in turn in one process for SECONDS")
    parser.add_argument("--cc", default=os.environ.get("CC", "gcc"), help="the C compiler (default gcc)")
    parser.add_argument("--build-dir", type=Path, default=None, help="where to build STREAM (default: a temp dir)")
    parser.add_argument("--json", action="store_true", help="print everything as JSON at the end")
    args = parser.parse_args()
    if shutil.which(args.cc) is None:
        print(f"no C compiler {args.cc!r} here: STREAM cannot be built", file=sys.stderr)
        return 2

    import torch

    elements = args.array_mib * 2**20 // 8
    tutor_bytes = args.tutor_array_mib * 2**20 if args.tutor_array_mib else None
    with tempfile.TemporaryDirectory() as tmp:
        build = args.build_dir or Path(tmp)
        build.mkdir(parents=True, exist_ok=True)
        binary = compile_stream(build, elements, args.ntimes, args.cc)
        print(f"STREAM v5.10: {args.cc} -O3 -march=native -fopenmp, {args.array_mib} MiB × 3 arrays (double), "
              f"NTIMES={args.ntimes}, OMP_NUM_THREADS={args.threads}")
        print(f"tutor: torch {torch.__version__}, {torch.get_num_threads()} threads, {os.cpu_count()} CPUs, "
              f"roof mode {args.mode}")
        stream_runs: list[dict[str, Any]] = []
        tutor_runs: list[dict[str, Any]] = []
        bench: dict[str, Any] | None = None
        moments: dict[str, Any] | None = None
        if args.same_moments > 0:
            moments = same_moments(build, args.cc, args.same_moments, tutor_bytes)
            print(f"  same moments ({moments['windows']} windows, {moments['quiet_windows']} quiet, "
                  f"{moments['array_bytes'] / 2**20:.0f} MiB arrays, load {load()}): tutor ÷ STREAM loop per "
                  f"window, median: copy {moments['ratio_copy']:.3f}, triad {moments['ratio_triad']:.3f}; best "
                  f"tutor {moments['tutor_copy_best']:.1f} / {moments['tutor_triad_best']:.1f}, STREAM loop "
                  f"{moments['stream_copy_best']:.1f} / {moments['stream_triad_best']:.1f} GB/s", flush=True)
        for i in range(args.runs + 1):
            t = {"load": load(), **run_tutor(args.mode, tutor_bytes)}
            tutor_runs.append(t)
            print(f"  tutor  run {i + 1}: copy {t['copy']:6.1f}  triad {t['triad']:6.1f} GB/s "
                  f"(rounds' median {t['copy_round_median']:.1f} / {t['triad_round_median']:.1f}; "
                  f"{t['array_bytes'] / 2**20:.0f} MiB arrays; other programs' cores per round "
                  f"{t['rounds_other_cores']}; load {t['load']})", flush=True)
            if args.bench and i == args.runs // 2:
                from tutor.measure.bench import run_bench

                report = run_bench(args.mode, "cpu").to_json()
                kernels = report["tests"]["bandwidth"]["kernels"]
                bench = {"load": load(), "copy": report["headline"]["peak_bandwidth_gbs"],
                         "triad": kernels.get("triad", {}).get("gbs_best")}
                print(f"  bench --{args.mode}: copy {bench['copy']:6.1f}  triad {bench['triad'] or 0:6.1f} GB/s "
                      f"(load {bench['load']})", flush=True)
            if i < args.runs:
                s = {"load": load(), **run_stream(binary, args.threads)}
                stream_runs.append(s)
                print(f"  STREAM run {i + 1}: copy {s['copy']:6.1f}  triad {s['triad']:6.1f} GB/s "
                      f"(scale {s['scale']:.1f}, add {s['add']:.1f}; load {s['load']})", flush=True)
    best_stream = {k: max(r[k] for r in stream_runs) for k in KERNELS}
    best_tutor = {k: max(r[k] for r in tutor_runs) for k in KERNELS}
    print(f"best of the runs (load now {load()}):")
    for k in KERNELS:
        line = (f"  {k:<6} tutor {best_tutor[k]:6.1f} GB/s   STREAM {best_stream[k]:6.1f} GB/s   "
                f"ratio {best_tutor[k] / best_stream[k]:.3f}")
        if bench and bench.get(k):
            line += f"   (bench {bench[k]:.1f}, ratio {bench[k] / best_stream[k]:.3f})"
        print(line)
    if args.json:
        print(json.dumps({"stream": stream_runs, "tutor": tutor_runs, "bench": bench, "same_moments": moments,
                          "best_stream": best_stream,
                          "best_tutor": best_tutor,
                          "ratio": {k: best_tutor[k] / best_stream[k] for k in KERNELS},
                          "created_at": time.time()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
