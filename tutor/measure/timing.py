"""The timing harness: warm-up, then repeated timed runs until a count or a time budget.

CPU: ``time.perf_counter_ns`` around each call. CUDA: ``torch.cuda.Event`` pairs recorded on the current stream
after a ``synchronize``, read after the end event has completed (so launch overhead and queueing are not timed
as kernel time and the host clock never sees an unfinished kernel).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tutor.measure.errors import CancelCheck, check_cancel
from tutor.measure.estimators import cv as _cv
from tutor.results import TimingStats

__all__ = ["CancelCheck", "TimedRuns", "check_cancel", "choose_inner", "time_callable"]


@dataclass(frozen=True)
class TimedRuns:
    """Seconds per call of each timed repeat."""

    times_s: tuple[float, ...]
    inner: int = 1

    @property
    def median(self) -> float:
        return statistics.median(self.times_s)

    @property
    def min(self) -> float:
        return min(self.times_s)

    @property
    def max(self) -> float:
        return max(self.times_s)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.times_s)

    @property
    def cv(self) -> float:
        """Coefficient of variation (stdev / mean) of the per-call times (:func:`tutor.measure.estimators.cv`)."""
        return _cv(self.times_s)

    def stats(self) -> TimingStats:
        """The statistics a result carries (:class:`tutor.results.TimingStats`)."""
        return TimingStats(median=self.median, min=self.min, max=self.max, mean=self.mean, cv=self.cv,
                           repeats=len(self.times_s), inner=self.inner)


def time_callable(
    fn: Callable[[], Any],
    device: str = "cpu",
    *,
    warmup: int = 2,
    min_repeats: int = 5,
    max_repeats: int = 50,
    budget_s: float = 1.0,
    inner: int = 1,
    should_cancel: CancelCheck | None = None,
) -> TimedRuns:
    """Time ``fn``: ``warmup`` untimed calls, then at least ``min_repeats`` timed samples and more until
    ``budget_s`` of timed work or ``max_repeats``. Each sample runs ``fn`` ``inner`` times (to amortise call
    overhead for tiny kernels) and reports seconds per call."""
    if device == "cuda":
        return _time_cuda(fn, warmup, min_repeats, max_repeats, budget_s, inner, should_cancel)
    for _ in range(warmup):
        check_cancel(should_cancel)
        fn()
    times: list[float] = []
    spent = 0.0
    while len(times) < min_repeats or (spent < budget_s and len(times) < max_repeats):
        check_cancel(should_cancel)
        start = time.perf_counter_ns()
        for _ in range(inner):
            fn()
        elapsed = (time.perf_counter_ns() - start) / 1e9
        spent += elapsed
        times.append(elapsed / inner)
    return TimedRuns(tuple(times), inner)


def _time_cuda(
    fn: Callable[[], Any],
    warmup: int,
    min_repeats: int,
    max_repeats: int,
    budget_s: float,
    inner: int,
    should_cancel: CancelCheck | None,
) -> TimedRuns:
    import torch

    for _ in range(warmup):
        check_cancel(should_cancel)
        fn()
    torch.cuda.synchronize()
    times: list[float] = []
    spent = 0.0
    while len(times) < min_repeats or (spent < budget_s and len(times) < max_repeats):
        check_cancel(should_cancel)
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        start.record()
        for _ in range(inner):
            fn()
        end.record()
        end.synchronize()
        elapsed = start.elapsed_time(end) / 1e3  # ms → s
        spent += elapsed
        times.append(elapsed / inner)
    return TimedRuns(tuple(times), inner)


def choose_inner(fn: Callable[[], Any], device: str = "cpu", target_s: float = 2e-3, cap: int = 10_000) -> int:
    """How many calls per timed sample so that one sample lasts about ``target_s``."""
    probe = time_callable(fn, device, warmup=1, min_repeats=3, max_repeats=3, budget_s=0)
    per_call = max(probe.min, 1e-9)
    return max(1, min(cap, math.ceil(target_s / per_call)))
