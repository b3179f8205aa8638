"""The course as data: pydantic models for levels, lessons, labs and exercises.

Every text a learner reads is a :class:`Text` with Spanish and English. A lesson pack cannot carry code: a lab or an
exercise names a workload, sweep or formula from the measurement registry and passes bounded parameters, which the
loader validates against that registry.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from tutor.i18n import LANGS, Lang

FORMAT_VERSION = 1

Identifier = Annotated[
    str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_.-]*$", max_length=80), Field(description="a lowercase id")
]
# Parameters are scalars only: numbers, strings and booleans that the registry bounds.
Scalar = int | float | bool | str
Params = dict[Annotated[str, StringConstraints(max_length=40)], Scalar]


class Model(BaseModel):
    # allow_inf_nan=False: no float field (nor a float parameter) takes NaN or an infinity, whoever builds the model
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False, allow_inf_nan=False)


class FieldRule(ValueError):
    """A rule between fields, broken: raised by a model validator with the keys it is about.

    The loader reports it at the first of ``keys`` present in the file (the line of the offending key), not at the
    top of the mapping.
    """

    def __init__(self, keys: str | tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.keys: tuple[str, ...] = (keys,) if isinstance(keys, str) else keys


class Text(Model):
    """A text in both languages. Bundled content needs both; another pack may ship one."""

    es: str | None = Field(default=None, max_length=60_000)
    en: str | None = Field(default=None, max_length=60_000)

    @model_validator(mode="after")
    def _at_least_one(self) -> Text:
        if not (self.es or self.en):
            raise ValueError("needs text in at least one language (es or en)")
        return self

    def get(self, lang: Lang) -> str:
        """The text in ``lang``, falling back to the other language (pack data, chosen by language)."""
        return next((text for code in (lang, *LANGS) if (text := getattr(self, code))), "")

    def missing(self) -> list[Lang]:
        return [lang for lang in LANGS if not getattr(self, lang)]


class Level(Model):
    id: Identifier
    order: int = 0
    title: Text
    summary: Text | None = None


class CourseInfo(Model):
    """``course.yaml`` at the root of a course folder: its title and levels."""

    format_version: Literal[1]
    title: Text
    levels: list[Level] = Field(default_factory=list, max_length=50)


class Section(Model):
    """A page of theory, in Markdown."""

    id: Identifier
    title: Text
    body: Text


class MeasureCall(Model):
    """What a lab or exercise asks the measurement engine to do: a registered name and bounded parameters."""

    op: Literal["workload", "sweep", "roofline", "vram", "decode", "decode_gap", "train_step", "bench", "doctor"]
    name: Identifier | None = None
    params: Params = Field(default_factory=dict, max_length=20)
    dram: float | None = Field(
        default=None,
        ge=1.0,
        le=16.0,
        allow_inf_nan=False,
        description="size the arrays to at least this multiple of the learner's last-level cache (a DRAM figure)",
    )

    @model_validator(mode="after")
    def _name_when_needed(self) -> MeasureCall:
        if self.op in ("workload", "sweep") and not self.name:
            raise FieldRule("op", f"op {self.op!r} needs a name (which {self.op} to run)")
        if self.dram is not None and self.op != "workload":
            raise FieldRule("dram", "'dram' sizes a workload's arrays; it needs op: workload")
        return self


class Lab(Model):
    """A measured sweep with a plot, ending in a Lab Notebook entry."""

    id: Identifier
    title: Text
    goal: Text
    run: MeasureCall
    prediction: Text | None = Field(default=None, description="the question asked before the lab starts")
    prediction_unit: str | None = Field(default=None, max_length=20)
    procedure: Text | None = None
    hypothesis: Text | None = None
    next_question: Text | None = None


class Lesson(Model):
    format_version: Literal[1]
    id: Identifier
    level: Identifier
    order: int = Field(ge=0, le=10_000)
    title: Text
    outcome: Text
    summary: Text | None = None
    sections: list[Section] = Field(min_length=1, max_length=60)
    labs: list[Lab] = Field(default_factory=list, max_length=20)
    exercises: list[Identifier] = Field(default_factory=list, max_length=100)

    @field_validator("sections", "labs")
    @classmethod
    def _unique_ids(cls, items: list[Section] | list[Lab]) -> list[Section] | list[Lab]:
        seen: set[str] = set()
        for item in items:
            if item.id in seen:
                raise ValueError(f"id {item.id!r} appears twice")
            seen.add(item.id)
        return items

    @field_validator("exercises")
    @classmethod
    def _unique_exercises(cls, ids: list[str]) -> list[str]:
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"exercise {dupes[0]!r} listed twice")
        return ids


ExerciseKind = Literal["bound", "number", "fit", "diagnose"]
Unit = Literal["GB", "GiB", "MB", "tokens/s", "GB/s", "GFLOP/s", "TFLOP/s", "x", "ms", "s", "us", "FLOP/B", "%"]


class Choice(Model):
    id: Identifier
    label: Text


class Truth(Model):
    """Where the right answer comes from: this run's measurement, or a formula the lesson teaches.

    ``inputs`` are literal numbers/strings, or ``"measured:<figure>"`` to take a figure from this run's
    measurement (e.g. ``measured:peak_bandwidth_gbs``).
    """

    source: Literal["measurement", "formula"]
    metric: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_.]+$", max_length=80)] | None = None
    formula: Identifier | None = None
    inputs: Params = Field(default_factory=dict, max_length=20)

    @model_validator(mode="after")
    def _consistent(self) -> Truth:
        if self.source == "formula" and not self.formula:
            raise FieldRule("source", "a formula truth needs 'formula' (the name of a formula the lesson teaches)")
        return self


class Grading(Model):
    """Tolerances for number grading (ratios of prediction to truth) and the bound's too-close band."""

    full: float = Field(default=1.10, gt=1.0, le=10.0, description="within this ratio: full marks")
    most: float = Field(default=1.25, gt=1.0, le=10.0)
    some: float = Field(default=2.0, gt=1.0, le=100.0)
    too_close_band: float = Field(default=0.25, ge=0.0, le=2.0, description="±log10 band around the ridge")

    @model_validator(mode="after")
    def _ordered(self) -> Grading:
        if not self.full <= self.most <= self.some:
            keys = ("most", "full", "some") if self.full > self.most else ("some", "most")
            raise FieldRule(keys, "tolerances must grow: full ≤ most ≤ some")
        return self


