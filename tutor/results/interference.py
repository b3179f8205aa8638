"""What else the machine was doing while a figure was measured (issue 26 item 2).

A measurement on a shared laptop or VM is one draw from a machine that other programs use too. The engine samples,
around each measurement, how much CPU time *other* processes took (the whole machine's busy time less this
process's own), the hypervisor's steal time, the load average and the CPU clock where it can be read, and keeps it
beside the figure. :attr:`Interference.busy` says whether that was enough to make the figure low: the reveal, the
labs, the bench and the roof's cache all read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tutor.results.reading import Reader

#: Other programs busier than this many cores, or this share of the machine (whichever is larger), make a
#: measurement "disturbed". A measurement that uses every core loses about that share of its rate: on a 2-core
#: machine 0.25 of a core is ≈ 12 % of it, more than the number exercises' full-marks tolerance (10 %). Below it
#: sits what a quiet desk shows (the TUI's own process, a terminal, the telemetry sampler: 0.02–0.1 of a core).
BUSY_CORES = 0.25
BUSY_SHARE = 0.10
#: Steal time above this share of the wall time (a VM's host ran someone else on our cores) disturbs too.
BUSY_STEAL = 0.05


@dataclass(frozen=True)
class Interference:
    """Other programs' load during one measurement."""

    seconds: float
    """The wall time sampled."""
    cpus: int
    other_cores: float
    """Average cores that other processes kept busy (0 on a quiet machine; up to ``cpus``)."""
    steal: float | None = None
    """Share of the sampled CPU time the hypervisor gave to other guests (None where the OS does not say)."""
    load_average: float | None = None
    """The 1-minute load average at the end."""
    ghz: float | None = None
    """The CPU clock read at the end (None where it cannot be read)."""
    simulated: bool = False
    """Set by ``TUTOR_SIMULATED_LOAD`` (the tests' machine is not the learner's): never read from this machine."""

    @property
    def threshold_cores(self) -> float:
        return max(BUSY_CORES, BUSY_SHARE * max(1, self.cpus))

    @property
    def busy(self) -> bool:
        """Whether other programs took enough of the machine to make this figure low."""
        return self.reason is not None

    @property
    def reason(self) -> str | None:
        """``other_programs`` or ``steal`` when busy, else None (a code; the catalog words it)."""
        if self.other_cores > self.threshold_cores:
            return "other_programs"
        if self.steal is not None and self.steal > BUSY_STEAL:
            return "steal"
        return None

    def to_json(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "cpus": self.cpus, "other_cores": self.other_cores, "steal": self.steal,
                "load_average": self.load_average, "ghz": self.ghz, "busy": self.busy,
                **({"simulated": True} if self.simulated else {})}

    @classmethod
    def from_json(cls, data: Any, where: str = "interference") -> Interference:
        r = Reader(data, where)
        r.raw("busy")  # derived
        return cls(seconds=r.number("seconds"), cpus=r.integer("cpus", 1), other_cores=r.number("other_cores"),
                   steal=r.opt_number("steal"), load_average=r.opt_number("load_average"), ghz=r.opt_number("ghz"),
                   simulated=r.flag("simulated"))

    @classmethod
    def of(cls, data: Any) -> Interference | None:
        """The interference in ``data`` when it reads as one (a stored row of any age), else None."""
        if not isinstance(data, dict):
            return None
        try:
            return cls.from_json(data)
        except Exception:  # a damaged or foreign figure is no interference reading
            return None
