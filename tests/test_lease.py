"""The measurement lease: in a class one measurement at a time per device, the queue shown, Esc still cancels;
alone (SQLite) nothing waits. Every stored measurement says whether it ran under the lease, and when."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
import threading
import time

import pytest
from textual.widgets import Input, Static

from tests.conftest import Classroom, Stores
from tests.support.exercise import COURSE, fake_measure
from tests.support.pilot import RESPONSIVE_S, wait_for
from tutor.content import load_course
from tutor.practice import ExerciseRunner
from tutor.progress.lease import LeaseCancelled, device_key, lease_device, postgres_lease, queue_text
from tutor.ui.app import make_app
from tutor.ui.screens.exercise import ExerciseScreen

PG = pytest.mark.parametrize("stores", ["postgresql"], indirect=True)


def test_queue_text_in_both_languages() -> None:
    assert queue_text(2, "en") == "Waiting for the shared device: 2 learners ahead (Esc cancels)"
    assert queue_text(2, "es") == "Esperando el dispositivo compartido: 2 alumnos por delante (Esc cancela)"
    assert "1 learner ahead" in queue_text(1, "en") and "1 alumno por delante" in queue_text(1, "es")


def test_every_stored_measurement_records_its_lease(stores: Stores) -> None:
    store = stores.open()
    course = load_course(COURSE)
    exercise = course.exercises["t-copy-gbs"]
    from tutor.grading import parse_prediction

    prediction = parse_prediction(exercise, "20", confidence=0.8)
    before = time.time()
    outcome = ExerciseRunner(store, fake_measure).run(exercise, prediction)
    [attempt] = store.attempts()
    lease = attempt.measurement.figures["lease"]
    assert attempt.id == outcome.attempt_id
    assert lease["held"] is (stores.engine == "postgresql")  # alone, nothing is leased; in a class, always
    assert lease["device"] == lease_device("auto")
    assert before <= lease["acquired_at"] <= lease["released_at"] <= time.time()
    assert lease["waited_s"] < 1.0 and lease["ahead_at_start"] == 0


def _hold(conninfo: str, device: str, seconds: float, log: list[tuple[str, float, float]], name: str,
          queue: list[int] | None = None, started: threading.Event | None = None) -> None:
    with postgres_lease(conninfo, device, on_queue=queue.append if queue is not None else None) as lease:
        if started is not None:
            started.set()
        time.sleep(seconds)
    assert lease.released_at is not None
    log.append((name, lease.acquired_at, lease.released_at))


@PG
def test_two_learners_on_one_device_take_turns_and_see_the_queue(stores: Stores) -> None:
    dsn = stores.spec()
    device = f"test-host:{time.time_ns()}"
    log: list[tuple[str, float, float]] = []
    a_has_it = threading.Event()
    a = threading.Thread(target=_hold, args=(dsn, device, 0.8, log, "a", None, a_has_it))
    a.start()
    assert a_has_it.wait(10)
    b_queue: list[int] = []
    b = threading.Thread(target=_hold, args=(dsn, device, 0.6, log, "b", b_queue))
    b.start()
    time.sleep(0.3)
    c_queue: list[int] = []
    c = threading.Thread(target=_hold, args=(dsn, device, 0.1, log, "c", c_queue))
    c.start()
    for thread in (a, b, c):
        thread.join(20)
    assert [name for name, *_ in sorted(log, key=lambda r: r[1])] == ["a", "b", "c"]  # first come, first served
    intervals = sorted((start, end) for _, start, end in log)
    assert all(prev_end <= start for (_, prev_end), (start, _) in itertools.pairwise(intervals))
    assert b_queue[0] == 1 and b_queue[-1] == 0  # one learner ahead, then its turn
    assert c_queue[0] == 2 and 1 in c_queue and c_queue[-1] == 0
    # another device is not queued behind this one
    other: list[tuple[str, float, float]] = []
    _hold(dsn, device + "-other", 0.0, other, "d")


@PG
def test_a_cancel_while_waiting_ends_the_wait_within_a_second(stores: Stores) -> None:
    import psycopg

    dsn = stores.spec()
    device = f"test-host:{time.time_ns()}"
    with psycopg.connect(dsn, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s, %s)", device_key(device))
        stop_at = time.monotonic() + 0.4
        started = time.monotonic()
        with pytest.raises(LeaseCancelled), postgres_lease(dsn, device, cancelled=lambda: time.monotonic() > stop_at):
            pytest.fail("the lease was given while another learner held the device")
        assert time.monotonic() - started < 0.4 + RESPONSIVE_S  # cancelled at 0.4 s
        # the cancelled waiter left no lock behind: once the holder lets go, the device is free
        holder.execute("SELECT pg_advisory_unlock(%s, %s)", device_key(device))
    with postgres_lease(dsn, device) as lease:
        assert lease.held and lease.waited_s < 1.0


HOLDER = """
import sys, time
from tutor.progress.lease import postgres_lease
with postgres_lease(sys.argv[1], sys.argv[2]):
    print("held", flush=True)
    time.sleep(60)
