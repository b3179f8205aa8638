"""The small bundled transformer (random weights, nothing downloaded) and its two measurements: decode
tokens/s against the bandwidth bound, and a training step's tokens/s and MFU (imports torch)."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import torch
from torch import nn
from torch.nn import functional as F

from tutor.measure.decode_sizing import DecodeSizing, weights_level
from tutor.measure.estimators import cv
from tutor.measure.modes import MODEL_MODES, TransformerConfig
from tutor.measure.phases import Progress, said
from tutor.measure.timing import CancelCheck, check_cancel
from tutor.results import PhysicalLimits


class Block(nn.Module):
    def __init__(self, cfg: TransformerConfig) -> None:
        super().__init__()
        self.cfg = cfg
        hd = cfg.head_dim
        self.norm1 = nn.LayerNorm(cfg.hidden)
        self.q = nn.Linear(cfg.hidden, cfg.heads * hd, bias=False)
        self.kv = nn.Linear(cfg.hidden, 2 * cfg.kv_heads * hd, bias=False)
        self.o = nn.Linear(cfg.heads * hd, cfg.hidden, bias=False)
        self.norm2 = nn.LayerNorm(cfg.hidden)
        if cfg.mlp == "swiglu":
            self.up = nn.Linear(cfg.hidden, 2 * cfg.intermediate, bias=False)
        else:
            self.up = nn.Linear(cfg.hidden, cfg.intermediate, bias=False)
        self.down = nn.Linear(cfg.intermediate, cfg.hidden, bias=False)

    def forward(self, x: torch.Tensor, cache: torch.Tensor | None = None, pos: int = 0) -> torch.Tensor:
        cfg = self.cfg
        b, s, _ = x.shape
        hd = cfg.head_dim
        h = self.norm1(x)
        q = self.q(h).view(b, s, cfg.heads, hd).transpose(1, 2)
        k, v = self.kv(h).view(b, s, 2, cfg.kv_heads, hd).permute(2, 0, 3, 1, 4)
        if cache is not None:  # cache: [2, B, kv_heads, cache_len, hd]
            k, v = _cached(cache, k, v, pos, cfg.sliding_window)
        if cfg.kv_heads != cfg.heads:
            rep = cfg.heads // cfg.kv_heads
            k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        attn = attention(q, k, v, causal=s > 1, window=cfg.sliding_window)
        x = x + self.o(attn.transpose(1, 2).reshape(b, s, cfg.heads * hd))
        h = self.norm2(x)
        if cfg.mlp == "swiglu":
            gate, up = self.up(h).chunk(2, dim=-1)
            h = F.silu(gate) * up
        else:
            h = F.gelu(self.up(h))
        return x + self.down(h)


def _cached(cache: torch.Tensor, k: torch.Tensor, v: torch.Tensor, pos: int, window: int | None
            ) -> tuple[torch.Tensor, torch.Tensor]:
    """Store the new keys and values of tokens ``pos…pos+s`` in the layer's cache; the keys and values they attend.

    Without a window the cache holds every token in order. With one, it holds only the last ``window`` tokens, as
    a ring (token p in slot p mod window, as Mistral's rolling buffer cache): a prefill longer than the window keeps
    its last ``window`` tokens and attends over its own keys (the mask keeps the window), and a decode step attends
    to the whole ring, itself and the ``window`` − 1 tokens before it (no positions enter this model's attention, so
    the slots' order does not matter)."""
    s, size = k.shape[-2], cache.shape[-2]
    if window is None or pos + s <= size:
        cache[0, :, :, pos : pos + s] = k
        cache[1, :, :, pos : pos + s] = v
        return cache[0, :, :, : pos + s], cache[1, :, :, : pos + s]
    if s == 1:
        cache[0, :, :, pos % size] = k[:, :, 0]
        cache[1, :, :, pos % size] = v[:, :, 0]
        return cache[0], cache[1]
    if pos != 0:
        raise ValueError("a windowed cache takes a prefill only at position 0")
    shift = (s - size) % size  # the first kept token, s − size, goes to slot (s − size) mod size
    cache[0] = k[:, :, s - size :].roll(shift, dims=-2)
    cache[1] = v[:, :, s - size :].roll(shift, dims=-2)
    return k, v


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool, window: int | None = None
              ) -> torch.Tensor:
    """Attention from matmuls (so FlopCounterMode counts it on every device), causal over the cached prefix; with
    a ``window``, each query sees only itself and the ``window`` − 1 keys before it.

    This is naive attention: it holds a layer's scores, B × heads × queries × keys, and while each element-wise op
    turns them into the next (the scale, the mask, the softmax) its input and output at once, with the causal mask
    (one byte per query × key) and its negation: :func:`tutor.theory.formulas.naive_attention_bytes`."""
    scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(q.shape[-1]))
    if causal:
        s, t = q.shape[-2], k.shape[-2]
        mask = torch.ones(s, t, dtype=torch.bool, device=q.device).tril(diagonal=t - s)
        if window is not None:
            mask = mask.triu_(diagonal=t - s - window + 1)
        scores = scores.masked_fill(~mask, float("-inf"))
    return torch.matmul(torch.softmax(scores, dim=-1), v)


