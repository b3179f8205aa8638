"""The datasheet spec table: what each device's vendor says it can do (pure data, no torch).

Figures are *dense* (no structured sparsity). ``tflops`` is by dtype: ``float32`` is the non-tensor-core FP32
rate; ``tfloat32``, ``bfloat16`` and ``float16`` are tensor-core rates with FP32 accumulate. The measured roofline
is drawn beside these, never replaced by them.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class DeviceSpec:
    """Datasheet figures of one device, with where they come from."""

    key: str
    name: str
    memory_gb: float
    memory_type: str
    bandwidth_gbs: float
    tflops: dict[str, float]
    source: str
    sms: int | None = None
    compute_capability: str | None = None
    patterns: tuple[str, ...] = field(default=(), repr=False)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("patterns")
        return data

    def ridge_flops_per_byte(self, dtype: str = "float32") -> float | None:
        tflops = self.tflops.get(dtype)
        return None if tflops is None else tflops * 1e12 / (self.bandwidth_gbs * 1e9)


SPECS: dict[str, DeviceSpec] = {
    s.key: s
    for s in (
        DeviceSpec(
            "rtx-5090", "NVIDIA GeForce RTX 5090", 32, "GDDR7", 1792,
            {"float64": 1.6375, "float32": 104.8, "tfloat32": 104.8, "bfloat16": 209.5, "float16": 209.5},
            "NVIDIA RTX Blackwell GPU architecture whitepaper (GB202), RTX 5090 column; float64 = float32 ÷ 64, the "
            "rate public spec listings give (1.637 TFLOP/s), not found in NVIDIA's whitepaper or CUDA programming "
            "guide as searched", 170, "12.0",
            (r"rtx\s*5090",),
        ),
        DeviceSpec(
            "rtx-4090", "NVIDIA GeForce RTX 4090", 24, "GDDR6X", 1008,
            {"float32": 82.6, "tfloat32": 82.6, "bfloat16": 165.2, "float16": 165.2},
            "NVIDIA Ada Lovelace GPU architecture whitepaper (AD102), RTX 4090 column", 128, "8.9",
            (r"rtx\s*4090",),
        ),
        DeviceSpec(
            "a100-80gb", "NVIDIA A100 80GB (SXM)", 80, "HBM2e", 2039,
            {"float64": 9.7, "float32": 19.5, "tfloat32": 156, "bfloat16": 312, "float16": 312},
            "NVIDIA A100 Tensor Core GPU datasheet (80GB SXM)", 108, "8.0",
            (r"a100.*80\s*gb",),
        ),
        DeviceSpec(
            "a100-40gb", "NVIDIA A100 40GB", 40, "HBM2", 1555,
            {"float64": 9.7, "float32": 19.5, "tfloat32": 156, "bfloat16": 312, "float16": 312},
            "NVIDIA A100 Tensor Core GPU datasheet (40GB)", 108, "8.0",
            (r"a100",),
        ),
        DeviceSpec(
            "h100-pcie", "NVIDIA H100 PCIe", 80, "HBM2e", 2000,
            {"float64": 26, "float32": 51, "tfloat32": 378, "bfloat16": 756, "float16": 756},
            "NVIDIA H100 Tensor Core GPU datasheet (PCIe; dense = half the sparse figure)", 114, "9.0",
            (r"h100.*pcie",),
        ),
        DeviceSpec(
            "h100-sxm", "NVIDIA H100 SXM", 80, "HBM3", 3350,
            {"float64": 34, "float32": 67, "tfloat32": 494.7, "bfloat16": 989.4, "float16": 989.4},
            "NVIDIA H100 Tensor Core GPU datasheet (SXM; dense = half the sparse figure)", 132, "9.0",
            (r"h100",),
        ),
        DeviceSpec(
            "h200", "NVIDIA H200 SXM", 141, "HBM3e", 4800,
            {"float64": 34, "float32": 67, "tfloat32": 494.7, "bfloat16": 989.4, "float16": 989.4},
            "NVIDIA H200 Tensor Core GPU datasheet (SXM; dense = half the sparse figure)", 132, "9.0",
            (r"h200",),
        ),
        DeviceSpec(
            "b200", "NVIDIA B200", 180, "HBM3e", 8000,
            {"float64": 37, "float32": 75, "tfloat32": 1100, "bfloat16": 2250, "float16": 2250},
            "NVIDIA HGX B200 datasheet, per GPU (8-GPU figures ÷ 8; dense = half the sparse figure)", 148,
            "10.0", (r"\bb200\b",),
        ),
    )
}

# Generic CPU memory systems, for drawing a datasheet-style bandwidth line on a CPU-only machine when the
# learner says what they have. Peak = channels × 8 bytes × transfer rate.
GENERIC_CPU_MEMORY: dict[str, dict[str, Any]] = {
    "ddr4-3200-dual": {"bandwidth_gbs": 51.2, "source": "2 channels × 8 B × 3200 MT/s (JEDEC DDR4-3200)"},
    "ddr5-4800-dual": {"bandwidth_gbs": 76.8, "source": "2 channels × 8 B × 4800 MT/s (JEDEC DDR5-4800)"},
    "ddr5-5600-dual": {"bandwidth_gbs": 89.6, "source": "2 channels × 8 B × 5600 MT/s (JEDEC DDR5-5600)"},
    "ddr5-4800-12ch": {"bandwidth_gbs": 460.8, "source": "12 channels × 8 B × 4800 MT/s (server, e.g. EPYC 9004)"},
    "lpddr5x-8533-128bit": {"bandwidth_gbs": 136.5, "source": "128-bit × 8533 MT/s (laptop LPDDR5X)"},
}


def lookup_spec(device_name: str) -> DeviceSpec | None:
    """The datasheet entry for a device name as torch or NVML reports it (e.g. "NVIDIA GeForce RTX 5090")."""
    name = device_name.lower()
    for spec in SPECS.values():
        if any(re.search(p, name) for p in spec.patterns):
            return spec
    return None


AMX_FLOPS_PER_CYCLE = 1024
"""Per core with AMX (Intel Sapphire Rapids and later): one TMUL unit; a TDPBF16PS of 16×32 by 32×16 tiles is
8192 multiply-adds every 16 cycles = 1024 FLOPs per cycle (Intel's "1024 BF16 operations per cycle per core")."""


def cpu_flops_per_cycle_per_core(flags: set[str] | frozenset[str], dtype: str = "float32") -> int:
    """Peak FLOPs per cycle per core: with AMX for bf16 (or AMX-FP16 for fp16) the tile unit's 1024; otherwise the
    SIMD width: 2 FMA pipes × lanes × 2 (multiply + add).

    An upper bound (real cores may have one 512-bit pipe, or split 512-bit ops into two 256-bit halves).
    """
    if (dtype == "bfloat16" and "amx_bf16" in flags) or (dtype == "float16" and "amx_fp16" in flags):
        return AMX_FLOPS_PER_CYCLE
    width_bits, fma = _simd(flags)
    return 2 * (width_bits // _lane_bits(flags, dtype)) * fma


def _simd(flags: set[str] | frozenset[str]) -> tuple[int, int]:
    width_bits = 512 if "avx512f" in flags else 256 if "avx2" in flags or "avx" in flags else 128
    fma = 2 if "fma" in flags or "avx512f" in flags else 1
    return width_bits, fma


def _lane_bits(flags: set[str] | frozenset[str], dtype: str) -> int:
    if (dtype == "bfloat16" and "avx512_bf16" in flags) or (dtype == "float16" and "avx512_fp16" in flags):
        return 16
    return 64 if dtype == "float64" else 32


def cpu_flops_per_cycle_explained(flags: set[str] | frozenset[str], dtype: str = "float32") -> str:
    """Where :func:`cpu_flops_per_cycle_per_core` comes from, in words (e.g. "2 AVX-512 FMA pipes × 16 float32
    lanes × 2 (multiply + add)")."""
    n = cpu_flops_per_cycle_per_core(flags, dtype)
    if n == AMX_FLOPS_PER_CYCLE:  # only the tile unit reaches it
        return f"{n} FLOP/cycle: one AMX tile unit per core ({dtype})"
    width_bits, fma = _simd(flags)
    isa = {512: "AVX-512", 256: "AVX2" if "avx2" in flags else "AVX", 128: "SSE"}[width_bits]
    lanes = width_bits // _lane_bits(flags, dtype)
    pipes = f"{fma} {isa} FMA pipe{'s' if fma > 1 else ''}" if "fma" in flags or "avx512f" in flags else (
        f"{isa} (no FMA)")
    return f"{n} FLOP/cycle: {pipes} × {lanes} {dtype} lanes × 2 (multiply + add)"


def cpu_theoretical_peak_flops(cores: int, ghz: float, flags: set[str], dtype: str = "float32") -> float:
    """The CPU's theoretical FLOP/s: cores × clock × FLOPs per cycle (a physical ceiling for sanity checks)."""
    return cores * ghz * 1e9 * cpu_flops_per_cycle_per_core(flags, dtype)
