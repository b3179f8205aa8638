"""The telemetry window of a run as a typed result (issue 29 item 4): what the sampler summarises reaches the
reveal and the notebook as :class:`WindowSummary` values, and becomes JSON only where a measurement is stored, in
the shape stored rows have always had; a stored window reads back typed, an older row's too."""

from __future__ import annotations

import json
from pathlib import Path

from tutor.progress.rows import LabResult
from tutor.results import Measurement
from tutor.telemetry.format import describe_window
from tutor.telemetry.sampler import WindowSummary, windows_from_json, windows_to_json

STORED = Path(__file__).parent / "fixtures" / "results" / "stored_rows_v1.json"

HOST = WindowSummary(device="host", kind="host", name="AMD EPYC", backend="host", t0=10.0, t1=19.0, samples=35,
                     util_metric="cpu_pct", util_mean_pct=98.5, util_peak_pct=100.0, mem_metric="ram_used_bytes",
                     mem_peak_bytes=4_125_147_136, mem_total_bytes=25_276_194_816, power_mean_w=None,
                     power_peak_w=None)


def test_a_window_is_stored_as_it_always_was_and_reads_back_equal() -> None:
    stored = windows_to_json({"host": HOST})
    assert stored == {"host": {"device": "host", "kind": "host", "name": "AMD EPYC", "backend": "host", "t0": 10.0,
                               "t1": 19.0, "samples": 35, "util_metric": "cpu_pct", "util_mean_pct": 98.5,
                               "util_peak_pct": 100.0, "mem_metric": "ram_used_bytes",
                               "mem_peak_bytes": 4_125_147_136, "mem_total_bytes": 25_276_194_816,
                               "power_mean_w": None, "power_peak_w": None}}
    again = windows_from_json(json.loads(json.dumps(stored)))
    assert again == {"host": HOST}
    assert describe_window("host", again["host"], "en") == (
        "AMD EPYC: CPU mean 98 %, peak 100 % · peak RAM 3.8 of 23.5 GiB (35 samples)")


def test_a_lab_result_reads_its_stored_window_typed_and_leaves_out_one_that_does_not_read() -> None:
    measurement = json.loads(STORED.read_text(encoding="utf-8"))["attempt_measurement"]
    result = LabResult.of(Measurement.from_json(measurement)).with_figures(
        telemetry={**windows_to_json({"host": HOST}), "gpu0": {"samples": "many"}})
    assert result.telemetry == {"host": HOST}
    # a row of schema 1 kept another shape (samples and a util_pct pair): it still reads, its samples counted
    old = LabResult.of(Measurement.from_json(measurement)).telemetry
    assert list(old) == ["cpu"] and old["cpu"].samples == 12 and old["cpu"].util_mean_pct is None
