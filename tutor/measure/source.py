"""The exact code a workload or a lab times, as text ("view code"), so the learner sees what was measured.

The kernels live in :mod:`tutor.measure.kernels`, which imports torch; the UI process must not. So the functions are
read from the source files with :mod:`ast` (``ast.get_source_segment`` returns the same text ``inspect.getsource``
would), without importing the modules that hold them.
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: What each workload runs: its builder in ``kernels.py`` and the helpers the timed lambda calls.
_WORKLOAD_FUNCTIONS: dict[str, tuple[str, ...]] = {
    "copy": ("_copy",),
    "scale": ("_scale",),
    "add": ("_add",),
    "triad": ("_triad",),
    "axpy": ("_axpy",),
    "sum": ("_sum",),
    "softmax": ("_softmax",),
    "layernorm": ("_layernorm",),
    "gemm": ("_gemm",),
    "bmm": ("_bmm",),
    "mlp_block": ("_mlp_block",),
    "matvec_int8": ("_matvec_int8",),
    "attention_naive": ("_attention_naive", "_qkv", "attention_math"),
    "attention_sdpa": ("_attention_sdpa", "_qkv"),
    "matmul_python": ("_matmul_python", "matmul_python"),
    "matmul_numpy": ("_matmul_numpy",),
    "stream_set": ("stream_set",),  # the roof's, the bench's and Lab 01's STREAM kernels (not a workload)
}

#: What each sweep times: the sweep's own function in ``sweeps.py``, then the kernels it builds.
_SWEEP_WORKLOADS: dict[str, tuple[str, ...]] = {
    "working_set": ("stream_set",),
    "gemm_sizes": ("gemm",),
    "naive_vs_numpy": ("matmul_python", "matmul_numpy"),
    "roofline_points": ("copy", "triad", "softmax", "gemm"),
    "gemm_share": (),
}


@dataclass(frozen=True)
class TimedCode:
    """The code behind one measurement: ``(file, function name, source)`` blocks, the timed function first, then
    the timing loop that calls it."""

    title: str
    blocks: tuple[tuple[str, str, str], ...]

    def markdown(self) -> str:
        """The blocks as Markdown (a heading per function, its source in a fenced ``python`` block)."""
        parts = [f"## {self.title}"]
        for file, name, text in self.blocks:
            parts.append(f"`{file}` · `{name}`\n\n```python\n{text}\n```")
        return "\n\n".join(parts)


def _module_path(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise LookupError(module)
    return Path(spec.origin)


@cache
def _functions(module: str) -> dict[str, str]:
    path = _module_path(module)
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            segment = ast.get_source_segment(text, node)
            if segment is not None:
                out[node.name] = segment
    return out


def function_source(module: str, name: str) -> str:
    """The source text of the top-level function ``name`` of ``module`` (the module is not imported)."""
    functions = _functions(module)
    if name not in functions:
        raise LookupError(f"{module}.{name}")
    return functions[name]


def _block(module: str, name: str) -> tuple[str, str, str]:
    return module.replace(".", "/") + ".py", name, function_source(module, name)


def timed_code(op: str, name: str | None) -> TimedCode | None:
    """The code ``op``/``name`` times (a workload or a sweep), with the timing loop; None when there is no single
    timed function to show (doctor, bench, vram)."""
    blocks: list[tuple[str, str, str]] = []
    if op == "workload" and name in _WORKLOAD_FUNCTIONS:
        blocks += [_block("tutor.measure.kernels", f) for f in _WORKLOAD_FUNCTIONS[name]]
    elif op == "sweep" and name in _SWEEP_WORKLOADS:
        blocks.append(_block("tutor.measure.sweeps", name))
        for workload in _SWEEP_WORKLOADS[name]:
            blocks += [_block("tutor.measure.kernels", f) for f in _WORKLOAD_FUNCTIONS[workload]]
    else:
        return None
    blocks.append(_block("tutor.measure.timing", "time_callable"))
    return TimedCode(f"{op} {name}", tuple(blocks))
