"""Figures the course states, recomputed from the formulas and presets the code uses (issue 31): a change in one
place fails the other."""

from __future__ import annotations

import re

import pytest

from tutor.content import load_course
from tutor.i18n import format_number
from tutor.paths import bundled_course
from tutor.theory.formulas import ModelPreset, model_preset


def _lesson_text(lesson_id: str, lang: str) -> str:
    lesson = load_course(bundled_course()).lessons[lesson_id]
    return "\n".join(getattr(section.body, lang) or "" for section in lesson.sections)


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\xa0", " ").replace("\u202f", " "))


def _num(value: float, lang: str, fmt: str) -> str:
    """A number as the course writes it in ``lang``, its narrow no-break spaces flattened like the text."""
    return _flat(format_number(value, lang, fmt))


def test_the_decode_ceiling_reads_one_embedding_row_per_token() -> None:
    """n0-l1 and n0-l1-decode-ceiling-8b counted Llama-3-8B's untied input embedding (1.05 GB) as read per token:
    111.6 tok/s on an RTX 5090 instead of 119.4, 62.8 instead of 67.2 on a 4090, while the tutor's own measured
    decode bound skips it. One rule (:meth:`ModelPreset.decode_bytes_per_token`), and the course says its figures."""
    llama = model_preset("llama-3-8b")
    per_token = llama.decode_bytes_per_token("bfloat16")
    assert per_token == (8_030_261_248 - 128_256 * 4096) * 2
    exercise = load_course(bundled_course()).exercises["n0-l1-decode-ceiling-8b"]
    assert exercise.truth is not None and exercise.truth.inputs["bytes_per_token"] == per_token
    for lang in ("es", "en"):
        text = _flat(_lesson_text("n0-l1", lang))
        gb = format_number(per_token / 1e9, lang, ".2f")
        ceiling = round(1792e9 / per_token)
        with_kv = round(1792e9 / (per_token + llama.kv_cache_bytes(8192)))
        assert f"= {gb} GB" in text and f"1792 / {gb} ≈ {ceiling} tokens/s" in text, lang
        assert f"≈ {with_kv} tokens/s" in text, lang
        explanation = _flat(getattr(exercise.explanation, lang))
        assert f"1008 GB/s ÷ {gb} GB/token" in explanation and f"1792 ÷ {gb} ≈ {ceiling}" in explanation, lang


def test_the_measured_decode_bound_follows_the_same_rule() -> None:
    torch = pytest.importorskip("torch")
    from tutor.measure.model import TransformerConfig, build_model, n_params, weight_bytes_per_step

    for tied in (False, True):
        cfg = TransformerConfig(vocab=300, hidden=32, layers=1, heads=4, kv_heads=4, intermediate=64,
                                max_seq_len=16, tied_embeddings=tied)
        model = build_model(cfg, "cpu", torch.float32)
        preset = ModelPreset(key="t", display="t", source="test", n_params=n_params(model), layers=1, hidden=32,
                             heads=4, kv_heads=4, head_dim=8, intermediate=64, mlp="gelu", vocab=300,
                             tied_embeddings=tied, max_seq_len=16)
        assert weight_bytes_per_step(model) == preset.decode_bytes_per_token("float32"), tied


def _intensity(workload: str, **params: object) -> float:
    from tutor.measure.registry import get_workload, validate_params

    return get_workload(workload).arithmetic_intensity(validate_params(workload, dict(params)))


def _exercise_text(exercise_id: str, lang: str) -> str:
    exercise = load_course(bundled_course()).exercises[exercise_id]
    parts = [exercise.prompt, exercise.explanation, *exercise.hints]
    return _flat("\n".join(getattr(part, lang) or "" for part in parts if part is not None))


