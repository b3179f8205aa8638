"""`truth.metric` and `measured:<path>` inputs are checked against the figures each op declares (issue 10 item
6): a figure no measurement produces is a located error at its key, found by `lessons check`, not after
measuring."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.cli import main
from tutor.content import load_course

LESSON = """\
format_version: 1
id: m-l1
level: m
order: 1
title: {es: "Uno", en: "One"}
outcome: {es: "Sabes", en: "You know"}
sections:
  - id: intro
    title: {es: "Intro", en: "Intro"}
    body: {es: "# Hola", en: "# Hello"}
exercises: [m-e1]
"""

HEAD = """\
format_version: 1
id: m-e1
lesson: m-l1
kind: number
unit: {unit}
title: {{es: "Cifra", en: "Figure"}}
prompt: {{es: "¿Cuánto?", en: "How much?"}}
explanation: {{es: "Listo", en: "Done"}}
"""


def course(tmp_path: Path, body: str, unit: str = "GB/s") -> Path:
    (tmp_path / "lessons").mkdir()
    (tmp_path / "exercises").mkdir()
    (tmp_path / "lessons" / "l1.yaml").write_text(LESSON, encoding="utf-8")
    (tmp_path / "exercises" / "e1.yaml").write_text(HEAD.format(unit=unit) + body, encoding="utf-8")
    return tmp_path


def problems(root: Path) -> list[str]:
    return [p.format() for p in load_course(root).problems]


def test_a_truth_metric_no_measurement_produces_is_located_at_its_key(tmp_path: Path) -> None:
    root = course(tmp_path, """\
measure: {op: workload, name: copy, params: {n: 1048576}}
truth:
  source: measurement
  metric: achieved_gbz
""")
    path = root / "exercises" / "e1.yaml"
    assert problems(root) == [
        f"{path}:12:3: error: truth.metric: the copy workload produces no figure 'achieved_gbz' (its figures: "
        "achieved_gbs, achieved_gflops, arithmetic_intensity, best_gbs, best_gflops, bytes, classification, flops, "
        "params, roofline, time_s, working_set_bytes)"
    ]


def test_a_good_metric_and_good_measured_inputs_pass(tmp_path: Path) -> None:
    root = course(tmp_path, """\
measure: {op: roofline}
truth:
  source: formula
  formula: ridge_point
  inputs: {peak_flops: "measured:peak_gflops.float32", peak_bandwidth_bytes_per_s: "measured:peak_bandwidth_gbs"}
""", unit="FLOP/B")
    assert [p for p in problems(root) if "measured" in p or "figure" in p] == []


def test_a_measured_input_is_located_at_its_own_key(tmp_path: Path) -> None:
    root = course(tmp_path, """\
measure: {op: roofline}
truth:
  source: formula
  formula: ridge_point
  inputs:
    peak_flops: "measured:peak_gflops.float32"
    peak_bandwidth_bytes_per_s: "measured:peak_bandwith_gbs"
""", unit="FLOP/B")
    path = root / "exercises" / "e1.yaml"
    found = [p for p in problems(root) if "peak_bandwith_gbs" in p]
    assert found == [f"{path}:15:5: error: truth.inputs.peak_bandwidth_bytes_per_s: the roofline measurement "
                     "produces no figure 'peak_bandwith_gbs' (its figures: duration_s, measured_at, "
                     "peak_bandwidth_gbs, peak_gflops, peak_tflops, physical_limits, ridge_flops_per_byte, "
                     "ridge_point)"]


@pytest.mark.parametrize(("measure", "path", "why"), [
    # a point past the last one the sweep makes with these parameters
    ("{op: sweep, name: working_set, params: {min_kib: 16, max_mib: 1, points_per_octave: 1}}", "points.9.gbs",
     "points.{i}.gbs takes i in 0, 1, 2, 3, 4, 5, 6"),
    # a size the naive-vs-numpy sweep never reaches
    ("{op: sweep, name: naive_vs_numpy, params: {max_naive_n: 64, max_n: 256}}", "speedup.1024",
     "speedup.{n} takes n in 8, 16, 32, 64, 128, 256"),
    # decode reports batch 1 and the mode's large batch only
    ("{op: decode}", "batches.2.fraction_of_bound", "batches.{batch}.fraction_of_bound takes batch in 1, 8"),
    # a dtype no roofline measures
    ("{op: roofline}", "peak_gflops.int8", "peak_gflops.{dtype} takes dtype in float32"),
    # the doctor measures nothing
    ("{op: doctor}", "achieved_gbs", "produces no figures"),
])
def test_paths_that_depend_on_the_parameters(tmp_path: Path, measure: str, path: str, why: str) -> None:
    root = course(tmp_path, f"""\
measure: {measure}
truth:
  source: measurement
  metric: {path}
""", unit="x")
    found = [p for p in problems(root) if "truth.metric" in p]
    assert len(found) == 1 and "e1.yaml:12:3: error: truth.metric: " in found[0] and why in found[0], found


def test_a_measured_input_without_a_measurement_is_an_error(tmp_path: Path) -> None:
    root = course(tmp_path, """\
truth:
  source: formula
  formula: ridge_point
  inputs: {peak_flops: "measured:peak_gflops.float32", peak_bandwidth_bytes_per_s: 1000}
""", unit="FLOP/B")
    found = [p for p in problems(root) if "peak_flops" in p]
    assert len(found) == 1 and "needs a measurement, and the exercise has no 'measure'" in found[0]
    assert ":12:12: error: truth.inputs.peak_flops: " in found[0]


def test_lessons_check_reports_it_and_exits_nonzero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = course(tmp_path, """\
measure: {op: workload, name: triad, params: {n: 1048576}}
truth: {source: measurement, metric: time_s.mediam}
""", unit="s")
    code = main(["lessons", "check", str(root)])
    out, err = capsys.readouterr()
    assert code != 0 and "Traceback" not in out + err
    assert f"{root / 'exercises' / 'e1.yaml'}:10:30: error: truth.metric: the triad workload produces no figure " \
        "'time_s.mediam'" in out + err
