"""The environment lock as a typed result: the versions a learner's numbers were measured with
(:class:`EnvironmentLock`) and what rebuilds them (:class:`LockRebuild`).

The doctor builds one from what it sees and writes its :meth:`EnvironmentLock.to_json` to the lock file; a
``--check-lock`` run reads a file back with :meth:`EnvironmentLock.from_json`; a stored doctor run's lock part
carries the :class:`LockRebuild` that C0 names. The file format is the one ``gpu-tutor/lock/v1`` always had: the
same keys in the same order. Pure: no torch, no Textual.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tutor.results.reading import Reader
from tutor.results.wire import JsonObject

__all__ = ["LOCK_SCHEMA", "EnvironmentLock", "GpuPin", "LockRebuild", "LockShapeError", "TorchPin"]

LOCK_SCHEMA = "gpu-tutor/lock/v1"

JsonLoc = tuple[str | int, ...]


class LockShapeError(ValueError):
    """A lock file's value is not of the type its field needs: ``loc`` is where (``("torch", "cuda")``), ``what``
    the ``result.what.*`` suffix of what was expected. The doctor turns it into a located one-line error."""

    def __init__(self, loc: JsonLoc, what: str) -> None:
        super().__init__(f"{'.'.join(str(p) for p in loc)}: expected {what}")
        self.loc = loc
        self.what = what


@dataclass(frozen=True)
class LockRebuild:
    """What rebuilds a locked environment: the requirements file and Dockerfile written beside the lock, the torch
    build pinned, the index serving it, the official base image and every exact pin."""

    requirements: str | None = None
    dockerfile: str | None = None
    torch: str | None = None
    index_url: str | None = None
    base_image: str | None = None
    pins: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        """Every field, null when unknown (the shape ``tutor doctor --lock`` has always written)."""
        return {"requirements": self.requirements, "dockerfile": self.dockerfile, "torch": self.torch,
                "index_url": self.index_url, "base_image": self.base_image, "pins": dict(self.pins)}

    @classmethod
    def from_json(cls, data: Any, where: str) -> LockRebuild:
        """A stored doctor run's rebuild part (refused, naming the field, when a field has the wrong type)."""
        r = Reader(data, where)
        pins = r.mapping("pins")
        return cls(requirements=r.opt_text("requirements"), dockerfile=r.opt_text("dockerfile"),
                   torch=r.opt_text("torch"), index_url=r.opt_text("index_url"), base_image=r.opt_text("base_image"),
                   pins={str(k): str(v) for k, v in pins.items()})


@dataclass(frozen=True)
class TorchPin:
    """The torch build a lock records: ``2.7.0+cu128``, its CUDA (``12.8``; None for a CPU build), cuDNN (an int
    such as ``90800``) and the GPU architectures it was built for."""

    version: str | None = None
    cuda: str | None = None
    cudnn: int | None = None
    arch_list: tuple[str, ...] | None = None


@dataclass(frozen=True)
class GpuPin:
    """One GPU a lock records: its name, compute capability (``12.0``) and memory in MiB."""

    name: str | None = None
    compute_capability: str | None = None
    memory_total_mib: int | None = None


