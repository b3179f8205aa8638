"""Explanations that follow the measurement: variants chosen by the measured side, sides in the reader's language,
and a checker that refuses fixed text deciding the learner's side in advance."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.content.honesty import side_assertions
from tutor.content.loader import check_paths, load_course
from tutor.grading.explain import condition_holds
from tutor.grading.verdict import ResolvedTruth, Verdict
from tutor.paths import bundled_course
from tutor.practice.runner import explanation_for


def _verdict(side: str, too_close: bool = False) -> Verdict:
    truth = ResolvedTruth(source="measured", choice=side, too_close=too_close)
    return Verdict(verdict="correct", score=1.0, feedback=(), truth=truth)


def _values(side: str) -> dict[str, object]:
    other = "compute" if side == "memory" else "memory"
    return {
        "classification.bound": side,
        "classification.by_intensity": other,
        "classification.by_achieved": side,
        "classification.ridge_flops_per_byte": 4.0,
        "classification.fraction_of_compute_roof": 0.5,
        "classification.fraction_of_bandwidth_roof": 0.5,
        "arithmetic_intensity": 10.0,
        "achieved_gflops": 100.0,
        "achieved_gbs": 10.0,
    }


def test_condition_compares_measured_figures_only() -> None:
    base = {"bound": None, "side": None, "too_close": False}
    assert condition_holds(metric="x", above=1.0, below=None, values={"x": 2.0}, **base)
    assert not condition_holds(metric="x", above=1.0, below=None, values={"x": 0.5}, **base)
    assert not condition_holds(metric="x", above=1.0, below=None, values={}, **base)
    assert not condition_holds(metric="x", above=1.0, below=None, values={"x": float("nan")}, **base)
    assert not condition_holds(metric="x", above=None, below=3.0, values={"x": "2"}, **base)
    assert condition_holds(bound="too_close", metric=None, above=None, below=None, values={}, side="memory",
                           too_close=True)
    assert not condition_holds(bound="too_close", metric=None, above=None, below=None, values={}, side="memory",
                               too_close=False)


@pytest.mark.parametrize("side", ["memory", "compute"])
def test_every_bound_exercise_explains_the_side_it_measured(side: str) -> None:
    course = load_course(bundled_course())
    es_word = {"memory": "memoria", "compute": "cómputo"}[side]
    for ex in course.exercises.values():
        if ex.kind != "bound":
            continue
        text = explanation_for(ex, _values(side), _verdict(side))
        for lang in ("es", "en"):
            body = text[lang]
            # The machine-dependent paragraph for the other side is never shown.
            for variant in ex.explanation_when:
                chosen = variant.when.bound in (side, None)
                assert ((getattr(variant.text, lang) or "").strip() in body) == chosen, (ex.id, lang)
            # Spanish never shows the English side codes the measurement stores.
            if lang == "es":
                assert "`memory`" not in body and "`compute`" not in body, ex.id
                assert "«**memory**»" not in body and "«**compute**»" not in body, ex.id
        if "«**{side}**»" in (ex.explanation.es or ""):
            assert f"«**{es_word}**»" in text["es"], ex.id


def test_attention_side_tells_a_cache_rich_cpu_why_it_was_memory_bound() -> None:
    course = load_course(bundled_course())
    ex = course.exercises["f1-lab03-attention-side"]
    memory = explanation_for(ex, _values("memory"), _verdict("memory"))
    compute = explanation_for(ex, _values("compute"), _verdict("compute"))
    assert "lado «**memoria**»" in memory["es"] and "the **memory** side" in memory["en"]
    assert "cache" in memory["en"] and "caché" in memory["es"]
    assert "set the pace" in compute["en"] and "set the pace" not in memory["en"]


def test_side_assertions_finds_statements_not_questions() -> None:
    assert side_assertions("Naive attention is compute-bound on a CPU (a few FLOP/B).")
    assert side_assertions("En tu máquina queda\ndel lado del cómputo, siempre.")
    assert not side_assertions("On your machine, is it memory-bound or compute-bound?")
    assert not side_assertions("On your machine it is {classification.bound}: memory-bound here.")
    assert not side_assertions("On an RTX 5090 it is memory-bound.")


def test_lessons_check_rejects_a_fixed_side_for_a_measured_truth(tmp_path: Path) -> None:
    (tmp_path / "lessons").mkdir()
    (tmp_path / "exercises").mkdir()
    (tmp_path / "lessons" / "l.yaml").write_text(
        "format_version: 1\nid: l\nlevel: n0\norder: 1\ntitle: {es: t, en: t}\noutcome: {es: o, en: o}\n"
        "sections: []\nexercises: [e]\n",
        encoding="utf-8",
    )
    (tmp_path / "exercises" / "e.yaml").write_text(
        "format_version: 1\nid: e\nlesson: l\nkind: bound\ntitle: {es: t, en: t}\nprompt: {es: p, en: p}\n"
        "measure: {op: workload, name: triad, params: {n: 1048576}}\n"
        "explanation:\n  es: Es compute-bound en tu máquina.\n  en: It is compute-bound on your machine.\n",
        encoding="utf-8",
    )
    course = check_paths([tmp_path])
    found = [p for p in course.problems if "asserts the side" in p.message]
    assert [(p.path.name, p.line) for p in found] == [("e.yaml", 9), ("e.yaml", 10)]


def test_a_variant_condition_needs_a_measured_bound(tmp_path: Path) -> None:
    (tmp_path / "exercises").mkdir()
    (tmp_path / "exercises" / "e.yaml").write_text(
        "format_version: 1\nid: e\nlesson: l\nkind: diagnose\ntitle: {es: t, en: t}\nprompt: {es: p, en: p}\n"
        "choices: [{id: a, label: {es: a, en: a}}, {id: b, label: {es: b, en: b}}]\nanswer: a\n"
        "explanation: {es: x, en: x}\nexplanation_when:\n  - when: {bound: memory}\n    text: {es: y, en: y}\n",
        encoding="utf-8",
    )
    course = check_paths([tmp_path / "exercises" / "e.yaml"])
    assert any("explanation_when" in p.message or "bound exercise" in p.message for p in course.problems)


def test_strict_check_finds_an_answer_printed_in_the_lesson(tmp_path: Path) -> None:
    from tutor.content.loader import strict_problems
    from tutor.grading.truth import literal_truth

    (tmp_path / "lessons").mkdir()
    (tmp_path / "exercises").mkdir()
    (tmp_path / "lessons" / "l.yaml").write_text(
        "format_version: 1\nid: l\nlevel: n0\norder: 1\ntitle: {es: t, en: t}\noutcome: {es: o, en: o}\n"
        "sections:\n  - id: s\n    title: {es: s, en: s}\n"
        "    body: {es: 'Techo: 1792 / 16,06 ≈ 111,6 tokens/s.', en: 'Ceiling: 1792 / 16.06 ≈ 111.6 tokens/s.'}\n"
        "exercises: [e]\n",
        encoding="utf-8",
    )
    (tmp_path / "exercises" / "e.yaml").write_text(
        "format_version: 1\nid: e\nlesson: l\nkind: number\ntitle: {es: t, en: t}\nprompt: {es: p, en: p}\n"
        "truth:\n  source: formula\n  formula: decode_bound_tokens_per_s\n"
        "  inputs: {bandwidth_gbs: 1792, bytes_per_token: 16060522496}\nunit: tokens/s\n"
        "explanation: {es: x, en: x}\n",
        encoding="utf-8",
    )
    course = check_paths([tmp_path])
    warnings = strict_problems(course, literal_truth)
    assert [(w.path.name, w.line, w.severity) for w in warnings] == [("e.yaml", 8, "warning")]
    assert "111" in warnings[0].message
    # The bundled course gives no answer away.
    assert strict_problems(load_course(bundled_course()), literal_truth) == []
