"""`tutor exercise list/run` and `tutor progress` on a tiny course, measuring for real on the CPU.

The roofline for this machine's fingerprint is put in the (temporary) cache first, so each run times only the
cheap workload (copy of 2^20 floats, GEMM 256³) and the formula truths are known in advance.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import ROOF
from tutor import paths
from tutor.cli import main
from tutor.progress import ProgressStore
from tutor.progress.c0 import level_exercise_ids

COURSE = Path(__file__).parent / "fixtures" / "exercise_course"
@pytest.fixture(scope="session")
def cpu_fingerprint() -> str:
    from tutor.measure.device import device_info

    return str(device_info("cpu")["fingerprint"])


@pytest.fixture(autouse=True)
def cached_roofline(cpu_fingerprint: str, data_dir: Path) -> None:
    from tutor.measure.roofline_model import store_roofline

    store_roofline(cpu_fingerprint, ROOF, paths.roofline_cache())


def tutor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([*args, "--course", str(COURSE)])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], ex: str, predict: str, *extra: str) -> tuple[int, dict[str, Any]]:
    code, out, err = tutor(capsys, "exercise", "run", ex, "--predict", predict, "--device", "cpu", "--budget",
                           "0.05", "--json", *extra)
    return code, (json.loads(out) if out.strip() else {"stderr": err})


def attempts() -> list[dict[str, Any]]:
    store = ProgressStore()
    try:
        return store.attempts()
    finally:
        store.close()


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = tutor(capsys, "exercise", "list", "--json")
    assert code == 0
    items = {i["id"]: i for i in json.loads(out)}
    assert set(items) == {"t-copy-bound", "t-gemm-bound", "t-copy-gbs", "t-decode-limit", "t-fit", "t-diag"}
    assert [c["id"] for c in items["t-copy-bound"]["choices"]] == ["memory", "compute"]
    assert [c["id"] for c in items["t-fit"]["choices"]] == ["fits", "does_not_fit"]
    assert [c["id"] for c in items["t-diag"]["choices"]] == ["cpu-wheel", "old-driver"]
    assert items["t-copy-gbs"]["unit"] == "GB/s" and items["t-copy-gbs"]["lesson"] == "t-l1"
    assert "choices" not in items["t-copy-gbs"]


def test_bound_right_and_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    code, right = run_json(capsys, "t-copy-bound", "memory", "--confidence", "90")
    assert code == 0 and right["verdict"] == "correct" and right["score"] == 1.0
    assert right["truth"] == "memory" and right["truth_source"].startswith("measured on ")
    m = right["measurement"]
    assert m["device"]["kind"] == "cpu" and m["time_s"]["repeats"] >= 3 and m["achieved_gbs"] > 0
    assert "GB/s" in right["explanation"]["en"] and "{" not in right["explanation"]["en"]
    code, wrong = run_json(capsys, "t-gemm-bound", "memory")
    assert code == 0 and wrong["verdict"] == "wrong" and wrong["truth"] == "compute" and wrong["score"] == 0.0
    stored = attempts()
    assert [(a.exercise_id, a.state, a.verdict) for a in stored] == [
        ("t-copy-bound", "graded", "correct"), ("t-gemm-bound", "graded", "wrong")]
    assert stored[0].confidence == 0.9 and stored[0].fingerprint


def test_number_from_formula_on_measured_bandwidth(capsys: pytest.CaptureFixture[str]) -> None:
    # 320 GB/s (the cached roofline) / 16 GB per token = 20 tokens/s
    code, right = run_json(capsys, "t-decode-limit", "21")
    assert code == 0 and right["verdict"] == "correct" and right["truth"] == pytest.approx(20.0)
    assert right["truth_source"].startswith("the formula “decode bound = bandwidth ÷ bytes per token” applied to "
                                            "measured inputs")
    assert right["truth_said"]["code"] == "truth.formula_measured"
    code, wrong = run_json(capsys, "t-decode-limit", "50")
    assert code == 0 and wrong["verdict"] == "wrong"


def test_number_from_a_measured_metric(capsys: pytest.CaptureFixture[str]) -> None:
    code, first = run_json(capsys, "t-copy-gbs", "100000")
    assert code == 0 and first["verdict"] == "wrong"
    truth = first["truth"]
    assert truth == pytest.approx(first["measurement"]["achieved_gbs"])


def test_fit_and_diagnose_need_no_measurement(capsys: pytest.CaptureFixture[str]) -> None:
    code, fit = run_json(capsys, "t-fit", "fits", "--gb", "16")
    assert code == 0 and fit["verdict"] == "correct" and fit["truth"] == pytest.approx(16.0)
    code, diag = run_json(capsys, "t-diag", "old-driver")
    assert code == 0 and diag["verdict"] == "wrong" and diag["truth"] == "cpu-wheel"


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = tutor(capsys, "exercise", "run", "t-fit", "--predict", "does_not_fit", "--lang", "en")
    assert code == 0
    assert "Verdict: wrong" in out and "the formula “weights = parameters × bytes per element”" in out
    assert "weights_bytes" not in out  # the formula by its name, never its identifier


def test_the_spanish_reveal_speaks_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    """The headless reveal is the screen's view: labels, verdict, choice labels, source and numbers in Spanish."""
    code, out, _ = tutor(capsys, "exercise", "run", "t-fit", "--predict", "does_not_fit", "--lang", "es")
    assert code == 0
    assert "Veredicto: incorrecto" in out and "La verdad:" in out and "Tu predicción:" in out
    assert "16,0 GB" in out and "16.0 GB" not in out
    assert "la fórmula «pesos = parámetros × bytes por elemento»" in out and "weights_bytes" not in out
    for english in ("verdict:", "truth:", "does_not_fit", "score", "applied to"):
        assert english not in out, english


