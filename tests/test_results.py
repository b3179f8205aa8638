"""One reader of the device a result names, whatever produced the result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tutor.results import (
    BenchComparison,
    BenchReport,
    Classification,
    ComparedFigure,
    Datasheet,
    Device,
    Measurement,
    ResultError,
    RoofCheck,
    RooflineReference,
    StreamFigures,
    SweepPoint,
    TimingStats,
    device_label,
)


def test_a_workload_result_names_its_device() -> None:
    result = {"device": {"kind": "cpu", "name": "AMD EPYC 7B13", "fingerprint": "abc",
                         "caches": {"levels": {"L2": 524288, "L3": 33554432}},
                         "fingerprint_fields": {"physical_cores": 1}}}
    device = Device.of(result)
    assert device == Device("cpu", "AMD EPYC 7B13", "abc", {"L2": 524288, "L3": 33554432}, {"physical_cores": 1})
    assert device.label() == "AMD EPYC 7B13 (cpu)" and device_label(result) == "AMD EPYC 7B13 (cpu)"


def test_reports_name_it_in_their_fingerprint() -> None:
    doctor = {"schema": "gpu-tutor/doctor/v1", "fingerprint": {"id": "f1", "device_kind": "cuda",
                                                               "device": "NVIDIA GeForce RTX 5090"}}
    device = Device.of(doctor)
    assert device is not None and device.fingerprint == "f1" and device.label() == "NVIDIA GeForce RTX 5090 (cuda)"
    sweep = {"device": "cpu", "fingerprint": "f2", "caches": {"levels": {"L3": 480 * 2**20, "bad": "x"}}}
    device = Device.of(sweep)
    assert device is not None and device.fingerprint == "f2" and device.caches == {"L3": 480 * 2**20}


def test_an_attempt_summary_and_odd_rows() -> None:
    assert Device.of({"summary": {"device": {"kind": "cpu", "name": "x"}}}) == Device("cpu", "x")
    for odd in (None, {}, {"device": 3}, {"fingerprint": {"id": "x"}}, {"device": ""}):
        assert Device.of(odd) is None  # type: ignore[arg-type]
    assert device_label(None) == "this machine" and device_label({}, "?") == "?"


# -- the typed results: round trips, stored rows, malformed rows --------------------------------------------------

STORED = Path(__file__).parent / "fixtures" / "results" / "stored_rows_v1.json"
"""Rows as the store keeps them today (an attempt's measurement summary with its lease and telemetry window, a
sweep's summary, a bench report), written by the engine of the time: they must keep reading."""


def _stored() -> dict[str, Any]:
    return dict(json.loads(STORED.read_text()))


def test_each_type_round_trips_through_its_json() -> None:
    timing = TimingStats(median=2e-3, min=1.5e-3, max=4e-3, mean=2.2e-3, cv=0.04, repeats=9, inner=4)
    roof = RooflineReference(peak_bandwidth_gbs=32.0, peak_gflops={"float32": 160.0, "float64": 80.0},
                             ridge_flops_per_byte={"float32": 5.0}, ridge_point=5.0, device=Device("cpu", "x", "fp"),
                             mode="quick", measured_at=1.7e9, load_average=0.3, cached=True,
                             datasheet=Datasheet("Some GPU", 1000.0, {"float32": 50.0}), warnings=("busy",),
                             bandwidth=StreamFigures(cv=0.02))
    cls = Classification("memory", True, "memory", "compute", 0.62, 0.01, 5.0, ridge_dtype="float32", in_band=True,
                         band_factor=1.5, arithmetic_intensity=4.0, attainable_gflops=128.0,
                         fraction_of_attainable=0.1, extra={"a_newer_field": 1})
    check = RoofCheck("cache_resident", 1.4, 2**20, 2**25)
    points = (SweepPoint.from_json("gemm_sizes", {"n": 64, "gflops": 3.5, "cv": 0.1}),)
    m = Measurement(kind="workload", device=Device("cpu", "Test CPU", "fp"), params={"n": 1024, "dtype": "float32"},
                    workload="copy", name="gemm_sizes", flops=0, bytes=8192, arithmetic_intensity=0.0,
                    time_s=timing, achieved_gbs=20.0, achieved_gflops=0.0, best_gbs=22.0, best_gflops=0.0,
                    roofline=roof, classification=cls, roof_check=check, points=points, label="measured",
                    warnings=("w",), figures={"lease": {"held": True}})
    for value in (timing, roof, cls, check, m, roof.datasheet):
        assert value is not None
        assert type(value).from_json(json.loads(json.dumps(value.to_json()))) == value
    assert SweepPoint.from_json("gemm_sizes", points[0].to_json()) == points[0]
    assert Device.from_json(m.device.to_json() if m.device else None) == m.device
    report = BenchReport.from_json(_stored()["bench_report"])
    assert BenchReport.from_json(json.loads(json.dumps(report.to_json()))) == report
    figure = ComparedFigure("mfu", 0.02, 0.021, 0.95, 0.08, True)
    comparison = BenchComparison(0.05, (figure,), True, "rule", 1.0, "tiny")
    assert BenchComparison.from_json(comparison.to_json()) == comparison


def test_rows_stored_in_todays_shape_still_read() -> None:
    rows = _stored()
    m = Measurement.from_json(rows["attempt_measurement"])
    assert m.kind == "workload" and m.workload == "copy" and m.device is not None and m.device.kind == "cpu"
    assert m.time_s is not None and m.time_s.median > 0 and m.time_s.repeats >= 1
    assert m.roofline is not None and m.roofline.peak_bandwidth_gbs > 0 and m.roofline.ridge is not None
    assert m.classification is not None and m.classification.bound in ("memory", "compute")
    assert m.figures["lease"]["held"] is True and "telemetry" in m.figures  # kept under their names
    assert m.figure("classification.bound") == m.classification.bound  # an exercise names figures by path
    assert m.figure("time_s.median") == m.time_s.median
    sweep = Measurement.from_json(rows["sweep_measurement"])
    assert sweep.name == "gemm_sizes" and len(sweep.points) == 2 and all(p.plottable for p in sweep.points)
    report = BenchReport.from_json(rows["bench_report"])
    assert report.mode == "tiny" and report.compared and report.comparison is None
    assert report.value("peak_bandwidth_gbs") == rows["bench_report"]["headline"]["peak_bandwidth_gbs"]
    assert report.headline()["peak_flops_tflops.float32"] > 0


def test_an_older_row_without_optional_fields_reads_with_defaults() -> None:
    old = {"workload": "copy", "device": "cpu", "fingerprint": "f0", "time_s": {"median": 0.002},
           "roofline": {"peak_bandwidth_gbs": 30.0}, "classification": {"bound": "memory"}}
    m = Measurement.from_json(old)
    assert m.kind == "workload" and m.device == Device("cpu", "cpu", "f0")
    assert m.time_s == TimingStats(median=0.002, min=0.002, max=0.002, mean=0.002, cv=0.0, repeats=1)
    assert m.roofline is not None and m.roofline.peak_gflops == {} and m.roofline.ridge is None
    assert m.classification is not None and not m.classification.too_close_to_call
    assert m.dtype == "float32" and m.points == () and m.roof_check is None


def test_a_malformed_row_raises_a_located_typed_error() -> None:
    cases = [
        (None, "measurement: expected an object, got null"),
        ({"kind": "workload", "time_s": {"median": "fast"}}, "measurement.time_s.median: expected a number"),
        ({"kind": "workload", "time_s": {"min": 1.0}}, "measurement.time_s.median: missing"),
        ({"kind": "workload", "roofline": {"peak_gflops": {"float32": 1.0}}},
         "measurement.roofline.peak_bandwidth_gbs: missing"),
        ({"kind": "workload", "roofline": {"peak_bandwidth_gbs": 1.0, "peak_gflops": {"float32": "x"}}},
         "measurement.roofline.peak_gflops.float32: expected a number"),
        ({"kind": "sweep", "name": "gemm_sizes", "points": [{"n": 1}, 3]}, "measurement.points.1: expected an object"),
        ({"kind": "workload", "device": 7}, "measurement.device: expected a device"),
        ({"kind": "workload", "warnings": "oops"}, "measurement.warnings: expected a list"),
    ]
    for row, message in cases:
        with pytest.raises(ResultError) as err:
            Measurement.from_json(row)
        assert str(err.value).startswith(message), (row, str(err.value))
    bench = _stored()["bench_report"]
    with pytest.raises(ResultError, match=r"^bench\.headline\.mfu: expected a number"):
        BenchReport.from_json({**bench, "headline": {**bench["headline"], "mfu": "high"}})
    with pytest.raises(ResultError, match=r"^bench\.device: "):
        BenchReport.from_json({k: v for k, v in bench.items() if k != "device"})
    assert issubclass(ResultError, ValueError) and not issubclass(ResultError, KeyError)


def test_the_summary_an_attempt_keeps_drops_the_raw_tables() -> None:
    rows = _stored()
    full = Measurement.from_json({**rows["attempt_measurement"],
                                  "roofline": {**rows["attempt_measurement"]["roofline"],
                                               "bandwidth": {"cv": 0.1}, "gemm": {"float32": {}}},
                                  "kernels": {"a": 1}})
    summary = full.summary()
    # the raw STREAM and matmul tables go; the bandwidth's CV stays (every chart says how noisy its roof was)
    assert summary.roofline is not None and summary.roofline.bandwidth is None and not summary.roofline.gemm
    assert summary.roofline.bandwidth_cv == 0.1 and summary.roofline.to_json()["bandwidth_cv"] == 0.1
    assert summary.roofline.tables == {}
    assert "kernels" not in summary.figures
    assert summary.time_s == full.time_s and summary.classification == full.classification
