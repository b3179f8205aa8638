"""One tiny CUDA kernel, run in a subprocess with a timeout.

The arch list says whether torch *should* have kernels for the GPU; running one says whether it *does*. CUDA
initialisation can hang or crash on a broken stack, so it never happens in the doctor's own process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field

NO_KERNEL_IMAGE = "no kernel image is available for execution on the device"
_MARK = "GPU-TUTOR-PROBE "
# Sum of 2·x + 1 for x = 0..1023: a wrong answer means the kernel ran but computed garbage.
_EXPECTED = 1048576.0

_SCRIPT = f"""
import json, time, warnings
out = {{"ok": False, "error": None, "warnings": [], "device": None, "capability": None, "value": None}}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        import torch
        out["device"] = torch.cuda.get_device_name(0)
        out["capability"] = list(torch.cuda.get_device_capability(0))
        x = torch.arange(1024, device="cuda", dtype=torch.float32)
        out["value"] = float((x * 2 + 1).sum().item())
        torch.cuda.synchronize()
        out["ok"] = out["value"] == {_EXPECTED!r}
        if not out["ok"]:
            out["error"] = "the kernel ran but returned " + repr(out["value"])
    except BaseException as exc:
        out["error"] = type(exc).__name__ + ": " + str(exc)
out["warnings"] = [str(w.message).strip() for w in caught]
print({_MARK!r} + json.dumps(out), flush=True)
"""


@dataclass(frozen=True)
class KernelProbe:
    """What happened when one tiny kernel was launched on GPU 0."""

    ok: bool
    error: str | None = None  # "RuntimeError: CUDA error: no kernel image is available ..." or similar
    warnings: tuple[str, ...] = ()  # e.g. torch's "... with CUDA capability sm_120 is not compatible ..."
    device: str | None = None
    capability: tuple[int, int] | None = None
    timed_out: bool = False
    seconds: float = 0.0
    details: tuple[str, ...] = field(default=())

    @property
    def no_kernel_image(self) -> bool:
        return NO_KERNEL_IMAGE in (self.error or "")


def run_kernel_probe(*, timeout_s: float = 30.0, python: str | None = None) -> KernelProbe:
    """Launch the probe in a fresh interpreter; a hang becomes ``timed_out``, a crash an error, never an exception."""
    env = dict(os.environ, CUDA_LAUNCH_BLOCKING="1", PYTHONWARNINGS="default")
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [python or sys.executable, "-c", _SCRIPT],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return KernelProbe(
            ok=False,
            error=f"the probe did not finish within {timeout_s:.0f} s (CUDA initialisation hung)",
            timed_out=True,
            seconds=time.perf_counter() - start,
        )
    except OSError as exc:
        return KernelProbe(ok=False, error=f"could not start the probe: {exc}", seconds=time.perf_counter() - start)
    return parse_probe_output(done.stdout, done.stderr, done.returncode, time.perf_counter() - start)


def parse_probe_output(stdout: str, stderr: str, returncode: int, seconds: float = 0.0) -> KernelProbe:
    """Turn the probe's output into a :class:`KernelProbe` (a crash without output is reported as such)."""
    for line in reversed(stdout.splitlines()):
        if line.startswith(_MARK):
            try:
                data = json.loads(line[len(_MARK) :])
            except json.JSONDecodeError:
                break
            cap = data.get("capability")
            return KernelProbe(
                ok=bool(data.get("ok")),
                error=data.get("error"),
                warnings=tuple(str(w) for w in data.get("warnings") or ()),
                device=data.get("device"),
                capability=(int(cap[0]), int(cap[1])) if isinstance(cap, list) and len(cap) == 2 else None,
                seconds=seconds,
            )
    tail = [ln for ln in (stderr or stdout).strip().splitlines() if ln.strip()][-3:]
    message = tail[-1] if tail else "no output"
    return KernelProbe(
        ok=False,
        error=f"the probe exited with status {returncode}: {message}",
        seconds=seconds,
        details=tuple(tail),
    )
