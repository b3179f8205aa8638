"""What a training-step run (``train_step``) measured, as named fields with their units.

The bundled transformer trains for a few timed steps; the figures are its tokens per second (from the estimator
the run names, and from the median and the best step), the FLOPs a step does (counted by
``torch.utils.flop_counter.FlopCounterMode``, beside the lesson's 6·N per token), the rate they were done at, and
that rate over the measured matmul peak and over the theoretical peak (the MFU). The JSON names are the engine's,
at the top level of the measurement's JSON (an exercise's ``truth.metric: mfu`` and old stored rows read as
before); :meth:`TrainingFigures.from_json` takes them out of a measurement's fields. A figure the engine wrote as
null (``mfu`` without a theoretical peak) is not one of these fields: it stays in the measurement's other fields,
null, as it was written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tutor.results.reading import Reader, put
from tutor.results.wire import JsonObject

TRAINING_KEYS = ("model", "n_params", "batch", "seq_len", "tokens_per_step", "flops_per_step", "flops_per_token",
                 "six_n_flops_per_token", "tokens_per_s", "tokens_per_s_median", "tokens_per_s_best_step",
                 "estimator", "cv", "repeats", "achieved_gflops", "peak_gflops", "peak_dtype",
                 "fraction_of_measured_peak", "theoretical_gflops", "theoretical_source", "mfu", "precision",
                 "flops_source")
"""The JSON names a training run's figures use."""


@dataclass(frozen=True)
class ModelShape:
    """The shape of the bundled transformer a run built (its ``TransformerConfig``), as the result records it."""

    vocab: int
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    intermediate: int
    mlp: str = "gelu"
    """``gelu`` (GPT-2's two-matrix MLP) or ``swiglu`` (Llama's three)."""
    max_seq_len: int = 512
    tied_embeddings: bool = True
    sliding_window: int | None = None
    """Tokens each layer attends to and caches; None (and absent from the JSON): every token."""

    def to_json(self) -> JsonObject:
        out: JsonObject = {"vocab": self.vocab, "hidden": self.hidden, "layers": self.layers, "heads": self.heads,
                           "kv_heads": self.kv_heads, "intermediate": self.intermediate, "mlp": self.mlp,
                           "max_seq_len": self.max_seq_len, "tied_embeddings": self.tied_embeddings}
        put(out, "sliding_window", self.sliding_window)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "model") -> ModelShape:
        r = Reader(data, where)
        heads = r.integer("heads", 1)
        return cls(vocab=r.integer("vocab", 0), hidden=r.integer("hidden", 0), layers=r.integer("layers", 0),
                   heads=heads, kv_heads=r.integer("kv_heads", heads), intermediate=r.integer("intermediate", 0),
                   mlp=r.text("mlp", "gelu"), max_seq_len=r.integer("max_seq_len", 512),
                   tied_embeddings=r.flag("tied_embeddings", True), sliding_window=r.opt_integer("sliding_window"))


@dataclass(frozen=True)
class TrainingFigures:
    """One training-step run of the bundled transformer. Rates are tokens per second and GFLOP/s (10⁹ FLOPs per
    second); fractions are 0–1. Fields an older row lacks are None."""

    model: ModelShape | None = None
    n_params: int | None = None
    """Parameters of the model (N of the lesson's 6·N)."""
    batch: int | None = None
    """Sequences per step."""
    seq_len: int | None = None
    """Tokens per sequence."""
    tokens_per_step: int | None = None
    flops_per_step: float | None = None
    """FLOPs of one forward and backward, as FlopCounterMode counts them."""
    flops_per_token: float | None = None
    six_n_flops_per_token: float | None = None
    """The lesson's estimate, 6·N FLOPs per token, beside the counted one."""
    tokens_per_s: float | None = None
    """The headline: tokens per step ÷ the step time the ``estimator`` chose."""
    tokens_per_s_median: float | None = None
    """From the median step."""
    tokens_per_s_best_step: float | None = None
    """From the fastest step."""
    estimator: str | None = None
    """Which step time the headline used (``the best step``, ``the median of the rounds' best steps``…)."""
    cv: float | None = None
    """Coefficient of variation of the step rate (over the rounds when the run had them)."""
    repeats: int | None = None
    """Timed steps."""
    achieved_gflops: float | None = None
    """FLOPs per step ÷ the headline's step time, GFLOP/s."""
    peak_gflops: float | None = None
    """The measured matmul peak of ``peak_dtype`` this run is compared with, GFLOP/s."""
    peak_dtype: str | None = None
    fraction_of_measured_peak: float | None = None
    """``achieved_gflops`` ÷ ``peak_gflops``."""
    theoretical_gflops: float | None = None
    """The device's theoretical peak (datasheet, or cores × clock × FLOP per cycle on a CPU), GFLOP/s."""
    theoretical_source: str | None = None
    """Where the theoretical peak came from, in the engine's words."""
    mfu: float | None = None
    """Model FLOPs utilisation: ``achieved_gflops`` ÷ ``theoretical_gflops`` (None without a theoretical peak)."""
    precision: str | None = None
    """``float32`` or ``bf16 autocast``."""
    flops_source: str | None = None

    def to_json(self) -> JsonObject:
        out: JsonObject = {}
        if self.model is not None:
            out["model"] = self.model.to_json()
        for key in TRAINING_KEYS[1:]:
            put(out, key, getattr(self, key))
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "measurement") -> TrainingFigures:
        """The figures in ``data`` (a training measurement's JSON); what an older row lacks stays None."""
        r = Reader(data, where)
        return cls(
            model=ModelShape.from_json(r.raw("model"), r.at("model")) if r.has("model") else None,
            n_params=r.opt_integer("n_params"), batch=r.opt_integer("batch"), seq_len=r.opt_integer("seq_len"),
            tokens_per_step=r.opt_integer("tokens_per_step"), flops_per_step=r.opt_number("flops_per_step"),
            flops_per_token=r.opt_number("flops_per_token"),
            six_n_flops_per_token=r.opt_number("six_n_flops_per_token"), tokens_per_s=r.opt_number("tokens_per_s"),
            tokens_per_s_median=r.opt_number("tokens_per_s_median"),
            tokens_per_s_best_step=r.opt_number("tokens_per_s_best_step"), estimator=r.opt_text("estimator"),
            cv=r.opt_number("cv"), repeats=r.opt_integer("repeats"), achieved_gflops=r.opt_number("achieved_gflops"),
            peak_gflops=r.opt_number("peak_gflops"), peak_dtype=r.opt_text("peak_dtype"),
            fraction_of_measured_peak=r.opt_number("fraction_of_measured_peak"),
            theoretical_gflops=r.opt_number("theoretical_gflops"), theoretical_source=r.opt_text("theoretical_source"),
            mfu=r.opt_number("mfu"), precision=r.opt_text("precision"), flops_source=r.opt_text("flops_source"),
        )
