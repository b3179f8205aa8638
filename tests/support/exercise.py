"""The exercise screen's test course, a fake measurement (its result and its progress) and how to open an exercise."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from tutor.content import load_course
from tutor.measure.phases import said
from tutor.progress import ProgressStore
from tutor.ui.app import make_app
from tutor.ui.screens.exercise import ExerciseScreen

COURSE = Path(__file__).parents[1] / "fixtures" / "exercise_course"
ROOF = {"peak_bandwidth_gbs": 32.0, "peak_gflops": {"float32": 160.0}, "ridge_point": 5.0,
        "datasheet": {"name": "Some GPU", "bandwidth_gbs": 1000.0, "tflops": {"float32": 50.0}}}


def fake_result(request: dict[str, Any]) -> dict[str, Any]:
    n = request["params"]["n"]
    nbytes = 8 * n
    return {"kind": "workload", "workload": request["name"], "params": {**request["params"], "dtype": "float32"},
            "device": {"kind": "cpu", "name": "Test CPU", "fingerprint": "fp"}, "flops": 0, "bytes": nbytes,
            "arithmetic_intensity": 0.0, "time_s": {"median": nbytes / 20e9, "min": nbytes / 22e9, "max": 1.0,
                                                    "mean": 1.0, "cv": 0.03, "repeats": 9, "inner": 1},
            "achieved_gbs": 20.0, "achieved_gflops": 0.0, "best_gbs": 22.0, "best_gflops": 0.0, "roofline": ROOF,
            "classification": {"bound": "memory", "too_close_to_call": False, "fraction_of_bandwidth_roof": 0.62,
                               "fraction_of_compute_roof": 0.0}}


def fake_measure(request: dict[str, Any], on_progress: Any, cancel: threading.Event | None) -> dict[str, Any]:
    for i in range(3):
        if on_progress:
            on_progress((i + 1) / 3, said("measure.progress.test_point", i=i))
    return fake_result(request)


def app_for(tmp_path: Path) -> Any:
    return make_app(course=load_course(COURSE), store=ProgressStore(tmp_path / "p.sqlite3"), lang="en",
                    telemetry="host")


async def open_exercise(app: Any, pilot: Any, ex_id: str, measure: Any) -> ExerciseScreen:
    screen = ExerciseScreen(app.session, app.course.exercises[ex_id], measure=measure)
    app.push_screen(screen)
    await pilot.pause()
    return screen
