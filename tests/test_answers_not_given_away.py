"""No exercise's answer printed before its question (issue 31 item 3).

A learner reaches an exercise after its lesson: the map and the lesson screen list a lesson's sections, then its
labs, then its exercises (in the order of the lesson's ``exercises:``), and a level's lessons in their ``order``
(its theories before its labs), so the theory of the earlier lessons of the level, everything the lesson's summary,
outcome, sections and labs say, and the exercise's own prompt are read before a prediction is locked. That text
teaches the method; the number, or the cause of the exact symptom, comes after the lock (the explanation). Hints are
left out: they are asked for, one at a time, and may walk to the answer.

* A numeric exercise whose truth is a formula of given inputs (``truth.source: formula``, nothing measured): its
  truth, from :func:`tutor.grading.resolve_truth`, is searched at 2 and 3 significant digits as the course prints
  numbers (es: decimal comma, a point or a thin/narrow/plain space between thousands; en: decimal point, commas),
  followed by its unit (for a GB answer also in MB, MiB and GiB), or after ``≈``/``=``/``~`` and closing the
  clause (``ridge ≈ 58)``).
* A ``diagnose`` exercise: the theory names every cause, so what is searched is this exercise's *scenario* and
  its *answer* in the same paragraph: :data:`SCENARIOS` has, per exercise and language, a pattern for the exact
  symptom of the prompt and one for the answer's cause. Every bundled diagnose exercise must have an entry.
"""

from __future__ import annotations

import math
import re
from functools import cache

import pytest

from tutor.content import load_course
from tutor.content.loader import Course
from tutor.content.models import Exercise, Lesson
from tutor.grading import resolve_truth
from tutor.paths import bundled_course

LANGS = ("es", "en")


@cache
def _course() -> Course:
    return load_course(bundled_course())


def _lesson_parts(lesson: Lesson, lang: str, prefix: str = "") -> list[tuple[str, str]]:
    """(where, text) of what a lesson's screen shows: its summary, outcome, sections and labs."""
    parts = [(f"{prefix}{name}", getattr(value, lang) or "") for name, value in (("summary", lesson.summary),
                                                                               ("outcome", lesson.outcome)) if value]
    parts += [(f"{prefix}section {s.id}", f"{getattr(s.title, lang)}\n{getattr(s.body, lang)}")
              for s in lesson.sections]
    for lab in lesson.labs:
        for name in ("title", "goal", "prediction", "procedure", "hypothesis", "next_question"):
            value = getattr(lab, name)
            if value is not None:
                parts.append((f"{prefix}lab {lab.id}.{name}", getattr(value, lang) or ""))
    return parts


def _exercise_parts(exercise: Exercise, lang: str) -> list[tuple[str, str]]:
    """(where, text) of an exercise a learner has already done: its prompt, and the explanation shown after its
    lock (the explanation's placeholders unfilled: a number it prints literally is what is searched)."""
    return [(f"exercise {exercise.id}.{name}", getattr(value, lang) or "")
            for name, value in (("prompt", exercise.prompt), ("explanation", exercise.explanation))
            if value is not None]


def text_before(course: Course, exercise: Exercise, lang: str) -> list[tuple[str, str]]:
    """(where, text) of everything a learner reads before locking ``exercise``, in the course's order (levels by
    ``order``, each level's lessons by ``order``: :meth:`Course.ordered_lessons`): every earlier lesson, in any
    level, with its exercises' prompts and explanations; this lesson's summary, outcome, sections and labs, and
    the exercises listed before this one; and its own prompt (hints excluded)."""
    parts: list[tuple[str, str]] = []
    for lesson in course.ordered_lessons():
        if lesson.id == exercise.lesson:
            break
        parts += _lesson_parts(lesson, lang, f"{lesson.id} ")
        parts += [part for ex_id in lesson.exercises if ex_id in course.exercises
                  for part in _exercise_parts(course.exercises[ex_id], lang)]
    lesson = course.lessons[exercise.lesson]
    parts += _lesson_parts(lesson, lang)
    for ex_id in lesson.exercises:
        if ex_id == exercise.id:
            break
        if ex_id in course.exercises:
            parts += _exercise_parts(course.exercises[ex_id], lang)
    parts.append(("prompt", getattr(exercise.prompt, lang) or ""))
    return parts


# ---------------------------------------------------------------------------------------------- numeric answers

def _round_sig(value: float, digits: int) -> float:
    return round(value, digits - 1 - math.floor(math.log10(abs(value)))) if value else 0.0


