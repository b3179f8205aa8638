"""Bench runs as C0 evidence: each new run is compared with the previous one of the same mode on the same device
fingerprint (the course's second reproducible pass), then stored with that comparison.

``tutor bench`` and the L4 lab both record through :func:`record_bench`, so the two agree on what "agree" means.
"""

from __future__ import annotations

from typing import Any

from tutor.measure.bench_report import DEFAULT_TOLERANCE, compare
from tutor.progress.store import StoreBase


def same_mode_runs(store: StoreBase, fingerprint: str, mode: str | None) -> list[dict[str, Any]]:
    """Stored bench runs on ``fingerprint`` whose report has ``mode``, oldest first."""
    return [r for r in store.bench_runs(fingerprint) if r["report"].get("mode") == mode]


def record_bench(store: StoreBase, report: dict[str, Any], tolerance: float = DEFAULT_TOLERANCE
                 ) -> dict[str, Any] | None:
    """Compare ``report`` with the previous run like it, store it (with the comparison) and return the comparison
    (None when there is no previous run)."""
    fingerprint = str(report["device"]["fingerprint"])
    previous = same_mode_runs(store, fingerprint, report.get("mode"))
    comparison = compare(report, previous[-1]["report"] if previous else None, tolerance)
    report["comparison"] = comparison
    store.record_bench_run(fingerprint=fingerprint, device_kind=report["device"]["kind"], report=report)
    return comparison
