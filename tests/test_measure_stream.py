"""The bandwidth arithmetic of the roof, the bench and Lab 01 (issue 32), checked with a fake clock.

Real torch kernels run on tiny arrays, but the harness's clock (``tutor.measure.timing.time``) is replaced by one
that each kernel call advances by a scripted number of seconds, so every expected figure is exact and nothing
depends on how fast (or how busy) the machine running the tests is. The expected figures are written out from
STREAM's own counting — copy and scale move 2 words per element, add and triad 3 — not taken from the code under
test, so a wrong word count, a division by the whole round instead of each call, or a median where the best
belongs fails here.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tutor.measure import bench_rounds, kernels, roofline, sweeps, timing
from tutor.measure.estimators import RoundFigure
from tutor.measure.registry import WORKLOADS, StreamParams, WorkingSetParams

WORDS = {"copy": 2, "scale": 2, "add": 3, "triad": 3}  # STREAM's bytes per element, in words
WORD_BYTES = {"float32": 4, "float64": 8, "bfloat16": 2, "float16": 2}


class FakeClock:
    """Stands in for the ``time`` module inside the timing harness: it moves only when a kernel says so."""

    def __init__(self) -> None:
        self.ns = 0

    def perf_counter_ns(self) -> int:
        return self.ns

    def perf_counter(self) -> float:
        return self.ns / 1e9

    def advance(self, seconds: float) -> None:
        self.ns += round(seconds * 1e9)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(timing, "time", fake)
    monkeypatch.setattr(roofline.time, "sleep", lambda _s: None)
    return fake


def timed_by(clock: FakeClock, seconds: dict[str, Iterator[float]], monkeypatch: pytest.MonkeyPatch,
             module: Any = kernels) -> None:
    """Every kernel that :func:`kernels.stream_set` builds runs for real, then advances the clock by its next
    scripted duration."""
    real = kernels.stream_set

    def stream_set(names: tuple[str, ...], p: StreamParams, dev: str) -> dict[str, Callable[[], Any]]:
        built = real(names, p, dev)

        def timed(name: str) -> Callable[[], Any]:
            def call() -> Any:
                out = built[name]()
                clock.advance(next(seconds[name]))
                return out
            return call
        return {name: timed(name) for name in names}

    monkeypatch.setattr(module, "stream_set", stream_set)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("name", ["copy", "scale", "add", "triad"])
def test_bytes_per_call_are_streams_words(name: str, dtype: str) -> None:
    n = 1000
    assert WORKLOADS[name].bytes_fn(StreamParams(n=n, dtype=dtype)) == WORDS[name] * n * WORD_BYTES[dtype]


def test_stream_kernels_compute_streams_loops() -> None:
    import torch

    fns = kernels.stream_set(("copy", "scale", "add", "triad"), StreamParams(n=4096, dtype="float64"), "cpu")
    # the three arrays are the closures' own: read them back through a kernel's result
    c = fns["copy"]()
    a = c.clone()
    b = fns["add"]() - a
    assert torch.equal(fns["copy"](), a)
    assert torch.allclose(fns["scale"](), 3 * a)
    assert torch.allclose(fns["add"](), a + b)
    assert torch.allclose(fns["triad"](), a + 3 * b)
    assert float(a.min()) >= 0.5 and float(b.min()) >= 0.49  # non-zero inputs, never written
    assert torch.equal(fns["copy"](), a)  # the inputs are unchanged after every kernel ran
    with pytest.raises(KeyError):
        kernels.stream_set(("sum",), StreamParams(n=16, dtype="float32"), "cpu")


def test_stream_figures_divide_each_call_and_report_streams_best() -> None:
    gigabytes = 0.5
    rounds = [(0.010, 0.008, 0.012), (0.004, 0.020), (0.016,)]
    out = roofline.stream_figures(gigabytes, rounds)
    every = [t for r in rounds for t in r]
    assert out.gbs_best == pytest.approx(gigabytes / 0.004) == pytest.approx(out.gbs_single_best)
    assert out.gbs_median == pytest.approx(gigabytes / statistics.median(every))  # 0.5 / 0.011
    assert out.gbs_round_best == pytest.approx([gigabytes / 0.008, gigabytes / 0.004, gigabytes / 0.016])
    assert out.gbs_round_median == pytest.approx(gigabytes / 0.008)
    assert out.gbs_samples == pytest.approx([gigabytes / t for t in every])
    assert out.time_s is not None and out.time_s.repeats == 6 and out.time_s.min == 0.004
    with pytest.raises(ValueError):
        roofline.stream_figures(gigabytes, [])
    with pytest.raises(ValueError):
        roofline.stream_figures(gigabytes, [(0.0,)])


def test_the_roofs_bandwidth_with_a_fake_clock(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    n, rounds = 2**12, 3
    monkeypatch.setitem(roofline.MODES, "fake", {**roofline.MODES["tiny"], "stream_rounds": rounds,
                                                 "stream_kernels": ("copy", "scale", "add", "triad"),
                                                 "stream_round_gap_s": 0.0, "budget_s": 0.0, "max_repeats": 5})
    # per kernel: 2 warm-up calls in round 1, 1 in each later round, then 5 timed calls (min_repeats)
    timed = {"copy": [0.004, 0.005, 0.006, 0.007, 0.008],
             "scale": [0.003, 0.003, 0.003, 0.003, 0.003],
             "add": [0.010, 0.012, 0.009, 0.011, 0.013],
             "triad": [0.020, 0.006, 0.030, 0.040, 0.050]}

    def script(name: str) -> Iterator[float]:
        for r in range(rounds):
            yield from [1.0] * (2 if r == 0 else 1)  # slow warm-ups: never counted
            yield from [t * (r + 1) for t in timed[name]]  # round r runs (r + 1)× slower
    timed_by(clock, {name: script(name) for name in timed}, monkeypatch)
    out = roofline.measure_bandwidth("cpu", "fake", array_bytes=n * 4)
    assert out.array_bytes == n * 4 and out.rounds == rounds
    for name, seconds in timed.items():
        k = out.kernels[name]
        gigabytes = WORDS[name] * n * 4 / 1e9
        assert k.bytes == WORDS[name] * n * 4
        assert k.gbs_best == pytest.approx(gigabytes / min(seconds))
        every = [t * (r + 1) for r in range(rounds) for t in seconds]
        assert k.gbs_median == pytest.approx(gigabytes / statistics.median(every))
        assert k.gbs_round_best == pytest.approx([gigabytes / (min(seconds) * (r + 1)) for r in range(rounds)])
        assert k.gbs_round_median == pytest.approx(gigabytes / (min(seconds) * 2))
        assert k.time_s is not None and k.time_s.repeats == 5 * rounds
    assert out.peak_bandwidth_gbs == pytest.approx(2 * n * 4 / 1e9 / 0.004)
    assert len(out.rounds_other_cores) == rounds


def test_the_benchs_bandwidth_with_a_fake_clock(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    n, rounds, repeats = 2**12, 3, 4
    monkeypatch.setitem(roofline.MODES, "fake", {**roofline.MODES["tiny"], "stream_kernels": ("copy", "triad"),
                                                 "rounds": rounds, "copy_repeats": repeats})
    copy_s = iter([1.0] * 3 + [0.002, 0.001, 0.003, 0.004] + [0.004, 0.004, 0.005, 0.006] + [0.008] * 4)
    triad_s = iter([1.0] * 3 + [0.006] * 4 + [0.003, 0.009, 0.012, 0.006] + [0.012] * 4)
    timed_by(clock, {"copy": copy_s, "triad": triad_s}, monkeypatch, module=bench_rounds.kernels)
    task, bw, samples = bench_rounds._copy_task("cpu", "fake", n * 4, None, lambda *_: None)
    values = tuple(task() for _ in range(rounds))
    copy_gb, triad_gb = 2 * n * 4 / 1e9, 3 * n * 4 / 1e9
    assert values == pytest.approx((copy_gb / 0.001, copy_gb / 0.004, copy_gb / 0.008))  # each round's best copy
    bw = bench_rounds.stream_result(bw, samples, RoundFigure(values), "fake")
    assert bw.peak_bandwidth_gbs == pytest.approx(copy_gb / 0.001)
    assert bw.kernels["copy"].gbs_round_median == pytest.approx(copy_gb / 0.004)
    assert bw.kernels["triad"].gbs_best == pytest.approx(triad_gb / 0.003)
    assert bw.kernels["triad"].gbs_median == pytest.approx(triad_gb / 0.0075)  # median of 12 calls
    triad_time = bw.kernels["triad"].time_s
    assert triad_time is not None and triad_time.repeats == rounds * repeats
    assert bw.cv == pytest.approx(RoundFigure(values).cv)


def test_lab01_divides_each_sample_by_its_calls(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The working-set sweep times many calls per sample at small sizes: the rate is per call."""
    real = kernels.stream_set

    def stream_set(names: tuple[str, ...], p: StreamParams, dev: str) -> dict[str, Callable[[], Any]]:
        copy = real(names, p, dev)["copy"]

        def call() -> Any:
            out = copy()
            clock.advance(p.n * 1e-7)  # 0.1 µs per element, whatever the size
            return out
        return {"copy": call}

    monkeypatch.setattr(sweeps.kernels, "stream_set", stream_set)
    out = sweeps.working_set("cpu", WorkingSetParams(min_kib=16, max_mib=1, points_per_octave=1, dtype="float32"),
                             lambda *_: None, None)
    points = out["points"]
    assert len(points) == 7 and any(p["inner"] > 1 for p in points) and any(p["inner"] == 1 for p in points)
    for p in points:
        assert p["gbs"] == pytest.approx(2 * 4 / 1e-7 / 1e9)  # 2 words of 4 bytes per element per 0.1 µs
        assert p["working_set_bytes"] == 2 * 4 * round(p["time_per_call_s"] / 1e-7)