def test_naive_attention_counts_the_six_passes_the_registry_counts() -> None:
    """n0-l1 said "~62" (four passes over S×S) beside its own table's ≈ 42, and n0-l1-attention-bound said "≈ 15"
    where the six passes of the registry's ``attention_naive`` byte count give 10.5."""
    table = _intensity("attention_naive", batch=1, heads=8, seq_len=4096, head_dim=128, dtype="bfloat16")
    fused = _intensity("attention_sdpa", batch=1, heads=8, seq_len=4096, head_dim=128, dtype="bfloat16")
    exercise = _intensity("attention_naive", batch=1, heads=8, seq_len=2048, head_dim=64, dtype="float32")
    assert (round(table), round(fused), round(exercise, 1)) == (42, 2048, 10.4)  # 10.449
    for lang in ("es", "en"):
        lesson = _flat(_lesson_text("n0-l1", lang))
        assert f"≈ {round(table)} |" in lesson and f"≈ {round(fused)} |" in lesson, lang
        assert re.search(rf"≈ {round(table)} (a|to) ≈ {round(fused)} FLOP/B", lesson), lang
        assert "~62" not in lesson and "≈ 62" not in lesson, lang
        text = _exercise_text("n0-l1-attention-bound", lang)
        stated = format_number(exercise, lang, ".1f")
        assert f"≈ {stated} FLOP/B" in text and "≈ 15 FLOP/B" not in text, lang


H200_REPORTED_MIB = 143_771
"""What ``nvidia-smi`` reports for an H200 SXM, whose datasheet says "141 GB" (a device-reported figure, quoted)."""


def test_the_70b_in_bf16_fits_on_one_h200_in_one_unit() -> None:
    """n0-l3 compared Llama-3-70B's 141.1e9 B of BF16 weights with the H200's "141 GB" and said it does not fit; the
    device reports 143,771 MiB = 150.75e9 B, so it fits with ~27k tokens of KV cache. The lesson states one unit
    convention (decimal GB for sizes, capacities converted from MiB/GiB) and the verdict that follows from it."""
    from tutor.theory.formulas import GB, GIB, cuda_context_bytes

    llama = model_preset("llama-3-70b")
    capacity = H200_REPORTED_MIB * 2**20
    weights = llama.weights_bytes("bfloat16")
    per_token = llama.kv_cache_bytes(1)
    left = capacity - weights
    tokens = (left - cuda_context_bytes(capacity / GB)) / per_token
    assert weights < capacity and 27_000 <= tokens < 28_000 and tokens // 8192 == 3
    for lang in ("es", "en"):
        text = _flat(_lesson_text("n0-l3", lang))
        gb = f"{_num(capacity / GB, lang, '.2f')} GB"
        assert f"{_num(H200_REPORTED_MIB, lang, ',.0f')} MiB" in text and gb in text, lang
        assert f"{_num(weights / GB, lang, '.1f')} GB" in text, lang
        assert f"{_num(left / GB, lang, '.2f')} GB" in text, lang
        assert f"~{_num(tokens // 1000 * 1000, lang, ',.0f')} tokens" in text, lang
        assert f"{per_token / 1024:.0f} KiB" in text, lang
        assert f"32 GiB = {_num(32 * GIB / GB, lang, '.1f')} GB" in text, lang
        assert "10⁹" in text and "2²⁰" in text and "2³⁰" in text, lang  # the convention, stated
        assert ("cabe en una H200" if lang == "es" else "fits on one H200") in text, lang
        assert ("ni una H200" if lang == "es" else "not even one H200") not in text, lang


def _section_text(lesson_id: str, section_id: str, lang: str) -> str:
    lesson = load_course(bundled_course()).lessons[lesson_id]
    return next(getattr(s.body, lang) or "" for s in lesson.sections if s.id == section_id)