def printed_forms(value: float, lang: str) -> set[str]:
    """``value`` as the course prints it at 2 and 3 significant digits, in ``lang``."""
    forms: set[str] = set()
    for digits in (2, 3):
        rounded = _round_sig(value, digits)
        decimals = max(0, digits - 1 - math.floor(math.log10(abs(rounded)))) if rounded else 0
        whole, _, frac = f"{rounded:.{decimals}f}".partition(".")
        frac = frac.rstrip("0")
        seps = (".", " ", "\u202f", "\u2009", "\u00a0", "") if lang == "es" else (",", " ", "\u202f", "\u2009", "")
        for sep in seps:
            grouped = f"{int(whole):,}".replace(",", sep) if len(whole) > 3 else whole
            forms.add(grouped + ((("," if lang == "es" else ".") + frac) if frac else ""))
    return forms


UNIT_WORDS = {
    "FLOP/B": r"(?:FLOP/B|FLOP/byte|FLOPs? (?:per|por) byte)",
    "x": r"(?:×|x\b|times\b|veces\b)",
    "GB": r"GB(?![/\w])", "MB": r"MB(?![/\w])", "MiB": r"MiB(?![/\w])", "GiB": r"GiB(?![/\w])",
    "tokens/s": r"(?:tokens?/s|tok/s|tokens por segundo|tokens per second)",
    "GB/s": r"GB/s", "GFLOP/s": r"GFLOP/s", "TFLOP/s": r"TFLOP/s", "ms": r"ms\b", "s": r"s\b", "us": r"(?:µs|us)\b",
    "%": r"%",
}


def _numeric() -> list[Exercise]:
    out = []
    for ex in _course().exercises.values():
        truth = ex.truth
        if ex.kind in ("number", "fit") and truth is not None and truth.source == "formula" and not any(
                isinstance(v, str) and v.startswith("measured:") for v in truth.inputs.values()):
            out.append(ex)
    return sorted(out, key=lambda e: e.id)


#: A printed form that is another quantity of the same size, per exercise: (form, why it is not the answer).
COINCIDENCES: dict[str, dict[str, str]] = {
    "f1-00-fp32-weights-fit": {"32": "the RTX 5090's 32 GB, all through Level 0; the answer is 32.1 GB, searched "
                                     "at 3 digits"},
    "f1-t02-gemm4096-l3-fit": {"0,2": "n0-l1's spilled fraction f = 0,2; the answer is 0.201 GB",
                               "0.2": "n0-l1's spilled fraction f = 0.2; the answer is 0.201 GB"},
}


def numeric_give_aways(course: Course, exercise: Exercise) -> list[str]:
    truth = resolve_truth(exercise, None)
    assert truth.value is not None and truth.unit is not None, exercise.id
    values = [(truth.value, truth.unit)]
    if truth.unit == "GB":
        values += [(truth.value * 1e3, "MB"), (truth.value * 1e9 / 2**20, "MiB"), (truth.value * 1e9 / 2**30, "GiB")]
    found = []
    for lang in LANGS:
        for where, text in text_before(course, exercise, lang):
            for value, unit in values:
                for form in printed_forms(value, lang) - set(COINCIDENCES.get(exercise.id, {})):
                    number = r"(?<![\d.,·^])" + re.escape(form) + r"(?!\d|[.,]\d)"
                    with_unit = number + r"(?=\s{0,2}" + UNIT_WORDS[unit] + ")"
                    said_equal = r"[≈=~]\s?" + number + r"(?=\**(?:[)\]|,;:]|\.(?:\s|$)|[ \t]*(?:\n|$)))"
                    in_a_cell = r"(?<=\|)\s*[≈~]?\s?" + number + r"(?=\s*\|)"  # a table's column says the unit
                    several_digits = sum(ch.isdigit() for ch in form) > 1  # a lone digit in a cell is any count
                    hits = [*re.finditer(with_unit, text), *re.finditer(said_equal, text),
                            *(re.finditer(in_a_cell, text) if unit == truth.unit and several_digits else ())]
                    for m in hits:
                        context = " ".join(text[max(0, m.start() - 60):m.end() + 30].split())
                        found.append(f"[{lang}] {where}: {form} {unit} in «…{context}…»")
    return sorted(set(found))


def test_the_numeric_search_finds_the_course_forms() -> None:
    assert {"58", "58,5"} <= printed_forms(58.48, "es") and "58.5" in printed_forms(58.48, "en")
    assert {"0,17", "0,167"} <= printed_forms(1 / 6, "es")
    assert {"12 600", "12.600", "12\u202f600"} <= printed_forms(12_582.9, "es")
    assert "12,600" in printed_forms(12_582.9, "en")
    assert len(_numeric()) >= 15


