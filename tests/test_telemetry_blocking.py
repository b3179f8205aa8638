"""A driver call that blocks (issue 17 item 6, and item 4 for telemetry): the panel marks its readings stale in
both languages, fresh readings clear the mark, and neither closing the sampler nor quitting the app waits on the
call."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

from tests.support.pilot import RESPONSIVE_S, wait_for
from tutor.content import load_course
from tutor.i18n.message import Message
from tutor.progress import ProgressStore
from tutor.telemetry import BackendStatus, DeviceInfo, DeviceSample, Sampler, TelemetryBackend
from tutor.ui.app import make_app
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.widgets.telemetry_panel import TelemetryPanel

REPO = Path(__file__).resolve().parents[1]
COURSE = REPO / "tests" / "fixtures" / "exercise_course"


class Wedged(TelemetryBackend):
    """A GPU whose driver answers until ``block`` is set; then ``sample()`` hangs until ``release`` is set (as
    NVML does on a wedged GPU: a minute and more)."""

    name = "nvml"

    def __init__(self) -> None:
        self.block = threading.Event()
        self.release = threading.Event()
        self.blocked = threading.Event()
        self.calls = 0

    def probe(self) -> BackendStatus:
        return BackendStatus(backend="nvml", code="ok", said=Message.verbatim("NVML"))

    def devices(self) -> tuple[DeviceInfo, ...]:
        return (DeviceInfo(id="gpu0", kind="gpu", name="Fake GPU", metrics=("gpu_util_pct", "mem_used_bytes"),
                           static={"mem_total_bytes": 8 * 2**30}),)

    def sample(self) -> tuple[DeviceSample, ...]:
        self.calls += 1
        if self.block.is_set():
            self.blocked.set()
            self.release.wait(120)
        return (DeviceSample("gpu0", {"gpu_util_pct": 42.0, "mem_used_bytes": 2**30}),)


def test_the_sampler_keeps_delivering_stale_snapshots_and_closes_at_once() -> None:
    backend = Wedged()
    snaps: list[Any] = []
    sampler = Sampler(backend, 0.25, on_snapshot=snaps.append, call_timeout=0.3).start()
    end = time.monotonic() + 5
    while not any(s.samples for s in snaps) and time.monotonic() < end:
        time.sleep(0.02)
    fresh = [s for s in snaps if s.samples]
    assert fresh and not fresh[-1].stale
    backend.block.set()
    assert backend.blocked.wait(5)
    end = time.monotonic() + 5
    while not (snaps and snaps[-1].stale) and time.monotonic() < end:
        time.sleep(0.02)
    last = snaps[-1]
    assert last.stale and last.samples  # the last readings, kept and marked
    assert last.age() > 2 * last.interval
    t0 = time.monotonic()
    sampler.close()
    assert time.monotonic() - t0 < 1.0
    backend.release.set()


def app_for(tmp_path: Path, backend: TelemetryBackend, lang: str = "en") -> Any:
    return make_app(course=load_course(COURSE), store=ProgressStore(tmp_path / "p.sqlite3"), lang=lang,  # type: ignore[arg-type]
                    telemetry=backend, telemetry_interval=0.25)



async def open_panel(app: Any, pilot: Any) -> TelemetryPanel:
    lesson = next(iter(app.course.lessons.values()))
    app.push_screen(LessonScreen(app.session, lesson, app.marks))
    await wait_for(pilot, lambda: bool(app.screen.query(TelemetryPanel)))
    return app.screen.query_one(TelemetryPanel)  # type: ignore[no-any-return]


def panel_text(panel: TelemetryPanel) -> str:
    return " ".join(str(w.render()) for w in panel.query("Static"))


async def test_the_panel_marks_blocked_readings_stale_and_clears_the_mark(tmp_path: Path) -> None:
    backend = Wedged()
    app = app_for(tmp_path, backend)
    async with app.run_test(size=(160, 50)) as pilot:
        panel = await open_panel(app, pilot)
        await wait_for(pilot, lambda: panel.snapshot is not None and bool(panel.snapshot.samples))
        assert not panel.stale and "42" in panel_text(panel)
        backend.block.set()
        await wait_for(pilot, lambda: panel.stale)
        text = panel_text(panel)
        assert "STALE — last reading" in text and "42" in text  # old figures stay, marked
        assert "(the driver is not answering)" in text  # NVML's call is what blocks
        app.lang = "es"
        await wait_for(pilot, lambda: "SIN DATOS RECIENTES" in panel_text(panel))
        assert "SIN DATOS RECIENTES — última lectura hace" in panel_text(panel)
        backend.block.clear()
        backend.release.set()
        await wait_for(pilot, lambda: not panel.stale)  # fresh readings clear the mark
        assert not panel.query_one("#telemetry-stale").display


QUIT_SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    sys.path.insert(0, {tests!r})
    from pathlib import Path
    from test_telemetry_blocking import Wedged, app_for, open_panel, wait_for

    async def drive(pilot):
        panel = await open_panel(app, pilot)
        await wait_for(pilot, lambda: panel.snapshot is not None and bool(panel.snapshot.samples))
        backend.block.set()
        await wait_for(pilot, lambda: panel.stale)
        print(json.dumps({{"pressed": time.time()}}), flush=True)
        await pilot.press("ctrl+q")

    if __name__ == "__main__":
        backend = Wedged()
        app = app_for(Path(sys.argv[1]), backend)
        app.run(headless=True, size=(160, 50), auto_pilot=drive)
        from tutor.commands.tui import exit_now

        exit_now(0)
    """
)


def test_quit_while_the_driver_call_blocks_exits_within_a_second(tmp_path: Path) -> None:
    script = tmp_path / "quit.py"
    script.write_text(QUIT_SCRIPT.format(tests=str(REPO / "tests")))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, str(script), str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line, proc.stderr.read() if proc.stderr else ""
        pressed = float(json.loads(line)["pressed"])
        proc.wait(timeout=30)
        elapsed = time.time() - pressed
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    print(f"quit with a blocked driver call took {elapsed:.3f} s")
    assert elapsed < RESPONSIVE_S, f"quit took {elapsed:.2f} s"  # the blocked call never returns by itself


def test_staleness_is_blamed_on_the_backend_that_is_live() -> None:
    """On a CPU-only machine there is no driver to blame: a starved host sampler or a trace's end is said."""
    from tutor.i18n import t
    from tutor.ui.widgets.telemetry_panel import stale_key

    assert [stale_key(b) for b in ("nvml+host", "nvml", "host", "replay")] == [
        "tel.stale", "tel.stale", "tel.stale_host", "tel.stale_replay"]
    for lang in ("es", "en"):
        assert "driver" not in t(stale_key("host"), lang, age="3")
        assert "driver" not in t(stale_key("replay"), lang, age="3")
