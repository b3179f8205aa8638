"""The sampler: reads a backend on a background thread, keeps 10 minutes of history per metric, and hands out
immutable snapshots.

Typical use (the TUI does this in ``start_telemetry``)::

    sampler = Sampler(open_backend("auto"), interval=1.0, on_snapshot=deliver)  # deliver runs on the thread
    sampler.start()
    ...
    with sampler.recording() as window:      # keeps sampling even while the panel is hidden
        run_the_measurement()
    window.summary                            # {device id: WindowSummary}, see window_summary()
    ...
    sampler.close()

Times are seconds since the epoch (``time.time()``), the same clock as a trace's ``t``.

A driver call that does not return (NVML can block for a minute and more on a wedged GPU) never holds anyone up:
every backend call runs on its own daemon thread, the sampler waits for it at most ``call_timeout`` seconds, and
meanwhile delivers snapshots that keep the last readings with ``sampled_at`` (when they were taken) — a reading
older than two intervals is *stale* (``snapshot.stale``) and the panel says so. ``close()`` returns at once even
while a call blocks.
"""

from __future__ import annotations

import contextlib
import math
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

from tutor.i18n.message import Message
from tutor.results.wire import JsonObject
from tutor.telemetry.model import (
    NUMERIC_METRICS,
    BackendStatus,
    DeviceInfo,
    DeviceSample,
    TelemetryBackend,
)

MIN_INTERVAL = 0.25
DEFAULT_INTERVAL = 1.0
HISTORY_SECONDS = 600.0

#: The series each snapshot carries for the panel's chart (the full history is in ``Sampler.history``).
CHART_METRICS: tuple[str, ...] = (
    "gpu_util_pct",
    "mem_bus_util_pct",
    "mem_used_bytes",
    "power_w",
    "cpu_pct",
    "ram_used_bytes",
)


@dataclass(frozen=True)
class Series:
    """One metric's history on one device, oldest first. ``None`` marks a sample where it was N/A."""

    device: str
    metric: str
    times: tuple[float, ...]
    values: tuple[float | None, ...]


@dataclass(frozen=True)
class TelemetrySnapshot:
    """Everything the panel shows, at one instant. Immutable: safe to hand from the sampler thread to the UI.

    ``samples`` is empty in the first snapshot (sent right after the probe, so the banner shows at once) and
    whenever the backend is not live.
    """

    t: float
    seq: int
    interval: float
    status: BackendStatus
    devices: tuple[DeviceInfo, ...]
    samples: tuple[DeviceSample, ...]
    history: tuple[Series, ...] = ()
    sampled_at: float | None = None
    """When ``samples`` were read (``t`` when they are fresh; older while a driver call does not return)."""

    def age(self, now: float | None = None) -> float:
        """Seconds since the readings on show were taken (0 when there are none)."""
        if not self.samples:
            return 0.0
        when = self.sampled_at if self.sampled_at is not None else self.t
        return max(0.0, (time.time() if now is None else now) - when)

    def is_stale(self, now: float | None = None) -> bool:
        """The readings are older than two sampling intervals (the driver has not answered since)."""
        return self.age(now) > 2 * self.interval

    @property
    def stale(self) -> bool:
        """:meth:`is_stale` at the snapshot's own time ``t``."""
        return self.is_stale(self.t)

    @property
    def backend(self) -> str:
        """What is live: ``nvml+host``, ``host``, ``nvml``, ``replay``."""
        return self.status.backend

    @property
    def is_replay(self) -> bool:
        return self.status.backend == "replay"

    def device(self, device_id: str) -> DeviceInfo | None:
        return next((d for d in self.devices if d.id == device_id), None)

    def sample(self, device_id: str) -> DeviceSample | None:
        return next((s for s in self.samples if s.device == device_id), None)

    def series(self, device_id: str, metric: str) -> Series | None:
        return next((s for s in self.history if s.device == device_id and s.metric == metric), None)