"""


@PG
def test_a_learner_whose_process_dies_releases_the_device(stores: Stores) -> None:
    dsn = stores.spec()
    device = f"test-host:{time.time_ns()}"
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, dsn, device], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        queue: list[int] = []
        killer = threading.Timer(0.5, proc.kill)
        killer.start()
        started = time.monotonic()
        with postgres_lease(dsn, device, on_queue=queue.append) as lease:
            waited = time.monotonic() - started
        assert queue[0] == 1 and lease.held and 0.3 < waited < 5
    finally:
        proc.kill()
        proc.wait(10)


@PG
async def test_the_exercise_screen_shows_the_queue_and_esc_cancels_the_wait(stores: Stores) -> None:
    import psycopg

    store = stores.open()
    dsn = stores.spec()
    key = device_key(lease_device("auto"))
    holder = psycopg.connect(dsn, autocommit=True)
    waiter = psycopg.connect(dsn, autocommit=True)
    holder.execute("SELECT pg_advisory_lock(%s, %s)", key)
    queued = threading.Thread(target=lambda: waiter.execute("SELECT pg_advisory_lock(%s, %s)", key), daemon=True)
    queued.start()
    time.sleep(0.3)
    try:
        for lang, words in (("en", "2 learners ahead"), ("es", "2 alumnos por delante")):
            app = make_app(course=load_course(COURSE), store=store, lang=lang, telemetry="host",
                           resume=False)  # the first app left the exercise as its place: this one pushes it itself
            async with app.run_test(size=(160, 60)) as pilot:
                screen = ExerciseScreen(app.session, app.course.exercises["t-copy-gbs"], measure=fake_measure)
                app.push_screen(screen)
                await pilot.pause()
                screen.query_one("#ex-number", Input).value = "20"
                await pilot.press("ctrl+l", "ctrl+r")
                status = screen.query_one("#ex-status", Static)
                await wait_for(pilot, lambda s=status, w=words: w in str(s.render()), timeout=5)
                started = time.monotonic()
                await pilot.press("escape")
                await wait_for(pilot, lambda s=screen: s.state == "predicting", timeout=RESPONSIVE_S)
                assert time.monotonic() - started < RESPONSIVE_S and app.screen is screen
        states = [a.state for a in store.attempts()]
        assert states == ["cancelled", "cancelled"]
        assert store.attempts()[0].error == "cancelled while waiting for the device"
    finally:
        holder.close()  # the queued connection gets the lock, then lets it go
        queued.join(5)
        waiter.close()


@PG
async def test_the_telemetry_panel_shows_another_learner_holding_the_device(classroom: Classroom) -> None:
    from tutor.ui.widgets.telemetry_panel import TelemetryPanel

    ben = classroom.learners["ben"]
    release = threading.Event()
    holding = threading.Event()

    def hold() -> None:
        with postgres_lease(ben.dsn, lease_device("auto")):
            holding.set()
            release.wait(20)

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(10)
    try:
        app = make_app(course=load_course(COURSE), store=classroom.store("ana"), lang="es", telemetry="host")
        app.lease_poll_s = 0.2
        async with app.run_test(size=(160, 60)) as pilot:
            screen = ExerciseScreen(app.session, app.course.exercises["t-copy-gbs"], measure=fake_measure)
            app.push_screen(screen)
            await pilot.pause()
            lease = screen.query_one(TelemetryPanel).query_one("#telemetry-lease", Static)
            await wait_for(pilot, lambda: f"{ben.name} está midiendo en este dispositivo" in str(lease.render()))
            release.set()
            holder.join(10)
            await wait_for(pilot, lambda: not lease.display)
    finally:
        release.set()
        holder.join(10)


def test_on_a_machine_without_an_accelerator_every_spelling_leases_the_cpu() -> None:
    spellings = ("auto", "cpu", "cuda", "cuda:0", "")
    assert len({lease_device(d, accelerator=False) for d in spellings}) == 1
    with_gpu = {d: lease_device(d, accelerator=True) for d in spellings}
    assert len({with_gpu[d] for d in ("auto", "cuda", "cuda:0", "")}) == 1 and with_gpu["cpu"] != with_gpu["auto"]


def test_without_torch_loaded_the_accelerator_is_read_from_the_device_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    import glob as globmod

    from tutor.progress import lease as lease_module

    monkeypatch.delitem(sys.modules, "torch", raising=False)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    monkeypatch.setattr(globmod, "glob", lambda pattern: [])
    assert lease_module.has_accelerator() is False and lease_device("auto") == lease_device("cpu")
    monkeypatch.setattr(globmod, "glob", lambda pattern: ["/dev/nvidia0"])
    assert lease_module.has_accelerator() is True and lease_device("auto") != lease_device("cpu")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    assert lease_module.has_accelerator() is False


STOPPED = """
import sys, time
from tutor.progress.lease import postgres_lease
with postgres_lease(sys.argv[1], sys.argv[2], heartbeat_s=0.2, silence_s=1.0) as lease:
    print("held", flush=True)
    time.sleep(float(sys.argv[3]))
