"""The roofline typed all the way (issue 29 item 4): a roof cached by the code before the types still loads, figure
for figure, and is written back as it was; a cached entry that does not read as a roof is measured again and says
why, instead of failing the measurement that asked for it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.roofline import QuietProbe
from tutor.measure import roofline as roofline_mod
from tutor.measure.device import device_info
from tutor.measure.roofline_model import cached_roofline, store_roofline
from tutor.results import GemmFigures, RooflineReference, StreamFigures

OLD_CACHE = Path(__file__).parent / "fixtures" / "results" / "roofline_cache_v2.json"


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("TUTOR_DATA_DIR", str(tmp_path))
    roofline_mod._PROBED.clear()
    yield tmp_path


def _old_entry() -> dict[str, Any]:
    return dict(json.loads(OLD_CACHE.read_text(encoding="utf-8"))["roof"])


def _without_nulls(value: Any) -> Any:
    """JSON with the keys whose value is null dropped (the types leave an unknown figure out instead)."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def test_a_roof_cached_by_the_old_code_reads_figure_for_figure_and_is_written_back_as_it_was() -> None:
    old = _old_entry()
    roof = RooflineReference.from_json(old)
    assert roof.tables == {}  # every field is named by the type
    bw = roof.bandwidth
    assert isinstance(bw, StreamFigures) and bw.array_bytes == old["bandwidth"]["array_bytes"]
    copy = bw.kernels["copy"]
    assert copy.bytes == 16777216 and copy.gbs_best == old["bandwidth"]["kernels"]["copy"]["gbs_best"]
    assert copy.time_s is not None and copy.time_s.repeats == 5
    assert bw.last_level_cache_bytes == old["bandwidth"]["last_level_cache_bytes"]
    fp32 = roof.gemm["float32"]
    assert isinstance(fp32, GemmFigures) and fp32.n == old["gemm"]["float32"]["n"]
    assert fp32.best_size is not None and fp32.best_size.gflops_median == old["gemm"]["float32"]["sizes"][0][
        "gflops_median"]
    assert roof.gemm["float16"].error is not None and roof.gemm["float16"].peak_gflops is None
    limits = roof.physical_limits
    assert limits is not None and limits.cores == 2 and limits.nominal_gflops["float32"] == pytest.approx(332.30336)
    assert limits.theoretical_peak("float32")[0] == pytest.approx(332.30336)
    assert roof.provisional == ("busy",) and roof.interference is not None and roof.interference.busy
    assert roof.probe is not None and roof.probe.slower and roof.remeasured_because == "probe_disagreed"
    assert roof.peak_spread["matmul"] == pytest.approx(old["peak_spread"]["matmul"])
    assert [m.code for m in roof.warnings_said] == ["bench.warn.above_limit"]
    assert roof.format == old["format"] and roof.cpus == 2 and roof.threads == 2
    written = roof.to_json()
    assert written.pop("cached") is False
    assert _without_nulls(written) == _without_nulls(old)


def test_an_old_cached_roof_grades_from_the_cache_without_being_measured_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    info = device_info("cpu")
    old = {**_old_entry(), "provisional": [], "device": {k: info[k] for k in ("kind", "name", "fingerprint")},
           "interference": {"seconds": 1.0, "cpus": 2, "other_cores": 0.0, "steal": 0.0}, "load_average": 0.1}
    old["bandwidth"] = {**old["bandwidth"], "cv": 0.01, "kernels": {"copy": {
        **old["bandwidth"]["kernels"]["copy"], "gbs_round_best": [old["peak_bandwidth_gbs"]] * 3}}}
    old["gemm"] = {"float32": {**old["gemm"]["float32"], "cv": 0.01}}
    store_roofline(info["fingerprint"], old)
    monkeypatch.setattr(roofline_mod, "probe_roof", lambda *_a, **_k: None)

    def measured(*_a: Any, **_k: Any) -> RooflineReference:
        raise AssertionError("an old roof that reads is not measured again")

    monkeypatch.setattr(roofline_mod, "measure_roofline", measured)
    roof = roofline_mod.get_roofline("cpu", info, mode="quick")
    assert roof.cached and roof.peak_bandwidth_gbs == old["peak_bandwidth_gbs"]
    assert roof.gemm["float32"].n == old["gemm"]["float32"]["n"]


def test_a_cached_roof_that_does_not_read_is_measured_again_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    info = device_info("cpu")
    damaged = {**_old_entry(), "device": {k: info[k] for k in ("kind", "name", "fingerprint")}}
    damaged["bandwidth"] = {**damaged["bandwidth"], "array_bytes": "eight megabytes"}
    store_roofline(info["fingerprint"], damaged)
    fresh = RooflineReference.from_json({**_old_entry(), "peak_bandwidth_gbs": 50.0, "provisional": []})
    monkeypatch.setattr(roofline_mod, "measure_roofline", lambda *_a, **_k: fresh)
    monkeypatch.setattr(roofline_mod, "InterferenceProbe", QuietProbe)
    roof = roofline_mod.get_roofline("cpu", info, mode="quick")
    assert not roof.cached and roof.remeasured_because == "unreadable" and roof.peak_bandwidth_gbs == 50.0
    assert cached_roofline(info["fingerprint"])["peak_bandwidth_gbs"] == 50.0  # type: ignore[index]




def test_a_decode_figure_above_its_bound_is_a_typed_check_written_as_before() -> None:
    from tutor.results import BoundCheck
    from tutor.theory.roofline import bound_check

    above = bound_check(measured=13.0, bound=10.0, cv=0.05, samples=30)
    assert isinstance(above, BoundCheck) and above.code == "above_bound"
    assert set(above.to_json()) == {"code", "fraction", "margin", "cv"}  # the keys the decode result always had
    again = BoundCheck.from_json({**above.to_json(), "remeasured": True, "bandwidth_before_gbs": 1.0,
                                  "bandwidth_after_gbs": 2.0, "fraction_after": 0.9, "still_above": False})
    assert again.remeasured and again.bandwidth_after_gbs == 2.0
    assert BoundCheck.from_json(again.to_json()) == again


def test_a_known_gpus_datasheet_is_written_as_the_spec_table_has_it() -> None:
    """The datasheet beside a measured GPU roof keeps every column of the spec table, as the code before the
    types wrote it (``{**spec.to_dict(), "ridge_flops_per_byte": ...}``), and reads back to the same type."""
    from tutor.measure.specs import lookup_spec

    spec = lookup_spec("NVIDIA GeForce RTX 5090")
    assert spec is not None
    roof = roofline_mod.assemble_roofline(
        "cuda", {"kind": "cuda", "name": "NVIDIA GeForce RTX 5090", "fingerprint": "f"}, "quick",
        StreamFigures(peak_bandwidth_gbs=1500.0), {"float32": GemmFigures(peak_gflops=90_000.0)}, 0.0)
    assert roof.datasheet is not None and roof.datasheet.sms == spec.sms and roof.datasheet.extra == {}
    old = {**spec.to_dict(), "ridge_flops_per_byte": {d: spec.ridge_flops_per_byte(d) for d in spec.tflops}}
    assert roof.to_json()["datasheet"] == _without_nulls(old)
    assert RooflineReference.from_json(roof.to_json()).datasheet == roof.datasheet
    limits = roof.physical_limits
    assert limits is not None and limits.bandwidth_gbs == spec.bandwidth_gbs
    assert limits.theoretical_peak("float32") == (spec.tflops["float32"] * 1e3, spec.source)
