"""NVIDIA GPUs through NVML (``nvidia-ml-py``, imported lazily on the first probe).

What NVML's numbers mean, since the panel labels them so: ``utilization.gpu`` is the share of the last sample
period during which *any* kernel ran (one tiny kernel on one SM counts as 100 %), and ``utilization.memory`` is
the share during which device memory was being read or written — neither is occupancy nor bandwidth.

Rules this backend keeps (the issue's quality bars):

* device handles and static facts are read once, at the first successful probe;
* a failed ``nvmlInit`` is remembered and retried at most once per ``retry_seconds`` (60 s), so a machine without
  a driver never sees a retry storm;
* a metric that answers NotSupported, FunctionNotFound or NoPermission is dropped for that device for good and
  reported as ``None`` (N/A), never ``0``; newer calls fall back to older ones (v2 memory info → v1, clock-event
  reasons → throttle reasons);
* GPU-is-lost marks that device ``lost``: its metrics become ``None`` and it is not asked again;
* nothing is printed, ever.
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from tutor.i18n.message import Message
from tutor.telemetry.model import BackendStatus, DeviceInfo, DeviceSample, MetricValue, StatusCode, TelemetryBackend

RETRY_SECONDS = 60.0

# NVML error codes (nvml.h); pynvml's exceptions carry them in ``.value``.
_ERR_NOT_SUPPORTED = 3
_ERR_NO_PERMISSION = 4
_ERR_DRIVER_NOT_LOADED = 9
_ERR_LIBRARY_NOT_FOUND = 12
_ERR_FUNCTION_NOT_FOUND = 13
_ERR_GPU_IS_LOST = 15
_ERR_RESET_REQUIRED = 16
_ERR_OPERATING_SYSTEM = 17
_ERR_LIB_RM_VERSION_MISMATCH = 18
_ERR_ARGUMENT_VERSION_MISMATCH = 25

_DROP_CODES = frozenset({_ERR_NOT_SUPPORTED, _ERR_FUNCTION_NOT_FOUND, _ERR_NO_PERMISSION})
_LOST_CODES = frozenset({_ERR_GPU_IS_LOST, _ERR_RESET_REQUIRED})

#: Why nvmlInit failed → (status code, the catalog's name for the reason and for what to do about it:
#: ``tel.reason.<name>``, ``tel.note.<name>``).
_INIT_FAILURES: dict[int, tuple[StatusCode, str]] = {
    _ERR_LIBRARY_NOT_FOUND: ("library_not_found", "library_not_found"),
    _ERR_DRIVER_NOT_LOADED: ("driver_not_loaded", "driver_not_loaded"),
    _ERR_LIB_RM_VERSION_MISMATCH: ("driver_library_mismatch", "driver_library_mismatch"),
    _ERR_NO_PERMISSION: ("no_permission", "no_permission"),
    _ERR_OPERATING_SYSTEM: ("no_permission", "os_blocked"),
}

_WSL_NOTE = Message("tel.note.wsl")


def _mig_note(name: str) -> Message:
    return Message.of("tel.note.mig", name=name)


#: Clock-event (throttle) reason bits → words. GPU idle is benign: nothing is running, so clocks drop.
CLOCK_EVENT_REASONS: tuple[tuple[int, str], ...] = (
    (0x0001, "idle"),
    (0x0002, "application clocks setting"),
    (0x0004, "software power cap"),
    (0x0008, "hardware slowdown"),
    (0x0010, "sync boost"),
    (0x0020, "software thermal slowdown"),
    (0x0040, "hardware thermal slowdown"),
    (0x0080, "power brake (external)"),
    (0x0100, "display clock setting"),
)


def decode_clock_event_reasons(mask: int) -> tuple[str, ...]:
    """NVML's clock-event (throttle) bitmask in words, e.g. ``0x24`` → ``("software power cap", "software
    thermal slowdown")``. Unknown bits are reported by value rather than dropped."""
    words = [word for bit, word in CLOCK_EVENT_REASONS if mask & bit]
    unknown = mask & ~sum(bit for bit, _ in CLOCK_EVENT_REASONS)
    if unknown:
        words.append(f"other (0x{unknown:x})")
    return tuple(words)


def running_under_wsl() -> bool:
    """True inside WSL2, where the GPU driver is the Windows host's."""
    if Path("/usr/lib/wsl/lib").is_dir():
        return True
    try:
        return "microsoft" in Path("/proc/sys/kernel/osrelease").read_text(encoding="utf-8").lower()
    except OSError:
        return False