@dataclass(frozen=True)
class WindowSummary:
    """The telemetry of one device over a measurement's window (what the reveal screen shows).

    ``util_*`` is GPU busy % on a GPU and CPU % on the host (``util_metric`` says which); ``mem_*`` is VRAM or
    RAM in use. A figure is ``None`` when the device did not report it in the window, or ``samples`` is 0.
    """

    device: str
    kind: str
    name: str
    backend: str
    t0: float
    t1: float
    samples: int
    util_metric: str
    util_mean_pct: float | None
    util_peak_pct: float | None
    mem_metric: str
    mem_peak_bytes: int | None
    mem_total_bytes: int | None
    power_mean_w: float | None
    power_peak_w: float | None

    def as_dict(self) -> JsonObject:
        """Plain JSON-ready values, for storing with a measurement (its ``telemetry`` figure, per device)."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, data: Any, where: str = "telemetry") -> WindowSummary:
        """A window stored with a measurement (:meth:`as_dict`); a field an older row lacks reads as unknown.
        Raises :class:`~tutor.results.ResultError` naming a field of the wrong type."""
        from tutor.results.reading import Reader

        r = Reader(data, where)
        mem_peak, mem_total = r.opt_number("mem_peak_bytes"), r.opt_number("mem_total_bytes")
        return cls(device=r.text("device"), kind=r.text("kind"), name=r.text("name"), backend=r.text("backend"),
                   t0=r.opt_number("t0") or 0.0, t1=r.opt_number("t1") or 0.0, samples=r.integer("samples", 0),
                   util_metric=r.text("util_metric"), util_mean_pct=r.opt_number("util_mean_pct"),
                   util_peak_pct=r.opt_number("util_peak_pct"), mem_metric=r.text("mem_metric"),
                   mem_peak_bytes=round(mem_peak) if mem_peak is not None else None,
                   mem_total_bytes=round(mem_total) if mem_total is not None else None,
                   power_mean_w=r.opt_number("power_mean_w"), power_peak_w=r.opt_number("power_peak_w"))


def windows_to_json(windows: Mapping[str, WindowSummary]) -> JsonObject:
    """The ``telemetry`` figure a measurement stores: each device's window as JSON."""
    return {dev: s.as_dict() for dev, s in windows.items()}


def windows_from_json(data: Any) -> dict[str, WindowSummary]:
    """The windows in a stored ``telemetry`` figure; a device's entry that does not read is left out (a report
    still shows the rest)."""
    from tutor.results import ResultError

    if not isinstance(data, Mapping):
        return {}
    out: dict[str, WindowSummary] = {}
    for dev, s in data.items():
        try:
            out[str(dev)] = WindowSummary.from_json({"device": str(dev), **s} if isinstance(s, Mapping) else s,
                                                    f"telemetry.{dev}")
        except ResultError:
            continue
    return out


@dataclass
class Recording:
    """The window of a ``with sampler.recording():`` block; ``summary`` is filled when the block ends."""

    t0: float
    t1: float | None = None
    summary: dict[str, WindowSummary] = field(default_factory=dict)


