"""The doctor's checks: pure functions from an :class:`~tutor.doctor.view.EnvironmentView` to a :class:`Check`.

Statuses: ``ok`` (healthy), ``warn`` (works, but look), ``fail`` (broken: the doctor exits 1), ``skip`` (does not
apply here, e.g. GPU checks on a machine without one). A CPU-only machine with a CPU build of torch fails nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from tutor.doctor.drivers import (
    BLACKWELL_MIN_DRIVER,
    architecture_name,
    cuda_version_text,
    driver_at_least,
    match_arch,
    minimum_for,
    minor_compat_minimum,
)
from tutor.doctor.probe import NO_KERNEL_IMAGE
from tutor.doctor.view import WSL_LIBCUDA, EnvironmentView

Status = Literal["ok", "warn", "fail", "skip"]
STATUSES: tuple[Status, ...] = ("ok", "warn", "fail", "skip")

#: Where to get a torch build with kernels for sm_120 (RTX 50-series) — CUDA 12.8 or newer.
CUDA_WHEEL_HINT = "pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu128"

#: What the course does without an NVIDIA GPU.
CPU_COURSE_NOTE = (
    "Nothing to fix for the CPU path: every lab and exercise measures with torch on the CPU, telemetry shows CPU "
    'and RAM, and C0 is earned as "C0 (CPU)". Needing a GPU: NVML telemetry, CUDA timing, the sm_120 checks.'
)


@dataclass(frozen=True)
class Check:
    """One diagnosis: what was seen, and the fix in one or two lines (empty when there is nothing to do)."""

    id: str
    status: Status
    seen: str
    fix: str = ""

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "status": self.status, "seen": self.seen, "fix": self.fix}


CheckFn = Callable[[EnvironmentView], Check]


def _gpu_names(view: EnvironmentView) -> str:
    if view.gpus:
        return ", ".join(g.name + (f" ({g.sm})" if g.sm else "") for g in view.gpus)
    return "an NVIDIA GPU (" + "; ".join(view.gpu_evidence) + ")"


def check_torch(view: EnvironmentView) -> Check:
    t = view.torch
    if not t.installed:
        return Check(
            "torch",
            "fail",
            f"torch cannot be imported ({t.import_error or 'not installed'})",
            "Install it into this environment: pip install torch (add --index-url "
            "https://download.pytorch.org/whl/cu128 for an NVIDIA GPU).",
        )
    if t.hip:
        build = f"ROCm {t.hip} build"
    elif t.cuda:
        build = f"CUDA {t.cuda} build" + (f", cuDNN {t.cudnn}" if t.cudnn else "")
    else:
        build = "CPU-only build (no CUDA)"
    seen = f"torch {t.version}, {build}; torch.cuda.is_available() = {t.cuda_available}"
    if t.cuda_available:
        seen += f" ({t.device_count} device{'s' if t.device_count != 1 else ''})"
    return Check("torch", "ok", seen)


def check_gpu(view: EnvironmentView) -> Check:
    if view.gpus:
        details = []
        for g in view.gpus:
            cc = (
                f"compute capability {g.compute_capability[0]}.{g.compute_capability[1]}, "
                if g.compute_capability
                else ""
            )
            arch = f"{architecture_name(g.compute_capability)}, " if g.compute_capability else ""
            mem = f"{g.memory_total_mib / 1024:.0f} GiB" if g.memory_total_mib else "memory unknown"
            details.append(f"GPU{g.index} {g.name} ({cc}{arch}{mem}; via {g.source})")
        driver = f"; driver {view.driver_version}" if view.driver_version else ""
        return Check("gpu", "ok", "; ".join(details) + driver)
    if view.gpu_evidence:
        why = view.nvml_error or "NVML found no devices"
        return Check(
            "gpu",
            "fail",
            f"an NVIDIA GPU is here ({'; '.join(view.gpu_evidence)}) but NVML cannot talk to it ({why})",
            "Install or load the NVIDIA driver (Linux: the distribution's nvidia-driver package, then reboot; "
            "WSL2: install the Windows driver only) and check that nvidia-smi lists the GPU.",
        )
    looked = [f"NVML: {view.nvml_error or 'no devices'}", "no /proc/driver/nvidia", "no /dev/nvidia0"]
    looked.append("no NVIDIA device on the PCI bus")
    looked.append(f"nvidia-smi: {view.nvidia_smi_error or 'present'}" if view.nvidia_smi else "no nvidia-smi")
    return Check("gpu", "warn", "no NVIDIA GPU on this machine (" + "; ".join(looked) + ")", CPU_COURSE_NOTE)


def check_torch_build(view: EnvironmentView) -> Check:
    """The CPU-only wheel on a machine that has an NVIDIA GPU — typical failure number one."""
    t = view.torch
    if not t.installed:
        return Check("torch_build", "skip", "torch is not installed")
    if t.is_cpu_build:
        if view.gpu_present:
            return Check(
                "torch_build",
                "fail",
                f"torch {t.version} is a CPU-only wheel, but this machine has {_gpu_names(view)}: "
                "torch.cuda.is_available() is False and every number would come from the CPU",
                f"Replace it with a CUDA build: {CUDA_WHEEL_HINT} (CUDA 12.8+ for RTX 50-series).",
            )
        return Check(
            "torch_build", "ok", f"torch {t.version} is a CPU build, the right one for a machine without a GPU"
        )
    if t.hip:
        return Check(
            "torch_build",
            "warn",
            f"torch {t.version} is a ROCm build; this course targets NVIDIA CUDA",
            f"For an NVIDIA GPU install a CUDA build: {CUDA_WHEEL_HINT}",
        )
    return Check("torch_build", "ok", f"torch {t.version} is built for CUDA {t.cuda}")


def check_driver(view: EnvironmentView) -> Check:
    """The driver too old for torch's CUDA — typical failure number two."""
    t = view.torch
    if not view.gpu_present:
        return Check("driver", "skip", "no NVIDIA GPU, so no driver to check")
    if view.driver_version is None:
        return Check(
            "driver",
            "fail" if not view.gpus else "warn",
            "the NVIDIA driver version could not be read" + (f" ({view.nvml_error})" if view.nvml_error else ""),
            "Install the NVIDIA driver and check that nvidia-smi runs.",
        )
    supports = ""
    if view.cuda_driver_version:
        supports = f", which supports CUDA up to {cuda_version_text(view.cuda_driver_version)}"
    where = "Windows (WSL2)" if view.is_wsl else ("Windows" if view.system == "Windows" else "Linux")
    seen = f"driver {view.driver_version} ({where}){supports}"
    blackwell = [g for g in view.gpus if g.compute_capability and g.compute_capability[0] in (10, 11, 12)]
    if blackwell and not driver_at_least(view.driver_version, BLACKWELL_MIN_DRIVER):
        return Check(
            "driver",
            "fail",
            f"{seen}; {blackwell[0].name} needs the R{BLACKWELL_MIN_DRIVER} branch or newer",
            f"Install driver ≥ {minimum_for('12.8', windows=view.is_windows_driver)} "
            "(R570+; the open kernel modules on Linux).",
        )
    if not t.installed or t.cuda is None:
        return Check("driver", "ok", seen + "; torch has no CUDA build to compare it with")
    needed = minimum_for(t.cuda, windows=view.is_windows_driver)
    if needed is None:
        return Check(
            "driver",
            "warn",
            f"{seen}; no minimum on record for CUDA {t.cuda}",
            "Check NVIDIA's CUDA release notes for the driver this CUDA needs.",
        )
    if driver_at_least(view.driver_version, needed):
        return Check("driver", "ok", f"{seen}; torch's CUDA {t.cuda} needs ≥ {needed}")
    fix = (
        f"Update the NVIDIA driver to ≥ {needed}"
        + (" on Windows (WSL2 uses the Windows driver; install nothing inside WSL)" if view.is_wsl else "")
        + f", or install a torch built for an older CUDA (e.g. --index-url https://download.pytorch.org/whl/cu{_cu_tag(view)})."
    )
    compat = minor_compat_minimum(t.cuda, windows=view.is_windows_driver)
    if compat and driver_at_least(view.driver_version, compat):
        return Check(
            "driver",
            "warn",
            f"{seen}; torch's CUDA {t.cuda} wants ≥ {needed} and runs on this one only through minor "
            "version compatibility (no PTX JIT)",
            fix,
        )
    return Check(
        "driver",
        "fail",
        f"{seen}; torch's CUDA {t.cuda} needs ≥ {needed} — torch reports \"The NVIDIA driver on your "
        'system is too old"',
        fix,
    )


