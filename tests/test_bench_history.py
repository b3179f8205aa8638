"""Bench runs are compared with the previous run of the same mode on the same fingerprint, then stored."""

from __future__ import annotations

from tests.conftest import Stores
from tutor.progress.bench_history import record_bench
from tutor.progress.c0 import bench_condition
from tutor.results import BenchReport


def report(mode: str, bandwidth: float, fingerprint: str = "fp") -> BenchReport:
    headline = {"peak_bandwidth_gbs": bandwidth, "peak_flops_tflops": {"float32": 0.18}}
    return BenchReport.from_json({"mode": mode, "device": {"fingerprint": fingerprint, "kind": "cpu"},
                                  "headline": headline})


def test_second_pass_is_compared_with_the_first_of_its_mode(stores: Stores) -> None:
    store = stores.open()
    assert record_bench(store, report("quick", 40.0)).comparison is None
    assert record_bench(store, report("full", 80.0)).comparison is None  # a full run is not a second quick pass
    comparison = record_bench(store, report("quick", 41.0)).comparison
    assert comparison is not None and comparison.agree
    [bw] = [f for f in comparison.figures if f.key == "peak_bandwidth_gbs"]
    assert bw.previous == 40.0 and abs(bw.ratio - 1.025) < 1e-9
    runs = store.bench_runs("fp")
    assert [r.mode for r in runs] == ["quick", "full", "quick"]
    assert runs[-1].report is not None and runs[-1].report.comparison == comparison
    assert bench_condition(runs).passed
    record_bench(store, report("quick", 30.0))  # 27 % slower: this pair does not agree...
    cond = bench_condition(store.bench_runs("fp"))
    assert cond.passed  # ...but the earlier agreement is not silently withdrawn: the evidence says which holds
    assert cond.refs["bench_runs"] == [1, 3] and cond.refs["latest_pair"] == [3, 4] and not cond.refs["latest_agree"]
    words = cond.evidence.render("en")
    assert "still holds" in words and "#3" in words and "#4" in words
