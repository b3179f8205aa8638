"""The timing harness against a fake clock and a fake kernel (issue 29 item 8): a sample's time is divided by the
calls it ran, the warm-up calls are run and never timed, the repeat counts and the budget hold. A mutation that
divides per call instead of per sample, or drops the warm-up, fails here (it survived the measure tests before)."""

from __future__ import annotations

import pytest

from tutor.measure import timing


class FakeClock:
    """``perf_counter_ns`` that advances only when the fake kernel runs: each call takes ``seconds[i]``."""

    def __init__(self, seconds: list[float]) -> None:
        self.now_ns = 0
        self.seconds = list(seconds)
        self.calls = 0

    def perf_counter_ns(self) -> int:
        return self.now_ns

    def kernel(self) -> None:
        step = self.seconds[min(self.calls, len(self.seconds) - 1)]
        self.calls += 1
        self.now_ns += round(step * 1e9)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock([1e-3])
    monkeypatch.setattr(timing.time, "perf_counter_ns", fake.perf_counter_ns)
    return fake


def test_each_sample_is_divided_by_its_calls(clock: FakeClock) -> None:
    clock.seconds = [2e-3]  # every call takes 2 ms
    runs = timing.time_callable(clock.kernel, warmup=0, min_repeats=4, max_repeats=4, budget_s=0, inner=5)
    assert runs.times_s == pytest.approx((2e-3,) * 4)  # per call: 10 ms per sample ÷ 5 calls
    assert runs.inner == 5 and clock.calls == 20
    assert runs.stats().repeats == 4 and runs.stats().median == pytest.approx(2e-3)


def test_the_warm_up_runs_first_and_is_never_timed(clock: FakeClock) -> None:
    clock.seconds = [0.5, 0.5, 1e-3]  # two slow first calls (allocation, JIT), then 1 ms
    runs = timing.time_callable(clock.kernel, warmup=2, min_repeats=3, max_repeats=3, budget_s=0)
    assert clock.calls == 5
    assert runs.times_s == pytest.approx((1e-3,) * 3) and runs.max == pytest.approx(1e-3)


def test_repeats_until_the_budget_within_the_bounds(clock: FakeClock) -> None:
    clock.seconds = [0.1]
    runs = timing.time_callable(clock.kernel, warmup=0, min_repeats=2, max_repeats=50, budget_s=0.35)
    assert len(runs.times_s) == 4  # 0.1 s each: 0.4 s ≥ the 0.35 s budget after the 4th
    few = timing.time_callable(clock.kernel, warmup=0, min_repeats=7, max_repeats=50, budget_s=0.0)
    assert len(few.times_s) == 7  # the minimum holds even with no budget left
    capped = timing.time_callable(clock.kernel, warmup=0, min_repeats=1, max_repeats=3, budget_s=100.0)
    assert len(capped.times_s) == 3


def test_the_spread_and_the_order_statistics(clock: FakeClock) -> None:
    clock.seconds = [1e-3, 3e-3, 2e-3]
    runs = timing.time_callable(clock.kernel, warmup=0, min_repeats=3, max_repeats=3, budget_s=0)
    assert (runs.min, runs.median, runs.max) == pytest.approx((1e-3, 2e-3, 3e-3))
    assert runs.mean == pytest.approx(2e-3) and runs.cv == pytest.approx(0.5)  # sample stdev 1 ms ÷ mean 2 ms


def test_choose_inner_fills_a_two_millisecond_sample(clock: FakeClock) -> None:
    clock.seconds = [1e-5]
    assert timing.choose_inner(clock.kernel) == 200
    clock.seconds = [1.0]
    assert timing.choose_inner(clock.kernel) == 1