def test_f1_t03_says_what_its_ridges_show() -> None:
    """f1-t03 said "the ridge climbs every generation" while the course's own datasheet figures have it fall from
    the RTX 4090 to the 5090 (164 → 117) and from the H100 to the B200 (295 → 281)."""
    from tutor.measure.specs import SPECS

    ridge = {key: round(SPECS[key].ridge_flops_per_byte("bfloat16") or 0)
             for key in ("rtx-4090", "rtx-5090", "a100-80gb", "h100-sxm", "b200")}
    assert ridge == {"rtx-4090": 164, "rtx-5090": 117, "a100-80gb": 153, "h100-sxm": 295, "b200": 281}
    assert ridge["a100-80gb"] < ridge["h100-sxm"] and ridge["b200"] < ridge["h100-sxm"]
    assert ridge["rtx-5090"] < ridge["rtx-4090"]
    assert all(100 <= r <= 300 for r in ridge.values())  # "between ~100 and ~300"
    for lang in ("es", "en"):
        text = _flat(_lesson_text("f1-t03", lang))
        for key, r in ridge.items():
            spec = SPECS[key]
            row = (f"{_num(spec.tflops['bfloat16'], lang, 'g')} TFLOP/s | {spec.bandwidth_gbs:g} GB/s | "
                   f"≈ {r} FLOP/B |")
            assert row in text, (lang, key, row)
        for a, b in (("a100-80gb", "h100-sxm"), ("h100-sxm", "b200"), ("rtx-4090", "rtx-5090")):
            assert f"({ridge[a]} → {ridge[b]}" in text, (lang, a, b)
        assert "climbs every generation" not in text and "sube con cada generación" not in text, lang


def test_n0_l4_counts_the_bench_headline_figures() -> None:
    """n0-l4 said "seven headline figures" above an eight-row table; the bench's headline is HEADLINE_KEYS (the
    matmul peak one figure with a row per dtype), and the fraction of the measured peak is a note."""
    from tutor.results.bench import HEADLINE_KEYS

    words = {"es": {7: "siete", 8: "ocho"}, "en": {7: "seven", 8: "eight"}}
    for lang in ("es", "en"):
        body = _section_text("n0-l4", "numbers", lang)
        table = re.search(r"\n\| (Cifra|Figure) \|.*?\n\|---.*?\n((?:\|.*\n)+)", body)
        assert table is not None, lang
        rows = table.group(2).strip().splitlines()
        assert len(rows) == len(HEADLINE_KEYS), (lang, rows)
        assert f"{words[lang][len(HEADLINE_KEYS)]} {'cifras de titular' if lang == 'es' else 'headline figures'}" \
            in _flat(body), lang


PCIE5_X16_GBS = 64
"""PCIe 5.0 x16 per direction (PCI-SIG: 32 GT/s × 16 lanes, 128b/130b), the figure the lessons quote."""


