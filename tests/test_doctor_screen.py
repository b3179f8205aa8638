"""The doctor screen, driven with Pilot: it runs the doctor in a worker and shows each check and the fix."""

from __future__ import annotations

from pathlib import Path

from tests.support.doctor import broken_5090_runner, doctor_app
from tutor.progress import ProgressStore
from tutor.ui.screens.doctor import DoctorScreen


async def test_doctor_screen_shows_the_failure_and_writes_the_lock(tmp_path: Path) -> None:
    store = ProgressStore(tmp_path / "p.sqlite3")
    lock_path = tmp_path / "env.lock.json"
    app = doctor_app(store)
    screen = DoctorScreen(app.session, runner=broken_5090_runner(lock_path))
    async with app.run_test(size=(120, 50)) as pilot:
        await app.push_screen(screen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.report is not None and not screen.report.passed
        kernel = screen.query_one("#check-kernel_image")
        assert kernel.has_class("-fail")
        assert "no kernel image" in str(kernel.render())
        assert screen.query_one("#doctor-summary").has_class("-failed")
        assert len(store.doctor_runs()) == 1

        await pilot.press("w")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert lock_path.is_file()
        assert screen.query_one("#check-lock").has_class("-ok")
        runs = store.doctor_runs()
        assert len(runs) == 2 and runs[-1].lock_matches is True


def test_doctor_screen_does_not_import_torch() -> None:
    import subprocess
    import sys

    code = "import sys, tutor.ui.screens.doctor; print('torch' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == (
        "False"
    )


RUN_THE_REAL_DOCTOR = r'''
import asyncio, sys, tempfile
from pathlib import Path
from tutor.content import Course
from tutor.progress import ProgressStore
from tutor.ui.app import make_app
from tutor.ui.screens.doctor import DoctorScreen

async def main():
    tmp = Path(tempfile.mkdtemp())
    app = make_app(course=Course(root=None), store=ProgressStore(tmp / "p.sqlite3"), lang="en", telemetry=None)
    screen = DoctorScreen(app.session, lock_path=tmp / "env.lock.json")
    async with app.run_test(size=(120, 50)) as pilot:
        await app.push_screen(screen)
        for _ in range(1800):
            if screen.report is not None:
                break
            await pilot.pause(0.1)
        print("report", screen.report is not None and screen.report.passed)
        print("runs", len(app.store.doctor_runs()))
    print("torch", "torch" in sys.modules)

asyncio.run(main())
'''


def test_the_real_doctor_runs_in_a_child_and_torch_stays_out_of_the_ui_process() -> None:
    """The screen's default runner: the real doctor (torch, the CPU probe) in a spawned child; the UI process that
    showed its report has still not imported torch."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", RUN_THE_REAL_DOCTOR], capture_output=True, text=True, timeout=240)
    lines = dict(line.split(" ", 1) for line in out.stdout.strip().splitlines() if " " in line)
    assert lines.get("report") == "True", out.stdout + out.stderr[-2000:]
    assert lines.get("runs") == "1"
    assert lines.get("torch") == "False"


def test_a_cancelled_doctor_child_is_killed_at_once() -> None:
    import threading
    import time

    import pytest

    from tutor.doctor.isolated import DoctorUnavailable, run_doctor_isolated

    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(DoctorUnavailable, match="cancelled"):
        run_doctor_isolated("off", cancel=cancel)
    assert time.monotonic() - started < 5
