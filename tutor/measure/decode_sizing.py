"""The reference decode model, sized from the learner's caches (importable without torch).

Decode's classic bound is ``bandwidth ÷ bytes per token``, and which bandwidth applies depends on where the weights
live. A fixed 117.5 MB model is a DRAM test on a laptop with a 32 MiB L3 and a cache test on a machine whose L3
reads 480 MiB. So the bench's decode model (and the L4 decode exercises') grows its width until its float32 weights
are at least :data:`DRAM_MULTIPLE` × the last-level cache read from the system — the same rule as the STREAM arrays —
within :data:`~tutor.measure.device.DRAM_BUDGET_BYTES` (weights plus the KV cache of the largest batch) and half
the free RAM. Where that budget cannot reach the multiple, the sizing says so (``dram_sized`` False) and the largest
model that fits is used; the bound then comes from the bandwidth measured on those weights, wherever they live.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from tutor.i18n import Lang, format_bytes, format_number, t
from tutor.measure.device import DRAM_BUDGET_BYTES, available_bytes, cache_origin, cache_sizes, last_level_name
from tutor.measure.modes import MODEL_MODES, TransformerConfig

#: Weights at least this multiple of the last-level cache are read from DRAM (the SPEC's rule for DRAM figures).
DRAM_MULTIPLE = 4.0
#: The base model (TransformerConfig's defaults): 8 layers, width 512, vocabulary 8192.
BASE = {key: getattr(TransformerConfig(), key) for key in ("vocab", "hidden", "layers", "intermediate", "max_seq_len")}
#: ``--quick`` keeps the weights and the KV cache within 1 GiB, so the whole quick bench stays under 2 GB of RAM on
#: any cache size (issue 12); the full bench and a DRAM-sized exercise use :data:`DRAM_BUDGET_BYTES`.
QUICK_BUDGET_BYTES = 2**30
#: Widths grow in steps of one 64-wide attention head (the MLP stays 4× the width).
HEAD_DIM = 64
#: Per mode: prompt, timed steps and the larger batch (from the one table, tutor.measure.modes.MODEL_MODES).
RUNS: dict[str, dict[str, int]] = {
    mode: {"prompt": m.prompt, "decode_steps": m.decode_steps, "big_batch": m.big_batch}
    for mode, m in MODEL_MODES.items()
}


def model_params(vocab: int, hidden: int, layers: int, intermediate: int) -> int:
    """Parameters of the bundled transformer: tied embedding, 4·h² attention, 2·h·i MLP and two norms per layer,
    and the final norm."""
    return vocab * hidden + layers * (4 * hidden * hidden + 2 * hidden * intermediate + 4 * hidden) + 2 * hidden


def kv_cache_bytes(hidden: int, layers: int, max_seq_len: int, batch: int) -> int:
    """The KV cache the model allocates (keys and values, every layer, ``max_seq_len`` positions, float32)."""
    return 2 * layers * batch * hidden * max_seq_len * 4


@dataclass(frozen=True)
class DecodeSizing:
    """The reference decode model chosen for this machine and why."""

    vocab: int
    hidden: int
    heads: int
    layers: int
    intermediate: int
    max_seq_len: int
    weights_bytes: int
    last_level_cache_bytes: int | None
    cache_source: str
    last_level_name: str
    budget_bytes: int
    dram_sized: bool
    """Whether the weights reach :data:`DRAM_MULTIPLE` × the last-level cache (False: the budget stopped them)."""
    grown: bool

    @property
    def llc_multiple(self) -> float | None:
        llc = self.last_level_cache_bytes
        return self.weights_bytes / llc if llc else None

    @property
    def level(self) -> str:
        """Where a decode step reads the weights from: ``dram``, ``partial`` (bigger than the cache but not
        :data:`DRAM_MULTIPLE` × it) or ``cache`` (they fit in the last-level cache)."""
        return weights_level(self.weights_bytes, self.last_level_cache_bytes)

    def config_fields(self) -> dict[str, Any]:
        """Keyword arguments of tutor.measure.model.TransformerConfig."""
        return {"vocab": self.vocab, "hidden": self.hidden, "layers": self.layers, "heads": self.heads,
                "kv_heads": self.heads, "intermediate": self.intermediate, "max_seq_len": self.max_seq_len}

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "llc_multiple": self.llc_multiple, "level": self.level,
                "dram_multiple": DRAM_MULTIPLE}


def weights_level(weights_bytes: float, llc: float | None) -> str:
    """``dram`` when the weights are at least :data:`DRAM_MULTIPLE` × the last-level cache, ``cache`` when they fit
    in it, ``partial`` between (a cyclic read spills, but part may stay cached)."""
    if not llc:
        return "dram"
    if weights_bytes >= DRAM_MULTIPLE * llc:
        return "dram"
    return "cache" if weights_bytes <= llc else "partial"


def reference_decode(mode: str, *, device: str = "cpu", llc: int | None = None, available: int | None = None,
                     cache_source: str | None = None) -> DecodeSizing:
    """The decode model for ``mode`` on this machine (``llc``/``available`` override what the system reports).

    ``tiny`` (the tests) and a GPU keep the base model: a GPU's L2 (tens of MiB) is far below its weights, and the
    tiny model exists to be quick. On a CPU the width grows by one head at a time until the weights reach
    :data:`DRAM_MULTIPLE` × the last-level cache or the next step would leave the budget."""
    run = RUNS.get(mode, RUNS["quick"])
    llc_name = "L3"
    if llc is None and device == "cpu":
        caches = cache_sizes()
        llc = int(caches["last_level"])
        cache_source = cache_source or str(caches.get("source", ""))
        llc_name = last_level_name(caches["levels"])
    budget = QUICK_BUDGET_BYTES if mode == "quick" else DRAM_BUDGET_BYTES
    free = available if available is not None else available_bytes()
    if free is not None:
        budget = min(budget, free // 2)
    if mode == "tiny":
        base = {"vocab": 256, "hidden": 64, "layers": 2, "intermediate": 256, "max_seq_len": 64}
        heads = 4
    else:
        base = dict(BASE)
        heads = base["hidden"] // HEAD_DIM
    vocab, hidden, layers, inter, seq = (base["vocab"], base["hidden"], base["layers"], base["intermediate"],
                                         base["max_seq_len"])

    def weights(h: int) -> int:
        return 4 * model_params(vocab, h, layers, 4 * h if h != base["hidden"] else inter)

    grown = False
    if mode != "tiny" and device == "cpu" and llc:
        # a grown model needs positions only for the prompt and the timed steps, not the base's 512
        short_seq = -(-(run["prompt"] + run["decode_steps"]) // 64) * 64
        h = hidden
        while weights(h) < DRAM_MULTIPLE * llc:
            nxt = h + HEAD_DIM
            if weights(nxt) + kv_cache_bytes(nxt, layers, short_seq, run["big_batch"]) > budget:
                break
            h = nxt
        if h != hidden:
            grown = True
            hidden, inter, seq, heads = h, 4 * h, short_seq, h // HEAD_DIM
    w = 4 * model_params(vocab, hidden, layers, inter)
    return DecodeSizing(
        vocab=vocab, hidden=hidden, heads=heads, layers=layers, intermediate=inter, max_seq_len=seq,
        weights_bytes=w, last_level_cache_bytes=llc, cache_source=cache_source or "", last_level_name=llc_name,
        budget_bytes=int(budget), dram_sized=weights_level(w, llc) == "dram", grown=grown,
    )


# -- what the bench and the reveal say about the bound -----------------------------------------------------------



def cache_source_text(source: object, lang: Lang) -> str:
    """Where the cache sizes behind a line came from, in ``lang``: read from this system, typical sizes, or a
    simulated tree (``TUTOR_SYSFS_ROOT``), never presented as the learner's."""
    origin = cache_origin(source)
    if origin == "simulated":
        text = str(source)
        path = text[text.find("=") + 1:].rstrip(")") if "=" in text else text
        from tutor.untrusted import clean_line

        return t("setup.simulated", lang, path=clean_line(path)[:200])
    return t("setup.fallback" if origin == "fallback" else "setup.read", lang)