@pytest.mark.parametrize(
    "argv",
    [
        ["t-copy-gbs", "--predict", "fast"],
        ["t-copy-gbs", "--predict", "-1"],
        ["t-copy-gbs", "--predict", "1e9"],  # outside the exercise's range
        ["t-copy-bound", "--predict", "both"],
        ["t-copy-bound", "--predict", "memory", "--confidence", "30"],
        ["no-such-exercise", "--predict", "1"],
        ["t-copy-bound", "--predict", "memory", "--device", "cuda"],  # no GPU here (or a clear error with one)
    ],
)
def test_bad_input_exits_2_and_stores_nothing(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    from tutor.measure.device import cuda_available

    if "cuda" in argv and cuda_available():
        pytest.skip("a GPU is present")
    code, _out, err = tutor(capsys, "exercise", "run", *argv)
    assert code == 2
    assert err.startswith("tutor: error:") and "Traceback" not in err
    assert attempts() == []


def test_failed_measurement_keeps_the_prediction(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.commands import exercise as exercise_cmd
    from tutor.measure.errors import MeasureFailed

    def boom(*_a: Any, **_k: Any) -> dict[str, Any]:
        raise MeasureFailed("the measurement process was killed (SIGKILL) — most likely out of memory", code="killed")

    monkeypatch.setattr(exercise_cmd, "make_measure", lambda *_a, **_k: (boom, lambda: None))
    code, _out, err = tutor(capsys, "exercise", "run", "t-copy-bound", "--predict", "memory", "--lang", "en")
    assert code == 1 and "out of memory" in err and "prediction is kept" in err
    [attempt] = attempts()
    assert attempt.state == "failed" and attempt.prediction.choice == "memory"
    assert "out of memory" in attempt.error


def test_progress_report_and_export_import(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    run_json(capsys, "t-fit", "fits")
    run_json(capsys, "t-diag", "cpu-wheel", "--confidence", "60")
    code, out, _ = tutor(capsys, "progress", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["c0"]["name"] == "C0 (CPU)" and not report["c0"]["passed"]
    n0 = report["c0"]["conditions"][3]
    # C0 is the bundled course's: this pack's exercises (t-fit…) are not its evidence
    assert f"0 of {len(level_exercise_ids())} reproduced in pass 2" in n0["evidence"]["en"]
    assert "t-fit" not in n0["evidence"]["en"]
    assert report["calibration"]["n"] == 2
    assert [h["exercise"] for h in report["history"]] == ["t-diag", "t-fit"]
    code, out, _ = tutor(capsys, "progress", "--lang", "en")
    assert "C0 (CPU): not yet" in out and "of your 60–69 % guesses, 1 of 1 were right" in out
    target = tmp_path / "progress.json"
    assert tutor(capsys, "progress", "export", str(target))[0] == 0
    code, _, err = tutor(capsys, "progress", "import", str(target))
    assert code == 2 and "--merge" in err
    assert tutor(capsys, "progress", "import", str(target), "--merge")[0] == 0
    assert len(attempts()) == 2


def test_reset_needs_confirmation(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    run_json(capsys, "t-fit", "fits")
    monkeypatch.setattr("sys.stdin", None)
    code, _, err = tutor(capsys, "progress", "reset", "--all")
    assert code == 2 and "--yes" in err and len(attempts()) == 1
    code, out, _ = tutor(capsys, "progress", "reset", "--exercise", "t-fit", "--yes", "--lang", "en")
    assert code == 0 and out.strip() == "deleted exercise t-fit: 1 attempt" and attempts() == []


def test_pass_2_headless_opens_after_pass_1_and_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(capsys, "t-fit", "fits", "--pass", "2")
    assert code == 2 and "pass 2 opens once pass 1 was attempted" in out["stderr"]
    assert attempts() == []  # nothing stored
    assert run_json(capsys, "t-fit", "fits")[0] == 0
    code, second = run_json(capsys, "t-fit", "fits", "--pass", "2")
    assert code == 0 and second["pass"] == 2
    code, out, _ = tutor(capsys, "exercise", "list", "--lang", "en")
    line = next(x for x in out.splitlines() if "t-fit" in x)
    assert line.split()[:2] == ["✓✓", "t-fit"] and "· reproduced" in line
    assert next(x for x in out.splitlines() if "t-diag" in x).split()[:2] == ["○○", "t-diag"]
    items = {i["id"]: i for i in json.loads(tutor(capsys, "exercise", "list", "--json")[1])}
    assert items["t-fit"]["passes"]["reproduced"] and items["t-fit"]["passes"]["pass2"]["attempt"] == 2
    code, out, _ = tutor(capsys, "progress", "--lang", "en")
    assert "✓✓ t-fit · reproduced" in out and "pass 1 1/" in out
    assert f"0 of {len(level_exercise_ids())} reproduced in pass 2" in out  # the pack's t-fit is not C0's


# -- issue 30: finding things ------------------------------------------------------------------------------------


def test_list_is_in_course_order_with_aligned_columns(capsys: pytest.CaptureFixture[str]) -> None:
    from rich.cells import cell_len

    assert run_json(capsys, "t-fit", "fits")[0] == 0  # a ✓ mark among the ○ ones
    for lang, head in (("en", ["passes", "exercise", "kind", "lesson", "title", "answers"]),
                       ("es", ["pasadas", "ejercicio", "tipo", "lección", "título", "respuestas"])):
        code, out, _ = tutor(capsys, "exercise", "list", "--lang", lang)
        assert code == 0
        table = out.split("\n\n")[0].splitlines()
        assert table[0].split() == head
        # the lesson's own order (t-gemm-bound second), not alphabetical (t-copy-gbs second)
        assert [row.split()[1] for row in table[1:]] == ["t-copy-bound", "t-gemm-bound", "t-copy-gbs",
                                                         "t-decode-limit", "t-fit", "t-diag"]
        for word in head[1:]:  # every column starts at the same cell in every row
            at = cell_len(table[0][:table[0].index(word)])
            for row in table[1:]:
                assert row[at - 2:at] == "  " and row[at] != " ", (word, row)
    items = [i["id"] for i in json.loads(tutor(capsys, "exercise", "list", "--json")[1])]
    assert items[:3] == ["t-copy-bound", "t-gemm-bound", "t-copy-gbs"]


def test_a_wrong_exercise_id_says_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = tutor(capsys, "exercise", "run", "t-copy-bund", "--predict", "memory", "--lang", "en")
    assert code == 2
    said = err.strip()
    assert said.startswith("tutor: error: unknown exercise 't-copy-bund'; did you mean t-copy-bound")  # closest first
    assert said.endswith("? (all: 'tutor exercise list')")
    code, _, err = tutor(capsys, "exercise", "run", "t-dag", "--predict", "x", "--lang", "es")
    assert code == 2 and "¿quisiste decir t-diag?" in err and "todos: 'tutor exercise list'" in err
    code, _, err = tutor(capsys, "exercise", "run", "zzzz", "--predict", "x", "--lang", "en")
    assert code == 2 and "did you mean" not in err and "(known: t-copy-bound, t-gemm-bound," in err
    assert attempts() == []
