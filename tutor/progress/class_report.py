"""The instructor's view of a class: what the class predicts well and badly, how calibrated it is, where each
learner stands on C0, and every learner's measured roofline grouped by device.

Built from the rows the instructor's connection reads (every learner's, through row-level security), grouped by
their ``learner`` column. Every figure is a count or a ratio of stored attempts, or a roof a learner measured.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from tutor.i18n import Lang, format_number, t
from tutor.progress.c0 import evaluate_c0, level_exercise_ids
from tutor.progress.calibration import calibration_of
from tutor.progress.rows import Attempt, BenchRun, DoctorRun, StoredEntry

__all__ = ["class_report", "md_text", "render_class_report"]


Row = TypeVar("Row", Attempt, DoctorRun, BenchRun, StoredEntry)
"""A typed stored row; each names the learner who wrote it (in a class store)."""


def _by_learner(rows: Iterable[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        out[_learner_of(row)].append(row)
    return dict(out)


def _most_common_wrong(wrong: Sequence[Attempt]) -> dict[str, Any] | None:
    choices = Counter(a.choice for a in wrong if a.choice is not None)
    if choices:
        answer, count = choices.most_common(1)[0]
        return {"kind": "choice", "answer": answer, "count": count}
    ratios = [a.ratio for a in wrong if a.ratio is not None and a.ratio > 0]
    if not ratios:
        return None
    high = [r for r in ratios if r > 1]
    low = [r for r in ratios if r < 1]
    side, group = ("high", high) if len(high) >= len(low) else ("low", low)
    if not group:
        return None
    return {"kind": "number", "direction": side, "count": len(group), "median_ratio": statistics.median(group)}


def _exercise_rows(course: Any, attempts: Sequence[Attempt]) -> list[dict[str, Any]]:
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
        title = {"es": exercise.title.get("es"), "en": exercise.title.get("en")} if exercise else {"es": ex_id,
                                                                                                 "en": ex_id}
        out.append({"exercise": ex_id, "title": title, "graded": len(graded), "correct": len(correct),
                    "share_correct": len(correct) / len(graded), "learners": len({a.learner for a in graded}),
                    "most_common_wrong": _most_common_wrong(wrong)})
    return out


def _roof_of_bench(run: BenchRun) -> dict[str, Any] | None:
    report = run.report
    bandwidth = report.value("peak_bandwidth_gbs") if report is not None else None
    if report is None or bandwidth is None:
        return None
    tflops = report.value("peak_flops_tflops.float32")
    return {"fingerprint": run.fingerprint, "device": report.device.name or run.device_kind,
            "kind": run.device_kind, "bandwidth_gbs": bandwidth,
            "gflops": tflops * 1000 if tflops is not None else None, "source": "bench", "at": run.created_at}


def _roof_of_attempt(attempt: Attempt) -> dict[str, Any] | None:
    m = attempt.measurement
    if m is None or m.roofline is None or m.device is None:
        return None
    roof, device = m.roofline, m.device
    return {"fingerprint": device.fingerprint or attempt.fingerprint, "device": device.name,
            "kind": device.kind, "bandwidth_gbs": roof.peak_bandwidth_gbs,
            "gflops": roof.peak_gflops.get("float32"), "source": "exercise", "at": attempt.at}


def _learner_of(row: Attempt | DoctorRun | BenchRun | StoredEntry) -> str:
    return row.learner or "?"


def _class_roofline(attempts: Sequence[Attempt],
                    bench_runs: Sequence[BenchRun]) -> list[dict[str, Any]]:
    """Per device fingerprint: each learner's latest measured roof (a bench run before an exercise's)."""
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    candidates = [(_learner_of(r), _roof_of_bench(r)) for r in bench_runs]
    candidates += [(_learner_of(a), _roof_of_attempt(a)) for a in attempts]
    for learner, roof in candidates:
        if roof is None or not roof.get("fingerprint"):
            continue
        key = (str(roof["fingerprint"]), learner)
        held = latest.get(key)
        rank = (roof["source"] == "bench", float(roof.get("at") or 0))
        if held is None or rank > (held["source"] == "bench", float(held.get("at") or 0)):
            latest[key] = {**roof, "learner": key[1]}
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for (fp, _learner), roof in sorted(latest.items()):
        gflops, bw = roof.get("gflops"), roof["bandwidth_gbs"]
        roof["ridge_flops_per_byte"] = gflops / bw if gflops and bw else None
        groups[fp].append(roof)
    return [{"fingerprint": fp, "device": rows[0].get("device"), "kind": rows[0].get("kind"), "learners": rows}
            for fp, rows in groups.items()]


def class_report(course: Any, store: Any) -> dict[str, Any]:
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
                            notebook=nb_by.get(name, [])).to_json()
          for name in learners}
    return {
        "learners": learners,
        "attempts": len(attempts),
        "exercises": _exercise_rows(course, attempts),
        "calibration": calibration_of(attempts).to_json(),
        "c0": c0,
        "roofline": _class_roofline(attempts, bench_runs),
    }


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


def _wrong_text(wrong: Mapping[str, Any] | None, lang: Lang) -> str:
    if not wrong:
        return "—"
    if wrong["kind"] == "choice":
        return t("creport.wrong_choice", lang, answer=md_text(wrong["answer"]), count=wrong["count"])
    return t(f"creport.wrong_{wrong['direction']}", lang, count=wrong["count"],
             ratio=format_number(float(wrong["median_ratio"]), lang, ".2g"))


def render_class_report(report: Mapping[str, Any], lang: Lang) -> str:
    """The report as Markdown (what ``tutor class report --markdown`` prints and the instructor's screen shows)."""
    names = ", ".join(md_text(n) for n in report["learners"]) or "—"
    lines = [f"# {t('creport.title', lang)}", "",
             t("creport.learners", lang, n=len(report["learners"]), names=names), "",
             f"## {t('creport.exercises', lang)}", ""]
    if report["exercises"]:
        lines += [f"| {t('creport.col_exercise', lang)} | {t('creport.col_graded', lang)} | "
                  f"{t('creport.col_correct', lang)} | {t('creport.col_wrong', lang)} |", "|---|---|---|---|"]
        for ex in report["exercises"]:
            lines.append(f"| {md_text(ex['title'][lang] or ex['exercise'])} | {ex['graded']} | "
                         f"{_pct(ex['share_correct'], lang)} ({ex['correct']}) | "
                         f"{_wrong_text(ex['most_common_wrong'], lang)} |")
    else:
        lines.append(t("creport.none", lang))
    cal = report["calibration"]
    lines += ["", f"## {t('creport.calibration', lang)}", ""]
    if cal["n"]:
        lines.append(t("creport.brier", lang, brier=format_number(float(cal["brier"]), lang, ".3f"), n=cal["n"]))
        lines.append("")
        for b in cal["buckets"]:
            rate = _pct(b["hit_rate"], lang) if b["hit_rate"] is not None else "—"
            text = t("creport.bucket", lang, low=b["low_pct"], high=b["high_pct"], right=b["right"],
                     total=b["total"], rate=rate)
            lines.append(f"- {text}")
    else:
        lines.append(t("creport.none", lang))
    lines += ["", f"## {t('creport.c0', lang)}", ""]
    if report["c0"]:
        first = next(iter(report["c0"].values()))
        titles = [md_text(c["title"].get(lang, c["key"])) for c in first["conditions"]]
        lines += [f"| {t('creport.col_learner', lang)} | C0 | " + " | ".join(titles) + " |",
                  "|" + "---|" * (len(titles) + 2)]
        for name, cp in report["c0"].items():
            marks = " | ".join("✓" if c["passed"] else "·" for c in cp["conditions"])
            lines.append(f"| {md_text(name)} | {'✓' if cp['passed'] else '·'} {md_text(cp['name'])} | {marks} |")
    else:
        lines.append(t("creport.none", lang))
    lines += ["", f"## {t('creport.roofline', lang)}", ""]
    if not report["roofline"]:
        lines.append(t("creport.none", lang))
    for group in report["roofline"]:
        name = md_text(group["device"] or group["kind"])
        heading = t("creport.device", lang, name=name, fp=md_text(group["fingerprint"]))
        lines += [f"### {heading}", "",
                  f"| {t('creport.col_learner', lang)} | {t('creport.col_bw', lang)} | {t('creport.col_flops', lang)} "
                  f"| {t('creport.col_ridge', lang)} | {t('creport.col_source', lang)} |", "|---|---|---|---|---|"]
        for r in group["learners"]:
            gflops = f"{format_number(r['gflops'], lang, '.4g')} GFLOP/s" if r.get("gflops") else "—"
            ridge = f"{format_number(r['ridge_flops_per_byte'], lang, '.3g')} FLOP/B" if r.get(
                "ridge_flops_per_byte") else "—"
            lines.append(f"| {md_text(r['learner'])} | {format_number(r['bandwidth_gbs'], lang, '.4g')} GB/s | "
                         f"{gflops} | {ridge} | {md_text(r['source'])} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
