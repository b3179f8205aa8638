"""Loading a course folder (``lessons/``, ``exercises/``, ``course.yaml``) into validated models.

One bad file never stops the rest: each file is parsed and validated on its own, the problems are collected with
their ``path:line:col``, and cross-file rules (duplicate ids, an exercise a lesson names but no file defines, a
workload the registry does not know) are checked over everything that loaded.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tutor import paths
from tutor.content import yaml_source
from tutor.content.honesty import explanation_problems
from tutor.content.models import CourseInfo, Exercise, FieldRule, Lesson, Level, MeasureCall, texts_of
from tutor.content.problems import ContentError, Problem, Severity
from tutor.content.walk import COURSE_FILE, CourseFile, walk_targets
from tutor.i18n import as_lang, t, tn
from tutor.i18n.message import Message
from tutor.untrusted import clean_line

M = TypeVar("M", bound=BaseModel)
MAX_COURSE_BYTES = 64 * 1024 * 1024
"""Course text read in one load, all files together (each file is also capped, at 1 MB)."""


@dataclass(frozen=True)
class InvalidFile:
    """A file that could not be loaded, shown in the course map with its problems."""

    path: Path
    problems: tuple[Problem, ...]


@dataclass
class Course:
    root: Path | None
    info: CourseInfo | None = None
    lessons: dict[str, Lesson] = field(default_factory=dict)
    exercises: dict[str, Exercise] = field(default_factory=dict)
    invalid: list[InvalidFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    sources: dict[str, Path] = field(default_factory=dict)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def levels(self) -> list[Level]:
        """Levels from ``course.yaml``, plus any a lesson names that it does not declare."""
        declared = list(self.info.levels) if self.info else []
        known = {lvl.id for lvl in declared}
        for lesson in self.lessons.values():
            if lesson.level not in known:
                known.add(lesson.level)
                declared.append(Level.model_validate({"id": lesson.level, "order": 999, "title": {"en": lesson.level}}))
        return sorted(declared, key=lambda lvl: (lvl.order, lvl.id))

    def lessons_in(self, level_id: str) -> list[Lesson]:
        return sorted(
            (lesson for lesson in self.lessons.values() if lesson.level == level_id), key=lambda x: (x.order, x.id)
        )

    def ordered_lessons(self) -> list[Lesson]:
        return [lesson for level in self.levels for lesson in self.lessons_in(level.id)]

    def exercises_of(self, lesson: Lesson) -> list[Exercise]:
        return [self.exercises[i] for i in lesson.exercises if i in self.exercises]

    def summary(self, lang: str = "en") -> str:
        code = as_lang(lang)
        n_err = len(self.errors)
        verdict = t("lessons.no_problems", code) if n_err == 0 else tn("count.problem", n_err, code)
        return t("lessons.summary", code, lessons=tn("count.lesson", len(self.lessons), code),
                 exercises=tn("count.exercise", len(self.exercises), code), verdict=verdict)


# -- locating pydantic errors in the YAML ---------------------------------------------------------------------


def _format_loc(parts: Iterable[str | int]) -> str:
    """``sections[0].title``: where a field is, for a message (a pack's own long key names cut short)."""
    return yaml_source.field_path(list(parts))


def _walk(root: Node, loc: tuple[str | int, ...]) -> tuple[Node, list[str | int], list[str | int]]:
    """Follow ``loc`` through the nodes: the node reached, the parts found, and the parts left over."""
    node, found = root, []
    rest = list(loc)
    while rest:
        part = rest[0]
        child: Node | None = None
        if isinstance(node, MappingNode):
            key_node = _key_node_for(node, part)
            if key_node is not None:
                child = dict(node.value)[key_node]
        elif isinstance(node, SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            child = node.value[part]
        if child is None:
            break
        node = child
        found.append(part)
        rest.pop(0)
    return node, found, rest


def _key_value(key_node: ScalarNode) -> object:
    """What a key reads as (``1``, ``True``, ``None`` for ``1:``, ``true:``, ``~:``), for keys that are not text."""
    if key_node.tag == "tag:yaml.org,2002:str":
        return key_node.value
    try:
        return yaml_source.fast_event_loader("").construct_object(key_node)
    except Exception:  # a key the constructor refuses was reported by the parser already
        return key_node.value


def _key_node_for(parent: MappingNode, part: object) -> Node | None:
    """The key node of ``parent`` whose key is ``part``: a text key by its text, else a key that is not text
    (``1:``, ``true:``, ``null:``) by the value it reads as (pydantic names ``true`` as 1 and ``null`` as "None")."""
    others = []
    for key_node, _ in parent.value:
        if isinstance(key_node, ScalarNode):
            if key_node.tag == "tag:yaml.org,2002:str":
                if key_node.value == str(part):
                    return key_node
            else:
                others.append(key_node)
    for key_node in others:
        value = _key_value(key_node)
        if value == part or str(value) == str(part):
            return key_node
    return None


def _key_node(parent: Node, key: str) -> Node | None:
    if isinstance(parent, MappingNode):
        for key_node, _ in parent.value:
            if isinstance(key_node, ScalarNode) and key_node.value == key:
                return key_node
    return None


_PYDANTIC_CTX = {"literal_error": ("expected",), "too_short": ("min_length",), "too_long": ("max_length",),
                 "string_too_long": ("max_length",), "string_too_short": ("min_length",),
                 "string_pattern_mismatch": ("pattern",),
                 "greater_than": ("gt",), "greater_than_equal": ("ge",), "less_than": ("lt",),
                 "less_than_equal": ("le",)}
_PYDANTIC_PARAM = {"expected": "expected", "min_length": "min", "max_length": "max", "gt": "limit", "ge": "limit",
                   "lt": "limit", "le": "limit", "pattern": "pattern"}


def _pydantic_said(err: Any) -> Message:
    """pydantic's complaint in the catalog's words (by error type); a rule of the format (:class:`FieldRule`) by its
    own catalog message; anything else as ``problem.pydantic.other`` (named by its error type), so that no English
    sentence of pydantic's reaches a Spanish reader."""
    kind = str(err.get("type", ""))
    ctx = err.get("ctx") or {}
    rule = ctx.get("error")
    if isinstance(rule, FieldRule):
        return rule.said
    code = f"problem.pydantic.{kind}"
    if t(code, "en") != code:  # a kind the catalog words (its ids: tutor/i18n/built_ids.py)
        params: dict[str, str] = {}
        for name in _PYDANTIC_CTX.get(kind, ()):
            if name in ctx:
                params[_PYDANTIC_PARAM[name]] = clean_line(ctx[name], 120)
        if len(params) == len(_PYDANTIC_CTX.get(kind, ())):
            return Message.of(code, **params)
    return Message.of("problem.pydantic.other", kind=clean_line(kind, 60))


def problems_from_validation(path: Path, root: Node, exc: ValidationError) -> list[Problem]:
    """Turn pydantic's errors into located problems, one per field (union noise folded)."""
    out: dict[tuple[int, int, str], Problem] = {}
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        node, found, rest = _walk(root, loc)
        message = _pydantic_said(err)
        field_path = list(found)
        mark_node: Node = node
        if err["type"] == "missing" and rest:
            field_path.append(rest[0])
            message = Message.of("problem.required")
        elif err["type"] == "invalid_key" and loc:
            # a key that is not text (1:, true:, null:): at the key itself, named as the file writes it
            parent = _walk(root, loc[:-1])
            key = _key_node_for(parent[0], loc[-1]) if isinstance(parent[0], MappingNode) and not parent[2] else None
            mark_node = key or parent[0]
            written = key.value if isinstance(key, ScalarNode) else str(loc[-1])
            field_path = [*parent[1], clean_line(written or "~", 40)]
            message = Message.of("problem.key_not_text", name=clean_line(written or "~", 40))
        elif err["type"] == "extra_forbidden":
            key = _key_node(_walk(root, loc[:-1])[0], str(loc[-1])) if loc else None
            mark_node = key or node
            field_path = [*found] if found else list(loc)
            message = Message.of("problem.unknown_field")
        elif err["type"] == "too_long" and not rest and isinstance(node, SequenceNode | MappingNode):
            # a list over its limit: at the first item past it (the limit named), not at the top of the list
            limit = (err.get("ctx") or {}).get("max_length")
            if isinstance(limit, int) and 0 <= limit < len(node.value):
                item = node.value[limit]
                mark_node = item if isinstance(node, SequenceNode) else item[0]
                if isinstance(node, SequenceNode):
                    field_path = [*found, limit]
        elif not rest and isinstance((err.get("ctx") or {}).get("error"), FieldRule):
            # a rule between fields: at the key it is about, not at the top of the mapping
            for key_name in err["ctx"]["error"].keys:
                key = _key_node(node, key_name)
                if key is not None:
                    mark_node = key
                    field_path = [*found, key_name]
                    break
        mark = mark_node.start_mark
        where = _format_loc(field_path)
        problem = Problem.of(path, mark.line + 1, mark.column + 1, Message.of("problem.at", where=where, what=message))
        out.setdefault((problem.line, problem.col, where), problem)
    return sorted(out.values())


def _validate(path: Path, source: yaml_source.Source, model: type[M]) -> M:
    if not isinstance(source.data, dict):
        mark = source.root.start_mark
        raise ContentError(
            [Problem.of(path, mark.line + 1, mark.column + 1, Message.of("problem.top_mapping"))]
        )
    version = source.data.get("format_version")
    if version is not None and version != 1:
        node = _walk(source.root, ("format_version",))[0]
        raise ContentError(
            [
                Problem.of(
                    path,
                    node.start_mark.line + 1,
                    node.start_mark.column + 1,
                    Message.of("problem.format_version", found=repr(version)),
                )
            ]
        )
    try:
        return model.model_validate(source.data)
    except ValidationError as exc:
        raise ContentError(problems_from_validation(path, source.root, exc)) from None


def _translation_problems(path: Path, root: Node, model: BaseModel) -> list[Problem]:
    problems = []
    for loc, text in texts_of(model):
        for lang in text.missing():
            node, found, _rest = _walk(root, loc)
            mark = node.start_mark
            problems.append(
                Problem.of(path, mark.line + 1, mark.column + 1, _said_at(
                    found, Message.of("problem.missing_translation", language=lang)))
            )
    return problems


# -- what the registry knows ----------------------------------------------------------------------------------


Key = tuple[str | int, ...]


def _plan(call: MeasureCall) -> tuple[object | None, tuple[Key, str] | None]:
    """The validated request of a lab's or exercise's call (:func:`tutor.measure.plan.build_request`, no torch),
    or the key inside the call to fix and why: an unknown name, a parameter of the wrong type or out of range,
    an unknown parameter, or a peak memory or estimated time over the caps."""
    if call.op == "doctor":
        return None, None
    # imported here, not at the top: reading a course (the grading room, the map) loads no measurement module
    from tutor.measure.plan import build_request

    try:
        return build_request(call, device=None, size_dram=False), None
    except ValueError as exc:
        return None, (tuple(getattr(exc, "key", ())), str(exc))


def _measure_call_problem(call: MeasureCall) -> tuple[Key, str] | None:
    """Check a lab's or exercise's call against the measurement plans; ``(key inside the call, message)``."""
    return _plan(call)[1]


def _at_plan_key(path: Path, root: Node | None, loc: Key, message: str | Message) -> Problem:
    """A plan complaint at the key it names inside the file (``measure.params.m``, ``truth.metric``)."""
    if not loc:
        return _at(path, root, loc, message)
    return _at_key(path, root, loc[:-1], str(loc[-1]), message)


def _measured_path_problems(ex: Exercise) -> list[tuple[Key, str | Message]]:
    """``truth.metric`` and ``measured:<path>`` inputs that the exercise's measurement does not produce, checked
    against the figures each op declares (:mod:`tutor.measure.outputs`), each at its own key."""
    truth = ex.truth
    if truth is None:
        return []
    wanted: list[tuple[Key, str]] = []
    if truth.source == "measurement" and truth.metric:
        wanted.append((("truth", "metric"), truth.metric))
    for key, value in truth.inputs.items():
        if isinstance(value, str) and value.startswith("measured:"):
            wanted.append((("truth", "inputs", key), value[len("measured:"):]))
    if not wanted:
        return []
    if ex.measure is None:
        return [(loc, Message.of("problem.needs_measure", path=repr(path))) for loc, path in wanted]
    request, problem = _plan(ex.measure)
    if problem is not None:
        return []  # the call itself is reported; its figures cannot be known
    from tutor.measure.outputs import path_problem

    op, name = ex.measure.op, ex.measure.name
    params = getattr(request, "params", {})
    options = getattr(request, "options", None)
    mode = getattr(options, "mode", None)
    out: list[tuple[Key, str | Message]] = []
    for loc, path in wanted:
        if not path:
            out.append((loc, Message.of("problem.measured_empty")))
            continue
        msg = path_problem(op, name, params, path, mode)
        if msg:
            out.append((loc, msg))
    return out


def _formula_problem(name: str, inputs: dict[str, object]) -> str | None:
    """Check a formula truth: the name is known and its literal inputs are accepted (type and bounds).

    ``measured:`` inputs are only known at run time; a value inside the input's bounds stands in for them, so the
    literal ones are still checked (e.g. ``209.5e12``, which YAML reads as a string, is caught here).
    """
    from tutor.theory.formulas import FORMULAS, evaluate_formula

    spec = FORMULAS.get(name)
    if spec is None:
        return f"unknown formula {name!r} (known: {', '.join(sorted(FORMULAS))})"
    bounds = {i.name: i for i in spec.inputs}
    trial: dict[str, object] = {}
    for key, value in inputs.items():
        if isinstance(value, str) and value.startswith("measured:"):
            item = bounds.get(key)
            trial[key] = item.default if item is not None and item.default is not None else (
                max(item.minimum, min(1.0, item.maximum)) if item is not None else 1.0
            )
        else:
            trial[key] = value
    try:
        evaluate_formula(name, trial)
    except ValueError as exc:
        return str(exc)
    except (ArithmeticError, TypeError) as exc:
        return f"{name}: {exc}"
    return None


def _said_at(where: Iterable[str | int], message: str | Message) -> Message:
    """``field.path: complaint``; a plain string is a complaint with no catalog wording (a registry's or a
    formula's own English), shown as it is."""
    what = message if isinstance(message, Message) else Message.verbatim(message)
    return Message.of("problem.at", where=_format_loc(where), what=what)


def _at(
    path: Path, root: Node | None, loc: tuple[str | int, ...], message: str | Message, severity: Severity = "error"
) -> Problem:
    """A problem at the value ``loc`` names (or as near as the file gets to it)."""
    if root is None:  # the file could not be read again: at its top, still naming the field
        return Problem.of(path, 1, 1, _said_at(loc, message), severity)
    node, found, _ = _walk(root, loc)
    return Problem.of(
        path, node.start_mark.line + 1, node.start_mark.column + 1, _said_at(found, message), severity
    )


def _at_key(
    path: Path, root: Node | None, loc: tuple[str | int, ...], key: str | None, message: str | Message,
    severity: Severity = "error",
) -> Problem:
    """A problem at the key ``key`` of the mapping at ``loc`` (the offending key's line:col), else at the mapping."""
    if root is not None and key is not None:
        mapping, found, rest = _walk(root, loc)
        key_node = _key_node(mapping, key) if not rest else None
        if key_node is not None:
            mark = key_node.start_mark
            return Problem.of(path, mark.line + 1, mark.column + 1, _said_at([*found, key], message), severity)
    return _at(path, root, loc, message, severity)


_UNKNOWN_NAME = re.compile(r"unknown (?:parameter|input) '([^']+)'")


def _offending_key(message: str, keys: Iterable[str]) -> str | None:
    """Which of ``keys`` a registry or formula complaint is about (``gemm: m=… exceeds …``, ``unknown input 'x'``)."""
    keys = list(keys)
    unknown = _UNKNOWN_NAME.search(message)
    if unknown is not None and unknown.group(1) in keys:
        return unknown.group(1)
    body = message.split(": ", 1)[1] if ": " in message else message
    for key in keys:
        if body.startswith((f"{key}=", f"{key} ")):
            return key
    return None


def _formula_problem_at(path: Path, root: Node | None, ex: Exercise, msg: str) -> Problem:
    """A formula complaint at the ``formula`` key (unknown formula) or at the input it names."""
    if msg.startswith("unknown formula"):
        return _at_key(path, root, ("truth",), "formula", msg)
    assert ex.truth is not None
    key = _offending_key(msg, ex.truth.inputs)
    if key is not None:
        return _at_key(path, root, ("truth", "inputs"), key, msg)
    return _at(path, root, ("truth", "inputs"), msg)


# -- the loader -----------------------------------------------------------------------------------------------


def _guess_model(source: yaml_source.Source, hint: str | None) -> type[BaseModel]:
    if hint == "exercise":
        return Exercise
    if hint == "lesson":
        return Lesson
    data = source.data if isinstance(source.data, dict) else {}
    if source.path.name == COURSE_FILE or "levels" in data:
        return CourseInfo
    if "prompt" in data or "kind" in data:
        return Exercise
    return Lesson


@dataclass
class _Loaded:
    """A file that loaded. Its node tree is dropped once the file is checked (a large course would hold millions of
    nodes) and parsed again only if a cross-file problem needs a line to point at."""

    path: Path
    model: BaseModel
    course_root: Path | None = None
    _node: Node | None = None
    _tried: bool = False

    @property
    def root(self) -> Node | None:
        if self._node is None and not self._tried:
            self._tried = True
            try:
                self._node = yaml_source.load(self.path, root=self.course_root).root
            except Exception:  # changed or gone since: the problem is still reported, at the top of the file
                self._node = None
        return self._node


def collect_files(targets: Iterable[Path]) -> list[CourseFile]:
    """The course files under ``targets`` (files or folders), each with the kind its folder implies."""
    return walk_targets(targets).files


def _as_course_file(item: CourseFile | tuple[Path, str | None]) -> CourseFile:
    return item if isinstance(item, CourseFile) else CourseFile(item[0], item[1])


def load_files(
    files: Iterable[CourseFile | tuple[Path, str | None]],
    *,
    root: Path | None = None,
    require_translations: bool = True,
    check_registry: bool = True,
) -> Course:
    """Load and cross-check the given files. Never raises for bad content: problems are collected."""
    course = Course(root=root)
    loaded: list[_Loaded] = []
    budget = MAX_COURSE_BYTES
    for item in map(_as_course_file, files):
        path = item.path
        try:
            if budget <= 0:
                raise ContentError(
                    [Problem.of(path, 1, 1, Message.of("problem.course_too_big", mib=MAX_COURSE_BYTES // 2**20))]
                )
            text = yaml_source.read_text(path, root=item.root)
            budget -= len(text)
            source = yaml_source.parse_text(path, text)
            model_type = _guess_model(source, item.hint)
            model = _validate(path, source, model_type)
        except ContentError as exc:
            course.invalid.append(InvalidFile(path, tuple(exc.problems)))
            course.problems.extend(exc.problems)
            continue
        except Exception as exc:  # a loader bug must not take the course down; report it on the file
            problem = Problem.of(path, 1, 1, Message.of(
                "problem.internal", reason=Message.verbatim(f"{type(exc).__name__}: {exc}")))
            course.invalid.append(InvalidFile(path, (problem,)))
            course.problems.append(problem)
            continue
        loaded.append(_Loaded(path, model, item.root, source.root))
        if require_translations:
            course.problems.extend(_translation_problems(path, source.root, model))
        loaded[-1]._node = None  # parsed again on demand (see _Loaded)

    seen: dict[str, Path] = {}
    for entry in loaded:
        model = entry.model
        if isinstance(model, CourseInfo):
            if course.info is not None:
                course.problems.append(_at(entry.path, entry.root, (), Message.of("problem.second_course_file")))
            course.info = model
            continue
        assert isinstance(model, Lesson | Exercise)
        kind = "lesson" if isinstance(model, Lesson) else "exercise"
        if not paths.is_bundled_file(entry.path) and model.id in bundled_ids():
            # A pack's progress is stored under its ids: one that is the bundled course's would write attempts and
            # C0 evidence indistinguishable from the bundled exercise's. Refused; the pack renames it.
            problem = _at(entry.path, entry.root, ("id",), Message.of(
                f"problem.{kind}_id_bundled", id=repr(model.id)))
            course.problems.append(problem)
            course.invalid.append(InvalidFile(entry.path, (problem,)))
            continue
        if model.id in seen:
            course.problems.append(
                _at(entry.path, entry.root, ("id",), Message.of(
                    f"problem.{kind}_id_taken", id=repr(model.id), path=clean_line(seen[model.id], 200)))
            )
            continue
        seen[model.id] = entry.path
        course.sources[model.id] = entry.path
        if isinstance(model, Lesson):
            course.lessons[model.id] = model
        else:
            course.exercises[model.id] = model

    by_path = {entry.path: entry for entry in loaded}
    for lesson in course.lessons.values():
        entry = by_path[course.sources[lesson.id]]
        for i, ex_id in enumerate(lesson.exercises):
            ex = course.exercises.get(ex_id)
            if ex is None:
                course.problems.append(
                    _at(entry.path, entry.root, ("exercises", i),
                        Message.of("problem.exercise_undefined", id=repr(ex_id)))
                )
            elif ex.lesson != lesson.id:
                course.problems.append(
                    _at(entry.path, entry.root, ("exercises", i),
                        Message.of("problem.exercise_elsewhere", id=repr(ex_id), lesson=repr(ex.lesson)))
                )
        if check_registry:
            for j, lab in enumerate(lesson.labs):
                found = _measure_call_problem(lab.run)
                if found:
                    course.problems.append(_at_plan_key(entry.path, entry.root, ("labs", j, "run", *found[0]),
                                                        found[1]))
    for ex in course.exercises.values():
        entry = by_path[course.sources[ex.id]]
        if ex.lesson not in course.lessons and course.lessons:
            course.problems.append(_at(entry.path, entry.root, ("lesson",),
                                       Message.of("problem.no_such_lesson", id=repr(ex.lesson))))
        elif ex.lesson in course.lessons and ex.id not in course.lessons[ex.lesson].exercises:
            course.problems.append(
                _at(entry.path, entry.root, ("lesson",),
                    Message.of("problem.exercise_unlisted", id=repr(ex.id), lesson=repr(ex.lesson)),
                    "warning")
            )
        for loc, msg in explanation_problems(ex):
            course.problems.append(_at(entry.path, entry.root, loc, msg))
        if check_registry:
            if ex.measure is not None:
                found = _measure_call_problem(ex.measure)
                if found:
                    course.problems.append(_at_plan_key(entry.path, entry.root, ("measure", *found[0]), found[1]))
            for loc, said in _measured_path_problems(ex):
                course.problems.append(_at_plan_key(entry.path, entry.root, loc, said))
            if ex.truth is not None and ex.truth.formula:
                formula_msg = _formula_problem(ex.truth.formula, dict(ex.truth.inputs))
                if formula_msg:
                    course.problems.append(_formula_problem_at(entry.path, entry.root, ex, formula_msg))
    course.problems.sort()
    return course


@functools.cache
def _bundled_course_at(root: Path) -> Course:
    return load_course(root, require_translations=False, check_registry=False)


def bundled() -> Course:
    """The bundled course, loaded once (no translation or registry checks): what C0 and the id rule read.
    Callers must not change it."""
    return _bundled_course_at(paths.bundled_course().resolve())


def bundled_ids() -> frozenset[str]:
    """The lesson and exercise ids the bundled course defines: no other course may define them."""
    course = bundled()
    return frozenset([*course.lessons, *course.exercises])


def load_course(root: Path, *, require_translations: bool = True, check_registry: bool = True) -> Course:
    """Load a course folder (``root/lessons``, ``root/exercises``, optional ``root/course.yaml``)."""
    if not root.is_dir():
        course = Course(root=root)
        course.problems.append(Problem.of(root, 1, 1, Message.of("problem.course_not_found")))
        return course
    walk = walk_targets([root])
    course = load_files(
        walk.files, root=root, require_translations=require_translations, check_registry=check_registry
    )
    _add_walk_problems(course, walk.problems)
    return course


def _add_walk_problems(course: Course, problems: list[Problem]) -> None:
    """What the walk did not read is shown like a file that did not load (the map lists it, the check reports it)."""
    for problem in problems:
        course.invalid.append(InvalidFile(problem.path, (problem,)))
    course.problems = sorted([*course.problems, *problems])


def check_paths(targets: list[Path], *, require_translations: bool = True) -> Course:
    """What ``tutor lessons check`` loads: files or folders, checked together."""
    missing = [t for t in targets if not os.path.lexists(t)]
    walk = walk_targets([t for t in targets if os.path.lexists(t)])
    course = load_files(walk.files, require_translations=require_translations)
    not_found = [Problem.of(t, 1, 1, Message.of("problem.not_found")) for t in missing]
    _add_walk_problems(course, [*walk.problems, *not_found])
    return course


def strict_problems(course: Course, truth_of: Callable[[Exercise], float | None]) -> list[Problem]:
    """Warnings ``tutor lessons check --strict`` adds: an exercise whose formula truth (from literal inputs) is
    printed in the theory of its own lesson, which the learner reads just before predicting it. ``truth_of`` gives
    an exercise's formula truth (the caller has grading; content does not import it), None when it has none."""
    from tutor.content.honesty import given_away, lesson_texts, needs_truth_check

    problems: list[Problem] = []
    for ex in course.exercises.values():
        lesson = course.lessons.get(ex.lesson)
        path = course.sources.get(ex.id)
        if lesson is None or path is None or not needs_truth_check(ex):
            continue
        rendering = given_away(ex, lesson_texts(lesson), truth_of(ex))
        if rendering is None:
            continue
        message = Message.of("problem.given_away", answer=rendering, lesson=repr(lesson.id))
        try:
            source = yaml_source.load(path, root=course.root)
            problem = _at(path, source.root, ("truth",), message)
        except Exception:  # the file loaded once; if it cannot be read again, still report the warning
            problem = Problem.of(path, 1, 1, message)
        problems.append(Problem(problem.path, problem.line, problem.col, problem.message, "warning", problem.said))
    return sorted(problems)
