"""`tutor doctor` on this machine (CPU-only torch, no NVML) and the environment lock, through the real CLI."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

import tutor.doctor.view as view_module
from tutor.cli import main
from tutor.doctor import compare, current_lock, gather, read_lock, run_doctor
from tutor.doctor.lock import LOCK_SCHEMA, LockError
from tutor.progress import ProgressStore
from tutor.results.lock import EnvironmentLock


@pytest.fixture(scope="module")
def real_view() -> view_module.EnvironmentView:
    return gather()


def doctor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``tutor doctor ARGS`` read in English (the report's language follows the learner's choice, then the locale:
    see the test of the default)."""
    code = main(["doctor", *args, *([] if "--lang" in args else ["--lang", "en"])])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_real_machine_is_seen_for_what_it_is(real_view: view_module.EnvironmentView) -> None:
    if real_view.gpu_present:
        pytest.skip("this machine has an NVIDIA GPU")
    report = run_doctor(real_view, lock_mode="off")
    assert report.passed, report.render_text()
    assert real_view.torch.installed and real_view.torch.is_cpu_build
    assert real_view.nvml_error  # pynvml.nvmlInit fails here
    assert report.check("gpu").status == "warn"  # type: ignore[union-attr]
    assert "no NVIDIA GPU" in report.check("gpu").seen  # type: ignore[union-attr]
    assert report.check("torch_build").status == "ok"  # type: ignore[union-attr]
    assert real_view.kernel_probe is None  # nothing to probe without CUDA


