"""Tests that kill `make mutants` survivors in C0 (issue 29 item 8; README, development section): each condition's
evidence word for word in both languages, which run it rests on (refs) and when (at). The rest of the suite checks
whether a condition holds; these check what the learner reads about it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_c0 import attempt, bench, doctor, everything, locked_then_checked, notebook
from tutor.i18n.message import Message
from tutor.progress.c0 import (
    Aside,
    Condition,
    FigureLabel,
    bench_condition,
    evaluate_c0,
    gap_condition,
    level_condition,
    stack_condition,
    when,
)
from tutor.progress.rows import BenchRun, DoctorRun

NOW = 2001.0 + 3 * 3600  # three hours after the lock was written
LOCK_REFS = {"lock_run": 1, "lock_id": "L1", "lock_written_at": 2001.0,
             "pins": {"numpy": "2.3.1", "torch": "2.13.0+cpu"},
             "requirements": "/d/environment.lock.requirements.txt", "dockerfile": "/d/environment.lock.Dockerfile"}
HEAD_EN = (f"lock #1 written 3 h ago ({when(2001.0)}), pins torch 2.13.0+cpu (https://download.pytorch.org/whl/cpu), "
           "numpy 2.3.1, rebuilds from /d/environment.lock.requirements.txt or /d/environment.lock.Dockerfile; ")
HEAD_ES = (f"lock #1 escrito hace 3 h ({when(2001.0)}), fija torch 2.13.0+cpu (https://download.pytorch.org/whl/cpu), "
           "numpy 2.3.1, se reconstruye con /d/environment.lock.requirements.txt o /d/environment.lock.Dockerfile; ")


def said(cond: Condition) -> tuple[str, str]:
    return cond.evidence.render("en"), cond.evidence.render("es")


def _check(i: int, differences: int) -> DoctorRun:
    """A later doctor run that found the environment differing from lock L1 in ``differences`` keys."""
    lock = {"written": False, "matches": False, "lock_id": "L1", "rebuild": {},
            "differences": [{"key": f"k{n}"} for n in range(differences)]}
    return DoctorRun.from_json({"id": i, "passed": 1, "lock_matches": 0, "report": {"lock": lock,
                                "process": {"pid": 2}}, "created_at": 2000.0 + i})


def test_the_stack_evidence_names_the_lock_its_age_what_rebuilds_it_and_the_check() -> None:
    cond = stack_condition(locked_then_checked(), now=NOW)
    assert (cond.key, cond.passed, cond.at) == ("stack", True, 2002.0)
    assert cond.refs == {**LOCK_REFS, "check_run": 2}
    assert said(cond) == (
        HEAD_EN + f"doctor #2 ({when(2002.0)}, a later process) checked the environment: it matches",
        HEAD_ES + f"doctor #2 ({when(2002.0)}, otro proceso posterior) comprobó el entorno: coincide")
    assert cond.title.render("en") == ("The stack is reproducible (a lock with what rebuilds it, checked by a later "
                                       "tutor doctor)")
    assert cond.title.render("es") == ("El stack es reproducible (un lock con lo que lo reconstruye, comprobado por "
                                       "un tutor doctor posterior)")


def test_a_stack_that_differs_says_how_many_differences_or_none() -> None:
    cond = stack_condition([*locked_then_checked(), _check(3, 2)], now=NOW)
    assert (cond.passed, cond.at, cond.refs) == (False, 2003.0, {**LOCK_REFS, "check_run": 3})
    assert said(cond) == (
        HEAD_EN + f"doctor #3 ({when(2003.0)}): the environment no longer matches the lock (2 differences)",
        HEAD_ES + f"doctor #3 ({when(2003.0)}): el entorno ya no coincide con el lock (2 diferencias)")
    one = stack_condition([*locked_then_checked(), _check(3, 1)], now=NOW)
    assert said(one)[0].endswith("no longer matches the lock (1 difference)")
    assert said(one)[1].endswith("ya no coincide con el lock (1 diferencia)")
    # the lock matched when doctor ran, but a fresh comparison now differs: no count to give
    fresh = stack_condition(locked_then_checked(), env_matches=False, now=NOW)
    assert not fresh.passed and said(fresh) == (
        HEAD_EN + f"doctor #2 ({when(2002.0)}): the environment no longer matches the lock",
        HEAD_ES + f"doctor #2 ({when(2002.0)}): el entorno ya no coincide con el lock")
    assert stack_condition(locked_then_checked(), env_matches=True, now=NOW).passed  # never withdraws by itself


def test_a_stack_check_that_found_problems_or_none_yet_or_no_lock_says_so() -> None:
    problems = stack_condition([*locked_then_checked(), doctor(3, passed=False)], now=NOW)
    assert (problems.passed, problems.at, problems.refs["check_run"]) == (False, 2003.0, 3)
    assert said(problems) == (HEAD_EN + f"doctor #3 ({when(2003.0)}) matched the lock but found problems",
                              HEAD_ES + f"doctor #3 ({when(2003.0)}) coincide con el lock pero encontró problemas")
    unchecked = stack_condition([doctor(1, written=True, pid=1)], now=NOW)
    assert (unchecked.passed, unchecked.at, unchecked.refs) == (False, 2001.0, LOCK_REFS)
    assert said(unchecked) == (
        HEAD_EN + "no later `tutor doctor` has checked the environment against it yet",
        HEAD_ES + "ningún `tutor doctor` posterior lo ha comprobado todavía")
    none = stack_condition([], now=NOW)
    assert (none.passed, none.at, none.refs) == (False, None, {})
    assert said(none) == ("no lock written yet — run `tutor doctor --lock`",
                          "aún no hay lock — ejecuta `tutor doctor --lock`")
    bare = stack_condition([doctor(1, written=True, pid=1, rebuild={}), doctor(2)], now=NOW)
    assert (bare.passed, bare.at) == (False, 2001.0)
    assert bare.refs == {"lock_run": 1, "lock_id": "L1", "lock_written_at": 2001.0}
    assert said(bare) == (
        f"the lock of doctor run #1 ({when(2001.0)}) records nothing that rebuilds it — run `tutor doctor --lock` "
        "again",
        f"el lock de doctor #1 ({when(2001.0)}) no guarda nada con que reconstruirlo — vuelve a ejecutar "
        "`tutor doctor --lock`")


def test_a_check_by_a_run_that_names_no_process_counts_and_the_latest_lock_is_the_one_checked() -> None:
    no_pid = DoctorRun.from_json({"id": 2, "passed": 1, "lock_matches": 1, "report": {"lock": {
        "written": False, "matches": True, "lock_id": "L1", "rebuild": {}, "differences": []}},
        "created_at": 2002.0})
    assert no_pid.pid is None and stack_condition([doctor(1, written=True, pid=1), no_pid], now=NOW).passed
    # a check made before the lock was written is no check of it
    assert not stack_condition([doctor(1), doctor(2, written=True, pid=1)], now=NOW).passed
    # two locks: the later one is what a check must match
    runs = [doctor(1, written=True, pid=1), doctor(2), doctor(3, written=True, pid=3, lock_id="L2")]
    later = stack_condition(runs, now=NOW)
    assert not later.passed and later.refs["lock_run"] == 3 and later.refs["lock_id"] == "L2"


BENCH_TITLE_EN = ("Two tutor bench runs on this device agree (the second reproducible pass; each figure within "
                  "max(5 %, 2·√(CV₁² + CV₂²)), at most 15 %; CV: the spread across that run's own rounds)")


def test_the_bench_evidence_names_the_pair_the_figure_and_the_allowance() -> None:
    cond = bench_condition([bench(1), bench(2, scale=1.03)])
    assert (cond.key, cond.passed, cond.at) == ("bench", True, 1002.0)
    assert cond.title.render("en") == BENCH_TITLE_EN
    assert cond.title.render("es").startswith("Dos ejecuciones de tutor bench en este dispositivo coinciden")
    assert cond.refs == {"fingerprint": "fp1", "device_kind": "cpu", "bench_runs": [1, 2],
                         "worst_key": "peak_bandwidth_gbs", "worst_difference": cond.refs["worst_difference"],
                         "allowed": 0.05, "latest_pair": [1, 2], "latest_agree": True}
    assert abs(cond.refs["worst_difference"] - 0.03) < 1e-9
    t1, t2 = when(1001.0), when(1002.0)
    assert said(cond) == (
        f"bench runs #1 ({t1}) and #2 ({t2}) agree: the figure furthest from its allowance is peak bandwidth, "
        "3.0 % apart (allowed ±5.0 %)",
        f"bench #1 ({t1}) y #2 ({t2}) coinciden: la cifra más lejos de su margen es ancho de banda pico, a 3,0 % "
        "(margen ±5,0 %)")


def test_a_bench_that_still_holds_names_both_pairs() -> None:
    cond = bench_condition([bench(1), bench(2, scale=1.02), bench(3, scale=1.4)])
    assert (cond.passed, cond.at) == (True, 1002.0)
    assert (cond.refs["bench_runs"], cond.refs["latest_pair"], cond.refs["latest_agree"]) == ([1, 2], [2, 3], False)
    t1, t2, t3 = when(1001.0), when(1002.0), when(1003.0)
    assert said(cond) == (
        f"bench runs #1 ({t1}) and #2 ({t2}) agree: the figure furthest from its allowance is peak bandwidth, "
        "2.0 % apart (allowed ±5.0 %); this still holds — the later pair is noisier: "
        f"bench runs #2 ({t2}) and #3 ({t3}) disagree: the figure furthest from its allowance is peak bandwidth, "
        "37.3 % apart (allowed ±5.0 %)",
        f"bench #1 ({t1}) y #2 ({t2}) coinciden: la cifra más lejos de su margen es ancho de banda pico, a 2,0 % "
        "(margen ±5,0 %); sigue valiendo — el par posterior es más ruidoso: "
        f"bench #2 ({t2}) y #3 ({t3}) no coinciden: la cifra más lejos de su margen es ancho de banda pico, a 37,3 % "
        "(margen ±5,0 %)")
    # the latest agreeing pair is the one that holds
    later = bench_condition([bench(1), bench(2, scale=1.02), bench(3, scale=1.03)])
    assert later.refs["bench_runs"] == [2, 3] and later.at == 1003.0


def test_a_disturbed_pair_names_its_run_and_counts_for_nothing() -> None:
    cond = bench_condition([bench(1), bench(2, other_cores=1.8)])
    assert (cond.passed, cond.at, cond.refs["latest_agree"]) == (False, 1002.0, False)
    en, es = said(cond)
    assert en.endswith("Not counted: other programs took part of the machine during run #2, so its figures may be "
                       "low; run tutor bench again on a quiet machine")
    assert es.endswith("No cuenta: otros programas ocuparon parte de la máquina durante la ejecución #2, así que sus "
                       "cifras pueden salir bajas; repite tutor bench con la máquina tranquila")
    both = bench_condition([bench(1, other_cores=1.5), bench(2, other_cores=1.8)])
    assert "the machine during run #1, 2, so" in said(both)[0]  # both runs named
    quiet = bench_condition([bench(1, other_cores=0.05), bench(2, other_cores=0.1)])
    assert quiet.passed and "Not counted" not in said(quiet)[0]


def test_a_bench_with_no_pair_or_nothing_to_compare_says_so() -> None:
    none = bench_condition([])
    assert (none.passed, none.at, none.refs) == (False, None, {})
    assert said(none) == ("no tutor bench run yet", "aún no hay tutor bench")
    one = bench_condition([bench(1)])
    assert (one.passed, one.at, one.refs) == (False, 1001.0, {"fingerprint": "fp1", "device_kind": "cpu"})
    assert said(one) == (f"one bench run (#1, {when(1001.0)}) on this fingerprint; run `tutor bench` once more",
                         f"una sola ejecución de bench (#1, {when(1001.0)}) en este dispositivo; ejecuta `tutor bench` "
                         "otra vez")
    empty = [BenchRun.from_json({"id": i, "fingerprint": "fp1", "device_kind": "cpu", "report": None,
                                 "created_at": 1000.0 + i}) for i in (1, 2)]
    cond = bench_condition(empty)
    assert not cond.passed and said(cond) == ("bench runs #1 and #2 have no headline figures to compare",
                                              "bench #1 y #2 no tienen cifras que comparar")
    assert cond.refs["worst_key"] is None and cond.refs["worst_difference"] == float("inf")
    assert cond.refs["allowed"] == 0.05


GAP3 = ["g1", "g2", "g3"]


def test_the_gap_evidence_gives_each_part_and_the_notebook_entry() -> None:
    attempts = [attempt(1, "g1", 1.0), attempt(2, "g1", 1.0, pass_number=2), attempt(3, "g2", 0.0),
                attempt(4, "g2", 1.0, pass_number=2), attempt(5, "g3", 1.0), attempt(6, "g3", 0.5, pass_number=2)]
    cond = gap_condition(attempts, GAP3, [notebook(7)])
    assert (cond.key, cond.passed, cond.at) == ("gap", True, 4007.5)  # the entry is the latest evidence
    assert cond.refs == {"exercises": GAP3, "notebook_entry": 7}
    assert said(cond) == (
        "g1 ✓✓: reproduced (pass 1 #1 1.00, pass 2 #2 1.00); g2 ✗✓: pass 2 #4 1.00 passed but does not reproduce "
        "pass 1 (not passed before it); g3 ✓~: pass 2 #6 0.50 not passed; notebook entry #7 explains the gap in "
        "your words (38 words)",
        "g1 ✓✓: reproducido (pasada 1 #1 1,00, pasada 2 #2 1,00); g2 ✗✓: pasada 2 #4 1,00 aprobada pero no "
        "reproduce la pasada 1 (no aprobada antes); g3 ✓~: pasada 2 #6 0,50 no aprobada; la ficha #7 explica la "
        "distancia con tus palabras (38 palabras)")
    assert cond.title.render("en").startswith("You explained the gap to the theoretical limit")
    # without the entry, the latest attempt is when: pass 2's attempt, or pass 1's where there is no pass 2
    alone = gap_condition(attempts[:3], GAP3[:2], [])
    assert not alone.passed and alone.at == 3003.5 and alone.refs == {"exercises": GAP3[:2], "notebook_entry": None}
    assert said(alone)[0].endswith("no L4 Lab Notebook entry explains the gap yet (its \"gap\" part, at least 25 "
                                   "words of your own, written in the Lab Notebook screen, N in the TUI, or with "
                                   "'tutor notebook write ID --gap TEXT')")
    assert said(alone)[1].endswith("(su parte «diferencia», al menos 25 palabras tuyas, escritas en la pantalla del "
                                   "Lab Notebook, N en la TUI, o con 'tutor notebook write ID --gap TEXTO')")
    assert gap_condition(attempts[:1], ["g1"], []).at == 3001.5
    empty = gap_condition([], [], [notebook()])
    assert not empty.passed  # no parts: nothing decomposed


def test_an_entry_without_a_lesson_counts_by_its_labs_name_and_the_latest_long_one_counts() -> None:
    from tutor.progress.rows import StoredEntry

    def entry(i: int, lab: str, lesson: str | None, gap: str) -> StoredEntry:
        body: dict[str, Any] = {"lab_id": lab, "gap": gap}
        if lesson is not None:
            body["lesson_id"] = lesson
        return StoredEntry.from_row({"id": i, "lab_id": lab, "entry": body, "created_at": 4000.0 + i,
                                     "updated_at": 4000.5 + i})

    words = " ".join(["w"] * 25)
    parts = [attempt(1, "g1", 1.0)]
    assert gap_condition(parts, ["g1"], [entry(1, "n0-l4-lab-bench", None, words)]).refs["notebook_entry"] == 1
    assert gap_condition(parts, ["g1"], [entry(1, "f1-lab-bench", None, words)]).refs["notebook_entry"] is None
    assert gap_condition(parts, ["g1"], [entry(1, "n0-l4x", None, words)]).refs["notebook_entry"] is None
    latest = gap_condition(parts, ["g1"], [entry(1, "n0-l4-lab-bench", "n0-l4", words),
                                           entry(2, "n0-l4-lab-bench", "n0-l4", "short"),
                                           entry(3, "n0-l4-lab-bench", "n0-l4", words + " more")])
    assert latest.refs["notebook_entry"] == 3 and "(26 words)" in said(latest)[0]


def test_the_level_evidence_counts_lists_six_and_says_how_many_more() -> None:
    ids = [f"x{i}" for i in range(8)]
    cond = level_condition([], ids)
    assert (cond.key, cond.passed, cond.at) == ("n0", False, None)
    todo = "; ".join(f"x{i} ○○: not attempted" for i in range(6))
    todo_es = "; ".join(f"x{i} ○○: sin intentar" for i in range(6))
    assert said(cond) == (f"0 of 8 reproduced in pass 2; still to do: {todo}; and 2 more",
                          f"0 de 8 reproducidos en la pasada 2; faltan: {todo_es}; y 2 más")
    assert cond.refs["exercises"]["x7"] == {"marks": "○○", "pass1_attempt": None, "pass2_attempt": None,
                                            "reproduced": False}
    six = level_condition([], ids[:6])
    assert said(six) == (f"0 of 6 reproduced in pass 2; still to do: {todo}",
                         f"0 de 6 reproducidos en la pasada 2; faltan: {todo_es}")
    seven = level_condition([], ids[:7])
    assert said(seven)[0].endswith("x5 ○○: not attempted; and 1 more")
    none = level_condition([], [])
    assert (none.passed, none.refs) == (False, {})
    assert said(none) == ("this course has no Nivel 0 exercises", "este curso no tiene ejercicios del Nivel 0")
    assert none.title.render("en") == ("Every Nivel 0 exercise passed in the second pass (no hints, no theory), "
                                       "reproducing the first")
    assert none.title.render("es") == ("Todos los ejercicios del Nivel 0 aprobados en la segunda pasada (sin pistas "
                                       "ni teoría), reproduciendo la primera")


def test_the_level_is_dated_by_its_latest_pass_2() -> None:
    attempts = [attempt(1, "a", 1.0), attempt(5, "a", 1.0, pass_number=2), attempt(2, "b", 1.0),
                attempt(3, "b", 1.0, pass_number=2)]
    cond = level_condition(attempts, ["a", "b"])
    assert cond.passed and cond.at == 3005.5
    assert said(cond) == ("2 of 2 reproduced in pass 2", "2 de 2 reproducidos en la pasada 2")
    assert cond.refs["exercises"]["a"] == {"marks": "✓✓", "pass1_attempt": 1, "pass2_attempt": 5,
                                           "reproduced": True}


def test_the_checkpoint_json_renders_each_condition_in_both_languages_beside_its_codes() -> None:
    c0 = evaluate_c0(**everything())
    out = c0.to_json()
    assert (out["name"], out["passed"], out["cpu_only"]) == ("C0 (CPU)", True, True)
    level = out["conditions"][3]
    assert set(level) == {"key", "title", "passed", "evidence", "title_said", "evidence_said", "at", "at_text", "refs"}
    assert level["evidence"] == {"es": "5 de 5 reproducidos en la pasada 2", "en": "5 of 5 reproduced in pass 2"}
    assert level["evidence_said"] == {"code": "c0.level.count", "params": {"done": "5", "total": "5"}}
    assert level["title_said"] == {"code": "c0.level.title", "params": {}}
    assert level["title"]["en"].startswith("Every Nivel 0 exercise") and level["title"]["es"].startswith("Todos")
    assert (level["key"], level["passed"], level["at"], level["at_text"]) == ("n0", True, 3105.5, when(3105.5))
    assert level["refs"] == c0.conditions[3].refs
    assert [c["key"] for c in out["conditions"]] == ["stack", "bench", "gap", "n0"]
    assert when(None) == "—"


def test_c0_is_on_a_gpu_only_when_the_last_benches_or_a_counted_attempt_ran_on_one() -> None:
    ev = everything()
    ev["attempts"] = [*ev["attempts"], attempt(50, "not-counted", 1.0, kind="cuda")]
    assert evaluate_c0(**ev).name == "C0 (CPU)"  # an exercise C0 does not count says nothing of the device
    ev = everything()
    ev["attempts"] = [*ev["attempts"], attempt(50, "n0-l1-a", 1.0, kind="cuda")]
    c0 = evaluate_c0(**ev)
    assert (c0.name, c0.cpu_only) == ("C0", False)
    ev = everything()
    ev["bench_runs"] = [bench(1, kind="cuda"), bench(2), bench(3, scale=1.01)]
    assert evaluate_c0(**ev).name == "C0 (CPU)"  # only the last two bench runs say which device
    ev["bench_runs"] = [bench(1), bench(2, kind="cuda"), bench(3, scale=1.01)]
    assert evaluate_c0(**ev).name == "C0"
    ev = everything()
    ev["notebook"] = []
    c0 = evaluate_c0(**ev)
    assert not c0.passed and [c.passed for c in c0.conditions] == [True, True, False, True]


def test_an_aside_and_a_figure_label_read_in_the_readers_language() -> None:
    two = Message.of("count.difference.other", n=2)
    assert Aside.of_message(two).render("es") == " (2 diferencias)"
    assert Aside.of_message(two).render("en") == " (2 differences)"
    assert FigureLabel.of_key("peak_flops_tflops.float32").render("es") == "pico de matmul float32"
    assert FigureLabel.of_key("peak_flops_tflops.float32").render("en") == "matmul peak float32"


# -- passes: the exercise's and the lesson's status as `tutor progress --json` and the lesson list read them -------


def test_an_exercise_status_json_names_each_pass_its_attempt_score_and_verdict() -> None:
    from tutor.progress.passes import exercise_status

    attempts = [attempt(1, "a", 0.4), attempt(2, "a", 1.0), attempt(3, "a", 0.75, pass_number=2),
                attempt(4, "b", 0.0)]
    assert exercise_status("a", attempts).to_json() == {
        "exercise": "a", "attempts": 3, "best_score": 1.0, "passed": True, "marks": "✓✓",
        "pass1": {"score": 1.0, "attempt": 2, "passed": True, "verdict": "correct"},
        "pass2": {"open": True, "score": 0.75, "attempt": 3, "passed": True, "verdict": "wrong"},
        "pass1_verdict": "correct", "pass2_verdict": "wrong", "reproduced": True, "counts_for_c0": True}
    assert exercise_status("b", attempts).to_json() == {
        "exercise": "b", "attempts": 1, "best_score": 0.0, "passed": False, "marks": "✗○",
        "pass1": {"score": 0.0, "attempt": 4, "passed": False, "verdict": "wrong"},
        "pass2": {"open": True, "score": None, "attempt": None, "passed": False, "verdict": None},
        "pass1_verdict": "wrong", "pass2_verdict": None, "reproduced": False, "counts_for_c0": False}
    untried = exercise_status("c", attempts).to_json()
    assert (untried["marks"], untried["pass2"]["open"], untried["best_score"]) == ("○○", False, None)


def test_a_pass_2_counts_from_the_pass_mark_and_only_after_pass_1() -> None:
    from tutor.progress.passes import PASS_SCORE, exercise_status

    at_mark = exercise_status("a", [attempt(1, "a", PASS_SCORE), attempt(2, "a", PASS_SCORE, pass_number=2)])
    assert at_mark.pass1_passed and at_mark.pass2_passed and at_mark.reproduced and at_mark.marks == "✓✓"
    under = exercise_status("a", [attempt(1, "a", PASS_SCORE - 0.01), attempt(2, "a", 1.0, pass_number=2)])
    assert not under.pass1_passed and not under.reproduced and under.marks == "~✓"
    # pass 3 is a pass 2 too (a later rebuild); one with a hint is practice
    third = exercise_status("a", [attempt(1, "a", 1.0), attempt(2, "a", 1.0, pass_number=3)])
    assert third.pass2_attempt == 2 and third.reproduced
    hinted = exercise_status("a", [attempt(1, "a", 1.0), attempt(2, "a", 1.0, pass_number=2, hints=1)])
    assert hinted.pass2_attempt is None and hinted.pass2_score is None and hinted.attempts == 2
    # a pass 1 graded later than the pass 2 it would reproduce (an import's clock) does not count before it
    import dataclasses

    late = dataclasses.replace(attempt(1, "a", 1.0), graded_at=9999.0)
    assert not exercise_status("a", [late, attempt(2, "a", 1.0, pass_number=2)]).reproduced
    same = dataclasses.replace(attempt(1, "a", 1.0), graded_at=attempt(2, "a", 1.0).at)
    assert exercise_status("a", [same, attempt(2, "a", 1.0, pass_number=2)]).reproduced  # at the same time: before


def test_a_closed_pass_2_says_why_and_names_the_exercise() -> None:
    from tutor.progress.passes import PassClosed

    closed = PassClosed("n0-l1-a")
    assert str(closed) == "n0-l1-a: pass 2 opens once pass 1 was attempted — run pass 1 first"
    assert closed.exercise_id == "n0-l1-a"
    from tutor.progress.passes import require_pass2_open

    with pytest.raises(PassClosed) as raised:
        require_pass2_open("n0-l1-b", [])
    assert raised.value.exercise_id == "n0-l1-b" and str(raised.value).startswith("n0-l1-b: pass 2 opens")


def test_each_lesson_status_counts_its_passes_and_what_was_read() -> None:
    from types import SimpleNamespace

    from tutor.progress.passes import lesson_statuses

    def lesson(lid: str, *sections: str) -> SimpleNamespace:
        return SimpleNamespace(id=lid, sections=[SimpleNamespace(id=s) for s in sections])

    lessons = [lesson("l1", "s1", "s2", "s3"), lesson("l2", "s1"), lesson("l3")]
    exercises = {"l1": ["a", "b"], "l2": ["c"], "l3": []}
    course = SimpleNamespace(ordered_lessons=lambda: lessons,
                             exercises_of=lambda ls: [SimpleNamespace(id=e) for e in exercises[ls.id]])
    attempts = [attempt(1, "a", 1.0), attempt(2, "a", 1.0, pass_number=2), attempt(3, "b", 1.0),
                attempt(4, "c", 0.2)]
    l1, l2, l3 = lesson_statuses(course, attempts, {("l1", "s1"), ("l1", "s3"), ("l2", "s9"), ("l9", "s1")})
    assert (l1.lesson_id, l1.passed, l1.second_pass_counts, l1.sections_read, l1.sections_total) == (
        "l1", True, False, 2, 3)
    assert l1.to_json() == {"lesson": "l1", "passed": True, "second_pass": False, "pass1_passed": 2,
                            "pass2_passed": 1, "reproduced": 1, "sections_read": 2, "sections_total": 3,
                            "exercises": [e.to_json() for e in l1.exercises]}
    assert [e.exercise_id for e in l1.exercises] == ["a", "b"]
    assert (l2.passed, l2.sections_read, l2.sections_total, l2.to_json()["pass1_passed"]) == (False, 0, 1, 0)
    assert (l3.passed, l3.second_pass_counts) == (False, False)  # a lesson with no exercise is not passed
    both = lesson_statuses(course, [*attempts, attempt(5, "b", 1.0, pass_number=2)], set())[0]
    assert both.second_pass_counts and both.to_json()["reproduced"] == 2


# -- what the first full C0 run left alive: each early answer's key and title, the codes in the JSON, the worst figure


def test_every_early_answer_keeps_its_key_and_title() -> None:
    stack_title = stack_condition([], now=NOW).title
    for runs in ([], [doctor(1, written=True, pid=1, rebuild={})], [doctor(1, written=True, pid=1)]):
        cond = stack_condition(runs, now=NOW)
        assert (cond.key, cond.title, cond.passed) == ("stack", stack_title, False)
        assert cond.title.render("en").startswith("The stack is reproducible")
    for runs in ([], [bench(1)]):
        cond = bench_condition(runs)
        assert (cond.key, cond.passed) == ("bench", False) and cond.title.render("en") == BENCH_TITLE_EN
    none = level_condition([], [])
    assert (none.key, none.title.render("en")) == ("n0", level_condition([], ["x"]).title.render("en"))


def test_the_codes_behind_the_evidence_are_the_catalogs() -> None:
    from tutor.measure.bench_report import SpeedShift, shift_words
    from tutor.progress.c0 import ShiftWords

    two = Message.of("count.difference.other", n=2)
    assert Aside.of_message(two).as_dict()["code"] == "c0.said.aside"
    assert FigureLabel.of_key("mfu").as_dict() == {"code": "c0.said.figure_label", "params": {"key": "mfu"}}
    cores = SpeedShift((1.12, 1.18), (0.99, 1.01), False)
    said = ShiftWords.of_shift(cores)
    assert said.code == "c0.said.shift"
    assert [said.render(lang) for lang in ("en", "es")] == [shift_words(cores, lang) for lang in ("en", "es")]
    assert "the memory figures ×0.99 to ×1.01" in said.render("en")
    busy = SpeedShift((0.5, 0.6), None, True)  # no memory range recorded
    assert ShiftWords.of_shift(busy).render("en") == shift_words(busy, "en")


def _headline_run(i: int, bandwidth: float, decode: float, decode_cv: float | None = None) -> BenchRun:
    head = {"peak_bandwidth_gbs": bandwidth, "decode_tokens_per_s": decode}
    report: dict[str, Any] = {"headline": head, "device": {"kind": "cpu", "name": "cpu", "fingerprint": "fp1"}}
    if decode_cv is not None:
        report["cv"] = {"decode_tokens_per_s": decode_cv}
    return BenchRun.from_json({"id": i, "fingerprint": "fp1", "device_kind": "cpu", "report": report,
                               "created_at": 1000.0 + i})


def test_the_worst_figure_is_the_one_furthest_from_its_own_allowance() -> None:
    # bandwidth 4 % apart of its ±5 % (0.8 of it); decode 10 % apart of its ±15 % (0.67): bandwidth is the worst
    pair = [_headline_run(1, 30.0, 40.0, 0.06), _headline_run(2, 28.8, 44.0, 0.06)]
    cond = bench_condition(pair)
    assert cond.passed and cond.refs["worst_key"] == "peak_bandwidth_gbs"
    assert cond.refs["allowed"] == 0.05 and cond.refs["worst_difference"] == pytest.approx(0.04)
    # decode 12 % apart of ±15 % (0.8) beats bandwidth 3 % of ±5 % (0.6): furthest from 1 either way counts
    low = bench_condition([_headline_run(1, 30.0, 40.0, 0.06), _headline_run(2, 29.1, 44.8, 0.06)])
    assert low.refs["worst_key"] == "decode_tokens_per_s" and low.refs["allowed"] == pytest.approx(0.15)


def test_c0_passes_its_tolerance_and_fresh_comparison_down_to_the_conditions() -> None:
    ev = everything()
    ev["bench_runs"] = [bench(1), bench(2, scale=1.08)]  # 8 % apart: out of the default ±5 %
    assert not evaluate_c0(**ev).conditions[1].passed
    assert evaluate_c0(**ev, tolerance=0.1).conditions[1].passed
    assert bench_condition(ev["bench_runs"], tolerance=0.1).passed
    assert evaluate_c0(**everything()).conditions[0].passed
    assert not evaluate_c0(**everything(), env_matches=False).conditions[0].passed  # the lock matched; now not


def test_the_shift_sentence_follows_the_pair_it_explains() -> None:
    from tests.test_c0 import _peaks

    before = {"float32": 0.342, "float64": 0.173, "bfloat16": 2.115}
    after = {"float32": 0.383, "float64": 0.195, "bfloat16": 2.504}
    cond = bench_condition([_peaks(1, before), _peaks(2, after, bandwidth=30.1)])
    en = said(cond)[0]
    assert en.startswith(f"bench runs #1 ({when(1001.0)}) and #2 ({when(1002.0)}) disagree: the figure furthest")
    assert "Every matmul peak moved the same way" in en


def test_a_notebook_entry_of_another_lesson_first_does_not_hide_the_l4_one() -> None:
    cond = gap_condition([attempt(1, "g1", 1.0)], ["g1"], [notebook(1, lesson="f1-lab01"), notebook(2)])
    assert cond.refs["notebook_entry"] == 2 and cond.passed
    assert gap_condition([], ["g1"], []).at is None  # nothing attempted, nothing written: no time


def test_c0_from_a_store_reads_every_row_and_counts_the_bundled_level() -> None:
    from types import SimpleNamespace

    from tutor.progress.c0 import evaluate_store, level_exercise_ids

    ids = level_exercise_ids()
    assert ids[0] == "n0-l1-triad-bound" and {"n0-l4-gap-fixed", "n0-l4-gap-bandwidth", "n0-l4-gap-extra"} <= set(ids)
    assert level_exercise_ids(object()) == ids  # the open course is not read
    assert all(i.startswith("n0-") for i in ids) and len(ids) == len(set(ids))
    ev = everything()
    store = SimpleNamespace(attempts=lambda: ev["attempts"], bench_runs=lambda: ev["bench_runs"],
                            doctor_runs=lambda: ev["doctor_runs"], notebook_entries=lambda: ev["notebook"])
    c0 = evaluate_store(None, store)
    assert c0.name == "C0 (CPU)" and [c.passed for c in c0.conditions] == [True, True, True, False]
    level = c0.conditions[3]
    assert said(level)[0].startswith(f"3 of {len(ids)} reproduced in pass 2; still to do: ")  # the gap's three
    assert c0.conditions[1].refs["bench_runs"] == [1, 2] and c0.conditions[2].refs["notebook_entry"] == 1
    assert not evaluate_store(None, store, env_matches=False).conditions[0].passed
