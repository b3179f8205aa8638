"""Does ``tutor bench --quick`` reproduce? N pairs of consecutive runs, judged by the C0 rule.

Each run is a fresh ``tutor bench --quick --no-store --json -`` process (as a learner runs it twice in a row). Every
pair is compared with :func:`tutor.measure.bench_report.compare` — the rule C0 applies (each headline figure within
max(5 %, 2·√(CV₁² + CV₂²)), at most 15 %) — and the script prints, per pair, whether it agreed and the figure furthest
from its allowance; then the agreement rate, each headline figure's CV across all runs (run-to-run noise) and the mean
of the runs' own CVs (across each run's rounds), and each run's wall time and peak memory (max RSS of the child,
from wait4), and per figure how many pairs it made disagree. Ten pairs take about 10 minutes on a quiet 2-core
machine. Run::

    .venv/bin/python bench/bench_pairs.py [--pairs 10] [--mode quick] [--baseline DIR] [--save DIR]

``--baseline DIR`` (a checkout of another version, e.g. ``git archive <commit> | tar -x -C DIR``; ``.`` for this
one, with ``--baseline-env NAME=VALUE`` for a before/after of a setting) alternates that version's pairs with this
one's, so a before/after sees the same load, and summarises both. ``--save DIR`` keeps every run's JSON report.

On a machine shared with other work, say so next to the figures: the load average is printed at the start and end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tutor.i18n import t
from tutor.measure.bench_report import COMPARISON_RULE, compare
from tutor.results import BenchComparison, BenchReport


def one_run(mode: str, data_dir: str, source: str | None = None, extra_env: dict[str, str] | None = None
            ) -> tuple[BenchReport, float, float]:
    """(report, wall seconds of the whole command, peak RSS in MiB of this child) — the child's own peak, from
    wait4's rusage. ``source``: run the ``tutor`` of that checkout instead (PYTHONPATH), for a before/after;
    ``extra_env``: variables set for the child (a before/after of a setting)."""
    env = {**os.environ, **(extra_env or {}), "TUTOR_DATA_DIR": data_dir}
    if source:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
    t0 = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([sys.executable, "-m", "tutor", "bench", f"--{mode}", "--device", "cpu", "--no-store",
                                 "--json", "-"], stdout=out, stderr=err, text=True, env=env)
        _pid, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise SystemExit(f"tutor bench failed ({proc.returncode}): {err.read().strip().splitlines()[-1:]}")
        raw = json.loads(out.read())
        if SAVE_DIR:
            SAVE_DIR.mkdir(parents=True, exist_ok=True)
            name = f"{len(list(SAVE_DIR.glob('run-*.json'))) + 1:03d}"
            (SAVE_DIR / f"run-{name}.json").write_text(json.dumps({"env": extra_env or {}, "source": source,
                                                                  "report": raw}))
        report = BenchReport.from_json(raw)
    return report, wall, usage.ru_maxrss / 1024  # KiB on Linux


SAVE_DIR: Path | None = None
"""--save: every run's JSON report is kept there (run-001.json, …), with the settings it ran under."""