def _cu_tag(view: EnvironmentView) -> str:
    if view.cuda_driver_version:
        text = cuda_version_text(view.cuda_driver_version)
        for candidate in ("13.0", "12.9", "12.8", "12.6", "12.4", "12.1", "11.8"):
            if tuple(int(p) for p in candidate.split(".")) <= tuple(int(p) for p in text.split(".")):
                return candidate.replace(".", "")
    return "118"


def check_cuda_available(view: EnvironmentView) -> Check:
    t = view.torch
    if not view.gpu_present:
        return Check("cuda_available", "skip", "no NVIDIA GPU: torch runs on the CPU")
    if not t.installed or t.is_cpu_build:
        return Check("cuda_available", "skip", "torch has no CUDA build (see torch_build)")
    if t.cuda_available:
        return Check("cuda_available", "ok", f"torch.cuda.is_available() = True, {t.device_count} device(s)")
    reasons = []
    cvd = view.env.get("CUDA_VISIBLE_DEVICES")
    if cvd is not None:
        reasons.append(f"CUDA_VISIBLE_DEVICES={cvd!r}")
    if view.in_container and not view.has("/dev/nvidia0") and not view.is_wsl:
        reasons.append("this container has no /dev/nvidia0")
    if view.nvml_error:
        reasons.append(view.nvml_error)
    return Check(
        "cuda_available",
        "fail",
        "torch is a CUDA build but torch.cuda.is_available() = False" + (f" ({'; '.join(reasons)})" if reasons else ""),
        'Look at the driver, cuda_visible_devices and container checks; python -c "import torch; '
        'torch.cuda.init()" prints the underlying CUDA error.',
    )


