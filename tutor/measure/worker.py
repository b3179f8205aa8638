"""The measurement worker: a separate process (multiprocessing, spawn) that runs :func:`api.run_request`.

No torch at import: torch is imported in the child only. The process starts on first use and stays warm; a
cancelled run that does not stop cooperatively within ``cancel_grace_s``, a timeout, a crash (segfault,
``os._exit``, the OOM killer) are all reported — :class:`MeasureCancelled` or :class:`MeasureFailed` — and the next
``run`` starts a fresh process.

Messages from the child are tuples over a pipe: ``("progress", fraction, message)``, ``("point", dict)``,
``("result", dict)``, ``("cancelled",)``, ``("error", kind, message)`` with kind ``"workload"``, ``"device"`` or
``"failed"``.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection
from typing import Any

from tutor.measure.errors import DeviceError, MeasureCancelled, MeasureFailed, MeasureTimedOut, WorkloadError
from tutor.theory.errors import FormulaError

OnProgress = Callable[[float, str], None]
OnPoint = Callable[[dict[str, Any]], None]


def silence_stdio() -> None:
    """Point the child's stdout and stderr at /dev/null: the parent may be a TUI drawing on that terminal, and
    whatever torch prints (warnings, OpenMP notices) would tear its screen. Results and errors go over the pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            os.dup2(devnull, fd)
    os.close(devnull)


