"""What the measuring engine says it is doing: a catalog :class:`~tutor.i18n.message.Message` per phase.

The engine reports ``progress(fraction, Message)``; it never writes a sentence. A phase that wraps another (the
roofline measured before a workload, a round of the bench) carries the inner step as a nested message
(``Message.of("measure.progress.roofline", step=inner)``), so phases compose without string prefixes and the UI
asks for the code (:func:`is_roofline`) instead of parsing words.

:data:`PHASES` is the vocabulary: every code the engine may say with the kind of each parameter. It is the schema
the parent checks at the process boundary (:func:`from_wire`): whatever the measurement process sends is data, and
an unknown code, a missing or extra parameter, a wrong type or a nested message that does not check out gives
:data:`MEASURING` ("measuring…"), never a crash or raw text. Strings are cleaned of control characters and bounded.

Torch-free and Textual-free: the worker's parent, the UI and the CLI import it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from tutor.i18n import N_
from tutor.i18n.message import Message
from tutor.untrusted import clean_line

Progress = Callable[[float, Message], None]
"""``progress(fraction, said)``: how far the run is (0–1) and what it is doing."""

TEXT, INT, NUM, SAID = "text", "int", "num", "said"

PHASES: dict[str, dict[str, str]] = {
    "measure.progress.measuring": {},
    "measure.progress.roofline": {"step": SAID},
    "measure.progress.roofline_again": {"step": SAID},
    "measure.progress.roofline_measured": {},
    "measure.progress.bandwidth": {"kernel": TEXT, "mib": INT},
    "measure.progress.matmul_peak": {"dtype": TEXT, "shape": TEXT},
    "measure.progress.matmul_probe": {"dtype": TEXT, "shape": TEXT},
    "measure.progress.preparing": {"workload": TEXT},
    "measure.progress.timing": {"workload": TEXT},
    "measure.progress.done": {"workload": TEXT},
    "measure.progress.vram_inference": {"preset": TEXT},
    "measure.progress.vram_training": {"preset": TEXT},
    "measure.progress.vram_fits": {"preset": TEXT},
    "measure.progress.vram_does_not_fit": {"preset": TEXT},
    "measure.progress.working_set": {"mib": NUM, "level": TEXT, "gbs": NUM},
    "measure.progress.gemm_size": {"n": INT, "gflops": NUM},
    "measure.progress.python_measured": {"n": INT, "gflops": NUM},
    "measure.progress.python_extrapolated": {"n": INT, "gflops": NUM},
    "measure.progress.numpy": {"n": INT, "gflops": NUM},
    "measure.progress.point": {"workload": TEXT, "intensity": NUM, "gflops": NUM},
    "measure.progress.gemm_share": {"batch": INT, "pct": NUM},
    "measure.progress.decode_build": {},
    "measure.progress.decode_threads": {"threads": INT},
    "measure.progress.decode_weights": {"mib": INT},
    "measure.progress.decode_batch": {"batch": INT, "tokens": INT},
    "measure.progress.decode_again": {},
    "measure.progress.gap_round": {"round": INT, "rounds": INT, "model": INT, "models": INT},
    "measure.progress.gap_fitted": {},
    "measure.progress.train_build": {},
    "measure.progress.train_flops": {},
    "measure.progress.train_step": {"i": INT, "steps": INT, "batch": INT, "seq": INT},
    "measure.progress.round": {"round": INT, "rounds": INT, "task": SAID},
    "measure.progress.bench_start": {"device": TEXT, "kind": TEXT},
    "measure.progress.bench_done": {},
    "measure.progress.measured": {},
    "measure.progress.test_point": {"i": INT},
    N_("measure.task.bandwidth"): {},
    "measure.task.matmul": {"dtype": TEXT},
    N_("measure.task.training"): {},
    N_("measure.task.decode"): {},
    N_("measure.task.decode_bound"): {},
    "measure.task.other": {"name": TEXT},
}

MEASURING = Message("measure.progress.measuring")
"""What is shown when the measurement process said something that does not check out."""

ROOFLINE_PHASES = frozenset({"measure.progress.roofline", "measure.progress.roofline_again"})
_MAX_TEXT = 80
_MAX_DEPTH = 4


def said(code: str, **params: Any) -> Message:
    """The message for ``code`` (a key of :data:`PHASES`); a code or parameter the vocabulary lacks is a bug in
    the engine, caught here in the tests rather than shown as "measuring…" later."""
    kinds = PHASES.get(code)
    if kinds is None or set(params) != set(kinds):
        raise ValueError(f"progress code {code!r} with parameters {sorted(params)}: not in the vocabulary")
    return Message.of(code, **{name: _figure(value) if kinds[name] == NUM else value for name, value in params.items()})


def _figure(value: Any) -> Any:
    """A measured figure as a progress line shows it: from 100 up a whole number (``1 235 GFLOP/s``, grouped per
    locale, not ``1,23E3``), below that three significant figures."""
    if isinstance(value, float) and math.isfinite(value) and abs(value) >= 100:
        return round(value)
    return value


def within(progress: Progress, lo: float, hi: float, code: str | None = None) -> Progress:
    """``progress`` for a part of the run between ``lo`` and ``hi``; with ``code`` (a phase taking a ``step``),
    each inner message is wrapped in that phase."""

    def inner(fraction: float, step: Message) -> None:
        progress(lo + (hi - lo) * fraction, step if code is None else said(code, step=step))

    return inner


def task_label(name: str) -> Message:
    """The catalog's name of an interleaved bench task (``"bandwidth"``, ``"matmul float32"``, …)."""
    fixed = {"bandwidth": N_("measure.task.bandwidth"), "training": N_("measure.task.training"),
             "decode": N_("measure.task.decode"), "decode bound": N_("measure.task.decode_bound")}
    if name in fixed:
        return said(fixed[name])
    if name.startswith("matmul "):
        return said("measure.task.matmul", dtype=name.removeprefix("matmul "))
    return said("measure.task.other", name=name)


