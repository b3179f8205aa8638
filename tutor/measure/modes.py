"""The measurement modes (tiny for the tests, quick, full): every size and budget each mode runs at, in one place.

The engines (:mod:`tutor.measure.model`, :mod:`tutor.measure.decode_gap`, :mod:`tutor.measure.roofline`, which
import torch) run these sizes, and the plan (:mod:`tutor.measure.plan`) and the decode sizing
(:mod:`tutor.measure.decode_sizing`, both torch-free) estimate and size from them; so this module imports nothing
heavy, and no second copy of a table exists to drift.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class TransformerConfig:
    """A decoder-only transformer: GPT-style (GELU MLP, MHA) or Llama-style (SwiGLU MLP, GQA)."""

    vocab: int = 8192
    hidden: int = 512
    layers: int = 8
    heads: int = 8
    kv_heads: int = 8
    intermediate: int = 2048
    mlp: str = "gelu"
    max_seq_len: int = 512
    tied_embeddings: bool = True
    sliding_window: int | None = None
    """Tokens each layer attends to and caches (Mistral-7B-v0.1: 4096); None: every token."""

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads

    @property
    def cache_len(self) -> int:
        """Tokens the KV cache holds per layer: ``max_seq_len``, or at most ``sliding_window``."""
        return self.max_seq_len if self.sliding_window is None else min(self.max_seq_len, self.sliding_window)

    def to_dict(self) -> dict[str, Any]:
        fields = asdict(self)
        if fields["sliding_window"] is None:  # the configs without one read as they always did
            del fields["sliding_window"]
        return fields


@dataclass(frozen=True)
class ModelMode:
    """The bundled transformer of one mode and how it runs: decode (prompt tokens, timed tokens, repeats and their
    time budget, the larger batch) and training (batch, sequence length in tokens, timed steps and their budget)."""

    config: TransformerConfig
    prompt: int
    decode_steps: int
    decode_repeats: int
    decode_budget_s: float
    big_batch: int
    train_batch: int
    train_seq: int
    train_steps: int
    train_budget_s: float


MODEL_MODES: dict[str, ModelMode] = {
    "tiny": ModelMode(TransformerConfig(vocab=256, hidden=64, layers=2, heads=4, kv_heads=4, intermediate=256,
                                        max_seq_len=64),
                      prompt=8, decode_steps=8, decode_repeats=2, decode_budget_s=1.0, big_batch=4,
                      train_batch=2, train_seq=32, train_steps=2, train_budget_s=2.0),
    "quick": ModelMode(TransformerConfig(), prompt=32, decode_steps=48, decode_repeats=3, decode_budget_s=2.5,
                       big_batch=8, train_batch=2, train_seq=128, train_steps=4, train_budget_s=5.0),
    "full": ModelMode(TransformerConfig(), prompt=64, decode_steps=128, decode_repeats=5, decode_budget_s=10.0,
                      big_batch=16, train_batch=8, train_seq=256, train_steps=6, train_budget_s=40.0),
}


@dataclass(frozen=True)
class GapMode:
    """The decode-gap run of one mode: the model sizes (smallest first; the same layer count, so the same ops and
    the same fixed cost per step — only the bytes grow), prompt tokens, timed steps per round and rounds."""

    configs: tuple[TransformerConfig, ...]
    prompt: int
    steps: int
    rounds: int


GAP_MODES: dict[str, GapMode] = {
    "tiny": GapMode((TransformerConfig(vocab=256, hidden=32, layers=2, heads=4, kv_heads=4, intermediate=128,
                                       max_seq_len=64),
                     TransformerConfig(vocab=256, hidden=64, layers=2, heads=4, kv_heads=4, intermediate=256,
                                       max_seq_len=64),
                     TransformerConfig(vocab=256, hidden=128, layers=2, heads=4, kv_heads=4, intermediate=512,
                                       max_seq_len=64)),
                    prompt=8, steps=8, rounds=2),
    "quick": GapMode((TransformerConfig(hidden=256, layers=8, heads=4, kv_heads=4, intermediate=1024),
                      TransformerConfig(),
                      TransformerConfig(hidden=768, layers=8, heads=12, kv_heads=12, intermediate=3072)),
                     prompt=32, steps=24, rounds=3),
    "full": GapMode((TransformerConfig(hidden=256, layers=8, heads=4, kv_heads=4, intermediate=1024),
                     TransformerConfig(),
                     TransformerConfig(hidden=1024, layers=8, heads=16, kv_heads=16, intermediate=4096)),
                    prompt=64, steps=64, rounds=5),
}

# Per mode: array bytes for DRAM figures (at least 4× LLC), GEMM sizes, time budgets; and how ``tutor bench``
# measures in interleaved rounds (tutor.measure.bench_rounds): the rounds, each figure's slice of a round (copies,
# seconds of matmul calls, training steps after the warm-up steps), decode's own rounds (tokens each, and passes
# over the weights for its bound), and the seconds the larger decode batch (not a headline) may take where the
# model's own budget is too long for the mode. Round counts are odd, so the median is one round's value.
ROOFLINE_MODES: dict[str, dict[str, Any]] = {
    "tiny": {"stream_bytes": 8 * 2**20, "stream_kernels": ("copy",), "gemm_n": (256,), "budget_s": 0.05,
             "max_repeats": 5, "dtypes_cpu": ("float32",),
             "rounds": 3, "copy_repeats": 2, "gemm_round_s": 0.005, "train_warmup_steps": 1, "train_round_steps": 1,
             "decode_rounds": 3, "decode_round_steps": 8, "read_round_passes": 1},
    "quick": {"stream_bytes": 256 * 2**20, "stream_kernels": ("copy", "triad"), "gemm_n": (512, 1024, 2048),
              "stream_rounds": 5, "stream_round_gap_s": 0.15, "budget_s": 0.8, "max_repeats": 30,
              "dtypes_cpu": ("float32", "float64", "bfloat16"),
              "rounds": 11, "copy_repeats": 5, "gemm_round_s": 0.1, "train_warmup_steps": 1, "train_round_steps": 2,
              "decode_rounds": 7, "decode_round_steps": 10, "read_round_passes": 2, "big_batch_budget_s": 1.0},
    "full": {"stream_bytes": 512 * 2**20, "stream_kernels": ("copy", "scale", "add", "triad"),
             "gemm_n": (512, 1024, 2048, 3072), "stream_rounds": 9, "stream_round_gap_s": 0.25, "budget_s": 2.5,
             "max_repeats": 60, "dtypes_cpu": ("float32", "float64", "bfloat16", "float16"),
             "rounds": 15, "copy_repeats": 8, "gemm_round_s": 0.3, "train_warmup_steps": 2, "train_round_steps": 2,
             "decode_rounds": 15, "decode_round_steps": 48, "read_round_passes": 3},
}