EMBED_INIT_STD = 0.02
"""The embedding's initial standard deviation (GPT-2's). PyTorch's default for ``nn.Embedding`` is 1, and with the
LM head tied to it the untrained model's logits had a spread of about √hidden (23 at hidden 512): an initial loss of
59 where a uniform guess gives ln(vocab), a softmax so peaked that the head's gradients for most tokens were ~1e-20
and their squares in AdamW's state subnormal floats. Those are slow on x86 and made the bench's training steps slow
down as they ran (see :class:`TrainRig`). At 0.02 the initial loss is ln(vocab) and no state is subnormal."""


class TinyTransformer(nn.Module):
    """Embedding → blocks → final norm → LM head (tied to the embedding by default)."""

    def __init__(self, cfg: TransformerConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab, cfg.hidden)
        nn.init.normal_(self.embed.weight, std=EMBED_INIT_STD)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.layers))
        self.norm = nn.LayerNorm(cfg.hidden)
        self.head = nn.Linear(cfg.hidden, cfg.vocab, bias=False)
        if cfg.tied_embeddings:
            self.head.weight = self.embed.weight

    def forward(self, tokens: torch.Tensor, caches: torch.Tensor | None = None, pos: int = 0) -> torch.Tensor:
        x = self.embed(tokens)
        for i, block in enumerate(self.blocks):
            x = block(x, None if caches is None else caches[i], pos)
        return self.head(self.norm(x))

    def new_cache(self, batch: int, dtype: torch.dtype, device: str) -> torch.Tensor:
        cfg = self.cfg
        return torch.zeros(cfg.layers, 2, batch, cfg.kv_heads, cfg.cache_len, cfg.head_dim, dtype=dtype,
                           device=device)


def n_params(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())  # shared (tied) parameters counted once


def weight_bytes_per_step(model: TinyTransformer) -> int:
    """Bytes of weights a decode step reads: every matrix once, but only one embedding row per token."""
    total = sum(p.numel() * p.element_size() for p in model.parameters())
    if not model.cfg.tied_embeddings:
        total -= model.embed.weight.numel() * model.embed.weight.element_size()
    return total


def build_model(cfg: TransformerConfig, device: str, dtype: torch.dtype = torch.float32, seed: int = 0
                ) -> TinyTransformer:
    torch.manual_seed(seed)
    model = TinyTransformer(cfg)
    return model.to(device=device, dtype=dtype)


def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def _summary(rates: list[float], times: list[float]) -> dict[str, Any]:
    return {"best": max(rates), "median": statistics.median(rates), "cv": cv(times), "repeats": len(rates),
            "times_s": times}


