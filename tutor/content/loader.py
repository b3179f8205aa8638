"""Loading a course folder (``lessons/``, ``exercises/``, ``course.yaml``) into validated models.

One bad file never stops the rest: each file is parsed and validated on its own, the problems are collected with
their ``path:line:col``, and cross-file rules (duplicate ids, an exercise a lesson names but no file defines, a
workload the registry does not know) are checked over everything that loaded.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tutor.content import yaml_source
from tutor.content.honesty import explanation_problems
from tutor.content.models import CourseInfo, Exercise, Lesson, Level, MeasureCall, texts_of
from tutor.content.problems import ContentError, Problem

M = TypeVar("M", bound=BaseModel)
COURSE_FILE = "course.yaml"
YAML_SUFFIXES = (".yaml", ".yml")


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

    def summary(self) -> str:
        n_err = len(self.errors)
        verdict = "no problems" if n_err == 0 else f"{n_err} problem{'s' if n_err != 1 else ''}"
        return f"{len(self.lessons)} lessons, {len(self.exercises)} exercises, {verdict}"


# -- locating pydantic errors in the YAML ---------------------------------------------------------------------


def _format_loc(parts: Iterable[str | int]) -> str:
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(document)"


def _walk(root: Node, loc: tuple[str | int, ...]) -> tuple[Node, list[str | int], list[str | int]]:
    """Follow ``loc`` through the nodes: the node reached, the parts found, and the parts left over."""
    node, found = root, []
    rest = list(loc)
    while rest:
        part = rest[0]
        child: Node | None = None
        if isinstance(node, MappingNode):
            for key_node, value_node in node.value:
                if isinstance(key_node, ScalarNode) and key_node.value == str(part):
                    child = value_node
                    break
        elif isinstance(node, SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            child = node.value[part]
        if child is None:
            break
        node = child
        found.append(part)
        rest.pop(0)
    return node, found, rest


def _key_node(parent: Node, key: str) -> Node | None:
    if isinstance(parent, MappingNode):
        for key_node, _ in parent.value:
            if isinstance(key_node, ScalarNode) and key_node.value == key:
                return key_node
    return None


def problems_from_validation(path: Path, root: Node, exc: ValidationError) -> list[Problem]:
    """Turn pydantic's errors into located problems, one per field (union noise folded)."""
    out: dict[tuple[int, int, str], Problem] = {}
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        node, found, rest = _walk(root, loc)
        message = str(err["msg"]).removeprefix("Value error, ")
        field_path = list(found)
        mark_node: Node = node
        if err["type"] == "missing" and rest:
            field_path.append(rest[0])
            message = "required field is missing"
        elif err["type"] == "extra_forbidden":
            key = _key_node(_walk(root, loc[:-1])[0], str(loc[-1])) if loc else None
            mark_node = key or node
            field_path = [*found] if found else list(loc)
            message = "unknown field (not part of the format; check the spelling)"
        mark = mark_node.start_mark
        where = _format_loc(field_path)
        problem = Problem(path, mark.line + 1, mark.column + 1, f"{where}: {message}")
        out.setdefault((problem.line, problem.col, where), problem)
    return sorted(out.values())


