"""The instructor's view of a class: what the class predicts well and badly, how calibrated it is, where each
learner stands on C0, and every learner's measured roofline grouped by device.

Built from the rows the instructor's connection reads (every learner's, through row-level security), grouped by
their ``learner`` column. Every figure is a count or a ratio of stored attempts, or a roof a learner measured.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from tutor.grading.calibration import Calibration
from tutor.i18n import Lang, format_number, t
from tutor.progress.c0 import Checkpoint, evaluate_c0, level_exercise_ids
from tutor.progress.calibration import calibration_of
from tutor.progress.rows import Attempt, BenchRun, DoctorRun, StoredEntry
from tutor.results.wire import JsonObject

__all__ = ["ClassReport", "DeviceRoofs", "ExerciseRow", "LearnerRoof", "WrongAnswer", "class_report", "md_text",
           "render_class_report"]


Row = TypeVar("Row", Attempt, DoctorRun, BenchRun, StoredEntry)
"""A typed stored row; each names the learner who wrote it (in a class store)."""


@dataclass(frozen=True)
class WrongAnswer:
    """The class's most common wrong answer to one exercise: a choice (``answer``, picked ``count`` times), or for a
    number the side most wrong guesses fell on (``direction`` ``high``/``low``) and their median ratio to the
    truth."""

    kind: Literal["choice", "number"]
    count: int
    answer: str | None = None
    direction: Literal["high", "low"] | None = None
    median_ratio: float | None = None

    def to_json(self) -> JsonObject:
        if self.kind == "choice":
            return {"kind": "choice", "answer": self.answer, "count": self.count}
        return {"kind": "number", "direction": self.direction, "count": self.count, "median_ratio": self.median_ratio}


@dataclass(frozen=True)
class ExerciseRow:
    """How the class did on one exercise: graded attempts, how many passed, by how many learners, and the most
    common wrong answer."""

    exercise: str
    title: Mapping[Lang, str]
    graded: int
    correct: int
    learners: int
    most_common_wrong: WrongAnswer | None = None

    @property
    def share_correct(self) -> float:
        return self.correct / self.graded

    def to_json(self) -> JsonObject:
        return {"exercise": self.exercise, "title": dict(self.title), "graded": self.graded, "correct": self.correct,
                "share_correct": self.share_correct, "learners": self.learners,
                "most_common_wrong": self.most_common_wrong.to_json() if self.most_common_wrong else None}


@dataclass(frozen=True)
class LearnerRoof:
    """One learner's latest measured roof on one device: peak bandwidth (GB/s) and float32 FLOP/s (GFLOP/s), from
    a bench run or an exercise's measured roofline."""

    fingerprint: str
    device: str | None
    kind: str | None
    bandwidth_gbs: float
    gflops: float | None
    source: Literal["bench", "exercise"]
    at: float | None
    learner: str = "?"

    @property
    def ridge_flops_per_byte(self) -> float | None:
        """The ridge point the two measured roofs give (peak FLOP/s over peak bandwidth), FLOP/B."""
        return self.gflops / self.bandwidth_gbs if self.gflops and self.bandwidth_gbs else None

    def to_json(self) -> JsonObject:
        return {"fingerprint": self.fingerprint, "device": self.device, "kind": self.kind,
                "bandwidth_gbs": self.bandwidth_gbs, "gflops": self.gflops, "source": self.source, "at": self.at,
                "learner": self.learner, "ridge_flops_per_byte": self.ridge_flops_per_byte}


@dataclass(frozen=True)
class DeviceRoofs:
    """The class roofline of one device fingerprint: each learner's latest roof on it."""

    fingerprint: str
    device: str | None
    kind: str | None
    learners: tuple[LearnerRoof, ...]

    def to_json(self) -> JsonObject:
        return {"fingerprint": self.fingerprint, "device": self.device, "kind": self.kind,
                "learners": [r.to_json() for r in self.learners]}


@dataclass(frozen=True)
class ClassReport:
    """The instructor's report: the learners, per exercise how the class did, the class's calibration, each
    learner's C0 and the class roofline by device. :meth:`to_json` is ``tutor class report --json``."""

    learners: tuple[str, ...]
    attempts: int
    exercises: tuple[ExerciseRow, ...]
    calibration: Calibration
    c0: Mapping[str, Checkpoint]
    roofline: tuple[DeviceRoofs, ...]

    def to_json(self) -> JsonObject:
        return {"learners": list(self.learners), "attempts": self.attempts,
                "exercises": [e.to_json() for e in self.exercises], "calibration": self.calibration.to_json(),
                "c0": {name: cp.to_json() for name, cp in self.c0.items()},
                "roofline": [g.to_json() for g in self.roofline]}


