"""The measurement worker: a separate process (multiprocessing, spawn) that runs :func:`api.run_request`.

No torch at import: torch is imported in the child only. The process starts on first use and stays warm; a
cancelled run that does not stop cooperatively within ``cancel_grace_s``, a timeout, a crash (segfault,
``os._exit``, the OOM killer) are all reported — :class:`MeasureCancelled` or :class:`MeasureFailed` — and the next
``run`` starts a fresh process.

Messages from the child are tuples over a pipe: ``("progress", fraction, said)`` (``said`` a catalog message as
JSON, checked on arrival against :data:`tutor.measure.phases.PHASES`: anything else reads "measuring…"),
``("point", dict)``, ``("beat", idle_s)``, ``("ready",)`` (once, after the child's imports),
``("result", dict)``, ``("cancelled",)``, ``("error", kind, message)`` with kind
``"workload"``, ``"device"``, ``"oom"`` (the measurement could not allocate: ``MemoryError`` or torch's
out-of-memory text) or ``"failed"``.

Heartbeat: while a request runs, a thread in the child sends ``("beat", idle_s)`` every ``HEARTBEAT_S``, where
``idle_s`` is how long the measurement has gone without reporting progress or checking for cancellation. The parent
keeps the time of the last sign of life; when it is older than ``stall_after_s`` (no beats at all: a stopped or
frozen process; or beats that say the measurement itself sits idle: a hung call) ``on_stall(seconds)`` is called,
and ``on_stall(None)`` once signs of life come back. A cancel while stalled stops the process at once.

Quitting: :meth:`MeasureWorker.close` never waits on a running measurement: it stops the process (terminate, then
kill after a short grace), and the thread inside :meth:`MeasureWorker.run` returns with :class:`MeasureCancelled`
within a poll.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection
from typing import Any

from tutor.i18n.message import Message
from tutor.measure.errors import (
    DeviceError,
    MeasureCancelled,
    MeasureError,
    MeasureFailed,
    MeasureTimedOut,
    WorkloadError,
)
from tutor.measure.phases import fraction_from_wire, from_wire, to_wire
from tutor.results.wire import JsonObject
from tutor.theory.errors import FormulaError

OnProgress = Callable[[float, Message], None]
OnPoint = Callable[[JsonObject], None]
OnStall = Callable[[float | None], None]

HEARTBEAT_S = 0.25
"""How often the child says it is alive while a request runs."""
STALL_AFTER_S = 20.0
"""Default: no sign of life for this long and the measurement is reported as stalled (``TUTOR_STALL_AFTER_S``)."""
STALL_ENV = "TUTOR_STALL_AFTER_S"
STARTUP_ALLOWANCE_S = 60.0
"""A fresh process imports torch before it answers (seconds on a cold disk): until it says ``ready`` the stall
bound is at least this."""

#: Text torch (or the C allocator) uses when an allocation fails; such a failure is an out-of-memory, not a bug.
_OOM_PATTERNS = ("out of memory", "can't allocate memory", "cannot allocate memory", "failed to allocate",
                 "std::bad_alloc", "alloc_cpu", "defaultcpuallocator")


def is_oom_text(text: str) -> bool:
    """Whether an exception's text says an allocation failed (torch's CPU or CUDA allocator, ``bad_alloc``)."""
    low = text.lower()
    return any(p in low for p in _OOM_PATTERNS)


def default_stall_after() -> float:
    """``STALL_AFTER_S``, or the seconds in ``TUTOR_STALL_AFTER_S`` (tests and slow machines set it)."""
    raw = os.environ.get(STALL_ENV)
    try:
        value = float(raw) if raw else STALL_AFTER_S
    except ValueError:
        value = STALL_AFTER_S
    return value if 0.05 <= value <= 3600 else STALL_AFTER_S


def silence_stdio() -> None:
    """Point the child's stdout and stderr at /dev/null: the parent may be a TUI drawing on that terminal, and
    whatever torch prints (warnings, OpenMP notices) would tear its screen. Results and errors go over the pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            os.dup2(devnull, fd)
    os.close(devnull)


SLOW_START_ENV = "TUTOR_TEST_SLOW_START"
"""Tests only: ``burn:S`` or ``sleep:S`` makes a fresh child spend S seconds (busy, or idle) before its imports."""


def _test_slow_start() -> None:
    how, _, seconds = os.environ.get(SLOW_START_ENV, "").partition(":")
    try:
        until = time.monotonic() + min(float(seconds), 30.0)
    except ValueError:
        return
    if how == "sleep":
        time.sleep(max(0.0, until - time.monotonic()))
    elif how == "burn":
        while time.monotonic() < until:
            pass


