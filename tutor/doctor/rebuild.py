"""What rebuilds a locked environment: a requirements file with exact pins and a Dockerfile.

``tutor doctor --lock`` writes both beside the lock (``<lock>.requirements.txt`` and ``<lock>.Dockerfile``). The
torch pin names its build (``2.13.0+cpu``, ``2.7.0+cu128``) and the index that serves it; every key package the lock
records is pinned with ``==``. The Dockerfile starts from an official image: ``pytorch/pytorch`` with the locked
CUDA and cuDNN for a CUDA build, ``python:<major.minor>-slim`` for a CPU build. Pure functions of the
:class:`~tutor.results.lock.EnvironmentLock`.
"""

from __future__ import annotations

import re
from pathlib import Path

from tutor.results.lock import EnvironmentLock, LockRebuild

PYTORCH_INDEX = "https://download.pytorch.org/whl"


def rebuild_paths(lock_path: Path) -> tuple[Path, Path]:
    """``(requirements, Dockerfile)`` written beside ``lock_path``."""
    stem = lock_path.name.removesuffix(".json")
    return lock_path.with_name(stem + ".requirements.txt"), lock_path.with_name(stem + ".Dockerfile")


def torch_build(lock: EnvironmentLock) -> tuple[str | None, str | None]:
    """``(torch pin, index URL)``: the exact version with its build tag, and the index serving that build.

    ``+cpu`` and ``+cuXYZ`` builds come from download.pytorch.org; a plain version with CUDA is PyPI's default
    Linux wheel (its CUDA build is the one PyTorch's index calls ``cu<cuda>``, named for the record); a plain CPU
    version (macOS, Windows) is PyPI's.
    """
    version = lock.torch.version
    if not version:
        return None, None
    local = version.partition("+")[2]
    if local == "cpu" or re.fullmatch(r"cu\d+|rocm[\d.]+", local):
        return version, f"{PYTORCH_INDEX}/{local}"
    cuda = lock.torch.cuda
    if cuda is not None and re.fullmatch(r"\d+\.\d+", cuda):
        return version, f"{PYTORCH_INDEX}/cu{cuda.replace('.', '')}"
    return version, None


def pins(lock: EnvironmentLock) -> dict[str, str]:
    """Every package the lock records with a version, as ``name -> version`` (torch with its build tag)."""
    out = {name: version for name, version in (lock.packages or {}).items() if version}
    torch, _index = torch_build(lock)
    if torch:
        out["torch"] = torch
    return dict(sorted(out.items(), key=lambda kv: kv[0].lower()))


def _python(lock: EnvironmentLock) -> str:
    return lock.python_version or ""


def _written(lock: EnvironmentLock) -> str:
    return f"{lock.written_by or 'gpu-tutor'} on {lock.created_at or '?'}"


def requirements_text(lock: EnvironmentLock) -> str:
    """The requirements file: one ``name==version`` per pinned package, the torch index first."""
    torch, index = torch_build(lock)
    system = f"{lock.system or '?'} {lock.machine or '?'}"
    lines = [
        f"# Rebuilds the environment locked by {_written(lock)}",
        f"# (Python {_python(lock) or '?'}, {system}).",
        "#   python -m venv .venv && .venv/bin/pip install -r THIS_FILE",
        "#   .venv/bin/pip install <your gpu-tutor checkout>  # then: tutor doctor --check-lock <the lock>",
        "# Offline, point pip at a folder of wheels instead: pip install --no-index --find-links DIR -r THIS_FILE",
    ]
    if index:
        lines.append(f"--extra-index-url {index}")
    lines += [f"{name}=={version}" for name, version in pins(lock).items()]
    if torch is None:
        lines.append("# torch was not installed when the lock was written")
    return "\n".join(lines) + "\n"


def base_image(lock: EnvironmentLock) -> str:
    """The official image the Dockerfile starts from."""
    cuda = lock.torch.cuda
    version, _index = torch_build(lock)
    if cuda is not None and version:
        cudnn = lock.torch.cudnn
        major = 9
        if cudnn is not None and cudnn > 0:
            major = cudnn // 10000 if cudnn >= 10000 else cudnn // 1000
        return f"pytorch/pytorch:{version.partition('+')[0]}-cuda{cuda}-cudnn{major}-runtime"
    python = ".".join(_python(lock).split(".")[:2]) or "3"
    return f"python:{python}-slim"


