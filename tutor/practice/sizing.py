"""What a run's working set is next to the learner's measured memory hierarchy.

An exercise can ask for ``dram: 4`` (arrays sized to at least 4× the last-level cache read from the system, by
:func:`tutor.measure.sizing.size_for_dram`, which the measurement plan uses too), and every prompt is followed by
one line saying what this run will hold next to the caches it read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tutor.content.models import Exercise
from tutor.i18n import N_, Lang, format_bytes, format_number, t
from tutor.measure.decode_sizing import cache_source_text
from tutor.measure.sizing import size_for_dram

#: Element sizes of the dtypes the registry allows.
_ELEMENT_BYTES = {"float64": 8, "float32": 4, "tfloat32": 4, "bfloat16": 2, "float16": 2}


@dataclass(frozen=True)
class WorkingSet:
    """What one run holds next to the caches it read: bytes, arrays, the last-level cache and where it was read."""

    bytes: int
    arrays: int | None
    last_level_cache: int
    cache_source: str
    cache_read: bool
    capped: bool = False
    last_level_name: str = "L3"

    @property
    def llc_multiple(self) -> float:
        return self.bytes / self.last_level_cache if self.last_level_cache else math.inf


def _caches() -> dict[str, Any]:
    from tutor.measure.device import cache_sizes

    return cache_sizes()


def working_set(exercise: Exercise, params: Mapping[str, Any] | None = None, *, capped: bool = False,
                caches: Mapping[str, Any] | None = None) -> WorkingSet | None:
    """The working set of the exercise's workload (with ``params`` if the request changed them)."""
    call = exercise.measure
    if call is None or call.op != "workload" or call.name is None:
        return None
    from tutor.measure.errors import WorkloadError
    from tutor.measure.registry import get_workload, validate_params

    try:
        workload = get_workload(call.name)
        p = validate_params(call.name, dict(params if params is not None else call.params))
        total = int(workload.memory_fn(p))
    except (WorkloadError, KeyError, ValueError):
        return None
    arrays = None
    # Arrays of n elements only where the workload's memory is proportional to n (STREAM-like kernels); for a
    # GEMM, n is a matrix side and the working set is given in bytes.
    n = getattr(p, "n", None)
    if isinstance(n, int) and int(workload.memory_fn(replace(p, **{"n": 2 * n}))) == 2 * total:
        size = _ELEMENT_BYTES.get(p.element_type, 4)
        arrays = max(1, round(total / (n * size)))
    info = caches or _caches()
    source = str(info.get("source", ""))
    from tutor.measure.device import cache_origin, last_level_name

    return WorkingSet(total, arrays, int(info["last_level"]), source, cache_origin(source) != "fallback", capped,
                      last_level_name(dict(info.get("levels") or {})))


def setup_note(ws: WorkingSet, lang: Lang) -> str:
    """One line under the prompt: what this run holds next to the cache the tutor read (never assumed)."""
    total = format_bytes(ws.bytes, lang)
    if ws.arrays and ws.arrays > 1:
        what = t("setup.arrays", lang, arrays=ws.arrays, each=format_bytes(ws.bytes / ws.arrays, lang), total=total)
    elif ws.arrays == 1:
        what = t("setup.one_array", lang, total=total)
    else:
        what = t("setup.bytes", lang, total=total)
    multiple = ws.llc_multiple
    fields = {
        "what": what,
        "multiple": format_number(multiple, lang, ".1f" if multiple < 10 else ".0f"),
        "llc": format_bytes(ws.last_level_cache, lang),
        "llc_name": ws.last_level_name,
        "source": cache_source_text(ws.cache_source, lang),
    }
    key = N_("setup.dram") if multiple >= 4 else N_("setup.partial") if multiple > 1 else N_("setup.cache")
    return t(key, lang, **fields) + (t("setup.capped", lang) if ws.capped else "")




def decode_setup_line(mode: str, lang: Lang, *, caches: Mapping[str, Any] | None = None,
                      available: int | None = None) -> str | None:
    """The line under a decode exercise's prompt: the reference model this machine gets (sized from its caches,
    as the measurement will size it), its weights next to the last-level cache, and so which roof bounds it."""
    from tutor.measure.decode_sizing import DRAM_MULTIPLE, model_params, reference_decode
    from tutor.measure.device import last_level_name

    info = caches or _caches()
    sizing = reference_decode(mode, llc=int(info["last_level"]), available=available,
                              cache_source=str(info.get("source", "")))
    multiple = sizing.llc_multiple
    if multiple is None:
        return None
    source = str(info.get("source", ""))
    params = model_params(sizing.vocab, sizing.hidden, sizing.layers, sizing.intermediate)
    text = t(f"setup.decode.{sizing.level}", lang, params=f"{format_number(params / 1e6, lang, '.1f')} M",
             weights=format_bytes(sizing.weights_bytes, lang),
             multiple=format_number(multiple, lang, ".2f" if multiple < 10 else ".0f"),
             llc=format_bytes(int(info["last_level"]), lang),
             llc_name=last_level_name(dict(info.get("levels") or {})), source=cache_source_text(source, lang))
    if sizing.grown and not sizing.dram_sized:
        text += t("setup.decode.budget", lang, budget=format_bytes(sizing.budget_bytes, lang),
                  target=format_number(DRAM_MULTIPLE, lang, ".0f"))
    return text


def setup_line(exercise: Exercise, lang: Lang) -> str | None:
    """The line shown under an exercise's prompt (screen and CLI alike): the working set this run will hold,
    sized exactly as the measurement request will be, next to the last-level cache read from this machine."""
    call = exercise.measure
    if call is not None and call.op == "decode":
        mode = call.params.get("mode", "quick")
        return decode_setup_line(mode if isinstance(mode, str) else "quick", lang)
    if call is None or call.op != "workload" or call.name is None:
        return None
    params: Mapping[str, Any] = call.params
    capped = False
    if call.dram is not None:
        try:
            params, capped = size_for_dram(call.name, call.params, call.dram)
        except Exception:  # a size that cannot be computed leaves the request's own validation to say why
            return None
    ws = working_set(exercise, params, capped=capped)
    return None if ws is None else setup_note(ws, lang)
