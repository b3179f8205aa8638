"""The environment view: every fact the doctor's checks read, gathered once by :func:`gather`.

The checks are pure functions of an :class:`EnvironmentView`, so tests build fake views (a CPU wheel with a GPU
present, an old driver, an arch list without sm_120, WSL2 paths, a container) without touching CUDA.
``gather`` never imports textual; it imports torch and pynvml lazily, and anything that initialises CUDA runs in a
subprocess with a timeout (:mod:`tutor.doctor.probe`).
"""

from __future__ import annotations

import contextlib
import glob
import importlib.metadata
import os
import platform
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tutor.doctor.probe import KernelProbe, run_kernel_probe

#: Packages whose versions go into the fingerprint and the lock (besides every installed ``nvidia-*`` wheel).
KEY_PACKAGES: tuple[str, ...] = (
    "torch",
    "triton",
    "numpy",
    "textual",
    "textual-plotext",
    "plotext",
    "nvidia-ml-py",
    "pydantic",
    "PyYAML",
    "psutil",
    "platformdirs",
    "babel",
    "psycopg",
    "psycopg-binary",
    "textual-serve",
)

#: Environment variables the checks look at (and nothing else is copied into the view).
ENV_VARS: tuple[str, ...] = (
    "CUDA_VISIBLE_DEVICES",
    "NVIDIA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER",
    "PYTORCH_CUDA_ALLOC_CONF",
    "PYTORCH_ALLOC_CONF",
    "CUDA_LAUNCH_BLOCKING",
)

#: Files whose presence the checks use as evidence (WSL2, containers, the NVIDIA driver).
WSL_LIBCUDA = "/usr/lib/wsl/lib/libcuda.so"
KNOWN_PATHS: tuple[str, ...] = (
    "/proc/driver/nvidia/version",
    "/dev/nvidia0",
    "/dev/nvidiactl",
    "/dev/dxg",
    WSL_LIBCUDA,
    "/.dockerenv",
    "/run/.containerenv",
)

#: Where a Linux driver's libcuda lands; inside WSL2 these must be absent or point into /usr/lib/wsl/lib.
LINUX_LIBCUDA_GLOBS: tuple[str, ...] = (
    "/usr/lib/x86_64-linux-gnu/libcuda.so*",
    "/usr/lib/aarch64-linux-gnu/libcuda.so*",
    "/usr/lib64/libcuda.so*",
    "/usr/lib/libcuda.so*",
)


@dataclass(frozen=True)
class TorchFacts:
    """What the installed torch says about itself. ``installed=False`` when it cannot be imported."""

    installed: bool = False
    version: str | None = None
    cuda: str | None = None  # torch.version.cuda, None for a CPU-only (or ROCm) build
    hip: str | None = None
    cudnn: int | None = None
    arch_list: tuple[str, ...] = ()  # torch.cuda.get_arch_list(), e.g. ("sm_90", "sm_120", "compute_120")
    cuda_available: bool = False
    device_count: int = 0
    import_error: str | None = None

    @property
    def is_cpu_build(self) -> bool:
        """No CUDA in this build: a ``+cpu`` wheel, or any build with ``torch.version.cuda`` unset (not ROCm)."""
        if not self.installed:
            return False
        return (self.cuda is None and self.hip is None) or (self.version or "").endswith("+cpu")


@dataclass(frozen=True)
class GpuProcess:
    """A process holding memory on a GPU (from NVML)."""

    pid: int
    used_mib: float | None = None
    name: str | None = None


@dataclass(frozen=True)
class GpuDevice:
    """One NVIDIA GPU as seen without torch (NVML, nvidia-smi, /proc or the PCI bus)."""

    index: int
    name: str
    compute_capability: tuple[int, int] | None = None
    memory_total_mib: float | None = None
    memory_used_mib: float | None = None
    uuid: str | None = None
    processes: tuple[GpuProcess, ...] | None = None  # None: could not be listed (e.g. under WSL2)
    source: str = "nvml"

    @property
    def sm(self) -> str | None:
        """The compute capability as torch spells it in its arch list: (12, 0) → ``sm_120``."""
        if self.compute_capability is None:
            return None
        major, minor = self.compute_capability
        return f"sm_{major}{minor}"


