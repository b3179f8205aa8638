"""The memory lab's model as the formula counts it (issue 31): a sliding-window preset caches at most its window on
every device, and the naive-attention prefill's scores are in the formula. Real torch on the CPU at small scale;
the CUDA path at full size with torch.cuda stubbed and the model on the meta device (shapes, no memory)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from tutor.content import load_course  # noqa: E402
from tutor.i18n import format_number  # noqa: E402
from tutor.measure import vram  # noqa: E402
from tutor.measure.model import TinyTransformer  # noqa: E402
from tutor.measure.modes import TransformerConfig  # noqa: E402
from tutor.measure.vram import LiveStorageTracker, formula_bytes, n_params  # noqa: E402
from tutor.paths import bundled_course  # noqa: E402
from tutor.theory import formulas  # noqa: E402

SMALL = TransformerConfig(vocab=128, hidden=64, layers=2, heads=4, kv_heads=2, intermediate=128, mlp="swiglu",
                          max_seq_len=96, tied_embeddings=False)


def _tracked_prefill(cfg: TransformerConfig, seq_len: int, dtype: torch.dtype = torch.float32
                     ) -> tuple[int, int, tuple[int, ...]]:
    """(peak live bytes of the memory lab's inference run + the parameters, parameters, the cache's shape)."""
    torch.manual_seed(0)
    model = TinyTransformer(cfg).to(dtype)
    shapes: list[tuple[int, ...]] = []
    new_cache = model.new_cache

    def spy(batch: int, cache_dtype: torch.dtype, device: str) -> Any:
        cache = new_cache(batch, cache_dtype, device)
        shapes.append(tuple(cache.shape))
        return cache

    model.new_cache = spy  # type: ignore[method-assign]
    tracker = LiveStorageTracker()
    with tracker:
        vram._run(model, "inference", 1, seq_len, dtype, "cpu", None)
    return tracker.peak + sum(p.numel() * p.element_size() for p in model.parameters()), n_params(model), shapes[0]


def test_a_windowed_cache_holds_the_window_and_decodes_as_the_windowed_mask() -> None:
    """Token p in slot p mod W: after a prefill longer than the window and decode steps past it, every step's
    logits are those of one pass over the whole sequence with the sliding-window mask."""
    window = 8
    cfg = dataclasses.replace(SMALL, max_seq_len=40, sliding_window=window)
    torch.manual_seed(0)
    model = TinyTransformer(cfg).double().eval()
    tokens = torch.randint(0, cfg.vocab, (2, 30))
    with torch.inference_mode():
        whole = model(tokens)
        for prompt in (5, 8, 20):
            cache = model.new_cache(2, torch.float64, "cpu")
            assert cache.shape[-2] == window
            steps = [model(tokens[:, :prompt], cache, 0)[:, -1]]
            steps += [model(tokens[:, p : p + 1], cache, p)[:, -1] for p in range(prompt, 30)]
            torch.testing.assert_close(torch.stack(steps, 1), whole[:, prompt - 1 :], rtol=0, atol=1e-12)
    # and the window matters: without it the same decode reads other logits
    unwindowed = TinyTransformer(dataclasses.replace(cfg, sliding_window=None)).double().eval()
    unwindowed.load_state_dict(model.state_dict())
    with torch.inference_mode():
        assert not torch.allclose(unwindowed(tokens)[:, -1], whole[:, -1])


def test_the_measured_peak_drops_by_what_the_formula_says_the_window_saves() -> None:
    """The CPU memory run at small scale, with and without a 16-token window over 96 tokens: the cache holds 16
    tokens a layer, and the tracked peak falls by the KV formula's difference, to the byte."""
    full_peak, n, full_shape = _tracked_prefill(SMALL, 96)
    win_cfg = dataclasses.replace(SMALL, sliding_window=16)
    win_peak, _, win_shape = _tracked_prefill(win_cfg, 96)
    assert full_shape[-2] == 96 and win_shape[-2] == 16
    full_f = formula_bytes(SMALL, n, "inference", 1, 96, "float32")
    win_f = formula_bytes(win_cfg, n, "inference", 1, 96, "float32")
    assert win_f["kv_cache"] == formulas.kv_cache_bytes(2, 2, 16, 16, 1, "float32")
    assert full_peak - win_peak == full_f["kv_cache"] - win_f["kv_cache"] == full_f["total"] - win_f["total"]


