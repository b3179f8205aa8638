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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tutor.telemetry.model import BackendStatus, DeviceInfo, DeviceSample, DeviceState, MetricValue

TRACE_MAGIC = "gpu-tutor-telemetry"
TRACE_VERSION = 1


class TraceError(ValueError):
    """A trace file that cannot be read; the message starts with ``path:line:``."""


def _jsonable(value: MetricValue) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _from_json(value: Any) -> MetricValue:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    if isinstance(value, bool) or not isinstance(value, int | float | str | type(None)):
        raise ValueError(f"unexpected metric value {value!r}")
    return value  # type: ignore[return-value]


def sample_lines(
    t: float, backend: str, status: BackendStatus, samples: Iterable[DeviceSample]
) -> list[dict[str, Any]]:
    """The trace lines (as dicts) for one sample: one per device."""
    return [
        {
            "t": round(t, 3),
            "backend": backend,
            "device": s.device,
            "metrics": {k: _jsonable(v) for k, v in s.metrics.items()},
            "status": {"code": status.code, "message": status.message, "device": s.state},
        }
        for s in samples
    ]


def header_line(status: BackendStatus, devices: Iterable[DeviceInfo]) -> dict[str, Any]:
    return {
        "trace": TRACE_MAGIC,
        "version": TRACE_VERSION,
        "backend": status.backend,
        "status": status.as_dict(),
        "devices": [d.as_dict() for d in devices],
    }


def dumps(line: dict[str, Any]) -> str:
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

    def write_lines(self, lines: Iterable[dict[str, Any]]) -> None:
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


def _lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TraceError(f"{path}: replay trace not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TraceError(f"{path}: cannot read the trace ({exc})") from None
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise TraceError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise TraceError(f"{path}:{number}: expected a JSON object")
        yield number, obj


def read_trace(path: str | Path) -> Trace:
    """Parse a trace file (with or without a header). Raises :class:`TraceError` naming the line at fault."""
    path = Path(path)
    header: dict[str, Any] | None = None
    ticks: list[TraceTick] = []
    seen: dict[str, set[str]] = {}
    backend = ""
    status_line: dict[str, Any] | None = None
    current_t: float | None = None
    current: list[DeviceSample] = []
    for number, obj in _lines(path):
        if obj.get("trace") == TRACE_MAGIC:
            if header is not None or ticks or current:
                raise TraceError(f"{path}:{number}: a header may only be the first line")
            if obj.get("version") != TRACE_VERSION:
                raise TraceError(f"{path}:{number}: unsupported trace version {obj.get('version')!r}")
            header = obj
            continue
        try:
            t = float(obj["t"])
            device = str(obj["device"])
            metrics_raw = obj["metrics"]
            if not isinstance(metrics_raw, dict):
                raise ValueError("'metrics' must be an object")
            metrics = {str(k): _from_json(v) for k, v in metrics_raw.items()}
            status = obj.get("status") or {}
            state: DeviceState = "lost" if isinstance(status, dict) and status.get("device") == "lost" else "ok"
        except KeyError as exc:
            raise TraceError(f"{path}:{number}: missing field {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            raise TraceError(f"{path}:{number}: {exc}") from None
        backend = backend or str(obj.get("backend", ""))
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
        raise TraceError(f"{path}: the trace has no samples")
    if header is not None:
        try:
            devices = tuple(DeviceInfo.from_dict(d) for d in header.get("devices", ()))
            status_obj = BackendStatus.from_dict(header.get("status") or {})
        except (KeyError, TypeError, ValueError) as exc:
            raise TraceError(f"{path}:1: bad header ({exc})") from None
        backend = str(header.get("backend") or backend)
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
        status_obj = BackendStatus(backend=backend, code=sl.get("code", "ok"), message=str(sl.get("message", "")))
    return Trace(path=path, backend=backend, status=status_obj, devices=devices, ticks=tuple(ticks))