def test_doctor_text_exit_0_and_recorded(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    start = time.perf_counter()
    code, out, _ = doctor(capsys)
    elapsed = time.perf_counter() - start
    assert code == 0
    assert "Doctor passed" in out
    assert elapsed < 60  # "in seconds"; measured ≈ 2 s here, kept loose for shared machines
    runs = ProgressStore().doctor_runs()
    assert len(runs) == 1 and runs[0].passed is True and runs[0].lock_matches is None


def test_the_report_speaks_the_learners_language_by_default(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """No --lang: the language last chosen in the tutor, else the locale's (as every other command); --json stays
    the stable English document."""
    from tutor.settings import save_lang

    for var in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    code, out, _ = doctor_plain(capsys, "--no-probe")
    assert code == 0 and "Diagnóstico superado" in out and "Doctor passed" not in out
    code, out, _ = doctor_plain(capsys, "--no-probe", "--json")
    _, english, _ = doctor_plain(capsys, "--no-probe", "--json", "--lang", "en")
    seen = [(c["id"], c["seen"]) for c in json.loads(out)["checks"]]
    assert code == 0 and seen == [(c["id"], c["seen"]) for c in json.loads(english)["checks"]]  # one document
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    code, out, _ = doctor_plain(capsys, "--no-probe")
    assert code == 0 and "Doctor passed" in out
    save_lang("es")  # chosen in the TUI: it wins over the locale
    code, out, _ = doctor_plain(capsys, "--no-probe")
    assert code == 0 and "Diagnóstico superado" in out
    code, out, _ = doctor_plain(capsys, "--no-probe", "--lang", "en")
    assert code == 0 and "Doctor passed" in out


def doctor_plain(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["doctor", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_doctor_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = doctor(capsys, "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["schema"] == "gpu-tutor/doctor/v1"
    assert isinstance(doc["fingerprint"], dict) and doc["fingerprint"]["id"]
    assert doc["checks"] and all(set(c) == {"id", "status", "seen", "fix"} for c in doc["checks"])
    assert all(c["status"] in {"ok", "warn", "fail", "skip"} for c in doc["checks"])
    ids = [c["id"] for c in doc["checks"]]
    for expected in ("torch", "gpu", "torch_build", "driver", "kernel_image", "wsl", "container"):
        assert expected in ids


def test_failing_check_exits_1(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = view_module._torch_facts

    def no_torch() -> view_module.TorchFacts:
        real()
        return view_module.TorchFacts(installed=False, import_error="ModuleNotFoundError: No module named 'torch'")

    monkeypatch.setattr(view_module, "_torch_facts", no_torch)
    code, out, _ = doctor(capsys)
    assert code == 1 and "Doctor FAILED" in out


def test_lock_then_check_lock_after_a_package_change(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    lock_file = tmp_path / "env.lock.json"
    code, out, _ = doctor(capsys, "--lock", str(lock_file))
    assert code == 0 and "Wrote the environment lock" in out
    lock = json.loads(lock_file.read_text())
    assert lock["schema"] == LOCK_SCHEMA
    for key in ("python", "platform", "torch", "driver", "gpus", "packages"):
        assert key in lock
    assert lock["packages"]["torch"] and lock["packages"]["textual"]

    code, out, _ = doctor(capsys, "--check-lock", str(lock_file))
    assert code == 0 and "matches the lock" in out

    real = view_module.package_versions

    def numpy_upgraded() -> dict[str, str | None]:
        return {**real(), "numpy": "9.9.9"}

    monkeypatch.setattr(view_module, "package_versions", numpy_upgraded)
    code, out, _ = doctor(capsys, "--check-lock", str(lock_file))
    assert code == 1
    assert f"packages.numpy: {lock['packages']['numpy']} in the lock, 9.9.9 now" in out

    code, out, _ = doctor(capsys, "--check-lock", str(lock_file), "--json")
    doc = json.loads(out)
    assert code == 1 and doc["lock"]["matches"] is False
    assert doc["lock"]["differences"] == [
        {"key": "packages.numpy", "locked": lock["packages"]["numpy"], "current": "9.9.9"}
    ]
    runs = ProgressStore().doctor_runs()
    assert [r.lock_matches for r in runs] == [True, True, False, False]

    # The plain doctor compares with the default lock only; an explicit file is not looked at.
    code, out, _ = doctor(capsys)
    assert code == 0


def test_default_lock_path(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> None:
    assert doctor(capsys, "--lock")[0] == 0
    assert (data_dir / "environment.lock.json").is_file()
    assert doctor(capsys, "--check-lock")[0] == 0
    # A plain run compares with the default lock: a difference is a warning there, not a failure.
    real = view_module.package_versions
    monkeypatch.setattr(view_module, "package_versions", lambda: {**real(), "textual": "0.0.1"})
    code, out, _ = doctor(capsys)
    assert code == 0 and "difference(s) from the lock" in out and "packages.textual" in out


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (None, "no environment lock at"),
        ("{not json", ":1:2: error: invalid JSON"),
        ('{"schema": "other"}', "not an environment lock"),
        ("[1, 2]", "expected a JSON object"),
        ("[" * 100_000 + "]" * 100_000, "nested deeper than"),
        ('{"schema": NaN}', ":1:12: error: NaN is not a finite number"),
        (b'{"schema": "caf\xe9"}', "is not UTF-8 text"),
        ("fifo", "is a FIFO"),
        ("/dev/zero", "is a device"),
    ],
)
def test_unusable_lock_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | bytes | None, fragment: str
) -> None:
    lock_file = tmp_path / "lock.json"
    if content == "fifo":
        os.mkfifo(lock_file)  # a reader that opened it blocking would hang here
    elif content == "/dev/zero":
        lock_file = Path("/dev/zero")
    elif isinstance(content, bytes):
        lock_file.write_bytes(content)
    elif content is not None:
        lock_file.write_text(content)
    code, out, err = doctor(capsys, "--check-lock", str(lock_file))
    assert code == 2
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err
    assert out == ""


def test_compare_is_pure_and_lists_every_difference() -> None:
    base: dict[str, Any] = {
        "schema": LOCK_SCHEMA,
        "created_at": "then",
        "torch": {"version": "2.7.0+cu128", "cuda": "12.8"},
        "driver": {"version": "570.133.07"},
        "gpus": [{"name": "NVIDIA GeForce RTX 5090"}],
        "packages": {"numpy": "2.2.0", "textual": "8.2.8"},
    }
    now = json.loads(json.dumps(base))
    now["created_at"] = "now"
    assert compare(EnvironmentLock.from_json(base), EnvironmentLock.from_json(now)) == []
    now["driver"]["version"] = "575.51.03"
    now["packages"]["triton"] = "3.3.0"
    del now["packages"]["textual"]
    diffs = {d.key: d for d in compare(EnvironmentLock.from_json(base), EnvironmentLock.from_json(now))}
    assert set(diffs) == {"driver.version", "packages.textual", "packages.triton"}
    assert diffs["packages.textual"].describe() == "packages.textual: 8.2.8 in the lock, absent now"


def test_current_lock_round_trips(tmp_path: Path, real_view: view_module.EnvironmentView) -> None:
    from tutor.doctor import write_lock

    path = write_lock(tmp_path / "sub" / "lock.json", current_lock(real_view))
    assert compare(read_lock(path), current_lock(real_view)) == []
    with pytest.raises(LockError):
        read_lock(tmp_path / "missing.json")


def test_corrupt_progress_db_is_reported_on_stderr(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    (data_dir / "progress.sqlite3").write_bytes(b"this is not a database" * 100)
    code, _, err = doctor(capsys)
    assert code == 0
    assert "progress database was corrupt" in err and "corrupt-" in err
