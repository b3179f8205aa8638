"""The telemetry trace format: JSON lines, written by ``tutor telemetry --json/--record``, read by ``replay``.

A trace is UTF-8 text, one JSON object per line:

* an optional header (first line, written by ``--record``)::

    {"trace": "gpu-tutor-telemetry", "version": 1, "backend": "host", "status": {...}, "devices": [{...}]}

* then one line per device per sample::

    {"t": 1764669600.25, "backend": "host", "device": "host",
     "metrics": {"cpu_pct": 12.5, "ram_used_bytes": 6442450944, ...},
     "status": {"code": "library_not_found", "message": "No NVIDIA GPU (...) — showing CPU and RAM",
                "device": "ok"}}

``t`` is seconds since the epoch; lines of one sample share it. ``metrics`` values are numbers, lists (per-core
CPU, throttle reasons, processes as ``[pid, name, bytes]``) or ``null`` for N/A. ``status.code`` is the live
backend's :data:`~tutor.telemetry.model.StatusCode`; ``status.device`` is ``ok`` or ``lost``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tutor.i18n.message import Message
from tutor.results.wire import JsonObject
from tutor.telemetry.model import (
    NUMERIC_METRICS,
    BackendStatus,
    DeviceInfo,
    DeviceSample,
    DeviceState,
    MetricValue,
    messages_from,
)
from tutor.untrusted import (
    JsonLoc,
    UnsafeFile,
    clean_line,
    json_field_path,
    json_position,
    loads_bounded,
    read_text_bounded,
)

TRACE_MAGIC = "gpu-tutor-telemetry"
TRACE_VERSION = 1


class TraceError(ValueError):
    """A trace file that cannot be read: ``path:line:col: error: field: what is wrong`` (the line and column of
    the offending value), or ``path: …`` for the file as a whole. ``said`` is the catalog message (a ``--lang es``
    reader reads it in Spanish); ``str()`` is its English."""

    def __init__(self, said: Message) -> None:
        super().__init__(said.render("en"))
        self.said = said


class _Bad(ValueError):
    """A value of a line at fault, said by the catalog; at ``loc`` inside the value being read (a list's item past
    the limit, say), or at that value itself."""

    def __init__(self, said: Message, loc: JsonLoc = ()) -> None:
        super().__init__(said.render("en"))
        self.said = said
        self.loc = loc


def _too_many(limit: int, loc: JsonLoc = ()) -> _Bad:
    return _Bad(Message.of("json.too_many_items", limit=limit), loc)


# A trace is untrusted input (anyone can hand one over): bounded in size, every value checked as it is read.
TRACE_LIMIT_BYTES = 32 * 1024 * 1024
# Readings beyond this are not physical (no GPU has an exabyte or an exawatt): shown as N/A, never formatted.
MAX_READING = 1e18
# The latest ``t`` accepted (2100-01-01 UTC).
MAX_T = 4102444800.0
_MAX_TEXT = 500
MAX_LINES = 200_000
"""Lines a trace may hold (at 1 Hz, two days of one device; a recording is minutes)."""
MAX_CORES = 4096
"""Items of a per-core list (``cpu_per_core_pct``)."""
MAX_THROTTLE = 64
"""Throttle reasons of one reading."""
MAX_PROCESSES = 1024
"""Processes of one reading."""
MAX_METRICS = 256
"""Metrics of one line, and metric names a device of the header lists."""
MAX_DEVICES = 64
"""Devices a header lists."""
MAX_STATIC = 64
"""Static facts of one device (its name, memory, driver…), and items of a list among them."""


def _reading(value: Any) -> float | int | None:
    """A finite, plausible number, or None (N/A)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Bad(Message.of("trace.number", got=_show(value)))
    if not math.isfinite(value) or abs(value) > MAX_READING:
        return None
    return value


def _show(value: Any) -> str:
    text = clean_line(json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value))
    return text if len(text) <= 40 else text[:37] + "..."


def _text(value: Any) -> str:
    return clean_line(str(value))[:_MAX_TEXT]


def _metric(key: str, value: Any) -> MetricValue:
    """One metric read from a trace: numbers finite (huge → N/A), text cleaned, shapes as the live backends make."""
    if value is None:
        return None
    if key in NUMERIC_METRICS:
        return _reading(value)
    if key == "cpu_per_core_pct":
        if not isinstance(value, list):
            raise _Bad(Message.of("trace.numbers", got=_show(value)))
        _bounded(value, MAX_CORES)
        return tuple(None if v is None else _reading(v) for v in value)
    if key == "throttle":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _Bad(Message.of("trace.words", got=_show(value)))
        _bounded(value, MAX_THROTTLE)
        return tuple(_text(v) for v in value)
    if key == "processes":
        if not isinstance(value, list):
            raise _Bad(Message.of("trace.processes", got=_show(value)))
        _bounded(value, MAX_PROCESSES)
        rows = []
        for i, item in enumerate(value):
            if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], int)
                    and not isinstance(item[0], bool)):
                raise _Bad(Message.of("trace.process", got=_show(item)), (i,))
            rows.append((item[0], _text(item[1]), None if item[2] is None else _reading(item[2])))
        return tuple(rows)
    return _from_json(value)


