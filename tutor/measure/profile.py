"""Where a training step's time goes, measured with ``torch.profiler`` (Fase 1, claim 1: GEMM dominates).

The bundled transformer's training step (forward, cross-entropy, backward, AdamW) runs under the profiler after a
warm-up step; every operator's *self* time (time in the operator itself, not in the operators it calls, so nothing
is counted twice) is grouped into GEMM, attention's softmax, element-wise/normalisation, optimizer and other.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F

from tutor.measure.model import MODEL_MODES, build_model
from tutor.measure.timing import CancelCheck, check_cancel

#: aten operators that are matrix multiplies (their self time is the GEMM share).
GEMM_OPS = frozenset({"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul", "aten::linear",
                      "aten::_scaled_mm", "aten::addbmm"})
SOFTMAX_OPS = frozenset({"aten::softmax", "aten::_softmax", "aten::_softmax_backward_data",
                         "aten::_log_softmax", "aten::_log_softmax_backward_data", "aten::log_softmax"})


def _group(name: str) -> str:
    if name in GEMM_OPS:
        return "gemm"
    if name in SOFTMAX_OPS:
        return "softmax"
    if name.startswith("aten::"):
        return "elementwise"
    return "other"


def _self_times(prof: Any, use_device: bool) -> dict[str, float]:
    per_op: dict[str, float] = {}
    for event in prof.key_averages():
        us = float(event.self_device_time_total if use_device else event.self_cpu_time_total)
        if us > 0:
            per_op[event.key] = per_op.get(event.key, 0.0) + us
    return per_op


def profile_train_step(device: str, mode: str, steps: int, batch: int | None = None,
                       should_cancel: CancelCheck | None = None) -> dict[str, Any]:
    """Self time per operator group over ``steps`` profiled training steps (after one warm-up step).

    The forward/backward and the optimizer step are profiled apart, so AdamW's element-wise updates are counted as
    the optimizer, not as the model's element-wise work.
    """
    from torch.profiler import ProfilerActivity, profile

    cfg_mode = MODEL_MODES[mode]
    cfg = cfg_mode.config
    model = build_model(cfg, device, torch.float32).train()
    batch = batch or cfg_mode.train_batch
    seq = cfg_mode.train_seq
    gen = torch.Generator(device="cpu").manual_seed(3)
    tokens = torch.randint(0, cfg.vocab, (batch, seq), generator=gen).to(device)
    targets = torch.randint(0, cfg.vocab, (batch, seq), generator=gen).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

    def forward_backward() -> None:
        logits = model(tokens)
        loss = F.cross_entropy(logits.flatten(0, 1).float(), targets.flatten())
        loss.backward()

    def optimizer_step() -> None:
        opt.step()
        opt.zero_grad(set_to_none=True)

    forward_backward()  # warm-up: allocates Adam's state
    optimizer_step()
    use_device = device == "cuda"
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if use_device else [])
    model_ops: dict[str, float] = {}
    optimizer_us = 0.0
    for _ in range(steps):
        check_cancel(should_cancel)
        with profile(activities=activities) as prof:
            forward_backward()
            if use_device:
                torch.cuda.synchronize()
        for name, us in _self_times(prof, use_device).items():
            model_ops[name] = model_ops.get(name, 0.0) + us
        with profile(activities=activities) as prof:
            optimizer_step()
            if use_device:
                torch.cuda.synchronize()
        optimizer_us += sum(_self_times(prof, use_device).values())
    groups: dict[str, float] = {"optimizer": optimizer_us}
    for name, us in model_ops.items():
        group = _group(name)
        groups[group] = groups.get(group, 0.0) + us
    total = sum(groups.values())
    top = sorted(model_ops.items(), key=lambda kv: kv[1], reverse=True)[:8]
    return {
        "steps": steps,
        "batch": batch,
        "seq_len": seq,
        "tokens_per_step": batch * seq,
        "clock": "device (CUDA kernels)" if use_device else "CPU self time",
        "total_s": total / 1e6,
        "shares": {g: us / total for g, us in sorted(groups.items())} if total else {},
        "gemm_share": groups.get("gemm", 0.0) / total if total else 0.0,
        "top_ops": [{"op": name, "share": us / total, "time_s": us / 1e6} for name, us in top] if total else [],
    }