def test_the_offload_figures_say_which_case_each_is() -> None:
    """f1-t02-offload-pcie was titled "30× slower" while its arithmetic gives 28× per byte and 6.4× per token of one
    40 GB model, and the prompt's 100 → 3 tokens/s compares two model sizes; n0-l1 said "an order of magnitude",
    which takes a third of the weights spilled. Each figure now names its case."""
    from tutor.measure.specs import SPECS

    vram = SPECS["rtx-5090"].bandwidth_gbs
    model_gb, budget_gb, small_gb, small_tps, spilled_tps = 40, 32, 14, 100, 3
    spilled = model_gb - budget_gb
    per_byte = vram / PCIE5_X16_GBS
    in_vram_ms, over_pcie_ms = budget_gb / vram * 1e3, spilled / PCIE5_X16_GBS * 1e3
    token_ms, fitted_ms = in_vram_ms + over_pcie_ms, model_gb / vram * 1e3
    f = spilled / model_gb
    per_token = token_ms / fitted_ms
    assert per_token == pytest.approx(1 + (per_byte - 1) * f) and round(per_byte) - 1 == 27
    assert 1 + 27 / 3 == 10  # n0-l1's "a third outside, an order of magnitude"
    effective_gbs = spilled / (1 / spilled_tps - in_vram_ms / 1e3)
    course = load_course(bundled_course())
    for lang in ("es", "en"):
        def n(value: float, fmt: str = ".0f") -> str:
            return _num(value, lang, fmt)  # noqa: B023 (called within this iteration only)

        exercise = course.exercises["f1-t02-offload-pcie"]
        assert "30×" not in getattr(exercise.title, lang), lang
        text = _flat(getattr(exercise.explanation, lang))
        for figure in (f"{round(per_byte)}×**: {vram:g} ÷ {PCIE5_X16_GBS}", f"≈ {n(in_vram_ms)} ms",
                       f"≈ {n(over_pcie_ms)} ms", f"≈ {n(token_ms)} ms", f"≈ {n(1e3 / token_ms)} tokens/s",
                       f"≈ {n(fitted_ms)} ms", f"≈ {n(per_token, '.1f')}×", f"f = {n(f, '.1f')}",
                       f"≈ {n(small_tps / spilled_tps)}×", f"{n(model_gb / small_gb, '.1f')} ",
                       f"≈ {n(effective_gbs)} GB/s", f"≈ {n(1e3 / spilled_tps - in_vram_ms)} ms",
                       f"{n(1e3 / spilled_tps)} ms"):
            assert figure in text, (lang, figure)
        lesson = _flat(_lesson_text("n0-l1", lang))
        assert f"{round(per_byte)}× " in lesson and f"({vram:g} ÷ {PCIE5_X16_GBS})" in lesson, lang
        assert f"≈ {n(per_token, '.1f')}×" in lesson and f"`1 + {round(per_byte) - 1}·f`" in lesson, lang
        assert "(≈ 10×)" in lesson, lang


def test_the_int4_scale_overhead_is_counted() -> None:
    """n0-l3 said a 16-bit scale per group of 64–128 weights adds "a few bits per hundred": it is 12.5–25 bits per
    100 weights, +3–6 % on 4-bit weights (the table's ~12 % takes groups of 32 or a zero point too)."""
    scale_bits, int4_bits = 16, 8 * 0.5  # dtype_bytes("int4") = 0.5
    per_100 = {g: 100 * scale_bits / g for g in (128, 64)}
    assert per_100 == {128: 12.5, 64: 25.0}
    overhead = {g: bits / (100 * int4_bits) for g, bits in per_100.items()}
    up_to = scale_bits / 32 / int4_bits
    for lang in ("es", "en"):
        text = _flat(_section_text("n0-l3", "weights", lang))
        assert f"{_num(per_100[128], lang, '.1f')}–{_num(per_100[64], lang, '.0f')} bits" in text, lang
        assert f"{_num(scale_bits / 128, lang, '.3f')}–{_num(scale_bits / 64, lang, '.2f')} bits" in text, lang
        assert f"+{overhead[128] * 100:.0f}–{overhead[64] * 100:.0f} %" in text, lang  # 3.1 and 6.25
        assert f"~+{up_to * 100:.0f} %" in text and f"+ ~3–{up_to * 100:.0f} %" in text, lang
        assert f"~{_num(0.5, lang, '.1f')}–{_num(0.5 * (1 + up_to), lang, '.2f')}" in text, lang
        assert "pocos bits" not in text and "few bits" not in text, lang


def test_the_level_index_names_the_exercises_it_lists() -> None:
    """n0-index listed "the 5090's ridge" and "70B in INT4" for L1 and L3, whose exercises are the RTX 4090's ridge
    and Mixtral-8x7B in INT4."""
    course = load_course(bundled_course())
    ridge = course.exercises["n0-l1-ridge-4090"]
    moe = course.exercises["n0-l3-moe-int4-fit"]
    assert "n0-l1-ridge-4090" in course.lessons["n0-l1"].exercises
    assert "n0-l3-moe-int4-fit" in course.lessons["n0-l3"].exercises
    for lang, ridge_words, moe_words in (("es", "la cresta de la 4090", "Mixtral-8x7B en INT4"),
                                         ("en", "the 4090's ridge", "Mixtral-8x7B in INT4")):
        assert "4090" in getattr(ridge.title, lang) and moe_words in getattr(moe.title, lang), lang
        text = _flat(_lesson_text("n0-index", lang))
        assert ridge_words in text and moe_words in text, lang
        assert "5090's ridge" not in text and "cresta de la 5090" not in text, lang
        assert "70B in INT4" not in text and "70B en INT4" not in text, lang


