"""One reader of the device a result names, whatever produced the result."""

from __future__ import annotations

from tutor.results import Device, device_label


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
