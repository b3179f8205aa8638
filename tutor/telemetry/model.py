"""The telemetry vocabulary: what a backend reports, and the interface every backend implements.

Everything here is an immutable value: snapshots cross from the sampler thread to the UI thread, so nobody may
mutate one after it is made. A metric that a device cannot report is ``None`` (shown as N/A), never ``0``.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, TypeAlias

from tutor.i18n.message import Message
from tutor.results.wire import JsonObject

#: A metric's value: a number, a tuple of words (throttle reasons), a tuple of process records, or ``None``
#: when the device does not report it (or the read failed this time).
MetricValue: TypeAlias = float | int | tuple[Any, ...] | None

DeviceKind = Literal["gpu", "host"]

#: Why a backend is (not) live. ``ok`` is live; the others say what went wrong, in words a learner can act on.
StatusCode = Literal[
    "ok",
    "library_not_found",
    "driver_not_loaded",
    "driver_library_mismatch",
    "no_permission",
    "no_devices",
    "gpu_lost",
    "replay",
    "error",
]


@dataclass(frozen=True)
class Metric:
    """One metric's catalogue entry: its key in a sample, a short label, its unit and what it really measures."""

    key: str
    label: str
    unit: str
    meaning: str


#: Every metric a backend may report, by key. The labels say what NVML and psutil actually measure.
METRICS: Mapping[str, Metric] = MappingProxyType(
    {
        m.key: m
        for m in (
            Metric(
                "gpu_util_pct",
                "GPU busy",
                "%",
                "share of the last sample period in which at least one kernel was running "
                "(not how many SMs were busy)",
            ),
            Metric(
                "mem_bus_util_pct",
                "mem bus",
                "%",
                "share of the last sample period in which device memory was being read or written "
                "(not bandwidth used)",
            ),
            Metric("mem_used_bytes", "VRAM used", "B", "device memory in use by all processes"),
            Metric("mem_total_bytes", "VRAM total", "B", "device memory the driver makes available"),
            Metric("mem_reserved_bytes", "VRAM reserved", "B", "device memory the driver keeps for itself"),
            Metric("power_w", "power", "W", "board power draw"),
            Metric("power_limit_w", "power limit", "W", "enforced board power limit"),
            Metric("temp_c", "temperature", "°C", "GPU core temperature"),
            Metric("sm_clock_mhz", "SM clock", "MHz", "current streaming-multiprocessor clock"),
            Metric("sm_clock_max_mhz", "SM clock max", "MHz", "highest SM clock the board allows"),
            Metric("mem_clock_mhz", "mem clock", "MHz", "current memory clock"),
            Metric("mem_clock_max_mhz", "mem clock max", "MHz", "highest memory clock the board allows"),
            Metric("pcie_tx_bytes_s", "PCIe TX", "B/s", "bytes per second sent over PCIe (GPU to host)"),
            Metric("pcie_rx_bytes_s", "PCIe RX", "B/s", "bytes per second received over PCIe (host to GPU)"),
            Metric("throttle", "clock events", "", "why the clocks are below their maximum, in words"),
            Metric("processes", "processes", "", "processes holding device memory: (pid, name, bytes)"),
            Metric("cpu_pct", "CPU", "%", "all cores, share of time not idle since the last sample"),
            Metric("cpu_per_core_pct", "per core", "%", "each core's share of time not idle"),
            Metric("ram_used_bytes", "RAM used", "B", "memory in use, not counting reclaimable cache"),
            Metric("ram_total_bytes", "RAM total", "B", "installed memory the OS can use"),
            Metric("swap_used_bytes", "swap used", "B", "swap in use"),
            Metric("swap_total_bytes", "swap total", "B", "swap configured"),
            Metric("load_1", "load 1 min", "", "run-queue length averaged over 1 minute"),
            Metric("load_5", "load 5 min", "", "run-queue length averaged over 5 minutes"),
            Metric("load_15", "load 15 min", "", "run-queue length averaged over 15 minutes"),
        )
    }
)

#: Metrics whose history is kept as numbers (ring buffers) and charted.
NUMERIC_METRICS: frozenset[str] = frozenset(
    k for k in METRICS if k not in {"throttle", "processes", "cpu_per_core_pct"}
)


