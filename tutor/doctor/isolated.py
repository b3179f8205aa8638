"""The doctor out of the caller's process, like a measurement: torch is imported (and the tiny kernel probed) in a
spawned child, so a UI that opens the doctor never loads torch and never hangs on a stuck driver. The child sends
back the :class:`DoctorReport` itself; a cancel or a timeout kills it.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import threading
import time
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection
from pathlib import Path

from tutor.doctor.report import DoctorReport, LockMode

#: A doctor run takes seconds; a child still silent after this is stuck (a hung driver call) and is killed.
DOCTOR_TIMEOUT_S = 120.0


class DoctorUnavailable(RuntimeError):
    """The doctor's child process died, timed out or was cancelled; ``str(exc)`` says which (English, short)."""


def _child(conn: Connection, mode: LockMode, lock_path: Path | None) -> None:  # pragma: no cover - in the child
    import signal

    from tutor.doctor.report import run_doctor
    from tutor.measure.worker import silence_stdio

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    silence_stdio()  # whatever torch prints must not tear a TUI drawing on this terminal

    try:
        conn.send(("report", run_doctor(lock_mode=mode, lock_path=lock_path)))
    except BaseException as exc:  # the parent shows one line; the child must not die silently
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def run_doctor_isolated(
    mode: LockMode = "auto",
    lock_path: Path | None = None,
    *,
    cancel: threading.Event | None = None,
    timeout_s: float = DOCTOR_TIMEOUT_S,
) -> DoctorReport:
    """:func:`tutor.doctor.report.run_doctor` in a spawned child process; blocks the calling thread (call it from
    a worker). Raises :class:`DoctorUnavailable` when the child fails, is cancelled or runs past ``timeout_s``."""
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, mode, lock_path), daemon=True, name="tutor-doctor")
    # Starting a process hands sys.stderr's descriptor to multiprocessing's resource tracker; inside a Textual app
    # sys.stderr is a capture whose fileno() is -1 ("bad value(s) in fds_to_keep"): a real file stands in.
    with open(os.devnull, "w") as devnull, contextlib.redirect_stderr(devnull):
        resource_tracker.ensure_running()
        proc.start()
    child.close()
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            if cancel is not None and cancel.is_set():
                raise DoctorUnavailable("cancelled")
            if parent.poll(0.1):
                try:
                    kind, payload = parent.recv()
                except EOFError:
                    raise DoctorUnavailable(f"the doctor's process ended with status {proc.exitcode}") from None
                if kind == "report" and isinstance(payload, DoctorReport):
                    return payload
                raise DoctorUnavailable(str(payload))
            if not proc.is_alive() and not parent.poll():
                raise DoctorUnavailable(f"the doctor's process ended with status {proc.exitcode}")
            if time.monotonic() > deadline:
                raise DoctorUnavailable(f"the doctor did not answer within {timeout_s:.0f} s")
    finally:
        parent.close()
        if proc.is_alive():
            proc.kill()
        proc.join(timeout=2)
