"""Labs that teach from the result (issue 26 item 5): the prediction next to what was measured, the points that
break the expected shape, the spread, and a re-run offered for them."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tests.support.lab import FailingWorker, write_lab_course
from tests.support.pilot import PATIENCE_S, wait_timed
from tutor.content import Lab, load_course
from tutor.i18n import Lang
from tutor.paths import bundled_course
from tutor.practice.lab_checks import figure_at, read_lab, reading_lines, shape_flags
from tutor.progress.rows import LabPrediction, LabResult
from tutor.results import Interference, Measurement, SweepPoint, sweep_point

MiB = 2**20


def _naive(points: list[tuple[str, int, float, float | None]]) -> tuple[SweepPoint, ...]:
    out = []
    for series, n, seconds, cv in points:
        p = sweep_point("naive_vs_numpy", {"series": series, "n": n, "gflops": 2 * n**3 / seconds / 1e9,
                                           "time_s": {"median": seconds, "cv": cv} if cv is not None else seconds})
        assert p is not None
        out.append(p)
    return tuple(out)


def test_a_bigger_size_that_ran_faster_is_flagged() -> None:
    """Lab 00 as seen on the EPYC: NumPy took longer at N = 128 than at N = 256."""
    points = _naive([("numpy", 64, 2e-5, 0.01), ("numpy", 128, 9e-4, 0.02), ("numpy", 256, 3e-4, 0.02),
                     ("numpy", 512, 2e-3, 0.01), ("python", 32, 0.01, None), ("python", 64, 0.08, None)])
    flags = shape_flags("naive_vs_numpy", points)
    assert [(f.code, f.x, f.series) for f in flags] == [("faster_when_bigger", 256.0, "numpy (measured)")]
    assert flags[0].figures["smaller_x"] == 128.0 and flags[0].figures["faster_by"] == 3.0


def test_within_the_noise_is_not_a_break() -> None:
    # 256 is 5 % faster than 128, but each repeat spread 4 %: 3 CVs (12 %) cover it
    points = _naive([("numpy", 128, 1.0e-3, 0.04), ("numpy", 256, 0.95e-3, 0.04)])
    assert shape_flags("naive_vs_numpy", points) == []


def test_working_set_breaks_and_noise_are_flagged() -> None:
    raw = [(16 * 2**10, 120.0, 0.02), (1 * MiB, 90.0, 0.02), (64 * MiB, 20.0, 0.02), (256 * MiB, 31.0, 0.02),
           (512 * MiB, 95.0, 0.30)]
    points = tuple(p for p in (sweep_point("working_set", {"working_set_bytes": ws, "gbs": gbs, "cv": cv})
                               for ws, gbs, cv in raw) if p is not None)
    flags = shape_flags("working_set", points, roof_gbs=44.0, last_level_cache_bytes=32 * MiB)
    codes = sorted((f.code, f.x) for f in flags)
    assert ("faster_when_bigger", 256.0 * MiB) in codes  # 31 GB/s after 20: a bigger working set moved faster
    assert ("above_roof", 256.0 * MiB) not in codes  # 31 < 44: below the roof
    assert ("noisy", 512.0 * MiB) in codes
    # the last point: 95 GB/s past the 32 MiB cache against a 44 GB/s roof, but its CV of 30 % widens the margin
    # to 90 %, so 95 > 44 × 1.9 = 83.6 is still flagged
    assert ("above_roof", 512.0 * MiB) in codes


def _lab(metric: str | None = "points.last.gbs", unit: str = "GB/s", name: str = "working_set") -> Lab:
    return Lab.model_validate({"id": "lab-ws", "title": {"es": "t", "en": "t"}, "goal": {"es": "g", "en": "g"},
                               "run": {"op": "sweep", "name": name, "params": {}}, "prediction_unit": unit,
                               "prediction_metric": metric})


def test_the_reading_puts_the_prediction_next_to_the_result_in_both_languages() -> None:
    raw = [(1 * MiB, 90.0, 0.02), (256 * MiB, 18.0, 0.01), (512 * MiB, 27.0, 0.02)]
    points = tuple(p for p in (sweep_point("working_set", {"working_set_bytes": ws, "gbs": gbs, "cv": cv})
                               for ws, gbs, cv in raw) if p is not None)
    result = LabResult.of(Measurement(kind="sweep", name="working_set", points=points,
                                      interference=Interference(5.0, 2, 1.8)))
    reading = read_lab(_lab(), LabPrediction(text="20", value=20.0, unit="GB/s"), result)
    assert reading.measured == 27.0 and reading.ratio == 27.0 / 20.0
    en, es = reading_lines(reading, "working_set", "en"), reading_lines(reading, "working_set", "es")
    assert en[0] == "You predicted 20 GB/s; measured 27 GB/s (measured ÷ predicted = 1.35)."
    assert es[0] == "Predijiste 20 GB/s; se midió 27 GB/s (medido ÷ predicho = 1,35)."
    assert any("Breaks the expected shape" in line and "512 MiB" in line for line in en)
    assert any("Rompe la forma esperada" in line for line in es)
    assert any("ctrl+r" in line for line in en) and any("Other programs used 1.8 of your 2 cores" in line
                                                         for line in en)
    assert "Largest spread among the points: CV 2" in " ".join(en)


def test_every_bundled_lab_with_a_unit_names_the_figure_it_asks_about() -> None:
    course = load_course(bundled_course())
    labs = [lab for lesson in course.lessons.values() for lab in lesson.labs]
    asked = [lab for lab in labs if lab.prediction_unit and lab.run.op not in ("bench",)]
    assert asked and all(lab.prediction_metric for lab in asked), [lab.id for lab in asked]
    assert figure_at({"points": [{"gbs": 1.0}, {"gbs": 2.5}]}, "points.last.gbs") == 2.5
    assert figure_at({"speedup": {"1024": 300.0}}, "speedup.1024") == 300.0
    assert figure_at({"points": []}, "points.last.gbs") is None


class _BrokenShapeWorker(FailingWorker):
    """A GEMM sweep whose N = 96 point took less time than N = 32 (a disturbed run)."""

    def run(self, request: dict[str, Any], on_progress: Any = None, cancel_event: threading.Event | None = None,
            on_point: Any = None, **_: Any) -> dict[str, Any]:
        points = [{"n": 32, "gflops": 0.01, "time_s": 2 * 32**3 / 0.01e9}, {"n": 96, "gflops": 50.0,
                                                                             "time_s": 2 * 96**3 / 50e9}]
        for p in points:
            on_point(p)
        return {"kind": "sweep", "name": "gemm_sizes", "params": {"min_n": 32, "max_n": 96, "points": 2},
                "device": {"kind": "cpu", "name": "Test CPU", "fingerprint": "f"}, "points": points,
                "x": "n", "y": "gflops"}


async def test_the_lab_screen_shows_the_prediction_and_flags_the_broken_point(tmp_path: Path) -> None:
    from tutor.progress import ProgressStore
    from tutor.ui.app import make_app
    from tutor.ui.messages import OpenLab
    from tutor.ui.screens.lab import LabScreen

    lesson = (write_lab_course(tmp_path / "course") / "lessons" / "lab-l1.yaml")
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(
        "    prediction_unit: GFLOP/s\n", "    prediction_unit: GFLOP/s\n    prediction_metric: points.last.gflops\n"),
        encoding="utf-8")
    course = load_course(tmp_path / "course")
    assert not course.problems, course.problems
    app = make_app(course=course, store=ProgressStore(tmp_path / "p.sqlite3"), lang="en", telemetry="host")
    app.session.measure_worker = _BrokenShapeWorker()  # type: ignore[attr-defined]
    async with app.run_test(size=(160, 48)) as pilot:
        app.post_message(OpenLab("lab-l1", "lab-gemm"))
        await wait_timed(pilot, lambda: isinstance(app.screen, LabScreen), PATIENCE_S)
        screen = app.screen
        assert isinstance(screen, LabScreen)
        await pilot.press("2", "0", "enter")
        await wait_timed(pilot, lambda: screen.state != "running", PATIENCE_S)
        assert screen.state == "done"
        if app.screen is not screen:  # the notebook opens on the new entry: back to the lab
            app.pop_screen()
            await wait_timed(pilot, lambda: app.screen is screen, PATIENCE_S)
        text = screen.query_one("#lab-result").source  # type: ignore[attr-defined]
        assert "You predicted 20 GFLOP/s; measured 50 GFLOP/s" in text
        assert "Breaks the expected shape: at N = 96" in text and "ctrl+r" in text


def test_lab_01_s_dram_point_is_read_against_the_roof_the_exercises_use() -> None:
    """Issue 26: Lab 01 measured DRAM at 46 GB/s while the exercises were graded against a roof of 84: the
    reading puts the two side by side and says they differ by more than the noise."""
    from tutor.results import RooflineReference

    raw = [(1 * MiB, 90.0, 0.02), (512 * MiB, 46.0, 0.02)]
    points = tuple(p for p in (sweep_point("working_set", {"working_set_bytes": ws, "gbs": gbs, "cv": cv})
                               for ws, gbs, cv in raw) if p is not None)
    roof = RooflineReference.from_json({"peak_bandwidth_gbs": 84.1, "peak_gflops": {"float32": 150.0},
                                        "bandwidth": {"cv": 0.02}})
    m = Measurement(kind="sweep", name="working_set", points=points, roofline=roof,
                    figures={"caches": {"last_level": 32 * MiB}})
    reading = read_lab(_lab(), None, LabResult.of(m))
    assert reading.dram_vs_roof is not None and reading.dram_vs_roof[1:3] == (46.0, 84.1)
    en = reading_lines(reading, "working_set", "en")
    assert any("512 MiB, past the last-level cache: 46.0 GB/s" in line and "84.1 GB/s" in line for line in en)
    assert any("differ by more than the noise" in line for line in en)
    es = reading_lines(reading, "working_set", "es")
    assert any("46,0 GB/s" in line and "84,1 GB/s" in line for line in es)
    # the same figure within the noise: side by side, no alarm
    close = Measurement(kind="sweep", name="working_set", points=points,
                        roofline=RooflineReference.from_json({"peak_bandwidth_gbs": 47.0, "peak_gflops": {}}),
                        figures={"caches": {"last_level": 32 * MiB}})
    lines = reading_lines(read_lab(_lab(), None, LabResult.of(close)), "working_set", "en")
    assert any("×0.98" in line for line in lines) and not any("differ by more" in line for line in lines)


def test_a_pack_s_unit_stays_one_line_in_the_reading() -> None:
    """The unit is the pack's text: a line break or an escape in it cannot forge a line of the reading."""
    import pydantic

    hostile = "GB/s\n✓ C0 reached\x1b[2J"
    with pytest.raises(pydantic.ValidationError):  # the loader refuses it first
        _lab(unit=hostile)
    lab = _lab().model_copy(update={"prediction_unit": hostile})  # and the reading holds if one gets past
    m = Measurement(kind="sweep", name="working_set", points=(), figures={"points": [{"gbs": 30.0}]})
    lines = reading_lines(read_lab(lab, LabPrediction(text="20", value=20.0, unit="GB/s"), LabResult.of(m)),
                          "working_set", "en")
    assert len(lines) == 1 and "\n" not in lines[0] and "\x1b" not in lines[0] and "⏎" in lines[0], lines