_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_.]*)(?::[^{}]*)?\}")

MetricPath = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_.]+$", max_length=80)]


class Condition(Model):
    """When an explanation variant applies: the measured side, and/or a measured figure above or below a value.

    Every field given must hold. ``bound`` is the side this run measured (``too_close`` when the reveal called it
    too close to call); ``metric`` names a figure of this run (the same paths a ``truth.metric`` may name, plus
    ``truth`` and ``ratio``), compared with ``above``/``below``.
    """

    bound: Literal["memory", "compute", "too_close"] | None = None
    metric: MetricPath | None = None
    above: float | None = Field(default=None, allow_inf_nan=False)
    below: float | None = Field(default=None, allow_inf_nan=False)

    @model_validator(mode="after")
    def _meaningful(self) -> Condition:
        if self.bound is None and self.metric is None:
            raise ValueError("a condition needs 'bound' or 'metric'")
        if self.metric is not None and self.above is None and self.below is None:
            raise FieldRule("metric", "a 'metric' condition needs 'above' and/or 'below'")
        if (self.above is not None or self.below is not None) and self.metric is None:
            raise FieldRule(("above", "below"), "'above'/'below' need a 'metric' to compare")
        if self.above is not None and self.below is not None and not self.above < self.below:
            raise FieldRule(("below", "above"), "'above' must be less than 'below'")
        return self


class ExplanationVariant(Model):
    """A paragraph of the explanation that is shown only when this run's measurement meets ``when``."""

    when: Condition
    text: Text