def _gbs(value: Any, lang: Lang) -> str:
    return f"{format_number(float(value), lang, '.1f')} GB/s"


def decode_roof_text(get: Callable[[str], Any], lang: Lang) -> str | None:
    """Which roof bounds a decode result and, when it sits above its bound, why — in ``lang``. ``get`` reads a
    dotted key of the result (``feeding.level``, ``bound_check.code``); None when the result has no feeding roof
    (an older stored result)."""
    level, gbs, weights = get("feeding.level"), get("feeding.bandwidth_gbs"), get("feeding.weights_bytes")
    copy = get("feeding.dram_bandwidth_gbs")
    if level not in ("dram", "partial", "cache") or not _is_number(gbs) or not _is_number(weights) \
            or not _is_number(copy):
        return None
    llc, multiple = get("feeding.last_level_cache_bytes"), get("feeding.llc_multiple")
    fields: dict[str, object] = {"weights": format_bytes(weights, lang), "gbs": _gbs(gbs, lang),
                                 "copy": _gbs(copy, lang),
                                 "llc_name": get("feeding.sizing.last_level_name") or get("feeding.llc_name") or "L3",
                                 "source": cache_source_text(get("feeding.sizing.cache_source")
                                                             or get("feeding.cache_source"), lang)}
    prefix = "decode_roof.gap." if get("feeding.kind") == "gap" else "decode_roof."
    if not _is_number(llc) or not _is_number(multiple):
        text = t(f"{prefix}gpu", lang, **fields)
    else:
        fields.update(llc=format_bytes(llc, lang),
                      multiple=format_number(multiple, lang, ".2f" if multiple < 10 else ".0f"))
        text = t(f"{prefix}{level}", lang, **fields)
        budget = get("feeding.sizing.budget_bytes")
        if level != "dram" and get("feeding.sizing.grown") and _is_number(budget):
            text += t("decode_roof.budget", lang, budget=format_bytes(budget, lang),
                      target=format_number(DRAM_MULTIPLE, lang, ".0f"))
    note = bound_note(get, lang)
    return text + (f" {note}" if note else "")


