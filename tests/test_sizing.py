"""Sizes from the measured hierarchy: a DRAM exercise grows with the learner's cache, capped, and says so."""

from __future__ import annotations

import pytest

from tutor.content.loader import load_course
from tutor.measure.sizing import DRAM_BUDGET_BYTES, size_for_dram
from tutor.paths import bundled_course
from tutor.practice.runner import measure_request
from tutor.practice.sizing import setup_note, working_set

SMALL = {"last_level": 32 << 20, "source": "/sys/devices/system/cpu/cpu0/cache"}
LARGE = {"last_level": 480 << 20, "source": "/sys/devices/system/cpu/cpu0/cache"}
HUGE = {"last_level": 1100 << 20, "source": "/sys/devices/system/cpu/cpu0/cache"}


def test_dram_size_follows_the_cache_and_the_budget() -> None:
    small, capped = size_for_dram("triad", {"n": 1 << 25}, 4, caches=SMALL, available=16 << 30)
    assert small["n"] == 1 << 25 and not capped  # the given n already holds 4× a 32 MiB cache
    large, capped = size_for_dram("triad", {"n": 1 << 25}, 4, caches=LARGE, available=16 << 30)
    assert 3 * 4 * large["n"] >= 4 * (480 << 20) and not capped
    huge, capped = size_for_dram("triad", {"n": 1 << 25}, 4, caches=HUGE, available=16 << 30)
    assert capped and 3 * 4 * huge["n"] <= DRAM_BUDGET_BYTES
    tight, capped = size_for_dram("triad", {"n": 1 << 20}, 4, caches=LARGE, available=1 << 30)
    assert capped and 3 * 4 * tight["n"] <= (1 << 30) // 2


def test_the_setup_line_says_what_the_run_holds_next_to_the_cache_read() -> None:
    course = load_course(bundled_course())
    ex = course.exercises["n0-l1-triad-bound"]
    params, capped = size_for_dram("triad", dict(ex.measure.params), 4, caches=LARGE, available=16 << 30)  # type: ignore[union-attr]
    ws = working_set(ex, params, capped=capped, caches=LARGE)
    assert ws is not None and ws.arrays == 3
    assert setup_note(ws, "en").startswith("This run: 3 arrays of 640 MiB (1.9 GiB in all), 4.0× your 480 MiB")
    assert "4,0× tu L3 de 480 MiB (el último nivel; leída del sistema): mide la DRAM" in setup_note(ws, "es")
    fits = working_set(ex, {"n": 1 << 20}, caches=LARGE)
    assert fits is not None
    assert "fit in your 480 MiB L3 (the last level; read from the system)" in setup_note(fits, "en")
    fallback = working_set(ex, {"n": 1 << 20}, caches={"last_level": 8 << 20, "source": "fallback (typical)"})
    assert fallback is not None and "could not be read" in setup_note(fallback, "en")


def test_no_dram_prompt_asserts_a_cache_fact_and_requests_are_sized() -> None:
    course = load_course(bundled_course())
    for ex in course.exercises.values():
        for lang in ("es", "en"):
            text = getattr(ex.prompt, lang) or ""
            for claim in ("than any cache", "que cualquier caché", "many times the L3", "muchas veces la L3",
                          "only DRAM is left", "solo queda la DRAM"):
                assert claim not in text, (ex.id, claim)
        if ex.measure is not None and ex.measure.dram is not None:
            request = measure_request(ex, "cpu")
            assert request is not None and request["params"]["n"] >= ex.measure.params["n"]


def test_the_roofline_s_stream_arrays_stay_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """4× a 480 MiB L3 would be 1.9 GB per array, 5.6 GB for triad's three: the budget holds them to 2 GiB."""
    from tutor.measure import device

    monkeypatch.setattr(device, "cache_sizes", lambda: {"last_level": 480 * 2**20, "levels": {}})
    per_array = device.dram_working_set_bytes(available=24 * 2**30)
    assert 3 * per_array <= device.DRAM_BUDGET_BYTES and per_array > 480 * 2**20
    assert 3 * device.dram_working_set_bytes(available=1 * 2**30) <= 2**29  # half the free RAM at most
    monkeypatch.setattr(device, "cache_sizes", lambda: {"last_level": 32 * 2**20, "levels": {}})
    assert device.dram_working_set_bytes(available=24 * 2**30) == 128 * 2**20  # 4 × 32 MiB: no cap needed