def test_the_cpu_lab_scales_the_window_with_the_sequence() -> None:
    """Mistral-7B-v0.1 at 8192 tokens keeps half of them; its small run (128 tokens) keeps 64, half too, and the
    small run's formula counts the same window."""
    mistral = formulas.model_preset("mistral-7b")
    params = {"preset": "mistral-7b", "mode": "inference", "batch": 1, "seq_len": 8192, "dtype": "bfloat16",
              "capacity_gb": 32}
    result = vram.measure_vram("cpu", params)
    small = result["small_scale"]
    assert small["config"]["sliding_window"] == 64 and small["seq_len"] == 128
    c = small["config"]
    assert small["formula_bytes"]["kv_cache"] == formulas.kv_cache_bytes(
        c["layers"], c["kv_heads"], c["hidden"] // c["heads"], 64, 1, "bfloat16")
    assert result["formula_bytes"]["kv_cache"] == mistral.kv_cache_bytes(8192)
    assert 1.0 <= result["measured_over_formula"] < 1.1
    # a window the sequence never reaches is no window at small scale either
    short = vram.small_config(mistral, 128, 2048)
    assert short.sliding_window is None


class _Stub:
    """torch.cuda on a machine without a GPU: the calls _measure_cuda makes, answering plain numbers."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        answers: dict[str, Any] = {"memory_allocated": 0, "max_memory_allocated": 20 * 10**9,
                                   "max_memory_reserved": 21 * 10**9, "memory_reserved": 0,
                                   "mem_get_info": (33 * 10**9, 34 * 10**9)}
        for name in ("empty_cache", "reset_peak_memory_stats", "synchronize", *answers):
            value = answers.get(name)
            monkeypatch.setattr(torch.cuda, name, lambda *a, _n=name, _v=value, **k: self.calls.append(_n) or _v)


def test_the_gpu_run_caches_mistral_s_window_at_full_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CUDA path builds the full preset and prefills 8192 tokens: for Mistral-7B-v0.1 its cache holds 4096
    tokens a layer (it held all 8192). The model is made on the meta device (torch.cuda stubbed), so the shapes are
    the full model's and nothing is allocated."""
    stub = _Stub()
    stub.install(monkeypatch)
    real_model = vram.TinyTransformer
    shapes: list[tuple[int, ...]] = []

    class MetaModel(real_model):  # type: ignore[misc, valid-type]
        def __init__(self, cfg: TransformerConfig) -> None:
            with torch.device("meta"):
                super().__init__(cfg)

        def new_cache(self, batch: int, dtype: torch.dtype, device: str) -> Any:
            cache = super().new_cache(batch, dtype, "meta")
            shapes.append(tuple(cache.shape))
            return cache

    real_run = vram._run
    monkeypatch.setattr(vram, "TinyTransformer", MetaModel)
    monkeypatch.setattr(vram, "_run", lambda model, mode, batch, seq, dtype, device, cancel, autocast=False:
                        real_run(model, mode, batch, seq, dtype, "meta", cancel))
    params = {"preset": "mistral-7b", "mode": "inference", "batch": 1, "seq_len": 8192, "dtype": "bfloat16",
              "capacity_gb": 32}
    result = vram.measure_vram("cuda", params)
    mistral = formulas.model_preset("mistral-7b")
    assert shapes == [(32, 2, 1, 8, 4096, 128)]
    assert result["device_kind"] == "cuda" and result["peak_allocated_bytes"] == 20 * 10**9
    assert result["formula_bytes"]["kv_cache"] == mistral.kv_cache_bytes(8192)
    assert "reset_peak_memory_stats" in stub.calls and "max_memory_allocated" in stub.calls


def test_the_naive_prefill_s_tracked_peak_is_the_formula() -> None:
    """The memory lab's prefill runs naive attention: a layer's scores (B × H × S²) held twice, the scale's output
    beside the mask's, and the mask with its negation. The formula left them out (weights + KV only) while a GPU
    run of Llama-3-8B at 8192 tokens held 26.7 GB against its 17.6 (issue 31). With the term, the CPU storage
    tracker's peak at a size where the scores dominate is the formula's total, above it by the hidden-sized
    activations only."""
    cfg = TransformerConfig(vocab=512, hidden=256, layers=2, heads=8, kv_heads=2, intermediate=1024, mlp="swiglu",
                            max_seq_len=1024, tied_embeddings=False)
    measured, n, _ = _tracked_prefill(cfg, 1024, torch.bfloat16)
    formula = formula_bytes(cfg, n, "inference", 1, 1024, "bfloat16")
    assert formula["total"] <= measured < 1.1 * formula["total"], measured / formula["total"]
    scores = formulas.naive_attention_bytes(1, 8, 1024, "bfloat16")
    assert formula["prefill_working"] == scores == 2 * 8 * 1024**2 * 2 + 2 * 1024**2
    # where the logits outweigh the scores (the small scale of the CPU lab), they are the working term
    assert formula_bytes(dataclasses.replace(cfg, vocab=50_000), n, "inference", 1, 1024, "bfloat16")[
        "prefill_working"] == formulas.logits_bytes(1, 1024, 50_000, "bfloat16")


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\xa0", " ").replace("\u202f", " "))


def _n(value: float, lang: str, fmt: str) -> str:
    return _flat(format_number(value, lang, fmt))


def test_n0_l3_teaches_the_naive_prefill_s_scores_with_figures_the_formula_gives() -> None:
    """n0-l3's inference budget called a layer's activations "small" and the lab expected 17.6 GB "somewhat
    above": the kv-cache section now teaches the scores term (Llama-3-8B at 4096 tokens), and the exercise's hints
    and explanation add it at 8192, every figure recomputed here, in es and en."""
    course = load_course(bundled_course())
    llama = formulas.model_preset("llama-3-8b")
    at4k = formulas.naive_attention_bytes(1, llama.heads, 4096)
    logits4k = formulas.logits_bytes(1, 4096, llama.vocab)
    budget4k = llama.weights_bytes() + llama.kv_cache_bytes(4096) + at4k + 0.5e9
    scores8k = 2 * llama.heads * 8192**2 * 2
    work8k = formulas.prefill_working_bytes(1, llama.heads, 8192, llama.vocab)
    total8k = llama.weights_bytes() + llama.kv_cache_bytes(8192) + work8k + 0.5e9
    at16k = formulas.naive_attention_bytes(1, llama.heads, 16_384)
    assert at16k > 32e9 and total8k < 32e9 and round(at4k / llama.kv_cache_bytes(4096)) == 4
    lesson, exercise = course.lessons["n0-l3"], course.exercises["n0-l3-8b-inference-fit"]
    for lang in ("es", "en"):
        section = _flat(next(s.body for s in lesson.sections if s.id == "kv-cache").__getattribute__(lang))
        assert "2 × batch × heads × S² × bytes + 2 × S²" in section, lang
        assert f"≈ {_n(at4k / 1e9, lang, '.2f')} GB`" in section, lang
        assert f"({_n(logits4k / 1e9, lang, '.2f')} GB" in section, lang
        assert f"+ {_n(at4k / 1e9, lang, '.2f')} + 0,5 ≈ {_n(budget4k / 1e9, lang, '.1f')} GB`".replace(
            "0,5", _n(0.5, lang, ".1f")) in section, lang
        hints = _flat(" ".join(getattr(h, lang) for h in exercise.hints))
        assert f"≈ {_n(scores8k / 1e9, lang, '.2f')} GB" in hints, lang
        assert f"+ {_n(work8k / 1e9, lang, '.2f')} + {_n(0.5, lang, '.1f')} ≈ {_n(total8k / 1e9, lang, '.1f')} GB" \
            in hints, lang
        explanation = _flat(getattr(exercise.explanation, lang))
        assert "{formula_gb_parts.prefill_working:.2f}" in explanation, lang
        assert f"{_n(at16k / 1e9, lang, '.1f')} GB" in explanation, lang
        assert f"{_n(total8k / 1e9, lang, '.2f')} GB" in explanation, lang
        assert f"26{',' if lang == 'es' else '.'}7 GB" in explanation, lang  # the reported GPU figure, labelled
        assert ("cifra comunicada, no medida aquí" if lang == "es" else "a reported figure, not measured here") \
            in explanation, lang
        lab = _flat(getattr(lesson.labs[0].hypothesis, lang))
        assert "17,6" not in lab and "17.6" not in lab, lang


def test_the_cpu_answer_key_of_an_inference_fit_names_the_inference_parts() -> None:
    """The reveal of n0-l3-8b-inference-fit on a CPU said its truth was "weights, gradients and Adam, activations,
    context", a training run's parts, for an inference question; it names both, each with its mode."""
    import json
    from pathlib import Path

    from tutor.grading.truth import resolve_truth
    from tutor.results import Measurement

    recorded = Path(__file__).parent / "fixtures" / "results" / "every_exercise_small.json"
    raw = json.loads(recorded.read_text(encoding="utf-8"))["exercises"]["n0-l3-8b-inference-fit"]["result"]
    exercise = load_course(bundled_course()).exercises["n0-l3-8b-inference-fit"]
    truth = resolve_truth(exercise, Measurement.from_json(raw))
    for lang, words in (("es", ("en inferencia, pesos, KV cache y memoria de trabajo del prefill", "en entrenamiento")),
                        ("en", ("for inference, weights, KV cache and the prefill's working memory", "for training"))):
        said = _flat(truth.said.render(lang))
        assert all(w in said for w in words), (lang, said)