@dataclass(frozen=True)
class EnvironmentView:
    """Every fact the checks read. The defaults describe a bare machine: no torch, no GPU, Linux, no container."""

    torch: TorchFacts = field(default_factory=TorchFacts)
    nvml_error: str | None = None  # e.g. "NVMLError_LibraryNotFound: NVML Shared Library Not Found"
    driver_version: str | None = None  # "570.86.15"
    cuda_driver_version: int | None = None  # the CUDA version the driver supports, e.g. 12080
    gpus: tuple[GpuDevice, ...] = ()
    gpu_evidence: tuple[str, ...] = ()  # independent signs of an NVIDIA GPU (PCI, /dev/nvidia0, ...)
    nvidia_smi: str | None = None  # path of nvidia-smi on PATH, if any
    nvidia_smi_error: str | None = None
    system: str = "Linux"
    release: str = ""
    machine: str = "x86_64"
    python_version: str = "3.11.0"
    python_implementation: str = "CPython"
    proc_version: str = ""
    cgroup: str = ""
    paths: Mapping[str, bool] = field(default_factory=dict)
    linux_libcuda: tuple[str, ...] = ()  # libcuda files outside /usr/lib/wsl (matters under WSL2)
    env: Mapping[str, str] = field(default_factory=dict)
    packages: Mapping[str, str | None] = field(default_factory=dict)
    kernel_probe: KernelProbe | None = None
    own_pid: int = 0
    cpu_name: str | None = None

    def has(self, path: str) -> bool:
        return bool(self.paths.get(path, False))

    @property
    def is_wsl(self) -> bool:
        return "microsoft" in self.proc_version.lower() or self.has(WSL_LIBCUDA)

    @property
    def is_windows_driver(self) -> bool:
        """The driver is a Windows one (native Windows or WSL2): its minimum versions differ from Linux's."""
        return self.system == "Windows" or self.is_wsl

    @property
    def container_evidence(self) -> tuple[str, ...]:
        found = [p for p in ("/.dockerenv", "/run/.containerenv") if self.has(p)]
        if re.search(r"docker|containerd|kubepods|libpod|lxc", self.cgroup):
            found.append("/proc/1/cgroup names a container runtime")
        return tuple(found)

    @property
    def in_container(self) -> bool:
        return bool(self.container_evidence)

    @property
    def gpu_present(self) -> bool:
        """An NVIDIA GPU is on this machine, whatever torch thinks."""
        return bool(self.gpus) or bool(self.gpu_evidence)


# -- gathering ------------------------------------------------------------------------------------------------


def gather(*, probe_kernel: bool = True, probe_timeout_s: float = 30.0) -> EnvironmentView:
    """Look at this machine: torch, NVML (or nvidia-smi, /proc, PCI), platform, paths and environment variables.

    Takes about as long as ``import torch``. With ``probe_kernel`` and a usable CUDA device, one tiny kernel runs in
    a subprocess (bounded by ``probe_timeout_s``) to confirm the build has kernels for the GPU.
    """
    torch_facts = _torch_facts()
    nvml = _nvml_facts()
    gpus: tuple[GpuDevice, ...] = nvml["gpus"]
    driver_version: str | None = nvml["driver_version"]
    smi_path = shutil.which("nvidia-smi")
    smi_error: str | None = None
    if not gpus and smi_path:
        gpus, smi_driver, smi_error = _nvidia_smi_gpus(smi_path)
        driver_version = driver_version or smi_driver
    if driver_version is None:
        driver_version = _proc_driver_version()
    paths = {p: os.path.exists(p) for p in KNOWN_PATHS}
    probe: KernelProbe | None = None
    if probe_kernel and torch_facts.cuda_available:
        probe = run_kernel_probe(timeout_s=probe_timeout_s)
    return EnvironmentView(
        torch=torch_facts,
        nvml_error=nvml["error"],
        driver_version=driver_version,
        cuda_driver_version=nvml["cuda_driver_version"],
        gpus=gpus,
        gpu_evidence=_gpu_evidence(paths),
        nvidia_smi=smi_path,
        nvidia_smi_error=smi_error,
        system=platform.system(),
        release=platform.release(),
        machine=platform.machine(),
        python_version=platform.python_version(),
        python_implementation=platform.python_implementation(),
        proc_version=_read_text("/proc/version"),
        cgroup=_read_text("/proc/1/cgroup"),
        paths=paths,
        linux_libcuda=_linux_libcuda(),
        env={k: os.environ[k] for k in ENV_VARS if k in os.environ},
        packages=package_versions(),
        kernel_probe=probe,
        own_pid=os.getpid(),
        cpu_name=_cpu_name(),
    )


