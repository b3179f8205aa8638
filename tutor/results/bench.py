"""The ``tutor bench`` report (``gpu-tutor/bench/v1``): its headline figures with their spread, the roofline
behind them, how they were measured, and the comparison with the previous run on the same fingerprint."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tutor.results.device import Device
from tutor.results.interference import Interference
from tutor.results.reading import Reader, expected, is_number, put
from tutor.results.roofline import RooflineReference
from tutor.results.wire import JsonObject

BENCH_SCHEMA = "gpu-tutor/bench/v1"
HEADLINE_KEYS: tuple[str, ...] = (
    "peak_bandwidth_gbs",
    "peak_flops_tflops",
    "ridge_flops_per_byte",
    "decode_tokens_per_s",
    "decode_bound_tokens_per_s",
    "train_tokens_per_s",
    "mfu",
)
"""The headline figures, in the report's order; ``peak_flops_tflops`` has one row per dtype."""


@dataclass(frozen=True)
class BenchRow:
    """One headline figure: ``key`` is flat (``peak_bandwidth_gbs``, ``peak_flops_tflops.float32``)."""

    key: str
    value: float
    cv: float | None = None
    """The coefficient of variation of its timed repeats (None where the report has none)."""

    @property
    def figure(self) -> str:
        """The headline figure without its dtype (``peak_flops_tflops``)."""
        return self.key.split(".", 1)[0]

    @property
    def dtype(self) -> str | None:
        return self.key.split(".", 1)[1] if "." in self.key else None


@dataclass(frozen=True)
class ComparedFigure:
    """One headline figure against the previous run's: ``ratio`` = current ÷ previous; they agree when
    ``|ratio - 1| <= allowed``."""

    key: str
    current: float
    previous: float
    ratio: float
    allowed: float
    agree: bool

    def to_json(self) -> JsonObject:
        return {"key": self.key, "current": self.current, "previous": self.previous, "ratio": self.ratio,
                "allowed": self.allowed, "agree": self.agree}

    @classmethod
    def from_json(cls, data: Any, where: str, tolerance: float) -> ComparedFigure:
        r = Reader(data, where)
        return cls(key=r.text("key"), current=r.opt_number("current") or 0.0,
                   previous=r.opt_number("previous") or 0.0, ratio=r.number("ratio"),
                   allowed=r.opt_number("allowed") or tolerance, agree=r.flag("agree"))


@dataclass(frozen=True)
class BenchComparison:
    """A bench run against the previous one of the same mode on the same fingerprint."""

    tolerance: float
    figures: tuple[ComparedFigure, ...]
    agree: bool
    rule: str = ""
    previous_created_at: float | None = None
    previous_mode: str | None = None

    def figure(self, key: str) -> ComparedFigure | None:
        return next((f for f in self.figures if f.key == key), None)

    def to_json(self) -> JsonObject:
        return {"previous_created_at": self.previous_created_at, "previous_mode": self.previous_mode,
                "tolerance": self.tolerance, "rule": self.rule, "figures": [f.to_json() for f in self.figures],
                "agree": self.agree}

    @classmethod
    def from_json(cls, data: Any, where: str = "comparison") -> BenchComparison:
        r = Reader(data, where)
        tolerance = r.opt_number("tolerance") or 0.05
        raw = r.raw("figures") or []
        if not isinstance(raw, list):
            raise expected(r.at("figures"), "list", r.raw("figures"))
        figures = tuple(ComparedFigure.from_json(f, f"{r.at('figures')}.{i}", tolerance) for i, f in enumerate(raw))
        return cls(tolerance=tolerance, figures=figures, agree=r.flag("agree"), rule=r.text("rule"),
                   previous_created_at=r.opt_number("previous_created_at"), previous_mode=r.opt_text("previous_mode"))


def _rows(headline: Reader, cv: Reader | None) -> tuple[BenchRow, ...]:
    rows: list[BenchRow] = []
    keys = list(HEADLINE_KEYS) + [k for k in headline.data if k not in HEADLINE_KEYS]
    for key in keys:
        value = headline.raw(key)
        spread = cv.raw(key) if cv is not None else None
        if isinstance(value, Mapping):
            per = headline.numbers(key)
            spreads = cv.numbers(key) if cv is not None and isinstance(spread, Mapping) else {}
            rows += [BenchRow(f"{key}.{sub}", v, spreads.get(sub)) for sub, v in per.items()]
        elif value is not None:
            number = headline.number(key)
            rows.append(BenchRow(key, number, float(spread) if is_number(spread) and spread >= 0 else None))
    return tuple(rows)


def bench_rows(headline: Mapping[str, Any], cv: Mapping[str, Any] | None = None) -> tuple[BenchRow, ...]:
    """The rows of a headline and its CVs as the report nests them (``{"peak_flops_tflops": {"float32": …}}``)."""
    return _rows(Reader(headline, "headline"), Reader(cv, "cv") if cv is not None else None)


