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
CPU_COURSE_NOTE_ES = (
    "Nada que arreglar para el camino de CPU: cada laboratorio y ejercicio mide con torch en la CPU, la telemetría "
    "muestra CPU y RAM, y C0 se obtiene como «C0 (CPU)». Necesitan GPU: la telemetría NVML, los tiempos con CUDA y "
    "las comprobaciones de sm_120."
)


@dataclass(frozen=True)
class Check:
    """One diagnosis: what was seen, and the fix in one or two lines (empty when there is nothing to do).

    ``seen``/``fix`` are English (the CLI report and the JSON); ``seen_es``/``fix_es`` are the same in Spanish for
    the TUI, with the same figures, paths and commands. Read them through :meth:`seen_in` / :meth:`fix_in`, which
    fall back to English where no Spanish was given.
    """

    id: str
    status: Status
    seen: str
    fix: str = ""
    seen_es: str = ""
    fix_es: str = ""

    def seen_in(self, lang: str) -> str:
        return (self.seen_es or self.seen) if lang == "es" else self.seen

    def fix_in(self, lang: str) -> str:
        return (self.fix_es or self.fix) if lang == "es" else self.fix

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "status": self.status, "seen": self.seen, "fix": self.fix}


CheckFn = Callable[[EnvironmentView], Check]


def _gpu_names(view: EnvironmentView, lang: str = "en") -> str:
    if view.gpus:
        return ", ".join(g.name + (f" ({g.sm})" if g.sm else "") for g in view.gpus)
    evidence = "; ".join(view.gpu_evidence)
    return f"una GPU NVIDIA ({evidence})" if lang == "es" else f"an NVIDIA GPU ({evidence})"


def check_torch(view: EnvironmentView) -> Check:
    t = view.torch
    if not t.installed:
        return Check(
            "torch",
            "fail",
            f"torch cannot be imported ({t.import_error or 'not installed'})",
            "Install it into this environment: pip install torch (add --index-url "
            "https://download.pytorch.org/whl/cu128 for an NVIDIA GPU).",
            seen_es=f"no se puede importar torch ({t.import_error or 'no está instalado'})",
            fix_es="Instálalo en este entorno: pip install torch (añade --index-url "
            "https://download.pytorch.org/whl/cu128 para una GPU NVIDIA).",
        )
    if t.hip:
        build, build_es = f"ROCm {t.hip} build", f"compilación ROCm {t.hip}"
    elif t.cuda:
        cudnn = f", cuDNN {t.cudnn}" if t.cudnn else ""
        build, build_es = f"CUDA {t.cuda} build{cudnn}", f"compilación CUDA {t.cuda}{cudnn}"
    else:
        build, build_es = "CPU-only build (no CUDA)", "compilación solo para CPU (sin CUDA)"
    seen = f"torch {t.version}, {build}; torch.cuda.is_available() = {t.cuda_available}"
    seen_es = f"torch {t.version}, {build_es}; torch.cuda.is_available() = {t.cuda_available}"
    if t.cuda_available:
        plural = "s" if t.device_count != 1 else ""
        seen += f" ({t.device_count} device{plural})"
        seen_es += f" ({t.device_count} dispositivo{plural})"
    return Check("torch", "ok", seen, seen_es=seen_es)


