"""The doctor's checks: pure functions from an :class:`~tutor.doctor.view.EnvironmentView` to a :class:`Check`.

Statuses: ``ok`` (healthy), ``warn`` (works, but look), ``fail`` (broken: the doctor exits 1), ``skip`` (does not
apply here, e.g. GPU checks on a machine without one). A CPU-only machine with a CPU build of torch fails nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import reduce
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
from tutor.i18n import N_
from tutor.i18n.message import Message, Param

Status = Literal["ok", "warn", "fail", "skip"]
STATUSES: tuple[Status, ...] = ("ok", "warn", "fail", "skip")

#: Where to get a torch build with kernels for sm_120 (RTX 50-series) — CUDA 12.8 or newer.
CUDA_WHEEL_HINT = "pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu128"


@dataclass(frozen=True)
class Check:
    """One diagnosis: what was seen, and the fix in one or two lines (none when there is nothing to do).

    ``said`` and ``fix_said`` are catalog messages with their figures, paths and commands as parameters; one
    catalog per language renders them (:meth:`seen_in` / :meth:`fix_in`). ``seen``/``fix`` are the English
    renderings, kept for the CLI's JSON and the lock files.
    """

    id: str
    status: Status
    said: Message
    fix_said: Message | None = None

    @property
    def seen(self) -> str:
        return self.said.render("en")

    @property
    def fix(self) -> str:
        return self.fix_in("en")

    def seen_in(self, lang: str) -> str:
        return self.said.render(lang)

    def fix_in(self, lang: str) -> str:
        return self.fix_said.render(lang) if self.fix_said is not None else ""

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "status": self.status, "seen": self.seen, "fix": self.fix}


CheckFn = Callable[[EnvironmentView], Check]
M = Message.of


def joined(parts: Sequence[Param], code: str = N_("doctor.join")) -> Param:
    """``parts`` as one parameter, ``a; b; c`` (``doctor.join``) or ``a b`` (``doctor.space``)."""
    if not parts:
        return ""
    return reduce(lambda first, rest: M(code, first=first, rest=rest), parts)


def _message(param: Param) -> Message:
    return param if isinstance(param, Message) else Message.verbatim(str(param))


def _paren(parts: Sequence[Param]) -> Param:
    """`` (a; b)`` after a sentence, or nothing."""
    return M("doctor.paren", text=joined(parts)) if parts else ""


def _gpu_names(view: EnvironmentView) -> Param:
    if view.gpus:
        return ", ".join(g.name + (f" ({g.sm})" if g.sm else "") for g in view.gpus)
    return M("doctor.gpu_names.evidence", evidence="; ".join(view.gpu_evidence))


def check_torch(view: EnvironmentView) -> Check:
    t = view.torch
    if not t.installed:
        error = t.import_error or M("doctor.torch.not_installed")
        return Check("torch", "fail", M("doctor.torch.missing", error=error), M("doctor.torch.install"))
    if t.hip:
        build = M("doctor.torch.build_rocm", version=t.hip)
    elif t.cuda:
        build = M("doctor.torch.build_cuda", cuda=t.cuda, cudnn=f", cuDNN {t.cudnn}" if t.cudnn else "")
    else:
        build = M("doctor.torch.build_cpu")
    devices: Param = ""
    if t.cuda_available:
        devices = M(f"doctor.torch.devices.{'one' if t.device_count == 1 else 'other'}", n=t.device_count)
    return Check("torch", "ok", M("doctor.torch.ok", version=t.version or "?", build=build,
                                  available=str(t.cuda_available), devices=devices))


def check_gpu(view: EnvironmentView) -> Check:
    if view.gpus:
        details: list[Param] = []
        for g in view.gpus:
            cc: Param = ""
            arch = ""
            if g.compute_capability:
                major, minor = g.compute_capability
                cc = M("doctor.gpu.cc", cc=f"{major}.{minor}")
                arch = f"{architecture_name(g.compute_capability)}, "
            mem: Param = M("doctor.gpu.memory_unknown")
            if g.memory_total_mib:
                mem = f"{g.memory_total_mib / 1024:.0f} GiB"
            details.append(M("doctor.gpu.device", index=str(g.index), name=g.name, cc=cc, arch=arch, mem=mem,
                             source=g.source))
        seen = joined(details)
        if view.driver_version:
            seen = M("doctor.gpu.with_driver", details=seen, driver=view.driver_version)
        return Check("gpu", "ok", _message(seen))
    evidence = "; ".join(view.gpu_evidence)
    if view.gpu_evidence:
        return Check("gpu", "fail", M("doctor.gpu.no_nvml", evidence=evidence,
                                      error=view.nvml_error or M("doctor.gpu.nvml_found_none")),
                     M("doctor.gpu.install_driver"))
    smi: Param = (M("doctor.gpu.looked_smi", state=view.nvidia_smi_error or M("doctor.gpu.present"))
                  if view.nvidia_smi else M("doctor.gpu.looked_no_smi"))
    looked: list[Param] = [M("doctor.gpu.looked_nvml", error=view.nvml_error or M("doctor.gpu.no_devices")),
                           M("doctor.gpu.looked_proc"), M("doctor.gpu.looked_dev"), M("doctor.gpu.looked_pci"), smi]
    return Check("gpu", "warn", M("doctor.gpu.none", looked=joined(looked)), M("doctor.gpu.cpu_course"))


def check_torch_build(view: EnvironmentView) -> Check:
    """The CPU-only wheel on a machine that has an NVIDIA GPU — typical failure number one."""
    t = view.torch
    if not t.installed:
        return Check("torch_build", "skip", M("doctor.torch_build.not_installed"))
    version = t.version or "?"
    if t.is_cpu_build:
        if view.gpu_present:
            return Check("torch_build", "fail",
                         M("doctor.torch_build.cpu_wheel", version=version, gpus=_gpu_names(view)),
                         M("doctor.torch_build.use_cuda", hint=CUDA_WHEEL_HINT))
        return Check("torch_build", "ok", M("doctor.torch_build.cpu_ok", version=version))
    if t.hip:
        return Check("torch_build", "warn", M("doctor.torch_build.rocm", version=version),
                     M("doctor.torch_build.rocm_fix", hint=CUDA_WHEEL_HINT))
    return Check("torch_build", "ok", M("doctor.torch_build.cuda_ok", version=version, cuda=t.cuda or "?"))


def check_driver(view: EnvironmentView) -> Check:
    """The driver too old for torch's CUDA — typical failure number two."""
    t = view.torch
    if not view.gpu_present:
        return Check("driver", "skip", M("doctor.driver.no_gpu"))
    if view.driver_version is None:
        return Check("driver", "fail" if not view.gpus else "warn",
                     M("doctor.driver.unreadable", nvml=f" ({view.nvml_error})" if view.nvml_error else ""),
                     M("doctor.driver.install"))
    supports: Param = ""
    if view.cuda_driver_version:
        supports = M("doctor.driver.supports", cuda=cuda_version_text(view.cuda_driver_version))
    where = "Windows (WSL2)" if view.is_wsl else ("Windows" if view.system == "Windows" else "Linux")
    seen = M("doctor.driver.seen", version=view.driver_version, where=where, supports=supports)
    blackwell = [g for g in view.gpus if g.compute_capability and g.compute_capability[0] in (10, 11, 12)]
    if blackwell and not driver_at_least(view.driver_version, BLACKWELL_MIN_DRIVER):
        minimum = minimum_for("12.8", windows=view.is_windows_driver)
        return Check("driver", "fail",
                     M("doctor.driver.blackwell", seen=seen, gpu=blackwell[0].name, branch=str(BLACKWELL_MIN_DRIVER)),
                     M("doctor.driver.blackwell_fix", minimum=str(minimum)))
    if not t.installed or t.cuda is None:
        return Check("driver", "ok", M("doctor.driver.no_torch_cuda", seen=seen))
    needed = minimum_for(t.cuda, windows=view.is_windows_driver)
    if needed is None:
        return Check("driver", "warn", M("doctor.driver.no_minimum", seen=seen, cuda=t.cuda),
                     M("doctor.driver.check_notes"))
    if driver_at_least(view.driver_version, needed):
        return Check("driver", "ok", M("doctor.driver.ok", seen=seen, cuda=t.cuda, needed=needed))
    fix = M("doctor.driver.update", needed=needed, wsl=M("doctor.driver.wsl_note") if view.is_wsl else "",
            older=f"--index-url https://download.pytorch.org/whl/cu{_cu_tag(view)}")
    compat = minor_compat_minimum(t.cuda, windows=view.is_windows_driver)
    if compat and driver_at_least(view.driver_version, compat):
        return Check("driver", "warn", M("doctor.driver.minor_compat", seen=seen, cuda=t.cuda, needed=needed), fix)
    return Check("driver", "fail", M("doctor.driver.too_old", seen=seen, cuda=t.cuda, needed=needed), fix)


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
        return Check("cuda_available", "skip", M("doctor.cuda_available.no_gpu"))
    if not t.installed or t.is_cpu_build:
        return Check("cuda_available", "skip", M("doctor.cuda_available.cpu_build"))
    if t.cuda_available:
        return Check("cuda_available", "ok", M("doctor.cuda_available.ok", n=t.device_count))
    reasons: list[Param] = []
    cvd = view.env.get("CUDA_VISIBLE_DEVICES")
    if cvd is not None:
        reasons.append(f"CUDA_VISIBLE_DEVICES={cvd!r}")
    if view.in_container and not view.has("/dev/nvidia0") and not view.is_wsl:
        reasons.append(M("doctor.cuda_available.container_no_dev"))
    if view.nvml_error:
        reasons.append(view.nvml_error)
    return Check("cuda_available", "fail", M("doctor.cuda_available.unavailable", reasons=_paren(reasons)),
                 M("doctor.cuda_available.fix"))


