"""The figures each op declares (tutor.measure.outputs) are the figures a real run produces: every op runs once,
small, on the CPU, and every declared path must be in its result — so `lessons check` cannot drift from the
engine."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tutor.measure import outputs
from tutor.measure.api import run_request
from tutor.measure.plan import parse_request

TINY = {"device": "cpu", "roofline_mode": "tiny"}

RUNS: list[tuple[str, dict[str, Any]]] = [
    ("workload", {"op": "workload", "name": "triad", "params": {"n": 1 << 14}, "budget_s": 0.05, **TINY}),
    ("roofline", {"op": "roofline", "device": "cpu", "mode": "tiny"}),
    ("working_set", {"op": "sweep", "name": "working_set",
                     "params": {"min_kib": 16, "max_mib": 1, "points_per_octave": 1}, **TINY}),
    ("gemm_sizes", {"op": "sweep", "name": "gemm_sizes", "params": {"min_n": 8, "max_n": 32, "points": 3}, **TINY}),
    ("naive_vs_numpy", {"op": "sweep", "name": "naive_vs_numpy", "params": {"max_naive_n": 16, "max_n": 32},
                        **TINY}),
    ("gemm_share", {"op": "sweep", "name": "gemm_share", "params": {"max_batch": 2, "steps": 1}, "mode": "tiny",
                    **TINY}),
    ("roofline_points", {"op": "sweep", "name": "roofline_points", "params": {}, **TINY}),
    ("vram", {"op": "vram", "params": {"preset": "gpt2-124m", "mode": "inference", "seq_len": 64}, "device": "cpu"}),
    ("decode", {"op": "decode", "mode": "tiny", **TINY}),
    ("decode_gap", {"op": "decode_gap", "mode": "tiny", **TINY}),
    ("train_step", {"op": "train_step", "mode": "tiny", **TINY}),
    ("bench", {"op": "bench", "mode": "tiny", "device": "cpu"}),
]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, Any]]]:
    """Each op run once (module scope: the roofline measured once, in tiny mode, for all of them)."""
    import os

    data = tmp_path_factory.mktemp("outputs-data")
    old = os.environ.get("TUTOR_DATA_DIR")
    os.environ["TUTOR_DATA_DIR"] = str(data)
    try:
        yield {key: run_request(dict(request)) for key, request in RUNS}
    finally:
        if old is None:
            os.environ.pop("TUTOR_DATA_DIR", None)
        else:
            os.environ["TUTOR_DATA_DIR"] = old


def paths_of(data: Any, prefix: str = "") -> Iterator[str]:
    """Every dotted path to a number in ``data`` (list items by index), as ``truth.lookup`` follows them."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            yield from paths_of(value, f"{prefix}{key}.")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from paths_of(value, f"{prefix}{i}.")
    elif isinstance(data, int | float) and not isinstance(data, bool):
        yield prefix[:-1]


def matches(pattern: str, path: str) -> bool:
    want, got = pattern.split("."), path.split(".")
    return len(want) == len(got) and all(w == g or (w.startswith("<") and w.endswith(">"))
                                         for w, g in zip(want, got, strict=True))


@pytest.mark.parametrize(("key", "request_"), RUNS, ids=[k for k, _ in RUNS])
def test_every_declared_figure_is_produced(results: dict[str, dict[str, Any]], key: str,
                                           request_: dict[str, Any]) -> None:
    plan = parse_request(request_)
    produced = set(paths_of(results[key]))
    declared = outputs.declared(plan.op, plan.name)
    assert declared, key
    for pattern in declared:
        if outputs.optional(plan.op, pattern):
            continue  # a figure another device produces (noted in outputs.DEVICE_NOTES)
        hits = [p for p in produced if matches(pattern, p)]
        assert hits, f"{key}: declared {pattern!r} is not in the result"
        for path in hits:  # and the check accepts what the run produced
            assert outputs.path_problem(plan.op, plan.name, plan.params, path, plan.options.mode) is None, path
    # a misspelt figure is refused
    assert outputs.path_problem(plan.op, plan.name, plan.params, "no_such_figure", plan.options.mode)


@pytest.mark.parametrize("name", ["working_set", "gemm_sizes", "naive_vs_numpy", "gemm_share", "roofline_points"])
def test_the_point_count_the_check_allows_is_the_count_the_sweep_makes(
        results: dict[str, dict[str, Any]], name: str) -> None:
    request = dict(RUNS)[name]
    plan = parse_request(request)
    points = results[name]["points"]
    assert outputs.sweep_points(name, plan.params) == len(points)
    last = len(points) - 1
    figure = {"working_set": "gbs", "gemm_share": "gemm_pct"}.get(name, "time_s")
    assert outputs.path_problem("sweep", name, plan.params, f"points.{last}.{figure}") is None
    assert outputs.path_problem("sweep", name, plan.params, f"points.{last + 1}.gbs") is not None


def test_decode_batches_and_naive_sizes_are_the_ones_the_run_reports(results: dict[str, dict[str, Any]]) -> None:
    decode = results["decode"]
    assert set(decode["batches"]) == {"1", "4"}  # tiny mode: batch 1 and the mode's large batch
    for batch in decode["batches"]:
        assert outputs.path_problem("decode", None, {}, f"batches.{batch}.fraction_of_bound", "tiny") is None
    naive = results["naive_vs_numpy"]
    assert set(naive["speedup"]) == {str(n) for n in outputs.naive_sizes(32)}


def test_no_result_is_written_outside_the_data_dir(tmp_path: Path) -> None:
    # the roofline cache of the runs above went to their own data dir, not this test's
    assert not any(tmp_path.iterdir())