def weights_read_pass(model: nn.Module, device: str) -> tuple[Callable[[], float], int]:
    """(one pass, bytes): a pass reads every weight matrix once by a one-token ``linear`` — the matrix-vector
    product a decode step makes of it — and sums every vector, and returns its seconds."""
    params = [p.detach() for p in model.parameters()]
    total = sum(p.numel() * p.element_size() for p in params)
    inputs = {int(p.shape[-1]): torch.randn(1, 1, int(p.shape[-1]), dtype=p.dtype, device=p.device)
              for p in params if p.dim() == 2}

    def one_pass() -> float:
        _sync(device)
        t0 = time.perf_counter_ns()
        with torch.inference_mode():
            for p in params:
                if p.dim() == 2:
                    F.linear(inputs[int(p.shape[-1])], p)
                else:
                    p.sum()
        _sync(device)
        return (time.perf_counter_ns() - t0) / 1e9

    return one_pass, total


def read_thread_counts(device: str, default: int | None = None) -> list[int]:
    """The thread counts a weights read (and decode) tries: ``default`` (torch's now when None), and one on a CPU
    with more than one. Pass the count torch had before anything set it: a probe that tried one thread last leaves
    torch at one."""
    default = torch.get_num_threads() if default is None else default
    return [default] if device == "cuda" or default == 1 else [default, 1]


def weights_read_bandwidth(model: nn.Module, device: str, should_cancel: CancelCheck | None = None,
                           budget_s: float = 1.0) -> dict[str, Any]:
    """The bandwidth that feeds a decode step's weights, measured on the weights themselves, wherever they live
    (DRAM, or a cache that holds them): :func:`weights_read_pass`, best pass, with torch's thread count and with
    one thread (the faster count, as decode picks). Not a STREAM copy: a GEMV reads its matrix and writes almost
    nothing, and measured here a copy (25 GB/s) or a ``sum`` (24 GB/s) fed less than decode's own GEMVs read
    (31 GB/s), so a bound from either would be beaten."""
    one_pass, total = weights_read_pass(model, device)
    default = torch.get_num_threads()
    counts = read_thread_counts(device)
    best_s, best_threads, times_all = float("inf"), default, []
    try:
        for threads in counts:
            torch.set_num_threads(threads)
            one_pass()  # warm-up: a cache that can hold the weights now holds them, as after decode's warm-up
            times: list[float] = []
            while len(times) < 3 or (sum(times) < budget_s / len(counts) and len(times) < 30):
                check_cancel(should_cancel)
                times.append(one_pass())
            if min(times) < best_s:
                best_s, best_threads, times_all = min(times), threads, times
    finally:
        torch.set_num_threads(default)
    return {"gbs": total / best_s / 1e9, "bytes": total, "threads": best_threads, "passes": len(times_all),
            "cv": cv(times_all),
            "method": "every weight matrix read once by a one-token linear (a GEMV, as decode reads it), best pass"}


@dataclass(frozen=True)
class DecodeTiming:
    """Decode steps timed elsewhere (``tutor bench`` times them in interleaved rounds): every step's seconds, the
    thread count, and per round the median step (the headline is then the median over the rounds and its CV the
    spread across rounds)."""

    step_times: tuple[float, ...]
    threads: int
    round_step_s: tuple[float, ...] = ()