def test_the_prefill_ceiling_counts_attention_at_8192_tokens() -> None:
    """n0-l1 gave prefill at 8192 tokens a ceiling of 209.5e12 / 16.06e9 ≈ 13,000 tok/s: twice the parameters,
    the embedding lookup included and attention over the context left out. By the lesson's own rule (the matrices'
    15.01 GFLOP plus QKᵀ and ·V over 8192 tokens, 4.29 GFLOP) it is ≈ 10,850."""
    from tutor.measure.specs import SPECS

    llama = model_preset("llama-3-8b")
    per_token = llama.prefill_flops_per_token(8192)
    matrices = 2 * llama.decode_bytes_per_token("bfloat16") / 2
    attention = per_token - matrices
    peak = SPECS["rtx-5090"].tflops["bfloat16"] * 1e12
    ceiling = peak / per_token
    assert round(ceiling, -1) == 10_850 and round(attention / 1e9, 2) == 4.29
    for lang in ("es", "en"):
        text = _flat(_lesson_text("n0-l1", lang))
        peak_s = _num(peak / 1e12, lang, ".1f")
        formula = (f"`{peak_s}e12 / ({_num(matrices / 1e9, lang, '.2f')}e9 + {_num(attention / 1e9, lang, '.2f')}e9)"
                   f" ≈ {_num(round(ceiling, -1), lang, ',.0f')} tokens/s`")
        assert formula in text, (lang, formula)
        assert f"≈ {_num(attention / 1e9, lang, '.2f')} GFLOP`" in text, lang
        assert "13 000" not in text and "13,000" not in text and "16,06e9" not in text and "16.06e9" not in text


def test_mistral_v01_caches_its_sliding_window() -> None:
    """Mistral-7B-v0.1's preset lacked its 4096-token sliding window (config.json ``sliding_window: 4096``), so the
    KV-cache formula counted every token of a long context; a layer caches min(S, 4096). n0-l3 says so and when."""
    from tutor.theory.formulas import kv_cache_bytes

    mistral, llama = model_preset("mistral-7b"), model_preset("llama-3-8b")
    assert mistral.sliding_window == 4096 and llama.sliding_window is None
    assert mistral.kv_cache_bytes(8192) == mistral.kv_cache_bytes(4096) == kv_cache_bytes(32, 8, 128, 4096)
    assert mistral.kv_cache_bytes(32_768, batch=2) == 2 * kv_cache_bytes(32, 8, 128, 4096)
    assert mistral.kv_cache_bytes(1000) == kv_cache_bytes(32, 8, 128, 1000)
    assert llama.kv_cache_bytes(8192) == 2 * llama.kv_cache_bytes(4096)
    assert (mistral.layers, mistral.kv_heads, mistral.head_dim) == (llama.layers, llama.kv_heads, llama.head_dim)
    for lang in ("es", "en"):
        text = _flat(_section_text("n0-l3", "kv-cache", lang))
        window = _num(mistral.kv_cache_bytes(8192) / 1e9, lang, ".2f")
        full = _num(llama.kv_cache_bytes(8192) / 1e9, lang, ".2f")
        assert "**`min(S, 4096)`**" in text and "Mistral-7B-v0.1" in text, lang
        assert f"`2 × 32 × 8 × 128 × 4096 × 2 B ≈ {window} GB`, no{'' if lang == 'es' else 't'} {full} GB" \
            in text, lang
        assert ("implementa la ventana" if lang == "es" else "implements the window") in text, lang