def check_kernel_image(view: EnvironmentView) -> Check:
    """Torch built without kernels for this GPU (sm_120 on cu126 and older) — typical failure number three."""
    t = view.torch
    probe = view.kernel_probe
    if not t.installed or t.is_cpu_build or not view.gpus:
        return Check("kernel_image", "skip", "no CUDA build of torch and NVIDIA GPU to match")
    arch = " ".join(t.arch_list) or "empty"
    findings: list[str] = []
    status: Status = "ok"
    fix = ""
    for g in view.gpus:
        if g.compute_capability is None:
            findings.append(f"{g.name}: compute capability unknown")
            continue
        m = match_arch(g.compute_capability, t.arch_list)
        if m.sass:
            findings.append(f"{g.name} is {g.sm}; torch has {m.sass}")
        elif m.ptx:
            findings.append(
                f"{g.name} is {g.sm}; torch has no {g.sm} machine code, only PTX {m.ptx} (JIT-compiled "
                "on first launch: slow start, and below peak)"
            )
            status = _worse(status, "warn")
            fix = f"Install a torch build with {g.sm} kernels: {CUDA_WHEEL_HINT}"
        else:
            findings.append(
                f"{g.name} is {g.sm}, {architecture_name(g.compute_capability)}; torch's arch list "
                f"[{arch}] has nothing that runs on it"
            )
            status = "fail"
            fix = (
                f"Install a torch built for CUDA 12.8 or newer, whose wheels include {g.sm}: {CUDA_WHEEL_HINT}"
                if g.compute_capability >= (10, 0)
                else f"Install a torch build that includes {g.sm}."
            )
    seen = "; ".join(findings)
    if probe is None:
        if t.cuda_available:
            seen += "; tiny kernel not run"
        return Check("kernel_image", status, seen, fix)
    if probe.ok:
        # The kernel ran: whatever the arch list suggested, the stack works (PTX JIT stays a warning).
        return Check(
            "kernel_image",
            "warn" if status == "warn" else "ok",
            f"{seen}; a tiny kernel ran on {probe.device or 'GPU0'} in {probe.seconds:.1f} s",
            fix,
        )
    if probe.no_kernel_image:
        return Check(
            "kernel_image",
            "fail",
            f'{seen}; the tiny kernel failed: "CUDA error: {NO_KERNEL_IMAGE}"',
            fix or f"Install a torch build with kernels for this GPU: {CUDA_WHEEL_HINT}",
        )
    if probe.timed_out:
        return Check(
            "kernel_image",
            "warn",
            f"{seen}; {probe.error}",
            "Something hangs in CUDA initialisation: check nvidia-smi and dmesg for Xid errors.",
        )
    return Check(
        "kernel_image",
        "fail",
        f"{seen}; the tiny kernel failed: {probe.error}",
        fix or "Run python -c \"import torch; torch.ones(1, device='cuda')\" to see the full error.",
    )


