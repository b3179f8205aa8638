"""The CPU roofline's peak computed for a CPU we are not on: its flags, clocks and cores patched in."""

from __future__ import annotations

from typing import Any

import pytest


def cpu_roofline(monkeypatch: pytest.MonkeyPatch, flags: set[str], max_ghz: float | None, clock: float | None) -> Any:
    from tutor.measure import roofline

    monkeypatch.setattr(roofline, "cpu_flags", lambda: frozenset(flags))
    monkeypatch.setattr(roofline, "cpu_max_ghz", lambda: max_ghz)
    monkeypatch.setattr(roofline, "cpu_clock_ghz", lambda: clock)
    monkeypatch.setattr(roofline, "physical_cores", lambda: 2)
    return roofline


SPR = {"avx", "avx2", "fma", "avx512f", "avx512_bf16", "amx_bf16", "avx512_fp16"}


class QuietProbe:
    """An interference probe that saw a quiet machine (the tests' own machine may be busy)."""

    def __init__(self) -> None:
        from tutor.results import Interference

        self.result = Interference(seconds=1.0, cpus=2, other_cores=0.02, steal=0.0)

    def __enter__(self) -> QuietProbe:
        return self

    def __exit__(self, *exc: object) -> None:
        return None
