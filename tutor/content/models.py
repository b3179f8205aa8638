"""The course as data: pydantic models for levels, lessons, labs and exercises.

Every text a learner reads is a :class:`Text` with Spanish and English. A lesson pack cannot carry code: a lab or an
exercise names a workload, sweep or formula from the measurement registry and passes bounded parameters, which the
loader validates against that registry.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator
from pydantic_core import PydanticCustomError

from tutor.i18n import LANGS, Lang
from tutor.i18n.message import Message, Param
from tutor.untrusted import PlainText, clean

FORMAT_VERSION = 1

ID_GRAMMAR = "[a-z0-9][a-z0-9-]{0,63}"
"""A level's, lesson's, section's, lab's, exercise's or choice's id: lowercase letters, digits and ``-``, 64 at
most. It becomes part of a file name, a widget id, a store key and a command line, so nothing else is allowed."""
REGISTRY_NAME_GRAMMAR = "[a-z0-9][a-z0-9_]{0,63}"
"""A workload's, sweep's or formula's name in the measurement registry (Python-style, with ``_``)."""
CHOICE_GRAMMAR = "[a-z0-9][a-z0-9_-]{0,63}"
"""A choice's id (and an answer): an id, or ``_`` too, as the built-in ``does_not_fit`` that stored predictions use."""
_ID = re.compile(ID_GRAMMAR)
_CHOICE = re.compile(CHOICE_GRAMMAR)
_REGISTRY_NAME = re.compile(REGISTRY_NAME_GRAMMAR)


def _identifier(value: str) -> str:
    if _ID.fullmatch(value) is None:
        raise PydanticCustomError("identifier", "not a valid id: 1 to 64 of a-z, 0-9 and '-', not starting with '-'")
    return value


def _choice_id(value: str) -> str:
    if _CHOICE.fullmatch(value) is None:
        raise PydanticCustomError(
            "choice_id", "not a valid choice id: 1 to 64 of a-z, 0-9, '-' and '_', not starting with '-' or '_'"
        )
    return value


def _registry_name(value: str) -> str:
    if _REGISTRY_NAME.fullmatch(value) is None:
        raise PydanticCustomError(
            "registry_name", "not a valid registry name: 1 to 64 of a-z, 0-9 and '_', not starting with '_'"
        )
    return value


Identifier = Annotated[str, AfterValidator(_identifier), Field(description=f"an id, {ID_GRAMMAR}")]
ChoiceId = Annotated[str, AfterValidator(_choice_id), Field(description=f"a choice id, {CHOICE_GRAMMAR}")]
RegistryName = Annotated[
    str, AfterValidator(_registry_name), Field(description=f"a registered name, {REGISTRY_NAME_GRAMMAR}")
]
# Parameters are scalars only: numbers, strings and booleans that the registry bounds.
Scalar = int | float | bool | str
Params = dict[Annotated[str, StringConstraints(max_length=40)], Scalar]


Words = Annotated[PlainText, StringConstraints(max_length=60_000), AfterValidator(clean)]
"""A pack's words: validated as text (60,000 characters at most), then cleaned (:func:`tutor.untrusted.clean`), so
a model holds only display-safe text whoever built it."""
UnitWords = Annotated[PlainText, StringConstraints(max_length=20), AfterValidator(clean)]
"""A unit a lab names (``GB/s``): :data:`Words`, 20 characters at most."""


class Model(BaseModel):
    # allow_inf_nan=False: no float field (nor a float parameter) takes NaN or an infinity, whoever builds the model
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False, allow_inf_nan=False)


class FieldRule(ValueError):
    """A rule of the format, broken: raised by a validator with the keys it is about and its catalog message.

    The loader reports it at the first of ``keys`` present in the file (the line of the offending key), not at the
    top of the mapping, and in the reader's language (``said``); ``str()`` is the English sentence.
    """

    def __init__(self, keys: str | tuple[str, ...], code: str, **params: Param) -> None:
        self.said = Message.of(code, **params)
        super().__init__(self.said.render("en"))
        self.keys: tuple[str, ...] = (keys,) if isinstance(keys, str) else keys


class Text(Model):
    """A text in both languages. Bundled content needs both; another pack may ship one.

    Each language is :class:`~tutor.untrusted.PlainText`: cleaned as it is validated, so whatever builds a model
    (the loader, which already refuses a file with a control character, or anything else) holds display-safe text,
    and a screen or a command that shows it is handed that type."""

    es: Words | None = None
    en: Words | None = None

    if TYPE_CHECKING:  # building one cleans what it is given (the fields' type), so any text may be passed in
        def __init__(self, *, es: str | None = None, en: str | None = None) -> None: ...

    @model_validator(mode="after")
    def _at_least_one(self) -> Text:
        if not (self.es or self.en):
            raise FieldRule((), "rule.text_language")
        return self

    def get(self, lang: Lang) -> PlainText:
        """The text in ``lang``, falling back to the other language (pack data, chosen by language)."""
        found: PlainText | None = next((text for code in (lang, *LANGS) if (text := getattr(self, code))), None)
        return found if found is not None else clean("")

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
    name: RegistryName | None = None
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
            raise FieldRule("op", "rule.op_needs_name", op=repr(self.op), kind=self.op)
        if self.dram is not None and self.op != "workload":
            raise FieldRule("dram", "rule.dram_needs_workload")
        return self


