"""Which device measurements run on, what it is (the fingerprint), and the host's cache sizes.

torch is imported inside functions: the cache-size and CPU helpers are usable without it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import re
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from tutor.measure.errors import DeviceError
from tutor.results.device import Device
from tutor.results.wire import JsonObject

DEVICE_CHOICES: tuple[str, ...] = ("auto", "cpu", "cuda")


def cuda_available() -> bool:
    import torch

    return bool(torch.cuda.is_available())


def resolve_device(requested: str | None) -> str:
    """``"auto"`` → ``"cuda"`` when a usable GPU is present, else ``"cpu"``; ``"cuda"`` without one raises."""
    requested = (requested or "auto").lower()
    if requested not in DEVICE_CHOICES:
        raise DeviceError(f"unknown device {requested!r} (choose auto, cpu or cuda)")
    if requested == "cpu":
        return "cpu"
    available = cuda_available()
    if requested == "cuda" and not available:
        raise DeviceError(_no_cuda_reason())
    return "cuda" if available else "cpu"


def _no_cuda_reason() -> str:
    try:
        import torch

        if torch.version.cuda is None:
            return f"no CUDA device: this torch ({torch.__version__}) is a CPU-only build"
    except ImportError:  # pragma: no cover - torch is a dependency
        return "no CUDA device: torch is not installed"
    return "no CUDA device is available to torch (see `tutor doctor`)"


def check_dtype(device: str, dtype: str) -> None:
    """Raise :class:`DeviceError` if ``device`` cannot run ``dtype`` (e.g. bfloat16 on a pre-Ampere GPU)."""
    if device == "cuda":
        import torch

        major, _minor = torch.cuda.get_device_capability()
        if dtype == "bfloat16" and major < 8:
            raise DeviceError(f"this GPU (sm_{major}x) has no bfloat16 support")
        if dtype == "tfloat32" and major < 8:
            raise DeviceError(f"this GPU (sm_{major}x) has no TF32 tensor cores")
    elif dtype == "tfloat32":
        raise DeviceError("TF32 is a GPU tensor-core format; the CPU has no TF32")


# -- the host ------------------------------------------------------------------------------------------------


@cache
def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


@cache
def cpu_flags() -> frozenset[str]:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("flags"):
                return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


def cpu_max_ghz() -> float | None:
    """The CPU's maximum clock in GHz from cpufreq, or None (e.g. in a VM)."""
    try:
        khz = int(Path("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq").read_text())
        return khz / 1e6
    except (OSError, ValueError):
        return None


def cpu_clock_ghz() -> float | None:
    """The best clock figure available: cpufreq's maximum, else /proc/cpuinfo's (current) MHz."""
    ghz = cpu_max_ghz()
    if ghz is not None:
        return ghz
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("cpu mhz"):
                return float(line.split(":", 1)[1]) / 1000
    except (OSError, ValueError):
        pass
    return None


def physical_cores() -> int:
    try:
        import psutil

        return int(psutil.cpu_count(logical=False) or os.cpu_count() or 1)
    except ImportError:  # pragma: no cover
        return os.cpu_count() or 1


def _parse_size(text: str) -> int | None:
    m = re.match(r"\s*([\d.]+)\s*([KMG]?)(?:i?B)?", text.strip(), re.IGNORECASE)
    if not m:
        return None
    scale = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}[m.group(2).upper()]
    return int(float(m.group(1)) * scale)


# Used when neither sysfs nor lscpu answers (e.g. macOS): typical of a recent laptop core.
FALLBACK_CACHES: dict[str, int] = {"L1": 48 * 2**10, "L2": 1 * 2**20, "L3": 16 * 2**20}


#: Where the kernel publishes the cache hierarchy (one core's: L1/L2 per core, L3 shared), under the sysfs root.
CACHE_SUBPATH = "devices/system/cpu/cpu0/cache"
#: Testing aid: a directory laid out like ``/sys`` (``devices/system/cpu/cpu0/cache/index*/{type,level,size}``) whose
#: cache hierarchy replaces this machine's, in this process and in the measuring worker it starts (which inherits
#: the environment). Every line that names a cache then says it is simulated; ``tests/fixtures/sysfs/`` holds the
#: shapes the answer key is checked on (``bench/run_every_exercise.py --shape``).
SYSFS_ROOT_ENV = "TUTOR_SYSFS_ROOT"
#: The ``source`` of a simulated hierarchy starts with this word (:func:`cache_origin`).
SIMULATED_PREFIX = "simulated"


def cache_sizes(root: str | Path | None = None) -> dict[str, Any]:
    """Data-cache sizes of one core's hierarchy, from ``/sys/devices/system/cpu/cpu0/cache`` (per instance:
    L1/L2 per core, L3 shared), with the source named; typical figures if unreadable.

    ``root`` (or, without it, the :data:`SYSFS_ROOT_ENV` environment variable) names a fake sysfs tree to read
    instead: the answer is then marked ``"simulated": True`` and its ``source`` starts with ``simulated``, so no
    line presents it as the learner's cache."""
    if root is None:
        root = os.environ.get(SYSFS_ROOT_ENV) or None
    return dict(_read_cache_sizes(str(root) if root is not None else None))


