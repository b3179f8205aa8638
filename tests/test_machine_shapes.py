"""The course on machines shaped unlike this one (issue 11: "on a differently shaped one").

The cache hierarchy is read from sysfs; ``TUTOR_SYSFS_ROOT`` points it at a fake tree (``tests/fixtures/sysfs``:
an EPYC-like 32 MiB L3, a laptop's 8 MiB L3, a chip with no L3, the course's 480 MiB L3). On each shape the setup
line under every prompt names that shape's last level and says it is simulated (never the learner's), decode's
model and roof follow the shape, and the exercises whose sizes, roofs or words depend on the caches are run
headless at small sizes with their explanations read against what was measured. ``bench/run_every_exercise.py
--shape NAME`` runs every exercise at its real sizes on a shape.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.answer_key import cache_dependent, render_table, run_every_exercise, setup_summary, small_measure
from tests.support.shapes import SHAPES as ROOFS
from tests.support.shapes import on_shape
from tutor.content import load_course
from tutor.i18n import format_bytes
from tutor.measure import device
from tutor.measure.api import run_request
from tutor.measure.decode_sizing import reference_decode
from tutor.paths import bundled_course
from tutor.practice import ExerciseRunner
from tutor.practice.sizing import setup_line
from tutor.progress import ProgressStore

SHAPES = Path(__file__).parent / "fixtures" / "sysfs"
MiB = 2**20
#: Per shape: the levels the tree holds, the last level's name, and where quick decode's weights live.
EXPECTED = {
    "epyc-32m": ({"L1": 32 * 2**10, "L2": 1 * MiB, "L3": 32 * MiB}, "L3", "dram"),
    "laptop-8m": ({"L1": 48 * 2**10, "L2": 1280 * 2**10, "L3": 8 * MiB}, "L3", "dram"),
    "no-l3": ({"L1": 32 * 2**10, "L2": 2 * MiB}, "L2", "dram"),
    "xeon-480m": ({"L1": 48 * 2**10, "L2": 2 * MiB, "L3": 480 * MiB}, "L3", "partial"),
}


@pytest.fixture(params=sorted(EXPECTED))
def shape(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(device.SYSFS_ROOT_ENV, str(SHAPES / request.param))
    return str(request.param)


def test_each_fake_tree_reads_as_its_shape_and_says_it_is_simulated(shape: str) -> None:
    levels, llc_name, _ = EXPECTED[shape]
    caches = device.cache_sizes()
    assert caches["levels"] == levels  # the instruction caches are left out, as on a real sysfs
    assert caches["last_level"] == max(levels.values()) and device.last_level_name(caches["levels"]) == llc_name
    assert caches["simulated"] is True and device.cache_origin(caches["source"]) == "simulated"


def test_without_the_variable_the_machine_s_own_caches_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(device.SYSFS_ROOT_ENV, raising=False)
    caches = device.cache_sizes()
    assert caches["simulated"] is False and device.cache_origin(caches["source"]) in ("read", "fallback")


def test_a_root_without_caches_is_an_error_not_this_machine(tmp_path: Path) -> None:
    with pytest.raises(device.DeviceError, match="no cache hierarchy"):
        device.cache_sizes(tmp_path)


def test_every_setup_line_names_the_shape_s_last_level_and_says_simulated(shape: str) -> None:
    levels, llc_name, decode_level = EXPECTED[shape]
    llc = format_bytes(max(levels.values()), "en")
    course = load_course(bundled_course())
    lines = 0
    for exercise in course.exercises.values():
        en, es = setup_line(exercise, "en"), setup_line(exercise, "es")
        if en is None:
            assert es is None
            continue
        lines += 1
        assert f"your {llc} {llc_name} (the last level; SIMULATED from" in en, en
        assert es is not None and "SIMULADA desde" in es and f"tu {llc_name} de" in es, es
        call = exercise.measure
        if call is not None and call.dram is not None and "capped" not in en:
            summary = setup_summary(exercise)
            assert summary.endswith("dram (simulated)"), (exercise.id, summary)  # sized to ≥ 4× this shape's cache
    assert lines >= 20
    decode = course.exercises["n0-l4-gap"]
    assert setup_summary(decode).split()[-2] == decode_level
    assert reference_decode("quick").level == decode_level
    assert reference_decode("quick").last_level_name == llc_name


@pytest.mark.parametrize("name", ["epyc-32m", "no-l3"])
def test_the_cache_dependent_exercises_agree_on_other_shapes(name: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The exercises whose sizes, roofs or words depend on the caches, run headless at small sizes on the two
    shapes least like this machine (the whole set runs on this machine in test_every_exercise, and on every
    shape at real sizes in bench/run_every_exercise.py --shape). The roofline op's own exercises are left to
    those: each shape would measure its STREAM arrays again (~30 s), and their truths do not read the caches."""
    monkeypatch.setenv(device.SYSFS_ROOT_ENV, str(SHAPES / name))
    course = load_course(bundled_course())
    ids = sorted(i for i, ex in course.exercises.items()
                 if cache_dependent(ex) and ex.measure is not None and ex.measure.op != "roofline")
    assert {"n0-l4-gap", "n0-l4-gap-bandwidth", "f1-lab01-dram-bandwidth", "n0-l1-triad-bound"} <= set(ids)
    live = small_measure(run_request)

    def measure(request: Any, on_progress: Any, cancel: Any) -> Any:
        # The sizes and the words follow the fake tree; the roof a workload is judged against is this machine
        # kind's measured one (a test input), not the tiny roof of this run: that roof's arrays are sized for the
        # fake cache and may sit in the real one, and beside two busy loops it once measured a ridge of 0.04
        # FLOP/B, which put the triad (0.17) on the compute side. With a fixed roof the side follows from the
        # intensity alone, as the achieved rates are rescaled together.
        return on_shape(ROOFS["epyc-32m"], live(request, on_progress, cancel))

    store = ProgressStore(tmp_path / "p.sqlite3")
    try:
        checks = run_every_exercise(course, ExerciseRunner(store, measure), device="cpu", ids=ids)
    finally:
        store.close()
    table = render_table(checks)
    assert all(c.agree for c in checks), table
    by_id = {c.exercise_id: c for c in checks}
    assert by_id["n0-l4-gap"].setup.endswith("(simulated)"), table
    # the tiny decode model of the quick check sits in every shape's cache, so its roof is the cache's
    assert by_id["n0-l4-gap"].roof.startswith(("cache", "partial")), table


