"""The instructor's view: per exercise the share correct and the most common wrong answer, the class's
calibration, each learner's C0, the class roofline grouped by device — from the CLI and in the TUI."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from tests.conftest import Classroom
from tutor.cli import main
from tutor.content import load_course
from tutor.paths import bundled_course
from tutor.progress.class_report import WrongAnswer, class_report, render_class_report
from tutor.progress.postgres import PostgresStore
from tutor.results import BenchReport

pytestmark = pytest.mark.parametrize("stores", ["postgresql"], indirect=True)


def bench(fingerprint: str, name: str, bw: float, tflops: float) -> BenchReport:
    device = {"kind": "cpu", "name": name, "fingerprint": fingerprint}
    return BenchReport.from_json({"mode": "quick", "device": device,
                                  "headline": {"peak_bandwidth_gbs": bw, "peak_flops_tflops": {"float32": tflops}}})


def attempt(store: PostgresStore, exercise: str, choice: str, right: bool, confidence: float) -> None:
    a = store.lock_prediction(exercise_id=exercise, lesson_id="n0-l1", prediction={"choice": choice},
                              confidence=confidence)
    store.record_grade(a, measurement={"x": 1}, truth={"choice": "memory", "ratio": None}, verdict="correct"
                       if right else "wrong", score=1.0 if right else 0.0)


def fill(room: Classroom) -> None:
    ana, ben = room.store("ana"), room.store("ben")
    attempt(ana, "ex-bound", "memory", True, 0.8)
    attempt(ana, "ex-bound", "compute", False, 0.8)
    attempt(ben, "ex-bound", "compute", False, 0.9)
    n = ben.lock_prediction(exercise_id="ex-number", lesson_id="n0-l1", prediction={"value": 60.0}, confidence=0.7)
    ben.record_grade(n, measurement={}, truth={"value": 20.0, "ratio": 3.0}, verdict="wrong", score=0.1)
    ana.record_bench_run(bench("fp-a", "Box A", 30.0, 0.3))
    ben.record_bench_run(bench("fp-b", "Box B", 60.0, 1.2))
    time.sleep(0.01)
    ana.close()
    ben.close()


def test_the_report_counts_what_the_class_stored(classroom: Classroom) -> None:
    fill(classroom)
    report = class_report(load_course(bundled_course()), PostgresStore(classroom.admin))
    ana, ben = classroom.learners["ana"].name, classroom.learners["ben"].name
    assert report.learners == tuple(sorted([ana, ben]))
    ex = {e.exercise: e for e in report.exercises}
    assert ex["ex-bound"].graded == 3 and ex["ex-bound"].correct == 1
    assert abs(ex["ex-bound"].share_correct - 1 / 3) < 1e-12
    assert ex["ex-bound"].most_common_wrong == WrongAnswer("choice", 2, answer="compute")
    assert ex["ex-number"].most_common_wrong == WrongAnswer("number", 1, direction="high", median_ratio=3.0)
    assert report.calibration.n == 4
    assert set(report.c0) == {ana, ben} and not report.c0[ana].passed
    groups = {g.fingerprint: g for g in report.roofline}
    assert set(groups) == {"fp-a", "fp-b"}
    [a_roof] = groups["fp-a"].learners
    assert a_roof.learner == ana and a_roof.bandwidth_gbs == 30.0 and a_roof.gflops == 300.0
    assert a_roof.ridge_flops_per_byte == 10.0
    # the --json document keeps its shape
    doc = report.to_json()
    exercises = {e["exercise"]: e for e in doc["exercises"]}
    assert exercises["ex-bound"]["most_common_wrong"] == {"kind": "choice", "answer": "compute", "count": 2}
    assert exercises["ex-number"]["most_common_wrong"] == {"kind": "number", "direction": "high", "count": 1,
                                                          "median_ratio": 3.0}
    assert list(doc) == ["learners", "attempts", "exercises", "calibration", "c0", "roofline"]
    assert {g["fingerprint"]: g for g in doc["roofline"]}["fp-a"]["learners"][0] == {
        "fingerprint": "fp-a", "device": "Box A", "kind": a_roof.kind, "bandwidth_gbs": 30.0, "gflops": 300.0,
        "source": "bench", "at": a_roof.at, "learner": ana, "ridge_flops_per_byte": 10.0}
    text = render_class_report(report, "es")
    assert "alumnos" in text and "33\xa0%" in text and "«compute» (2×)" in text and "demasiado alto" in text


def test_the_report_command_in_json_and_markdown(classroom: Classroom, capsys: pytest.CaptureFixture[str]) -> None:
    fill(classroom)
    assert main(["class", "report", "--json", "--store", classroom.admin]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["learners"]) == 2 and len(doc["roofline"]) == 2
    assert main(["class", "report", "--markdown", "--lang", "en", "--store", classroom.admin]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Class report") and "Class roofline (by device)" in out and "Box B" in out
    # a learner's own connection reads only their rows: the report they could make is about them alone
    assert main(["class", "report", "--json", "--store", classroom.learners["ben"].dsn]) == 0
    assert json.loads(capsys.readouterr().out)["learners"] == [classroom.learners["ben"].name]


async def test_the_instructor_screen_shows_the_report_and_the_class_roofline(classroom: Classroom) -> None:
    from textual.widgets import Markdown

    from tutor.ui.app import make_app
    from tutor.ui.screens.class_report import ClassReportScreen, ClassRooflinePlot

    fill(classroom)
    store = PostgresStore(classroom.admin)
    app = make_app(course=load_course(Path(__file__).parent / "fixtures" / "course"), store=store, lang="en",
                   telemetry="host")
    async with app.run_test(size=(150, 60)) as pilot:
        await pilot.press("I")
        await pilot.pause()
        assert isinstance(app.screen, ClassReportScreen)
        chart = app.screen.query_one(ClassRooflinePlot)
        assert chart.display and len(chart.groups) == 2
        text = app.screen.query_one(Markdown).source
        assert classroom.learners["ana"].name in text and "Class calibration" in text
        await pilot.press("l")  # Spanish
        await pilot.pause()
        assert "Calibración de la clase" in app.screen.query_one(Markdown).source


HOSTILE = "<script>alert(1)</script> | <img src=x onerror=alert(1)> [click](javascript:alert(1)) `x` \\| *b*"


def test_a_learners_text_is_plain_text_in_the_markdown_report(classroom: Classroom) -> None:
    from markdown_it import MarkdownIt

    ben = classroom.store("ben")
    for _ in range(2):
        attempt(ben, "ex-bound", HOSTILE, False, 0.9)
    ben.record_bench_run(bench("fp-<b>|x", HOSTILE, 60.0, 1.2))
    ben.close()
    report = class_report(load_course(bundled_course()), PostgresStore(classroom.admin))
    text = render_class_report(report, "en")
    html = MarkdownIt("commonmark").enable("table").render(text)  # raw HTML passes through: the worst case
    for injected in ("<script", "<img", "onerror=alert(1)>", 'href="javascript:', "<code>", "<em>b</em>"):
        assert injected not in html, injected
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "[click](javascript:alert(1))" in html
    # every row of the exercises table still has its four cells
    rows = [line for line in text.splitlines() if line.startswith("| ex-bound")]
    assert rows and all(len(re.findall(r"(?<!\\)\|", row)) == 5 for row in rows), rows
    rendered = [row for row in re.findall(r"<tr>(.*?)</tr>", html, re.S) if "alert(1)" in row]
    assert rendered and all(row.count("<td>") == 4 for row in rendered), rendered