def _child_main(conn: Connection, cancel: Any) -> None:
    """The worker process: serve requests until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    silence_stdio()
    from tutor.measure import api

    with contextlib.suppress(ImportError):
        import torch  # noqa: F401 - warm the import so the first measurement does not pay for it
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        try:
            result = api.run_request(
                request,
                progress=lambda f, m: conn.send(("progress", float(f), str(m))),
                should_cancel=cancel.is_set,
                on_point=lambda p: conn.send(("point", p)),
            )
            conn.send(("result", result))
        except MeasureTimedOut as exc:
            conn.send(("error", "timeout", str(exc.limit_s)))
        except MeasureCancelled:
            conn.send(("cancelled",))
        except (WorkloadError, FormulaError) as exc:
            conn.send(("error", "workload", str(exc)))
        except DeviceError as exc:
            conn.send(("error", "device", str(exc)))
        except MemoryError:
            conn.send(("error", "failed", "the measurement ran out of memory"))
        except Exception as exc:
            detail = traceback.format_exc(limit=3)
            first = str(exc).splitlines()[0] if str(exc) else ""
            conn.send(("error", "failed", f"{type(exc).__name__}: {first}".rstrip(": ") + "\n" + detail))


def request_time_limit(request: Any) -> float | None:
    """The wall-clock limit of ``request`` from its plan; None for a request the plan refuses (the child
    reports why) or a test op."""
    from tutor.measure.plan import parse_request

    try:
        return parse_request(request).time_limit_s
    except (WorkloadError, DeviceError, TypeError, ValueError):
        return None


def describe_exit(exitcode: int | None) -> str:
    """A readable sentence for how the worker process ended."""
    if exitcode is None:
        return "the measurement process stopped answering"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        if -exitcode == signal.SIGKILL:
            return f"the measurement process was killed ({name}) — most likely out of memory"
        if -exitcode == signal.SIGSEGV:
            return f"the measurement process crashed ({name})"
        return f"the measurement process was stopped by {name}"
    return f"the measurement process exited unexpectedly (exit code {exitcode})"


class MeasureWorker:
    """Runs measurement requests in a warm child process, one at a time (thread-safe)."""

    def __init__(self, *, cancel_grace_s: float = 0.8, poll_s: float = 0.02) -> None:
        self._ctx = mp.get_context("spawn")
        self._proc: Any = None
        self._conn: Connection | None = None
        self._cancel: Any = None
        self._lock = threading.Lock()
        self.cancel_grace_s = cancel_grace_s
        self.poll_s = poll_s

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.is_alive()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self.alive else None

    def start(self) -> None:
        """Start the child now (e.g. while the learner reads), instead of on the first run."""
        with self._lock:
            self._ensure()

    def _ensure(self) -> None:
        if self.alive:
            return
        self._discard()
        # multiprocessing starts its resource tracker with the first Event and passes it sys.stderr's fd; inside a
        # Textual app that object is a capture whose fileno() is -1 ("bad value(s) in fds_to_keep"). A real file
        # stands in while the tracker starts, and anything it prints goes nowhere near the terminal.
        with open(os.devnull, "w") as devnull, contextlib.redirect_stderr(devnull):
            resource_tracker.ensure_running()
            parent, child = self._ctx.Pipe(duplex=True)
            self._cancel = self._ctx.Event()
            self._proc = self._ctx.Process(target=_child_main, args=(child, self._cancel), daemon=True,
                                           name="gpu-tutor-measure")
            self._proc.start()
        child.close()
        self._conn = parent

    def _discard(self) -> None:
        """Stop and forget the current child (terminate, then kill)."""
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.close()
        if proc is not None:
            if proc.is_alive():
                proc.terminate()
                proc.join(0.5)
                if proc.is_alive():
                    proc.kill()
                    proc.join(1.0)
            with contextlib.suppress(ValueError):
                proc.close()

    def run(
        self,
        request: dict[str, Any],
        on_progress: OnProgress | None = None,
        cancel_event: threading.Event | None = None,
        timeout_s: float | None = None,
        on_point: OnPoint | None = None,
    ) -> dict[str, Any]:
        """Run ``request`` in the worker and return its result; blocks the calling thread.

        ``timeout_s`` defaults to the request's time limit (:func:`tutor.measure.plan.parse_request`: its
        estimated run time with a margin); past it the run is stopped — cooperatively, or by ending the process.

        Raises :class:`MeasureCancelled` (``cancel_event`` set; within about a second even if the measurement
        does not stop by itself), :class:`MeasureTimedOut` (past its time limit), :class:`MeasureFailed` (crash,
        error inside),
        :class:`WorkloadError` / :class:`DeviceError` (bad input).
        """
        limit = timeout_s if timeout_s is not None else request_time_limit(request)
        if limit is not None and timeout_s is not None and "time_limit_s" not in request:
            request = {**request, "time_limit_s": timeout_s}  # the child stops cooperatively at the same limit
        with self._lock:
            self._ensure()
            assert self._conn is not None and self._proc is not None
            self._cancel.clear()
            try:
                self._conn.send(request)
            except (OSError, ValueError) as exc:
                self._discard()
                raise MeasureFailed(f"could not send the request to the measurement process: {exc}") from None
            started = time.monotonic()
            cancel_deadline: float | None = None
            while True:
                if cancel_event is not None and cancel_event.is_set() and cancel_deadline is None:
                    self._cancel.set()
                    cancel_deadline = time.monotonic() + self.cancel_grace_s
                if cancel_deadline is not None and time.monotonic() > cancel_deadline:
                    self._discard()
                    raise MeasureCancelled("cancelled (the measurement process was stopped)")
                if limit is not None and time.monotonic() - started > limit + self.cancel_grace_s:
                    # past its limit and not stopped by itself (a long kernel does not look at the clock)
                    self._discard()
                    raise MeasureTimedOut(limit)
                try:
                    ready = self._conn.poll(self.poll_s)
                except (OSError, EOFError):
                    ready = False
                if not ready:
                    if not self._proc.is_alive():
                        reason = describe_exit(self._proc.exitcode)
                        self._discard()
                        raise MeasureFailed(reason)
                    continue
                try:
                    message = self._conn.recv()
                except (EOFError, OSError):
                    self._proc.join(1.0)
                    reason = describe_exit(self._proc.exitcode)
                    self._discard()
                    raise MeasureFailed(reason) from None
                tag = message[0]
                if tag == "progress":
                    if on_progress is not None:
                        on_progress(message[1], message[2])
                elif tag == "point":
                    if on_point is not None:
                        on_point(message[1])
                elif tag == "result":
                    return dict(message[1])
                elif tag == "cancelled":
                    raise MeasureCancelled("cancelled")
                elif tag == "error":
                    kind, text = message[1], message[2]
                    if kind == "workload":
                        raise WorkloadError(text)
                    if kind == "device":
                        raise DeviceError(text)
                    if kind == "timeout":
                        raise MeasureTimedOut(float(text))
                    reason, _, detail = text.partition("\n")
                    raise MeasureFailed(reason, detail or None)

    def close(self) -> None:
        """Stop the child process (asks it to exit, then terminates it)."""
        with self._lock:
            if self._conn is not None and self.alive:
                try:
                    self._conn.send(None)
                    assert self._proc is not None
                    self._proc.join(1.0)
                except (OSError, ValueError):
                    pass
            self._discard()

    def __enter__(self) -> MeasureWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