class Lab(Model):
    """A measured sweep with a plot, ending in a Lab Notebook entry."""

    id: Identifier
    title: Text
    goal: Text
    run: MeasureCall
    prediction: Text | None = Field(default=None, description="the question asked before the lab starts")
    prediction_unit: UnitWords | None = None
    prediction_metric: str | None = Field(
        default=None, max_length=120, pattern=r"^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+){0,8}$",
        description="the figure of the result the prediction is compared with (dotted path; 'last' for a list's "
                    "last item, e.g. points.last.gbs)")
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
                raise FieldRule((), "rule.id_twice", id=repr(item.id))
            seen.add(item.id)
        return items

    @field_validator("exercises")
    @classmethod
    def _unique_exercises(cls, ids: list[str]) -> list[str]:
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise FieldRule((), "rule.exercise_twice", id=repr(dupes[0]))
        return ids


ExerciseKind = Literal["bound", "number", "fit", "diagnose"]
Unit = Literal["GB", "GiB", "MB", "tokens/s", "GB/s", "GFLOP/s", "TFLOP/s", "x", "ms", "s", "us", "FLOP/B", "%"]


class Choice(Model):
    id: ChoiceId
    label: Text


class Truth(Model):
    """Where the right answer comes from: this run's measurement, or a formula the lesson teaches.

    ``inputs`` are literal numbers/strings, or ``"measured:<figure>"`` to take a figure from this run's
    measurement (e.g. ``measured:peak_bandwidth_gbs``).
    """

    source: Literal["measurement", "formula"]
    metric: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_.]+$", max_length=80)] | None = None
    formula: RegistryName | None = None
    inputs: Params = Field(default_factory=dict, max_length=20)

    @model_validator(mode="after")
    def _consistent(self) -> Truth:
        if self.source == "formula" and not self.formula:
            raise FieldRule("source", "rule.formula_needed")
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
            raise FieldRule(keys, "rule.tolerances")
        return self


_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_.]*)(?::[^{}]*)?\}")

MetricPath = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_.]+$", max_length=80)]


class Condition(Model):
    """When an explanation variant applies: the measured side, and/or a measured figure above or below a value.

    Every field given must hold. ``bound`` is the side this run measured, when the run decided it (an inconclusive
    run shows neither side's paragraph; ``too_close`` when its intensity sat too close to the ridge); ``metric``
    names a figure of this run (the same paths a ``truth.metric`` may name, plus
    ``truth`` and ``ratio``), compared with ``above``/``below``.
    """

    bound: Literal["memory", "compute", "too_close"] | None = None
    metric: MetricPath | None = None
    above: float | None = Field(default=None, allow_inf_nan=False)
    below: float | None = Field(default=None, allow_inf_nan=False)

    @model_validator(mode="after")
    def _meaningful(self) -> Condition:
        if self.bound is None and self.metric is None:
            raise FieldRule((), "rule.condition_needs")
        if self.metric is not None and self.above is None and self.below is None:
            raise FieldRule("metric", "rule.metric_needs_limit")
        if (self.above is not None or self.below is not None) and self.metric is None:
            raise FieldRule(("above", "below"), "rule.limit_needs_metric")
        if self.above is not None and self.below is not None and not self.above < self.below:
            raise FieldRule(("below", "above"), "rule.above_below")
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
    answer: ChoiceId | None = None
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
            raise FieldRule("choices", "rule.choices_unique")
        if self.kind == "diagnose":
            if len(self.choices) < 2:
                raise FieldRule(("choices", "kind"), "rule.diagnose_two")
            if self.answer is None:
                raise FieldRule("kind", "rule.diagnose_answer")
        if self.answer is not None and self.answer not in ids:
            raise FieldRule("answer", "rule.answer_not_choice", answer=repr(self.answer), ids=str(ids))
        if self.kind == "number":
            if self.unit is None:
                raise FieldRule("kind", "rule.number_unit")
            if self.truth is None:
                raise FieldRule("kind", "rule.number_truth")
        if self.kind == "bound" and self.measure is None:
            raise FieldRule("kind", "rule.bound_measure")
        if self.kind == "fit":
            if self.capacity_gb is None:
                raise FieldRule("kind", "rule.fit_capacity")
            if self.truth is None:
                raise FieldRule("kind", "rule.fit_truth")
        if self.truth is not None and self.truth.source == "measurement" and self.measure is None:
            raise FieldRule("truth", "rule.measured_truth")
        if self.range is not None and not self.range[0] < self.range[1]:
            raise FieldRule("range", "rule.range_order")
        measured = self.truth is None or self.truth.source == "measurement"
        if any(v.when.bound is not None for v in self.explanation_when) and not (self.kind == "bound" and measured):
            raise FieldRule("explanation_when", "rule.bound_variant")
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
