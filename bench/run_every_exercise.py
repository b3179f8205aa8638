"""Every bundled exercise run headless at its real sizes on this machine, and whether the explanation shown agrees
with what was measured (issue 11 item 2).

    .venv/bin/python bench/run_every_exercise.py [--only ID ...] [--data-dir DIR] [--small] [--shape NAME]
                                                 [--record FILE]

Each exercise goes through the exercise runner (the path of ``tutor exercise run``: lock a prediction, measure in
the measuring worker process, grade, store) in a throwaway data dir, so the learner's progress and roofline cache
are not touched (the roofline is measured once, in quick mode, and cached there). The table gives, per exercise:
what was measured, the truth, the measured side, the ``explanation_when`` variants shown and whether the
explanation agrees (:func:`tests.support.answer_key.check_outcome`). ``--small`` runs the quick check of the tests
instead (each request shrunk, measured in this process). ``--shape NAME`` (``epyc-32m``, ``laptop-8m``, ``no-l3``,
``xeon-480m``: the fake sysfs trees of ``tests/fixtures/sysfs``) runs them with that cache hierarchy simulated
(``TUTOR_SYSFS_ROOT``, inherited by the measuring worker): sizes, setup lines, decode's model and roof and the
explanation variants follow the shape, while the hardware measured is still this machine's — the table says so.

This is the live check: its outcome depends on the machine that runs it, so it is a bench script, not a test.
``make test`` reads the explanations against recorded measurements replayed on several machine shapes
(``tests/test_every_exercise.py``); ``--small --record tests/fixtures/results/every_exercise_small.json`` writes
that recording again (each exercise's raw measurement, with the machine, the date and the load it was taken under).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=None, metavar="ID", help="run only these exercises")
    parser.add_argument("--data-dir", default=None, help="data dir to use (default: a temporary one)")
    parser.add_argument("--small", action="store_true", help="the tests' quick check (small sizes, in-process)")
    shapes = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "sysfs"
    parser.add_argument("--shape", default=None, choices=sorted(p.name for p in shapes.iterdir() if p.is_dir()),
                        help="simulate this cache hierarchy (a fake sysfs tree of tests/fixtures/sysfs)")
    parser.add_argument("--cache-dependent", action="store_true",
                        help="only the exercises whose sizes, roofs or words depend on the caches")
    parser.add_argument("--record", default=None, metavar="FILE",
                        help="write each exercise's raw measurement to FILE (the tests' recorded answer key)")
    args = parser.parse_args()
    if args.shape:
        os.environ["TUTOR_SYSFS_ROOT"] = str(shapes / args.shape)
    data_dir = args.data_dir or tempfile.mkdtemp(prefix="tutor-every-exercise-")
    os.environ["TUTOR_DATA_DIR"] = data_dir

    from tests.support.answer_key import cache_dependent, render_table, run_every_exercise, small_measure
    from tutor.content import load_course
    from tutor.measure.device import cache_sizes
    from tutor.paths import bundled_course
    from tutor.practice import ExerciseRunner
    from tutor.progress import ProgressStore

    course = load_course(bundled_course())
    store = ProgressStore(Path(data_dir) / "every-exercise.sqlite3")
    close = None
    if args.small:
        from tutor.measure.api import run_request

        measure = small_measure(run_request)
    else:
        from tutor.measure.worker import MeasureWorker

        worker = MeasureWorker()
        close = worker.close

        def measure(request, on_progress, cancel):  # type: ignore[no-untyped-def]
            return worker.run(request, on_progress=on_progress, cancel_event=cancel)

    started = time.monotonic()
    load = os.getloadavg()[0]
    print(f"data dir {data_dir}; load average {load:.2f}; {len(course.exercises)} exercises", flush=True)
    caches = cache_sizes()
    levels = ", ".join(f"{k} {v / 2**20:g} MiB" for k, v in caches["levels"].items())
    if caches.get("simulated"):
        print(f"SIMULATED cache hierarchy ({levels}) from {caches['source']}: not this machine's caches; the "
              "hardware measured is this machine's", flush=True)
    else:
        print(f"cache hierarchy {levels} ({caches['source']})", flush=True)
    ids = args.only
    if args.cache_dependent:
        ids = [i for i in sorted(course.exercises)
               if cache_dependent(course.exercises[i]) and (ids is None or i in ids)]

    recorded: dict[str, dict] = {}
    last: list[dict] = []
    if args.record:
        inner = measure

        def measure(request, on_progress, cancel):  # type: ignore[no-untyped-def]
            result = inner(request, on_progress, cancel)
            last[:] = [{"request": request, "result": result}]
            return result

    def done(check):  # type: ignore[no-untyped-def]
        if last:
            recorded[check.exercise_id] = last.pop()
        mark = "ok " if check.agree else "NO "
        print(f"  {mark} {check.exercise_id:32s} {check.seconds:6.1f} s  {check.truth}  [{check.setup}; "
              f"{check.roof}; {check.variants}]", flush=True)

    try:
        checks = run_every_exercise(course, ExerciseRunner(store, measure), device="cpu", ids=ids,
                                    on_done=done)
    finally:
        if close is not None:
            close()
        store.close()
    print()
    print(render_table(checks))
    print(f"\nwall {time.monotonic() - started:.0f} s; load average now {os.getloadavg()[0]:.2f}")
    if args.record:
        write_recording(Path(args.record), recorded, small=args.small, load=load, shape=args.shape)
    return 0 if all(c.agree for c in checks) else 1


def write_recording(path: Path, recorded: dict, *, small: bool, load: float, shape: str | None) -> None:
    """The raw measurements as one JSON file, labelled with where, when and how they were taken."""
    import json
    import platform

    from tutor.measure.device import cache_sizes

    caches = cache_sizes()
    meta = {
        "what": "raw measurements of every bundled exercise, RECORDED on one machine (not measured when read)",
        "machine": platform.processor() or platform.machine(),
        "cpu": _cpu_name(),
        "cpus": os.cpu_count(),
        "caches": caches["levels"],
        "caches_simulated": bool(caches.get("simulated")),
        "shape": shape,
        "small": small,
        "load_average_at_start": round(load, 2),
        "recorded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": "bench/run_every_exercise.py" + (" --small" if small else "") + f" --record {path.name}",
    }
    path.write_text(json.dumps({"recorded": meta, "exercises": recorded}, indent=1, sort_keys=True) + "\n",
                    encoding="utf-8")
    print(f"recorded {len(recorded)} measurements to {path}")


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


if __name__ == "__main__":
    raise SystemExit(main())