def check_gpu(view: EnvironmentView) -> Check:
    if view.gpus:
        details, details_es = [], []
        for g in view.gpus:
            cc = cc_es = arch = ""
            if g.compute_capability:
                major, minor = g.compute_capability
                cc, cc_es = f"compute capability {major}.{minor}, ", f"capacidad de cómputo {major}.{minor}, "
                arch = f"{architecture_name(g.compute_capability)}, "
            mem = f"{g.memory_total_mib / 1024:.0f} GiB" if g.memory_total_mib else ""
            details.append(f"GPU{g.index} {g.name} ({cc}{arch}{mem or 'memory unknown'}; via {g.source})")
            details_es.append(f"GPU{g.index} {g.name} ({cc_es}{arch}{mem or 'memoria desconocida'}; vía {g.source})")
        driver = f"; driver {view.driver_version}" if view.driver_version else ""
        return Check("gpu", "ok", "; ".join(details) + driver, seen_es="; ".join(details_es) + driver)
    evidence = "; ".join(view.gpu_evidence)
    if view.gpu_evidence:
        return Check(
            "gpu",
            "fail",
            f"an NVIDIA GPU is here ({evidence}) but NVML cannot talk to it "
            f"({view.nvml_error or 'NVML found no devices'})",
            "Install or load the NVIDIA driver (Linux: the distribution's nvidia-driver package, then reboot; "
            "WSL2: install the Windows driver only) and check that nvidia-smi lists the GPU.",
            seen_es=f"hay una GPU NVIDIA ({evidence}) pero NVML no consigue hablar con ella "
            f"({view.nvml_error or 'NVML no encontró dispositivos'})",
            fix_es="Instala o carga el driver de NVIDIA (Linux: el paquete nvidia-driver de la distribución y "
            "reinicia; WSL2: instala solo el driver de Windows) y comprueba que nvidia-smi muestra la GPU.",
        )
    looked = [f"NVML: {view.nvml_error or 'no devices'}", "no /proc/driver/nvidia", "no /dev/nvidia0"]
    looked.append("no NVIDIA device on the PCI bus")
    looked.append(f"nvidia-smi: {view.nvidia_smi_error or 'present'}" if view.nvidia_smi else "no nvidia-smi")
    looked_es = [
        f"NVML: {view.nvml_error or 'sin dispositivos'}",
        "no existe /proc/driver/nvidia",
        "no existe /dev/nvidia0",
        "ningún dispositivo NVIDIA en el bus PCI",
        f"nvidia-smi: {view.nvidia_smi_error or 'presente'}" if view.nvidia_smi else "no hay nvidia-smi",
    ]
    return Check(
        "gpu",
        "warn",
        "no NVIDIA GPU on this machine (" + "; ".join(looked) + ")",
        CPU_COURSE_NOTE,
        seen_es="no hay GPU NVIDIA en esta máquina (" + "; ".join(looked_es) + ")",
        fix_es=CPU_COURSE_NOTE_ES,
    )


def check_torch_build(view: EnvironmentView) -> Check:
    """The CPU-only wheel on a machine that has an NVIDIA GPU — typical failure number one."""
    t = view.torch
    if not t.installed:
        return Check("torch_build", "skip", "torch is not installed", seen_es="torch no está instalado")
    if t.is_cpu_build:
        if view.gpu_present:
            return Check(
                "torch_build",
                "fail",
                f"torch {t.version} is a CPU-only wheel, but this machine has {_gpu_names(view)}: "
                "torch.cuda.is_available() is False and every number would come from the CPU",
                f"Replace it with a CUDA build: {CUDA_WHEEL_HINT} (CUDA 12.8+ for RTX 50-series).",
                seen_es=f"torch {t.version} es una rueda de torch solo para CPU, pero esta máquina tiene "
                f"{_gpu_names(view, 'es')}: torch.cuda.is_available() es False y todas las cifras saldrían de la CPU",
                fix_es=f"Cámbiala por una compilación con CUDA: {CUDA_WHEEL_HINT} (CUDA 12.8+ para la serie RTX 50).",
            )
        return Check(
            "torch_build",
            "ok",
            f"torch {t.version} is a CPU build, the right one for a machine without a GPU",
            seen_es=f"torch {t.version} es una compilación para CPU, la adecuada para una máquina sin GPU",
        )
    if t.hip:
        return Check(
            "torch_build",
            "warn",
            f"torch {t.version} is a ROCm build; this course targets NVIDIA CUDA",
            f"For an NVIDIA GPU install a CUDA build: {CUDA_WHEEL_HINT}",
            seen_es=f"torch {t.version} es una compilación ROCm; este curso está pensado para CUDA de NVIDIA",
            fix_es=f"Para una GPU NVIDIA instala una compilación con CUDA: {CUDA_WHEEL_HINT}",
        )
    return Check(
        "torch_build",
        "ok",
        f"torch {t.version} is built for CUDA {t.cuda}",
        seen_es=f"torch {t.version} está compilado para CUDA {t.cuda}",
    )