def _bounded(items: list[Any] | Mapping[str, Any], limit: int) -> None:
    """Refuse a list or an object of a line longer than ``limit``, at the first item past it."""
    if len(items) > limit:
        raise _too_many(limit, (limit,) if isinstance(items, list) else ())


def _static(data: Any) -> dict[str, Any]:
    """A device's static facts from a header: text cleaned, numbers finite, anything else left out (N/A)."""
    out: dict[str, Any] = {}
    if not isinstance(data, Mapping):
        return out
    _bounded(data, MAX_STATIC)
    for key, value in data.items():
        if isinstance(value, str):
            out[_text(key)] = _text(value)
        elif isinstance(value, bool) or value is None:
            out[_text(key)] = value
        elif isinstance(value, int | float):
            reading = _reading(value)
            if reading is not None:
                out[_text(key)] = reading
        elif isinstance(value, list) and all(isinstance(v, int | str) and not isinstance(v, bool) for v in value):
            _bounded(value, MAX_STATIC)
            out[_text(key)] = [_text(v) if isinstance(v, str) else v for v in value]
    return out


def _jsonable(value: MetricValue) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _from_json(value: Any) -> MetricValue:
    if isinstance(value, list):
        _bounded(value, MAX_CORES)
        return tuple(_from_json(v) for v in value)
    if isinstance(value, str):
        return _text(value)  # type: ignore[return-value]
    if isinstance(value, bool) or not isinstance(value, int | float | type(None)):
        raise _Bad(Message.of("trace.value", got=_show(value)))
    return None if value is None else _reading(value)


def sample_lines(
    t: float, backend: str, status: BackendStatus, samples: Iterable[DeviceSample]
) -> list[JsonObject]:
    """The trace lines (as dicts) for one sample: one per device."""
    return [
        {
            "t": round(t, 3),
            "backend": backend,
            "device": s.device,
            "metrics": {k: _jsonable(v) for k, v in s.metrics.items()},
            "status": {"code": status.code, "message": status.message, "said": status.said.as_dict(),
                       "device": s.state},
        }
        for s in samples
    ]


def header_line(status: BackendStatus, devices: Iterable[DeviceInfo]) -> JsonObject:
    return {
        "trace": TRACE_MAGIC,
        "version": TRACE_VERSION,
        "backend": status.backend,
        "status": status.as_dict(),
        "devices": [d.as_dict() for d in devices],
    }


def dumps(line: JsonObject) -> str:
    return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


class TraceWriter:
    """Appends a header and sample lines to a trace file, flushing each sample so a crash loses at most one."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self._wrote_header = False

    def write_header(self, status: BackendStatus, devices: Iterable[DeviceInfo]) -> None:
        if not self._wrote_header:
            self._stream.write(dumps(header_line(status, devices)) + "\n")
            self._wrote_header = True

    def write_lines(self, lines: Iterable[JsonObject]) -> None:
        for line in lines:
            self._stream.write(dumps(line) + "\n")
        self._stream.flush()


@dataclass(frozen=True)
class TraceTick:
    """One recorded sample: its time and each device's readings."""

    t: float
    samples: tuple[DeviceSample, ...]


@dataclass(frozen=True)
class Trace:
    """A parsed trace: what was live when it was recorded, its devices, and its samples in order."""

    path: Path
    backend: str
    status: BackendStatus
    devices: tuple[DeviceInfo, ...]
    ticks: tuple[TraceTick, ...]


def _lines(path: Path) -> Iterator[tuple[int, str, JsonObject]]:
    shown = clean_line(str(path))
    try:
        text = read_text_bounded(path, limit=TRACE_LIMIT_BYTES)
    except UnsafeFile as exc:
        if exc.message == "no such file":
            raise TraceError(Message.of("json.at", where=shown, what=Message.of("trace.not_found"))) from None
        raise TraceError(exc.full()) from None
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        if number > MAX_LINES:
            raise _located(shown, number, raw, (), Message.of("trace.too_many_lines", limit=MAX_LINES))
        try:
            obj = loads_bounded(raw, path, max_depth=16, first_line=number)
        except UnsafeFile as exc:
            raise TraceError(exc.full()) from None
        if not isinstance(obj, dict):
            raise _located(shown, number, raw, (), Message.of("trace.not_object"))
        yield number, raw, obj


def _located(shown: str, number: int, raw: str, loc: JsonLoc, said: Message) -> TraceError:
    """``path:line:col: error: field: complaint``, at the value ``loc`` names in the line ``raw``."""
    line, col = json_position(raw, loc, first_line=number)
    what = Message.of("json.at", where=json_field_path(loc), what=said) if loc else said
    return TraceError(Message.of("problem.line", path=shown, line=str(line), col=str(col),
                                 severity=Message.of("problem.severity.error"), what=what))