# Each feature is one NVML call (or a pair); the metrics it fills go N/A together when it is dropped.
FEATURE_METRICS: dict[str, tuple[str, ...]] = {
    "utilization": ("gpu_util_pct", "mem_bus_util_pct"),
    "memory": ("mem_used_bytes", "mem_total_bytes", "mem_reserved_bytes"),
    "power": ("power_w",),
    "power_limit": ("power_limit_w",),
    "temperature": ("temp_c",),
    "sm_clock": ("sm_clock_mhz",),
    "sm_clock_max": ("sm_clock_max_mhz",),
    "mem_clock": ("mem_clock_mhz",),
    "mem_clock_max": ("mem_clock_max_mhz",),
    "pcie": ("pcie_tx_bytes_s", "pcie_rx_bytes_s"),
    "throttle": ("throttle",),
    "processes": ("processes",),
}
GPU_METRICS: tuple[str, ...] = tuple(m for ms in FEATURE_METRICS.values() for m in ms)


class _Missing(Exception):
    """The installed nvidia-ml-py has no such function (an old binding): same as FunctionNotFound."""


class _Lost(Exception):
    """NVML said GPU-is-lost (or reset required) for this device."""


@dataclass
class _Gpu:
    index: int
    handle: Any
    name: str
    static: dict[str, Any]
    notes: list[Message]
    dropped: set[str] = field(default_factory=set)
    mem_v2: bool = True
    events_call: str = "nvmlDeviceGetCurrentClocksEventReasons"
    lost: bool = False
    info: DeviceInfo | None = None

    @property
    def id(self) -> str:
        return f"gpu{self.index}"


