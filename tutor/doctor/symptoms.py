"""The exact messages learners meet when the stack is broken, as data for the L2 diagnose exercises.

Each :class:`Symptom` has a stable ``id`` (exercises name it in YAML), the message as PyTorch / the driver / Docker
print it, its cause and fix in es and en, and the doctor check that detects it. :func:`match_symptom` finds the
symptom behind a pasted error.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Symptom:
    id: str
    message: str  # verbatim (placeholders like the GPU name filled with the course's RTX 5090 example)
    signature: str  # the part that identifies it inside a longer traceback (matched case-insensitively)
    cause: dict[str, str]
    fix: dict[str, str]
    check: str  # the doctor check id that diagnoses it


SYMPTOMS: dict[str, Symptom] = {
    s.id: s
    for s in (
        Symptom(
            id="no_kernel_image",
            message=(
                "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
                "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace "
                "below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1"
            ),
            signature="no kernel image is available for execution on the device",
            cause={
                "es": "El torch instalado no trae kernels para la capacidad de cómputo de esta GPU (p. ej. sm_120 "
                "de una RTX 5090 con una rueda cu126 o anterior).",
                "en": "The installed torch has no kernels for this GPU's compute capability (e.g. an RTX 5090's "
                "sm_120 with a cu126 or older wheel).",
            },
            fix={
                "es": "Instala un torch compilado con CUDA 12.8 o posterior: pip install torch --index-url "
                "https://download.pytorch.org/whl/cu128",
                "en": "Install a torch built with CUDA 12.8 or newer: pip install torch --index-url "
                "https://download.pytorch.org/whl/cu128",
            },
            check="kernel_image",
        ),
        Symptom(
            id="sm_incompatible_warning",
            message=(
                "UserWarning: NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the "
                "current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 "
                "sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\nIf you want to use the NVIDIA GeForce RTX 5090 GPU with "
                "PyTorch, please check the instructions at https://pytorch.org/get-started/locally/"
            ),
            signature="is not compatible with the current PyTorch installation",
            cause={
                "es": "Aviso previo al mismo fallo: la lista de arquitecturas de torch (torch.cuda.get_arch_list()) "
                "no incluye sm_120.",
                "en": "The warning before the same failure: torch's arch list (torch.cuda.get_arch_list()) does not "
                "include sm_120.",
            },
            fix={
                "es": "Igual que «no kernel image»: una rueda cu128 o posterior.",
                "en": 'Same as "no kernel image": a cu128 or newer wheel.',
            },
            check="kernel_image",
        ),
        Symptom(
            id="driver_too_old",
            message=(
                "RuntimeError: The NVIDIA driver on your system is too old (found version 12040). Please update "
                "your GPU driver by downloading and installing a new version from the URL: "
                "http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a "
                "PyTorch version that has been compiled with your version of the CUDA driver."
            ),
            signature="driver on your system is too old",
            cause={
                "es": "El driver (aquí uno que solo llega a CUDA 12.4, «12040») es más viejo de lo que exige el CUDA "
                "de torch; CUDA 12.8 necesita ≥ 570.26 en Linux y ≥ 570.65 en Windows/WSL2.",
                "en": 'The driver (here one that only reaches CUDA 12.4, "12040") is older than torch\'s CUDA '
                "needs; CUDA 12.8 needs ≥ 570.26 on Linux and ≥ 570.65 on Windows/WSL2.",
            },
            fix={
                "es": "Actualiza el driver de NVIDIA (en WSL2, el de Windows), o instala un torch para un CUDA más "
                "antiguo.",
                "en": "Update the NVIDIA driver (under WSL2, the Windows one), or install a torch for an older CUDA.",
            },
            check="driver",
        ),
        Symptom(
            id="cpu_wheel",
            message=(
                "torch.cuda.is_available() returns False and torch.__version__ ends in '+cpu' (e.g. 2.7.0+cpu); "
                "moving a tensor to the GPU raises: AssertionError: Torch not compiled with CUDA enabled"
            ),
            signature="torch not compiled with cuda enabled",
            cause={
                "es": "Se instaló la rueda de torch solo para CPU (p. ej. pip install torch desde el índice «cpu» o "
                "en Windows sin --index-url), aunque la máquina tiene GPU NVIDIA.",
                "en": "The CPU-only torch wheel was installed (e.g. from the 'cpu' index, or on Windows without "
                "--index-url) although the machine has an NVIDIA GPU.",
            },
            fix={
                "es": "pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu128",
                "en": "pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu128",
            },
            check="torch_build",
        ),
        Symptom(
            id="no_cuda_gpus",
            message="RuntimeError: No CUDA GPUs are available",
            signature="no cuda gpus are available",
            cause={
                "es": "Hay driver, pero CUDA no ve ninguna GPU: CUDA_VISIBLE_DEVICES vacío o inválido. (Un "
                "contenedor arrancado sin --gpus all no tiene driver dentro: torch dice «Found no NVIDIA driver».)",
                "en": "There is a driver, but CUDA sees no GPU: CUDA_VISIBLE_DEVICES empty or invalid. (A container "
                "started without --gpus all has no driver inside: torch says \"Found no NVIDIA driver\".)",
            },
            fix={
                "es": "Quita CUDA_VISIBLE_DEVICES (o ponle índices de GPU que existan, p. ej. 0).",
                "en": "Unset CUDA_VISIBLE_DEVICES (or give it GPU indices that exist, e.g. 0).",
            },
            check="cuda_visible_devices",
        ),
        Symptom(
            id="no_driver",
            message=(
                "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and "
                "installed a driver from http://www.nvidia.com/Download/index.aspx"
            ),
            signature="found no nvidia driver on your system",
            cause={
                "es": "No hay driver de NVIDIA cargado (o, en un contenedor, no se pasó la GPU).",
                "en": "No NVIDIA driver is loaded (or, in a container, the GPU was not passed through).",
            },
            fix={
                "es": "Instala el driver (en WSL2 solo el de Windows) y comprueba que nvidia-smi lista la GPU.",
                "en": "Install the driver (under WSL2 only the Windows one) and check that nvidia-smi lists the GPU.",
            },
            check="gpu",
        ),
        Symptom(
            id="nvidia_smi_no_driver",
            message=(
                "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the "
                "latest NVIDIA driver is installed and running."
            ),
            signature="couldn't communicate with the nvidia driver",
            cause={
                "es": "El módulo del kernel de NVIDIA no está cargado (p. ej. tras actualizar el kernel, o Secure "
                "Boot sin firmar el módulo).",
                "en": "The NVIDIA kernel module is not loaded (e.g. after a kernel update, or Secure Boot with an "
                "unsigned module).",
            },
            fix={
                "es": "Reinstala el driver para el kernel actual (o firma el módulo) y reinicia.",
                "en": "Reinstall the driver for the running kernel (or sign the module) and reboot.",
            },
            check="gpu",
        ),
        Symptom(
            id="container_no_gpu_runtime",
            message=(
                'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].'
            ),
            signature="could not select device driver",
            cause={
                "es": "Docker no tiene el NVIDIA Container Toolkit instalado o configurado.",
                "en": "Docker does not have the NVIDIA Container Toolkit installed or configured.",
            },
            fix={
                "es": "Instala nvidia-container-toolkit, ejecuta sudo nvidia-ctk runtime configure --runtime=docker "
                "y reinicia Docker.",
                "en": "Install nvidia-container-toolkit, run sudo nvidia-ctk runtime configure --runtime=docker and "
                "restart Docker.",
            },
            check="container",
        ),
        Symptom(
            id="cuda_oom_other_process",
            message=(
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                "capacity of 31.36 GiB of which 1.12 GiB is free. Process 4242 has 28.01 GiB memory in use."
            ),
            signature="cuda out of memory",
            cause={
                "es": "Otro proceso (otro notebook, un servidor de inferencia) ya ocupa la VRAM.",
                "en": "Another process (another notebook, an inference server) already holds the VRAM.",
            },
            fix={
                "es": "Cierra los procesos que lista nvidia-smi antes de medir.",
                "en": "Close the processes nvidia-smi lists before measuring.",
            },
            check="gpu_memory",
        ),
    )
}


def symptom(symptom_id: str) -> Symptom:
    """The symptom with this id (``KeyError`` naming the known ids otherwise)."""
    try:
        return SYMPTOMS[symptom_id]
    except KeyError:
        raise KeyError(f"unknown symptom {symptom_id!r}; known: {', '.join(SYMPTOMS)}") from None


def match_symptom(text: str) -> Symptom | None:
    """The symptom whose signature appears in ``text`` (an error message or a pasted traceback), if any."""
    lowered = text.lower()
    for s in SYMPTOMS.values():
        if s.signature.lower() in lowered:
            return s
    return None
