"""The doctor in Spanish: every check, on every simulated machine, has its own Spanish ``seen``/``fix``.

The English texts (CLI report and ``--json``) stay what they were; the Spanish ones carry the same paths, versions
and commands, and the DoctorScreen shows them when ``app.lang`` is "es".
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from tests.support.doctor import CU126_ARCHS, RTX_5090, doctor_app, healthy_5090, torch_with
from tutor.doctor import Check, EnvironmentView, GpuProcess, TorchFacts, gather, run_checks, run_doctor
from tutor.doctor.lock import LOCK_SCHEMA, Difference, LockError, read_lock
from tutor.doctor.probe import KernelProbe
from tutor.doctor.report import LockMode
from tutor.progress import ProgressStore
from tutor.ui.screens.doctor import DoctorScreen

NO_KERNEL = KernelProbe(
    ok=False, error="RuntimeError: CUDA error: no kernel image is available for execution on the device"
)
WSL = {
    "proc_version": "Linux version 5.15.167.4-microsoft-standard-WSL2",
    "paths": {"/usr/lib/wsl/lib/libcuda.so": True, "/dev/dxg": True},
    "driver_version": "572.16",
}
NO_NVML = "NVMLError_LibraryNotFound: NVML Shared Library Not Found"


def _views() -> dict[str, EnvironmentView]:
    """The machines the other doctor tests build, and a few more so that every branch of every check is reached."""
    cpu_wheel = TorchFacts(installed=True, version="2.7.0+cpu", cuda=None, cuda_available=False)
    container_no_gpu = healthy_5090(
        gpus=(),
        gpu_evidence=("/proc/driver/nvidia/gpus/0000:01:00.0 (NVIDIA GeForce RTX 5090)",),
        paths={"/.dockerenv": True},
        nvml_error=NO_NVML,
        torch=torch_with(cuda_available=False, device_count=0),
        kernel_probe=None,
    )
    busy = dataclasses.replace(
        RTX_5090,
        memory_used_mib=20000.0,
        processes=(GpuProcess(pid=4242, used_mib=19000.0, name="python3"), GpuProcess(pid=1234, used_mib=500.0)),
    )
    return {
        "healthy_5090": healthy_5090(),
        "cpu_wheel_with_gpu": healthy_5090(torch=cpu_wheel, kernel_probe=None),
        "cpu_wheel_no_nvml": healthy_5090(
            torch=TorchFacts(installed=True, version="2.7.0+cpu"),
            gpus=(),
            gpu_evidence=("PCI 0000:01:00.0 NVIDIA device 10de:2b85",),
            nvml_error=NO_NVML,
            driver_version=None,
            kernel_probe=None,
        ),
        "driver_minor_compat": healthy_5090(
            gpus=(dataclasses.replace(RTX_5090, name="NVIDIA GeForce RTX 4090", compute_capability=(8, 9)),),
            driver_version="550.54.14",
            cuda_driver_version=12040,
        ),
        "old_driver": healthy_5090(
            gpus=(dataclasses.replace(RTX_5090, name="NVIDIA GeForce RTX 4090", compute_capability=(8, 9)),),
            driver_version="470.82.01",
            cuda_driver_version=11040,
        ),
        "old_driver_wsl": healthy_5090(
            **{**WSL, "driver_version": "470.82.01"},
            gpus=(dataclasses.replace(RTX_5090, name="NVIDIA GeForce RTX 4090", compute_capability=(8, 9)),),
            cuda_driver_version=11040,
        ),
        "blackwell_pre_r570": healthy_5090(
            torch=torch_with(version="2.5.1+cu121", cuda="12.1"), driver_version="560.35.03", cuda_driver_version=12060
        ),
        "cuda_without_minimum": healthy_5090(torch=torch_with(version="2.0.0+cu99", cuda="9.9")),
        "no_sm_120_probe": healthy_5090(
            torch=torch_with(version="2.5.1+cu124", cuda="12.4", arch_list=CU126_ARCHS), kernel_probe=NO_KERNEL
        ),
        "no_sm_120_no_probe": healthy_5090(
            torch=torch_with(version="2.5.1+cu124", cuda="12.4", arch_list=CU126_ARCHS), kernel_probe=None
        ),
        "turing_not_in_arch_list": healthy_5090(
            gpus=(dataclasses.replace(RTX_5090, name="Tesla T4", compute_capability=(7, 5)),),
            torch=torch_with(arch_list=("sm_80",)),
            kernel_probe=KernelProbe(ok=False, error="RuntimeError: CUDA error: unspecified launch failure"),
        ),
        "ptx_only": healthy_5090(torch=torch_with(arch_list=("sm_80", "sm_90", "compute_90")), kernel_probe=None),
        "ptx_only_ran": healthy_5090(torch=torch_with(arch_list=("sm_80", "sm_90", "compute_90"))),
        "unknown_capability": healthy_5090(
            gpus=(dataclasses.replace(RTX_5090, compute_capability=None, memory_total_mib=None),), kernel_probe=None
        ),
        "probe_hang": healthy_5090(
            kernel_probe=KernelProbe(
                ok=False, error="the probe did not finish within 60 s (CUDA initialisation hung)", timed_out=True
            )
        ),
        "rocm": healthy_5090(torch=torch_with(version="2.7.0+rocm6.3", hip="6.3", cuda=None), kernel_probe=None),
        "wsl_ok": healthy_5090(**WSL),
        "wsl_linux_libcuda": healthy_5090(**WSL, linux_libcuda=("/usr/lib/x86_64-linux-gnu/libcuda.so.1",)),
        "wsl_missing_libcuda": healthy_5090(**{**WSL, "paths": {"/dev/dxg": True}}),
        "container_without_gpus_all": container_no_gpu,
        "container_with_cvd": dataclasses.replace(container_no_gpu, env={"CUDA_VISIBLE_DEVICES": "0"}),
        "container_ok": healthy_5090(paths={"/.dockerenv": True}),
        "container_cpu_host": EnvironmentView(
            torch=TorchFacts(installed=True, version="2.13.0+cpu"), paths={"/.dockerenv": True}, nvml_error=NO_NVML
        ),
        "cvd_empty": healthy_5090(env={"CUDA_VISIBLE_DEVICES": ""}),
        "cvd_minus_one": healthy_5090(env={"CUDA_VISIBLE_DEVICES": "-1"}),
        "cvd_0_7": healthy_5090(env={"CUDA_VISIBLE_DEVICES": "0,7"}),
        "cvd_uuid": healthy_5090(env={"CUDA_VISIBLE_DEVICES": "GPU-8f6c1a2b-0000-1111-2222-333344445555"}),
        "cvd_no_gpu": EnvironmentView(
            torch=TorchFacts(installed=True, version="2.13.0+cpu"), env={"CUDA_VISIBLE_DEVICES": "0"}
        ),
        "alloc_good": healthy_5090(env={"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True,max_split_size_mb:128"}),
        "alloc_unknown_key": healthy_5090(env={"PYTORCH_CUDA_ALLOC_CONF": "expandable_segment:True"}),
        "alloc_no_value": healthy_5090(env={"PYTORCH_ALLOC_CONF": "expandable_segments"}),
        "alloc_async": healthy_5090(env={"PYTORCH_CUDA_ALLOC_CONF": "backend:cudaMallocAsync"}),
        "gpu_memory_busy": healthy_5090(gpus=(busy,)),
        "gpu_memory_unlisted": healthy_5090(
            gpus=(dataclasses.replace(RTX_5090, memory_used_mib=16000.0, processes=None),)
        ),
        "gpu_memory_unknown": healthy_5090(gpus=(dataclasses.replace(RTX_5090, memory_used_mib=None, processes=None),)),
        "cpu_only": EnvironmentView(torch=TorchFacts(installed=True, version="2.13.0+cpu"), nvml_error=NO_NVML),
        "no_torch": EnvironmentView(torch=TorchFacts(installed=False, import_error="ModuleNotFoundError")),
    }


VIEWS = _views()

#: What must be copied verbatim into the Spanish: paths, URLs, versions, sm_ names, options, quoted values.
_VERBATIM = re.compile(
    r"https?://\S+|(?<!\w)/[\w./*-]+|\b\d+(?:\.\d+)+\b|\bsm_\d+\b|--[\w-]+|(?<!\w)'[^']*'|\"[^\"]*\"|«[^»]*»"
)


def _verbatim(text: str) -> set[str]:
    """The verbatim pieces of ``text``; a quotation counts by its inside ("x" in English is «x» in Spanish)."""
    return {m.strip("'\"«»").rstrip(".,;:)") for m in _VERBATIM.findall(text)}


def _assert_spanish(check: Check, where: str) -> None:
    seen_es, fix_es = check.seen_in("es"), check.fix_in("es")
    assert seen_es, f"{where}: {check.id} has no Spanish seen"
    assert seen_es != check.seen, f"{where}: {check.id}'s Spanish is the English text"
    assert check.seen_in("en") == check.seen
    missing = _verbatim(check.seen) - _verbatim(seen_es)
    # a measured figure (seconds, GiB) is written with Spanish's decimal comma; versions stay as they are
    missing = {m for m in missing if not (re.fullmatch(r"\d+\.\d+", m) and m.replace(".", ",") in seen_es)}
    assert not missing, f"{where}: {check.id}'s Spanish lost {missing}"
    if check.fix:
        assert fix_es and fix_es != check.fix, f"{where}: {check.id} has no Spanish fix"
        assert _verbatim(check.fix) <= _verbatim(fix_es), (
            f"{where}: {check.id}'s Spanish fix lost {_verbatim(check.fix) - _verbatim(fix_es)}"
        )
    else:
        assert not fix_es, f"{where}: {check.id} has a Spanish fix but no English one"


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_every_check_has_spanish(name: str) -> None:
    for check in run_checks(VIEWS[name]):
        _assert_spanish(check, name)


def test_every_branch_of_every_check_is_covered() -> None:
    """The views above reach each (check, status) pair the checks can give, so none is left in English."""
    seen = {(c.id, c.status) for view in VIEWS.values() for c in run_checks(view)}
    texts = {c.seen for view in VIEWS.values() for c in run_checks(view)}
    assert len(texts) >= 60
    expected = {
        ("torch", "ok"), ("torch", "fail"),
        ("gpu", "ok"), ("gpu", "warn"), ("gpu", "fail"),
        ("torch_build", "ok"), ("torch_build", "warn"), ("torch_build", "fail"), ("torch_build", "skip"),
        ("driver", "ok"), ("driver", "warn"), ("driver", "fail"), ("driver", "skip"),
        ("cuda_available", "ok"), ("cuda_available", "fail"), ("cuda_available", "skip"),
        ("kernel_image", "ok"), ("kernel_image", "warn"), ("kernel_image", "fail"), ("kernel_image", "skip"),
        ("wsl", "ok"), ("wsl", "warn"), ("wsl", "fail"), ("wsl", "skip"),
        ("container", "ok"), ("container", "fail"), ("container", "skip"),
        ("cuda_visible_devices", "ok"), ("cuda_visible_devices", "warn"), ("cuda_visible_devices", "fail"),
        ("cuda_visible_devices", "skip"),
        ("alloc_conf", "ok"), ("alloc_conf", "warn"),
        ("gpu_memory", "ok"), ("gpu_memory", "warn"), ("gpu_memory", "skip"),
    }  # fmt: skip
    assert expected <= seen, expected - seen


def test_the_three_typical_failures_read_naturally_in_spanish() -> None:
    cpu = {c.id: c for c in run_checks(VIEWS["cpu_wheel_with_gpu"])}["torch_build"]
    assert "rueda de torch solo para CPU" in cpu.seen_in("es") and "RTX 5090" in cpu.seen_in("es")
    assert "download.pytorch.org/whl/cu128" in cpu.fix_in("es")
    driver = {c.id: c for c in run_checks(VIEWS["old_driver"])}["driver"]
    assert "driver demasiado antiguo para CUDA 12.8 de torch" in driver.seen_in("es")
    assert "570.26" in driver.fix_in("es")
    kernel = {c.id: c for c in run_checks(VIEWS["no_sm_120_probe"])}["kernel_image"]
    assert "no hay imagen de kernel para sm_120" in kernel.seen_in("es")
    assert "no kernel image is available" in kernel.seen_in("es")  # the error message stays verbatim
    gpu = {c.id: c for c in run_checks(VIEWS["cpu_only"])}["gpu"]
    assert gpu.seen_in("es").startswith("no hay GPU NVIDIA en esta máquina")
    wsl = {c.id: c for c in run_checks(VIEWS["old_driver_wsl"])}["driver"]
    assert "no instales nada dentro de WSL" in wsl.fix_in("es")


def test_the_real_machine_has_spanish() -> None:
    view = gather()
    for check in run_doctor(view, lock_mode="off").checks:
        _assert_spanish(check, "this machine")


def test_a_crashing_check_is_reported_in_spanish(monkeypatch: pytest.MonkeyPatch) -> None:
    import tutor.doctor.checks as checks

    def broken(view: EnvironmentView) -> Check:
        raise ValueError("boom")

    broken.__name__ = "check_broken"
    monkeypatch.setattr(checks, "CHECKS", (broken,))
    (check,) = checks.run_checks(healthy_5090())
    _assert_spanish(check, "crash")
    assert "boom" in check.seen_in("es")


def _lock_checks(tmp_path: Path) -> dict[str, Check]:
    view = healthy_5090()
    path = tmp_path / "env.lock.json"
    found: dict[str, Check] = {}

    def lock_check(mode: LockMode, name: str) -> None:
        check = run_doctor(view, lock_mode=mode, lock_path=path).check("lock")
        assert check is not None
        found[name] = check

    lock_check("auto", "missing")
    lock_check("write", "written")
    lock_check("auto", "matches")
    data = json.loads(path.read_text())
    data["torch"]["version"] = "2.6.0+cu126"
    path.write_text(json.dumps(data))
    lock_check("auto", "differs")
    path.write_text("{not json")
    lock_check("auto", "unreadable")
    path.write_text(json.dumps({"schema": "other"}))
    lock_check("auto", "wrong_schema")
    return found


def test_every_lock_branch_has_spanish(tmp_path: Path) -> None:
    found = _lock_checks(tmp_path)
    assert {c.status for c in found.values()} == {"ok", "warn", "skip"}
    for name, check in found.items():
        _assert_spanish(check, f"lock {name}")
    assert "todavía no hay lock" in found["missing"].seen_in("es")
    assert "1 diferencia(s)" in found["differs"].seen_in("es")
    assert "no es JSON válido" in found["unreadable"].seen_in("es")


def test_lock_errors_and_differences_in_spanish(tmp_path: Path) -> None:
    with pytest.raises(LockError) as missing:
        read_lock(tmp_path / "nope.json")
    assert str(missing.value).startswith("no environment lock at")
    assert missing.value.message_es.startswith("no hay lock del entorno en")
    (tmp_path / "list.json").write_text("[]")
    with pytest.raises(LockError) as not_object:
        read_lock(tmp_path / "list.json")
    assert "se esperaba un objeto JSON" in not_object.value.message_es
    diff = Difference("packages.textual", "8.2.8", None)
    assert diff.describe() == "packages.textual: 8.2.8 in the lock, absent now"
    assert diff.describe_in("es") == "packages.textual: 8.2.8 en el lock, ausente ahora"
    assert diff.describe_in("en") == diff.describe()
    (tmp_path / "other.json").write_text(json.dumps({"schema": "other"}))
    with pytest.raises(LockError) as wrong:
        read_lock(tmp_path / "other.json")
    assert f"se esperaba {LOCK_SCHEMA!r}" in wrong.value.message_es


def test_english_outputs_stay_english() -> None:
    report = run_doctor(VIEWS["no_sm_120_probe"], lock_mode="off")
    document = report.to_json()
    assert set(document["checks"][0]) == {"id", "status", "seen", "fix"}
    assert document["headline"] == "NVIDIA GPU: NVIDIA GeForce RTX 5090 — torch cannot use it yet."
    text = report.render_text(width=100)
    assert text == report.render_text(width=100, lang="en")
    assert "Doctor FAILED" in text and "no hay" not in text
    spanish = report.render_text(width=100, lang="es")
    assert "Diagnóstico con FALLOS" in spanish and "no hay imagen de kernel para sm_120" in spanish
    assert report.headline("es") == "GPU NVIDIA: NVIDIA GeForce RTX 5090 — torch aún no puede usarla."
    cpu = run_doctor(VIEWS["cpu_only"], lock_mode="off")
    assert cpu.headline() == "No NVIDIA GPU found — on this machine the course runs on the CPU."
    assert cpu.headline("es").startswith("No se encontró ninguna GPU NVIDIA")


def test_cli_lang_es_prints_spanish_and_json_stays_english(capsys: pytest.CaptureFixture[str]) -> None:
    from tutor.cli import main

    code = main(["doctor", "--no-probe", "--lang", "es"])
    out = capsys.readouterr().out
    assert code == 0 and "Diagnóstico superado" in out
    main(["doctor", "--no-probe", "--json", "--lang", "es"])
    document = json.loads(capsys.readouterr().out)
    assert document["headline"].startswith(("No NVIDIA GPU", "NVIDIA GPU", "An NVIDIA GPU"))
    assert all(set(c) == {"id", "status", "seen", "fix"} for c in document["checks"])


# -- the screen ---------------------------------------------------------------------------------------------------




def _runner(view: EnvironmentView, lock_path: Path):  # type: ignore[no-untyped-def]
    def run(mode: LockMode):  # type: ignore[no-untyped-def]
        return run_doctor(view, lock_mode=mode, lock_path=lock_path)

    return run


async def test_doctor_screen_in_spanish_and_back(tmp_path: Path) -> None:
    app = doctor_app(ProgressStore(tmp_path / "p.sqlite3"), lang="es")
    screen = DoctorScreen(app.session, runner=_runner(VIEWS["no_sm_120_probe"], tmp_path / "env.lock.json"))
    async with app.run_test(size=(120, 50)) as pilot:
        await app.push_screen(screen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        headline = str(screen.query_one("#doctor-headline").render())
        assert "torch aún no puede usarla" in headline
        kernel = str(screen.query_one("#check-kernel_image").render())
        assert "no hay imagen de kernel para sm_120" in kernel and "fallo" in kernel
        assert "no kernel image is available" in kernel  # the error itself stays verbatim
        assert "Instala un torch compilado para CUDA 12.8" in kernel
        assert "Hay fallos" in str(screen.query_one("#doctor-summary").render())
        assert "todavía no hay lock" in str(screen.query_one("#check-lock").render())

        app.lang = "en"
        await pilot.pause()
        await pilot.pause()
        kernel = str(screen.query_one("#check-kernel_image").render())
        assert "has nothing that runs on it" in kernel and "no hay imagen" not in kernel
        assert "torch cannot use it yet" in str(screen.query_one("#doctor-headline").render())


async def test_doctor_screen_on_this_machine_in_spanish(tmp_path: Path) -> None:
    """The real doctor (about 1.5 s here): every check shows its Spanish text."""
    app = doctor_app(ProgressStore(tmp_path / "p.sqlite3"), lang="es")
    screen = DoctorScreen(app.session, lock_path=tmp_path / "env.lock.json")
    async with app.run_test(size=(120, 50)) as pilot:
        await app.push_screen(screen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.report is not None
        for check in screen.report.checks:
            shown = str(screen.query_one(f"#check-{check.id}").render())
            assert check.seen_in("es") and check.seen_in("es") in shown, check.id
            assert check.fix_in("es") in shown
        summary = str(screen.query_one("#doctor-summary").render())
        assert ("Sin fallos" if screen.report.passed else "Hay fallos") in summary
        gpu = screen.report.check("gpu")
        if gpu is not None and gpu.status == "warn":
            assert "No se encontró ninguna GPU NVIDIA" in str(screen.query_one("#doctor-headline").render())