@dataclass
class Series:
    """The runs of one checkout: reports, wall seconds, peak RSS (MiB), and per pair its comparison."""

    name: str
    source: str | None
    env: dict[str, str] = field(default_factory=dict)
    runs: list[BenchReport] = field(default_factory=list)
    walls: list[float] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)
    pairs: list[BenchComparison] = field(default_factory=list)

    def pair(self, i: int, mode: str, data_dir: str) -> None:
        a, wall_a, rss_a = one_run(mode, data_dir, self.source, self.env)
        b, wall_b, rss_b = one_run(mode, data_dir, self.source, self.env)
        self.runs += [a, b]
        self.walls += [wall_a, wall_b]
        self.rss += [rss_a, rss_b]
        comparison = compare(b, a)
        assert comparison is not None
        self.pairs.append(comparison)
        worst = max(comparison.figures, key=lambda f: abs(f.ratio - 1) / f.allowed)
        print(f"{self.name} pair {i + 1}: {'agree' if comparison.agree else 'DISAGREE'}; furthest: {worst.key} "
              f"{abs(worst.ratio - 1) * 100:.1f} % (allowed ±{worst.allowed * 100:.1f} %); runs took "
              f"{wall_a:.1f} s and {wall_b:.1f} s; peak RSS {rss_a:.0f} and {rss_b:.0f} MiB; load "
              f"{os.getloadavg()[0]:.1f}", flush=True)

    def summary(self, mode: str) -> None:
        agreed = sum(c.agree for c in self.pairs)
        n = len(self.pairs)
        where = " ".join([self.source or "", *(f"{k}={v}" for k, v in self.env.items())]).strip()
        print(f"\n== {self.name}{f' ({where})' if where else ''}")
        print(f"agreement: {agreed} of {n} pairs ({agreed / n * 100:.0f} %)")
        heads = [r.headline() for r in self.runs]
        own = [r.spreads() for r in self.runs]
        print(f"{'figure':<34} {'median':>12} {'CV across runs':>15} {'mean own CV':>12} {'pairs differing':>16}")
        for key in heads[0]:
            values = [h[key] for h in heads if key in h]
            spread = statistics.stdev(values) / statistics.fmean(values) if len(values) > 1 else 0.0
            cvs = [c[key] for c in own if key in c]
            mean_own = statistics.fmean(cvs) * 100 if cvs else float("nan")
            differing = sum(1 for c in self.pairs if (f := c.figure(key)) is not None and not f.agree)
            print(f"{key:<34} {statistics.median(values):>12.4g} {spread * 100:>14.1f}% {mean_own:>11.1f}% "
                  f"{differing:>16}")
        durations = [r.duration_s or 0.0 for r in self.runs]
        print(f"bench duration (measuring): median {statistics.median(durations):.1f} s, max {max(durations):.1f} s")
        print(f"wall time per `tutor bench --{mode}` (the whole command): median {statistics.median(self.walls):.1f} "
              f"s, max {max(self.walls):.1f} s")
        print(f"peak RSS per run: median {statistics.median(self.rss):.0f} MiB, max {max(self.rss):.0f} MiB")
        rounds = self.runs[0].tests.get("rounds") or {}
        if rounds:
            print(f"estimator: {rounds.get('estimator')} ({rounds.get('count')} interleaved rounds of "
                  f"{', '.join(rounds.get('order', []))}, then {rounds.get('decode_rounds')} of decode); own CV = "
                  "the CV across a run's rounds")
            if rounds.get("train_steps_per_round"):
                print(t("bench.estimator", "en", rounds=rounds["count"], decode_rounds=rounds.get("decode_rounds"),
                        train_steps=rounds["train_steps_per_round"], read_passes=rounds.get("read_passes", 1)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--mode", choices=["quick", "standard", "full"], default="quick")
    parser.add_argument("--baseline", metavar="DIR",
                        help="another checkout (e.g. a `git archive` of an older commit): its pairs alternate with "
                             "this one's, so both see the same load, and both are summarised; '.' is this "
                             "checkout (with --baseline-env, a before/after of a setting)")
    parser.add_argument("--baseline-env", metavar="NAME=VALUE", action="append", default=[],
                        help="an environment variable set for the baseline's runs only (repeatable)")
    parser.add_argument("--save", metavar="DIR", help="keep every run's JSON report in DIR (run-001.json, …)")
    args = parser.parse_args()
    global SAVE_DIR
    SAVE_DIR = Path(args.save) if args.save else None
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(COMPARISON_RULE)
    print("targets (issue 12): headline CVs across runs under 3 %, at least 9 of 10 pairs agreeing, each quick run "
          "under 30 s and 2 GB")
    series = [Series("this checkout", None)]
    if args.baseline:
        env = dict(item.split("=", 1) for item in args.baseline_env)
        same = os.path.abspath(args.baseline) == os.path.abspath(".")
        series.append(Series("baseline", None if same else os.path.abspath(args.baseline), env))
    with tempfile.TemporaryDirectory(prefix="bench-pairs-") as data_dir:
        for i in range(args.pairs):
            for s in (series if i % 2 == 0 else series[::-1]):
                s.pair(i, args.mode, data_dir)
    for s in series:
        s.summary(args.mode)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
