"""The bench's warnings are catalog messages: shown in the reader's language, and an older report's English
sentences shown as they were recorded."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from tutor.i18n.message import Message
from tutor.measure.bench_report import render_table, warning_lines
from tutor.results import BenchReport

BENCH = Path(__file__).parent / "fixtures" / "results" / "bench_report_tiny.json"


def _report() -> BenchReport:
    return BenchReport.from_json(json.loads(BENCH.read_text(encoding="utf-8")))


def test_warnings_follow_the_language_and_survive_the_store() -> None:
    said = (Message.of("bench.warn.busy", load=3.5, cpus=2), Message.of("bench.warn.quick_cache", arrays=640, llc=480))
    report = replace(_report(), warnings=tuple(m.render("en") for m in said),
                     warnings_said=tuple(m.as_dict() for m in said))
    stored = BenchReport.from_json(json.loads(json.dumps(report.to_json())))
    es, en = warning_lines(stored, "es"), warning_lines(stored, "en")
    assert es[0].startswith("la máquina estaba ocupada (carga media 3,5 en 2 CPU)"), es
    assert en[0].startswith("the machine was busy (load average 3.5 on 2 CPUs)"), en
    assert "640 MiB" in es[1] and "480 MiB" in es[1] and "caché de último nivel" in es[1]
    table = render_table(stored, lang="es")
    assert "la máquina estaba ocupada" in table and "the machine was busy" not in table


def test_an_older_reports_english_warnings_are_shown_as_recorded() -> None:
    report = replace(_report(), warnings=("the machine was busy (load average 3.5 on 2 CPUs)",), warnings_said=())
    stored = BenchReport.from_json(json.loads(json.dumps(report.to_json())))
    assert warning_lines(stored, "es") == ["the machine was busy (load average 3.5 on 2 CPUs)"]
    # a stored message that does not read (hand-edited) falls back to the recorded sentence too
    odd = replace(report, warnings_said=({"params": {}},))
    assert warning_lines(BenchReport.from_json(odd.to_json()), "es") == list(report.warnings)