_KEY_LOWER = frozenset(n.lower() for n in KEY_PACKAGES)
_REQUIREMENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_EXTRA_MARKER = re.compile(r"\bextra\s*==")


def declared_requirements(dist: str = "gpu-tutor") -> list[str]:
    """The runtime dependencies the installed tutor declares (not its extras), so a lock pins every one of them
    even when :data:`KEY_PACKAGES` forgets one."""
    try:
        found = importlib.metadata.requires(dist) or []
    except importlib.metadata.PackageNotFoundError:
        return []
    names = []
    for requirement in found:
        if _EXTRA_MARKER.search(requirement):
            continue
        match = _REQUIREMENT_NAME.match(requirement.strip())
        if match:
            names.append(match.group(0))
    return names


def package_versions() -> dict[str, str | None]:
    """Versions of :data:`KEY_PACKAGES` (None when absent) and of every installed ``nvidia-*`` wheel."""
    versions: dict[str, str | None] = {}
    for name in (*KEY_PACKAGES, *(n for n in declared_requirements() if n.lower() not in _KEY_LOWER)):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"] or ""
        if name.lower().startswith("nvidia-") and name.lower() != "nvidia-ml-py":
            versions[name] = dist.version
    return versions


def _torch_facts() -> TorchFacts:
    try:
        import torch
    except Exception as exc:  # ImportError, or a broken install raising OSError on a missing .so
        return TorchFacts(installed=False, import_error=f"{type(exc).__name__}: {exc}")
    cudnn: int | None = None
    arch_list: tuple[str, ...] = ()
    available = False
    count = 0
    try:
        arch_list = tuple(torch.cuda.get_arch_list())
    except Exception:
        arch_list = ()
    try:
        cudnn_version = torch.backends.cudnn.version()
        cudnn = int(cudnn_version) if cudnn_version is not None else None
    except Exception:
        cudnn = None
    try:
        # Neither call creates a CUDA context (is_available asks the driver for a device count).
        available = bool(torch.cuda.is_available())
        count = int(torch.cuda.device_count()) if available else 0
    except Exception:
        available, count = False, 0
    return TorchFacts(
        installed=True,
        version=str(torch.__version__),
        cuda=torch.version.cuda,
        hip=getattr(torch.version, "hip", None),
        cudnn=cudnn,
        arch_list=arch_list,
        cuda_available=available,
        device_count=count,
    )


def _nvml_facts() -> dict[str, Any]:
    facts: dict[str, Any] = {"error": None, "driver_version": None, "cuda_driver_version": None, "gpus": ()}
    try:
        import pynvml
    except Exception as exc:
        facts["error"] = f"nvidia-ml-py not importable: {exc}"
        return facts
    try:
        pynvml.nvmlInit()
    except Exception as exc:
        facts["error"] = f"{type(exc).__name__}: {exc}"
        return facts
    try:
        facts["driver_version"] = _text(pynvml.nvmlSystemGetDriverVersion())
        try:
            facts["cuda_driver_version"] = int(pynvml.nvmlSystemGetCudaDriverVersion())
        except Exception:
            facts["cuda_driver_version"] = None
        gpus = []
        for index in range(int(pynvml.nvmlDeviceGetCount())):
            gpus.append(_nvml_device(pynvml, index))
        facts["gpus"] = tuple(gpus)
    except Exception as exc:
        facts["error"] = f"{type(exc).__name__}: {exc}"
    finally:
        with contextlib.suppress(Exception):
            pynvml.nvmlShutdown()
    return facts


def _nvml_device(pynvml: Any, index: int) -> GpuDevice:
    handle = pynvml.nvmlDeviceGetHandleByIndex(index)
    name = _text(pynvml.nvmlDeviceGetName(handle))
    cc: tuple[int, int] | None
    try:
        major, minor = pynvml.nvmlDeviceGetCudaComputeCapability(handle)
        cc = (int(major), int(minor))
    except Exception:
        cc = None
    total = used = None
    try:
        mem = pynvml.nvmlDeviceGetMemoryInfo(handle)
        total, used = mem.total / 2**20, mem.used / 2**20
    except Exception:
        pass
    uuid = None
    with contextlib.suppress(Exception):
        uuid = _text(pynvml.nvmlDeviceGetUUID(handle))
    processes: tuple[GpuProcess, ...] | None
    try:
        procs = pynvml.nvmlDeviceGetComputeRunningProcesses(handle)
        processes = tuple(
            GpuProcess(
                pid=int(p.pid),
                used_mib=(p.usedGpuMemory / 2**20) if isinstance(p.usedGpuMemory, int) else None,
                name=_process_name(int(p.pid)),
            )
            for p in procs
        )
    except Exception:
        processes = None
    return GpuDevice(index, name, cc, total, used, uuid, processes, source="nvml")


