"""No measured truth given away before its exercise (issue 31 item 3, the exercises whose answer is measured).

:mod:`tests.test_answers_not_given_away` searches the text a learner reads before an exercise (:func:`text_before`,
both languages) for the truth of a formula of given inputs, and for a diagnosis. Here the truth depends on the
machine, so what gives it away is a figure stated before the exercise that answers it on the course machine or in
general ("the triad reaches 46 GB/s here", "L2 is 6× DRAM", a table of the course machine's bandwidths):

* **number / fit** (:data:`SUBJECTS`): a figure in the answer's dimension (any unit of it: GB/s or TB/s, ms or s,
  % or ×), within the exercise's full-marks ratio (``grading.full``) of a truth the tutor would resolve, in one
  sentence or table row with the exercise's subject. The truths are the recorded measurement's
  (``tests/fixtures/results/every_exercise_small.json``) and the same measurement on each measured machine shape
  of :mod:`tests.support.shapes`, plus those shapes' roofs for a rate or ridge. The datasheet shape (RTX 5090) is
  left out: a datasheet peak is what the method predicts from, and the lessons must give it. A range whose ends
  are further apart than the full-marks band (``hi / lo > full²``) answers nothing: a guess inside it need not get
  full marks. For a ratio of two rates (:data:`RATIO_OF`), two figures of those rates in one clause whose ratio is
  the answer count too (``~110 GB/s in L2 against ~30 GB/s in DRAM`` is 3.7×).
* **bound** (:data:`WORKLOADS`): the exercise's workload and the side it lands on (memory or compute, on the
  recording or any shape) said in one sentence or table row.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from functools import cache

import pytest

from tests.support.shapes import SHAPES, _roofline_on, load_recording, on_shape
from tests.test_answers_not_given_away import LANGS, _course, text_before
from tutor.content.loader import Course
from tutor.content.models import Exercise
from tutor.grading import resolve_truth
from tutor.grading.truth import TruthError
from tutor.grading.units import _UNITS
from tutor.results.measurement import Measurement

MEASURED_SHAPES = ("xeon-480m", "epyc-32m")
"""The quiet measured shapes. The noisy one is a disturbed run, whose figure may confirm an answer but never call
one wrong (issue 35's rule): it is not an answer to give away."""

#: The exercises whose answer on a machine is that machine's roof: its copy bandwidth, its ridge, a large GEMM's
#: rate. For these the shapes' roofs are truths too.
ROOF_ANSWERS = {"n0-l1-triad-gbs", "f1-t02-copy-bandwidth", "f1-lab01-dram-bandwidth", "f1-t03-ridge",
                "f1-t01-gemm-gflops"}

#: How a unit is written in the course, per unit of :mod:`tutor.grading.units`.
UNIT_WORDS = {
    "TB/s": r"TB/s", "GB/s": r"GB/s", "MB/s": r"MB/s",
    "TFLOP/s": r"TFLOP/s", "GFLOP/s": r"GFLOP/s",
    "FLOP/B": r"(?:FLOP/B\b|FLOP/byte|FLOPs? (?:per|por) byte)",
    "s": r"s\b(?!/)", "ms": r"ms\b", "us": r"(?:µs|us)\b", "ns": r"ns\b",
    "x": r"(?:×(?!\s?[\d(`])|x\b(?!\s?\d)|times\b|veces\b)", "%": r"%",  # `2 × 128` multiplies
    "GB": r"GB(?![/\w])", "MB": r"MB(?![/\w])", "GiB": r"GiB(?![/\w])", "MiB": r"MiB(?![/\w])",
    "tokens/s": r"(?:tokens?/s|tok/s|tokens por segundo|tokens per second)",
}
_NUM = {"es": r"\d{1,3}(?:[.\u202f\u2009\u00a0 ]\d{3})+(?:,\d+)?|\d+(?:,\d+)?",
        "en": r"\d{1,3}(?:[,\u202f\u2009\u00a0 ]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"}
_DASH = r"\s?[–-]\s?"

#: Per measured numeric exercise and language: what the figure must be about, in the same sentence or table row.
SUBJECTS: dict[str, dict[str, str]] = {
    "f1-00-naive-1024-time": {"es": r"ingenu|Python puro|bucle", "en": r"naive|pure[- ]Python|loop"},
    "f1-00-naive-ratio": {"es": r"(ingenu|Python|bucle).*NumPy|NumPy.*(ingenu|Python|bucle)",
                          "en": r"(naive|Python|loop).*NumPy|NumPy.*(naive|Python|loop)"},
    "f1-lab00-doubling": {"es": r"N\s?=\s?128|128³", "en": r"N\s?=\s?128|128³"},
    "f1-lab00-numpy-time": {"es": r"(np\.matmul|NumPy).*1024|1024.*(np\.matmul|NumPy)",
                            "en": r"(np\.matmul|NumPy).*1024|1024.*(np\.matmul|NumPy)"},
    "f1-lab00-python-gflops": {"es": r"ingenu|Python puro|bucle", "en": r"naive|pure[- ]Python|loop"},
    "f1-lab01-dram-bandwidth": {"es": r"^(?!.*PCIe).*(\bD?RAM\b|memoria principal|512 MiB)",
                                "en": r"^(?!.*PCIe).*(\bD?RAM\b|main memory|512 MiB)"},
    "f1-lab01-l2-bandwidth": {"es": r"\bL2\b|256 KiB", "en": r"\bL2\b|256 KiB"},
    "f1-lab02-bf16-speedup": {"es": r"bf16.{0,60}(pico|GEMM|matmul|FLOP)|(pico|GEMM|matmul|FLOP).{0,60}bf16",
                              "en": r"bf16.{0,60}(peak|GEMM|matmul|FLOP)|(peak|GEMM|matmul|FLOP).{0,60}bf16"},
    "f1-lab02-fraction-of-roof": {"es": r"pico te[oó]rico|del pico", "en": r"theoretical peak|of (the|its) peak"},
    "f1-lab02-gemm-256": {"es": r"\b256\b", "en": r"\b256\b"},
    "f1-lab03-claim1-mlp-block": {"es": r"MLP|bloque", "en": r"MLP|block"},
    "f1-lab03-claim3-gemv-gflops": {"es": r"GEMV|matvec|m = 1\b", "en": r"GEMV|matvec|m = 1\b"},
    "f1-lab03-claim4-int8-matvec": {"es": r"int8", "en": r"int8"},
    "f1-lab03-gemm128-attainable": {"es": r"\b128\b", "en": r"\b128\b"},
    "f1-t01-fp64-fraction": {"es": r"fp64", "en": r"fp64"},
    "f1-t01-gemm-gflops": {"es": r"GEMM|matmul|BLAS", "en": r"GEMM|matmul|BLAS"},
    "f1-t01-peak-gflops": {"es": r"pico|peak", "en": r"peak"},
    "f1-t01-python-iteration": {"es": r"iteraci", "en": r"iteration"},
    "f1-t02-copy-bandwidth": {"es": r"cop(ia|y)|STREAM", "en": r"cop(y|ie)|STREAM"},
    "f1-t02-l2-dram-ratio": {"es": r"\bL2\b", "en": r"\bL2\b"},
    "f1-t03-ridge": {"es": r"cresta|ridge", "en": r"ridge"},
    "f1-t03-triad-attainable": {"es": r"tr[ií]ad", "en": r"triad"},
    "n0-l1-triad-gbs": {"es": r"tr[ií]ad|STREAM", "en": r"triad|STREAM"},
    "n0-l3-8b-inference-fit": {"es": r"8B.*8192|8192.*8B", "en": r"8B.*8192|8192.*8B"},
    "n0-l3-gpt2-train-fit": {"es": r"GPT-2", "en": r"GPT-2"},
    "n0-l4-decode-ratio": {"es": r"decode|decodific|generaci", "en": r"decode|generat"},
    "n0-l4-gap": {"es": r"decode|decodific|generaci", "en": r"decode|generat"},
    "n0-l4-gap-bandwidth": {"es": r"pendiente|ancho de banda efectivo", "en": r"slope|effective bandwidth"},
    "n0-l4-gap-extra": {"es": r"KV", "en": r"KV"},
    "n0-l4-gap-fixed": {"es": r"fij", "en": r"fixed"},
    "n0-l4-mfu": {"es": r"MFU", "en": r"MFU"},
}

#: Ratio exercises whose answer is one rate over another: two figures of that dimension in one clause, their
#: ratio the answer, give it away as a stated ratio would.
RATIO_OF = {"f1-t02-l2-dram-ratio": "bytes/s", "f1-lab02-bf16-speedup": "FLOP/s", "f1-00-naive-ratio": "FLOP/s"}

#: Per bound exercise and language: its workload, as the course names it.
WORKLOADS: dict[str, dict[str, str]] = {
    "f1-00-gemv-side": {"es": r"GEMV|m = 1\b", "en": r"GEMV|m = 1\b"},
    "f1-00-training-gemm-side": {"es": r"1024 tokens|entrenamiento", "en": r"1024 tokens|training"},
    "f1-lab03-attention-side": {"es": r"atenci[oó]n ingenua", "en": r"naive attention"},
    "f1-lab03-layernorm-side": {"es": r"layer ?norm", "en": r"layer ?norm"},
    "f1-t03-gemm2048-side": {"es": r"2048", "en": r"2048"},
    "f1-t03-gemm32-side": {"es": r"\b32×32|\b32³|N = 32\b", "en": r"\b32×32|\b32³|N = 32\b"},
    "f1-t03-softmax-side": {"es": r"softmax", "en": r"softmax"},
    "f1-t03-sum-side": {"es": r"\bsuma\b|\.sum\(", "en": r"\bsum\b|\.sum\("},
    "f1-t03-triad-side": {"es": r"tr[ií]ad", "en": r"triad"},
    "n0-l1-attention-bound": {"es": r"scaled_dot_product|fusionad|Flash", "en": r"scaled_dot_product|fused|Flash"},
    "n0-l1-attention-naive-bound": {"es": r"atenci[oó]n ingenua|a mano", "en": r"naive attention|by hand"},
    "n0-l1-gemm-square-bound": {"es": r"2048", "en": r"2048"},
    "n0-l1-gemv-bound": {"es": r"GEMV|una sola fila|8192", "en": r"GEMV|single row|8192"},
    "n0-l1-softmax-bound": {"es": r"softmax", "en": r"softmax"},
    "n0-l1-triad-bound": {"es": r"tr[ií]ad", "en": r"triad"},
}
SIDE_WORDS = {
    "memory": {"es": r"memory[- ]bound|limitad[oa]s? por (la )?memoria|limitad[oa]s? por (el )?ancho de banda",
               "en": r"memory[- ]bound|bandwidth[- ]bound|limited by (memory|bandwidth)"},
    "compute": {"es": r"compute[- ]bound|limitad[oa]s? por (el )?c[oó]mputo",
                "en": r"compute[- ]bound|limited by compute"},
}


@dataclass(frozen=True)
class Truth:
    """One value the tutor would call right, and where it comes from."""

    where: str
    value: float
    """In the dimension's base unit (bytes/s, FLOP/s, s, ratio, ...)."""


def _measured_results(exercise_id: str) -> list[tuple[str, dict[str, object]]]:
    result = load_recording()["exercises"][exercise_id]["result"]
    out: list[tuple[str, dict[str, object]]] = [("recorded", result)]
    for name in MEASURED_SHAPES:
        shape = SHAPES[name]
        out.append((name, _roofline_on(shape, result) if result.get("kind") == "roofline"
                    else on_shape(shape, result)))
    return out


@cache
def truths(exercise_id: str) -> tuple[str, tuple[Truth, ...]]:
    """(dimension, the truths) of a measured numeric exercise."""
    exercise = _course().exercises[exercise_id]
    found: list[Truth] = []
    unit = ""
    for where, result in _measured_results(exercise_id):
        try:
            truth = resolve_truth(exercise, Measurement.from_json(result))
        except TruthError:  # a shape has no clocks or cores (physical_limits): its truth is unknown, not another
            assert where != "recorded", exercise_id
            continue
        assert truth.value is not None and truth.unit is not None, exercise_id
        unit = truth.unit
        found.append(Truth(where, truth.value * _UNITS[unit][1]))
    dimension = _UNITS[unit][0]
    dtype = str((exercise.measure.params if exercise.measure else {}).get("dtype", "float32"))
    for name in MEASURED_SHAPES if exercise_id in ROOF_ANSWERS else ():
        shape = SHAPES[name]
        if dimension == "bytes/s":
            found.append(Truth(f"{name} roof", shape.bandwidth_gbs * 1e9))
        elif dimension == "FLOP/s" and dtype in shape.peak_gflops:
            found.append(Truth(f"{name} {dtype} roof", shape.peak_gflops[dtype] * 1e9))
        elif dimension == "FLOP/B":
            found.append(Truth(f"{name} ridge", shape.ridge))
    return dimension, tuple(found)


def _clauses(text: str) -> list[str]:
    """A text cut into sentences and table rows (each row with its table's header row in front)."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        lines = paragraph.strip().splitlines()
        if lines and all(line.lstrip().startswith("|") for line in lines):
            header = lines[0]
            out += [f"{header}\n{row}" for row in lines[2:]] or [header]
            continue
        flat = " ".join(paragraph.split())
        out += re.split(r"(?<=[.!?;])\s+|\s+[–—]\s+", flat)
    return out


def _figures(clause: str, lang: str, dimension: str) -> list[tuple[str, float, float]]:
    """(as written, low, high) of each figure of ``dimension`` in ``clause``, in the dimension's base unit: a
    figure with its unit after it, a range ``a–b unit``, or a bare number in a table cell whose header names the
    unit."""
    n = _NUM[lang]
    found = []

    def value(text: str) -> float:
        text = text.replace("\u202f", "").replace("\u2009", "").replace("\u00a0", "").replace(" ", "")
        return float(text.replace(".", "").replace(",", ".") if lang == "es" else text.replace(",", ""))

    for unit, words in UNIT_WORDS.items():
        if _UNITS[unit][0] != dimension:
            continue
        scale = _UNITS[unit][1]
        pattern = rf"(?<![\d.,·^/])({n})(?:{_DASH}({n}))?(?!\d|[.,]\d)\s{{0,2}}{words}"
        for m in re.finditer(pattern, clause):
            low = value(m.group(1)) * scale
            high = value(m.group(2)) * scale if m.group(2) else low
            found.append((m.group(0), low, high))
    if "\n" in clause:  # a table row: a bare number under a header naming the unit
        header, row = clause.split("\n", 1)
        heads, cells = header.split("|"), row.split("|")
        for head, cell in zip(heads, cells, strict=False):
            units = [u for u, w in UNIT_WORDS.items() if _UNITS[u][0] == dimension and re.search(w, head)]
            m = re.fullmatch(rf"\s*\**[≈~]?\s?({n})(?:{_DASH}({n}))?\**\s*", cell)
            if units and m:
                scale = _UNITS[units[0]][1]
                low = value(m.group(1)) * scale
                found.append((cell.strip(), low, value(m.group(2)) * scale if m.group(2) else low))
    return found


def _answers(low: float, high: float, truth: float, full: float) -> bool:
    if low <= 0 or high < low or truth <= 0 or high / low > full**2:
        return False
    middle = math.sqrt(low * high)
    return abs(math.log(middle / truth)) <= math.log(full) + 1e-9


def numeric_give_aways(course: Course, exercise: Exercise) -> list[str]:
    dimension, found_truths = truths(exercise.id)
    full = exercise.grading.full if exercise.grading is not None else 1.10
    hits = []
    for lang in LANGS:
        subject = SUBJECTS[exercise.id][lang]
        for where, text in text_before(course, exercise, lang):
            for clause in _clauses(text):
                if not re.search(subject, clause, re.I | re.S):
                    continue
                figures = _figures(clause, lang, dimension)
                if exercise.id in RATIO_OF:
                    rates = _figures(clause, lang, RATIO_OF[exercise.id])
                    figures += [(f"{a[0]} / {b[0]}", a[1] / b[1], a[2] / b[2]) for a in rates for b in rates
                                if a is not b and b[1] > 0 and b[2] > 0 and a[1] / b[1] <= a[2] / b[2]]
                for written, low, high in figures:
                    for truth in found_truths:
                        if _answers(low, high, truth.value, full):
                            context = " ".join(clause.split())[:220]
                            hits.append(f"[{lang}] {where}: «{written}» answers it ({truth.where}) in «{context}»")
                            break
    return sorted(set(hits))


def _measured_numeric() -> list[str]:
    out = []
    for exercise in _course().exercises.values():
        if exercise.kind not in ("number", "fit"):
            continue
        try:
            resolve_truth(exercise, None)
        except TruthError:
            out.append(exercise.id)
    return sorted(out)


def test_every_measured_numeric_exercise_has_its_subject() -> None:
    assert set(_measured_numeric()) == set(SUBJECTS), sorted(set(_measured_numeric()) ^ set(SUBJECTS))
    assert len(SUBJECTS) >= 30
    assert {e.id for e in _course().exercises.values() if e.kind == "bound"} == set(WORKLOADS)
    for exercise_id, words in WORKLOADS.items():  # each workload pattern finds the workload in its own prompt
        for lang in LANGS:
            prompt = getattr(_course().exercises[exercise_id].prompt, lang)
            assert re.search(words[lang], prompt, re.I), (exercise_id, lang)


@pytest.mark.parametrize("exercise_id", sorted(SUBJECTS))
def test_no_measured_answer_in_the_text_before_it(exercise_id: str) -> None:
    course = _course()
    found = numeric_give_aways(course, course.exercises[exercise_id])
    assert not found, f"{exercise_id}: a figure that answers it is stated before the question:\n" + "\n".join(found)


def sides(exercise_id: str) -> set[str]:
    """The sides the exercise lands on: the recording's and every shape's (the datasheet one included: a bound
    is a verdict, not a figure, and an RTX 5090 learner gets the datasheet shape's)."""
    result = load_recording()["exercises"][exercise_id]["result"]
    found = {str(result["classification"]["bound"])}
    found |= {str(on_shape(shape, result)["classification"]["bound"]) for shape in SHAPES.values()}
    return found


#: A Phase 1 exercise that asks again, on the learner's CPU, what a Level 0 exercise asked of the same workload,
#: whose side is the same on every shape: once the learner has done that one, its explanation and what follows may
#: say the side (it is what they measured). Only the text before that explanation is searched.
REPEATS = {"f1-00-gemv-side": "n0-l1-gemv-bound", "f1-t03-softmax-side": "n0-l1-softmax-bound",
           "f1-t03-triad-side": "n0-l1-triad-bound"}

#: The course's claims, stated as what Phase 1 sets out to measure ("claim 2: the transformer is memory-bound in
#: inference and compute-bound in training"): a hypothesis the exercises test, not an answer. A sentence naming the
#: claim, and f1-00's section listing the five, are not searched.
CLAIM_WORDS = {"es": r"afirmaci[oó]n", "en": r"\bclaim"}
CLAIMS_SECTION = "section cinco-afirmaciones"


def bound_give_aways(course: Course, exercise: Exercise) -> list[str]:
    hits = []
    for lang in LANGS:
        workload = WORKLOADS[exercise.id][lang]
        answer = "|".join(SIDE_WORDS[side][lang] for side in sorted(sides(exercise.id)))
        parts = text_before(course, exercise, lang)
        if exercise.id in REPEATS:
            earlier = REPEATS[exercise.id]
            assert sides(exercise.id) == sides(earlier) and len(sides(earlier)) == 1, exercise.id
            parts = parts[:[w for w, _ in parts].index(f"exercise {earlier}.explanation")]
        for where, text in parts:
            if where == "prompt" or where.endswith(CLAIMS_SECTION):
                continue
            for clause in _clauses(text):
                if re.search(CLAIM_WORDS[lang], clause, re.I):
                    continue
                if re.search(workload, clause, re.I) and re.search(answer, clause, re.I):
                    hits.append(f"[{lang}] {where}: «{' '.join(clause.split())[:240]}»")
    return sorted(set(hits))


@pytest.mark.parametrize("exercise_id", sorted(WORKLOADS))
def test_no_bound_answer_in_the_text_before_it(exercise_id: str) -> None:
    course = _course()
    found = bound_give_aways(course, course.exercises[exercise_id])
    assert not found, f"{exercise_id}: its side is stated before the question:\n" + "\n".join(found)


# ---------------------------------------------------------------------------------------------- the search itself

def _planted(lesson_id: str, section_id: str, es: str, en: str) -> Course:
    """The bundled course with one paragraph added to the end of one section, in both languages."""
    course = _course()
    lesson = course.lessons[lesson_id]
    sections = [s if s.id != section_id else s.model_copy(update={"body": s.body.model_copy(update={
        "es": f"{s.body.es}\n\n{es}\n", "en": f"{s.body.en}\n\n{en}\n"})}) for s in lesson.sections]
    assert sections != lesson.sections
    return dataclasses.replace(course, lessons={**course.lessons,
                                                lesson_id: lesson.model_copy(update={"sections": sections})})


@pytest.mark.parametrize(("exercise_id", "lesson_id", "section_id", "es", "en"), [
    ("n0-l1-triad-gbs", "n0-l1", "roofline", "En esta máquina el triad llega a 76 GB/s.",
     "On this machine the triad reaches 76 GB/s."),
    ("f1-lab01-l2-bandwidth", "f1-t02", "working-set",
     "| Nivel | Copia |\n|---|---|\n| L2 | ≈ 120 GB/s |\n| DRAM | ≈ 34 GB/s |",
     "| Level | Copy |\n|---|---|\n| L2 | ≈ 120 GB/s |\n| DRAM | ≈ 34 GB/s |"),
    ("f1-t02-l2-dram-ratio", "f1-t02", "working-set", "Aquí la L2 da 3,7× la DRAM.", "Here L2 gives 3.7× DRAM."),
    ("f1-t02-l2-dram-ratio", "f1-t02", "working-set", "Aquí la L2 copió a 110 GB/s y la DRAM a 30 GB/s.",
     "Here L2 copied at 110 GB/s and DRAM at 30 GB/s."),
    ("f1-t03-ridge", "f1-t03", "cresta", "| Máquina | Cresta (FLOP/B) |\n|---|---|\n| la del curso | 14 |",
     "| Machine | Ridge (FLOP/B) |\n|---|---|\n| the course's | 14 |"),
])
def test_a_planted_measured_give_away_is_found(exercise_id: str, lesson_id: str, section_id: str, es: str,
                                               en: str) -> None:
    course = _planted(lesson_id, section_id, es, en)
    found = numeric_give_aways(course, course.exercises[exercise_id])
    assert {hit[:4] for hit in found} == {"[es]", "[en]"}, found
    assert not numeric_give_aways(_course(), _course().exercises[exercise_id])


def test_a_wide_range_or_another_quantity_is_not_a_give_away() -> None:
    """A range wider than the full-marks band, and a multiplication sign, answer nothing."""
    course = _planted("n0-l1", "roofline", "Una CPU de portátil copia a 20–90 GB/s; el triad son 2 × 3 palabras.",
                      "A laptop CPU copies at 20–90 GB/s; the triad is 2 × 3 words.")
    assert not numeric_give_aways(course, course.exercises["n0-l1-triad-gbs"])
    assert not numeric_give_aways(course, course.exercises["f1-t02-l2-dram-ratio"])


def test_a_planted_side_is_found() -> None:
    course = _planted("n0-l1", "roofline", "El triad está limitado por memoria en cualquier máquina.",
                      "The triad is memory-bound on any machine.")
    found = bound_give_aways(course, course.exercises["n0-l1-triad-bound"])
    assert {hit[:4] for hit in found} == {"[es]", "[en]"}, found
    claim = _planted("n0-l1", "roofline", "La afirmación 2: el triad está limitado por memoria.",
                     "Claim 2: the triad is memory-bound.")
    assert not bound_give_aways(claim, claim.exercises["n0-l1-triad-bound"])  # a claim is the hypothesis
