"""The environment lock as a typed result (issue 29 item 4): a lock file the tutor wrote before it was typed still
reads into :class:`EnvironmentLock`'s named fields and is written back byte for byte; a value of the wrong type is
refused at its own line and column; a key a newer tutor added is still compared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.doctor.lock import LockError, compare, read_lock, write_lock
from tutor.doctor.rebuild import pins_text
from tutor.results.lock import EnvironmentLock, GpuPin, TorchPin

#: A lock as ``tutor doctor --lock`` wrote it before the lock was typed (packages and pins cut short).
OLD_LOCK = """{
  "schema": "gpu-tutor/lock/v1",
  "created_at": "2026-12-04T22:59:50+0000",
  "created_ts": 1796425190.89,
  "lock_id": "19444f8b7b6c4af3",
  "written_by": "gpu-tutor 0.1.0",
  "python": {
    "version": "3.11.7",
    "implementation": "CPython"
  },
  "platform": {
    "system": "Linux",
    "machine": "x86_64",
    "wsl": false
  },
  "torch": {
    "version": "2.7.0+cu128",
    "cuda": "12.8",
    "cudnn": 90701,
    "arch_list": [
      "sm_90",
      "sm_120"
    ]
  },
  "driver": {
    "version": "570.133.07",
    "cuda_driver_version": 12080
  },
  "gpus": [
    {
      "name": "NVIDIA GeForce RTX 5090",
      "compute_capability": "12.0",
      "memory_total_mib": 32607
    }
  ],
  "packages": {
    "babel": "2.19.0",
    "numpy": "2.4.6",
    "triton": null
  },
  "rebuild": {
    "requirements": "d1/environment.lock.requirements.txt",
    "dockerfile": "d1/environment.lock.Dockerfile",
    "torch": "2.7.0+cu128",
    "index_url": "https://download.pytorch.org/whl/cu128",
    "base_image": "pytorch/pytorch:2.7.0-cuda12.8-cudnn9-runtime",
    "pins": {
      "babel": "2.19.0",
      "numpy": "2.4.6"
    }
  }
}
"""


def _place(text: str, needle: str) -> tuple[int, int]:
    """Line and column (1-based) of the first character after ``needle`` in ``text``."""
    at = text.index(needle) + len(needle)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def test_an_old_lock_reads_into_named_fields_and_is_written_back_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "environment.lock.json"
    path.write_text(OLD_LOCK, encoding="utf-8")
    lock = read_lock(path)
    assert lock.torch == TorchPin(version="2.7.0+cu128", cuda="12.8", cudnn=90701, arch_list=("sm_90", "sm_120"))
    assert lock.gpus == (GpuPin("NVIDIA GeForce RTX 5090", "12.0", 32607),)
    assert (lock.lock_id, lock.driver_version, lock.cuda_driver_version) == ("19444f8b7b6c4af3", "570.133.07", 12080)
    assert lock.packages == {"babel": "2.19.0", "numpy": "2.4.6", "triton": None}
    assert lock.rebuild is not None and lock.rebuild.base_image == "pytorch/pytorch:2.7.0-cuda12.8-cudnn9-runtime"
    assert pins_text(lock.rebuild) == "babel 2.19.0, numpy 2.4.6"
    assert compare(lock, lock) == []
    again = write_lock(tmp_path / "again.json", lock)
    assert again.read_text(encoding="utf-8") == OLD_LOCK


@pytest.mark.parametrize(("needle", "bad", "field", "what"), [
    ('"cuda": ', '"cuda": 12.8,', "torch.cuda", ("text", "float", "texto")),
    ('"memory_total_mib": ', '"memory_total_mib": "32 GB"', "gpus[0].memory_total_mib",
     ("an integer", "str", "un entero")),
    ('"wsl": ', '"wsl": "no"', "platform.wsl", ("true or false", "str", "true o false")),
])
def test_a_lock_value_of_the_wrong_type_is_refused_at_its_line_and_column(
        tmp_path: Path, needle: str, bad: str, field: str, what: tuple[str, str, str]) -> None:
    line = next(x for x in OLD_LOCK.splitlines() if needle in x).strip()
    text = OLD_LOCK.replace(line, bad + ("," if line.endswith(",") and not bad.endswith(",") else ""), 1)
    path = tmp_path / "lock.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LockError) as caught:
        read_lock(path)
    row, col = _place(text, needle)
    en = caught.value.message("en")
    assert en == f"{path}:{row}:{col}: error: {field}: expected {what[0]}, got {what[1]}"
    es = caught.value.message("es")
    assert es.startswith(f"{path}:{row}:{col}: error: {field}: se esperaba {what[2]}")


def test_a_key_a_newer_tutor_added_is_compared_as_it_is(tmp_path: Path) -> None:
    data = json.loads(OLD_LOCK)
    path = tmp_path / "lock.json"
    path.write_text(json.dumps({**data, "cpu": {"name": "EPYC"}}), encoding="utf-8")
    newer = read_lock(path)
    diffs = compare(newer, EnvironmentLock.from_json(data))
    assert [(d.key, d.locked, d.current) for d in diffs] == [("cpu", {"name": "EPYC"}, None)]