def check_kernel_image(view: EnvironmentView) -> Check:
    """Torch built without kernels for this GPU (sm_120 on cu126 and older) — typical failure number three."""
    t = view.torch
    probe = view.kernel_probe
    if not t.installed or t.is_cpu_build or not view.gpus:
        return Check("kernel_image", "skip", M("doctor.kernel_image.no_pair"))
    arch: Param = " ".join(t.arch_list) or M("doctor.kernel_image.arch_empty")
    findings: list[Param] = []
    status: Status = "ok"
    fix: Message | None = None
    for g in view.gpus:
        if g.compute_capability is None:
            findings.append(M("doctor.kernel_image.cc_unknown", name=g.name))
            continue
        m = match_arch(g.compute_capability, t.arch_list)
        if m.sass:
            findings.append(M("doctor.kernel_image.sass", name=g.name, sm=g.sm or "?", sass=m.sass))
        elif m.ptx:
            findings.append(M("doctor.kernel_image.ptx", name=g.name, sm=g.sm or "?", ptx=m.ptx))
            status = _worse(status, "warn")
            fix = M("doctor.kernel_image.ptx_fix", sm=g.sm or "?", hint=CUDA_WHEEL_HINT)
        else:
            findings.append(M("doctor.kernel_image.none", name=g.name, sm=g.sm or "?",
                              arch_name=architecture_name(g.compute_capability), arch=arch))
            status = "fail"
            fix = (M("doctor.kernel_image.fix_cuda128", sm=g.sm or "?", hint=CUDA_WHEEL_HINT)
                   if g.compute_capability >= (10, 0) else M("doctor.kernel_image.fix_include", sm=g.sm or "?"))
    seen = joined(findings)
    if probe is None:
        if t.cuda_available:
            seen = M("doctor.kernel_image.not_run", seen=seen)
        return Check("kernel_image", status, _message(seen), fix)
    if probe.ok:
        # The kernel ran: whatever the arch list suggested, the stack works (PTX JIT stays a warning).
        return Check("kernel_image", "warn" if status == "warn" else "ok",
                     M("doctor.kernel_image.ran", seen=seen, device=probe.device or "GPU0",
                       seconds=round(probe.seconds, 1)), fix)
    if probe.no_kernel_image:
        return Check("kernel_image", "fail", M("doctor.kernel_image.no_image", seen=seen, error=NO_KERNEL_IMAGE),
                     fix or M("doctor.kernel_image.fix_generic", hint=CUDA_WHEEL_HINT))
    if probe.timed_out:
        return Check("kernel_image", "warn", M("doctor.kernel_image.timeout", seen=seen, error=probe.error or ""),
                     M("doctor.kernel_image.hang_fix"))
    return Check("kernel_image", "fail", M("doctor.kernel_image.failed", seen=seen, error=probe.error or ""),
                 fix or M("doctor.kernel_image.run_to_see"))


