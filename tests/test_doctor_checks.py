"""Each diagnosis against a simulated machine: a fake EnvironmentView, no CUDA anywhere."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.support.doctor import CU126_ARCHS, RTX_5090, healthy_5090, torch_with
from tutor.doctor import EnvironmentView, GpuProcess, TorchFacts, run_checks, run_doctor
from tutor.doctor.drivers import driver_at_least, match_arch, minimum_for
from tutor.doctor.probe import KernelProbe, parse_probe_output, run_kernel_probe
from tutor.doctor.symptoms import SYMPTOMS, match_symptom, symptom


def by_id(view: EnvironmentView) -> dict[str, Any]:
    return {c.id: c for c in run_checks(view)}


def test_healthy_5090_passes_every_check() -> None:
    checks = by_id(healthy_5090())
    assert {c.status for c in checks.values()} <= {"ok", "skip"}, checks
    assert "sm_120" in checks["kernel_image"].seen
    assert checks["gpu"].status == "ok" and "RTX 5090" in checks["gpu"].seen
    report = run_doctor(healthy_5090(), lock_mode="off")
    assert report.passed and report.exit_code == 0
    assert report.fingerprint.device_kind == "cuda"


def test_cpu_wheel_with_a_gpu_present_fails() -> None:
    view = healthy_5090(
        torch=TorchFacts(installed=True, version="2.7.0+cpu", cuda=None, cuda_available=False), kernel_probe=None
    )
    checks = by_id(view)
    assert checks["torch_build"].status == "fail"
    assert "CPU-only" in checks["torch_build"].seen and "RTX 5090" in checks["torch_build"].seen
    assert "download.pytorch.org/whl/cu128" in checks["torch_build"].fix
    assert checks["kernel_image"].status == "skip"
    assert run_doctor(view, lock_mode="off").exit_code == 1


def test_cpu_wheel_is_detected_even_when_nvml_is_missing() -> None:
    """The GPU is found without torch and without NVML: the PCI bus alone is enough."""
    view = healthy_5090(
        torch=TorchFacts(installed=True, version="2.7.0+cpu"),
        gpus=(),
        gpu_evidence=("PCI 0000:01:00.0 NVIDIA device 10de:2b85",),
        nvml_error="NVMLError_LibraryNotFound: NVML Shared Library Not Found",
        driver_version=None,
        kernel_probe=None,
    )
    checks = by_id(view)
    assert checks["torch_build"].status == "fail"
    assert checks["gpu"].status == "fail" and "driver" in checks["gpu"].fix


def test_old_driver_for_cuda_12_8_fails_with_the_minimum() -> None:
    view = healthy_5090(
        gpus=(dataclasses.replace(RTX_5090, name="NVIDIA GeForce RTX 4090", compute_capability=(8, 9)),),
        driver_version="550.54.14",
        cuda_driver_version=12040,
    )
    check = by_id(view)["driver"]
    assert check.status == "warn"  # 550 runs CUDA 12.8 only through minor-version compatibility
    assert "570.26" in check.seen and "12.4" in check.seen

    older = by_id(dataclasses.replace(view, driver_version="470.82.01", cuda_driver_version=11040))["driver"]
    assert older.status == "fail"
    assert "too old" in older.seen and "570.26" in older.fix


def test_windows_and_wsl_use_the_windows_driver_minimum() -> None:
    assert minimum_for("12.8", windows=False) == "570.26"
    assert minimum_for("12.8", windows=True) == "570.65"
    wsl = healthy_5090(driver_version="570.50", proc_version="Linux version 5.15.167.4-microsoft-standard-WSL2")
    check = by_id(wsl)["driver"]
    assert check.status != "ok" and "570.65" in check.seen  # 570.50 is fine on Linux, not on Windows


def test_blackwell_needs_the_r570_branch() -> None:
    view = healthy_5090(
        torch=torch_with(version="2.5.1+cu121", cuda="12.1"), driver_version="560.35.03", cuda_driver_version=12060
    )
    check = by_id(view)["driver"]
    assert check.status == "fail" and "R570" in check.seen


def test_arch_list_without_sm_120_is_no_kernel_image() -> None:
    probe = KernelProbe(
        ok=False,
        error="RuntimeError: CUDA error: no kernel image is available for execution on the device",
        warnings=("NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible ...",),
    )
    view = healthy_5090(torch=torch_with(version="2.5.1+cu124", cuda="12.4", arch_list=CU126_ARCHS), kernel_probe=probe)
    check = by_id(view)["kernel_image"]
    assert check.status == "fail"
    assert "sm_120" in check.seen and "no kernel image" in check.seen
    assert "cu128" in check.fix
    # Without the probe (--no-probe) the arch list alone already says so.
    assert by_id(dataclasses.replace(view, kernel_probe=None))["kernel_image"].status == "fail"


def test_ptx_only_is_a_warning_and_b200_is_not_sm_120() -> None:
    ptx_only = healthy_5090(torch=torch_with(arch_list=("sm_80", "sm_90", "compute_90")), kernel_probe=None)
    assert by_id(ptx_only)["kernel_image"].status == "warn"
    assert match_arch((10, 0), ("sm_120",)).covered is False  # B200 is sm_100: sm_120 code does not run on it
    assert match_arch((12, 0), ("sm_100",)).covered is False
    assert match_arch((8, 9), ("sm_86",)).sass == "sm_86"  # same major, higher minor
    assert match_arch((9, 0), ("sm_90a",)).sass == "sm_90a"
    assert match_arch((10, 0), ("sm_90a",)).covered is False


def test_probe_hang_is_a_warning_not_a_hang() -> None:
    view = healthy_5090(kernel_probe=KernelProbe(ok=False, error="the probe did not finish", timed_out=True))
    assert by_id(view)["kernel_image"].status == "warn"


def test_wsl2_paths() -> None:
    base = healthy_5090(
        proc_version="Linux version 5.15.167.4-microsoft-standard-WSL2",
        paths={"/usr/lib/wsl/lib/libcuda.so": True, "/dev/dxg": True},
        driver_version="572.16",
    )
    assert by_id(base)["wsl"].status == "ok"
    shadowed = dataclasses.replace(base, linux_libcuda=("/usr/lib/x86_64-linux-gnu/libcuda.so.1",))
    check = by_id(shadowed)["wsl"]
    assert check.status == "fail" and "Windows driver" in check.fix
    missing = dataclasses.replace(base, paths={"/dev/dxg": True})
    assert by_id(missing)["wsl"].status == "warn"
    assert by_id(healthy_5090())["wsl"].status == "skip"


def test_container_without_gpus_all() -> None:
    view = healthy_5090(
        gpus=(),
        gpu_evidence=("/proc/driver/nvidia/gpus/0000:01:00.0 (NVIDIA GeForce RTX 5090)",),
        paths={"/.dockerenv": True},
        nvml_error="NVMLError_LibraryNotFound: NVML Shared Library Not Found",
        torch=torch_with(cuda_available=False, device_count=0),
        kernel_probe=None,
    )
    checks = by_id(view)
    assert checks["container"].status == "fail" and "--gpus all" in checks["container"].fix
    assert checks["cuda_available"].status == "fail"
    assert by_id(healthy_5090(paths={"/.dockerenv": True}))["container"].status == "ok"


@pytest.mark.parametrize(
    ("value", "status"),
    [("", "fail"), ("-1", "fail"), ("0", "ok"), ("0,7", "warn"), ("GPU-8f6c1a2b-0000-1111-2222-333344445555", "ok")],
)
def test_cuda_visible_devices(value: str, status: str) -> None:
    assert by_id(healthy_5090(env={"CUDA_VISIBLE_DEVICES": value}))["cuda_visible_devices"].status == status


def test_alloc_conf_reports_and_warns_on_unknown_keys() -> None:
    good = by_id(healthy_5090(env={"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True,max_split_size_mb:128"}))
    assert good["alloc_conf"].status == "ok" and "expandable_segments" in good["alloc_conf"].seen
    bad = by_id(healthy_5090(env={"PYTORCH_CUDA_ALLOC_CONF": "expandable_segment:True"}))
    assert bad["alloc_conf"].status == "warn" and "expandable_segment'" in bad["alloc_conf"].seen
    bracket = by_id(healthy_5090(env={"PYTORCH_CUDA_ALLOC_CONF": "roundup_power2_divisions:[256:1,512:2,>:8]"}))
    assert bracket["alloc_conf"].status == "ok"


def test_gpu_memory_held_by_other_processes() -> None:
    busy = dataclasses.replace(
        RTX_5090,
        memory_used_mib=20000.0,
        processes=(GpuProcess(pid=4242, used_mib=19000.0, name="python3"), GpuProcess(pid=1234, used_mib=500.0)),
    )
    check = by_id(healthy_5090(gpus=(busy,)))["gpu_memory"]
    assert check.status == "warn" and "4242" in check.seen and "1234" not in check.seen
    unlisted = dataclasses.replace(RTX_5090, memory_used_mib=16000.0, processes=None)
    assert by_id(healthy_5090(gpus=(unlisted,)))["gpu_memory"].status == "warn"


def test_cpu_only_machine_passes_and_says_so() -> None:
    view = EnvironmentView(
        torch=TorchFacts(installed=True, version="2.13.0+cpu"),
        nvml_error="NVMLError_LibraryNotFound: NVML Shared Library Not Found",
    )
    report = run_doctor(view, lock_mode="off")
    assert report.passed
    assert report.check("gpu") is not None and report.check("gpu").status == "warn"  # type: ignore[union-attr]
    assert "no NVIDIA GPU" in report.render_text()
    assert "CPU" in report.headline()
    assert report.fingerprint.device_kind == "cpu"


def test_missing_torch_fails() -> None:
    report = run_doctor(
        EnvironmentView(torch=TorchFacts(installed=False, import_error="ModuleNotFoundError")), lock_mode="off"
    )
    assert report.check("torch").status == "fail"  # type: ignore[union-attr]
    assert report.exit_code == 1


def test_a_crashing_check_becomes_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    import tutor.doctor.checks as checks

    def broken(view: EnvironmentView) -> Any:
        raise ValueError("boom")

    broken.__name__ = "check_broken"
    monkeypatch.setattr(checks, "CHECKS", (*checks.CHECKS, broken))
    result = {c.id: c for c in checks.run_checks(healthy_5090())}
    assert result["broken"].status == "warn" and "boom" in result["broken"].seen


def test_driver_version_comparison() -> None:
    assert driver_at_least("570.26", "570.26")
    assert driver_at_least("570.133.07", "570.26")
    assert not driver_at_least("565.90", "570.26")
    assert minimum_for("12.7", windows=False) == "570.26"  # between rows: the next row up
    assert minimum_for("11.8", windows=False) == "520.61.05"
    assert minimum_for("13.0", windows=False) == "580.65.06"


# -- the probe ---------------------------------------------------------------------------------------------------


def test_probe_output_parsing() -> None:
    line = (
        'GPU-TUTOR-PROBE {"ok": false, "error": "RuntimeError: CUDA error: no kernel image is available for '
        'execution on the device", "warnings": ["sm_120 is not compatible"], "device": "RTX", "capability": [12, 0]}'
    )
    probe = parse_probe_output("noise\n" + line + "\n", "", 0)
    assert probe.no_kernel_image and probe.capability == (12, 0) and probe.warnings
    crashed = parse_probe_output("", "Traceback...\nSegmentation fault", -11)
    assert not crashed.ok and "Segmentation fault" in (crashed.error or "")


def test_probe_timeout_is_reported(tmp_path: Path) -> None:
    fake = tmp_path / "slow-python"
    fake.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(10)\n")
    fake.chmod(0o755)
    probe = run_kernel_probe(timeout_s=0.5, python=str(fake))
    assert probe.timed_out and not probe.ok


def test_probe_on_this_cpu_machine_fails_cleanly() -> None:
    """No CUDA here: the real probe script runs, fails inside its subprocess and reports why."""
    probe = run_kernel_probe(timeout_s=60)
    assert not probe.ok and probe.error and not probe.timed_out


# -- symptoms -----------------------------------------------------------------------------------------------------


def test_symptoms_cover_the_three_typical_failures() -> None:
    for sid in ("no_kernel_image", "driver_too_old", "cpu_wheel", "sm_incompatible_warning"):
        s = symptom(sid)
        assert s.cause["es"] and s.cause["en"] and s.fix["es"] and s.fix["en"]
        assert match_symptom(s.message) is s
    assert "found version 12040" in symptom("driver_too_old").message
    assert (
        match_symptom("RuntimeError: CUDA error: no kernel image is available for execution on the device")
        is (SYMPTOMS["no_kernel_image"])
    )
    assert match_symptom("all good") is None
    with pytest.raises(KeyError):
        symptom("nope")
    check_ids = {c.id for c in run_checks(healthy_5090())} | {"lock"}
    assert {s.check for s in SYMPTOMS.values()} <= check_ids


def test_doctor_never_imports_textual_or_torch_at_import() -> None:
    code = textwrap.dedent(
        """
        import sys
        import tutor.doctor, tutor.doctor.symptoms, tutor.commands.doctor
        print("textual" in sys.modules, "torch" in sys.modules)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]
