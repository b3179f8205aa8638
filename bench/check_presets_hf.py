"""The tutor's model presets and memory formulas against `transformers` + `accelerate`, on the meta device.

For every preset in ``tutor/theory/models.yaml`` this builds the model's Hugging Face config from the preset's own
fields (no download: the config classes ship with transformers), instantiates the model under
``accelerate.init_empty_weights()`` (parameters on the meta device, no memory), and compares

- the parameter count with the preset's ``n_params`` (published) and with what the preset's shape implies;
- the KV cache transformers keeps after a prefill of S tokens (a forward pass on meta tensors with ``use_cache``:
  the cache's key and value tensors, shape × element size) with ``ModelPreset.kv_cache_bytes(S)``;
- the sliding window: the config's ``sliding_window`` against the preset's, and at S beyond the window what the
  cache holds per layer.

It installs nothing and is not part of the project's dependencies. Run it from a venv of its own::

    python -m venv /tmp/hfvenv
    /tmp/hfvenv/bin/pip install transformers accelerate torch
    /tmp/hfvenv/bin/python bench/check_presets_hf.py [--seq 8192 --seq 16384]

The exit status is 0 when every preset matches, 1 otherwise; each line says what was compared.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

try:
    import torch
    from accelerate import init_empty_weights
    from transformers import AutoModelForCausalLM, GPT2Config, LlamaConfig, MistralConfig, Qwen2Config
except ImportError as exc:  # pragma: no cover - this script's own environment
    sys.exit(f"{exc}: run this script from a venv with `pip install transformers accelerate torch` (see its docstring)")

from tutor.theory.formulas import ModelPreset, model_presets

ARCHITECTURE = {"llama-3-8b": "llama", "llama-2-7b": "llama", "llama-3-70b": "llama", "mistral-7b": "mistral",
                "qwen2.5-0.5b": "qwen2", "gpt2-124m": "gpt2"}
"""Which transformers architecture each preset is (its config.json's ``model_type``)."""


def hf_config(preset: ModelPreset) -> Any:
    """The preset's fields as a transformers config of its architecture."""
    kind = ARCHITECTURE.get(preset.key)
    if kind == "gpt2":
        return GPT2Config(vocab_size=preset.vocab, n_embd=preset.hidden, n_layer=preset.layers, n_head=preset.heads,
                          n_inner=preset.intermediate, n_positions=preset.max_seq_len,
                          tie_word_embeddings=preset.tied_embeddings)
    common = {"vocab_size": preset.vocab, "hidden_size": preset.hidden, "intermediate_size": preset.intermediate,
              "num_hidden_layers": preset.layers, "num_attention_heads": preset.heads,
              "num_key_value_heads": preset.kv_heads, "head_dim": preset.head_dim,
              "max_position_embeddings": preset.max_seq_len, "tie_word_embeddings": preset.tied_embeddings}
    if kind == "llama":
        return LlamaConfig(**common)
    if kind == "mistral":
        return MistralConfig(**common, sliding_window=preset.sliding_window)
    if kind == "qwen2":
        # Qwen2.5's config.json names sliding_window 32768 with use_sliding_window false: no window in use.
        return Qwen2Config(**common, use_sliding_window=False)
    raise SystemExit(f"{preset.key}: no transformers architecture mapped in ARCHITECTURE")


def config_window(config: Any) -> int | None:
    if getattr(config, "model_type", "") == "qwen2" and not getattr(config, "use_sliding_window", False):
        return None
    window = getattr(config, "sliding_window", None)
    return int(window) if window else None


def cache_bytes(model: Any, seq_len: int) -> tuple[int, list[int]]:
    """Bytes of the KV cache transformers keeps after a prefill of ``seq_len`` tokens, and its tokens per layer."""
    tokens = torch.zeros((1, seq_len), dtype=torch.long, device="meta")
    with torch.no_grad():
        out = model(input_ids=tokens, use_cache=True)
    cache = out.past_key_values
    total, per_layer = 0, []
    if hasattr(cache, "layers"):
        pairs = [(layer.keys, layer.values) for layer in cache.layers]
    else:  # a legacy tuple cache (GPT-2 in older versions)
        pairs = [(k, v) for k, v in cache]
    for keys, values in pairs:
        total += keys.numel() * keys.element_size() + values.numel() * values.element_size()
        per_layer.append(int(keys.shape[-2]))
    return total, per_layer


def check(preset: ModelPreset, seqs: list[int]) -> list[str]:
    """Lines of what was compared; a line starting with 'MISMATCH' is a failure."""
    config = hf_config(preset)
    with init_empty_weights():
        model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
    model.tie_weights()  # from_config on the meta device leaves a tied output projection untied until asked
    model.eval()
    lines = []
    counted = sum(p.numel() for p in model.parameters())  # unique parameters: a tied embedding once
    mark = "ok" if counted == preset.n_params else "MISMATCH"
    lines.append(f"{mark:8} {preset.key:13} parameters: transformers {counted:,} | preset {preset.n_params:,}")
    window = config_window(config)
    mark = "ok" if window == preset.sliding_window else "MISMATCH"
    lines.append(f"{mark:8} {preset.key:13} sliding window: transformers {window} | preset {preset.sliding_window}")
    for seq_len in sorted({min(seq, preset.max_seq_len) for seq in seqs}):
        measured, per_layer = cache_bytes(model, seq_len)
        formula = preset.kv_cache_bytes(seq_len, 1, "bfloat16")
        kept = sorted(set(per_layer))
        # transformers' sliding-window cache keeps W - 1 tokens between steps (the next token's own K/V makes W):
        # the formula's min(S, W) is what one attention step reads, one token more than the cache holds.
        one_short = window is not None and seq_len > window and kept == [window - 1]
        held = formula * (window - 1) / window if one_short and window else formula
        mark = "ok" if measured == held else "MISMATCH"
        note = f" (cache holds W - 1 = {window - 1} tokens between steps; W with the next token)" if one_short else ""
        lines.append(f"{mark:8} {preset.key:13} KV cache at S = {seq_len}: transformers {measured:,} B "
                     f"({'/'.join(map(str, kept))} tokens a layer) | formula {formula:,.0f} B{note}")
    return lines


LLAMA_SHAPES = ((1024, 16, 16, 2816, 512), (1024, 16, 16, 2816, 1024), (2048, 16, 8, 5632, 512))
"""Small Llama blocks (hidden, heads, kv_heads, intermediate, seq) whose activations a CPU can keep."""


def saved_bytes(hidden: int, heads: int, kv_heads: int, intermediate: int, seq: int, layers: int) -> int:
    """Bytes of the tensors a BF16 Llama's forward saves for its backward (eager attention), parameters excluded:
    each saved storage counted once, through ``torch.autograd.graph.saved_tensors_hooks``."""
    config = LlamaConfig(vocab_size=1024, hidden_size=hidden, intermediate_size=intermediate,
                         num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=kv_heads,
                         max_position_embeddings=seq, attn_implementation="eager")
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
    model.train()
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen: dict[int, int] = {}

    def pack(tensor: torch.Tensor) -> torch.Tensor:
        storage = tensor.untyped_storage()
        seen[storage.data_ptr()] = storage.nbytes()
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        model(input_ids=torch.randint(0, 1024, (1, seq)))
    return sum(n for ptr, n in seen.items() if ptr not in params)


def activation_lines() -> list[str]:
    """Per layer (a 4-layer model's saved bytes minus a 2-layer one's, over 2) against ``activation_bytes``."""
    from tutor.theory.formulas import ACTIVATION_LLAMA_EAGER_RATIO, activation_bytes

    lines = []
    for hidden, heads, kv_heads, intermediate, seq in LLAMA_SHAPES:
        two, four = (saved_bytes(hidden, heads, kv_heads, intermediate, seq, n) for n in (2, 4))
        per_layer = (four - two) / 2
        formula = activation_bytes(1, hidden, heads, seq, 1, "bfloat16")
        lines.append(f"{'measured':8} activations h={hidden} a={heads} kv={kv_heads} i={intermediate} s={seq}: "
                     f"HF eager {per_layer:,.0f} B a layer | Korthikanti {formula:,.0f} B | "
                     f"{per_layer / formula:.3f}x (course quotes {ACTIVATION_LLAMA_EAGER_RATIO[0]}-"
                     f"{ACTIVATION_LLAMA_EAGER_RATIO[1]}x)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seq", type=int, action="append", help="prefill lengths (default 1024 and 8192)")
    parser.add_argument("--preset", action="append", help="only these presets (default: all)")
    parser.add_argument("--activations", action="store_true",
                        help="also measure a small Llama's saved activations against the Korthikanti formula")
    args = parser.parse_args(argv)
    seqs = args.seq or [1024, 8192]
    presets = model_presets()
    keys = args.preset or list(presets)
    print(f"torch {torch.__version__}, transformers {__import__('transformers').__version__}, "
          f"accelerate {__import__('accelerate').__version__}; meta device, BF16")
    failed = 0
    for key in keys:
        for line in check(presets[key], seqs):
            print(line)
            failed += line.startswith("MISMATCH")
    if args.activations:
        for line in activation_lines():
            print(line)
    print("every preset matches" if not failed else f"{failed} mismatch(es)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