def _by_learner(rows: Iterable[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        out[_learner_of(row)].append(row)
    return dict(out)


def _most_common_wrong(wrong: Sequence[Attempt]) -> WrongAnswer | None:
    choices = Counter(a.choice for a in wrong if a.choice is not None)
    if choices:
        answer, count = choices.most_common(1)[0]
        return WrongAnswer("choice", count, answer=answer)
    ratios = [a.ratio for a in wrong if a.ratio is not None and a.ratio > 0]
    if not ratios:
        return None
    high = [r for r in ratios if r > 1]
    low = [r for r in ratios if r < 1]
    side: Literal["high", "low"]
    side, group = ("high", high) if len(high) >= len(low) else ("low", low)
    if not group:
        return None
    return WrongAnswer("number", len(group), direction=side, median_ratio=statistics.median(group))


def _exercise_rows(course: Any, attempts: Sequence[Attempt]) -> tuple[ExerciseRow, ...]:
    graded_by_ex: dict[str, list[Attempt]] = defaultdict(list)
    for a in attempts:
        if a.graded:
            graded_by_ex[a.exercise_id].append(a)
    order = [ex_id for ex_id in course.exercises if ex_id in graded_by_ex]
    order += sorted(set(graded_by_ex) - set(order))
    out = []
    for ex_id in order:
        graded = graded_by_ex[ex_id]
        correct = [a for a in graded if a.passed]
        wrong = [a for a in graded if not a.passed]
        exercise = course.exercises.get(ex_id)
        title: dict[Lang, str] = ({"es": exercise.title.get("es"), "en": exercise.title.get("en")} if exercise
                                  else {"es": ex_id, "en": ex_id})
        out.append(ExerciseRow(ex_id, title, graded=len(graded), correct=len(correct),
                               learners=len({a.learner for a in graded}), most_common_wrong=_most_common_wrong(wrong)))
    return tuple(out)


def _roof_of_bench(run: BenchRun) -> LearnerRoof | None:
    report = run.report
    bandwidth = report.value("peak_bandwidth_gbs") if report is not None else None
    if report is None or bandwidth is None:
        return None
    tflops = report.value("peak_flops_tflops.float32")
    return LearnerRoof(run.fingerprint, report.device.name or run.device_kind, run.device_kind, bandwidth,
                       tflops * 1000 if tflops is not None else None, "bench", run.created_at)


def _roof_of_attempt(attempt: Attempt) -> LearnerRoof | None:
    m = attempt.measurement
    if m is None or m.roofline is None or m.device is None:
        return None
    roof, device = m.roofline, m.device
    fingerprint = device.fingerprint or attempt.fingerprint
    if not fingerprint:
        return None
    return LearnerRoof(fingerprint, device.name, device.kind, roof.peak_bandwidth_gbs,
                       roof.peak_gflops.get("float32"), "exercise", attempt.at)


def _learner_of(row: Attempt | DoctorRun | BenchRun | StoredEntry) -> str:
    return row.learner or "?"


def _class_roofline(attempts: Sequence[Attempt], bench_runs: Sequence[BenchRun]) -> tuple[DeviceRoofs, ...]:
    """Per device fingerprint: each learner's latest measured roof (a bench run before an exercise's)."""
    latest: dict[tuple[str, str], LearnerRoof] = {}
    candidates = [(_learner_of(r), _roof_of_bench(r)) for r in bench_runs]
    candidates += [(_learner_of(a), _roof_of_attempt(a)) for a in attempts]
    for learner, roof in candidates:
        if roof is None or not roof.fingerprint:
            continue
        key = (roof.fingerprint, learner)
        held = latest.get(key)
        if held is None or _rank(roof) > _rank(held):
            latest[key] = replace(roof, learner=learner)
    groups: dict[str, list[LearnerRoof]] = defaultdict(list)
    for (fp, _learner), roof in sorted(latest.items()):
        groups[fp].append(roof)
    return tuple(DeviceRoofs(fp, rows[0].device, rows[0].kind, tuple(rows)) for fp, rows in groups.items())


def _rank(roof: LearnerRoof) -> tuple[bool, float]:
    return roof.source == "bench", float(roof.at or 0)


def class_report(course: Any, store: Any) -> ClassReport:
    """The report from everything ``store`` reads (the instructor's connection reads every learner's rows)."""
    attempts = store.attempts()
    bench_runs = store.bench_runs()
    doctor_runs = store.doctor_runs()
    learners = sorted({_learner_of(r) for r in (*attempts, *bench_runs, *doctor_runs)})
    att_by = _by_learner(attempts)
    doc_by = _by_learner(doctor_runs)
    bench_by = _by_learner(bench_runs)
    level = level_exercise_ids(course)
    nb_by = _by_learner(store.notebook_entries())
    c0 = {name: evaluate_c0(attempts=att_by.get(name, []), bench_runs=bench_by.get(name, []),
                            doctor_runs=doc_by.get(name, []), level_exercises=level,
                            notebook=nb_by.get(name, []))
          for name in learners}
    return ClassReport(learners=tuple(learners), attempts=len(attempts), exercises=_exercise_rows(course, attempts),
                       calibration=calibration_of(attempts), c0=c0, roofline=_class_roofline(attempts, bench_runs))


#: What a learner's (or a pack's) text could use to become markup in the report: raw HTML (``<script>``,
#: ``onerror=``), a link or an image (``[x](javascript:…)``), code spans, the escape itself, and the table's
#: ``|``. Escaped with a backslash (``&``, ``<``, ``>`` as entities), so the text reads the same once rendered.
_MD_ESCAPES = {"\\": "\\\\", "`": "\\`", "*": "\\*", "[": "\\[", "]": "\\]", "|": "\\|", "&": "&amp;",
               "<": "&lt;", ">": "&gt;"}


def md_text(value: object) -> str:
    """``value`` as one line of plain text inside Markdown (a table cell, a list, a heading): control characters
    and line breaks gone (:func:`~tutor.untrusted.clean_line`), every character that could start markup escaped."""
    from tutor.untrusted import clean_line

    return "".join(_MD_ESCAPES.get(ch, ch) for ch in clean_line(str(value)))


def _pct(x: float, lang: Lang) -> str:
    return format_number(x, lang, ".0%")


def _wrong_text(wrong: WrongAnswer | None, lang: Lang) -> str:
    if wrong is None:
        return "—"
    if wrong.kind == "choice":
        return t("creport.wrong_choice", lang, answer=md_text(wrong.answer), count=wrong.count)
    return t(f"creport.wrong_{wrong.direction}", lang, count=wrong.count,
             ratio=format_number(float(wrong.median_ratio or 0.0), lang, ".2g"))


def render_class_report(report: ClassReport, lang: Lang) -> str:
    """The report as Markdown (what ``tutor class report --markdown`` prints and the instructor's screen shows)."""
    names = ", ".join(md_text(n) for n in report.learners) or "—"
    lines = [f"# {t('creport.title', lang)}", "",
             t("creport.learners", lang, n=len(report.learners), names=names), "",
             f"## {t('creport.exercises', lang)}", ""]
    if report.exercises:
        lines += [f"| {t('creport.col_exercise', lang)} | {t('creport.col_graded', lang)} | "
                  f"{t('creport.col_correct', lang)} | {t('creport.col_wrong', lang)} |", "|---|---|---|---|"]
        for ex in report.exercises:
            lines.append(f"| {md_text(ex.title.get(lang) or ex.exercise)} | {ex.graded} | "
                         f"{_pct(ex.share_correct, lang)} ({ex.correct}) | "
                         f"{_wrong_text(ex.most_common_wrong, lang)} |")
    else:
        lines.append(t("creport.none", lang))
    cal = report.calibration
    lines += ["", f"## {t('creport.calibration', lang)}", ""]
    if cal.n:
        lines.append(t("creport.brier", lang, brier=format_number(float(cal.brier or 0.0), lang, ".3f"), n=cal.n))
        lines.append("")
        for b in cal.buckets:
            rate = _pct(b.hit_rate, lang) if b.hit_rate is not None else "—"
            text = t("creport.bucket", lang, low=b.low_pct, high=b.high_pct, right=b.right, total=b.total, rate=rate)
            lines.append(f"- {text}")
    else:
        lines.append(t("creport.none", lang))
    lines += ["", f"## {t('creport.c0', lang)}", ""]
    if report.c0:
        first = next(iter(report.c0.values()))
        titles = [md_text(c.title.render(lang)) for c in first.conditions]
        lines += [f"| {t('creport.col_learner', lang)} | C0 | " + " | ".join(titles) + " |",
                  "|" + "---|" * (len(titles) + 2)]
        for name, cp in report.c0.items():
            marks = " | ".join("✓" if c.passed else "·" for c in cp.conditions)
            lines.append(f"| {md_text(name)} | {'✓' if cp.passed else '·'} {md_text(cp.name)} | {marks} |")
    else:
        lines.append(t("creport.none", lang))
    lines += ["", f"## {t('creport.roofline', lang)}", ""]
    if not report.roofline:
        lines.append(t("creport.none", lang))
    for group in report.roofline:
        name = md_text(group.device or group.kind)
        heading = t("creport.device", lang, name=name, fp=md_text(group.fingerprint))
        lines += [f"### {heading}", "",
                  f"| {t('creport.col_learner', lang)} | {t('creport.col_bw', lang)} | {t('creport.col_flops', lang)} "
                  f"| {t('creport.col_ridge', lang)} | {t('creport.col_source', lang)} |", "|---|---|---|---|---|"]
        for r in group.learners:
            gflops = f"{format_number(r.gflops, lang, '.4g')} GFLOP/s" if r.gflops else "—"
            ridge = (f"{format_number(r.ridge_flops_per_byte, lang, '.3g')} FLOP/B" if r.ridge_flops_per_byte
                     else "—")
            lines.append(f"| {md_text(r.learner)} | {format_number(r.bandwidth_gbs, lang, '.4g')} GB/s | "
                         f"{gflops} | {ridge} | {md_text(r.source)} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