def measure_decode(
    device: str, mode: str, bandwidth_gbs: float, should_cancel: CancelCheck | None = None,
    progress: Progress | None = None, *, sizing: DecodeSizing | None = None,
    model: TinyTransformer | None = None, timed: dict[int, DecodeTiming] | None = None,
    feed: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Greedy decode with a KV cache at batch 1 and a larger batch; tokens/s against the bound of the roof that
    feeds the weights.

    ``bandwidth_gbs`` is the roofline's DRAM bandwidth (STREAM copy). ``sizing`` (a
    :class:`tutor.measure.decode_sizing.DecodeSizing`) chooses the model; without it, the mode's own. The bound per
    step is the bandwidth measured reading these weights where they live (:func:`weights_read_bandwidth`) ÷ (weights
    read + KV cache read); at batch B a step yields B tokens. A batch-1 figure above its bound by more than its
    noise has that bandwidth measured again (``bound_check``).
    ``model`` (the model ``sizing`` describes, already built) and ``timed`` (steps already timed, per
    batch) let a caller that times the steps itself (``tutor bench``'s rounds) build the same result; ``feed`` (the
    weights' read bandwidth in :func:`weights_read_bandwidth`'s shape, measured by that caller in its rounds) is
    then used instead of measuring it here.
    """
    from tutor.theory.roofline import bound_check

    cfg_mode = MODEL_MODES[mode]
    cfg: TransformerConfig = (TransformerConfig(**sizing.config_fields()) if sizing is not None
                              else cfg_mode.config)
    dtype = torch.float32
    if model is None:
        model = build_model(cfg, device, dtype).eval()
    w_bytes = weight_bytes_per_step(model)
    prompt, steps = cfg_mode.prompt, cfg_mode.decode_steps
    if feed is None:
        if progress:
            progress(0.0, said("measure.progress.decode_weights", mib=round(w_bytes / 2**20)))
        feed = weights_read_bandwidth(model, device, should_cancel)
    llc = sizing.last_level_cache_bytes if sizing is not None else None
    level = "dram" if device == "cuda" else weights_level(w_bytes, llc)
    feeding: dict[str, Any] = {
        "level": level, "bandwidth_gbs": feed["gbs"], "read": feed, "weights_bytes": w_bytes,
        "last_level_cache_bytes": llc, "llc_multiple": w_bytes / llc if llc else None,
        "dram_bandwidth_gbs": bandwidth_gbs, "dram_method": "STREAM copy of the roofline",
        "sizing": sizing.to_dict() if sizing is not None else None,
    }
    out: dict[str, Any] = {"model": cfg.to_dict(), "n_params": n_params(model), "dtype": "float32",
                           "weights_bytes_per_step": w_bytes, "prompt_tokens": prompt, "decode_steps": steps,
                           "batches": {}, "feeding": feeding}
    batches = (1, cfg_mode.big_batch)
    for bi, batch in enumerate(batches):
        if progress:
            progress((bi + 0.2) / len(batches), said("measure.progress.decode_batch", batch=batch, tokens=steps))
        given = (timed or {}).get(batch)
        if given is not None:
            step_times, threads = list(given.step_times), given.threads
        else:
            step_times, threads = _best_decode_run(model, batch, prompt, steps, cfg_mode.decode_repeats, dtype,
                                                   device, should_cancel, cfg_mode.decode_budget_s)
        # KV read per step grows with position; use the mean context of the timed steps.
        mean_ctx = prompt + (steps + 1) / 2
        kv_bytes = 2 * cfg.layers * cfg.kv_heads * cfg.head_dim * mean_ctx * batch * 4
        bytes_per_step = w_bytes + kv_bytes
        # Per-step median: robust to the other processes of a shared machine preempting a step now and then.
        median_step = statistics.median(step_times)
        step_cv = cv(step_times)
        rounds = given.round_step_s if given is not None else ()
        if rounds:  # the median over the rounds of each round's median step; its CV across the rounds
            median_step = statistics.median(rounds)
            step_cv = cv(rounds)
        out["batches"][str(batch)] = {
            "batch": batch,
            "tokens_per_s": batch / median_step,
            "tokens_per_s_best_step": batch / min(step_times),
            "median_step_s": median_step,
            "cv": step_cv,
            "timed_steps": len(step_times),
            "bytes_per_step": bytes_per_step,
            "bytes_per_token": bytes_per_step / batch,
            "threads": threads,
            **({"rounds": len(rounds), "round_tokens_per_s": [batch / r for r in rounds]} if rounds else {}),
        }
    _set_bounds(out, feeding["bandwidth_gbs"], bandwidth_gbs)
    b1 = out["batches"]["1"]
    check = bound_check(measured=b1["tokens_per_s"], bound=b1["bound_tokens_per_s"], cv=b1["cv"],
                        samples=b1.get("rounds") or b1["timed_steps"])
    if check is not None and check.code == "above_bound":
        # Above its bound by more than its noise: the bandwidth behind the bound is suspect (measured during a
        # busy spell). Measure it again, once, keep the better of the two (a roof is the best the memory sustains)
        # and judge the figure against that.
        if progress:
            progress(0.95, said("measure.progress.decode_again"))
        again = weights_read_bandwidth(model, device, should_cancel)
        before = feeding["bandwidth_gbs"]
        feeding.update(bandwidth_gbs=max(before, again["gbs"]), read_again=again)
        _set_bounds(out, feeding["bandwidth_gbs"], bandwidth_gbs)
        after = bound_check(measured=b1["tokens_per_s"], bound=b1["bound_tokens_per_s"], cv=b1["cv"],
                            samples=b1.get("rounds") or b1["timed_steps"])
        check = replace(check, remeasured=True, bandwidth_before_gbs=before, bandwidth_after_gbs=again["gbs"],
                        fraction_after=b1["fraction_of_bound"],
                        still_above=after is not None and after.code == "above_bound")
    # the larger batch under one name whatever its size (8 in quick mode, 16 in full), for the explanations, and
    # whether it reached a larger fraction of its bound than batch 1 (the fixed cost shared) or a smaller one (the
    # step's matrix work, no longer the bytes, sets the pace)
    big = out["big_batch"] = out["batches"][str(batches[-1])]
    out["big_batch_gain"] = big["fraction_of_bound"] / b1["fraction_of_bound"]
    out.update(tokens_per_s=b1["tokens_per_s"], bound_tokens_per_s=b1["bound_tokens_per_s"], cv=b1["cv"],
               bandwidth_gbs=feeding["bandwidth_gbs"], dram_bandwidth_gbs=bandwidth_gbs,
               dram_bound_tokens_per_s=b1["dram_bound_tokens_per_s"],
               bound_check=check.to_json() if check is not None else None,
               bound_formula="bandwidth that feeds the weights (measured reading them) ÷ bytes per token "
                             "(weights read once per step + KV cache)")
    return out


def _set_bounds(out: dict[str, Any], feeding_gbs: float, dram_gbs: float) -> None:
    """Each batch's bound from the feeding bandwidth (and, for comparison, from the roofline's DRAM copy)."""
    for b in out["batches"].values():
        b["bound_tokens_per_s"] = b["batch"] * feeding_gbs * 1e9 / b["bytes_per_step"]
        b["dram_bound_tokens_per_s"] = b["batch"] * dram_gbs * 1e9 / b["bytes_per_step"]
        b["fraction_of_bound"] = b["tokens_per_s"] / b["bound_tokens_per_s"]


def _decode_run(model: TinyTransformer, batch: int, prompt: int, steps: int, repeats: int, dtype: torch.dtype,
                device: str, should_cancel: CancelCheck | None, budget_s: float, warmup: bool = True) -> list[float]:
    """Seconds per step of up to ``repeats`` timed greedy decodes of ``steps`` tokens after a short warm-up
    (``warmup=False``: none, for a model already warm); stops early once ``budget_s`` is spent (after at least 16
    timed steps) so a busy machine cannot stall it."""
    cfg = model.cfg
    caches = model.new_cache(batch, dtype, device)
    gen = torch.Generator(device="cpu").manual_seed(1)
    tokens = torch.randint(0, cfg.vocab, (batch, prompt), generator=gen).to(device)
    step_times: list[float] = []
    spent = 0.0
    with torch.inference_mode():
        for rep in range(0 if warmup else 1, repeats + 1):  # run 0 is the warm-up (8 steps)
            check_cancel(should_cancel)
            logits = model(tokens, caches, 0)
            nxt = logits[:, -1:].argmax(-1)
            _sync(device)
            for step in range(8 if rep == 0 else steps):
                if step % 4 == 0:
                    check_cancel(should_cancel)
                t0 = time.perf_counter_ns()
                logits = model(nxt, caches, prompt + step)
                nxt = logits[:, -1:].argmax(-1)
                _sync(device)  # the argmax feeds the next step, so a step ends when it is known
                elapsed = (time.perf_counter_ns() - t0) / 1e9
                if rep > 0:
                    step_times.append(elapsed)
                    spent += elapsed
                    if spent > budget_s and len(step_times) >= 16:
                        return step_times
    return step_times


def _best_decode_run(model: TinyTransformer, batch: int, prompt: int, steps: int, repeats: int,
                     dtype: torch.dtype, device: str, should_cancel: CancelCheck | None, budget_s: float
                     ) -> tuple[list[float], int]:
    """Decode with torch's thread count and, on a CPU with more than one, with one thread too; keep the faster.

    A decode step is ~100 small ops, each an OpenMP parallel region: on a shared CPU one preempted thread stalls
    every region, so one thread can be several times faster than all of them. Which count won is reported.
    """
    default = torch.get_num_threads()
    candidates = read_thread_counts(device, default)
    best: tuple[list[float], int] | None = None
    try:
        for threads in candidates:
            torch.set_num_threads(threads)
            step_times = _decode_run(model, batch, prompt, steps, repeats, dtype, device, should_cancel, budget_s)
            if best is None or statistics.median(step_times) < statistics.median(best[0]):
                best = (step_times, threads)
    finally:
        torch.set_num_threads(default)
    assert best is not None
    return best


def train_flops_per_step(model: nn.Module, tokens: torch.Tensor, targets: torch.Tensor) -> int:
    """FLOPs of one forward + backward, counted by FlopCounterMode (matmuls; element-wise ops not counted)."""
    from torch.utils.flop_counter import FlopCounterMode

    counter = FlopCounterMode(display=False)
    with counter:
        logits = model(tokens)
        loss = F.cross_entropy(logits.flatten(0, 1).float(), targets.flatten())
        loss.backward()
    model.zero_grad(set_to_none=True)
    return int(counter.get_total_flops())


def theoretical_peak(limits: PhysicalLimits | None, dtype: str) -> tuple[float | None, str | None]:
    """The device's theoretical ``dtype`` peak in GFLOP/s and where it comes from (``physical_limits`` of the
    roofline: the datasheet on a known GPU, cores × clock × SIMD on a CPU); (None, None) when unknown."""
    return limits.theoretical_peak(dtype) if limits is not None else (None, None)


class TrainRig:
    """The training-step workload, built once: the mode's model, a fixed batch, AdamW and the step's FLOPs as
    FlopCounterMode counts them. :meth:`step` runs and times one step; :meth:`result` turns step times into the
    figures. ``tutor bench`` times one step per interleaved round; :func:`measure_train_step` times a run."""

    def __init__(self, device: str, mode: str, peak_dtype: str = "float32", progress: Progress | None = None
                 ) -> None:
        cfg_mode = MODEL_MODES[mode]
        self.cfg: TransformerConfig = cfg_mode.config
        self.device = device
        self.model = build_model(self.cfg, device, torch.float32).train()
        self.batch, self.seq = cfg_mode.train_batch, cfg_mode.train_seq
        gen = torch.Generator(device="cpu").manual_seed(2)
        self.tokens = torch.randint(0, self.cfg.vocab, (self.batch, self.seq), generator=gen).to(device)
        self.targets = torch.randint(0, self.cfg.vocab, (self.batch, self.seq), generator=gen).to(device)
        self.autocast = device == "cuda" and peak_dtype == "bfloat16"
        self.peak_dtype = peak_dtype
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=1e-4)
        if progress:
            progress(0.0, said("measure.progress.train_flops"))
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=self.autocast):
            self.flops = train_flops_per_step(self.model, self.tokens, self.targets)

    def step(self) -> float:
        """One step (forward, cross-entropy, backward, AdamW); its seconds.

        No state of the step holds subnormal floats (:data:`EMBED_INIT_STD`). With PyTorch's default embedding
        init they appeared in AdamW's state after a few steps (883,516 of the tied embedding's 4.2 M moments after
        8 steps) and x86 arithmetic on them is slow: on the course's 2-core Xeon the steps of one run went from
        930 tok/s to about 400 as they ran, a 34 % CV across the bench's rounds. Flushing them to zero
        (``torch.set_flush_denormal``) only covers the calling thread, not PyTorch's other OpenMP threads."""
        _sync(self.device)
        t0 = time.perf_counter_ns()
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=self.autocast):
            logits = self.model(self.tokens)
            loss = F.cross_entropy(logits.flatten(0, 1).float(), self.targets.flatten())
        loss.backward()
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)
        _sync(self.device)
        return (time.perf_counter_ns() - t0) / 1e9

    def release(self) -> None:
        """Free the model, its gradients and Adam's state (the figures stay computable by :meth:`result`)."""
        self.n_params = n_params(self.model)
        del self.model, self.opt, self.tokens, self.targets

    def result(self, times: list[float], peak_gflops: float, *, theoretical_gflops: float | None = None,
               theoretical_source: str | None = None, round_times: list[float] | None = None,
               steps_per_round: int = 1) -> dict[str, Any]:
        """The figures from timed steps: tokens/s of the best step, or with ``round_times`` (per interleaved round,
        the best of its ``steps_per_round`` steps) the median over the rounds, with the CV across them."""
        batch, seq = self.batch, self.seq
        rates = [batch * seq / t for t in times]
        s = _summary(rates, times)
        estimate_s = min(times)
        estimator = "the best step"
        if round_times:
            estimate_s = statistics.median(round_times)
            s["cv"] = cv(round_times)
            estimator = ("median over the rounds (one step per round)" if steps_per_round == 1 else
                         f"median over the rounds of each round's best of {steps_per_round} steps")
        achieved = self.flops / estimate_s
        n = getattr(self, "n_params", None) or n_params(self.model)
        return {
            "model": self.cfg.to_dict(),
            "n_params": n,
            "batch": batch,
            "seq_len": seq,
            "tokens_per_step": batch * seq,
            "flops_per_step": self.flops,
            "flops_per_token": self.flops / (batch * seq),
            "six_n_flops_per_token": 6 * n,
            "tokens_per_s": batch * seq / estimate_s,
            "tokens_per_s_median": s["median"],
            "tokens_per_s_best_step": s["best"],
            "estimator": estimator,
            "cv": s["cv"],
            "repeats": s["repeats"],
            "achieved_gflops": achieved / 1e9,
            "peak_gflops": peak_gflops,
            "peak_dtype": self.peak_dtype,
            "fraction_of_measured_peak": achieved / (peak_gflops * 1e9),
            "theoretical_gflops": theoretical_gflops,
            "theoretical_source": theoretical_source,
            "mfu": achieved / (theoretical_gflops * 1e9) if theoretical_gflops else None,
            "precision": "bf16 autocast" if self.autocast else "float32",
            "flops_source": "torch.utils.flop_counter.FlopCounterMode (forward + backward)",
        }


def measure_train_step(
    device: str, mode: str, peak_gflops: float, peak_dtype: str = "float32",
    should_cancel: CancelCheck | None = None, progress: Progress | None = None,
    *, theoretical_gflops: float | None = None, theoretical_source: str | None = None,
) -> dict[str, Any]:
    """One training step (forward, cross-entropy, backward, AdamW): tokens/s, MFU over the device's theoretical
    peak (PaLM's definition; None when the device's peak is unknown) and the fraction of the measured peak."""
    cfg_mode = MODEL_MODES[mode]
    rig = TrainRig(device, mode, peak_dtype, progress)
    times: list[float] = []
    steps = cfg_mode.train_steps
    for i in range(steps + 1):  # the first step is the warm-up (allocates Adam's state)
        check_cancel(should_cancel)
        if progress:
            progress((i + 1) / (steps + 2), said("measure.progress.train_step", i=i, steps=steps, batch=rig.batch,
                                                     seq=rig.seq))
        elapsed = rig.step()
        if i > 0:
            times.append(elapsed)
            if sum(times) > cfg_mode.train_budget_s and len(times) >= 2:
                break
    return rig.result(times, peak_gflops, theoretical_gflops=theoretical_gflops,
                      theoretical_source=theoretical_source)
