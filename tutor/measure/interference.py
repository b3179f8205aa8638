"""Sampling what other programs take of the machine while a measurement runs (issue 26 item 2).

:class:`InterferenceProbe` reads the machine's CPU times and this process's own at the start and at the end of a
measurement (psutil); other processes' busy time is the difference. Two reads per measurement: nothing runs
beside the kernels being timed. The clocks are injectable so the arithmetic is tested with made-up counters.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tutor.results import Interference

#: Cores that other programs are said to use, instead of sampling them: the tests set it (``0``) so that no verdict
#: depends on how busy the machine running them is; the reading says it is simulated wherever it is shown.
SIMULATED_LOAD_ENV = "TUTOR_SIMULATED_LOAD"

#: The fields of psutil's system CPU times that count as busy (``guest`` is already inside ``user`` on Linux).
_BUSY_FIELDS = ("user", "nice", "system", "irq", "softirq")


@dataclass(frozen=True)
class CpuCounters:
    """One read of the counters: wall clock, the machine's busy and steal seconds (all CPUs), this process's CPU
    seconds (all its threads)."""

    wall: float
    busy: float
    steal: float | None
    own: float


def read_counters() -> CpuCounters:
    """The counters now (psutil; zeros where it cannot read them)."""
    import psutil

    wall = time.monotonic()
    try:
        system = psutil.cpu_times()
        busy = sum(float(getattr(system, name, 0.0) or 0.0) for name in _BUSY_FIELDS)
        steal = getattr(system, "steal", None)
    except (OSError, RuntimeError, AttributeError):
        busy, steal = 0.0, None
    try:
        mine = psutil.Process().cpu_times()
        own = float(mine.user + mine.system)
    except (OSError, RuntimeError, psutil.Error):
        own = 0.0
    return CpuCounters(wall, busy, float(steal) if steal is not None else None, own)


def _ghz() -> float | None:
    import psutil

    try:
        freq = psutil.cpu_freq()
    except (OSError, RuntimeError, NotImplementedError, AttributeError):
        return None
    return round(freq.current / 1e3, 3) if freq is not None and freq.current else None


def _load() -> float | None:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def between(start: CpuCounters, end: CpuCounters, cpus: int, *, load_average: float | None = None,
            ghz: float | None = None) -> Interference:
    """The interference between two reads: other processes' busy seconds per wall second, and steal's share."""
    wall = max(end.wall - start.wall, 1e-9)
    others = (end.busy - start.busy) - (end.own - start.own)
    other_cores = min(float(cpus), max(0.0, others / wall))
    steal = None
    if start.steal is not None and end.steal is not None:
        steal = min(1.0, max(0.0, (end.steal - start.steal) / (wall * max(1, cpus))))
    return Interference(seconds=wall, cpus=cpus, other_cores=other_cores, steal=steal, load_average=load_average,
                        ghz=ghz)


def simulated_load() -> float | None:
    """The cores ``TUTOR_SIMULATED_LOAD`` says other programs use, or None when it is not set (or not a number)."""
    raw = os.environ.get(SIMULATED_LOAD_ENV)
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if 0.0 <= value < 1e6 else None


class InterferenceProbe:
    """``with InterferenceProbe() as probe: ...`` then ``probe.result`` (an :class:`Interference`)."""

    def __init__(self, read: Callable[[], CpuCounters] = read_counters, cpus: int | None = None,
                 extras: Callable[[], dict[str, Any]] | None = None) -> None:
        self._read = read
        self._cpus = cpus or os.cpu_count() or 1
        self._extras = extras
        self._start: CpuCounters | None = None
        self.result: Interference | None = None

    def __enter__(self) -> InterferenceProbe:
        self._start = self._read()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> Interference | None:
        """The interference since the start (once; later calls return the same)."""
        simulated = simulated_load()
        if self.result is None and self._start is not None and simulated is not None:
            wall = max(time.monotonic() - self._start.wall, 1e-9)
            self.result = Interference(seconds=wall, cpus=self._cpus, other_cores=min(simulated, self._cpus),
                                       steal=0.0, simulated=True)
        if self.result is None and self._start is not None:
            end = self._read()
            extras = self._extras() if self._extras is not None else {"load_average": _load(), "ghz": _ghz()}
            self.result = between(self._start, end, self._cpus, **extras)
        return self.result