@dataclass(frozen=True)
class BackendStatus:
    """Whether a backend is live, and if not, why — the banner's text, as catalog messages (``said``, ``noted``).

    ``backend`` is what is live *now* (``"nvml+host"``, ``"host"``, ``"replay"``, ...). When ``auto`` fell back to
    the host, ``code`` keeps the GPU's failure (e.g. ``library_not_found``) so the reason is never lost.
    ``message`` and ``notes`` are the English sentences (``tutor telemetry``, JSON); ``text(lang)`` and
    ``note_texts(lang)`` say them in the learner's language.
    """

    backend: str
    code: StatusCode
    said: Message
    noted: tuple[Message, ...] = ()

    @property
    def ok(self) -> bool:
        return self.code == "ok"

    @property
    def message(self) -> str:
        return self.said.render("en")

    @property
    def notes(self) -> tuple[str, ...]:
        return self.note_texts("en")

    def text(self, lang: str) -> str:
        return self.said.render(lang)

    def note_texts(self, lang: str) -> tuple[str, ...]:
        return tuple(n.render(lang) for n in self.noted)

    def as_dict(self) -> JsonObject:
        return {"backend": self.backend, "code": self.code, "message": self.message, "notes": list(self.notes),
                "said": self.said.as_dict(), "noted": [n.as_dict() for n in self.noted]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], text: Callable[[str], str] = str) -> BackendStatus:
        """Read back (a trace's status). Messages recorded as codes keep their codes; a bare sentence (an older
        trace) is shown as recorded."""
        return cls(
            backend=text(str(data.get("backend", ""))),
            code=text(str(data.get("code", "error"))),  # type: ignore[arg-type]
            said=Message.from_dict(data.get("said"), text) or Message.verbatim(text(str(data.get("message", "")))),
            noted=messages_from(data, text),
        )


def messages_from(data: Mapping[str, Any], text: Callable[[str], str]) -> tuple[Message, ...]:
    """``noted`` (codes) if the record has it, else its English ``notes`` as they were written."""
    coded = data.get("noted")
    if isinstance(coded, list):
        return tuple(m for m in (Message.from_dict(n, text) for n in coded[:16]) if m is not None)
    return tuple(Message.verbatim(text(str(n))) for n in list(data.get("notes", ()))[:16])


@dataclass(frozen=True)
class DeviceInfo:
    """A device's static facts (read once), and which metrics it reports.

    ``id`` is stable within a run: ``"gpu0"``, ``"gpu1"``, ..., ``"host"``. ``metrics`` lists the metric keys this
    device answers; a key missing from it is shown as N/A. ``static`` holds facts such as ``mem_total_bytes``,
    ``power_limit_w``, ``compute_capability``, ``uuid``, ``driver``, ``mig``, ``cores``.
    """

    id: str
    kind: DeviceKind
    name: str
    metrics: tuple[str, ...]
    static: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    noted: tuple[Message, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.static, MappingProxyType):
            object.__setattr__(self, "static", MappingProxyType(dict(self.static)))

    def supports(self, metric: str) -> bool:
        return metric in self.metrics

    @property
    def notes(self) -> tuple[str, ...]:
        """The notes in English (``tutor telemetry``); ``note_texts(lang)`` in the learner's language."""
        return self.note_texts("en")

    def note_texts(self, lang: str) -> tuple[str, ...]:
        return tuple(n.render(lang) for n in self.noted)

    def as_dict(self) -> JsonObject:
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "metrics": list(self.metrics),
            "static": dict(self.static),
            "notes": list(self.notes),
            "noted": [n.as_dict() for n in self.noted],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DeviceInfo:
        kind = data.get("kind", "gpu")
        return cls(
            id=str(data["id"]),
            kind="host" if kind == "host" else "gpu",
            name=str(data.get("name", data["id"])),
            metrics=tuple(str(m) for m in data.get("metrics", ())),
            static=dict(data.get("static", {})),
            noted=messages_from(data, str),
        )


#: A device's state in one sample: ``ok``, or ``lost`` once NVML says the GPU fell off the bus.
DeviceState = Literal["ok", "lost"]


@dataclass(frozen=True)
class DeviceSample:
    """One device's readings at one instant. Missing or unsupported metrics are ``None``."""

    device: str
    metrics: Mapping[str, MetricValue]
    state: DeviceState = "ok"

    def __post_init__(self) -> None:
        if not isinstance(self.metrics, MappingProxyType):
            object.__setattr__(self, "metrics", MappingProxyType(dict(self.metrics)))

    def get(self, metric: str) -> MetricValue:
        return self.metrics.get(metric)


class TelemetryBackend(abc.ABC):
    """The interface every telemetry source implements. Nothing here prints; failures become a status.

    Call order: ``probe()`` (cheap to repeat; it says what is live), ``devices()``, then ``sample()`` as often as
    wanted from one thread, and ``close()`` once.
    """

    #: The name the spec uses: ``nvml``, ``host``, ``replay``, ``auto``.
    name: str = ""

    @abc.abstractmethod
    def probe(self) -> BackendStatus:
        """Initialise if needed and say whether this backend is live, and if not, why."""

    @abc.abstractmethod
    def devices(self) -> tuple[DeviceInfo, ...]:
        """Static facts about each device this backend reports on (empty when not live)."""

    @abc.abstractmethod
    def sample(self) -> tuple[DeviceSample, ...]:
        """Read every device now. Never raises for a failing metric: it becomes ``None``."""

    def close(self) -> None:  # noqa: B027 - most backends hold nothing to release
        """Release what the backend holds (e.g. ``nvmlShutdown``)."""

    @property
    def label(self) -> str:
        """What is live now, for the banner and the ``backend`` field of a trace line."""
        return self.probe().backend

    def __enter__(self) -> TelemetryBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
