"""Bench runs as C0 evidence: each new run is compared with the previous one of the same mode on the same device
fingerprint (the course's second reproducible pass), then stored with that comparison.

``tutor bench`` and the L4 lab both record through :func:`record_bench`, so the two agree on what "agree" means.
"""

from __future__ import annotations

from tutor.measure.bench_report import DEFAULT_TOLERANCE, compare
from tutor.progress.store import StoreBase
from tutor.results import BenchReport


def same_mode_runs(store: StoreBase, fingerprint: str, mode: str | None) -> list[BenchReport]:
    """The reports of the stored bench runs on ``fingerprint`` with ``mode``, oldest first (a damaged row is
    skipped: it is no evidence)."""
    reports = [r.report for r in store.bench_runs(fingerprint)]
    return [r for r in reports if r is not None and r.mode == mode]


def record_bench(store: StoreBase, report: BenchReport, tolerance: float = DEFAULT_TOLERANCE) -> BenchReport:
    """Compare ``report`` with the previous run like it, store it with the comparison, and return it so
    (``comparison`` None when there is no previous run)."""
    previous = same_mode_runs(store, report.fingerprint, report.mode)
    compared = report.with_comparison(compare(report, previous[-1] if previous else None, tolerance))
    store.record_bench_run(compared)
    return compared
