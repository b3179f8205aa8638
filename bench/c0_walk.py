"""C0 walked headless from a fresh data dir, the way the issue checks it (issue 12): only the CLI, as a learner.

    .venv/bin/python bench/c0_walk.py [--data-dir DIR] [--lang es|en] [--skip-bench]

1. every Nivel 0 exercise in pass 1 (a first guess; while the reveal says it was not right, another pass-1 attempt
   with what the reveal taught — the learner who read the answer — at most 3), then ``tutor progress``: not C0;
2. every one again in pass 2 (no hints, no theory) with what pass 1 taught; a pass 2 that the new measurement
   contradicts is tried again the same way, as a learner would, and counted;
3. ``tutor doctor --lock``, then ``tutor doctor --check-lock`` in a later process;
4. the L4 bench lab twice (``tutor lab run n0-l4-lab-bench``: one ``tutor bench`` run each), and the learner's own
   explanation of the gap written into its notebook entry (``tutor notebook write ID --gap …``);
5. ``tutor progress``: the checklist, each condition with its evidence.

Every step is one ``tutor`` process; the table gives what each answered and how long it took. Nothing is faked:
the measurements are this machine's, at the exercises' real sizes, so the walk takes a while (≈ 20–40 min).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TRIES = 3
GAP_IN_MY_WORDS = (
    "Cada token lee todos los pesos una vez, así que el tiempo por paso es un coste fijo más los bytes de los pesos "
    "divididos por el ancho de banda con que de verdad se leen; aquí el coste fijo y ese ancho de banda efectivo, "
    "menor que el pico de STREAM, explican casi toda la distancia, y la caché KV apenas suma con este contexto."
)


def tutor(args: list[str], env: dict[str, str], *, timeout: float = 900) -> tuple[int, str, str, float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "tutor", *args], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def first_guess(exercise: dict[str, Any]) -> list[str]:
    kind = exercise["kind"]
    if kind in ("bound", "diagnose", "fit"):
        return ["--predict", exercise["choices"][0]["id"]]
    return ["--predict", "1"]


def taught(exercise: dict[str, Any], reveal: dict[str, Any]) -> list[str]:
    """The prediction a learner makes after reading this reveal."""
    kind = exercise["kind"]
    if kind in ("bound", "diagnose"):
        return ["--predict", str(reveal["truth_choice"])]
    if kind == "fit":
        choice = reveal["prediction"]["choice"]
        if reveal["verdict"] != "correct":
            choice = "does_not_fit" if choice == "fits" else "fits"
        return ["--predict", choice, "--gb", f"{float(reveal['truth']):.4g}"]
    return ["--predict", f"{float(reveal['truth']):.4g}"]


def attempt(exercise: dict[str, Any], prediction: list[str], pass_no: int, env: dict[str, str],
            lang: str) -> tuple[dict[str, Any] | None, float, str]:
    rc, out, err, took = tutor(["exercise", "run", exercise["id"], *prediction, "--pass", str(pass_no),
                                "--json", "--lang", lang], env)
    if rc != 0:
        return None, took, (err.strip().splitlines() or [f"rc {rc}"])[-1]
    return json.loads(out), took, ""


def walk_one(ex: dict[str, Any], prediction: list[str], pass_no: int, env: dict[str, str], lang: str
             ) -> tuple[dict[str, Any] | None, str, int]:
    """One exercise in one pass, as a learner: predict, read the reveal, and while it is not correct try again
    with what it taught (at most :data:`TRIES` attempts: a noisy machine can move the truth between runs)."""
    line = f"  {ex['id']:<30}"
    last: dict[str, Any] | None = None
    for n in range(1, TRIES + 1):
        reveal, took, problem = attempt(ex, prediction, pass_no, env, lang)
        shown = " ".join(prediction[1:])
        line += (f" {shown} → {reveal['verdict']} {reveal['score']:.2f} ({took:.1f} s)" if reveal
                 else f" {shown} → FAILED: {problem}")
        if reveal is None:
            return last, line, n
        last = reveal
        if reveal["verdict"] == "correct":
            return last, line, n
        prediction = taught(ex, reveal)
        line += ";"
    return last, line, TRIES


def progress(env: dict[str, str], lang: str) -> dict[str, Any]:
    rc, out, err, _ = tutor(["progress", "--json", "--lang", lang], env)
    if rc != 0:
        raise SystemExit(f"tutor progress failed: {err.strip()}")
    return json.loads(out)


def c0_lines(env: dict[str, str], lang: str) -> str:
    _, out, _, _ = tutor(["progress", "--lang", lang], env)
    return out.split("\nLecciones" if lang == "es" else "\nLessons")[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=None, help="data dir (default: a new temporary one)")
    parser.add_argument("--lang", default="es", choices=("es", "en"))
    parser.add_argument("--skip-bench", action="store_true", help="leave out step 4 (the two bench runs)")
    parser.add_argument("--only", default="n0-", metavar="PREFIX",
                        help="walk only the exercises whose id starts so (a quick check of the walk itself)")
    args = parser.parse_args()
    data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="c0-walk-"))
    data_dir.mkdir(parents=True, exist_ok=True)  # --data-dir names a folder that need not exist yet
    env = {**os.environ, "TUTOR_DATA_DIR": str(data_dir)}
    env.pop("TUTOR_STORE", None)
    lang = args.lang
    walk_started = time.monotonic()
    print(f"data dir: {data_dir} (fresh: {not any(data_dir.iterdir())}); load average {os.getloadavg()[0]:.1f}")

    _, out, _, _ = tutor(["exercise", "list", "--json"], env)
    level = [e for e in json.loads(out) if str(e["lesson"]).startswith("n0-") and str(e["id"]).startswith(args.only)]
    print(f"{len(level)} Nivel 0 exercises\n")

    taught_by_pass1: dict[str, list[str]] = {}
    print("pass 1")
    tries1 = 0
    for ex in level:
        reveal, line, n = walk_one(ex, first_guess(ex), 1, env, lang)
        tries1 += n
        if reveal is not None:
            taught_by_pass1[ex["id"]] = taught(ex, reveal)
        print(line)

    report = progress(env, lang)
    print(f"\nafter pass 1: C0 passed = {report['c0']['passed']}")
    print(c0_lines(env, lang))

    print("pass 2 (no hints, no theory)")
    tries2, retried = 0, []
    for ex in level:
        prediction = taught_by_pass1.get(ex["id"])
        if prediction is None:
            continue
        _, line, n = walk_one(ex, prediction, 2, env, lang)
        tries2 += n
        if n > 1:
            retried.append(ex["id"])
        print(line)

    print("\nstack")
    rc, out, err, took = tutor(["doctor", "--lock", "--lang", lang], env)
    print(f"  tutor doctor --lock: rc {rc}, {took:.1f} s")
    rc, out, err, took = tutor(["doctor", "--check-lock", "--lang", lang], env)
    print(f"  tutor doctor --check-lock (a later process): rc {rc}, {took:.1f} s")

    if not args.skip_bench:
        print("\nbench and the gap in my words")
        for run in (1, 2):  # the lab is "tutor bench, twice": its second run is the reproduction
            rc, out, err, took = tutor(["lab", "run", "n0-l4-lab-bench", "--predict", "80", "--lang", lang], env,
                                       timeout=1800)
            print(f"  tutor lab run n0-l4-lab-bench ({run}): rc {rc}, {took:.1f} s")
            for ln in (out + err).strip().splitlines()[-3:]:
                print("    " + ln)
        _, listing, _, _ = tutor(["notebook", "list", "--lang", lang], env)
        ids = [ln.split()[0] for ln in listing.splitlines() if "n0-l4-lab-bench" in ln]
        if ids:
            rc, out, err, _ = tutor(["notebook", "write", ids[-1], "--gap", GAP_IN_MY_WORDS, "--lang", lang], env)
            print(f"  tutor notebook write {ids[-1]} --gap …: rc {rc}: {(out or err).strip()}")

    report = progress(env, lang)
    print(f"\nat the end: C0 passed = {report['c0']['passed']}  (pass 1: {tries1} attempts, pass 2: {tries2}, "
          f"pass 2 tried again: {', '.join(retried) or 'none'})")
    print(c0_lines(env, lang))
    print(f"walk took {(time.monotonic() - walk_started) / 60:.1f} min; load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