@dataclass(frozen=True)
class EnvironmentLock:
    """One environment lock: what it was written by and when (never compared), and the environment it records:
    Python, platform, the torch build, the driver, the GPUs and the key packages' versions.

    A field the file lacks reads as None (compared as "absent"); keys this version does not know are kept in
    :attr:`extra` and compared as they are, so a newer tutor's lock is still checked whole."""

    created_at: str | None = None
    created_ts: float | None = None
    lock_id: str | None = None
    written_by: str | None = None
    python_version: str | None = None
    python_implementation: str | None = None
    system: str | None = None
    machine: str | None = None
    wsl: bool | None = None
    torch: TorchPin = field(default_factory=TorchPin)
    driver_version: str | None = None
    cuda_driver_version: int | None = None
    gpus: tuple[GpuPin, ...] | None = None
    packages: Mapping[str, str | None] | None = None
    rebuild: LockRebuild | None = None
    extra: Mapping[str, object] = field(default_factory=dict)
    """Top-level keys this version does not know, as the file holds them."""

    def with_rebuild(self, rebuild: LockRebuild) -> EnvironmentLock:
        from dataclasses import replace

        return replace(self, rebuild=rebuild)

    def environment(self) -> JsonObject:
        """The compared part: the environment's keys as the file writes them (none of the file's own metadata)."""
        t = self.torch
        return {
            "python": {"version": self.python_version, "implementation": self.python_implementation},
            "platform": {"system": self.system, "machine": self.machine, "wsl": self.wsl},
            "torch": {"version": t.version, "cuda": t.cuda, "cudnn": t.cudnn,
                      "arch_list": list(t.arch_list) if t.arch_list is not None else None},
            "driver": {"version": self.driver_version, "cuda_driver_version": self.cuda_driver_version},
            "gpus": [{"name": g.name, "compute_capability": g.compute_capability,
                      "memory_total_mib": g.memory_total_mib} for g in self.gpus] if self.gpus is not None else None,
            "packages": dict(self.packages) if self.packages is not None else None,
            **self.extra,
        }

    def to_json(self) -> JsonObject:
        """The lock file's document, keys in the order ``gpu-tutor/lock/v1`` writes them."""
        out: JsonObject = {"schema": LOCK_SCHEMA, "created_at": self.created_at, "created_ts": self.created_ts,
                           "lock_id": self.lock_id, "written_by": self.written_by, **self.environment()}
        if self.rebuild is not None:
            out["rebuild"] = self.rebuild.to_json()
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EnvironmentLock:
        """The lock in a parsed lock file (its schema already checked). Raises :class:`LockShapeError` at the
        first value of the wrong type; of the rebuild part, which only the tutor reads back, the fields that read
        are kept (:attr:`rebuild` None when none does)."""
        known = {"schema", "created_at", "created_ts", "lock_id", "written_by", "python", "platform", "torch",
                 "driver", "gpus", "packages", "rebuild"}
        python, platform = _obj(data, ("python",)), _obj(data, ("platform",))
        torch, driver = _obj(data, ("torch",)), _obj(data, ("driver",))
        arch = _get(torch, ("torch", "arch_list"), list)
        gpus = _get(data, ("gpus",), list)
        packages = _obj(data, ("packages",)) if data.get("packages") is not None else None
        rebuild = data.get("rebuild")
        return cls(
            created_at=_get(data, ("created_at",), str), created_ts=_num(data, ("created_ts",)),
            lock_id=_get(data, ("lock_id",), str), written_by=_get(data, ("written_by",), str),
            python_version=_get(python, ("python", "version"), str),
            python_implementation=_get(python, ("python", "implementation"), str),
            system=_get(platform, ("platform", "system"), str), machine=_get(platform, ("platform", "machine"), str),
            wsl=_get(platform, ("platform", "wsl"), bool),
            torch=TorchPin(version=_get(torch, ("torch", "version"), str), cuda=_get(torch, ("torch", "cuda"), str),
                           cudnn=_int(torch, ("torch", "cudnn")),
                           arch_list=tuple(_item_text(a, ("torch", "arch_list", i)) for i, a in enumerate(arch))
                           if arch is not None else None),
            driver_version=_get(driver, ("driver", "version"), str),
            cuda_driver_version=_int(driver, ("driver", "cuda_driver_version")),
            gpus=tuple(_gpu(g, ("gpus", i)) for i, g in enumerate(gpus)) if gpus is not None else None,
            packages={str(k): _get(packages, ("packages", str(k)), str) for k in packages}
            if packages is not None else None,
            rebuild=_rebuild(rebuild),
            extra={k: v for k, v in data.items() if k not in known},
        )


def _rebuild(found: object) -> LockRebuild | None:
    """The rebuild part of a lock read from disk, its known fields that are text (pins as text); None when it
    holds none. The text is as the file has it: the doctor cleans it before showing it
    (:func:`tutor.doctor.rebuild.clean_rebuild`)."""
    if not isinstance(found, Mapping):
        return None
    texts = {key: value for key in ("requirements", "dockerfile", "torch", "index_url", "base_image")
             if isinstance(value := found.get(key), str)}
    raw = found.get("pins")
    if not texts and not isinstance(raw, Mapping):
        return None  # nothing of what rebuilds it (an older lock, or another program's)
    pins = {str(k): str(v) for k, v in raw.items()} if isinstance(raw, Mapping) else {}
    return LockRebuild(pins=pins, **texts)


def _obj(data: Mapping[str, Any], loc: JsonLoc) -> Mapping[str, Any]:
    value = data.get(str(loc[-1]))
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise LockShapeError(loc, "object")
    return value


_WHAT = {str: "text", bool: "flag", list: "list"}


def _get(data: Mapping[str, Any], loc: JsonLoc, kind: type) -> Any:
    value = data.get(str(loc[-1]))
    if value is None:
        return None
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise LockShapeError(loc, _WHAT[kind])
    return value


def _num(data: Mapping[str, Any], loc: JsonLoc) -> float | None:
    value = data.get(str(loc[-1]))
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LockShapeError(loc, "number")
    return value


def _int(data: Mapping[str, Any], loc: JsonLoc) -> int | None:
    value = data.get(str(loc[-1]))
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise LockShapeError(loc, "integer")
    return value


def _item_text(value: object, loc: JsonLoc) -> str:
    if not isinstance(value, str):
        raise LockShapeError(loc, "text")
    return value


def _gpu(value: object, loc: JsonLoc) -> GpuPin:
    if not isinstance(value, Mapping):
        raise LockShapeError(loc, "object")
    return GpuPin(name=_get(value, (*loc, "name"), str),
                  compute_capability=_get(value, (*loc, "compute_capability"), str),
                  memory_total_mib=_int(value, (*loc, "memory_total_mib")))
