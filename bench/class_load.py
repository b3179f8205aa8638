"""A class under load: many learners as concurrent processes against one real PostgreSQL, a few measuring on a
shared device under the lease.

    .venv/bin/python bench/class_load.py [--learners 30] [--exercises 12] [--measuring 4] [--dsn DSN]

Without ``--dsn`` (or ``TUTOR_TEST_PG_DSN``) a throwaway cluster is started in a temporary folder (and stopped).
The script creates a schema, runs ``tutor class init``'s set-up, adds the learners (each with their own role and
token), then starts one process per learner. Each learner works through ``--exercises`` attempts the way the
tutor does (section read, prediction locked, graded); the ``--measuring`` learners measure each attempt through
:meth:`ExerciseRunner.measure` on one shared device (a real numpy matmul, timed), which takes the lease.

Afterwards, as the instructor, it checks: every attempt id a learner was given is stored, graded and theirs (no
attempt lost); the lease intervals recorded with the measurements never overlap on the device; every process
ended (no deadlock). It prints the throughput (store operations per second) and the store latency percentiles
each learner saw.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEVICE = "cpu"  # every measuring learner asks for the same device: the lease serialises them


def _measure(request: dict[str, Any], on_progress: Any, cancel: Any) -> dict[str, Any]:
    """A real, small measurement: the best of 5 timed 256² fp32 matmuls."""
    import statistics

    import numpy as np

    from tutor.results import TimingStats

    a = np.random.default_rng().standard_normal((256, 256), dtype=np.float32)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        a @ a
        times.append(time.perf_counter() - t0)
    mean = statistics.fmean(times)
    timing = TimingStats(median=statistics.median(times), min=min(times), max=max(times), mean=mean,
                         cv=statistics.pstdev(times) / mean, repeats=len(times))
    return {"kind": "bench-load", "time_s": timing.to_json(), "gflops": 2 * 256**3 / timing.best / 1e9}


def worker(dsn: str, learner: str, exercises: int, measuring: bool) -> None:
    """One learner: prints one JSON line with the attempt ids it was given and each store call's latency."""
    from tutor.content import load_course
    from tutor.paths import bundled_course
    from tutor.practice import ExerciseRunner
    from tutor.progress.postgres import PostgresStore

    course = load_course(bundled_course())
    exercise = course.exercises["f1-00-naive-1024-time"]
    latencies: list[float] = []

    def timed(fn: Any, *args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        out = fn(*args, **kwargs)
        latencies.append(time.perf_counter() - t0)
        return out

    t_open = time.perf_counter()
    store = PostgresStore(dsn)
    open_s = time.perf_counter() - t_open
    first = time.time()
    runner = ExerciseRunner(store, _measure)
    ids: list[int] = []
    leases: list[dict[str, Any]] = []
    for i in range(exercises):
        timed(store.mark_section_read, exercise.lesson, f"section-{i}")
        attempt = timed(store.lock_prediction, exercise_id=f"load-{i % 4}", lesson_id=exercise.lesson,
                        prediction={"value": 1.0 + i}, confidence=0.6 + 0.1 * (i % 4))
        ids.append(attempt)
        measurement: dict[str, Any] = {"kind": "none"}
        if measuring:
            result, _telemetry = runner.measure(exercise, attempt, device=DEVICE)
            measurement = result.to_json() if result is not None else measurement
            leases.append(measurement["lease"])
        timed(store.record_grade, attempt, measurement=measurement, truth={"value": 1.0, "ratio": 1.0 + i},
              verdict="correct" if i % 3 else "wrong", score=1.0 if i % 3 else 0.0)
        timed(store.attempts, f"load-{i % 4}")
    last = time.time()
    store.close()
    print(json.dumps({"learner": learner, "ids": ids, "latencies": latencies, "leases": len(leases),
                      "open_s": open_s, "first": first, "last": last}), flush=True)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--exercises", type=int, default=12)
    parser.add_argument("--measuring", type=int, default=4)
    parser.add_argument("--dsn", default=os.environ.get("TUTOR_TEST_PG_DSN"))
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--worker", nargs=4, metavar=("DSN", "NAME", "N", "MEASURING"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        dsn, name, n, measuring = args.worker
        worker(dsn, name, int(n), measuring == "1")
        return 0

    import psycopg
    from psycopg import sql

    from tests import pg_cluster
    from tests.conftest import with_schema
    from tutor.progress.classroom import add_learner, class_group, init_class

    folder = None
    admin_base = args.dsn
    if not admin_base:
        folder = Path(tempfile.mkdtemp(prefix="tutor-load-pg-"))
        admin_base = pg_cluster.start(folder)
    schema = f"class_load_{secrets.token_hex(3)}"
    roles: list[str] = []
    try:
        with psycopg.connect(admin_base, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        admin = with_schema(admin_base, schema)
        init_class(admin, allow_superuser=True)  # the benchmark sets the class up as the cluster's superuser
        learners = []
        for i in range(args.learners):
            creds = add_learner(admin, f"load_{schema[-6:]}_{i:02d}")
            roles.append(creds.name)
            learners.append(creds)
        with psycopg.connect(admin, autocommit=True) as conn:
            roles.append(class_group(conn, schema))  # the class's own group, dropped after its learners
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        started = time.perf_counter()
        # Each worker gets its token as libpq's PGPASSWORD (its own environment), never on its command line.
        procs = [
            subprocess.Popen([sys.executable, __file__, "--worker", c.address, c.name, str(args.exercises),
                              "1" if i < args.measuring else "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**env, "PGPASSWORD": c.token})
            for i, c in enumerate(learners)
        ]
        outputs = []
        deadlocked = 0
        for proc in procs:
            try:
                out, err = proc.communicate(timeout=max(1.0, args.timeout - (time.perf_counter() - started)))
            except subprocess.TimeoutExpired:
                proc.kill()
                deadlocked += 1
                continue
            if proc.returncode != 0:
                print(err.strip().splitlines()[-1] if err.strip() else f"exit {proc.returncode}", file=sys.stderr)
                continue
            outputs.append(json.loads(out.strip().splitlines()[-1]))
        wall = time.perf_counter() - started

        with psycopg.connect(admin, autocommit=True) as conn:
            rows = conn.execute("SELECT id, learner, state, measurement FROM attempts").fetchall()
        stored = {r[0]: (r[1], r[2]) for r in rows}
        given = [(o["learner"], i) for o in outputs for i in o["ids"]]
        lost = [i for who, i in given if stored.get(i) != (who, "graded")]
        intervals: dict[str, list[tuple[float, float, str]]] = {}
        for _id, who, _state, measurement in rows:
            lease = json.loads(measurement or "{}").get("lease") if measurement else None
            if lease and lease.get("held"):
                intervals.setdefault(lease["device"], []).append((lease["acquired_at"], lease["released_at"], who))
        overlaps = 0
        for spans in intervals.values():
            spans.sort()
            overlaps += sum(1 for a, b in itertools.pairwise(spans) if b[0] < a[1])
        latencies = [x for o in outputs for x in o["latencies"]]
        opens = [o["open_s"] for o in outputs]
        ops = len(latencies)
        busy = (max(o["last"] for o in outputs) - min(o["first"] for o in outputs)) if outputs else wall
        measured = sum(len(s) for s in intervals.values())
        waits = [json.loads(m).get("lease", {}).get("waited_s", 0.0) for *_, m in rows
                 if m and json.loads(m).get("lease", {}).get("held")]
        print(f"learners: {args.learners} processes ({args.measuring} measuring on one device), "
              f"{args.exercises} attempts each; wall {wall:.2f} s")
        print(f"attempts: {len(given)} given, {len(rows)} stored, lost {len(lost)}; processes ended "
              f"{len(outputs)}/{args.learners}, timed out (deadlock?) {deadlocked}")
        print(f"lease: {measured} measurements under the lease on {len(intervals)} device(s), overlapping "
              f"intervals {overlaps}; wait median {statistics.median(waits) if waits else 0:.3f} s, "
              f"max {max(waits) if waits else 0:.3f} s")
        print(f"throughput: {ops} store operations in {busy:.2f} s from the first to the last = "
              f"{ops / busy:.0f} ops/s ({len(given) / busy:.1f} graded attempts/s; wall with process start-up "
              f"{wall:.2f} s)")
        if latencies:
            print(f"store latency: p50 {_pct(latencies, 0.5) * 1e3:.1f} ms, p95 {_pct(latencies, 0.95) * 1e3:.1f} ms, "
                  f"p99 {_pct(latencies, 0.99) * 1e3:.1f} ms, max {max(latencies) * 1e3:.1f} ms "
                  f"(section read, lock, grade, read back); opening the store p95 {_pct(opens, 0.95) * 1e3:.0f} ms")
        ok = not lost and not overlaps and not deadlocked and len(outputs) == args.learners
        print("OK" if ok else "FAILED")
        return 0 if ok else 1
    finally:
        with psycopg.connect(admin_base, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
            for role in roles:
                conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
                conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))
        if folder is not None:
            pg_cluster.stop(folder)
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