def _nest(pairs: list[tuple[str, float | None]]) -> JsonObject:
    out: JsonObject = {}
    for key, value in pairs:
        if value is None:
            continue
        if "." in key:
            top, sub = key.split(".", 1)
            out.setdefault(top, {})[sub] = value
        else:
            out[key] = value
    return out


@dataclass(frozen=True)
class BenchReport:
    """One ``tutor bench`` run. ``rows`` are the headline figures in order; ``tests`` keeps the measurements
    behind them (STREAM, matmul, decode, training step) as measured; ``env`` the software it ran on."""

    mode: str
    device: Device
    rows: tuple[BenchRow, ...]
    created_at: float | None = None
    duration_s: float | None = None
    env: Mapping[str, Any] = field(default_factory=dict)
    roofline: RooflineReference | None = None
    tests: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    warnings_said: tuple[Mapping[str, Any], ...] = ()
    """The warnings as catalog messages (``Message.as_dict()``; reports since they were codes), so a reader sees
    them in its language. Kept as JSON here: this room reads no catalog."""
    notes: tuple[str, ...] = ()
    load_before: float | None = None
    load_after: float | None = None
    comparison: BenchComparison | None = None
    compared: bool = False
    """Whether the run was compared (``comparison`` None then means: no previous run to compare with)."""
    schema: str = BENCH_SCHEMA
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def fingerprint(self) -> str:
        return self.device.fingerprint or ""

    def value(self, key: str) -> float | None:
        """A headline figure by its flat key."""
        return next((r.value for r in self.rows if r.key == key), None)

    def headline(self) -> dict[str, float]:
        """The headline as flat keys (``peak_flops_tflops.float32`` etc.)."""
        return {r.key: r.value for r in self.rows}

    @property
    def interference(self) -> Interference | None:
        """What other programs took of the machine during the run (None: not sampled, an older report)."""
        return Interference.of(self.tests.get("interference"))

    def spreads(self) -> dict[str, float]:
        """The CV per flat headline key (missing where the report has none)."""
        return {r.key: r.cv for r in self.rows if r.cv is not None}

    def with_comparison(self, comparison: BenchComparison | None) -> BenchReport:
        return replace(self, comparison=comparison, compared=True)

    def to_json(self) -> JsonObject:
        out: JsonObject = dict(self.extra)
        out.update(schema=self.schema, kind="bench", mode=self.mode)
        put(out, "created_at", self.created_at)
        put(out, "duration_s", self.duration_s)
        out["device"] = self.device.to_json()
        put(out, "env", dict(self.env))
        out["headline"] = _nest([(r.key, r.value) for r in self.rows])
        put(out, "cv", _nest([(r.key, r.cv) for r in self.rows]))
        put(out, "tests", dict(self.tests))
        if self.roofline is not None:
            out["roofline"] = self.roofline.to_json()
        out["warnings"] = list(self.warnings)
        put(out, "warnings_said", [dict(m) for m in self.warnings_said])
        put(out, "notes", list(self.notes))
        if self.load_before is not None or self.load_after is not None:
            out["load_average"] = {"before": self.load_before, "after": self.load_after}
        if self.compared:
            out["comparison"] = self.comparison.to_json() if self.comparison is not None else None
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "bench") -> BenchReport:
        r = Reader(data, where)
        r.raw("kind")
        device = Device.from_json(r.raw("device"), r.at("device"))
        headline = Reader(r.raw("headline"), r.at("headline"))
        cv = Reader(r.raw("cv"), r.at("cv")) if r.has("cv") else None
        load = Reader(r.raw("load_average"), r.at("load_average")) if r.has("load_average") else None
        compared = "comparison" in r.data
        return cls(
            mode=r.text("mode", "?"), device=device, rows=_rows(headline, cv), created_at=r.opt_number("created_at"),
            duration_s=r.opt_number("duration_s"), env=r.mapping("env"),
            roofline=RooflineReference.from_json(r.raw("roofline"), r.at("roofline")) if r.has("roofline") else None,
            tests=r.mapping("tests"), warnings=r.texts("warnings"), notes=r.texts("notes"),
            warnings_said=_messages(r.raw("warnings_said") if r.has("warnings_said") else None),
            load_before=load.opt_number("before") if load else None,
            load_after=load.opt_number("after") if load else None,
            comparison=BenchComparison.from_json(r.raw("comparison"), r.at("comparison"))
            if r.has("comparison") else None,
            compared=compared, schema=r.text("schema", BENCH_SCHEMA), extra=r.rest(),
        )



def _messages(raw: Any) -> tuple[Mapping[str, Any], ...]:
    """Stored catalog messages: the objects among them, at most 32 (the catalog reads them, untrusted)."""
    if not isinstance(raw, list):
        return ()
    return tuple(dict(m) for m in raw[:32] if isinstance(m, Mapping))
