"""Property: whatever text a pack, an import or a lock carries, what the tutor prints is clean.

Hypothesis writes hostile strings — every control, format and bidi code point (general categories Cc, Cf, Zl, Zp,
Co, Cs and Bidi_Control), lone surrogates, every kind of line break, terminal escape sequences, long strings — into
the fields of a course (ids included, as if a loader had let them through), of an imported progress export and of
an environment lock. ``lessons list``, ``exercise list`` and ``progress`` must print no such character, not one line
more than the same course with plain text in those fields prints, and no traceback.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.cli import run_cli

# The oracle, written here from the Unicode definitions rather than imported from the code under test.
BIDI_CONTROL = frozenset({0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs"})


def is_unsafe(char: str) -> bool:
    return unicodedata.category(char) in UNSAFE_CATEGORIES or ord(char) in BIDI_CONTROL

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")

_SPECIAL = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x85", "\u2028", "\u2029", "\x1b[2J", "\x1b]0;PWNED\x07",
            "\x1b]52;c;cHduZWQ=\x07", "\x9b31m", "\udc9b", "\ud800", "\ufeff", "\u200b", "\u00ad",
            "✓ C0 reached", "\t", *(chr(c) for c in sorted(BIDI_CONTROL))]
_UNSAFE_CHARS = st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Co", "Cs"])

hostile_piece = st.one_of(st.sampled_from(_SPECIAL), _UNSAFE_CHARS, st.characters(), st.text(max_size=3))
hostile_text = st.one_of(
    st.lists(hostile_piece, min_size=1, max_size=12).map("".join),
    st.tuples(hostile_piece, st.integers(200, 2_000)).map(lambda pair: "x" * pair[1] + pair[0]),  # long, then a trap
)

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _assert_clean(text: str, where: str) -> None:
    bad = sorted({f"U+{ord(c):04X} ({unicodedata.category(c)})" for c in text if c not in "\n\t" and is_unsafe(c)})
    assert not bad, f"{where}: {bad} reached the output: {text[:300]!r}"
    assert "Traceback" not in text, f"{where}: {text[-600:]}"


# -- a course whose every one-line field is hostile ----------------------------------------------------------------


def _course(words: dict[str, str]) -> Any:
    """A course built from the models without validation (as if the loader had let every field through)."""
    from tutor.content import Course
    from tutor.content.models import Choice, CourseInfo, Exercise, Lab, Lesson, Level, MeasureCall, Section, Text

    def text(key: str) -> Text:
        return Text.model_construct(es=words[key], en=words[key])

    level = Level.model_construct(id=words["level_id"], order=0, title=text("level_title"), summary=None)
    section = Section.model_construct(id=words["section_id"], title=text("section_title"), body=text("body"))
    lab = Lab.model_construct(id=words["lab_id"], title=text("lab_title"), goal=text("body"),
                              run=MeasureCall.model_construct(op="roofline", name=None, params={}, dram=None),
                              prediction=None, prediction_unit=words["unit"], procedure=None, hypothesis=None,
                              next_question=None)
    lesson = Lesson.model_construct(format_version=1, id=words["lesson_id"], level=words["level_id"], order=1,
                                    title=text("lesson_title"), outcome=text("body"), summary=None,
                                    sections=[section], labs=[lab], exercises=[words["exercise_id"]])
    choices = [Choice.model_construct(id=words["choice_id"], label=text("choice_label")),
               Choice.model_construct(id="b", label=text("choice_label"))]
    exercise = Exercise.model_construct(format_version=1, id=words["exercise_id"], lesson=words["lesson_id"],
                                        kind="diagnose", title=text("exercise_title"), prompt=text("body"),
                                        target=None, measure=None, truth=None, unit=None, range=None,
                                        capacity_gb=None, choices=choices, answer=words["choice_id"], hints=[],
                                        explanation=text("body"), explanation_when=[])
    course = Course(root=Path("."))
    course.info = CourseInfo.model_construct(format_version=1, title=text("level_title"), levels=[level])
    course.lessons[lesson.id] = lesson
    course.exercises[exercise.id] = exercise
    course.sources[lesson.id] = Path(words["file_name"])
    course.sources[exercise.id] = Path(words["file_name"])
    return course


FIELDS = ("level_id", "level_title", "section_id", "section_title", "body", "lab_id", "lab_title", "unit",
          "lesson_id", "lesson_title", "exercise_id", "exercise_title", "choice_id", "choice_label", "file_name")
PLAIN = {name: f"plain-{i}" for i, name in enumerate(FIELDS)}


def _listings(monkeypatch: pytest.MonkeyPatch, words: dict[str, str]) -> dict[str, tuple[int, str, str]]:
    import tutor.commands.lessons
    import tutor.content

    course = _course(words)
    monkeypatch.setattr(tutor.content, "load_course", lambda *_a, **_k: course)
    monkeypatch.setattr(tutor.commands.lessons, "load_course", lambda *_a, **_k: course)
    return {" ".join(args): run_cli([*args, "--lang", "en"])
            for args in (["lessons", "list"], ["exercise", "list"], ["exercise", "list", "--json"], ["progress"],
                         ["lab", "list"])}


@SETTINGS
@given(words=st.fixed_dictionaries({name: hostile_text for name in FIELDS}))
def test_listings_of_a_hostile_course_are_clean_and_forge_no_line(
    words: dict[str, str], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        plain = _listings(patch, PLAIN)
    with monkeypatch.context() as patch:
        hostile = _listings(patch, words)
    for name, (status, out, err) in hostile.items():
        _assert_clean(out, f"{name} stdout")
        _assert_clean(err, f"{name} stderr")
        plain_status, plain_out, _ = plain[name]
        assert status == plain_status, (name, err)
        if name.endswith("--json"):
            json.loads(out)  # the same data, escaped
        else:
            assert len(out.splitlines()) == len(plain_out.splitlines()), (name, out)


# -- an imported progress export whose text fields are hostile ------------------------------------------------------


def _export(exercise_id: str, choice: str, state: str, verdict: str, feedback: str) -> dict[str, Any]:
    attempt = {
        "confidence": 0.8, "created_at": 1796407304.9, "exercise_id": exercise_id, "fingerprint": None,
        "graded_at": 1796407305.0, "hints_used": 0, "id": 1, "lesson_id": "n0-l2", "measurement": None, "pass": 1,
        "prediction": {"choice": choice, "confidence": 0.8, "value": None}, "score": 1.0, "state": state,
        "truth": {"both_count": False, "counted": True, "feedback": {"en": feedback, "es": feedback}, "ratio": None,
                  "score": 1.0, "truth": {"choice": choice, "details": {}, "inconclusive": [],
                                          "said": {"code": "truth.answer_key", "params": {}},
                                          "source": feedback, "spread": None, "too_close": False, "unit": None,
                                          "value": None}, "verdict": verdict},
        "verdict": verdict,
    }
    tables: dict[str, list[Any]] = {name: [] for name in ("bench_runs", "doctor_runs", "lab_runs",
                                                          "notebook_entries", "sections_read")}
    return {"exported_at": 1796407305.3, "format": "gpu-tutor/progress/v1", "schema_version": 2,
            "tables": {"attempts": [attempt], **tables}}


@SETTINGS
@given(exercise_id=hostile_text, choice=hostile_text, verdict=hostile_text, feedback=hostile_text,
       state=st.sampled_from(["graded", "locked", "failed"]))
def test_progress_after_a_hostile_import_is_clean(
    exercise_id: str, choice: str, verdict: str, feedback: str, state: str, data_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "import.json"
    path.write_text(json.dumps(_export(exercise_id, choice, state, verdict, feedback)), encoding="utf-8")
    status, out, err = run_cli(["progress", "import", "--replace", str(path), "--lang", "en"])
    _assert_clean(out + err, "progress import")
    assert status in (0, 2), err
    assert len(err.splitlines()) <= 1, err  # refused in one line, or imported
    plain = run_cli(["progress", "--lang", "en"]) if status == 2 else None
    for args in (["progress", "--lang", "en"], ["progress", "--json"], ["exercise", "list", "--lang", "en"]):
        run_status, run_out, run_err = run_cli(args)
        _assert_clean(run_out + run_err, " ".join(args))
        assert run_status == 0, run_err
        if args[-1] == "--json":
            json.loads(run_out)
    if plain is not None:  # nothing was imported: the report is the one before
        assert run_cli(["progress", "--lang", "en"])[1] == plain[1]


# -- an environment lock whose values are hostile -------------------------------------------------------------------


@SETTINGS
@given(value=hostile_text, key=hostile_text)
def test_a_hostile_lock_is_read_or_refused_and_its_differences_print_clean(
    value: str, key: str, tmp_path: Path
) -> None:
    from tutor.doctor.lock import LockError, compare, read_lock

    path = tmp_path / "environment.lock.json"
    path.write_text(json.dumps({"format": "tutor-env-lock/v1", "python": value, key: {"torch": value}}),
                    encoding="utf-8")
    try:
        lock = read_lock(path)
    except LockError as exc:
        said = str(exc)
        _assert_clean(said.replace("\n", "⏎"), "lock error")
        assert "\n" not in said
        return
    from tutor.results.lock import EnvironmentLock, TorchPin

    for difference in compare(lock, EnvironmentLock(python_version="3.11", torch=TorchPin(version="2.5"))):
        for text in (str(difference), *(str(v) for v in vars(difference).values())):
            shown = text.replace("\n", " ")
            _assert_clean(shown, "lock difference")


# -- the reveal of a hostile exercise -------------------------------------------------------------------------------

TEXT_FIELDS = ("level_title", "section_title", "body", "lab_title", "lesson_title", "exercise_title", "choice_label")


@SETTINGS
@given(texts=st.fixed_dictionaries({name: hostile_text for name in TEXT_FIELDS}))
def test_the_reveal_of_a_hostile_exercise_is_clean_and_forges_no_line(
    texts: dict[str, str], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["exercise", "run", PLAIN["exercise_id"], "--predict", PLAIN["choice_id"], "--lang", "en"]

    def reveal(words: dict[str, str]) -> tuple[int, str, str]:
        import tutor.content

        course = _course(words)
        with monkeypatch.context() as patch:
            patch.setattr(tutor.content, "load_course", lambda *_a, **_k: course)
            return run_cli(args)

    plain_status, plain_out, _ = reveal(PLAIN)
    status, out, err = reveal({**PLAIN, **texts})
    _assert_clean(out, "reveal stdout")
    _assert_clean(err, "reveal stderr")
    assert status == plain_status == 0, err
    # the explanation is Markdown (its own lines, wrapped); every line above it is one labelled line
    head, plain_head = out.split("\n\n", 1)[0], plain_out.split("\n\n", 1)[0]
    assert len(head.splitlines()) == len(plain_head.splitlines()), out