def test_the_report_shows_the_best_copy_and_the_rounds_median_in_both_languages() -> None:
    import json
    from pathlib import Path

    from tutor.measure.bench_report import method_lines, note_lines
    from tutor.results import BenchReport

    raw = json.loads((Path(__file__).parent / "fixtures" / "results" / "bench_report_tiny.json").read_text())
    old = BenchReport.from_json(raw)
    assert "fastest" not in note_lines(old, "en")[0]  # a report from before keeps the words it was measured with
    bw = raw["tests"]["bandwidth"]
    bw["method"] = f"STREAM copy (2 words per element): {roofline.STREAM_ESTIMATOR}; 3 rounds"
    bw["kernels"]["copy"].update(gbs_best=71.5, gbs_round_median=34.2)
    bw["kernels"]["triad"] = {"gbs_best": 73.0}
    new = BenchReport.from_json(raw)
    en, es = note_lines(new, "en")[0], note_lines(new, "es")[0]
    assert "71.5 GB/s" in en and "34.2 GB/s" in en and "73 GB/s" in en and "how busy the machine was" in en
    assert "71,5 GB/s" in es and "34,2 GB/s" in es and "cuán ocupada estaba la máquina" in es
    assert method_lines(new, "en")[0].startswith("peak bandwidth: the fastest copy")
    assert method_lines(new, "es")[0].startswith("ancho de banda pico: la copia más rápida")


def test_lab01_view_code_shows_the_stream_kernels() -> None:
    from tutor.measure.source import timed_code

    code = timed_code("sweep", "working_set")
    assert code is not None
    assert [b[1] for b in code.blocks] == ["working_set", "stream_set", "time_callable"]
    assert "c.copy_(a)" in code.markdown()