def _validate(path: Path, source: yaml_source.Source, model: type[M]) -> M:
    if not isinstance(source.data, dict):
        mark = source.root.start_mark
        raise ContentError(
            [Problem(path, mark.line + 1, mark.column + 1, "expected a mapping of fields at the top of the file")]
        )
    version = source.data.get("format_version")
    if version is not None and version != 1:
        node = _walk(source.root, ("format_version",))[0]
        raise ContentError(
            [
                Problem(
                    path,
                    node.start_mark.line + 1,
                    node.start_mark.column + 1,
                    f"format_version: this tutor reads format 1, the file says {version!r}",
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
                Problem(path, mark.line + 1, mark.column + 1, f"{_format_loc(found)}: missing the {lang} text")
            )
    return problems


# -- what the registry knows ----------------------------------------------------------------------------------


def _measure_call_problem(call: MeasureCall) -> str | None:
    """Check a lab's or exercise's call against the measurement registry (imported without torch)."""
    try:
        registry = importlib.import_module("tutor.measure.registry")
    except ImportError:
        return None
    if call.op == "workload" and call.name is not None:
        workloads = getattr(registry, "WORKLOADS", None)
        if workloads is not None and call.name not in workloads:
            return f"unknown workload {call.name!r} (known: {', '.join(sorted(workloads))})"
        validate = getattr(registry, "validate_params", None)
        if validate is not None:
            try:
                validate(call.name, dict(call.params))
            except ValueError as exc:
                return str(exc)
    if call.op == "sweep" and call.name is not None:
        sweeps = getattr(registry, "SWEEPS", None)
        if sweeps is not None and call.name not in sweeps:
            return f"unknown sweep {call.name!r} (known: {', '.join(sorted(sweeps))})"
    return None


def _formula_problem(name: str, inputs: dict[str, object]) -> str | None:
    """Check a formula truth: the name is known and its literal inputs are accepted (type and bounds).

    ``measured:`` inputs are only known at run time; a value inside the input's bounds stands in for them, so the
    literal ones are still checked (e.g. ``209.5e12``, which YAML reads as a string, is caught here).
    """
    try:
        formulas = importlib.import_module("tutor.theory.formulas")
    except ImportError:
        return None
    known = getattr(formulas, "FORMULAS", None)
    if known is None:
        return None
    spec = known.get(name)
    if spec is None:
        return f"unknown formula {name!r} (known: {', '.join(sorted(known))})"
    evaluate = getattr(formulas, "evaluate_formula", None)
    if evaluate is None:
        return None
    bounds = {i.name: i for i in getattr(spec, "inputs", ())}
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
        evaluate(name, trial)
    except ValueError as exc:
        return str(exc)
    except (ArithmeticError, TypeError) as exc:
        return f"{name}: {exc}"
    return None


def _at(path: Path, root: Node, loc: tuple[str | int, ...], message: str) -> Problem:
    node, found, _ = _walk(root, loc)
    return Problem(path, node.start_mark.line + 1, node.start_mark.column + 1, f"{_format_loc(found)}: {message}")


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
    path: Path
    root: Node
    model: BaseModel


def _yaml_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix in YAML_SUFFIXES and p.is_file())


def collect_files(targets: Iterable[Path]) -> list[tuple[Path, str | None]]:
    """The course files under ``targets`` (files or folders), each with the kind its folder implies."""
    files: list[tuple[Path, str | None]] = []
    for target in targets:
        if target.is_dir():
            course_like = (target / "lessons").is_dir() or (target / "exercises").is_dir()
            if course_like:
                if (target / COURSE_FILE).is_file():
                    files.append((target / COURSE_FILE, "course"))
                for sub, sub_hint in (("lessons", "lesson"), ("exercises", "exercise")):
                    if (target / sub).is_dir():
                        files.extend((p, sub_hint) for p in _yaml_files(target / sub))
            else:
                hint = {"lessons": "lesson", "exercises": "exercise"}.get(target.name)
                files.extend((p, hint) for p in _yaml_files(target))
        else:
            files.append((target, {"lessons": "lesson", "exercises": "exercise"}.get(target.parent.name)))
    return files


def load_files(
    files: Iterable[tuple[Path, str | None]],
    *,
    root: Path | None = None,
    require_translations: bool = True,
    check_registry: bool = True,
) -> Course:
    """Load and cross-check the given files. Never raises for bad content: problems are collected."""
    course = Course(root=root)
    loaded: list[_Loaded] = []
    for path, hint in files:
        try:
            source = yaml_source.load(path)
            model_type = _guess_model(source, hint)
            model = _validate(path, source, model_type)
        except ContentError as exc:
            course.invalid.append(InvalidFile(path, tuple(exc.problems)))
            course.problems.extend(exc.problems)
            continue
        except Exception as exc:  # a loader bug must not take the course down; report it on the file
            problem = Problem(path, 1, 1, f"internal error while loading: {type(exc).__name__}: {exc}")
            course.invalid.append(InvalidFile(path, (problem,)))
            course.problems.append(problem)
            continue
        loaded.append(_Loaded(path, source.root, model))
        if require_translations:
            course.problems.extend(_translation_problems(path, source.root, model))

    seen: dict[str, Path] = {}
    for item in loaded:
        model = item.model
        if isinstance(model, CourseInfo):
            if course.info is not None:
                course.problems.append(_at(item.path, item.root, (), "a second course.yaml"))
            course.info = model
            continue
        assert isinstance(model, Lesson | Exercise)
        kind = "lesson" if isinstance(model, Lesson) else "exercise"
        if model.id in seen:
            course.problems.append(
                _at(item.path, item.root, ("id",), f"{kind} id {model.id!r} is already defined in {seen[model.id]}")
            )
            continue
        seen[model.id] = item.path
        course.sources[model.id] = item.path
        if isinstance(model, Lesson):
            course.lessons[model.id] = model
        else:
            course.exercises[model.id] = model

    by_path = {item.path: item for item in loaded}
    for lesson in course.lessons.values():
        item = by_path[course.sources[lesson.id]]
        for i, ex_id in enumerate(lesson.exercises):
            ex = course.exercises.get(ex_id)
            if ex is None:
                course.problems.append(
                    _at(item.path, item.root, ("exercises", i), f"exercise {ex_id!r} is not defined by any file")
                )
            elif ex.lesson != lesson.id:
                course.problems.append(
                    _at(item.path, item.root, ("exercises", i), f"exercise {ex_id!r} belongs to lesson {ex.lesson!r}")
                )
        if check_registry:
            for j, lab in enumerate(lesson.labs):
                msg = _measure_call_problem(lab.run)
                if msg:
                    course.problems.append(_at(item.path, item.root, ("labs", j, "run"), msg))
    for ex in course.exercises.values():
        item = by_path[course.sources[ex.id]]
        if ex.lesson not in course.lessons and course.lessons:
            course.problems.append(_at(item.path, item.root, ("lesson",), f"no lesson with id {ex.lesson!r}"))
        elif ex.lesson in course.lessons and ex.id not in course.lessons[ex.lesson].exercises:
            course.problems.append(
                Problem(item.path, 1, 1, f"exercise {ex.id!r} is not listed in lesson {ex.lesson!r}", "warning")
            )
        for loc, msg in explanation_problems(ex):
            course.problems.append(_at(item.path, item.root, loc, msg))
        if check_registry:
            if ex.measure is not None:
                msg = _measure_call_problem(ex.measure)
                if msg:
                    course.problems.append(_at(item.path, item.root, ("measure",), msg))
            if ex.truth is not None and ex.truth.formula:
                msg = _formula_problem(ex.truth.formula, dict(ex.truth.inputs))
                if msg:
                    course.problems.append(_at(item.path, item.root, ("truth", "inputs"), msg))
    course.problems.sort()
    return course


def load_course(root: Path, *, require_translations: bool = True, check_registry: bool = True) -> Course:
    """Load a course folder (``root/lessons``, ``root/exercises``, optional ``root/course.yaml``)."""
    if not root.is_dir():
        course = Course(root=root)
        course.problems.append(Problem(root, 1, 1, "course folder not found"))
        return course
    return load_files(
        collect_files([root]), root=root, require_translations=require_translations, check_registry=check_registry
    )


def check_paths(targets: list[Path], *, require_translations: bool = True) -> Course:
    """What ``tutor lessons check`` loads: files or folders, checked together."""
    missing = [t for t in targets if not t.exists()]
    files = collect_files([t for t in targets if t.exists()])
    course = load_files(files, require_translations=require_translations)
    course.problems.extend(Problem(t, 1, 1, "no such file or folder") for t in missing)
    course.problems.sort()
    return course




def strict_problems(course: Course) -> list[Problem]:
    """Warnings ``tutor lessons check --strict`` adds: an exercise whose formula truth (from literal inputs) is
    printed in the theory of its own lesson, which the learner reads just before predicting it."""
    from tutor.content.honesty import given_away, lesson_texts

    problems: list[Problem] = []
    for ex in course.exercises.values():
        lesson = course.lessons.get(ex.lesson)
        path = course.sources.get(ex.id)
        if lesson is None or path is None:
            continue
        rendering = given_away(ex, lesson_texts(lesson))
        if rendering is None:
            continue
        message = (
            f"the answer ({rendering}) appears in the theory of lesson {lesson.id!r}, read just before this "
            "exercise: move the worked example after the exercise or use other numbers"
        )
        try:
            source = yaml_source.load(path)
            problem = _at(path, source.root, ("truth",), message)
        except Exception:  # the file loaded once; if it cannot be read again, still report the warning
            problem = Problem(path, 1, 1, message)
        problems.append(Problem(problem.path, problem.line, problem.col, problem.message, "warning"))
    return sorted(problems)