def test_the_memory_lab_formula_caches_the_window() -> None:
    """The memory lab's formula for Mistral-7B-v0.1 (real torch, CPU, at small scale) counts the window too."""
    pytest.importorskip("torch")
    from tutor.measure.registry import validate_vram_params
    from tutor.measure.vram import measure_vram

    mistral = model_preset("mistral-7b")
    params = validate_vram_params({"preset": "mistral-7b", "mode": "inference", "seq_len": 16_384, "capacity_gb": 32})
    result = measure_vram("cpu", params)
    assert result["formula_bytes"]["kv_cache"] == mistral.kv_cache_bytes(4096)
    assert result["formula_bytes"]["weights"] == mistral.weights_bytes("bfloat16")


def test_the_korthikanti_formula_says_it_approximates_llama() -> None:
    """The activation formula's coefficients are a GPT block's; under HF's eager attention a Llama block keeps
    1.24–1.37× of it. The formula's name (code and both catalogs) and n0-l3's text say it is an approximation."""
    from tutor.i18n import t
    from tutor.theory.formulas import ACTIVATION_LLAMA_EAGER_RATIO, FORMULAS, activation_bytes

    lo, hi = ACTIVATION_LLAMA_EAGER_RATIO
    assert 1 < lo < hi < 1.5
    assert "approximation" in (activation_bytes.__doc__ or "")
    assert f"for Llama an approximation: HF eager attention keeps {lo:.2f}–{hi:.2f}×" \
        in FORMULAS["activation_bytes"].description
    for lang, words in (("es", "para Llama una aproximación"), ("en", "for Llama an approximation")):
        ratio = f"{_num(lo, lang, '.2f')}–{_num(hi, lang, '.2f')}"
        name = t("formula.activation_bytes.name", lang)  # type: ignore[arg-type]
        assert words in name and f"{ratio}×" in name, (lang, name)
        text = _flat(_section_text("n0-l3", "training", lang))
        assert f"**{ratio} {'veces' if lang == 'es' else 'times'}**" in text, lang
        assert ("aproximación por lo bajo" if lang == "es" else "an approximation, on the low side") in text, lang


def test_the_5090_fp64_rate_is_in_the_spec_table_with_where_it_comes_from() -> None:
    """f1-lab03-rtx5090-ridge credited NVIDIA's whitepaper with the RTX 5090's 1/64 FP64 rate, a figure taken from
    public spec listings (issue 31: NVIDIA's RTX Blackwell whitepaper and the CUDA programming guide's throughput
    table were searched for it and not found). The spec table holds it, saying so, and the exercise's input and
    both prompts follow it."""
    from tutor.measure.specs import SPECS

    spec = SPECS["rtx-5090"]
    assert spec.tflops["float64"] == spec.tflops["float32"] / 64
    assert "public spec listings" in spec.source and "not found in NVIDIA's whitepaper" in spec.source
    exercise = load_course(bundled_course()).exercises["f1-lab03-rtx5090-ridge"]
    assert exercise.truth is not None
    assert exercise.truth.inputs["peak_flops"] == spec.tflops["float64"] * 1e12
    assert exercise.truth.inputs["peak_bandwidth_bytes_per_s"] == spec.bandwidth_gbs * 1e9
    for lang, words in (("es", "la dan las fichas técnicas públicas, no el *whitepaper*"),
                        ("en", "comes from public spec listings, not from the whitepaper")):
        assert words in _flat(getattr(exercise.prompt, lang)), lang


