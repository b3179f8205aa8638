"""A simulated RTX 5090 for the doctor's tests: a healthy machine to break field by field, and the doctor screen's
app and a runner that diagnoses a broken stack (an old cu124 torch without the card's kernels)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from tutor.content import Course
from tutor.doctor import DoctorReport, EnvironmentView, GpuDevice, TorchFacts, run_doctor
from tutor.doctor.probe import KernelProbe
from tutor.doctor.report import LockMode
from tutor.i18n import Lang
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp, make_app

RTX_5090 = GpuDevice(
    index=0,
    name="NVIDIA GeForce RTX 5090",
    compute_capability=(12, 0),
    memory_total_mib=32607.0,
    memory_used_mib=450.0,
    processes=(),
)
CU128_ARCHS = ("sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120", "compute_120")
CU126_ARCHS = ("sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90")


def healthy_5090(**changes: Any) -> EnvironmentView:
    """A healthy RTX 5090 on Linux with a cu128 torch; ``changes`` replace fields to break it."""
    view = EnvironmentView(
        torch=TorchFacts(
            installed=True,
            version="2.7.0+cu128",
            cuda="12.8",
            cudnn=90701,
            arch_list=CU128_ARCHS,
            cuda_available=True,
            device_count=1,
        ),
        driver_version="570.133.07",
        cuda_driver_version=12080,
        gpus=(RTX_5090,),
        gpu_evidence=("/dev/nvidia0",),
        system="Linux",
        paths={"/dev/nvidia0": True, "/proc/driver/nvidia/version": True},
        kernel_probe=KernelProbe(ok=True, device="NVIDIA GeForce RTX 5090", capability=(12, 0), seconds=1.2),
        own_pid=1234,
    )
    return dataclasses.replace(view, **changes)


def torch_with(**changes: Any) -> TorchFacts:
    return dataclasses.replace(healthy_5090().torch, **changes)


def doctor_app(store: ProgressStore, lang: Lang = "en") -> TutorApp:
    """The tutor with an empty course; a test pushes the doctor screen over its map."""
    return make_app(course=Course(root=None), store=store, lang=lang, telemetry=None)


def broken_5090_runner(lock_path: Path):  # type: ignore[no-untyped-def]
    view = healthy_5090(
        torch=torch_with(version="2.5.1+cu124", cuda="12.4", arch_list=CU126_ARCHS),
        kernel_probe=KernelProbe(
            ok=False, error="RuntimeError: CUDA error: no kernel image is available for execution on the device"
        ),
    )

    def run(mode: LockMode) -> DoctorReport:
        return run_doctor(dataclasses.replace(view), lock_mode=mode, lock_path=lock_path)

    return run