print("held" if lease.held else "lost", flush=True)
"""


@PG
def test_a_learner_whose_process_is_stopped_loses_the_device_and_knows_it(stores: Stores) -> None:
    import os
    import signal

    dsn = stores.spec()
    device = f"test-host:{time.time_ns()}"
    proc = subprocess.Popen([sys.executable, "-c", STOPPED, dsn, device, "4"], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        os.kill(proc.pid, signal.SIGSTOP)  # a learner's laptop lid, or kill -STOP
        started = time.monotonic()
        with postgres_lease(dsn, device, cancelled=lambda: time.monotonic() - started > 10) as lease:
            waited = time.monotonic() - started
        assert lease.held and waited < 8
        os.kill(proc.pid, signal.SIGCONT)
        assert proc.stdout.readline().strip() == "lost"  # its measurement is not recorded as leased
    finally:
        os.kill(proc.pid, signal.SIGCONT)
        proc.kill()
        proc.wait(10)


@PG
def test_the_instructor_lists_and_breaks_a_lease_held_from_psql(classroom: Classroom,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import json

    import psycopg

    from tutor.cli import main

    ben = classroom.learners["ben"]
    device = lease_device("auto")
    hostile = psycopg.connect(ben.dsn, autocommit=True, application_name="psql")
    try:
        hostile.execute("SET idle_session_timeout = 0")  # no timeout for a holder that is not the tutor
        hostile.execute("SELECT pg_advisory_lock(%s, %s)", device_key(device))
        pid = hostile.info.backend_pid
        assert main(["class", "leases", "--store", classroom.admin, "--json"]) == 0
        listed = [h for h in json.loads(capsys.readouterr().out) if h["pid"] == pid]
        assert listed == [{"pid": pid, "learner": ben.name, "key": device_key(device)[1], "waiting": 0,
                           "device": None, "since": None}]
        assert main(["class", "leases", "--store", classroom.admin, "--lang", "en"]) == 0
        assert f"session {pid}  {ben.name}  on a device it does not name  held since an unknown time" in (
            capsys.readouterr().out)
        # --older-than counts only what the tutor's own leases say; the psql holder is broken by name
        assert main(["class", "break-lease", "--older-than", "0", "--store", classroom.admin, "--lang", "en"]) == 2
        assert "no device lease held now matches" in capsys.readouterr().err
        assert main(["class", "break-lease", ben.name, "--store", classroom.admin, "--lang", "en"]) == 0
        assert f"Broken: session {pid}  {ben.name}" in capsys.readouterr().out
        started = time.monotonic()
        with postgres_lease(classroom.learners["ana"].dsn, device) as lease:
            assert lease.held and time.monotonic() - started < 5
        assert hostile.broken or hostile.closed or _dead(hostile)
    finally:
        hostile.close()


def _dead(conn: object) -> bool:
    import psycopg

    try:
        conn.execute("SELECT 1")  # type: ignore[attr-defined]
    except psycopg.Error:
        return True
    return False


@PG
def test_the_tutors_own_stale_lease_is_broken_by_age(classroom: Classroom, capsys: pytest.CaptureFixture[str]) -> None:
    from tutor.cli import main

    device = f"test-host:{time.time_ns()}"
    with postgres_lease(classroom.learners["ana"].dsn, device, heartbeat_s=0.2) as lease:
        time.sleep(1.1)
        assert main(["class", "leases", "--store", classroom.admin, "--lang", "es"]) == 0
        out = capsys.readouterr().out
        assert re.search(rf"{classroom.learners['ana'].name}  en {device}  reservado hace [12] s  0 esperando", out)
        assert main(["class", "break-lease", "--older-than", "1", "--store", classroom.admin]) == 0
        time.sleep(0.5)
    assert lease.held is False