def is_roofline(message: Message) -> bool:
    """Whether the run is measuring the roofline now (the first measurement on a machine, or a suspect roof)."""
    return message.code in ROOFLINE_PHASES


def noop(_fraction: float, _said: Message) -> None:
    return None


def progress_text(fraction: float | None, said: Message | None, lang: str) -> str:
    """How far the run is and what it is doing, in ``lang``: ``42 % · roofline: bandwidth: copy on 64 MiB arrays``
    (the percentage in the locale's decimals; either part may be absent)."""
    from tutor.i18n.numbers import percent

    parts = []
    if fraction is not None:
        parts.append(percent(100 * max(0.0, min(1.0, fraction)), lang))
    if said is not None:
        parts.append(said.render(lang))
    return " · ".join(parts)


# -- the process boundary ---------------------------------------------------------------------------------------


def to_wire(message: Any) -> Any:
    """What the measurement process sends for ``message`` (a test op may send anything: it is checked on arrival)."""
    return message.as_dict() if isinstance(message, Message) else message


def fraction_from_wire(value: Any) -> float:
    """A fraction from the child, as a number in [0, 1] (anything else: 0)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return 0.0
    return max(0.0, min(1.0, float(value)))


def from_wire(data: Any) -> Message:
    """The message the measurement process sent, checked against :data:`PHASES`; :data:`MEASURING` when it does
    not check out."""
    checked = _check(data, 0)
    return checked if checked is not None else MEASURING


def _check(data: Any, depth: int) -> Message | None:
    if depth > _MAX_DEPTH or not isinstance(data, Mapping):
        return None
    code = data.get("code")
    raw = data.get("params", {})
    if not isinstance(code, str) or code not in PHASES or not isinstance(raw, Mapping):
        return None
    kinds = PHASES[code]
    if set(raw) != set(kinds):
        return None
    params: list[tuple[str, Any]] = []
    for name, kind in kinds.items():
        value = raw[name]
        if kind == SAID:
            value = _check(value, depth + 1)
            if value is None:
                return None
        elif kind == TEXT:
            if not isinstance(value, str):
                return None
            value = clean_line(value).strip()[:_MAX_TEXT]
        elif isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            return None
        elif kind == INT:
            if isinstance(value, float) and not value.is_integer():
                return None
            value = int(value)
        params.append((name, value))
    return Message(code, tuple(params))


def check_vocabulary(catalogs: Mapping[str, Mapping[str, str]]) -> list[str]:
    """Problems between :data:`PHASES` and the catalogs: a code without an entry, or whose entry's placeholders
    are not the code's parameters (the tests call it)."""
    import string

    problems = []
    for lang, catalog in catalogs.items():
        for code, kinds in PHASES.items():
            if code not in catalog:
                problems.append(f"{lang}: {code} missing")
                continue
            fields = {f for _, f, _, _ in string.Formatter().parse(catalog[code]) if f is not None}
            if fields != set(kinds):
                problems.append(f"{lang}: {code} has {sorted(fields)}, the engine sends {sorted(kinds)}")
    return problems


__all__ = [
    "MEASURING",
    "PHASES",
    "Progress",
    "check_vocabulary",
    "fraction_from_wire",
    "from_wire",
    "is_roofline",
    "noop",
    "progress_text",
    "said",
    "task_label",
    "to_wire",
    "within",
]
