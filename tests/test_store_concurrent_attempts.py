"""Two processes saving attempts into one SQLite store at once: SQLite's own transaction is what keeps them apart.

Issue 29 item 7 asked whether the per-attempt file lock (``tutor.practice.unfinished``: ``<data dir>/attempts/
<store>-<id>.lock``) duplicates SQLite's locking. It does not serialise any write: the store never takes it, and
this test saves attempts from two processes with no lock file at all (each writer's data dir is its own, empty).
Every attempt lands, with its own id and its own prediction, locked then graded. What that lock file answers is
another question, one SQLite cannot: whether the process that locked an attempt is still alive (the kernel drops
an ``flock`` when its holder dies, however it dies), which is how an unfinished attempt is told from one being
measured (``tests/test_unfinished*``). So the lock stays, for liveness only.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.synchronize import Barrier, Event
from pathlib import Path
from typing import Any

from tutor.progress import ProgressStore

PER_WRITER = 200


def _write(db: str, data_dir: str, writer: int, barrier: Barrier) -> None:
    import os

    os.environ["TUTOR_DATA_DIR"] = data_dir
    store = ProgressStore(Path(db))
    barrier.wait(timeout=60)  # both stores open, then both write at once
    for i in range(PER_WRITER):
        attempt = store.lock_prediction(exercise_id=f"w{writer}", lesson_id="l", prediction={"value": i},
                                        confidence=0.5)
        store.record_grade(attempt, measurement={"writer": writer, "i": i}, truth={"value": i}, verdict="right",
                           score=1.0)
    store.close()


def test_two_processes_save_attempts_at_once_and_every_one_lands(tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    ProgressStore(db).close()  # created and migrated once, so the writers race on attempts, not on the schema
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    writers = [ctx.Process(target=_write, args=(str(db), str(tmp_path / f"data{w}"), w, barrier)) for w in (0, 1)]
    for p in writers:
        p.start()
    for p in writers:
        p.join(timeout=120)
    assert [p.exitcode for p in writers] == [0, 0]

    store = ProgressStore(db)
    attempts = store.attempts()
    store.close()
    assert len(attempts) == 2 * PER_WRITER
    assert len({a.id for a in attempts}) == 2 * PER_WRITER
    for writer in (0, 1):
        mine = [a for a in attempts if a.exercise_id == f"w{writer}"]
        assert sorted(a.prediction.value for a in mine) == list(range(PER_WRITER))  # type: ignore[misc]
        assert {a.state for a in mine} == {"graded"}
    # No per-attempt lock file was made: the store's writes never used one.
    assert not any((tmp_path / f"data{w}" / "attempts").exists() for w in (0, 1))


def _hold(db: str, data_dir: str, held: Event, calling: Event, done: Event, blocked: Any) -> None:
    import os

    os.environ["TUTOR_DATA_DIR"] = data_dir
    store = ProgressStore(Path(db))
    with store.transaction():  # SQLite's write lock (BEGIN IMMEDIATE), and nothing else
        held.set()
        calling.wait(timeout=60)
        # The other process is inside its save now; it cannot finish while this transaction is open. (Waiting for
        # something that must not happen: a slow machine only makes it less likely, never a false failure.)
        blocked.value = not done.wait(timeout=0.5)
    store.close()


def _save_one(db: str, data_dir: str, held: Event, calling: Event, done: Event) -> None:
    import os

    os.environ["TUTOR_DATA_DIR"] = data_dir
    store = ProgressStore(Path(db))
    held.wait(timeout=60)
    calling.set()
    attempt = store.lock_prediction(exercise_id="waiter", lesson_id="l", prediction={"value": 1}, confidence=0.5)
    store.record_grade(attempt, measurement={}, truth={"value": 1}, verdict="right", score=1.0)
    done.set()
    store.close()


def test_a_save_waits_for_the_other_process_s_transaction_then_lands(tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    ProgressStore(db).close()
    ctx = multiprocessing.get_context("spawn")
    held, calling, done, blocked = ctx.Event(), ctx.Event(), ctx.Event(), ctx.Value("b", False)
    holder = ctx.Process(target=_hold, args=(str(db), str(tmp_path / "a"), held, calling, done, blocked))
    saver = ctx.Process(target=_save_one, args=(str(db), str(tmp_path / "b"), held, calling, done))
    holder.start()
    saver.start()
    holder.join(timeout=120)
    saver.join(timeout=120)
    assert [holder.exitcode, saver.exitcode] == [0, 0]
    assert blocked.value  # the save did not get past the other process's open transaction
    store = ProgressStore(db)
    assert [(a.exercise_id, a.state) for a in store.attempts()] == [("waiter", "graded")]
    store.close()