def _device(data: Any) -> DeviceInfo:
    if not isinstance(data, Mapping):
        raise _Bad(Message.of("trace.device_object"))
    metrics = data.get("metrics", ())
    if isinstance(metrics, list) and len(metrics) > MAX_METRICS:
        raise _too_many(MAX_METRICS, ("metrics", MAX_METRICS))
    static = data.get("static")
    if isinstance(static, Mapping) and len(static) > MAX_STATIC:
        raise _too_many(MAX_STATIC, ("static",))
    info = DeviceInfo.from_dict(data)
    return DeviceInfo(id=_text(info.id), kind=info.kind, name=_text(info.name),
                      metrics=tuple(_text(m) for m in info.metrics), static=_static(static),
                      noted=messages_from(data, _text))


def _status(data: JsonObject) -> BackendStatus:
    return BackendStatus.from_dict(data, _text)


def read_trace(path: str | Path) -> Trace:
    """Parse a trace file (with or without a header). Raises :class:`TraceError` naming the line at fault."""
    path = Path(path)
    shown = clean_line(str(path))
    header: JsonObject | None = None
    ticks: list[TraceTick] = []
    seen: dict[str, set[str]] = {}
    backend = ""
    status_line: JsonObject | None = None
    current_t: float | None = None
    current: list[DeviceSample] = []
    header_at: tuple[int, str] | None = None
    for number, raw, obj in _lines(path):
        if obj.get("trace") == TRACE_MAGIC:
            if header is not None or ticks or current:
                raise _located(shown, number, raw, ("trace",), Message.of("trace.header_not_first"))
            if obj.get("version") != TRACE_VERSION:
                raise _located(shown, number, raw, ("version",),
                               Message.of("trace.version", version=_show(obj.get("version"))))
            header, header_at = obj, (number, raw)
            continue
        loc: JsonLoc = ("t",)
        try:
            t = obj["t"]
            if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t <= MAX_T:
                raise _Bad(Message.of("trace.t", got=_show(t)))
            t = float(t)
            loc = ("device",)
            if not isinstance(obj["device"], str):
                raise _Bad(Message.of("trace.device", got=_show(obj["device"])))
            device = _text(obj["device"])
            loc = ("metrics",)
            metrics_raw = obj["metrics"]
            if not isinstance(metrics_raw, dict):
                raise _Bad(Message.of("trace.metrics_object"))
            if len(metrics_raw) > MAX_METRICS:
                raise _too_many(MAX_METRICS)
            metrics: dict[str, MetricValue] = {}
            for k, v in metrics_raw.items():
                loc = ("metrics", k)
                metrics[_text(k)] = _metric(str(k), v)
            status = obj.get("status") or {}
            state: DeviceState = "lost" if isinstance(status, dict) and status.get("device") == "lost" else "ok"
        except KeyError as exc:
            raise _located(shown, number, raw, (), Message.of("trace.missing", field=_show(exc.args[0]))) from None
        except _Bad as exc:
            raise _located(shown, number, raw, (*loc, *exc.loc), exc.said) from None
        except (TypeError, ValueError) as exc:  # what the model's own readers refuse, in their words
            raise _located(shown, number, raw, loc, Message.verbatim(clean_line(exc, 200))) from None
        backend = backend or _text(obj.get("backend", ""))
        if status_line is None and isinstance(obj.get("status"), dict):
            status_line = obj["status"]
        seen.setdefault(device, set()).update(k for k, v in metrics.items() if v is not None)
        if current_t is not None and t != current_t:
            ticks.append(TraceTick(current_t, tuple(current)))
            current = []
        current_t = t
        current.append(DeviceSample(device=device, metrics=metrics, state=state))
    if current_t is not None:
        ticks.append(TraceTick(current_t, tuple(current)))
    if not ticks:
        raise TraceError(Message.of("json.at", where=shown, what=Message.of("trace.no_samples")))
    if header is not None and header_at is not None:
        hloc: JsonLoc = ("devices",)
        try:
            listed = header.get("devices", ())
            if isinstance(listed, list) and len(listed) > MAX_DEVICES:
                raise _too_many(MAX_DEVICES, (MAX_DEVICES,))
            found = []
            for i, d in enumerate(listed):
                hloc = ("devices", i)
                found.append(_device(d))
            devices = tuple(found)
            hloc = ("status",)
            status_obj = _status(header.get("status") or {})
        except _Bad as exc:
            bad = Message.of("trace.bad_header", what=exc.said)
            raise _located(shown, *header_at, (*hloc, *exc.loc), bad) from None
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            what = Message.verbatim(clean_line(exc, 80))
            raise _located(shown, *header_at, hloc, Message.of("trace.bad_header", what=what)) from None
        backend = _text(header.get("backend") or backend)
    else:
        devices = tuple(
            DeviceInfo(
                id=dev,
                kind="host" if dev == "host" else "gpu",
                name="host" if dev == "host" else dev.upper(),
                metrics=tuple(sorted(keys)),
            )
            for dev, keys in seen.items()
        )
        sl = status_line or {}
        status_obj = BackendStatus.from_dict({"backend": backend, "code": sl.get("code", "ok"),
                                              "message": sl.get("message", ""), "said": sl.get("said")}, _text)
    return Trace(path=path, backend=backend, status=status_obj, devices=devices, ticks=tuple(ticks))
