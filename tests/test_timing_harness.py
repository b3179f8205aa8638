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


# -- what `make mutants` found the tests above let through (README, development section) --------------------------


def test_the_defaults_two_warm_ups_five_to_fifty_repeats_one_second(clock: FakeClock) -> None:
    clock.seconds = [0.3]  # five repeats pass the 1 s budget: the minimum decides
    runs = timing.time_callable(clock.kernel)
    assert clock.calls == 2 + 5 and len(runs.times_s) == 5 and runs.inner == 1
    clock.calls, clock.seconds = 0, [0.15]  # 7 × 0.15 s = 1.05 s: the budget decides
    assert len(timing.time_callable(clock.kernel).times_s) == 7 and clock.calls == 2 + 7
    clock.seconds = [1e-3]  # 50 ms of work in 50 repeats: the cap decides
    assert len(timing.time_callable(clock.kernel).times_s) == 50


def test_a_budget_met_exactly_stops(clock: FakeClock) -> None:
    clock.seconds = [0.25]  # binary-exact: after two repeats exactly 0.5 s, the budget, is spent
    runs = timing.time_callable(clock.kernel, warmup=0, min_repeats=1, max_repeats=10, budget_s=0.5)
    assert len(runs.times_s) == 2


def test_the_stats_carry_every_figure(clock: FakeClock) -> None:
    clock.seconds = [1e-3, 4e-3, 2e-3, 3e-3]
    stats = timing.time_callable(clock.kernel, warmup=0, min_repeats=4, max_repeats=4, budget_s=0, inner=1).stats()
    assert (stats.min, stats.max, stats.median, stats.mean) == pytest.approx((1e-3, 4e-3, 2.5e-3, 2.5e-3))
    assert stats.cv == pytest.approx(0.5164, rel=1e-3) and stats.repeats == 4 and stats.inner == 1
    clock.seconds = [2e-3]
    assert timing.time_callable(clock.kernel, warmup=0, min_repeats=2, max_repeats=2, budget_s=0,
                                inner=3).stats().inner == 3


def test_choose_inner_probes_once_warm_and_rounds_up(clock: FakeClock) -> None:
    clock.seconds = [1e-5]
    assert timing.choose_inner(clock.kernel) == 200 and clock.calls == 1 + 3  # one warm-up, three probes
    clock.seconds = [3e-4]  # 2 ms ÷ 0.3 ms = 6.67: up to 7 calls, a sample of at least 2 ms
    assert timing.choose_inner(clock.kernel) == 7
    clock.seconds = [0.0]  # the clock did not move: read as 1 ns per call, then capped
    assert timing.choose_inner(clock.kernel) == 10_000
    assert timing.choose_inner(clock.kernel, cap=10**9) == 2_000_000
    clock.seconds = [1e-6]
    assert timing.choose_inner(clock.kernel, target_s=1e-3, cap=50) == 50


def test_a_cancel_is_checked_before_every_call_that_is_timed(clock: FakeClock) -> None:
    from tutor.measure.errors import MeasureCancelled

    asked: list[int] = []

    def cancel_on_the_third_question() -> bool:
        asked.append(clock.calls)
        return len(asked) >= 3

    with pytest.raises(MeasureCancelled):
        timing.time_callable(clock.kernel, warmup=1, min_repeats=5, max_repeats=5, budget_s=0,
                             should_cancel=cancel_on_the_third_question)
    assert asked == [0, 1, 2] and clock.calls == 2  # before the warm-up, before each repeat


class FakeCudaEvent:
    """``torch.cuda.Event`` on the fake clock: ``elapsed_time`` in milliseconds, as CUDA reports it."""

    def __init__(self, clock: FakeClock, enable_timing: bool = False) -> None:
        assert enable_timing
        self.clock = clock
        self.at_ns: int | None = None

    def record(self) -> None:
        self.at_ns = self.clock.now_ns

    def synchronize(self) -> None:
        self.clock.synced += 1

    def elapsed_time(self, end: FakeCudaEvent) -> float:
        assert self.at_ns is not None and end.at_ns is not None
        return (end.at_ns - self.at_ns) / 1e6


def test_the_cuda_path_times_with_events_and_divides_each_sample_by_its_calls(
        clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The GPU's timing path, without a GPU: events on the fake clock. Same rules as the CPU's: warm-ups untimed,
    milliseconds to seconds, each sample divided by its calls, the budget and the bounds."""
    import torch

    clock.synced = 0  # type: ignore[attr-defined]
    monkeypatch.setattr(torch.cuda, "Event", lambda enable_timing=False: FakeCudaEvent(clock, enable_timing))
    monkeypatch.setattr(torch.cuda, "synchronize", lambda: None)
    clock.seconds = [0.5, 2e-3]  # a slow first call (the warm-up), then 2 ms
    runs = timing.time_callable(clock.kernel, "cuda", warmup=1, min_repeats=3, max_repeats=3, budget_s=0, inner=5)
    assert runs.times_s == pytest.approx((2e-3,) * 3) and runs.inner == 5
    assert clock.calls == 1 + 3 * 5 and clock.synced == 3  # type: ignore[attr-defined]  # each end event read
    clock.calls, clock.seconds = 0, [0.1]
    assert len(timing.time_callable(clock.kernel, "cuda", warmup=0, min_repeats=2, max_repeats=50,
                                    budget_s=0.35).times_s) == 4
    assert len(timing.time_callable(clock.kernel, "cuda", warmup=0, min_repeats=1, max_repeats=3,
                                    budget_s=100.0).times_s) == 3
    clock.seconds = [0.25]
    assert len(timing.time_callable(clock.kernel, "cuda", warmup=0, min_repeats=1, max_repeats=10,
                                    budget_s=0.5).times_s) == 2
    clock.seconds, synced = [1e-5], clock.synced  # type: ignore[attr-defined]
    assert timing.choose_inner(clock.kernel, "cuda") == 200
    assert clock.synced == synced + 3  # type: ignore[attr-defined]  # probed with events, on the device asked

    from tutor.measure.errors import MeasureCancelled

    asked: list[int] = []

    def cancel_on_the_third_question() -> bool:
        asked.append(clock.calls)
        return len(asked) >= 3

    clock.calls = 0
    with pytest.raises(MeasureCancelled):
        timing.time_callable(clock.kernel, "cuda", warmup=1, min_repeats=5, max_repeats=5, budget_s=0,
                             should_cancel=cancel_on_the_third_question)
    assert asked == [0, 1, 2] and clock.calls == 2  # before the warm-up, before each repeat, as on the CPU
