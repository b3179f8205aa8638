"""DRAM sizes from the learner's measured memory hierarchy: how large a workload's arrays must be to measure DRAM.

A workload that is meant to measure DRAM must not fit in a cache; a fixed size that is "far more than any cache" on
one machine fits in the 480 MiB L3 of another. So an exercise can ask for ``dram: 4`` (arrays sized to at least
4× the last-level cache read from the system), capped by a memory budget and by the RAM that is free. The plan
(:mod:`tutor.measure.plan`) sizes a request with it, and the practice room's setup line
(:mod:`tutor.practice.sizing`) says what that request will hold. Importable without torch.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tutor.measure.device import DRAM_BUDGET_BYTES, available_bytes, cache_sizes
from tutor.measure.registry import ParamValue, get_workload, validate_params

__all__ = ["DRAM_BUDGET_BYTES", "size_for_dram"]


def size_for_dram(
    name: str, params: Mapping[str, ParamValue], multiple: float, *, caches: Mapping[str, Any] | None = None,
    available: int | None = None,
) -> tuple[dict[str, ParamValue], bool]:
    """``params`` with ``n`` raised so the workload holds at least ``multiple`` × the last-level cache (never below
    the ``n`` given), capped by :data:`DRAM_BUDGET_BYTES`, half the free RAM and the registry's bound; and whether a
    cap cut it short."""
    workload = get_workload(name)
    base = validate_params(name, dict(params))
    given_n = getattr(base, "n", None)
    if not isinstance(given_n, int):
        return base.to_json(), False
    llc = int((caches or cache_sizes())["last_level"])
    per_element = workload.memory_fn(replace(base, **{"n": 1 << 20})) / (1 << 20)
    wanted = math.ceil(multiple * llc / per_element)
    budget = DRAM_BUDGET_BYTES
    free = available if available is not None else available_bytes()
    if free is not None:
        budget = min(budget, free // 2)
    n_cap = int(budget // per_element)
    n_max = next((p.maximum for p in workload.params if p.name == "n" and p.maximum is not None), 2**28)
    wanted = -(-wanted // 1024) * 1024  # whole KiB-elements, rounded up so the multiple is reached
    n = min(wanted, (n_cap // 1024) * 1024, int(n_max))
    n = max(given_n, n, 1024)
    return {**base.to_json(), "n": n}, n < wanted