def dockerfile_text(lock: EnvironmentLock, requirements_name: str, lock_name: str) -> str:
    """A Dockerfile on :func:`base_image` that installs the requirements and carries the lock to check against."""
    image = base_image(lock)
    gpu = image.startswith("pytorch/")
    run = "docker run --gpus all" if gpu else "docker run"
    lines = [
        f"# Rebuilds the environment locked by {_written(lock)}.",
        "# Build from the folder that holds this file, the requirements and the lock:",
        f"#   docker build -f {lock_name.removesuffix('.json')}.Dockerfile -t gpu-tutor-env .",
        "# then install gpu-tutor from your checkout inside it and check the lock:",
        f"#   {run} -v \"$PWD/gpu-tutor:/src\" gpu-tutor-env sh -c "
        "'pip install /src && tutor doctor --check-lock /opt/gpu-tutor/environment.lock.json'",
    ]
    if gpu:
        lines.append("# The official PyTorch image brings CUDA and cuDNN; its Python may differ from the locked "
                     f"{_python(lock) or '?'} (the check says so).")
    lines += [
        f"FROM {image}",
        f"COPY {requirements_name} /opt/gpu-tutor/requirements.txt",
        f"COPY {lock_name} /opt/gpu-tutor/environment.lock.json",
        "RUN python -m pip install --no-cache-dir -r /opt/gpu-tutor/requirements.txt",
    ]
    return "\n".join(lines) + "\n"


def write_rebuild(lock_path: Path, lock: EnvironmentLock) -> LockRebuild:
    """Write the requirements file and the Dockerfile beside ``lock_path``; what they hold."""
    requirements, dockerfile = rebuild_paths(lock_path)
    _atomic(requirements, requirements_text(lock))
    _atomic(dockerfile, dockerfile_text(lock, requirements.name, lock_path.name))
    return rebuild_summary(lock, requirements, dockerfile)


def rebuild_summary(lock: EnvironmentLock, requirements: Path, dockerfile: Path) -> LockRebuild:
    """What the rebuild files written for ``lock`` at these paths hold."""
    torch, index = torch_build(lock)
    return LockRebuild(requirements=str(requirements), dockerfile=str(dockerfile), torch=torch, index_url=index,
                       base_image=base_image(lock), pins=pins(lock))


def _atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def pins_text(rebuild: LockRebuild, most: int = 4) -> str:
    """``torch 2.13.0+cpu (https://…/cpu), numpy 2.3.1, … and N more``: what a lock pins, for one line.

    ``rebuild`` may come from a lock file on disk or a stored row, so every value is cleaned to one plain line."""
    from tutor.untrusted import clean_line

    items = [(clean_line(str(k))[:60], clean_line(str(v))[:40]) for k, v in rebuild.pins.items()]
    torch = next((v for k, v in items if k == "torch"), None)
    index = rebuild.index_url
    parts = []
    if torch:
        parts.append(f"torch {torch}" + (f" ({clean_line(str(index))[:80]})" if index else ""))
    others = [f"{k} {v}" for k, v in items if k != "torch"]
    parts += others[:most]
    if len(others) > most:
        parts.append(f"+{len(others) - most}")
    return ", ".join(parts) or "—"  # (no word: the line it goes into is in either language)


def age_text(ts: float | None, lang: str, now: float | None = None) -> str:
    """How long ago ``ts`` was: ``40 s``, ``12 min``, ``3 h``, ``2 d`` (units read the same in es and en)."""
    del lang  # the same symbols in both languages; kept so a caller states the language it writes
    import time

    if ts is None:
        return "?"
    seconds = max(0.0, (time.time() if now is None else now) - ts)
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86400:.0f} d"


def clean_rebuild(found: LockRebuild | None) -> LockRebuild | None:
    """The rebuild part of a lock read from disk as plain one-line text, each field and at most 500 pins bounded."""
    from dataclasses import replace

    from tutor.untrusted import clean_line

    if found is None:
        return None

    def line(value: str | None) -> str | None:
        return clean_line(value)[:300] if value is not None else None

    return replace(found, requirements=line(found.requirements), dockerfile=line(found.dockerfile),
                   torch=line(found.torch), index_url=line(found.index_url), base_image=line(found.base_image),
                   pins={clean_line(k)[:80]: clean_line(v)[:80] for k, v in list(found.pins.items())[:500]})