def _cpu_seconds(pid: int | None) -> float | None:
    """The CPU time a process has used (user + system), None when it cannot be read."""
    if pid is None:
        return None
    try:
        import psutil

        times = psutil.Process(pid).cpu_times()
    except Exception:  # gone, not permitted, or no psutil: no evidence either way
        return None
    return float(times.user + times.system)


#: While a fresh child imports torch it cannot answer; it is alive when its CPU time grew by this much since the
#: last look (a loaded laptop can take minutes to import torch: busy, not stalled).
STARTUP_CPU_LIFE_S = 0.05


def _child_main(conn: Connection, cancel: Any) -> None:
    """The worker process: serve requests until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if sys.platform.startswith("linux"):
        _die_with_parent()
    silence_stdio()
    send_lock = threading.Lock()

    def send(message: tuple[Any, ...]) -> None:
        with send_lock:
            conn.send(message)

    _test_slow_start()
    with contextlib.suppress(ImportError):
        import torch  # noqa: F401 - warm the import so the first measurement does not pay for it
    with contextlib.suppress(OSError, ValueError):
        send(("ready",))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        try:
            send(_serve(request, send, cancel))
        except (OSError, ValueError):
            return


def _serve(request: Any, send: Callable[[tuple[Any, ...]], None], cancel: Any) -> tuple[Any, ...]:
    """Run one request with a heartbeat thread beside it; returns the reply to send."""
    from tutor.measure import api

    activity = [time.monotonic()]
    done = threading.Event()

    def should_cancel() -> bool:
        activity[0] = time.monotonic()
        return bool(cancel.is_set())

    def progress(f: float, said: Message) -> None:
        activity[0] = time.monotonic()
        send(("progress", f, to_wire(said)))  # checked by the parent (fraction_from_wire, from_wire)

    def point(p: JsonObject) -> None:
        activity[0] = time.monotonic()
        send(("point", p))

    def beat() -> None:
        while not done.wait(HEARTBEAT_S):
            try:
                send(("beat", max(0.0, time.monotonic() - activity[0])))
            except (OSError, ValueError):
                return

    beater = threading.Thread(target=beat, name="gpu-tutor-heartbeat", daemon=True)
    beater.start()
    try:
        return ("result", api.run_request(request, progress=progress, should_cancel=should_cancel, on_point=point))
    except MeasureTimedOut as exc:
        return ("error", "timeout", str(exc.limit_s))
    except MeasureCancelled:
        return ("cancelled",)
    except (WorkloadError, FormulaError) as exc:
        return ("error", "workload", str(exc))
    except DeviceError as exc:
        return ("error", "device", str(exc))
    except MemoryError as exc:
        return ("error", "oom", str(exc) or "MemoryError")
    except Exception as exc:
        first = str(exc).splitlines()[0] if str(exc) else ""
        if is_oom_text(str(exc)):
            return ("error", "oom", f"{type(exc).__name__}: {first}")
        detail = traceback.format_exc(limit=3)
        return ("error", "failed", f"{type(exc).__name__}: {first}".rstrip(": ") + "\n" + detail)
    finally:
        done.set()
        beater.join(1.0)


def _test_swap(request: JsonObject) -> JsonObject:
    """The request, or the test's stand-in (``TUTOR_MEASURE_TEST_SWAP``, only with test ops enabled)."""
    from tutor.measure.api import TEST_OPS_ENV, TEST_SWAP_ENV

    swap = os.environ.get(TEST_SWAP_ENV) if os.environ.get(TEST_OPS_ENV) == "1" else None
    if not swap:
        return request
    import json

    return dict(json.loads(swap))


def _die_with_parent() -> None:
    """Linux: the kernel kills this child when the process that started it dies (even by SIGKILL), so a
    killed tutor never leaves a measurement running for nobody."""
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)


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


def exit_code_kind(exitcode: int | None) -> str:
    """The failure code (see :mod:`tutor.practice.failures`) for how the worker process ended."""
    if exitcode is not None and exitcode < 0:
        if -exitcode == signal.SIGKILL:
            return "killed"
        if -exitcode == signal.SIGSEGV:
            return "crashed"
    return "exited"