class Sampler:
    """Samples a backend every ``interval`` seconds (clamped to at least 0.25 s) on a daemon thread.

    * ``on_snapshot(snapshot)`` is called **on the sampler thread** after every sample; a UI must hop to its own
      thread (Textual: ``app.post_message``, which is thread-safe). An exception in it is kept in
      ``last_error`` and otherwise ignored.
    * ``pause()`` / ``resume()``: the panel is hidden → no backend calls at all. ``resume()`` samples at once.
    * ``recording()`` keeps sampling while paused, for a measurement's window.
    * The backend is only ever called from one thread at a time (the sampler's, or the caller of
      ``sample_once`` when the thread is not running).
    """

    def __init__(
        self,
        backend: TelemetryBackend,
        interval: float = DEFAULT_INTERVAL,
        *,
        on_snapshot: Callable[[TelemetrySnapshot], None] | None = None,
        history_seconds: float = HISTORY_SECONDS,
        clock: Callable[[], float] = time.time,
        chart_metrics: tuple[str, ...] = CHART_METRICS,
        call_timeout: float | None = None,
    ) -> None:
        self.backend = backend
        self.interval = max(float(interval), MIN_INTERVAL) if math.isfinite(interval) else DEFAULT_INTERVAL
        self.on_snapshot = on_snapshot
        self.history_seconds = history_seconds
        self._clock = clock
        self._chart_metrics = chart_metrics
        self._maxlen = max(2, math.ceil(history_seconds / self.interval) + 1)
        self._buffers: dict[tuple[str, str], deque[tuple[float, float | None]]] = {}
        self._lock = threading.Lock()
        self._backend_lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = False
        self._paused = False
        self._recordings = 0
        self._thread: threading.Thread | None = None
        self._seq = 0
        self._status: BackendStatus | None = None
        self._devices: tuple[DeviceInfo, ...] = ()
        self.latest: TelemetrySnapshot | None = None
        self.last_error: BaseException | None = None
        self.call_timeout = float(call_timeout) if call_timeout is not None else max(1.0, 1.5 * self.interval)
        """How long one backend call may take before the sampler stops waiting and shows stale readings."""
        self._calls: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = queue.SimpleQueue()
        self._caller: threading.Thread | None = None
        self._pending: Future[Any] | None = None
        self._last_samples: tuple[DeviceSample, ...] = ()
        self._last_sampled_at: float | None = None

    # -- control ------------------------------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> Sampler:
        """Start the thread: it delivers a first snapshot (status and devices) at once, then samples."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="telemetry-sampler", daemon=True)
            self._thread.start()
        return self

    def pause(self) -> None:
        self._paused = True

    def resume(self) -> None:
        if self._paused:
            self._paused = False
            self._wake.set()

    def stop(self, timeout: float = 0.5) -> None:
        """Stop the thread (waits up to ``timeout``, never on a driver call); the backend stays open."""
        self._stopping = True
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._thread = None

    def close(self, timeout: float = 0.5) -> None:
        """Stop the thread and close the backend — within about ``timeout``: when a driver call still blocks,
        the backend is left to the process's exit (its thread is a daemon) rather than waited for."""
        self.stop(timeout)
        pending = self._pending
        if pending is not None and not pending.done():
            self._calls.put(None)
            return
        try:
            self._call(self.backend.close).result(timeout=timeout)
        except FutureTimeout:
            pass
        except Exception as exc:
            self.last_error = exc
        self._calls.put(None)

    # -- backend calls, each on the caller thread ---------------------------------------------------------
    def _call(self, fn: Callable[[], Any]) -> Future[Any]:
        """Run ``fn`` on the caller thread (one call at a time, in order); returns its future."""
        future: Future[Any] = Future()
        if self._caller is None or not self._caller.is_alive():
            self._caller = threading.Thread(target=self._serve_calls, name="telemetry-call", daemon=True)
            self._caller.start()
        self._calls.put((fn, future))
        return future

    def _serve_calls(self) -> None:
        while True:
            job = self._calls.get()
            if job is None:
                return
            fn, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                with self._backend_lock:
                    result = fn()
            except BaseException as exc:
                future.set_exception(exc)
            else:
                future.set_result(result)

    def _await(self, future: Future[Any]) -> Any:
        """The call's result, waiting at most ``call_timeout`` (less when stopping); raises ``FutureTimeout``."""
        deadline = time.monotonic() + self.call_timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (self._stopping and threading.current_thread() is self._thread):
                raise FutureTimeout()
            try:
                return future.result(timeout=min(0.05, remaining))
            except FutureTimeout:
                continue

    @contextlib.contextmanager
    def recording(self) -> Iterator[Recording]:
        """Sample through the block even if paused; on exit, ``recording.summary`` is ``window_summary(t0, t1)``.

        The summary covers samples taken up to the block's end; a block shorter than the interval may hold
        none (``samples == 0``): call ``window_summary`` again one interval later to include the next one.
        """
        rec = Recording(t0=self._clock())
        with self._lock:
            self._recordings += 1
        self._wake.set()
        try:
            yield rec
        finally:
            with self._lock:
                self._recordings -= 1
            rec.t1 = self._clock()
            rec.summary = self.window_summary(rec.t0, rec.t1)

    # -- sampling -----------------------------------------------------------------------------------------
    def _active(self) -> bool:
        with self._lock:
            return not self._paused or self._recordings > 0

    def _run(self) -> None:
        self._deliver(self._probe_snapshot())
        next_due = time.monotonic() + self.interval
        while not self._stopping:
            if not self._active():
                self._wake.wait()
                self._wake.clear()
                next_due = time.monotonic()  # resumed: show fresh figures at once
                continue
            delay = next_due - time.monotonic()
            if delay > 0:
                self._wake.wait(delay)
                self._wake.clear()
                continue  # re-check stop/pause, then the clock
            self._deliver(self.sample_once())
            next_due = max(next_due + self.interval, time.monotonic())

    def _deliver(self, snapshot: TelemetrySnapshot) -> None:
        if self.on_snapshot is None:
            return
        try:
            self.on_snapshot(snapshot)
        except Exception as exc:  # the UI may be shutting down; never kill the thread or print
            self.last_error = exc

    def _probe_snapshot(self) -> TelemetrySnapshot:
        try:
            self._status, self._devices = self._await(self._call(lambda: (self.backend.probe(),
                                                                           self.backend.devices())))
        except FutureTimeout:
            self._status = BackendStatus(backend=self.backend.name, code="error",
                                         said=Message.of("tel.status.timeout", seconds=float(self.call_timeout)))
            self._devices = ()
        except Exception as exc:
            self.last_error = exc
            self._status = BackendStatus(backend=self.backend.name, code="error", said=Message.verbatim(str(exc)))
            self._devices = ()
        return self._snapshot(self._clock(), ())

    def _read(self) -> tuple[tuple[DeviceSample, ...], BackendStatus, tuple[DeviceInfo, ...]]:
        return self.backend.sample(), self.backend.probe(), self.backend.devices()

    def sample_once(self) -> TelemetrySnapshot:
        """Read the backend now (waiting at most ``call_timeout``), record the readings, and return (and keep as
        ``latest``) the snapshot. While a call has not returned, the snapshot keeps the last readings, stale."""
        if self._pending is None:
            self._pending = self._call(self._read)
        pending = self._pending
        try:
            samples, self._status, self._devices = self._await(pending)
            self._pending = None
        except FutureTimeout:  # the driver has not answered: show what was last read, marked stale
            return self._snapshot(self._clock(), self._last_samples, sampled_at=self._last_sampled_at)
        except Exception as exc:  # a backend bug must not kill telemetry: say so in the banner
            self._pending = None
            self.last_error = exc
            samples = ()
            self._status = BackendStatus(
                backend=self.backend.name, code="error", said=Message.of("tel.status.failed", error=str(exc))
            )
        t = self._clock()
        self._last_samples, self._last_sampled_at = samples, t
        with self._lock:
            for s in samples:
                for key in NUMERIC_METRICS:
                    value = s.metrics.get(key)
                    number = float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
                    if number is None and key not in s.metrics:
                        continue
                    buf = self._buffers.get((s.device, key))
                    if buf is None:
                        buf = self._buffers[(s.device, key)] = deque(maxlen=self._maxlen)
                    buf.append((t, number))
        return self._snapshot(t, samples)

    def _snapshot(self, t: float, samples: tuple[DeviceSample, ...],
                  sampled_at: float | None = None) -> TelemetrySnapshot:
        status = self._status or BackendStatus(backend=self.backend.name, code="error",
                                               said=Message("tel.status.not_probed"))
        with self._lock:
            self._seq += 1
            history = tuple(
                Series(device, metric, tuple(p[0] for p in buf), tuple(p[1] for p in buf))
                for (device, metric), buf in self._buffers.items()
                if metric in self._chart_metrics
            )
            snapshot = TelemetrySnapshot(
                t=t,
                seq=self._seq,
                interval=self.interval,
                status=status,
                devices=self._devices,
                samples=samples,
                history=history,
                sampled_at=sampled_at if sampled_at is not None else t,
            )
            self.latest = snapshot
        return snapshot

    # -- reading the history ------------------------------------------------------------------------------
    def history(self, device: str, metric: str) -> Series:
        """The last ``history_seconds`` of one numeric metric (empty if never reported)."""
        with self._lock:
            points = tuple(self._buffers.get((device, metric), ()))
        return Series(device, metric, tuple(p[0] for p in points), tuple(p[1] for p in points))

    def window_summary(self, t0: float, t1: float) -> dict[str, WindowSummary]:
        """Per device, the telemetry of the window ``[t0, t1]`` (epoch seconds, ``time.time()``).

        Returns ``{device id: WindowSummary}`` with mean and peak utilization (GPU busy %, or CPU % for the
        host), peak memory in use (VRAM, or RAM), and mean and peak power. A reading at time ``t`` describes the
        interval before it (NVML's and psutil's utilization are averages since the last read), so the window
        takes readings with ``t0 < t < t1 + interval`` — those whose interval overlaps the window.
        Safe to call from any thread, during or after the window.
        """
        if t1 < t0:
            raise ValueError("window_summary: t1 must not be before t0")
        hi = t1 + self.interval
        with self._lock:
            windowed = {
                key: [v for (t, v) in buf if t0 < t < hi] for key, buf in self._buffers.items()
            }
        devices = {d.id: d for d in self._devices}
        device_ids = sorted({dev for dev, _ in windowed}, key=lambda d: (d == "host", d))
        backend = self._status.backend if self._status else self.backend.name
        out: dict[str, WindowSummary] = {}
        for dev in device_ids:
            info = devices.get(dev)
            kind = info.kind if info else ("host" if dev == "host" else "gpu")
            util_key, mem_key = ("cpu_pct", "ram_used_bytes") if kind == "host" else ("gpu_util_pct", "mem_used_bytes")
            total_key = "ram_total_bytes" if kind == "host" else "mem_total_bytes"
            count = max((len(v) for (d, _), v in windowed.items() if d == dev), default=0)
            util = _numbers(windowed.get((dev, util_key)))
            mem = _numbers(windowed.get((dev, mem_key)))
            total = _numbers(windowed.get((dev, total_key)))
            power = _numbers(windowed.get((dev, "power_w")))
            out[dev] = WindowSummary(
                device=dev,
                kind=kind,
                name=info.name if info else dev,
                backend=backend,
                t0=t0,
                t1=t1,
                samples=count,
                util_metric=util_key,
                util_mean_pct=_mean(util),
                util_peak_pct=max(util) if util else None,
                mem_metric=mem_key,
                mem_peak_bytes=int(max(mem)) if mem else None,
                mem_total_bytes=int(max(total)) if total else _static_int(info, total_key),
                power_mean_w=_mean(power),
                power_peak_w=max(power) if power else None,
            )
        return out


def _numbers(values: list[float | None] | None) -> list[float]:
    return [v for v in values or () if v is not None]


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _static_int(info: DeviceInfo | None, key: str) -> int | None:
    value: Mapping[str, Any] | None = info.static if info else None
    raw = value.get(key) if value else None
    return int(raw) if isinstance(raw, int | float) else None