async def test_the_lab_plot_marks_simulated_caches_as_simulated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    """The working-set lab draws the cache levels it read; from a fake tree they are labelled simulated, and the
    sweep is left with Esc."""
    from tests.support.lab import write_lab_course
    from tests.support.pilot import PATIENCE_S, wait_timed
    from tutor.ui.app import make_app
    from tutor.ui.messages import OpenLab
    from tutor.ui.screens.lab import LabScreen
    from tutor.ui.widgets.lab_plot import LabPlot

    monkeypatch.setenv(device.SYSFS_ROOT_ENV, str(SHAPES / "epyc-32m"))
    course = load_course(write_lab_course(tmp_path / "course"))
    app = make_app(course=course, store=ProgressStore(tmp_path / "p.sqlite3"), lang="en", telemetry="host")
    async with app.run_test(size=(160, 48)) as pilot:
        app.post_message(OpenLab("lab-l1", "lab-ws"))
        await wait_timed(pilot, lambda: isinstance(app.screen, LabScreen), PATIENCE_S)
        screen = app.screen
        assert isinstance(screen, LabScreen)
        await pilot.press(*"flat until L2", "enter")
        plot = screen.query_one("#lab-plot", LabPlot)
        await wait_timed(pilot, lambda: bool(plot.caches), PATIENCE_S)
        assert plot.caches == {"L1 (simulated)": 32 * 2**10, "L2 (simulated)": MiB, "L3 (simulated)": 32 * MiB}
        await pilot.press("escape")
        await wait_timed(pilot, lambda: screen.state != "running", PATIENCE_S)


def test_lab02_says_why_when_the_clock_was_raised_and_not_also_above_100(monkeypatch: pytest.MonkeyPatch) -> None:
    """f1-lab02-fraction-of-roof measured 117 % of its theoretical peak on the 2-core Xeon VM: /proc/cpuinfo gives
    the 2.6 GHz base clock (no cpufreq) while the cores boost. The peak now takes the clock the GEMM needs, the
    exercise reads theoretical_gflops (present with cpufreq or without), and exactly one variant says why."""
    from tests.support.roofline import SPR, cpu_roofline

    roofline = cpu_roofline(monkeypatch, SPR, max_ghz=None, clock=2.6)
    from tutor.results import GemmFigures, StreamFigures

    gemm = {d: GemmFigures(peak_gflops=g) for d, g in {"float32": 390.0, "bfloat16": 2400.0}.items()}
    bw = StreamFigures(peak_bandwidth_gbs=25.0)
    roof = roofline.assemble_roofline("cpu", {"kind": "cpu", "name": "Xeon", "fingerprint": "f"}, "quick", bw, gemm,
                                      0.0)
    assert roof.physical_limits is not None
    limits = roof.physical_limits.to_json()  # the exercise reads the roof's figures by their JSON keys
    assert round(100 * 390.0 / (2 * 2.6 * 64)) == 117  # last round's figure: 2 cores × 2.6 GHz × 64 FLOP/cycle
    assert limits["theoretical_gflops"]["float32"] == pytest.approx(390.0) and limits["clock_raise"] > 1
    exercise = load_course(bundled_course()).exercises["f1-lab02-fraction-of-roof"]
    shown = [v for v in exercise.explanation_when
             if (value := limits.get(v.when.metric.split(".")[1]) if v.when.metric else None) is not None
             and (value if not isinstance(value, dict) else value["float32"]) > (v.when.above or 0)]
    assert [v.when.metric for v in shown] == ["physical_limits.clock_raise"]
    with_cpufreq = cpu_roofline(monkeypatch, SPR, max_ghz=3.8, clock=2.6).physical_limits("cpu", "Xeon", None)
    assert with_cpufreq.theoretical_gflops["float32"] == pytest.approx(486.4)  # the key the exercise reads