@pytest.mark.parametrize("exercise_id", [e.id for e in _numeric()])
def test_no_numeric_answer_in_the_text_before_it(exercise_id: str) -> None:
    course = _course()
    found = numeric_give_aways(course, course.exercises[exercise_id])
    assert not found, f"{exercise_id}: the answer is printed before the question:\n" + "\n".join(found)


# ---------------------------------------------------------------------------------------------- diagnose answers

#: Per diagnose exercise and language: (the exact symptom of its prompt, the cause its answer names). Both in one
#: paragraph of the text before the exercise is the answer to that scenario given away; the cause alone (the
#: theory names every cause) or the symptom alone (the method walks up to it) is not.
SCENARIOS: dict[str, dict[str, tuple[str, str]]] = {
    "f1-lab00-small-n": {
        "es": (r"N = 8|\bN peque", r"sobrecarga"),
        "en": (r"N = 8|small N", r"overhead")},
    "f1-lab01-collapse": {
        "es": (r"512 KiB|0,1 GB/s|desplom|hunde", r"hilos"),
        "en": (r"512 KiB|0\.1 GB/s|collaps", r"threads")},
    "f1-lab01-small-sizes": {
        "es": (r"16 KiB|tamaños pequeños|\bL1\b", r"sobrecarga"),
        "en": (r"16 KiB|small sizes|\bL1\b", r"overhead")},  # the lab's sketch of the curve has L1 on its axis
    "f1-lab02-curve-rises": {
        "es": (r"N = 32|\b32[–-]64\b|2·32³|N pequeñ|compute-bound por intensidad", r"sobrecarga|coste fijo|amortiz"),
        "en": (r"N = 32|\b32[–-]64\b|2·32³|small N|compute-bound by intensity", r"overhead|fixed cost|amortis")},
    "f1-lab03-above-roof": {
        "es": (r"por encima", r"ven[ií]an? de (la )?cach|regalando|(sus|los) (datos|bytes).{0,60}(cach|L3)|"
                              r"caben? en (la )?L3|jerárquico"),
        "en": (r"above", r"came from (the )?cache|for free|(its|the) (data|bytes).{0,60}(cache|L3)|fits? in L3|"
                         r"hierarchical")},
    "f1-t01-one-accumulator": {
        "es": (r"1/8", r"acumulador|encadena"),
        "en": (r"1/8", r"accumulator|chains")},
    "f1-t01-sorted-branch": {
        "es": (r"ordena", r"predic"),
        "en": (r"sort", r"predict")},
    "f1-t02-naive-cliff": {
        "es": (r"4096|precipicio|de golpe|por FLOP", r"por columnas.*(cach[eé]|fallo)|(cach[eé]|fallo).*por columnas"),
        "en": (r"4096|cliff|per FLOP", r"by columns.*(cache|miss)|(cache|miss).*by columns")},
    "f1-t02-offload-pcie": {
        "es": (r"offload|device_map|40 GB|se queda fuera|quedan fuera", r"PCIe"),
        "en": (r"offload|device_map|40 GB|left outside|stays outside", r"PCIe")},
    "f1-t03-wrong-fix": {  # its symptom: kernels at 85 % of the memory roof, and AVX-512 proposed for them
        "es": (r"85 %|AVX-512.*(memory-bound|memoria)|layer_?norm.*gelu", r"fusi|fusion"),
        "en": (r"85 %|AVX-512.*memory-bound|layer_?norm.*gelu", r"fus")},
    "n0-l2-container-no-gpu": {
        "es": (r"could not select device driver", r"Container\s+Toolkit"),
        "en": (r"could not select device driver", r"Container\s+Toolkit")},
    "n0-l2-cpu-wheel": {
        "es": (r"Torch not compiled with CUDA enabled|\+cpu", r"whl/cu|rueda (de )?CPU|wheel|rueda"),
        "en": (r"Torch not compiled with CUDA enabled|\+cpu", r"whl/cu|CPU wheel|wheel")},
    "n0-l2-driver-too-old": {
        "es": (r"too old|found version 12040", r"controlador|driver"),
        "en": (r"too old|found version 12040", r"driver")},
    "n0-l2-no-kernel-image": {
        "es": (r"no kernel image|is not compatible with the current PyTorch", r"sm_120"),
        "en": (r"no kernel image|is not compatible with the current PyTorch", r"sm_120")},
    "n0-l2-no-toolkit-needed": {
        "es": (r"nvcc|Toolkit", r"no (te )?hace falta|no necesitas|no es necesari"),
        "en": (r"nvcc|Toolkit", r"do not need|don't need|not needed|no need")},
    "n0-l2-wsl-linux-driver": {
        "es": (r"couldn't communicate with the NVIDIA driver", r"WSL2?"),
        "en": (r"couldn't communicate with the NVIDIA driver", r"WSL2?")},
    "n0-l4-throttle": {
        "es": (r"87 °C|2,2 GHz|−13 %", r"throttl|baja (su|el) reloj"),
        "en": (r"87 °C|2\.2 GHz|−13 %", r"throttl|lowers its clock")},
    "n0-l4-warmup": {
        "es": (r"412|CV: 300", r"calentamiento|warm-up"),
        "en": (r"412|CV: 300", r"warm-up|warmup")},
}