def check_wsl(view: EnvironmentView) -> Check:
    if not view.is_wsl:
        return Check("wsl", "skip", "not WSL2")
    seen = "WSL2"
    if view.linux_libcuda:
        return Check(
            "wsl",
            "fail",
            f"{seen}, but a Linux driver's libcuda is installed inside WSL ({', '.join(view.linux_libcuda)}); "
            "it shadows the Windows driver's",
            "Remove the Linux NVIDIA driver from WSL (e.g. sudo apt remove --purge 'nvidia-driver-*' "
            "'libnvidia-compute-*'); WSL2 needs only the Windows driver.",
        )
    if not view.has(WSL_LIBCUDA):
        return Check(
            "wsl",
            "warn",
            f"{seen}, but {WSL_LIBCUDA} is missing: the Windows NVIDIA driver does not expose CUDA to WSL",
            "Install the current NVIDIA driver on Windows (not inside WSL), then wsl --shutdown and reopen.",
        )
    return Check(
        "wsl",
        "ok",
        f"{seen}; CUDA comes from the Windows driver ({WSL_LIBCUDA}); no Linux driver inside "
        "WSL, as it should be (NVML cannot list GPU processes under WSL2)",
    )


def check_container(view: EnvironmentView) -> Check:
    if not view.in_container:
        return Check("container", "skip", "not in a container")
    seen = "in a container (" + ", ".join(view.container_evidence) + ")"
    if view.gpus:
        return Check("container", "ok", f"{seen}; the GPU is passed through (NVIDIA Container Toolkit)")
    if view.gpu_present:
        return Check(
            "container",
            "fail",
            f"{seen}; the host's GPU is not passed through (no /dev/nvidia0 usable)",
            "Start the container with --gpus all (Docker with the NVIDIA Container Toolkit installed; "
            "Podman: --device nvidia.com/gpu=all).",
        )
    return Check(
        "container",
        "ok",
        f"{seen}; no GPU passed in, and none on the host as far as can be seen",
        "If the host does have an NVIDIA GPU: install the NVIDIA Container Toolkit there and run the "
        "container with --gpus all.",
    )


_UUID = re.compile(r"(GPU|MIG)-[0-9a-fA-F-]+")


def check_cuda_visible_devices(view: EnvironmentView) -> Check:
    value = view.env.get("CUDA_VISIBLE_DEVICES")
    if value is None:
        return Check("cuda_visible_devices", "ok", "CUDA_VISIBLE_DEVICES is not set: every GPU is visible")
    entries = [e.strip() for e in value.split(",")] if value.strip() else []
    count = len(view.gpus)
    visible: list[str] = []
    bad: str | None = None
    for entry in entries:
        valid = (entry.isdigit() and (count == 0 or int(entry) < count)) or bool(_UUID.fullmatch(entry))
        if not valid:
            bad = entry
            break  # CUDA stops at the first invalid entry and ignores the rest
        visible.append(entry)
    seen = f"CUDA_VISIBLE_DEVICES={value!r}"
    if not view.gpu_present:
        return Check("cuda_visible_devices", "skip", f"{seen}; no NVIDIA GPU here anyway")
    fix = "unset CUDA_VISIBLE_DEVICES, or set it to GPU indices that exist (e.g. 0)"
    if not visible:
        why = "is empty" if not entries else f"starts with {bad!r}, which is not a GPU index or UUID"
        return Check(
            "cuda_visible_devices",
            "fail",
            f'{seen} {why}: CUDA sees no GPU (torch: "No CUDA GPUs are available")',
            fix.capitalize() + ".",
        )
    if bad is not None:
        return Check(
            "cuda_visible_devices",
            "warn",
            f"{seen}: CUDA stops at {bad!r}, so only {','.join(visible)} is visible",
            fix.capitalize() + ".",
        )
    return Check("cuda_visible_devices", "ok", f"{seen}: CUDA sees {len(visible)} GPU(s)")


#: Options the caching allocator understands (PYTORCH_CUDA_ALLOC_CONF / PYTORCH_ALLOC_CONF).
ALLOC_CONF_KEYS = frozenset(
    {
        "backend",
        "max_split_size_mb",
        "max_non_split_rounding_mb",
        "roundup_power2_divisions",
        "garbage_collection_threshold",
        "expandable_segments",
        "release_lock_on_cudamalloc",
        "pinned_use_cuda_host_register",
        "pinned_num_register_threads",
        "pinned_use_background_threads",
        "pinned_reserve_segment_size_mb",
        "graph_capture_record_stream_reuse",
        "per_process_memory_fraction",
    }
)