def _nvidia_smi_gpus(path: str) -> tuple[tuple[GpuDevice, ...], str | None, str | None]:
    """Fallback when NVML is not usable from Python: ask nvidia-smi (bounded by a timeout)."""
    query = "index,name,compute_cap,memory.total,memory.used,driver_version"
    try:
        done = subprocess.run(
            [path, f"--query-gpu={query}", "--format=csv,noheader,nounits"],
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return (), None, f"{type(exc).__name__}: {exc}"
    if done.returncode != 0:
        first = (done.stdout or done.stderr).strip().splitlines()
        return (), None, first[0] if first else f"exit status {done.returncode}"
    gpus: list[GpuDevice] = []
    driver: str | None = None
    for line in done.stdout.strip().splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) < 6:
            continue
        cc = None
        if re.fullmatch(r"\d+\.\d+", cells[2]):
            major, minor = cells[2].split(".")
            cc = (int(major), int(minor))
        gpus.append(
            GpuDevice(
                index=int(cells[0]) if cells[0].isdigit() else len(gpus),
                name=cells[1],
                compute_capability=cc,
                memory_total_mib=_float(cells[3]),
                memory_used_mib=_float(cells[4]),
                source="nvidia-smi",
            )
        )
        driver = cells[5] or driver
    return tuple(gpus), driver, None


def _gpu_evidence(paths: Mapping[str, bool]) -> tuple[str, ...]:
    evidence: list[str] = []
    for gpu_dir in sorted(glob.glob("/proc/driver/nvidia/gpus/*")):
        evidence.append(f"{gpu_dir} ({_proc_gpu_model(gpu_dir) or 'NVIDIA GPU'})")
    if paths.get("/dev/nvidia0"):
        evidence.append("/dev/nvidia0")
    if paths.get(WSL_LIBCUDA):
        evidence.append(f"{WSL_LIBCUDA} (the Windows driver's CUDA for WSL2)")
    evidence.extend(_pci_nvidia_devices())
    return tuple(evidence)


def _pci_nvidia_devices() -> list[str]:
    """NVIDIA display/3D controllers on the PCI bus: a GPU is there even if no driver is loaded."""
    found = []
    for dev in sorted(glob.glob("/sys/bus/pci/devices/*")):
        vendor = _read_text(f"{dev}/vendor").strip()
        cls = _read_text(f"{dev}/class").strip()
        if vendor == "0x10de" and cls.startswith("0x03"):
            device = _read_text(f"{dev}/device").strip().removeprefix("0x")
            found.append(f"PCI {os.path.basename(dev)} NVIDIA device 10de:{device}")
    return found


def _proc_gpu_model(gpu_dir: str) -> str | None:
    for line in _read_text(f"{gpu_dir}/information").splitlines():
        if line.startswith("Model:"):
            return line.split(":", 1)[1].strip()
    return None


def _proc_driver_version() -> str | None:
    match = re.search(
        r"Kernel Module\s+(?:for\s+\S+\s+)?(\d+\.\d+(?:\.\d+)?)", _read_text("/proc/driver/nvidia/version")
    )
    return match.group(1) if match else None


def _linux_libcuda() -> tuple[str, ...]:
    found = []
    for pattern in LINUX_LIBCUDA_GLOBS:
        for path in sorted(glob.glob(pattern)):
            try:
                target = os.path.realpath(path)
            except OSError:
                target = path
            if not target.startswith("/usr/lib/wsl/"):
                found.append(path)
    return tuple(found)


def _cpu_name() -> str | None:
    for line in _read_text("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or None


def _process_name(pid: int) -> str | None:
    name = _read_text(f"/proc/{pid}/comm").strip()
    return name or None


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read(65536)
    except OSError:
        return ""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None