class Exercise(Model):
    """A predict-then-measure exercise."""

    format_version: Literal[1]
    id: Identifier
    lesson: Identifier
    kind: ExerciseKind
    title: Text
    prompt: Text
    target: Text | None = Field(default=None, description="the capacity or machine named, e.g. 'an RTX 5090'")
    measure: MeasureCall | None = None
    truth: Truth | None = None
    unit: Unit | None = None
    range: tuple[float, float] | None = Field(default=None, description="accepted prediction range")
    capacity_gb: float | None = Field(default=None, gt=0, le=100_000)
    choices: list[Choice] = Field(default_factory=list, max_length=12)
    answer: Identifier | None = None
    hints: list[Text] = Field(default_factory=list, max_length=6)
    explanation: Text
    explanation_when: list[ExplanationVariant] = Field(
        default_factory=list,
        max_length=8,
        description="paragraphs chosen at reveal time by what was measured (a sentence that depends on the machine)",
    )
    grading: Grading = Field(default_factory=Grading)

    @model_validator(mode="after")
    def _kind_rules(self) -> Exercise:
        ids = [c.id for c in self.choices]
        if len(set(ids)) != len(ids):
            raise FieldRule("choices", "choice ids must be unique")
        if self.kind == "diagnose":
            if len(self.choices) < 2:
                raise FieldRule(("choices", "kind"), "a diagnose exercise needs at least two choices")
            if self.answer is None:
                raise FieldRule("kind", "a diagnose exercise needs 'answer' (one of its choice ids)")
        if self.answer is not None and self.answer not in ids:
            raise FieldRule("answer", f"answer {self.answer!r} is not one of the choices {ids}")
        if self.kind == "number":
            if self.unit is None:
                raise FieldRule("kind", "a number exercise needs 'unit'")
            if self.truth is None:
                raise FieldRule("kind", "a number exercise needs 'truth' (measurement or formula)")
        if self.kind == "bound" and self.measure is None:
            raise FieldRule(
                "kind", "a bound exercise needs 'measure' (the workload whose side of the roofline is asked)"
            )
        if self.kind == "fit":
            if self.capacity_gb is None:
                raise FieldRule("kind", "a fit exercise needs 'capacity_gb'")
            if self.truth is None:
                raise FieldRule("kind", "a fit exercise needs 'truth' (how many GB it takes)")
        if self.truth is not None and self.truth.source == "measurement" and self.measure is None:
            raise FieldRule("truth", "a measured truth needs 'measure' (what to run)")
        if self.range is not None and not self.range[0] < self.range[1]:
            raise FieldRule("range", "range must be [low, high] with low < high")
        measured = self.truth is None or self.truth.source == "measurement"
        if any(v.when.bound is not None for v in self.explanation_when) and not (self.kind == "bound" and measured):
            raise FieldRule(
                "explanation_when", "a 'when: {bound: …}' variant needs a bound exercise whose side is measured"
            )
        return self

    def placeholders(self) -> set[str]:
        """The ``{name}`` fields the explanation fills in from this run."""
        names: set[str] = set()
        texts = [self.explanation, *(v.text for v in self.explanation_when)]
        for text in texts:
            for body in (text.es, text.en):
                names.update(m.group(1) for m in _PLACEHOLDER.finditer(body or ""))
        return names


def texts_of(model: BaseModel, loc: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], Text]]:
    """Every :class:`Text` inside ``model``, with its location (for the translation check)."""
    found: list[tuple[tuple[str | int, ...], Text]] = []
    for name in type(model).model_fields:
        value = getattr(model, name)
        _collect(value, (*loc, name), found)
    return found


def _collect(value: object, loc: tuple[str | int, ...], found: list[tuple[tuple[str | int, ...], Text]]) -> None:
    if isinstance(value, Text):
        found.append((loc, value))
    elif isinstance(value, BaseModel):
        found.extend(texts_of(value, loc))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _collect(item, (*loc, i), found)