def check_driver(view: EnvironmentView) -> Check:
    """The driver too old for torch's CUDA — typical failure number two."""
    t = view.torch
    if not view.gpu_present:
        return Check(
            "driver",
            "skip",
            "no NVIDIA GPU, so no driver to check",
            seen_es="no hay GPU NVIDIA, así que no hay driver que revisar",
        )
    if view.driver_version is None:
        nvml = f" ({view.nvml_error})" if view.nvml_error else ""
        return Check(
            "driver",
            "fail" if not view.gpus else "warn",
            "the NVIDIA driver version could not be read" + nvml,
            "Install the NVIDIA driver and check that nvidia-smi runs.",
            seen_es="no se pudo leer la versión del driver de NVIDIA" + nvml,
            fix_es="Instala el driver de NVIDIA y comprueba que nvidia-smi funciona.",
        )
    supports = supports_es = ""
    if view.cuda_driver_version:
        supports = f", which supports CUDA up to {cuda_version_text(view.cuda_driver_version)}"
        supports_es = f", que admite CUDA hasta la {cuda_version_text(view.cuda_driver_version)}"
    where = "Windows (WSL2)" if view.is_wsl else ("Windows" if view.system == "Windows" else "Linux")
    seen = f"driver {view.driver_version} ({where}){supports}"
    seen_es = f"driver {view.driver_version} ({where}){supports_es}"
    blackwell = [g for g in view.gpus if g.compute_capability and g.compute_capability[0] in (10, 11, 12)]
    if blackwell and not driver_at_least(view.driver_version, BLACKWELL_MIN_DRIVER):
        minimum = minimum_for("12.8", windows=view.is_windows_driver)
        return Check(
            "driver",
            "fail",
            f"{seen}; {blackwell[0].name} needs the R{BLACKWELL_MIN_DRIVER} branch or newer",
            f"Install driver ≥ {minimum} (R570+; the open kernel modules on Linux).",
            seen_es=f"{seen_es}; la {blackwell[0].name} necesita la rama R{BLACKWELL_MIN_DRIVER} o posterior",
            fix_es=f"Instala un driver ≥ {minimum} (R570+; en Linux, los módulos de kernel abiertos).",
        )
    if not t.installed or t.cuda is None:
        return Check(
            "driver",
            "ok",
            seen + "; torch has no CUDA build to compare it with",
            seen_es=seen_es + "; torch no es una compilación CUDA con la que compararlo",
        )
    needed = minimum_for(t.cuda, windows=view.is_windows_driver)
    if needed is None:
        return Check(
            "driver",
            "warn",
            f"{seen}; no minimum on record for CUDA {t.cuda}",
            "Check NVIDIA's CUDA release notes for the driver this CUDA needs.",
            seen_es=f"{seen_es}; no hay un mínimo registrado para CUDA {t.cuda}",
            fix_es="Consulta en las notas de versión de CUDA de NVIDIA qué driver necesita este CUDA.",
        )
    if driver_at_least(view.driver_version, needed):
        return Check(
            "driver",
            "ok",
            f"{seen}; torch's CUDA {t.cuda} needs ≥ {needed}",
            seen_es=f"{seen_es}; CUDA {t.cuda} de torch necesita ≥ {needed}",
        )
    older = f"--index-url https://download.pytorch.org/whl/cu{_cu_tag(view)}"
    fix = (
        f"Update the NVIDIA driver to ≥ {needed}"
        + (" on Windows (WSL2 uses the Windows driver; install nothing inside WSL)" if view.is_wsl else "")
        + f", or install a torch built for an older CUDA (e.g. {older})."
    )
    fix_es = (
        f"Actualiza el driver de NVIDIA a ≥ {needed}"
        + (" en Windows (WSL2 usa el driver de Windows; no instales nada dentro de WSL)" if view.is_wsl else "")
        + f", o instala un torch compilado para un CUDA más antiguo (p. ej. {older})."
    )
    compat = minor_compat_minimum(t.cuda, windows=view.is_windows_driver)
    if compat and driver_at_least(view.driver_version, compat):
        return Check(
            "driver",
            "warn",
            f"{seen}; torch's CUDA {t.cuda} wants ≥ {needed} and runs on this one only through minor "
            "version compatibility (no PTX JIT)",
            fix,
            seen_es=f"{seen_es}; CUDA {t.cuda} de torch pide ≥ {needed} y con este driver solo funciona gracias a "
            "la compatibilidad de versión menor (sin JIT de PTX)",
            fix_es=fix_es,
        )
    return Check(
        "driver",
        "fail",
        f"{seen}; torch's CUDA {t.cuda} needs ≥ {needed} — torch reports \"The NVIDIA driver on your "
        'system is too old"',
        fix,
        seen_es=f"{seen_es}; driver demasiado antiguo para CUDA {t.cuda} de torch, que necesita ≥ {needed} — torch "
        'avisa "The NVIDIA driver on your system is too old"',
        fix_es=fix_es,
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
        return Check(
            "cuda_available",
            "skip",
            "no NVIDIA GPU: torch runs on the CPU",
            seen_es="no hay GPU NVIDIA: torch funciona en la CPU",
        )
    if not t.installed or t.is_cpu_build:
        return Check(
            "cuda_available",
            "skip",
            "torch has no CUDA build (see torch_build)",
            seen_es="torch no es una compilación CUDA (ver torch_build)",
        )
    if t.cuda_available:
        return Check(
            "cuda_available",
            "ok",
            f"torch.cuda.is_available() = True, {t.device_count} device(s)",
            seen_es=f"torch.cuda.is_available() = True, {t.device_count} dispositivo(s)",
        )
    reasons, reasons_es = [], []
    cvd = view.env.get("CUDA_VISIBLE_DEVICES")
    if cvd is not None:
        reasons.append(f"CUDA_VISIBLE_DEVICES={cvd!r}")
        reasons_es.append(f"CUDA_VISIBLE_DEVICES={cvd!r}")
    if view.in_container and not view.has("/dev/nvidia0") and not view.is_wsl:
        reasons.append("this container has no /dev/nvidia0")
        reasons_es.append("este contenedor no tiene /dev/nvidia0")
    if view.nvml_error:
        reasons.append(view.nvml_error)
        reasons_es.append(view.nvml_error)
    return Check(
        "cuda_available",
        "fail",
        "torch is a CUDA build but torch.cuda.is_available() = False" + (f" ({'; '.join(reasons)})" if reasons else ""),
        'Look at the driver, cuda_visible_devices and container checks; python -c "import torch; '
        'torch.cuda.init()" prints the underlying CUDA error.',
        seen_es="torch es una compilación CUDA pero torch.cuda.is_available() = False"
        + (f" ({'; '.join(reasons_es)})" if reasons_es else ""),
        fix_es='Mira las comprobaciones driver, cuda_visible_devices y container; python -c "import torch; '
        'torch.cuda.init()" muestra el error de CUDA de fondo.',
    )


def check_kernel_image(view: EnvironmentView) -> Check:
    """Torch built without kernels for this GPU (sm_120 on cu126 and older) — typical failure number three."""
    t = view.torch
    probe = view.kernel_probe
    if not t.installed or t.is_cpu_build or not view.gpus:
        return Check(
            "kernel_image",
            "skip",
            "no CUDA build of torch and NVIDIA GPU to match",
            seen_es="no hay a la vez un torch con CUDA y una GPU NVIDIA que comparar",
        )
    arch = " ".join(t.arch_list) or "empty"
    arch_es = " ".join(t.arch_list) or "vacía"
    findings: list[str] = []
    findings_es: list[str] = []
    status: Status = "ok"
    fix = fix_es = ""
    for g in view.gpus:
        if g.compute_capability is None:
            findings.append(f"{g.name}: compute capability unknown")
            findings_es.append(f"{g.name}: capacidad de cómputo desconocida")
            continue
        m = match_arch(g.compute_capability, t.arch_list)
        if m.sass:
            findings.append(f"{g.name} is {g.sm}; torch has {m.sass}")
            findings_es.append(f"{g.name} es {g.sm}; torch trae {m.sass}")
        elif m.ptx:
            findings.append(
                f"{g.name} is {g.sm}; torch has no {g.sm} machine code, only PTX {m.ptx} (JIT-compiled "
                "on first launch: slow start, and below peak)"
            )
            findings_es.append(
                f"{g.name} es {g.sm}; torch no trae código máquina para {g.sm}, solo PTX {m.ptx} (se compila con "
                "JIT en el primer lanzamiento: arranque lento y por debajo del pico)"
            )
            status = _worse(status, "warn")
            fix = f"Install a torch build with {g.sm} kernels: {CUDA_WHEEL_HINT}"
            fix_es = f"Instala una compilación de torch con kernels para {g.sm}: {CUDA_WHEEL_HINT}"
        else:
            findings.append(
                f"{g.name} is {g.sm}, {architecture_name(g.compute_capability)}; torch's arch list "
                f"[{arch}] has nothing that runs on it"
            )
            findings_es.append(
                f"{g.name} es {g.sm}, {architecture_name(g.compute_capability)}; no hay imagen de kernel para "
                f"{g.sm}: en la lista de arquitecturas de torch [{arch_es}] no hay nada que corra en ella"
            )
            status = "fail"
            if g.compute_capability >= (10, 0):
                fix = f"Install a torch built for CUDA 12.8 or newer, whose wheels include {g.sm}: {CUDA_WHEEL_HINT}"
                fix_es = (
                    f"Instala un torch compilado para CUDA 12.8 o posterior, cuyas ruedas incluyen {g.sm}: "
                    f"{CUDA_WHEEL_HINT}"
                )
            else:
                fix = f"Install a torch build that includes {g.sm}."
                fix_es = f"Instala una compilación de torch que incluya {g.sm}."
    seen = "; ".join(findings)
    seen_es = "; ".join(findings_es)
    if probe is None:
        if t.cuda_available:
            seen += "; tiny kernel not run"
            seen_es += "; el kernel de prueba no se lanzó"
        return Check("kernel_image", status, seen, fix, seen_es=seen_es, fix_es=fix_es)
    if probe.ok:
        # The kernel ran: whatever the arch list suggested, the stack works (PTX JIT stays a warning).
        device = probe.device or "GPU0"
        return Check(
            "kernel_image",
            "warn" if status == "warn" else "ok",
            f"{seen}; a tiny kernel ran on {device} in {probe.seconds:.1f} s",
            fix,
            seen_es=f"{seen_es}; un kernel de prueba se ejecutó en {device} en {probe.seconds:.1f} s",
            fix_es=fix_es,
        )
    if probe.no_kernel_image:
        return Check(
            "kernel_image",
            "fail",
            f'{seen}; the tiny kernel failed: "CUDA error: {NO_KERNEL_IMAGE}"',
            fix or f"Install a torch build with kernels for this GPU: {CUDA_WHEEL_HINT}",
            seen_es=f'{seen_es}; el kernel de prueba falló: "CUDA error: {NO_KERNEL_IMAGE}"',
            fix_es=fix_es or f"Instala una compilación de torch con kernels para esta GPU: {CUDA_WHEEL_HINT}",
        )
    if probe.timed_out:
        return Check(
            "kernel_image",
            "warn",
            f"{seen}; {probe.error}",
            "Something hangs in CUDA initialisation: check nvidia-smi and dmesg for Xid errors.",
            seen_es=f"{seen_es}; el kernel de prueba no terminó a tiempo ({probe.error})",
            fix_es="Algo se cuelga al inicializar CUDA: revisa nvidia-smi y dmesg por si hay errores Xid.",
        )
    return Check(
        "kernel_image",
        "fail",
        f"{seen}; the tiny kernel failed: {probe.error}",
        fix or "Run python -c \"import torch; torch.ones(1, device='cuda')\" to see the full error.",
        seen_es=f"{seen_es}; el kernel de prueba falló: {probe.error}",
        fix_es=fix_es or "Ejecuta python -c \"import torch; torch.ones(1, device='cuda')\" para ver el error completo.",
    )


def check_wsl(view: EnvironmentView) -> Check:
    if not view.is_wsl:
        return Check("wsl", "skip", "not WSL2", seen_es="no es WSL2")
    seen = "WSL2"
    if view.linux_libcuda:
        found = ", ".join(view.linux_libcuda)
        return Check(
            "wsl",
            "fail",
            f"{seen}, but a Linux driver's libcuda is installed inside WSL ({found}); it shadows the Windows driver's",
            "Remove the Linux NVIDIA driver from WSL (e.g. sudo apt remove --purge 'nvidia-driver-*' "
            "'libnvidia-compute-*'); WSL2 needs only the Windows driver.",
            seen_es=f"{seen}, pero dentro de WSL hay instalada la libcuda de un driver de Linux ({found}), que tapa "
            "la del driver de Windows",
            fix_es="Quita de WSL el driver NVIDIA de Linux (p. ej. sudo apt remove --purge 'nvidia-driver-*' "
            "'libnvidia-compute-*'); WSL2 solo necesita el driver de Windows.",
        )
    if not view.has(WSL_LIBCUDA):
        return Check(
            "wsl",
            "warn",
            f"{seen}, but {WSL_LIBCUDA} is missing: the Windows NVIDIA driver does not expose CUDA to WSL",
            "Install the current NVIDIA driver on Windows (not inside WSL), then wsl --shutdown and reopen.",
            seen_es=f"{seen}, pero falta {WSL_LIBCUDA}: el driver NVIDIA de Windows no ofrece CUDA a WSL",
            fix_es="Instala el driver NVIDIA actual en Windows (no dentro de WSL); luego wsl --shutdown y vuelve a "
            "abrir WSL.",
        )
    return Check(
        "wsl",
        "ok",
        f"{seen}; CUDA comes from the Windows driver ({WSL_LIBCUDA}); no Linux driver inside "
        "WSL, as it should be (NVML cannot list GPU processes under WSL2)",
        seen_es=f"{seen}; CUDA viene del driver de Windows ({WSL_LIBCUDA}); no hay driver de Linux dentro de WSL, "
        "como debe ser (en WSL2 NVML no puede listar los procesos de la GPU)",
    )


def check_container(view: EnvironmentView) -> Check:
    if not view.in_container:
        return Check("container", "skip", "not in a container", seen_es="no está en un contenedor")
    evidence = ", ".join(view.container_evidence)
    seen, seen_es = f"in a container ({evidence})", f"dentro de un contenedor ({evidence})"
    if view.gpus:
        return Check(
            "container",
            "ok",
            f"{seen}; the GPU is passed through (NVIDIA Container Toolkit)",
            seen_es=f"{seen_es}; la GPU llega al contenedor (NVIDIA Container Toolkit)",
        )
    if view.gpu_present:
        return Check(
            "container",
            "fail",
            f"{seen}; the host's GPU is not passed through (no /dev/nvidia0 usable)",
            "Start the container with --gpus all (Docker with the NVIDIA Container Toolkit installed; "
            "Podman: --device nvidia.com/gpu=all).",
            seen_es=f"{seen_es}; la GPU del anfitrión no llega al contenedor (no hay un /dev/nvidia0 utilizable)",
            fix_es="Arranca el contenedor con --gpus all (Docker con el NVIDIA Container Toolkit instalado; "
            "Podman: --device nvidia.com/gpu=all).",
        )
    return Check(
        "container",
        "ok",
        f"{seen}; no GPU passed in, and none on the host as far as can be seen",
        "If the host does have an NVIDIA GPU: install the NVIDIA Container Toolkit there and run the "
        "container with --gpus all.",
        seen_es=f"{seen_es}; no se le pasó ninguna GPU y, por lo que se ve, el anfitrión tampoco tiene",
        fix_es="Si el anfitrión sí tiene una GPU NVIDIA: instala allí el NVIDIA Container Toolkit y arranca el "
        "contenedor con --gpus all.",
    )


_UUID = re.compile(r"(GPU|MIG)-[0-9a-fA-F-]+")


def check_cuda_visible_devices(view: EnvironmentView) -> Check:
    value = view.env.get("CUDA_VISIBLE_DEVICES")
    if value is None:
        return Check(
            "cuda_visible_devices",
            "ok",
            "CUDA_VISIBLE_DEVICES is not set: every GPU is visible",
            seen_es="CUDA_VISIBLE_DEVICES no está definida: todas las GPU son visibles",
        )
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
        return Check(
            "cuda_visible_devices",
            "skip",
            f"{seen}; no NVIDIA GPU here anyway",
            seen_es=f"{seen}; de todos modos aquí no hay GPU NVIDIA",
        )
    fix = "Unset CUDA_VISIBLE_DEVICES, or set it to GPU indices that exist (e.g. 0)."
    fix_es = "Quita CUDA_VISIBLE_DEVICES (unset CUDA_VISIBLE_DEVICES) o dale índices de GPU que existan (p. ej. 0)."
    if not visible:
        if not entries:
            why, why_es = "is empty", "está vacía"
        else:
            why = f"starts with {bad!r}, which is not a GPU index or UUID"
            why_es = f"empieza por {bad!r}, que no es un índice ni un UUID de GPU"
        return Check(
            "cuda_visible_devices",
            "fail",
            f'{seen} {why}: CUDA sees no GPU (torch: "No CUDA GPUs are available")',
            fix,
            seen_es=f'{seen} {why_es}: CUDA no ve ninguna GPU (torch: "No CUDA GPUs are available")',
            fix_es=fix_es,
        )
    if bad is not None:
        shown = ",".join(visible)
        return Check(
            "cuda_visible_devices",
            "warn",
            f"{seen}: CUDA stops at {bad!r}, so only {shown} is visible",
            fix,
            seen_es=f"{seen}: CUDA se detiene en {bad!r}, así que solo se ve {shown}",
            fix_es=fix_es,
        )
    return Check(
        "cuda_visible_devices",
        "ok",
        f"{seen}: CUDA sees {len(visible)} GPU(s)",
        seen_es=f"{seen}: CUDA ve {len(visible)} GPU",
    )


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
    options, problems = _parse_alloc_conf(value)
    return options, [en for en, _es in problems]


def _parse_alloc_conf(value: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    options: dict[str, str] = {}
    problems: list[tuple[str, str]] = []
    # roundup_power2_divisions takes a bracketed list with commas inside: split outside brackets only.
    for item in re.split(r",(?![^\[]*\])", value):
        item = item.strip()
        if not item:
            continue
        key, sep, val = item.partition(":")
        key = key.strip()
        if not sep:
            problems.append((f"{item!r} has no ':value'", f"a {item!r} le falta ':value'"))
        elif key not in ALLOC_CONF_KEYS:
            problems.append((f"unknown option {key!r}", f"opción desconocida {key!r}"))
        options[key] = val.strip()
    return options, problems


def check_alloc_conf(view: EnvironmentView) -> Check:
    settings = [(k, view.env[k]) for k in ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF") if k in view.env]
    if not settings:
        return Check(
            "alloc_conf",
            "ok",
            "PYTORCH_CUDA_ALLOC_CONF is not set: the caching allocator's defaults",
            seen_es="PYTORCH_CUDA_ALLOC_CONF no está definida: el asignador con caché usa sus valores por defecto",
        )
    seen_parts: list[str] = []
    seen_parts_es: list[str] = []
    problems: list[str] = []
    problems_es: list[str] = []
    for name, value in settings:
        options, trouble = _parse_alloc_conf(value)
        seen_parts.append(f"{name}={value!r}")
        seen_parts_es.append(f"{name}={value!r}")
        problems.extend(f"{name}: {en}" for en, _es in trouble)
        problems_es.extend(f"{name}: {es}" for _en, es in trouble)
        if options.get("backend") == "cudaMallocAsync":
            seen_parts.append("(cudaMallocAsync backend: memory_allocated figures differ from the native allocator)")
            seen_parts_es.append(
                "(backend cudaMallocAsync: las cifras de memory_allocated no coinciden con las del asignador nativo)"
            )
    seen = " ".join(seen_parts)
    seen_es = " ".join(seen_parts_es)
    if problems:
        known = ", ".join(sorted(ALLOC_CONF_KEYS)[:6]) + ", …"
        return Check(
            "alloc_conf",
            "warn",
            f"{seen}; {'; '.join(problems)} — torch refuses unknown options when CUDA starts",
            "Fix or remove the entry; known options: " + known,
            seen_es=f"{seen_es}; {'; '.join(problems_es)} — torch rechaza las opciones desconocidas al arrancar CUDA",
            fix_es="Corrige o quita esa entrada; opciones conocidas: " + known,
        )
    return Check(
        "alloc_conf",
        "ok",
        seen + " (VRAM figures in the course are measured with these settings)",
        seen_es=seen_es + " (las cifras de VRAM del curso se miden con estos ajustes)",
    )


#: Memory held by other processes above which measurements are disturbed (and OOM comes sooner).
BUSY_MIB = 1024.0


def check_gpu_memory(view: EnvironmentView) -> Check:
    if not view.gpus:
        return Check("gpu_memory", "skip", "no GPU memory to check", seen_es="no hay memoria de GPU que revisar")
    findings: list[str] = []
    findings_es: list[str] = []
    status: Status = "ok"
    for g in view.gpus:
        gib = f"{g.memory_total_mib / 1024:.1f} GiB" if g.memory_total_mib else ""
        total, total_es = (f" of {gib}", f" de {gib}") if gib else ("", "")
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
                findings_es.append(
                    f"GPU{g.index}: otros {len(others)} proceso(s) ocupan {held:.0f} MiB{total_es}: {who}"
                )
                if held >= BUSY_MIB:
                    status = "warn"
            else:
                used = used_es = ""
                if g.memory_used_mib:
                    used = f" ({g.memory_used_mib:.0f} MiB used by the driver/display)"
                    used_es = f" ({g.memory_used_mib:.0f} MiB en uso por el driver/la pantalla)"
                findings.append(f"GPU{g.index}: no other compute process{used}")
                findings_es.append(f"GPU{g.index}: ningún otro proceso de cómputo{used_es}")
        elif g.memory_used_mib is not None:
            findings.append(f"GPU{g.index}: {g.memory_used_mib:.0f} MiB in use{total} (processes not listable here)")
            findings_es.append(
                f"GPU{g.index}: {g.memory_used_mib:.0f} MiB en uso{total_es} (aquí no se pueden listar los procesos)"
            )
            if g.memory_total_mib and g.memory_used_mib > max(BUSY_MIB, 0.25 * g.memory_total_mib):
                status = "warn"
        else:
            findings.append(f"GPU{g.index}: memory use unknown")
            findings_es.append(f"GPU{g.index}: uso de memoria desconocido")
    busy = status == "warn"
    fix = (
        (
            "Close the other programs using the GPU (nvidia-smi lists them) before measuring: they take VRAM and "
            "bandwidth."
        )
        if busy
        else ""
    )
    fix_es = (
        "Cierra los otros programas que usan la GPU (nvidia-smi los lista) antes de medir: ocupan VRAM y ancho de "
        "banda."
        if busy
        else ""
    )
    return Check("gpu_memory", status, "; ".join(findings), fix, seen_es="; ".join(findings_es), fix_es=fix_es)


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
                    seen_es=f"esta comprobación se ha roto: {type(exc).__name__}: {exc}",
                    fix_es="Por favor, avisa del error; las demás comprobaciones no se ven afectadas.",
                )
            )
    return results
