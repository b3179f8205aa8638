"""The same bound prediction graded several times on this machine, quiet and beside busy loops (issue 26, "done
when"): it must never be graded both right and wrong (inconclusive is allowed).

    .venv/bin/python bench/verdict_repeat.py [--exercise ID] [--predict memory] [--quiet 2] [--busy 3]
                                             [--loops 2] [--roofline-mode quick]

Each run is ``tutor exercise run ID --predict … --json`` in a fresh process; all runs share one fresh data dir
(one roof per machine, as a learner has), so the first run measures the roof and the later ones reuse or re-measure
it by the roof's own rules. The busy runs start ``--loops`` processes that spin on the CPU for the whole run. The
table gives, per run: the ridge the verdict was judged against, whether that roof was provisional, the other
programs' load the measurement saw, the verdict, the score and whether it counted.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _spin(stop_at: float) -> None:
    x = 0
    while time.time() < stop_at:
        x += 1


def run_once(exercise: str, predict: str, data_dir: str, mode: str) -> dict:
    cmd = [sys.executable, "-m", "tutor", "exercise", "run", exercise, "--predict", predict, "--confidence", "0.8",
           "--device", "cpu", "--roofline-mode", mode, "--data-dir", data_dir, "--json", "--lang", "en"]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=600,
                          env={**os.environ, "TUTOR_DATA_DIR": data_dir})
    if proc.returncode != 0:
        raise SystemExit(f"run failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--exercise", default="n0-l1-attention-naive-bound")
    parser.add_argument("--predict", default="memory")
    parser.add_argument("--quiet", type=int, default=2, help="runs on the machine as it is")
    parser.add_argument("--busy", type=int, default=3, help="runs beside --loops spinning processes")
    parser.add_argument("--loops", type=int, default=2)
    parser.add_argument("--roofline-mode", default="quick", choices=("tiny", "quick", "full"))
    args = parser.parse_args()
    data_dir = tempfile.mkdtemp(prefix="tutor-verdict-repeat-")
    print(f"data dir {data_dir} (fresh); load average {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs", flush=True)
    header = f"{'run':6} {'ridge':>7} {'roof':12} {'others':>7} {'verdict':13} {'score':>5} counted  why"
    print(header)
    print("-" * len(header))
    verdicts = []
    plan = ["quiet"] * args.quiet + ["busy"] * args.busy
    for i, kind in enumerate(plan, 1):
        loops = []
        if kind == "busy":
            stop_at = time.time() + 600
            loops = [multiprocessing.Process(target=_spin, args=(stop_at,), daemon=True) for _ in range(args.loops)]
            for p in loops:
                p.start()
            time.sleep(1.0)
        try:
            out = run_once(args.exercise, args.predict, data_dir, args.roofline_mode)
        finally:
            for p in loops:
                p.terminate()
                p.join()
        details = out.get("truth_details") or {}
        roof = (out.get("measurement") or {}).get("roofline") or {}
        interference = (out.get("measurement") or {}).get("interference") or {}
        provisional = ",".join(roof.get("provisional") or []) or "final"
        ridge = details.get("ridge_flops_per_byte")
        others = interference.get("other_cores")
        score = out.get("score")
        print(f"{kind + str(i):6} {ridge if ridge is None else f'{ridge:7.2f}'} {provisional:12} "
              f"{'—' if others is None else f'{others:7.2f}'} {out['verdict']:13} "
              f"{'—' if score is None else f'{score:5.2f}'} {out.get('counted')!s:8} "
              f"{','.join(out.get('inconclusive') or [])}", flush=True)
        verdicts.append(out["verdict"])
        if kind == "busy":
            time.sleep(2.0)  # let the load average settle a little between busy runs
    both = {"correct", "wrong"} <= set(verdicts)
    print(f"\n{args.predict!r} on {args.exercise}: {verdicts} -> "
          + ("GRADED BOTH RIGHT AND WRONG" if both else "never both right and wrong"))
    return 1 if both else 0


if __name__ == "__main__":
    raise SystemExit(main())