def check_wsl(view: EnvironmentView) -> Check:
    if not view.is_wsl:
        return Check("wsl", "skip", M("doctor.wsl.not_wsl"))
    if view.linux_libcuda:
        return Check("wsl", "fail", M("doctor.wsl.linux_libcuda", found=", ".join(view.linux_libcuda)),
                     M("doctor.wsl.linux_libcuda_fix"))
    if not view.has(WSL_LIBCUDA):
        return Check("wsl", "warn", M("doctor.wsl.missing", path=WSL_LIBCUDA), M("doctor.wsl.missing_fix"))
    return Check("wsl", "ok", M("doctor.wsl.ok", path=WSL_LIBCUDA))


def check_container(view: EnvironmentView) -> Check:
    if not view.in_container:
        return Check("container", "skip", M("doctor.container.not_in"))
    evidence = ", ".join(view.container_evidence)
    if view.gpus:
        return Check("container", "ok", M("doctor.container.passed_through", evidence=evidence))
    if view.gpu_present:
        return Check("container", "fail", M("doctor.container.not_passed", evidence=evidence),
                     M("doctor.container.not_passed_fix"))
    return Check("container", "ok", M("doctor.container.none", evidence=evidence), M("doctor.container.none_fix"))


_UUID = re.compile(r"(GPU|MIG)-[0-9a-fA-F-]+")