@pytest.mark.parametrize(("lang", "word", "english"), [("es", "(medido)", "(measured)"), ("en", "(measured)", None)])
def test_a_noisy_point_of_a_one_series_sweep_is_named_in_the_learner_s_words(lang: Lang, word: str,
                                                                            english: str | None) -> None:
    """`tutor lab run f1-lab01-working-set --lang es` printed "Punto ruidoso: en 512 KiB (measured)": the
    engine's default series id reached the Spanish line."""
    raw = [(1 * MiB, 90.0, 0.02), (8 * MiB, 60.0, 0.9), (512 * MiB, 46.0, 0.02)]
    points = tuple(p for p in (sweep_point("working_set", {"working_set_bytes": ws, "gbs": gbs, "cv": cv})
                               for ws, gbs, cv in raw) if p is not None)
    m = Measurement(kind="sweep", name="working_set", points=points, figures={"caches": {"last_level": 32 * MiB}})
    noisy = [line for line in reading_lines(read_lab(_lab(), None, LabResult.of(m)), "working_set", lang)
             if "8.0 MiB" in line or "8,0 MiB" in line]
    assert noisy and all(word in line for line in noisy)
    assert english is None or not any(english in line for line in noisy)


@pytest.mark.parametrize("provisional", [True, False])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_lab_03_s_ridge_from_a_provisional_roof_says_so(lang: Lang, provisional: bool) -> None:
    """`tutor lab run f1-lab03-roofline` on a busy machine printed 'se midió 10,6 FLOP/B' from a roof measured
    while others used 1.7 of 2 cores (cached PROVISIONAL: busy, loose) without a word of it; the exercises and the
    chart's stamp said it, the lab's reading did not."""
    from tutor.i18n import t
    from tutor.results import RooflineReference

    roof = RooflineReference.from_json({
        "peak_bandwidth_gbs": 18.4, "peak_gflops": {"float32": 196.0}, "ridge_point": 10.6,
        "provisional": ["busy"] if provisional else [],
        "interference": {"seconds": 26.0, "cpus": 2, "other_cores": 1.7, "busy": provisional}})
    points = tuple(p for p in (sweep_point("roofline_points", {"kernel": "copy", "intensity": 0.0, "gflops": 0.0,
                                                               "gbs": 7.3}),) if p is not None)
    m = Measurement(kind="sweep", name="roofline_points", points=points, roofline=roof)
    lab = _lab(metric="roofline.ridge_point", unit="FLOP/B", name="roofline_points")
    lines = reading_lines(read_lab(lab, LabPrediction(text="3", value=3.0, unit="FLOP/B"), LabResult.of(m)),
                          "roofline_points", lang)
    stamp = t("roof.provisional", lang, why="").split("(")[0].strip()
    assert any("10" in line for line in lines)  # the prediction against the measured ridge
    assert any(stamp in line for line in lines) is provisional


@pytest.mark.parametrize(("lang", "word"), [("es", "medido"), ("en", "measured")])
def test_a_legend_and_a_reading_name_the_default_series_alike(lang: Lang, word: str) -> None:
    """One wording for the engine's default series: a point that carries ``series: measured`` in its figures (a
    working-set sweep's) was labelled with the engine's English name in a Spanish legend."""
    from tutor.results import SweepPoint
    from tutor.ui.lab_text import series_label

    for point in (SweepPoint(1.0, 2.0, values={"series": "measured"}), SweepPoint(1.0, 2.0, values={})):
        assert series_label(point, "working_set", lang) == word
    assert series_label(SweepPoint(1.0, 2.0, values={"series": "numpy"}), "working_set", lang) == "numpy"
