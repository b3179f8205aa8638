"""One voice in each language: what the CLI prints in Spanish has no English sentence and no dot decimal, what it
prints in English no Spanish; and the core (outside ``tutor/ui`` and ``tutor/i18n``) has no language branch and no
regex back-translation.

The exercises run for real on the CPU (torch, tiny sizes: a copy of 2^20 floats, a 256³ GEMM) in this test's data
dir, with the roofline for this machine's fingerprint put in the cache first (as in ``test_exercise_cli``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tutor import paths
from tutor.cli import main
from tutor.measure.bench_report import compare, render_markdown, render_table
from tutor.measure.roofline_model import ROOFLINE_FORMAT
from tutor.progress.c0 import level_exercise_ids
from tutor.results import BenchReport

REPO = Path(__file__).resolve().parents[1]
COURSE = Path(__file__).parent / "fixtures" / "exercise_course"
BENCH = Path(__file__).parent / "fixtures" / "results" / "bench_report_tiny.json"
ROOF = {"peak_bandwidth_gbs": 320.0, "peak_gflops": {"float32": 1600.0}, "peak_tflops": {"float32": 1.6},
        "ridge_flops_per_byte": {"float32": 5.0}, "ridge_point": 5.0, "datasheet": None,
        "device": {"kind": "cpu", "name": "test", "fingerprint": "x"}, "format": ROOFLINE_FORMAT}

#: A number written with a dot decimal (``20.0``, ``0.85``), not part of a version (``2.13.0``) or a word.
DOT_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
#: English a Spanish reader must not meet.
ENGLISH = (" the ", "measured", "truth", "verdict", "Verdict", "agrees", "DIFFERS", "bound ", "formula", "Open:",
           "score", "not yet", "Lessons", "History", "passed", "warning")
#: Spanish an English reader must not meet.
SPANISH = (" la ", " el ", " de ", "medido", "verdad", "Veredicto", "fórmula", "cota", "coincide", "ejecución",
           "Lecciones", "Calibración", "todavía", "aviso", "bien ")


@pytest.fixture(scope="module")
def machine() -> dict[str, str]:
    from tutor.measure.device import device_info

    info = device_info("cpu")
    return {"fingerprint": str(info["fingerprint"]), "name": str(info["name"])}


@pytest.fixture(autouse=True)
def cached_roofline(machine: dict[str, str], data_dir: Path) -> None:
    from tutor.measure.roofline_model import store_roofline

    store_roofline(machine["fingerprint"], ROOF, paths.roofline_cache())


def tutor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([*args, "--course", str(COURSE)])
    out, err = capsys.readouterr()
    return code, out, err


def run(capsys: pytest.CaptureFixture[str], exercise: str, predict: str, lang: str) -> str:
    code, out, err = tutor(capsys, "exercise", "run", exercise, "--predict", predict, "--device", "cpu",
                           "--budget", "0.05", "--confidence", "70", "--lang", lang)
    assert code == 0, err
    return out


#: The test course's exercise ids (identifiers, not words: ``t-copy-bound``).
EXERCISE_IDS = tuple(sorted({"t-copy-bound", "t-gemm-bound", "t-copy-gbs", "t-decode-limit", "t-fit", "t-diag",
                              *level_exercise_ids()}, key=len, reverse=True))
"""The pack's and the bundled level's (C0 names the bundled course's exercises still to do), longest first."""


def shown(text: str, machine: dict[str, str]) -> str:
    """``text`` without what is data, not the tutor's language: this machine's name (a CPU model may carry its
    clock, ``@ 2.40GHz``) and the exercise ids."""
    text = text.replace(machine["name"], "<device>")
    for ex in EXERCISE_IDS:
        text = text.replace(ex, "<exercise>")
    return text


def assert_spanish(text: str, machine: dict[str, str]) -> None:
    text = shown(text, machine)
    assert not DOT_DECIMAL.findall(text), (DOT_DECIMAL.findall(text), text)
    for word in ENGLISH:
        assert word not in text, (word, text)


def assert_english(text: str, machine: dict[str, str]) -> None:
    text = shown(text, machine)
    for word in SPANISH:
        assert word not in text, (word, text)


def test_exercise_runs_and_progress_speak_one_language(capsys: pytest.CaptureFixture[str],
                                                      machine: dict[str, str]) -> None:
    # a formula on a measured input, a measured choice, a measured number, a formula on given inputs, a key
    runs = [("t-decode-limit", "100"), ("t-copy-bound", "memory"), ("t-copy-gbs", "10"), ("t-fit", "fits"),
            ("t-diag", "cpu-wheel")]
    es = [run(capsys, ex, predict, "es") for ex, predict in runs]
    decode = es[0]
    assert "la fórmula «cota de decode = ancho de banda ÷ bytes por token» aplicada a entradas medidas" in decode
    assert "20,0 tokens/s" in decode and "decode_bound_tokens_per_s" not in decode
    assert "medido en" in es[1] and "intensidad aritmética frente al punto de cresta medido" in es[1]
    for out in es:
        assert "Veredicto:" in out
        assert_spanish(out, machine)
    en = run(capsys, "t-decode-limit", "100", "en")
    assert "the formula “decode bound = bandwidth ÷ bytes per token” applied to measured inputs" in en
    assert "20.0 tokens/s" in en
    assert_english(en, machine)

    code, out, _ = tutor(capsys, "progress", "--lang", "es")
    assert code == 0 and "C0 (CPU): todavía no" in out and "Calibración" in out and "Historial" in out
    assert re.search(r"\d,\d\d", out)  # the scores, with decimal commas
    assert_spanish(out.replace(str(paths.data_dir()), "<data dir>"), machine)
    code, out, _ = tutor(capsys, "progress", "--lang", "en")
    assert code == 0 and "C0 (CPU): not yet" in out and "History" in out
    assert_english(out.replace(str(paths.data_dir()), "<data dir>"), machine)


def test_exercise_run_progress_lines_speak_the_readers_language(capsys: pytest.CaptureFixture[str],
                                                                machine: dict[str, str]) -> None:
    """The measuring engine's progress on stderr (one line per step off a terminal): its codes said in Spanish with
    Spanish percentages, then in English."""
    args = ("exercise", "run", "t-copy-bound", "--predict", "memory", "--device", "cpu", "--budget", "0.05",
            "--confidence", "70")
    code, _, err = tutor(capsys, *args, "--lang", "es")
    assert code == 0, err
    steps = [line for line in err.splitlines() if line.startswith("[")]
    assert [s.split("] ", 1)[1] for s in steps] == ["copy: preparando entradas", "copy: midiendo tiempos",
                                                    "copy: hecho"], steps
    assert steps[-1] == "[100\u00a0%] copy: hecho"
    assert all(re.match(r"\[ *\d+\u00a0%\] ", s) for s in steps), steps  # "50 %": the Spanish percent sign
    assert_spanish("\n".join(steps), machine)
    code, _, err = tutor(capsys, *args, "--lang", "en")
    steps = [line for line in err.splitlines() if line.startswith("[")]
    assert [s.split("] ", 1)[1] for s in steps] == ["copy: preparing inputs", "copy: timing", "copy: done"], steps
    assert all(re.match(r"\[ *\d+%\] ", s) for s in steps), steps
    assert_english("\n".join(steps), machine)


def test_progress_actions_and_the_notebook_speak_one_language(capsys: pytest.CaptureFixture[str],
                                                               machine: dict[str, str], tmp_path: Path) -> None:
    """export, import, acknowledge, reset and an empty notebook: the store's tables by their names in the reader's
    language, never ``sections_read, lab_runs``."""
    export = tmp_path / "progress.json"
    said = {}
    for lang in ("es", "en"):
        lines = []
        for args in (["progress", "export", str(export)], ["progress", "import", str(export), "--merge"],
                     ["progress", "acknowledge"], ["progress", "reset", "--exercise", "t-fit", "--yes"],
                     ["notebook", "list"]):
            code, out, err = tutor(capsys, *args, "--lang", lang)
            assert code == 0, err
            lines.append(out.strip())
        said[lang] = "\n".join(lines)
    assert "exportado a" in said["es"] and "0 secciones leídas" in said["es"] and "0 intentos" in said["es"]
    assert "borrado el ejercicio t-fit: 0 intentos" in said["es"] and "vacío" in said["es"]
    assert "sections_read" not in said["es"] and "lab_runs" not in said["es"]
    code, listed, _ = tutor(capsys, "exercise", "list", "--lang", "es")
    assert code == 0 and "t-copy-bound" in listed and "límite" in listed and "número" in listed  # the kinds, worded
    assert_spanish(listed, machine)
    assert_spanish(said["es"].replace(str(export), "<file>"), machine)
    assert "0 sections read, 0 attempts, 0 lab runs" in said["en"]
    assert "deleted exercise t-fit: 0 attempts" in said["en"]
    assert_english(said["en"].replace(str(export), "<file>"), machine)


def test_a_lab_run_speaks_one_language(capsys: pytest.CaptureFixture[str], machine: dict[str, str]) -> None:
    """``tutor lab run`` on the bundled course's memory lab (a real small measurement): its progress, the result
    table and the notebook line, with no English part names, modes or internal formula names in Spanish."""
    code = main(["lab", "run", "n0-l3-lab-vram", "--predict", "20", "--lang", "es"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "memoria de llama-3-8b (inferencia)" in err and "fórmula: caché KV" in out and "inferencia" in out
    assert "formulas." not in out and "estimate" not in out and "weights" not in out
    assert_spanish(err + out, machine)
    code = main(["lab", "run", "n0-l3-lab-vram", "--predict", "20", "--lang", "en"])
    out, err = capsys.readouterr()
    assert code == 0 and "memory of llama-3-8b (inference)" in err and "formula: KV cache" in out
    assert_english(err + out, machine)


def test_the_bench_run_speaks_one_language(capsys: pytest.CaptureFixture[str], machine: dict[str, str]) -> None:
    """``tutor bench --lang es`` (tiny sizes, real torch): the progress lines, the table and its closing line."""
    code = main(["bench", "--tiny", "--device", "cpu", "--no-store", "--lang", "es"])
    out, err = capsys.readouterr()
    assert code == 0, err
    steps = [line for line in err.splitlines() if line.startswith("[")]
    assert any("ronda 1/" in s and "ancho de banda" in s for s in steps), steps
    assert steps[-1].endswith("bench terminado") and re.search(r"\d,\d s\]", steps[-1]), steps
    assert "ancho de banda pico" in out and "tardó" in out
    text = re.sub(r"escrito: .*", "", out)
    assert_spanish("\n".join(steps) + "\n" + text, machine)


def test_doctor_speaks_one_language(capsys: pytest.CaptureFixture[str], machine: dict[str, str]) -> None:
    code, out, _ = tutor(capsys, "doctor", "--lang", "es")
    assert code in (0, 1) and "Diagnóstico" in out and re.search(r"\(\d+,\d s\)\.", out)
    # what the doctor quotes is data: paths, and the libraries' own error texts (NVML's, in English)
    quoted = re.sub(r"\(NVML: [^;)]*", "(NVML: <error>", out)
    assert_spanish(quoted, machine)
    code, out, _ = tutor(capsys, "doctor", "--lang", "en")
    assert code in (0, 1) and re.search(r"Doctor (passed|FAILED)", out)
    assert_english(out, machine)


def test_the_bench_report_speaks_one_language(machine: dict[str, str]) -> None:
    report = BenchReport.from_json(json.loads(BENCH.read_text(encoding="utf-8")))
    previous = BenchReport.from_json({**report.to_json(), "headline": {**report.to_json()["headline"],
                                                                       "peak_bandwidth_gbs": 2.0}})
    comparison = compare(report, previous)
    stored_name = report.device.name
    for text in (render_markdown(report, comparison, "es"), render_table(report, comparison, "es")):
        text = text.replace(stored_name, "<device>").replace("torch 2.13.0+cpu", "torch")
        assert "Cómo se midieron" in text or "cada cifra" in text
        assert "2,52" in text  # the stored peak bandwidth, with a decimal comma
        warnings = [f"aviso: {w}" for w in report.warnings]  # the engine's warnings are recorded sentences
        for w in warnings:
            text = text.replace(w, "")
        assert_spanish(text, machine)
    for text in (render_markdown(report, comparison, "en"), render_table(report, comparison, "en")):
        assert "peak bandwidth" in text
        assert_english(text.replace(stored_name, "<device>"), machine)


# -- the core speaks in codes ------------------------------------------------------------------------------------

CORE = REPO / "tutor"
OUTSIDE_THE_CORE = (CORE / "ui", CORE / "i18n")
LANG_BRANCH = re.compile(r"""lang\s*==\s*['"]es['"]|['"]es['"]\s*==\s*lang""")


def _core_files() -> list[Path]:
    return [p for p in sorted(CORE.rglob("*.py")) if not any(p.is_relative_to(d) for d in OUTSIDE_THE_CORE)]


def test_the_core_has_no_language_branch() -> None:
    found = [f"{p.relative_to(REPO)}:{n}: {line.strip()}" for p in _core_files()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if LANG_BRANCH.search(line)]
    assert found == []


def test_the_core_back_translates_nothing() -> None:
    """No table of English patterns turned into Spanish: a ``re.compile`` next to Spanish text, or a module-level
    ``*_ES`` table, would be one."""
    found = []
    for path in _core_files():
        text = path.read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), 1):
            if re.search(r"^_?[A-Z_]+_ES\b\s*[:=]", line):
                found.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
            if "re.compile(" in line and re.search(r"[áéíóúñ¿¡]", line):
                found.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert found == []


def test_no_placeholder_shadows_the_renderers_arguments() -> None:
    """``t(key, lang, **fields)``: a placeholder named ``key`` or ``lang`` could never be filled."""
    import string

    from tutor.i18n.catalog import messages

    for catalog in (messages("en"), messages("es")):
        for key, text in catalog.items():
            names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
            assert not names & {"key", "lang"}, key