def bound_note(get: Callable[[str], Any], lang: Lang) -> str | None:
    """Why a decode figure sits above its bound (``bound_check`` of the result), in ``lang``; None when it does
    not."""
    code, fraction = get("bound_check.code"), get("bound_check.fraction")
    if not _is_number(fraction):
        return None
    pct = format_number(fraction, lang, ".0%")
    if code == "noise":
        return t("decode_roof.noise", lang, fraction=pct, margin=format_number(get("bound_check.margin") or 0, lang,
                                                                                 ".0%"),
                 cv=format_number(get("bound_check.cv") or 0, lang, ".0%"))
    if code == "above_bound" and get("bound_check.remeasured"):
        before, after, frac_after = (get("bound_check.bandwidth_before_gbs"), get("bound_check.bandwidth_after_gbs"),
                                     get("bound_check.fraction_after"))
        if not (_is_number(before) and _is_number(after) and _is_number(frac_after)):
            return None
        note = t("decode_roof.remeasured", lang, fraction=pct, before=_gbs(before, lang), after=_gbs(after, lang),
                 fraction_after=format_number(frac_after, lang, ".0%"))
        return note + (t("decode_roof.still_above", lang) if get("bound_check.still_above") else "")
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def dig(result: Mapping[str, Any]) -> Callable[[str], Any]:
    """A ``get`` for :func:`decode_roof_text` over a nested result."""

    def get(key: str) -> Any:
        node: Any = result
        for part in key.split("."):
            if not isinstance(node, Mapping):
                return None
            node = node.get(part)
        return node

    return get