def check_cuda_visible_devices(view: EnvironmentView) -> Check:
    value = view.env.get("CUDA_VISIBLE_DEVICES")
    if value is None:
        return Check("cuda_visible_devices", "ok", M("doctor.cvd.unset"))
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
        return Check("cuda_visible_devices", "skip", M("doctor.cvd.no_gpu", seen=seen))
    fix = M("doctor.cvd.fix")
    if not visible:
        why = M("doctor.cvd.empty") if not entries else M("doctor.cvd.starts_with", bad=repr(bad))
        return Check("cuda_visible_devices", "fail", M("doctor.cvd.none_visible", seen=seen, why=why), fix)
    if bad is not None:
        return Check("cuda_visible_devices", "warn",
                     M("doctor.cvd.stops", seen=seen, bad=repr(bad), shown=",".join(visible)), fix)
    return Check("cuda_visible_devices", "ok", M("doctor.cvd.ok", seen=seen, n=len(visible)))


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
    """``"expandable_segments:True,max_split_size_mb:128"`` → (options, problems in English)."""
    options, problems = _parse_alloc_conf(value)
    return options, [p.render("en") for p in problems]


def _parse_alloc_conf(value: str) -> tuple[dict[str, str], list[Message]]:
    options: dict[str, str] = {}
    problems: list[Message] = []
    # roundup_power2_divisions takes a bracketed list with commas inside: split outside brackets only.
    for item in re.split(r",(?![^\[]*\])", value):
        item = item.strip()
        if not item:
            continue
        key, sep, val = item.partition(":")
        key = key.strip()
        if not sep:
            problems.append(M("doctor.alloc_conf.no_value", item=repr(item)))
        elif key not in ALLOC_CONF_KEYS:
            problems.append(M("doctor.alloc_conf.unknown", option=repr(key)))
        options[key] = val.strip()
    return options, problems


def check_alloc_conf(view: EnvironmentView) -> Check:
    settings = [(k, view.env[k]) for k in ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF") if k in view.env]
    if not settings:
        return Check("alloc_conf", "ok", M("doctor.alloc_conf.unset"))
    seen_parts: list[Param] = []
    problems: list[Param] = []
    for name, value in settings:
        options, trouble = _parse_alloc_conf(value)
        seen_parts.append(f"{name}={value!r}")
        problems.extend(M("doctor.alloc_conf.named", name=name, problem=p) for p in trouble)
        if options.get("backend") == "cudaMallocAsync":
            seen_parts.append(M("doctor.alloc_conf.async"))
    seen = joined(seen_parts, "doctor.space")
    if problems:
        known = ", ".join(sorted(ALLOC_CONF_KEYS)[:6]) + ", …"
        return Check("alloc_conf", "warn", M("doctor.alloc_conf.problems", seen=seen, problems=joined(problems)),
                     M("doctor.alloc_conf.fix", known=known))
    return Check("alloc_conf", "ok", M("doctor.alloc_conf.ok", seen=seen))


#: Memory held by other processes above which measurements are disturbed (and OOM comes sooner).
BUSY_MIB = 1024.0


def check_gpu_memory(view: EnvironmentView) -> Check:
    if not view.gpus:
        return Check("gpu_memory", "skip", M("doctor.gpu_memory.none"))
    findings: list[Param] = []
    status: Status = "ok"
    for g in view.gpus:
        total: Param = M("doctor.gpu_memory.of", gib=round(g.memory_total_mib / 1024, 1)) \
            if g.memory_total_mib else ""
        gpu = f"GPU{g.index}"
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
                findings.append(M("doctor.gpu_memory.others", gpu=gpu, n=len(others), held=round(held),
                                  total=total, who=who))
                if held >= BUSY_MIB:
                    status = "warn"
            else:
                used: Param = M("doctor.gpu_memory.driver_used", mib=round(g.memory_used_mib)) \
                    if g.memory_used_mib else ""
                findings.append(M("doctor.gpu_memory.no_other", gpu=gpu, used=used))
        elif g.memory_used_mib is not None:
            findings.append(M("doctor.gpu_memory.in_use", gpu=gpu, mib=round(g.memory_used_mib), total=total))
            if g.memory_total_mib and g.memory_used_mib > max(BUSY_MIB, 0.25 * g.memory_total_mib):
                status = "warn"
        else:
            findings.append(M("doctor.gpu_memory.unknown", gpu=gpu))
    seen = joined(findings)
    return Check("gpu_memory", status, _message(seen),
                 M("doctor.gpu_memory.close") if status == "warn" else None)


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
            results.append(Check(name, "warn", M("doctor.crashed", error=f"{type(exc).__name__}: {exc}"),
                                 M("doctor.crashed_fix")))
    return results
