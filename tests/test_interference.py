"""What other programs take of the machine while a measurement runs (issue 26 item 2), from made-up counters."""

from __future__ import annotations

import pytest

from tutor.measure.interference import CpuCounters, InterferenceProbe, between
from tutor.practice.roof_stamp import interference_text
from tutor.results import Interference, Measurement


def test_other_programs_are_the_machine_s_busy_time_less_this_process_s() -> None:
    # 2 s of wall time; the machine was busy 3.6 CPU-seconds, 0.4 of them this process's: others kept 1.6 cores
    start = CpuCounters(wall=100.0, busy=1000.0, steal=50.0, own=10.0)
    end = CpuCounters(wall=102.0, busy=1003.6, steal=50.2, own=10.4)
    got = between(start, end, cpus=2, load_average=2.1, ghz=2.6)
    assert got.other_cores == pytest.approx(1.6) and got.seconds == pytest.approx(2.0)
    assert got.steal == pytest.approx(0.2 / (2.0 * 2))  # 5 % of the CPU time
    assert got.busy and got.reason == "other_programs"


def test_a_quiet_machine_and_the_thresholds() -> None:
    quiet = between(CpuCounters(0.0, 0.0, 0.0, 0.0), CpuCounters(1.0, 1.95, 0.0, 1.9), cpus=2)
    assert quiet.other_cores == pytest.approx(0.05) and not quiet.busy and quiet.reason is None
    # this process alone busier than the machine's counters (rounding): never a negative load
    assert between(CpuCounters(0, 0, None, 0), CpuCounters(1, 1.0, None, 1.2), cpus=2).other_cores == 0.0
    # the threshold is 0.25 of a core or 10 % of the machine, whichever is larger
    assert Interference(1.0, 2, 0.26).busy and not Interference(1.0, 2, 0.24).busy
    assert not Interference(1.0, 32, 3.0).busy and Interference(1.0, 32, 3.3).busy
    # steal above 5 % of the CPU time disturbs too
    stolen = Interference(1.0, 2, 0.0, steal=0.08)
    assert stolen.busy and stolen.reason == "steal"


def test_the_probe_reads_twice_and_keeps_its_result(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TUTOR_SIMULATED_LOAD", raising=False)
    reads = iter([CpuCounters(0.0, 0.0, None, 0.0), CpuCounters(4.0, 8.0, None, 0.4)])
    with InterferenceProbe(read=lambda: next(reads), cpus=2, extras=lambda: {"load_average": 3.0}) as probe:
        pass
    assert probe.result is not None and probe.result.other_cores == pytest.approx(1.9)
    assert probe.stop() is probe.result and probe.result.load_average == 3.0 and not probe.result.simulated


def test_a_simulated_load_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUTOR_SIMULATED_LOAD", "1.5")
    with InterferenceProbe(cpus=2) as probe:
        pass
    assert probe.result is not None and probe.result.simulated and probe.result.other_cores == 1.5
    assert "SIMULATED" in (interference_text(probe.result, "en") or "")
    assert "SIMULADA" in (interference_text(probe.result, "es") or "")


def test_the_words_in_both_languages() -> None:
    busy = Interference(2.0, 2, 1.8, steal=0.0)
    en, es = interference_text(busy, "en") or "", interference_text(busy, "es") or ""
    assert en.startswith("Other programs used 1.8 of your 2 cores") and "may be low" in en
    assert es.startswith("Otros programas usaron 1,8 de tus 2 núcleos") and "pueden salir bajas" in es
    assert "quiet enough" in (interference_text(Interference(2.0, 2, 0.1), "en") or "")
    assert interference_text(None, "en") is None


def test_a_measurement_keeps_its_interference_through_the_store() -> None:
    m = Measurement(kind="workload", interference=Interference(2.0, 2, 1.2, steal=0.01, load_average=1.5))
    back = Measurement.from_json(m.to_json())
    assert back.interference == m.interference and back.to_json()["interference"]["busy"] is True
    assert Measurement.from_json({"kind": "workload"}).interference is None  # an older row