@cache
def _read_cache_sizes(root: str | None) -> dict[str, Any]:
    sizes: dict[str, int] = {}
    base = Path(root or "/sys") / CACHE_SUBPATH
    try:
        for index in sorted(base.glob("index*")):
            kind = (index / "type").read_text().strip()
            if kind not in ("Data", "Unified"):
                continue
            level = int((index / "level").read_text())
            size = _parse_size((index / "size").read_text())
            if size:
                sizes[f"L{level}"] = size
    except (OSError, ValueError):
        sizes = {}
    if root is not None:
        if not sizes:
            raise DeviceError(f"{SYSFS_ROOT_ENV}={root}: no cache hierarchy under {base}")
        return {"levels": sizes, "source": f"{SIMULATED_PREFIX} ({SYSFS_ROOT_ENV}={root})",
                "last_level": max(sizes.values()), "simulated": True}
    if sizes:
        return {"levels": sizes, "source": str(base), "last_level": max(sizes.values()), "simulated": False}
    return {"levels": dict(FALLBACK_CACHES), "source": "fallback (typical sizes; cache sizes unreadable)",
            "last_level": max(FALLBACK_CACHES.values()), "simulated": False}


def cache_origin(source: object) -> str:
    """Where a cache figure came from, by its recorded ``source``: ``read`` (this machine's sysfs), ``simulated``
    (a fake tree, :data:`SYSFS_ROOT_ENV`) or ``fallback`` (typical sizes)."""
    text = str(source or "")
    if text.startswith(SIMULATED_PREFIX):
        return "simulated"
    return "fallback" if text.startswith("fallback") else "read"


def last_level_name(levels: dict[str, int]) -> str:
    """The name of the largest level (``L3``, or ``L2`` on a chip without an L3)."""
    return max(levels, key=lambda name: levels[name], default="L3")


#: Most memory a DRAM-sized measurement may hold over all its arrays, whatever the cache: a laptop keeps room for
#: everything else, and a machine whose last-level cache reads 480 MiB does not get 6 GB of STREAM arrays.
DRAM_BUDGET_BYTES = 2 * 2**30


def available_bytes() -> int | None:
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil is a dependency
        return None
    return int(psutil.virtual_memory().available)


def dram_working_set_bytes(minimum: int = 128 * 2**20, *, arrays: int = 3, available: int | None = None) -> int:
    """Bytes per array for DRAM figures: 4× the last-level cache (and at least ``minimum``), with all ``arrays``
    together within :data:`DRAM_BUDGET_BYTES` and half the free RAM. Where that budget is below 4× the cache, the
    measurement records both sizes (``array_bytes``, ``last_level_cache_bytes``), so the reveal can say how much
    of the working set the cache could hold."""
    budget = DRAM_BUDGET_BYTES
    free = available if available is not None else available_bytes()
    if free is not None:
        budget = min(budget, free // 2)
    return max(minimum, min(4 * int(cache_sizes()["last_level"]), budget // max(1, arrays)))


# -- the device and its fingerprint ---------------------------------------------------------------------------


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _nvml_fields(index: int) -> JsonObject:
    """Driver version and maximum clocks from NVML when it loads (never raises)."""
    out: JsonObject = {}
    try:
        import pynvml

        pynvml.nvmlInit()
        try:
            out["driver"] = _text(pynvml.nvmlSystemGetDriverVersion())
            handle = pynvml.nvmlDeviceGetHandleByIndex(index)
            for key, clock in (("max_sm_clock_mhz", pynvml.NVML_CLOCK_SM),
                               ("max_mem_clock_mhz", pynvml.NVML_CLOCK_MEM)):
                with contextlib.suppress(pynvml.NVMLError):
                    out[key] = int(pynvml.nvmlDeviceGetMaxClockInfo(handle, clock))
            with contextlib.suppress(pynvml.NVMLError):
                out["power_limit_w"] = round(pynvml.nvmlDeviceGetPowerManagementLimit(handle) / 1000)
        finally:
            pynvml.nvmlShutdown()
    except Exception:
        pass
    return out


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def fingerprint_id(fields: JsonObject) -> str:
    """A short stable id of a fingerprint dict (sha256 of its canonical JSON, 16 hex digits)."""
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]


def measured_device(device: str) -> Device:
    """The resolved device ("cpu" or "cuda") measurements run on: its kind, name, fingerprint and the
    fingerprint's fields.

    The fingerprint covers what changes the numbers: device name, driver, torch, CUDA, maximum clocks (not the
    current ones, which wander) on a GPU; CPU model, cores and torch's thread count on the CPU.
    """
    import torch

    fields: JsonObject = {  # hashed as canonical JSON (fingerprint_id) and kept as the Device's fields
        "kind": device,
        "torch": torch.__version__,
        "cpu_model": cpu_model(),
        "logical_cpus": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
    }
    if device == "cuda":
        index = torch.cuda.current_device()
        props = torch.cuda.get_device_properties(index)
        name = str(props.name)
        fields.update(
            name=name,
            cuda=torch.version.cuda,
            capability=f"{props.major}.{props.minor}",
            total_memory_bytes=int(props.total_memory),
            sms=int(props.multi_processor_count),
            **_nvml_fields(index),
        )
    else:
        name = cpu_model()
        fields.update(name=name, physical_cores=physical_cores(), max_ghz=cpu_max_ghz(),
                      numpy=_version("numpy"))
    return Device(kind=device, name=name, fingerprint=fingerprint_id(fields), fields=fields)


def device_info(device: str) -> JsonObject:
    """:func:`measured_device` as JSON, ``{"kind", "name", "fingerprint", "fingerprint_fields"}`` (what a tool or a
    test that writes a roofline cache entry keys it by)."""
    return measured_device(device).to_json()


def environment() -> JsonObject:
    """The software environment a bench report records."""
    import sys

    import torch

    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "numpy": _version("numpy"),
        "gpu_tutor": _version("gpu-tutor"),
        "torch_threads": torch.get_num_threads(),
        "cpu_capability": _cpu_capability(),
    }


def _cpu_capability() -> str | None:
    try:
        import torch

        return str(torch.backends.cpu.get_cpu_capability())
    except Exception:
        return None
