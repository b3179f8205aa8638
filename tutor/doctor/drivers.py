"""Which NVIDIA driver each CUDA version needs, and which GPUs need which kernels.

Minimum drivers are those of each toolkit's GA release in NVIDIA's CUDA Toolkit release notes ("CUDA Toolkit and
Corresponding Driver Versions"). Within a CUDA major version an older driver may still run the code through *minor
version compatibility* (from the major's first driver on), but without PTX JIT — so it is a warning, not a failure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class DriverMinimum:
    cuda: str
    linux: str
    windows: str  # also what WSL2 needs: the driver there is the Windows one


#: CUDA (major.minor) → minimum driver for full support (the GA release's driver).
DRIVER_MINIMUMS: dict[str, DriverMinimum] = {
    d.cuda: d
    for d in (
        DriverMinimum("11.8", "520.61.05", "520.06"),
        DriverMinimum("12.0", "525.60.13", "527.41"),
        DriverMinimum("12.1", "530.30.02", "531.14"),
        DriverMinimum("12.2", "535.54.03", "536.25"),
        DriverMinimum("12.3", "545.23.06", "545.84"),
        DriverMinimum("12.4", "550.54.14", "551.61"),
        DriverMinimum("12.5", "555.42.02", "555.85"),
        DriverMinimum("12.6", "560.28.03", "560.76"),
        DriverMinimum("12.8", "570.26", "570.65"),
        DriverMinimum("12.9", "575.51.03", "576.02"),
        DriverMinimum("13.0", "580.65.06", "580.88"),
    )
}

#: CUDA major → the oldest driver that runs it through minor version compatibility.
MINOR_COMPAT_MINIMUMS: dict[int, DriverMinimum] = {
    11: DriverMinimum("11.x", "450.80.02", "452.39"),
    12: DriverMinimum("12.x", "525.60.13", "527.41"),
    13: DriverMinimum("13.x", "580.65.06", "580.88"),
}

#: The first driver branch that knows Blackwell GPUs (sm_100, sm_120) at all.
BLACKWELL_MIN_DRIVER = "570"


def parse_version(text: str) -> tuple[int, ...]:
    """``"570.86.15"`` → ``(570, 86, 15)``; anything unparsable → ``()``."""
    parts = re.findall(r"\d+", text or "")
    return tuple(int(p) for p in parts)


def driver_at_least(found: str, minimum: str) -> bool:
    a, b = parse_version(found), parse_version(minimum)
    width = max(len(a), len(b))
    return a + (0,) * (width - len(a)) >= b + (0,) * (width - len(b))


def minimum_for(cuda: str, *, windows: bool) -> str | None:
    """The driver a CUDA ``major.minor`` needs for full support; for a version between rows, the next row up."""
    key = ".".join(str(p) for p in parse_version(cuda)[:2])
    row = DRIVER_MINIMUMS.get(key)
    if row is None:
        wanted = parse_version(key)
        later = sorted((parse_version(k), v) for k, v in DRIVER_MINIMUMS.items() if parse_version(k) >= wanted)
        if not later or later[0][0][0] != wanted[0]:
            return None
        row = later[0][1]
    return row.windows if windows else row.linux


def minor_compat_minimum(cuda: str, *, windows: bool) -> str | None:
    major = parse_version(cuda)[:1]
    row = MINOR_COMPAT_MINIMUMS.get(major[0]) if major else None
    if row is None:
        return None
    return row.windows if windows else row.linux


def cuda_version_text(cuda_driver_version: int) -> str:
    """NVML/cuDriverGetVersion's integer → ``"12.4"`` (12040 → 12.4)."""
    return f"{cuda_driver_version // 1000}.{(cuda_driver_version % 1000) // 10}"


# -- kernels for a compute capability ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ArchMatch:
    """How (or whether) a build's arch list covers one device."""

    sass: str | None  # the arch-list entry whose machine code runs on the device natively
    ptx: str | None  # the PTX entry the driver could JIT-compile for it

    @property
    def covered(self) -> bool:
        return self.sass is not None or self.ptx is not None


def match_arch(capability: tuple[int, int], arch_list: tuple[str, ...] | list[str]) -> ArchMatch:
    """Does torch's ``get_arch_list()`` hold kernels this device can run?

    Machine code (``sm_XY``) runs on devices of the same major version and a minor ≥ Y (``sm_86`` runs on 8.9,
    ``sm_100`` does not run on 12.0). Architecture-specific variants (``sm_90a``, ``sm_100a``) run only on exactly
    that capability. PTX (``compute_XY``) can be JIT-compiled by the driver for any capability ≥ X.Y — it works,
    slowly on first launch.
    """
    major, minor = capability
    device = major * 10 + minor
    sass = ptx = None
    for entry in arch_list:
        match = re.fullmatch(r"(sm|compute)_(\d+)([a-z]?)", entry.strip())
        if not match:
            continue
        kind, digits, suffix = match.groups()
        code = int(digits)
        code_major, code_minor = code // 10, code % 10
        if kind == "sm":
            # "a" variants run on exactly that capability; plain and family ("f") ones on the same major.
            ok = code == device if suffix == "a" else code_major == major and code_minor <= minor
            if ok and (sass is None or code > _code(sass)):
                sass = entry
        elif not suffix and code <= device and (ptx is None or code > _code(ptx)):
            ptx = entry
    return ArchMatch(sass=sass, ptx=ptx)


def _code(entry: str) -> int:
    return int(re.sub(r"\D", "", entry))


def architecture_name(capability: tuple[int, int]) -> str:
    """A capability's architecture, as the course names them (Blackwell is both 10.x and 12.x)."""
    names = {
        (7, 0): "Volta",
        (7, 5): "Turing",
        (8, 0): "Ampere",
        (8, 6): "Ampere",
        (8, 7): "Ampere (Jetson Orin)",
        (8, 9): "Ada Lovelace",
        (9, 0): "Hopper",
        (10, 0): "Blackwell (data centre: B200/GB200)",
        (10, 3): "Blackwell (data centre: B300/GB300)",
        (11, 0): "Blackwell (Jetson Thor)",
        (12, 0): "Blackwell (GeForce RTX 50 / RTX PRO)",
        (12, 1): "Blackwell (DGX Spark GB10)",
    }
    return names.get(capability, "unknown architecture")
