"""Memory accounting of a model preset (imports torch).

On CUDA the preset is built at full size and run: ``torch.cuda.max_memory_allocated`` (and reserved) plus the
context outside torch's allocator; an out-of-memory error is evidence: "does not fit".
On the CPU the preset is built scaled down (fewer layers, narrower), the peak bytes of live tensor storage are
tracked with a ``TorchDispatchMode`` during the run, and the full size is extrapolated with the lesson's formula
(measured ÷ formula at small scale, times the formula at full scale) — labelled so.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any

import torch
from torch.nn import functional as F
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

from tutor.measure.kernels import TORCH_DTYPES
from tutor.measure.model import TinyTransformer, TransformerConfig, n_params
from tutor.measure.timing import CancelCheck, check_cancel
from tutor.theory import formulas

CPU_LABEL = "measured at small scale, extrapolated"
CUDA_LABEL = "measured on the GPU"


class LiveStorageTracker(TorchDispatchMode):
    """Peak bytes of live tensor storage created while the mode is active.

    Each op's outputs are recorded by storage data pointer and released when the storage object is collected.
    Tensors created before the mode was entered (e.g. a model's parameters) are not seen: count them separately.
    An output on the storage of one of the op's inputs (an in-place result such as Adam's ``param.addcdiv_``, or a
    view such as ``weight.t()``) is a storage seen again, not new bytes: counting it double-counted every parameter
    an optimiser step updates in place (GPT-2 training evidence 7.23 GB where 6.63 GB is right).
    """

    def __init__(self) -> None:
        super().__init__()
        self.live: dict[int, int] = {}
        self.current = 0
        self.peak = 0

    def _release(self, ptr: int) -> None:
        self.current -= self.live.pop(ptr, 0)

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        seen = {t.untyped_storage().data_ptr() for t in tree_flatten((args, kwargs))[0]
                if isinstance(t, torch.Tensor) and t.device.type == "cpu"}
        out = func(*args, **kwargs)
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor) and t.device.type == "cpu":
                storage = t.untyped_storage()
                ptr, nbytes = storage.data_ptr(), storage.nbytes()
                if nbytes == 0 or ptr in self.live or ptr in seen:
                    continue
                self.live[ptr] = nbytes
                self.current += nbytes
                self.peak = max(self.peak, self.current)
                weakref.finalize(storage, self._release, ptr)
        return out


def preset_config(preset: formulas.ModelPreset, seq_len: int) -> TransformerConfig:
    return TransformerConfig(vocab=preset.vocab, hidden=preset.hidden, layers=preset.layers, heads=preset.heads,
                             kv_heads=preset.kv_heads, intermediate=preset.intermediate, mlp=preset.mlp,
                             max_seq_len=seq_len, tied_embeddings=preset.tied_embeddings,
                             sliding_window=preset.sliding_window)


def small_config(preset: formulas.ModelPreset, seq_len: int, full_seq_len: int | None = None) -> TransformerConfig:
    """The preset narrowed 16× and cut to 2 layers, keeping its GQA ratio, MLP kind and tying; a sliding window
    that binds at ``full_seq_len`` tokens is scaled with the sequence (4096 of 8192 → 64 of 128), so the small run
    keeps the same share of its tokens in the cache as the full one."""
    heads = max(1, preset.heads // 8)
    kv_heads = max(1, preset.kv_heads * heads // preset.heads)
    head_dim = max(8, preset.hidden // 16 // heads)
    full = seq_len if full_seq_len is None else full_seq_len
    window = preset.sliding_window
    small_window = None if window is None or window >= full else max(1, -(-window * seq_len // full))
    return TransformerConfig(vocab=min(preset.vocab, 4096), hidden=heads * head_dim, layers=2, heads=heads,
                             kv_heads=kv_heads, intermediate=max(16, preset.intermediate // 16), mlp=preset.mlp,
                             max_seq_len=seq_len, tied_embeddings=preset.tied_embeddings, sliding_window=small_window)


def formula_bytes(
    cfg: TransformerConfig, n: float, mode: str, batch: int, seq_len: int, dtype: str,
) -> dict[str, float]:
    """The lesson's formula, by component, for what this module's run holds (a sliding-window config caches
    min(seq_len, window) tokens a layer; the inference run is a prefill of the whole prompt with naive attention,
    so it also holds :func:`tutor.theory.formulas.prefill_working_bytes`)."""
    if mode == "inference":
        parts = {
            "weights": formulas.weights_bytes(n, dtype),
            "kv_cache": formulas.kv_cache_bytes(cfg.layers, cfg.kv_heads, cfg.head_dim, seq_len, batch, dtype,
                                                cfg.sliding_window),
            "prefill_working": formulas.prefill_working_bytes(batch, cfg.heads, seq_len, cfg.vocab, dtype),
        }
    else:
        parts = {
            "weights_grads_adam": formulas.adam_training_bytes(n),
            "activations": formulas.activation_bytes(cfg.layers, cfg.hidden, cfg.heads, seq_len, batch, dtype),
        }
    parts["total"] = sum(parts.values())
    return parts


TRAINING_STEPS = 2
"""Training steps a memory run takes: the peak of a training run is reached at the second (see :func:`_run`)."""


def _run(model: TinyTransformer, mode: str, batch: int, seq_len: int, dtype: torch.dtype, device: str,
         should_cancel: CancelCheck | None, autocast: bool = False) -> None:
    cfg = model.cfg
    tokens = torch.randint(0, cfg.vocab, (batch, seq_len), device=device)
    check_cancel(should_cancel)
    if mode == "inference":
        with torch.inference_mode():
            caches = model.new_cache(batch, dtype, device)
            model(tokens, caches, 0)
    else:
        # Two steps: Adam allocates its two moments at the first step, after the activations are freed, so one step
        # alone never holds weights, gradients, Adam state and activations at once; the second step's forward and
        # backward do, as every later step of a real training run does (the formula adds the four).
        opt = torch.optim.Adam(model.parameters(), lr=1e-4)
        for _step in range(TRAINING_STEPS):
            with torch.autocast(device, dtype=torch.bfloat16, enabled=autocast):
                logits = model(tokens)
                loss = F.cross_entropy(logits.flatten(0, 1).float(), tokens.flatten())
            loss.backward()
            check_cancel(should_cancel)
            opt.step()
            opt.zero_grad(set_to_none=False)  # the gradients stay allocated between steps, as the formula counts them
            del logits, loss


def measure_vram(device: str, p: dict[str, Any], should_cancel: CancelCheck | None = None) -> dict[str, Any]:
    """Memory of preset ``p["preset"]`` for ``p["mode"]`` at ``batch`` × ``seq_len`` (validated params)."""
    preset = formulas.model_preset(p["preset"])
    mode, batch, seq_len, dtype = p["mode"], p["batch"], p["seq_len"], p["dtype"]
    capacity = p["capacity_gb"] * formulas.GB
    full_cfg = preset_config(preset, seq_len)
    formula_full = formula_bytes(full_cfg, preset.n_params, mode, batch, seq_len, dtype)
    base = {"preset": preset.key, "display": preset.display, "mode": mode, "dtype": dtype, "batch": batch,
            "seq_len": seq_len, "capacity_gb": p["capacity_gb"], "formula_bytes": formula_full,
            "formula_gb": formula_full["total"] / formulas.GB,
            "formula_gb_parts": {k: v / formulas.GB for k, v in formula_full.items()}}
    if device == "cuda":
        return {**base, **_measure_cuda(full_cfg, mode, batch, seq_len, dtype, capacity, should_cancel)}
    return {**base, **_measure_cpu(preset, mode, batch, seq_len, dtype, capacity, formula_full, should_cancel)}


def _measure_cpu(preset: formulas.ModelPreset, mode: str, batch: int, seq_len: int, dtype: str, capacity: float,
                 formula_full: dict[str, float], should_cancel: CancelCheck | None) -> dict[str, Any]:
    small_seq, small_batch = min(seq_len, 128), min(batch, 2)
    cfg = small_config(preset, small_seq, seq_len)
    # Training is measured in float32 (Adam's 16 bytes/param either way); inference in the asked dtype.
    run_dtype = "float32" if mode == "training" else dtype
    torch.manual_seed(0)
    model = TinyTransformer(cfg).to(TORCH_DTYPES[run_dtype])
    n = n_params(model)
    param_bytes = sum(t.numel() * t.element_size() for t in model.parameters())
    tracker = LiveStorageTracker()
    with tracker:
        _run(model, mode, small_batch, small_seq, TORCH_DTYPES[run_dtype], "cpu", should_cancel)
    measured = tracker.peak + param_bytes
    formula_small = formula_bytes(cfg, n, mode, small_batch, small_seq, run_dtype)
    ratio = measured / formula_small["total"]
    extrapolated = formula_full["total"] * ratio
    context = formulas.cuda_context_bytes(capacity / formulas.GB)
    total = extrapolated + context
    del model
    gc.collect()
    return {
        "device_kind": "cpu",
        "label": CPU_LABEL,
        "small_scale": {"config": cfg.to_dict(), "n_params": n, "batch": small_batch, "seq_len": small_seq,
                        "dtype": run_dtype, "param_bytes": param_bytes, "peak_live_bytes": tracker.peak,
                        "measured_bytes": measured, "formula_bytes": formula_small},
        "measured_over_formula": ratio,
        "extrapolated_bytes": extrapolated,
        "context_bytes": context,
        "context_source": "estimate (formulas.cuda_context_bytes)",
        "context_kind": "estimate",
        "total_bytes": total,
        "total_gb": total / formulas.GB,
        # What the lesson's formula gives at full scale with the same context: the truth a CPU run grades against
        # (the small-scale run is evidence beside it, not the answer key).
        "formula_total_bytes": formula_full["total"] + context,
        "formula_total_gb": (formula_full["total"] + context) / formulas.GB,
        "fits": total <= capacity,
        "verdict": "fits" if total <= capacity else "does not fit",
        "oom": False,
    }


def _measure_cuda(cfg: TransformerConfig, mode: str, batch: int, seq_len: int, dtype: str, capacity: float,
                  should_cancel: CancelCheck | None) -> dict[str, Any]:
    tdtype = TORCH_DTYPES[dtype]
    # Training: fp32 master weights + Adam state, bf16 autocast activations (the 16 bytes/param recipe).
    build_dtype = torch.float32 if mode == "training" else tdtype
    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    free0, total_gpu = torch.cuda.mem_get_info()
    oom = False
    error = None
    model = None
    previous_default = torch.get_default_dtype()
    try:
        torch.set_default_dtype(build_dtype)
        with torch.device("cuda"):
            torch.manual_seed(0)
            model = TinyTransformer(cfg)
        torch.set_default_dtype(previous_default)
        check_cancel(should_cancel)
        _run(model, mode, batch, seq_len, tdtype, "cuda", should_cancel, autocast=mode == "training")
        torch.cuda.synchronize()
    except torch.cuda.OutOfMemoryError as exc:
        oom = True
        error = str(exc).splitlines()[0]
    finally:
        torch.set_default_dtype(previous_default)
    peak = torch.cuda.max_memory_allocated() - before
    reserved = torch.cuda.max_memory_reserved()
    free1, _ = torch.cuda.mem_get_info()
    # What the process holds outside torch's allocator (the CUDA context, cuBLAS workspaces): device used minus
    # reserved; an estimate when that cannot be told apart from other processes.
    outside = (total_gpu - free0) - torch.cuda.memory_reserved() if free0 else 0
    context = outside if 0 < outside < 4 * formulas.GB else formulas.cuda_context_bytes(total_gpu / formulas.GB)
    del model
    gc.collect()
    torch.cuda.empty_cache()
    total = peak + context
    fits = (not oom) and total <= capacity
    return {
        "device_kind": "cuda",
        "label": CUDA_LABEL,
        "peak_allocated_bytes": peak,
        "peak_reserved_bytes": reserved,
        "context_bytes": context,
        "context_source": "measured (device used − torch reserved)" if 0 < outside < 4 * formulas.GB
        else "estimate (formulas.cuda_context_bytes)",
        "context_kind": "measured" if 0 < outside < 4 * formulas.GB else "estimate",
        "gpu_total_bytes": total_gpu,
        "free_after_bytes": free1,
        "total_bytes": total,
        "total_gb": total / formulas.GB,
        "oom": oom,
        "error": error,
        "fits": fits,
        "verdict": "does not fit" if not fits else "fits",
        "note": "out of memory on this GPU: does not fit" if oom else None,
    }
