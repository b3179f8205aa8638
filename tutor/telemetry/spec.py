"""Choosing a backend from a spec string (``--telemetry`` / ``--backend``), and the ``auto`` composite."""

from __future__ import annotations

from tutor.i18n.message import Message
from tutor.telemetry.host import HostBackend
from tutor.telemetry.model import BackendStatus, DeviceInfo, DeviceSample, TelemetryBackend
from tutor.telemetry.nvml import NvmlBackend
from tutor.telemetry.replay import ReplayBackend
from tutor.telemetry.trace import TraceError
from tutor.untrusted import clean_line

SPECS_HELP = "auto, nvml, host or replay:FILE"


class BackendSpecError(ValueError):
    """A telemetry spec that names no backend, or a replay file that cannot be read. ``said`` is the complaint as a
    catalog message (the CLI and the TUI render it in the reader's language); ``str()`` is its English."""

    def __init__(self, said: Message) -> None:
        super().__init__(said.render("en"))
        self.said = said


class AutoBackend(TelemetryBackend):
    """NVIDIA GPUs (NVML) *and* the host when NVML works; otherwise the host alone, with NVML's reason kept.

    NVML is re-probed on every sample, which :class:`NvmlBackend` rate-limits to one real ``nvmlInit`` a minute,
    so a driver that comes up later is picked up without a retry storm.
    """

    name = "auto"

    def __init__(self, gpu: NvmlBackend | None = None, host: HostBackend | None = None) -> None:
        self.gpu = gpu if gpu is not None else NvmlBackend()
        self.host = host if host is not None else HostBackend()

    def probe(self) -> BackendStatus:
        gpu = self.gpu.probe()
        if gpu.ok or gpu.code == "gpu_lost":
            self.host.set_fallback(None)
            self.host.probe()
            return BackendStatus(
                backend="nvml+host", code=gpu.code, said=Message.of("tel.status.with_host", status=gpu.said),
                noted=gpu.noted,
            )
        self.host.set_fallback(gpu)
        return self.host.probe()

    def _gpu_live(self) -> bool:
        return self.gpu.probe().code in ("ok", "gpu_lost")

    def devices(self) -> tuple[DeviceInfo, ...]:
        gpus = self.gpu.devices() if self._gpu_live() else ()
        return (*gpus, *self.host.devices())

    def sample(self) -> tuple[DeviceSample, ...]:
        gpus = self.gpu.sample() if self._gpu_live() else ()
        return (*gpus, *self.host.sample())

    def close(self) -> None:
        self.gpu.close()
        self.host.close()


def open_backend(spec: str, *, pcie: bool = False) -> TelemetryBackend:
    """The backend a spec names: ``auto`` | ``nvml`` | ``host`` | ``replay:FILE``.

    Opening is cheap and never touches the driver (the first ``probe()`` does, so a UI calls it on a worker
    thread — the :class:`~tutor.telemetry.Sampler` does); it never fails because a GPU is missing — ``probe()``
    says so, in words. It raises
    :class:`BackendSpecError` for a spec that names nothing, or a replay file that is missing or malformed.
    ``pcie`` turns on PCIe TX/RX for NVML (off by default: each read blocks the driver for ~20 ms).
    """
    text = spec.strip()
    kind, _, arg = text.partition(":")
    kind = kind.lower()
    if kind == "auto" and not arg:
        backend: TelemetryBackend = AutoBackend(NvmlBackend(pcie=pcie))
    elif kind == "nvml" and not arg:
        backend = NvmlBackend(pcie=pcie)
    elif kind == "host" and not arg:
        backend = HostBackend()
    elif kind == "replay":
        if not arg:
            raise BackendSpecError(Message("tel.spec.replay_needs_file"))
        try:
            backend = ReplayBackend(arg)
        except TraceError as exc:
            raise BackendSpecError(exc.said) from None  # a located trace error, in the reader's language
    else:
        raise BackendSpecError(Message.of("tel.spec.unknown", spec=clean_line(spec)))
    return backend