def _diagnose() -> list[Exercise]:
    return sorted((e for e in _course().exercises.values() if e.kind == "diagnose"), key=lambda e: e.id)


def diagnose_give_aways(course: Course, exercise: Exercise) -> list[str]:
    found = []
    for lang in LANGS:
        symptom, cause = SCENARIOS[exercise.id][lang]
        for where, text in text_before(course, exercise, lang):
            if where == "prompt":
                continue  # the prompt states the symptom: that is the question
            for paragraph in re.split(r"\n\s*\n", text):
                if re.search(symptom, paragraph, re.I | re.S) and re.search(cause, paragraph, re.I | re.S):
                    found.append(f"[{lang}] {where}: «{' '.join(paragraph.split())[:300]}»")
    return found


def test_every_diagnose_exercise_has_its_scenario() -> None:
    ids = {e.id for e in _diagnose()}
    assert ids == set(SCENARIOS), sorted(ids ^ set(SCENARIOS))
    for exercise in _diagnose():  # each symptom pattern finds the symptom in the exercise's own prompt
        for lang in LANGS:
            symptom, _ = SCENARIOS[exercise.id][lang]
            assert re.search(symptom, getattr(exercise.prompt, lang), re.I | re.S), (exercise.id, lang)


@pytest.mark.parametrize("exercise_id", [e.id for e in _diagnose()])
def test_no_diagnosis_in_the_text_before_it(exercise_id: str) -> None:
    course = _course()
    found = diagnose_give_aways(course, course.exercises[exercise_id])
    assert not found, f"{exercise_id}: the cause of this symptom is stated before the question:\n" + "\n".join(found)


def test_the_text_before_runs_across_the_course_order() -> None:
    """A Phase 1 exercise is read after all of Level 0 (every lesson, its exercises' prompts and explanations)
    and after the exercises listed before it in its own lesson; not after itself or anything later."""
    course = _course()
    ridge = [where for where, _ in text_before(course, course.exercises["f1-lab03-rtx5090-ridge"], "en")]
    assert "n0-l1 section roofline" in ridge and "n0-l4 section numbers" in ridge
    assert "exercise n0-l1-attention-naive-bound.explanation" in ridge
    assert "exercise f1-t03-gemm-intensity.explanation" in ridge  # an earlier lesson of its own level
    assert not any(w.startswith("exercise f1-lab03-rtx5090-ridge") for w in ridge)
    fix = [where for where, _ in text_before(course, course.exercises["f1-t03-wrong-fix"], "es")]
    order = course.lessons["f1-t03"].exercises
    before = order[:order.index("f1-t03-wrong-fix")]
    assert {f"exercise {e}.explanation" for e in before} <= set(fix)
    assert not any(f"exercise {e}." in w for e in order[order.index("f1-t03-wrong-fix"):] for w in fix)
    first = [where for where, _ in text_before(course, course.exercises["n0-l1-ridge-4090"], "en")]
    assert not any(w.startswith("f1-") or w.startswith("n0-l2") for w in first)


def test_the_ridge_of_level_0_is_not_asked_again_in_phase_1() -> None:
    """The RTX 5090's FP32 ridge (≈ 58) is worked in n0-l1 and quoted in n0-l4 and three explanations;
    f1-lab03-rtx5090-ridge asked it again. It now asks the FP64 ridge (1/64 of the FP32 rate: ≈ 0.91)."""
    course = _course()
    truth = resolve_truth(course.exercises["f1-lab03-rtx5090-ridge"], None)
    assert truth.value is not None and round(truth.value, 2) == round(104.8e12 / 64 / 1792e9, 2) == 0.91
    assert not numeric_give_aways(course, course.exercises["f1-lab03-rtx5090-ridge"])