class NvmlBackend(TelemetryBackend):
    """Every NVIDIA GPU NVML sees. See the module docstring for the rules it keeps."""

    name = "nvml"

    def __init__(
        self,
        *,
        pcie: bool = False,
        processes: bool = True,
        retry_seconds: float = RETRY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        wsl: bool | None = None,
    ) -> None:
        """``pcie``: also read PCIe TX/RX (each read blocks ~20 ms inside the driver, so it is off by default).
        ``clock``: monotonic seconds, injectable so tests can check the retry rule. ``wsl``: override detection."""
        self._pcie = pcie
        self._processes = processes
        self._retry_seconds = retry_seconds
        self._clock = clock
        self._wsl = running_under_wsl() if wsl is None else wsl
        self._nvml: ModuleType | None = None
        self._status: BackendStatus | None = None
        self._last_attempt: float | None = None
        self._gpus: list[_Gpu] = []
        self._process_names: dict[int, str] = {}
        #: How many times nvmlInit was attempted (tests check the retry rule with it).
        self.init_attempts = 0

    # -- status -------------------------------------------------------------------------------------------
    def probe(self) -> BackendStatus:
        if self._status is not None and self._status.ok:
            return self._live_status()
        now = self._clock()
        if (
            self._status is not None
            and self._last_attempt is not None
            and now - self._last_attempt < self._retry_seconds
        ):
            return self._status
        self._last_attempt = now
        self._status = self._initialise()
        return self._live_status() if self._status.ok else self._status

    def _live_status(self) -> BackendStatus:
        assert self._status is not None
        lost = [g for g in self._gpus if g.lost]
        if not lost:
            return self._status
        names = ", ".join(f"GPU {g.index}" for g in lost)
        return BackendStatus(
            backend="nvml",
            code="gpu_lost",
            said=Message.of("tel.status.gpu_lost", names=names),
            noted=self._status.noted,
        )

    def _failure(self, code: StatusCode, said: Message, *notes: Message) -> BackendStatus:
        all_notes = list(notes)
        if self._wsl:
            all_notes.append(_WSL_NOTE)
        return BackendStatus(backend="nvml", code=code, said=said, noted=tuple(all_notes))

    def _known_failure(self, code: StatusCode, name: str, *notes: Message) -> BackendStatus:
        """A failure the catalog words: ``tel.reason.<name>`` and its note ``tel.note.<name>``."""
        return self._failure(code, Message(f"tel.reason.{name}"), Message(f"tel.note.{name}"), *notes)

    def _init_failure(self, exc: Exception) -> BackendStatus:
        value = getattr(exc, "value", None)
        if isinstance(value, int) and value in _INIT_FAILURES:
            return self._known_failure(*_INIT_FAILURES[value])
        return self._failure("error", Message.of("tel.status.nvml_failed", error=str(exc)))

    def _initialise(self) -> BackendStatus:
        self.init_attempts += 1
        try:
            nvml = importlib.import_module("pynvml")
        except ImportError:
            return self._known_failure("library_not_found", "not_installed")
        error = getattr(nvml, "NVMLError", Exception)
        try:
            nvml.nvmlInit()
        except error as exc:
            return self._init_failure(exc)
        except OSError as exc:
            reason = Message("tel.reason.library_not_found")
            return self._failure("library_not_found", reason, Message.verbatim(str(exc)))
        self._nvml = nvml
        try:
            count = int(nvml.nvmlDeviceGetCount())
            driver = self._text(self._optional("nvmlSystemGetDriverVersion"))
            cuda = self._optional("nvmlSystemGetCudaDriverVersion")
            gpus = []
            for index in range(count):
                try:
                    handle = nvml.nvmlDeviceGetHandleByIndex(index)
                except error as exc:
                    if getattr(exc, "value", None) in _DROP_CODES | _LOST_CODES:
                        continue
                    raise
                gpus.append(self._describe(index, handle, driver, cuda))
        except error as exc:
            self._shutdown()
            return self._init_failure(exc)
        if not gpus:
            self._shutdown()
            return self._known_failure("no_devices", "no_devices")
        self._gpus = gpus
        for gpu in gpus:
            self._read(gpu)  # the first read settles which metrics each device supports
            self._refresh_info(gpu)
        notes: list[Message] = []
        if self._wsl:
            notes.append(_WSL_NOTE)
        notes += [n for g in gpus for n in g.notes]
        plural = "one" if len(gpus) == 1 else "other"
        return BackendStatus(
            backend="nvml",
            code="ok",
            said=Message.of(f"tel.status.nvml_ok.{plural}", n=len(gpus), driver=driver or "?"),
            noted=tuple(notes),
        )

    # -- NVML calls ---------------------------------------------------------------------------------------
    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        fn = getattr(self._nvml, name, None)
        if fn is None:
            raise _Missing(name)
        return fn(*args, **kwargs)

    def _optional(self, name: str, *args: Any) -> Any:
        """A static fact that may not exist on this card/driver: ``None`` then."""
        try:
            return self._call(name, *args)
        except _Missing:
            return None
        except Exception as exc:
            if getattr(exc, "value", None) in _LOST_CODES:
                raise
            return None

    @staticmethod
    def _text(value: Any) -> str | None:
        if value is None:
            return None
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)

    def _describe(self, index: int, handle: Any, driver: str | None, cuda: Any) -> _Gpu:
        nvml = self._nvml
        assert nvml is not None
        name = self._text(self._optional("nvmlDeviceGetName", handle)) or f"GPU {index}"
        static: dict[str, Any] = {"index": index, "driver": driver}
        if isinstance(cuda, int):
            static["cuda_driver"] = f"{cuda // 1000}.{(cuda % 1000) // 10}"
        static["uuid"] = self._text(self._optional("nvmlDeviceGetUUID", handle))
        cc = self._optional("nvmlDeviceGetCudaComputeCapability", handle)
        if isinstance(cc, tuple | list) and len(cc) == 2:
            static["compute_capability"] = f"{cc[0]}.{cc[1]}"
            static["sm_arch"] = f"sm_{cc[0]}{cc[1]}"
        notes: list[Message] = []
        mig = self._optional("nvmlDeviceGetMigMode", handle)
        if isinstance(mig, tuple | list) and mig:
            enabled = int(mig[0]) == int(getattr(nvml, "NVML_DEVICE_MIG_ENABLE", 1))
            static["mig"] = enabled
            if enabled:
                notes.append(_mig_note(name))
        else:
            static["mig"] = None
        return _Gpu(index=index, handle=handle, name=name, static=static, notes=notes)

    def _feature(self, gpu: _Gpu, feature: str, read: Callable[[], dict[str, MetricValue]]) -> dict[str, Any]:
        if feature in gpu.dropped:
            return {}
        try:
            return read()
        except _Missing:
            gpu.dropped.add(feature)
            return {}
        except Exception as exc:
            value = getattr(exc, "value", None)
            if value in _LOST_CODES:
                raise _Lost() from exc
            if value in _DROP_CODES:
                gpu.dropped.add(feature)
            # anything else is transient: N/A this time, asked again next time
            return {}

    def _memory(self, gpu: _Gpu) -> dict[str, MetricValue]:
        nvml = self._nvml
        if gpu.mem_v2 and hasattr(nvml, "nvmlMemory_v2"):
            try:
                mem = self._call("nvmlDeviceGetMemoryInfo", gpu.handle, version=nvml.nvmlMemory_v2)  # type: ignore[union-attr]
                return {
                    "mem_used_bytes": int(mem.used),
                    "mem_total_bytes": int(mem.total),
                    "mem_reserved_bytes": int(mem.reserved),
                }
            except (_Missing, TypeError):
                pass
            except Exception as exc:
                if getattr(exc, "value", None) not in _DROP_CODES | {_ERR_ARGUMENT_VERSION_MISMATCH}:
                    raise
        gpu.mem_v2 = False
        mem = self._call("nvmlDeviceGetMemoryInfo", gpu.handle)
        return {"mem_used_bytes": int(mem.used), "mem_total_bytes": int(mem.total)}

    def _throttle(self, gpu: _Gpu) -> dict[str, MetricValue]:
        try:
            mask = self._call(gpu.events_call, gpu.handle)
        except Exception as exc:
            older = "nvmlDeviceGetCurrentClocksThrottleReasons"
            missing = isinstance(exc, _Missing) or getattr(exc, "value", None) == _ERR_FUNCTION_NOT_FOUND
            if gpu.events_call == older or not missing:
                raise
            gpu.events_call = older
            mask = self._call(older, gpu.handle)
        return {"throttle": decode_clock_event_reasons(int(mask))}

    def _process_list(self, gpu: _Gpu) -> dict[str, MetricValue]:
        seen: dict[int, int | None] = {}
        for call in ("nvmlDeviceGetComputeRunningProcesses", "nvmlDeviceGetGraphicsRunningProcesses"):
            try:
                procs = self._call(call, gpu.handle)
            except _Missing:
                continue
            for proc in procs:
                pid = int(proc.pid)
                used = getattr(proc, "usedGpuMemory", None)
                used = int(used) if isinstance(used, int) else None
                if seen.get(pid) is None:
                    seen[pid] = used
        records = tuple(
            (pid, self._process_name(pid), used)
            for pid, used in sorted(seen.items(), key=lambda kv: -(kv[1] or 0))
        )
        return {"processes": records}

    def _process_name(self, pid: int) -> str:
        name = self._process_names.get(pid)
        if name is None:
            try:
                import psutil

                name = psutil.Process(pid).name()
            except Exception:
                name = "?"
            if len(self._process_names) > 512:
                self._process_names.clear()
            self._process_names[pid] = name
        return name

    def _read(self, gpu: _Gpu) -> dict[str, MetricValue]:
        """All of one GPU's metrics now; raises ``_Lost``."""
        nvml = self._nvml
        assert nvml is not None
        h = gpu.handle
        clock_sm = getattr(nvml, "NVML_CLOCK_SM", 1)
        clock_mem = getattr(nvml, "NVML_CLOCK_MEM", 2)
        out: dict[str, MetricValue] = dict.fromkeys(GPU_METRICS)

        def utilization() -> dict[str, MetricValue]:
            u = self._call("nvmlDeviceGetUtilizationRates", h)
            return {"gpu_util_pct": float(u.gpu), "mem_bus_util_pct": float(u.memory)}

        def power_limit() -> dict[str, MetricValue]:
            try:
                mw = self._call("nvmlDeviceGetEnforcedPowerLimit", h)
            except _Missing:
                mw = self._call("nvmlDeviceGetPowerManagementLimit", h)
            return {"power_limit_w": mw / 1000.0}

        def pcie() -> dict[str, MetricValue]:
            tx = self._call("nvmlDeviceGetPcieThroughput", h, getattr(nvml, "NVML_PCIE_UTIL_TX_BYTES", 0))
            rx = self._call("nvmlDeviceGetPcieThroughput", h, getattr(nvml, "NVML_PCIE_UTIL_RX_BYTES", 1))
            return {"pcie_tx_bytes_s": tx * 1024.0, "pcie_rx_bytes_s": rx * 1024.0}  # NVML says KB/s

        readers: list[tuple[str, Callable[[], dict[str, MetricValue]]]] = [
            ("utilization", utilization),
            ("memory", lambda: self._memory(gpu)),
            ("power", lambda: {"power_w": self._call("nvmlDeviceGetPowerUsage", h) / 1000.0}),
            ("power_limit", power_limit),
            (
                "temperature",
                lambda: {
                    "temp_c": float(
                        self._call("nvmlDeviceGetTemperature", h, getattr(nvml, "NVML_TEMPERATURE_GPU", 0))
                    )
                },
            ),
            ("sm_clock", lambda: {"sm_clock_mhz": float(self._call("nvmlDeviceGetClockInfo", h, clock_sm))}),
            ("mem_clock", lambda: {"mem_clock_mhz": float(self._call("nvmlDeviceGetClockInfo", h, clock_mem))}),
            ("throttle", lambda: self._throttle(gpu)),
        ]
        # Max clocks do not change: read once, then served from the static facts.
        for feature, key, clock_type in (
            ("sm_clock_max", "sm_clock_max_mhz", clock_sm),
            ("mem_clock_max", "mem_clock_max_mhz", clock_mem),
        ):
            if key not in gpu.static:

                def max_clock(key: str = key, clock_type: int = clock_type) -> dict[str, MetricValue]:
                    return {key: float(self._call("nvmlDeviceGetMaxClockInfo", h, clock_type))}

                readers.append((feature, max_clock))
        if self._pcie:
            readers.append(("pcie", pcie))
        if self._processes:
            readers.append(("processes", lambda: self._process_list(gpu)))
        for feature, read in readers:
            out.update(self._feature(gpu, feature, read))
        for feature, key in (("sm_clock_max", "sm_clock_max_mhz"), ("mem_clock_max", "mem_clock_max_mhz")):
            if key in gpu.static:
                out[key] = gpu.static[key]
            elif feature not in gpu.dropped and out.get(key) is not None:
                gpu.static[key] = out[key]
        if "mem_total_bytes" not in gpu.static and out.get("mem_total_bytes") is not None:
            gpu.static["mem_total_bytes"] = out["mem_total_bytes"]
        if out.get("power_limit_w") is not None:
            gpu.static["power_limit_w"] = out["power_limit_w"]
        return out

    def _metrics_for(self, gpu: _Gpu) -> tuple[str, ...]:
        keys: list[str] = []
        for feature, metrics in FEATURE_METRICS.items():
            if feature in gpu.dropped:
                continue
            if (feature == "pcie" and not self._pcie) or (feature == "processes" and not self._processes):
                continue
            keys += [m for m in metrics if not (m == "mem_reserved_bytes" and not gpu.mem_v2)]
        return tuple(keys)

    def _refresh_info(self, gpu: _Gpu) -> None:
        metrics = () if gpu.lost else self._metrics_for(gpu)
        if gpu.info is None or gpu.info.metrics != metrics or dict(gpu.info.static) != gpu.static:
            gpu.info = DeviceInfo(
                id=gpu.id, kind="gpu", name=gpu.name, metrics=metrics, static=dict(gpu.static), noted=tuple(gpu.notes)
            )

    # -- the interface ------------------------------------------------------------------------------------
    def devices(self) -> tuple[DeviceInfo, ...]:
        if self._status is None:
            self.probe()
        if self._status is None or not self._status.ok:
            return ()
        return tuple(g.info for g in self._gpus if g.info is not None)

    def sample(self) -> tuple[DeviceSample, ...]:
        if self._status is None or not self._status.ok:
            self.probe()
        if self._status is None or not self._status.ok:
            return ()
        samples = []
        for gpu in self._gpus:
            if not gpu.lost:
                try:
                    metrics = self._read(gpu)
                except _Lost:
                    gpu.lost = True
            if gpu.lost:
                samples.append(DeviceSample(device=gpu.id, metrics=dict.fromkeys(GPU_METRICS), state="lost"))
            else:
                samples.append(DeviceSample(device=gpu.id, metrics=metrics))
            self._refresh_info(gpu)
        return tuple(samples)

    def _shutdown(self) -> None:
        if self._nvml is not None:
            with contextlib.suppress(Exception):
                self._nvml.nvmlShutdown()
        self._nvml = None

    def close(self) -> None:
        self._shutdown()
        self._gpus = []
        self._status = None