def _texts(lang: str) -> list[tuple[str, str]]:
    """(where, text) of every lesson and exercise field a learner reads, in ``lang``."""
    course = load_course(bundled_course())
    out: list[tuple[str, str]] = []
    for lesson in course.lessons.values():
        out += [(f"{lesson.id}.{s.id}", getattr(s.body, lang) or "") for s in lesson.sections]
        for lab in lesson.labs:
            out += [(f"{lab.id}.{name}", getattr(getattr(lab, name), lang) or "")
                    for name in ("goal", "hypothesis", "procedure") if getattr(lab, name) is not None]
    for ex in course.exercises.values():
        out += [(f"{ex.id}.{name}", getattr(getattr(ex, name), lang) or "")
                for name in ("title", "prompt", "explanation") if getattr(ex, name) is not None]
    return out


def test_the_arch_list_slice_prints_as_many_items_as_it_takes() -> None:
    """n0-l2-no-toolkit-needed printed three architectures from ``get_arch_list()[-2:]``: every shown command that
    slices the list prints as many items as its slice takes, in es and en."""
    shown = 0
    for lang in ("es", "en"):
        for where, text in _texts(lang):
            for m in re.finditer(r"get_arch_list\(\)\[-(\d+):\]\)\"?\n\s*\S+ \S+ \[([^\]]*)\]", text):
                shown += 1
                assert len(m.group(2).split(",")) == int(m.group(1)), (lang, where, m.group(0))
    assert shown >= 2  # the prompt, in both languages


def test_the_course_machine_is_one_machine() -> None:
    """The course's machine is an AMD EPYC (Zen 5) in f1-00 and f1-t01, and was "the course's 2-core Xeon" in
    n0-l4: the Xeon figures there are now a test VM's, named as such."""
    for lang, course_xeon, named in (("es", r"Xeon de 2 núcleos del curso", "no la EPYC de la Fase 1"),
                                     ("en", r"course's 2-core Xeon", "not Fase 1's EPYC")):
        texts = _texts(lang)
        assert not [w for w, t in texts if re.search(course_xeon, _flat(t))], lang
        assert named in _flat(_lesson_text("n0-l4", lang)), lang
        epyc = [w for w, t in texts if re.search(r"(curso|course).{0,40}EPYC|EPYC.{0,40}(curso|course)", _flat(t))]
        assert epyc, lang


def test_numpy_above_the_avx2_figure_is_not_taken_as_proof_of_avx512() -> None:
    """f1-t01 took NumPy's ~190 GFLOP/s beating the 166 of AVX2 at the nominal 2.6 GHz as proof of AVX-512; turbo
    alone explains it (2.97 GHz would do), so the lesson says so and how to ask which ISA the library uses."""
    ghz = 190 / (2 * 32)
    for lang, wrong, right in (("es", "demuestra que su BLAS usa", "**no demuestra** AVX-512"),
                               ("en", "proves its BLAS uses", "**does not prove** AVX-512")):
        text = _flat(_lesson_text("f1-t01", lang))
        assert wrong not in text and right in text, lang
        assert f"= {_num(ghz, lang, '.2f')} GHz" in text, lang
        assert "torch.backends.cpu.get_cpu_capability()" in text, lang


def test_the_sorted_branch_speedup_says_under_which_compiler() -> None:
    """f1-t01-sorted-branch stated a bare 5×; the effect exists only while the compiler keeps the branch. Measured
    here with gcc 12 (32,768 bytes, 20,000 passes): -O0 3.8×, -O1 0.83×, -O2 1.00×, -O3 0.99×. The prompt names
    -O0 and the measured factor, the explanation the optimised builds' result, in es and en."""
    exercise = load_course(bundled_course()).exercises["f1-t01-sorted-branch"]
    for lang, measured in (("es", "3,8× medido"), ("en", "3.8× measured")):
        prompt = _flat(getattr(exercise.prompt, lang))
        assert "`gcc -O0`" in prompt and measured in prompt and "5×" not in prompt, lang
        assert "5×" not in getattr(exercise.title, lang), lang
        explanation = _flat(getattr(exercise.explanation, lang))
        assert "`-O1`" in explanation and "0,83–1,00×".replace(",", "," if lang == "es" else ".") in explanation, \
            lang