def parse_alloc_conf(value: str) -> tuple[dict[str, str], list[str]]:
    """``"expandable_segments:True,max_split_size_mb:128"`` → (options, problems)."""
    options: dict[str, str] = {}
    problems: list[str] = []
    # roundup_power2_divisions takes a bracketed list with commas inside: split outside brackets only.
    for item in re.split(r",(?![^\[]*\])", value):
        item = item.strip()
        if not item:
            continue
        key, sep, val = item.partition(":")
        key = key.strip()
        if not sep:
            problems.append(f"{item!r} has no ':value'")
        elif key not in ALLOC_CONF_KEYS:
            problems.append(f"unknown option {key!r}")
        options[key] = val.strip()
    return options, problems


def check_alloc_conf(view: EnvironmentView) -> Check:
    settings = [(k, view.env[k]) for k in ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF") if k in view.env]
    if not settings:
        return Check("alloc_conf", "ok", "PYTORCH_CUDA_ALLOC_CONF is not set: the caching allocator's defaults")
    seen_parts: list[str] = []
    problems: list[str] = []
    for name, value in settings:
        options, trouble = parse_alloc_conf(value)
        seen_parts.append(f"{name}={value!r}")
        problems.extend(f"{name}: {p}" for p in trouble)
        if options.get("backend") == "cudaMallocAsync":
            seen_parts.append("(cudaMallocAsync backend: memory_allocated figures differ from the native allocator)")
    seen = " ".join(seen_parts)
    if problems:
        return Check(
            "alloc_conf",
            "warn",
            f"{seen}; {'; '.join(problems)} — torch refuses unknown options when CUDA starts",
            "Fix or remove the entry; known options: " + ", ".join(sorted(ALLOC_CONF_KEYS)[:6]) + ", …",
        )
    return Check("alloc_conf", "ok", seen + " (VRAM figures in the course are measured with these settings)")


#: Memory held by other processes above which measurements are disturbed (and OOM comes sooner).
BUSY_MIB = 1024.0


def check_gpu_memory(view: EnvironmentView) -> Check:
    if not view.gpus:
        return Check("gpu_memory", "skip", "no GPU memory to check")
    findings: list[str] = []
    status: Status = "ok"
    for g in view.gpus:
        total = f" of {g.memory_total_mib / 1024:.1f} GiB" if g.memory_total_mib else ""
        if g.processes is not None:
            others = [p for p in g.processes if p.pid != view.own_pid]
            held = sum(p.used_mib or 0.0 for p in others)
            if others:
                who = ", ".join(
                    f"{p.name or 'pid'} {p.pid} ({p.used_mib:.0f} MiB)"
                    if p.used_mib is not None
                    else f"{p.name or 'pid'} {p.pid}"
                    for p in others[:4]
                )
                findings.append(f"GPU{g.index}: {len(others)} other process(es) hold {held:.0f} MiB{total}: {who}")
                if held >= BUSY_MIB:
                    status = "warn"
            else:
                used = f" ({g.memory_used_mib:.0f} MiB used by the driver/display)" if g.memory_used_mib else ""
                findings.append(f"GPU{g.index}: no other compute process{used}")
        elif g.memory_used_mib is not None:
            findings.append(f"GPU{g.index}: {g.memory_used_mib:.0f} MiB in use{total} (processes not listable here)")
            if g.memory_total_mib and g.memory_used_mib > max(BUSY_MIB, 0.25 * g.memory_total_mib):
                status = "warn"
        else:
            findings.append(f"GPU{g.index}: memory use unknown")
    fix = (
        (
            "Close the other programs using the GPU (nvidia-smi lists them) before measuring: they take VRAM and "
            "bandwidth."
        )
        if status == "warn"
        else ""
    )
    return Check("gpu_memory", status, "; ".join(findings), fix)


#: Every check, in report order.
CHECKS: tuple[CheckFn, ...] = (
    check_torch,
    check_gpu,
    check_torch_build,
    check_driver,
    check_cuda_available,
    check_kernel_image,
    check_wsl,
    check_container,
    check_cuda_visible_devices,
    check_alloc_conf,
    check_gpu_memory,
)


def _worse(a: Status, b: Status) -> Status:
    order = {"skip": 0, "ok": 1, "warn": 2, "fail": 3}
    return a if order[a] >= order[b] else b


def run_checks(view: EnvironmentView) -> list[Check]:
    """Every check against ``view``; a check that crashes becomes a ``warn`` naming the bug, never a traceback."""
    results: list[Check] = []
    for fn in CHECKS:
        name = fn.__name__.removeprefix("check_")
        try:
            results.append(fn(view))
        except Exception as exc:  # a bug in one check must not hide the others
            results.append(
                Check(
                    name,
                    "warn",
                    f"this check crashed: {type(exc).__name__}: {exc}",
                    "Please report it; the other checks are unaffected.",
                )
            )
    return results