def stop_process(proc: Any, grace_s: float = 0.2) -> None:
    """End ``proc`` within about ``grace_s`` whatever it does: SIGTERM, then SIGKILL (which also ends a stopped
    process, one SIGTERM stays pending on). Never waits unbounded; safe if another thread already reaped it."""
    with contextlib.suppress(ValueError, OSError, AssertionError):
        if not proc.is_alive():
            return
        proc.terminate()
        proc.join(grace_s)
        if proc.is_alive():
            proc.kill()
            proc.join(1.0)


@contextlib.contextmanager
def _sigint_deferred() -> Any:
    """Hold a Ctrl-C back until the block ends, then raise it (on the main thread, where Python delivers it).

    ``Process.start`` spawns the child and then writes its set-up down a pipe; a KeyboardInterrupt between the two
    leaves a child that dies on "Ran out of input" with a traceback on the terminal, and a parent that cannot
    terminate it (its ``Popen`` was never kept). Deferred, the child is fully started and then discarded."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: pending.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if pending and previous is signal.default_int_handler:
            raise KeyboardInterrupt
        if pending and callable(previous):
            previous(signal.SIGINT, None)


class MeasureWorker:
    """Runs measurement requests in a warm child process, one at a time (thread-safe)."""

    def __init__(self, *, cancel_grace_s: float = 0.5, poll_s: float = 0.02,
                 stall_after_s: float | None = None) -> None:
        self._ctx = mp.get_context("spawn")
        self._proc: Any = None
        self._conn: Connection | None = None
        self._cancel: Any = None
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._ready = False
        self.cancel_grace_s = cancel_grace_s
        self.poll_s = poll_s
        self.stall_after_s = default_stall_after() if stall_after_s is None else float(stall_after_s)

    @property
    def alive(self) -> bool:
        proc = self._proc
        try:
            return proc is not None and bool(proc.is_alive())
        except ValueError:  # closed by another thread meanwhile
            return False

    @property
    def pid(self) -> int | None:
        proc = self._proc
        return proc.pid if proc is not None and self.alive else None

    @property
    def busy(self) -> bool:
        """Whether a request is running now."""
        return self._lock.locked()

    def start(self) -> None:
        """Start the child now (e.g. while the learner reads), instead of on the first run."""
        with self._lock:
            if not self._closing.is_set():
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
            with _sigint_deferred():  # a Ctrl-C halfway through start would leave the child reading half its set-up
                self._proc.start()
        child.close()
        self._conn = parent
        self._ready = False

    def _discard(self, grace_s: float = 0.2) -> None:
        """Stop and forget the current child (terminate, then kill)."""
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.close()
        if proc is not None:
            stop_process(proc, grace_s)
            with contextlib.suppress(ValueError):
                proc.close()

    def run(
        self,
        request: JsonObject,
        on_progress: OnProgress | None = None,
        cancel_event: threading.Event | None = None,
        timeout_s: float | None = None,
        on_point: OnPoint | None = None,
        on_stall: OnStall | None = None,
    ) -> JsonObject:
        """Run ``request`` in the worker and return its result; blocks the calling thread.

        ``timeout_s`` defaults to the request's time limit (:func:`tutor.measure.plan.parse_request`: its
        estimated run time with a margin); past it the run is stopped — cooperatively, or by ending the process.

        Raises :class:`MeasureCancelled` (``cancel_event`` set: within about half a second even if the measurement
        does not stop by itself, at once when it is stalled; or :meth:`close` called), :class:`MeasureTimedOut`
        (past its time limit), :class:`MeasureFailed` (crash, error inside; ``code`` says which),
        :class:`WorkloadError` /
        :class:`DeviceError` (bad input). ``on_stall(seconds)`` is called when no sign of life came for
        ``stall_after_s``, ``on_stall(None)`` when one comes again.
        """
        request = _test_swap(request)
        limit = timeout_s if timeout_s is not None else request_time_limit(request)
        if limit is not None and timeout_s is not None and "time_limit_s" not in request:
            request = {**request, "time_limit_s": timeout_s}  # the child stops cooperatively at the same limit
        with self._lock:
            if self._closing.is_set():
                raise MeasureCancelled("the app is closing")
            try:
                self._ensure()
                assert self._conn is not None and self._proc is not None
                self._cancel.clear()
                try:
                    self._conn.send(request)
                except (OSError, ValueError) as exc:
                    self._discard()
                    raise MeasureFailed(f"could not send the request to the measurement process: {exc}") from None
                return self._wait(on_progress, cancel_event, limit, on_point, on_stall)
            except MeasureError:
                raise
            except BaseException:
                # KeyboardInterrupt (Ctrl-C on the command line, possibly while the child is still starting) or a
                # callback's error: never leave a child measuring, or half started, for nobody.
                self._discard(0.05)
                raise

    def _wait(self, on_progress: OnProgress | None, cancel_event: threading.Event | None, limit: float | None,
              on_point: OnPoint | None, on_stall: OnStall | None) -> JsonObject:
        assert self._conn is not None and self._proc is not None
        started = time.monotonic()
        last_life = started  # the parent's clock: the newest moment the measurement was known to be moving
        stalled = False
        cancel_deadline: float | None = None
        cpu_seen, cpu_checked = _cpu_seconds(self.pid), started
        while True:
            now = time.monotonic()
            if not self._ready and now - cpu_checked >= 1.0:
                # still importing: its CPU time growing is a sign of life the pipe cannot give yet
                cpu_checked, cpu = now, _cpu_seconds(self.pid)
                if cpu is not None and cpu_seen is not None and cpu > cpu_seen + STARTUP_CPU_LIFE_S:
                    last_life = now
                cpu_seen = cpu if cpu is not None else cpu_seen
            if self._closing.is_set():
                self._discard(0.05)
                raise MeasureCancelled("the app is closing")
            if cancel_event is not None and cancel_event.is_set() and cancel_deadline is None:
                self._cancel.set()
                # a stalled process will not notice the flag: stop it at once
                cancel_deadline = now if stalled else now + self.cancel_grace_s
            if cancel_deadline is not None and now >= cancel_deadline:
                self._discard(0.0 if stalled else 0.2)  # a stalled process gets SIGKILL straight away
                raise MeasureCancelled("cancelled (the measurement process was stopped)")
            if limit is not None and now - started > limit + self.cancel_grace_s:
                # past its limit and not stopped by itself (a long kernel does not look at the clock)
                self._discard()
                raise MeasureTimedOut(limit)
            silent = now - last_life
            bound = self.stall_after_s if self._ready else max(self.stall_after_s, STARTUP_ALLOWANCE_S)
            if not stalled and silent > bound:
                stalled = True
                if cancel_deadline is not None:
                    cancel_deadline = now
                if on_stall is not None:
                    on_stall(silent)
            elif stalled and silent <= bound:
                stalled = False
                if on_stall is not None:
                    on_stall(None)
            try:
                ready = self._conn.poll(self.poll_s)
            except (OSError, EOFError, ValueError):
                ready = False
            if not ready:
                if not self.alive:
                    exitcode = self._proc.exitcode if self._proc is not None else None
                    self._discard()
                    if self._closing.is_set():
                        raise MeasureCancelled("the app is closing")
                    raise MeasureFailed(describe_exit(exitcode), code=exit_code_kind(exitcode))
                continue
            try:
                message = self._conn.recv()
            except (EOFError, OSError, ValueError):
                with contextlib.suppress(ValueError, AssertionError, AttributeError):
                    self._proc.join(1.0)
                exitcode = self._proc.exitcode if self._proc is not None else None
                self._discard()
                if self._closing.is_set():
                    raise MeasureCancelled("the app is closing") from None
                raise MeasureFailed(describe_exit(exitcode), code=exit_code_kind(exitcode)) from None
            tag = message[0]
            now = time.monotonic()
            last_life = max(last_life, now - float(message[1])) if tag == "beat" else now
            if tag == "ready":
                self._ready = True
            elif tag == "progress":
                if on_progress is not None and len(message) == 3:
                    on_progress(fraction_from_wire(message[1]), from_wire(message[2]))
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
                if kind == "oom":
                    raise MeasureFailed(f"the measurement ran out of memory ({text})", text, code="oom")
                reason, _, detail = text.partition("\n")
                raise MeasureFailed(reason, detail or None)

    def close(self, grace_s: float = 0.2) -> None:
        """Stop the child process within about ``grace_s`` + a kill, never waiting on a running measurement: a
        :meth:`run` in progress returns (``MeasureCancelled``) within a poll. The worker refuses new runs after."""
        self._closing.set()
        if self._lock.acquire(timeout=0.05):
            try:
                if self._conn is not None and self.alive:
                    try:
                        self._conn.send(None)
                        assert self._proc is not None
                        self._proc.join(grace_s)
                    except (OSError, ValueError, AssertionError):
                        pass
                self._discard(grace_s)
            finally:
                self._lock.release()
            return
        proc = self._proc  # a run holds the lock: end its process here; run() cleans up in its own thread
        if proc is not None:
            stop_process(proc, grace_s)

    def __enter__(self) -> MeasureWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
