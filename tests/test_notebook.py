"""The Lab Notebook: entries filled from a run, Markdown rendering, the store round trip, `tutor notebook`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Stores
from tests.support.pilot import quiet, wait_for
from tutor import paths
from tutor.cli import main
from tutor.progress import ProgressStore
from tutor.progress.notebook import (
    SECTIONS,
    NotebookEntry,
    draft_entry,
    load_entries,
    render_entry,
    render_notebook,
    save_entry,
    summarise_result,
    sweep_point,
    sweep_points,
)
from tutor.progress.rows import LabPrediction, LabResult

GEMM_RESULT = {
    "kind": "sweep",
    "name": "gemm_sizes",
    "params": {"min_n": 32, "max_n": 128, "points": 2, "dtype": "float32"},
    "device": {"kind": "cpu", "name": "AMD EPYC 7B13", "fingerprint": "963f3e9669e8a66c"},
    "points": [
        {"n": 32, "gflops": 3.5, "time_s": 1.9e-5, "cv": 0.05, "arithmetic_intensity": 5.33},
        {"n": 128, "gflops": 41.2, "time_s": 1.0e-4, "cv": 0.02, "arithmetic_intensity": 21.3},
    ],
    "x": "n",
    "y": "gflops",
}

NAIVE_RESULT = {
    "kind": "sweep",
    "name": "naive_vs_numpy",
    "params": {"max_naive_n": 16, "max_n": 32},
    "device": {"kind": "cpu", "name": "AMD EPYC 7B13", "fingerprint": "963f3e9669e8a66c"},
    "points": [
        {"series": "python", "n": 16, "time_s": 4e-4, "gflops": 0.02, "extrapolated": False, "label": "measured"},
        {"series": "numpy", "n": 16, "time_s": 2e-6, "gflops": 4.0, "extrapolated": False, "label": "measured"},
        {"series": "python", "n": 32, "time_s": 3.2e-3, "gflops": 0.02, "extrapolated": True,
         "label": "extrapolated (∝ N³)"},
        {"series": "numpy", "n": 32, "time_s": 6e-6, "gflops": 11.0, "extrapolated": False, "label": "measured"},
    ],
    "speedup": {"16": 200.0, "32": 533.3},
    "x": "n",
    "y": "gflops",
}


def _entry(lang: str = "en") -> NotebookEntry:
    return draft_entry(
        lab_id="lab-gemm",
        lesson_id="lab-l1",
        title="Lab: GFLOP/s vs N",
        result=LabResult.from_json(GEMM_RESULT),
        lang=lang,  # type: ignore[arg-type]
        lab_run_id=7,
        prediction=LabPrediction(text="30", value=30.0, unit="GFLOP/s"),
        prediction_unit="GFLOP/s",
        prediction_question="How many GFLOP/s at N = 128?",
        hypothesis="Big matrices reuse the cache.",
        procedure="Sweep N from 32 to 128.",
        next_question="And in float64?",
    )


def test_draft_entry_is_filled_from_the_run() -> None:
    entry = _entry()
    assert entry.lab_run_id == 7
    assert entry.prediction == "How many GFLOP/s at N = 128?\n\n→ 30.0 GFLOP/s"
    assert "AMD EPYC 7B13 (cpu)" in entry.setup
    assert "`963f3e9669e8a66c`" in entry.setup
    assert "sweep gemm_sizes" in entry.setup and "max_n=128" in entry.setup
    assert "Best 41.2 GFLOP/s at N = 128." in entry.result
    assert "| 128 | 41.2 |" in entry.result
    assert entry.gap == ""  # the learner writes it
    assert entry.fingerprint == "963f3e9669e8a66c"


def test_markdown_of_one_entry_follows_the_template_in_both_languages() -> None:
    en = render_entry(_entry("en"), "en")
    headings = [line for line in en.splitlines() if line.startswith("### ")]
    assert headings == [
        "### Hypothesis",
        "### Prediction",
        "### Set-up",
        "### Procedure",
        "### Result",
        "### The gap and its explanation",
        "### Next question",
    ]
    assert en.startswith("## Lab: GFLOP/s vs N\n")
    assert "_(not written yet)_" in en  # the gap, not yet written
    es = render_entry(_entry("es"), "es")
    assert "### Hipótesis" in es and "### La diferencia y su explicación" in es and "_(sin escribir)_" in es


def test_markdown_of_the_whole_notebook() -> None:
    assert "No entries yet." in render_notebook([], "en")
    text = render_notebook([_entry(), _entry()], "en", title="My notebook")
    assert text.startswith("# My notebook\n")
    assert text.count("## Lab: GFLOP/s vs N") == 2
    assert "\n---\n" in text


def test_naive_vs_numpy_labels_the_extrapolation() -> None:
    naive = LabResult.from_json(NAIVE_RESULT)
    summary = summarise_result(naive, "en")
    assert "At N = 16 (both measured) numpy is 200× faster." in summary
    assert "extrapolated (∝ N³)" in summary
    series = {p.series for p in sweep_points(naive)}
    assert series == {"python (measured)", "numpy (measured)", "python (extrapolated ∝ N³)"}


def test_sweep_points_follow_each_sweeps_axes() -> None:
    assert sweep_point("working_set", {"working_set_bytes": 32768, "gbs": 80.0, "level": "L1"}) is not None
    p = sweep_point("roofline_points", {"name": "gemm", "params": {"n": 512}, "arithmetic_intensity": 85.3,
                                        "gflops": 90.0})
    assert p is not None and (p.x, p.y, p.name) == (85.3, 90.0, "gemm 512")
    assert sweep_point("gemm_sizes", {"n": 64}) is None  # no y yet


def test_bench_and_doctor_results_are_summarised() -> None:
    bench = {"schema": "gpu-tutor/bench/v1", "kind": "bench", "mode": "quick",
             "device": {"kind": "cpu", "name": "X", "fingerprint": "f"},
             "headline": {"peak_bandwidth_gbs": 30.1, "peak_flops_tflops": {"float32": 0.15}, "mfu": 0.42},
             "cv": {"peak_bandwidth_gbs": 0.01, "peak_flops_tflops": {"float32": 0.02}, "mfu": 0.03}}
    text = summarise_result(LabResult.from_json(bench), "en")
    assert "| peak bandwidth | 30.1 | GB/s | 1.0 % |" in text  # the table tutor bench and the lab show
    assert "| matmul peak float32 | 150 | GFLOP/s | 2.0 % |" in text
    assert "| MFU | 42.0 | % | 3.0 % |" in text
    doctor = {"schema": "gpu-tutor/doctor/v1", "passed": True, "headline": "No NVIDIA GPU found.",
              "checks": [{"id": "torch", "status": "ok", "seen": "torch 2.13.0+cpu", "fix": ""}],
              "fingerprint": {"id": "abc", "device_kind": "cpu", "device": "AMD EPYC"}}
    doctor_result = LabResult.from_json(doctor)
    text = summarise_result(doctor_result, "en")
    assert "✓ **torch**: torch 2.13.0+cpu" in text and "Doctor passed." in text
    entry = draft_entry(lab_id="l2", lesson_id="n0-l2", title="doctor", result=doctor_result, lang="en")
    assert "AMD EPYC (cpu)" in entry.setup and entry.fingerprint == "abc"


def test_round_trip_through_the_store(stores: Stores) -> None:
    store = stores.open()
    run_id = store.record_lab_run(lab_id="lab-gemm", lesson_id="lab-l1", result=LabResult.from_json(GEMM_RESULT),
                                  prediction=LabPrediction(text="30", value=30))
    entry = _entry()
    entry.lab_run_id = run_id
    entry_id = save_entry(store, entry)
    [stored] = load_entries(store)
    assert stored.id == entry_id
    assert stored.entry == entry

    edited = stored.entry.with_fields(gap="The GEMM at N=128 is too small to reach the peak.")
    assert save_entry(store, edited, entry_id) == entry_id
    [again] = load_entries(store)
    assert again.entry.gap.startswith("The GEMM at N=128")
    assert again.entry.result == entry.result  # evidence is untouched
    store.close()
    reopened = stores.open()
    assert load_entries(reopened)[0].entry == edited


def test_the_result_and_setup_are_not_the_learners_to_edit() -> None:
    with pytest.raises(ValueError, match="not a part the learner writes"):
        _entry().with_fields(result="made up")
    assert set(SECTIONS) >= {"setup", "result"}


def test_from_dict_tolerates_old_or_partial_entries() -> None:
    entry = NotebookEntry.from_dict({"hypothesis": None, "extra": 1}, lab_id="x", created_at=1.0)
    assert entry.lab_id == "x" and entry.hypothesis == "" and entry.created_at == 1.0


# -- the command line -----------------------------------------------------------------------------------------


def _file_two_entries() -> None:
    store = ProgressStore()
    first = _entry()
    first.lab_run_id = store.record_lab_run(lab_id="lab-gemm", lesson_id="lab-l1",
                                            result=LabResult.from_json(GEMM_RESULT))
    save_entry(store, first)
    other = _entry()
    other.lab_id, other.title, other.lab_run_id = "lab-ws", "Lab: bandwidth", None
    save_entry(store, other)
    store.close()


def test_cli_list_and_export_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["notebook", "list", "--lang", "en"]) == 0
    assert "empty" in capsys.readouterr().out
    assert main(["notebook", "list", "--lang", "es"]) == 0
    assert "vacío" in capsys.readouterr().out
    _file_two_entries()
    assert main(["notebook", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and "lab-gemm" in out[0] and "[AMD EPYC 7B13 (cpu)]" in out[0]

    target = tmp_path / "out" / "notebook.md"
    assert main(["notebook", "export", str(target), "--lang", "en"]) == 0
    assert capsys.readouterr().out.strip() == str(target)
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Lab Notebook") and "## Lab: bandwidth" in text and "### Result" in text


def test_cli_lists_a_damaged_entry_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    _file_two_entries()
    store = ProgressStore()
    with store.transaction() as conn:  # an entry another program wrote: not an object
        conn.execute("INSERT INTO notebook_entries (lab_id, entry, created_at, updated_at) VALUES (?, ?, ?, ?)",
                     ("lab-odd", "[1, 2]", 5.0, 5.0))
    store.close()
    assert main(["notebook", "list", "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 4 and "lab-odd" in out[2]
    assert out[3].strip() == "damaged, could not be read: notebook entry #3 entry: expected an object, got list"
    assert main(["notebook", "list", "--lang", "es"]) == 0
    assert "dañada, no se pudo leer: notebook entry #3" in capsys.readouterr().out
    # writing into it is refused: the row is kept as it is, not replaced by an entry of empty parts
    assert main(["notebook", "write", "3", "--gap", "mine", "--lang", "en"]) == 2
    assert "notebook entry 3 is damaged and is kept as it is (nothing written)" in capsys.readouterr().err
    store = ProgressStore()
    [damaged] = [e for e in store.notebook_entries() if e.id == 3]
    store.close()
    assert damaged.damaged is not None and damaged.entry.gap == ""


def test_cli_export_default_path_and_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    _file_two_entries()
    assert main(["notebook", "export"]) == 0
    printed = Path(capsys.readouterr().out.strip())
    assert printed.parent == paths.reports_dir() and printed.suffix == ".md" and printed.exists()

    assert main(["notebook", "export", "-", "--lab", "lab-ws", "--lang", "es"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# Cuaderno de laboratorio") and "Lab: bandwidth" in text and "lab-gemm" not in text


def test_cli_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _file_two_entries()
    assert main(["notebook", "export", "-", "--entry", "99", "--lang", "en"]) == 2
    assert capsys.readouterr().err.strip() == "tutor: error: no notebook entry with id 99 (see 'tutor notebook list')"
    assert main(["notebook", "export", str(tmp_path), "--lang", "en"]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert main(["notebook", "export", str(tmp_path), "--lang", "es"]) == 2
    assert "es una carpeta" in capsys.readouterr().err


def test_the_result_shows_the_telemetry_over_the_run() -> None:
    from tutor.progress.notebook import summarise_result

    result = {"kind": "roofline", "peak_bandwidth_gbs": 40.0, "device": {"kind": "cpu", "name": "AMD EPYC"},
              "telemetry": {"host": {"samples": 9, "kind": "host", "name": "AMD EPYC", "util_mean_pct": 96.0,
                                     "util_peak_pct": 100.0, "mem_peak_bytes": 3 * 2**30,
                                     "mem_total_bytes": 24 * 2**30, "power_mean_w": None}}}
    es = summarise_result(LabResult.from_json(result), "es")
    assert "Telemetría durante la ejecución:** AMD EPYC: CPU media 96 %, pico 100 % · RAM pico 3,0 de 24,0 GiB" in es
    assert "(9 muestras)" in es
    assert "peak RAM 3.0 of 24.0 GiB (9 samples)" in summarise_result(LabResult.from_json(result), "en")


# -- tutor notebook write: the learner's own parts, headless ---------------------------------------------------

OWN_GAP = ("Decode reads every weight once per token, so the fixed cost per step and the bandwidth the weights "
           "are read at explain most of the gap; the KV cache adds little at this context and the rest is noise.")


def test_cli_write_sets_only_the_parts_given(capsys: pytest.CaptureFixture[str]) -> None:
    _file_two_entries()
    before = {item.id: item.entry for item in load_entries(ProgressStore())}
    hostile = OWN_GAP + "\x1b]52;c;cHduZWQ=\x07\x1b[2J"
    assert main(["notebook", "write", "1", "--gap", hostile, "--next-question", "Y con batch 8?", "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    words = len(OWN_GAP.split())
    assert out == [f"Entry 1 (lab-gemm): «The gap and its explanation» written, {words} words.",
                   "Entry 1 (lab-gemm): «Next question» written, 4 words."]
    after = {item.id: item.entry for item in load_entries(ProgressStore())}
    assert after[1].gap == OWN_GAP.strip() + "]52;c;cHduZWQ=[2J"  # the escapes' control characters are gone
    assert "\x1b" not in after[1].gap and "\x07" not in after[1].gap
    assert after[1].next_question == "Y con batch 8?"
    # what the measurement wrote, and the other entry, are untouched
    assert (after[1].setup, after[1].result, after[1].hypothesis) == (
        before[1].setup, before[1].result, before[1].hypothesis)
    assert after[2] == before[2]


def test_cli_write_reads_a_part_from_stdin_in_spanish(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import io

    _file_two_entries()
    monkeypatch.setattr("sys.stdin", io.StringIO("mi hipótesis:\nla copia va a DRAM\n"))
    assert main(["notebook", "write", "2", "--hypothesis", "-", "--lang", "es"]) == 0
    assert capsys.readouterr().out.strip() == "Entrada 2 (lab-ws): «Hipótesis» escrita, 7 palabras."
    entry = {item.id: item.entry for item in load_entries(ProgressStore())}[2]
    assert entry.hypothesis == "mi hipótesis:\nla copia va a DRAM"


def test_cli_write_refuses_bad_input_and_stores_nothing(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from tutor.commands.notebook import PART_LIMIT_CHARS

    _file_two_entries()
    before = [item.entry for item in load_entries(ProgressStore())]
    assert main(["notebook", "write", "1", "--lang", "en"]) == 2
    assert "nothing to write" in capsys.readouterr().err
    assert main(["notebook", "write", "99", "--gap", "x", "--lang", "es"]) == 2
    assert capsys.readouterr().err.strip() == (
        "tutor: error: no hay ninguna entrada del cuaderno con id 99 (mira 'tutor notebook list')")
    monkeypatch.setattr("sys.stdin", io.StringIO("palabra " * PART_LIMIT_CHARS))
    assert main(["notebook", "write", "1", "--gap", "-", "--lang", "es"]) == 2
    from tutor.i18n.numbers import integer

    limit = integer(PART_LIMIT_CHARS, "es")
    said = capsys.readouterr().err.strip()
    assert said == f"tutor: error: La diferencia y su explicación: como mucho {limit} caracteres"
    assert [item.entry for item in load_entries(ProgressStore())] == before


def test_the_cli_parts_are_the_parts_the_learner_writes() -> None:
    from tutor.commands.notebook import LEARNER_PARTS
    from tutor.progress.notebook import LEARNER_FIELDS

    assert LEARNER_PARTS == LEARNER_FIELDS


def test_an_l4_explanation_written_headless_counts_for_c0(capsys: pytest.CaptureFixture[str]) -> None:
    from tutor.progress.c0 import EXPLANATION_MIN_WORDS, gap_condition

    store = ProgressStore()
    entry = _entry()
    entry.lab_id, entry.lesson_id, entry.lab_run_id = "n0-l4-lab-bench", "n0-l4", None
    entry_id = save_entry(store, entry)
    assert gap_condition([], notebook=store.notebook_entries()).refs["notebook_entry"] is None
    short = " ".join(["word"] * (EXPLANATION_MIN_WORDS - 1))
    assert main(["notebook", "write", str(entry_id), "--gap", short, "--lang", "en"]) == 0
    assert gap_condition([], notebook=store.notebook_entries()).refs["notebook_entry"] is None
    assert main(["notebook", "write", str(entry_id), "--gap", OWN_GAP, "--lang", "en"]) == 0
    assert gap_condition([], notebook=store.notebook_entries()).refs["notebook_entry"] == entry_id
    capsys.readouterr()
    store.close()


async def test_the_notebook_screen_marks_a_damaged_entry(tmp_path: Path) -> None:
    from tutor.content import load_course
    from tutor.ui.app import make_app
    from tutor.ui.screens.notebook import NotebookScreen

    store = ProgressStore(tmp_path / "p.sqlite3")
    good = _entry()
    good.lab_run_id = None  # filed without its run
    save_entry(store, good)
    with store.transaction() as conn:  # an entry another program wrote: not an object
        conn.execute("INSERT INTO notebook_entries (lab_id, entry, created_at, updated_at) VALUES (?, ?, ?, ?)",
                     ("lab-odd", "[1, 2]", 5.0, 5.0))
    app = make_app(course=load_course(Path(__file__).parent / "fixtures" / "exercise_course"), store=store,
                   lang="en", telemetry="host")  # type: ignore[arg-type]
    async with app.run_test(size=(160, 48)) as pilot:
        app.push_screen(NotebookScreen(app.session, entry_id=2))
        await wait_for(pilot, lambda: "lab-odd" in str(app.screen.query_one("#notebook-meta").render()))
        meta = str(app.screen.query_one("#notebook-meta").render())
        assert "lab-odd" in meta
        assert "damaged, could not be read: notebook entry #2 entry: expected an object, got list" in meta
        gap = app.screen.query_one("#field-gap")
        assert gap.read_only  # kept as it is: the learner cannot type over it, and ctrl+s writes nothing
        await pilot.press("ctrl+s")
        await quiet(pilot)  # the save, had it written anything, is done
        assert store.notebook_entries()[1].damaged is not None
        app.screen.query_one("#notebook-list").highlighted = 0  # the good entry: no such line
        await wait_for(pilot, lambda: "lab-odd" not in str(app.screen.query_one("#notebook-meta").render()))
        assert "damaged" not in str(app.screen.query_one("#notebook-meta").render())


# -- predict first: a locked prediction stays locked; later thoughts are dated notes -----------------------------


def test_cli_refuses_to_rewrite_a_locked_prediction(capsys: pytest.CaptureFixture[str]) -> None:
    _file_two_entries()
    before = [item.entry for item in load_entries(ProgressStore())]
    assert before[0].prediction_locked  # filed for a run: the measurement started
    assert main(["notebook", "write", "1", "--prediction", "40 GFLOP/s", "--gap", "x", "--lang", "en"]) == 2
    assert capsys.readouterr().err.strip() == (
        "tutor: error: the prediction of entry 1 was locked when its run started (predict first); add a later "
        "thought as a note: tutor notebook write 1 --note TEXT")
    assert main(["notebook", "write", "1", "--prediction", "40", "--lang", "es"]) == 2
    assert "quedó fijada al empezar su ejecución" in capsys.readouterr().err
    assert [item.entry for item in load_entries(ProgressStore())] == before  # nothing written, not even the gap


def test_cli_note_is_added_dated_beside_the_prediction(capsys: pytest.CaptureFixture[str]) -> None:
    _file_two_entries()
    assert main(["notebook", "write", "1", "--note", "Mirando el resultado: eran 41, no 30.", "--lang", "es"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("Entrada 1 (lab-gemm): nota añadida, con fecha 20")
    assert main(["notebook", "write", "1", "--note", "A second thought.", "--lang", "en"]) == 0
    capsys.readouterr()
    entry = load_entries(ProgressStore())[0].entry
    assert entry.prediction == "How many GFLOP/s at N = 128?\n\n→ 30.0 GFLOP/s"  # as locked
    assert [n.text for n in entry.notes] == ["Mirando el resultado: eran 41, no 30.", "A second thought."]
    assert entry.notes[0].at <= entry.notes[1].at
    md = render_entry(entry, "en")
    notes_at = md.index("### Notes added after the result")
    assert md.index("### Prediction") < notes_at < md.index("### Set-up")
    assert "** — A second thought." in md
    assert "Notas añadidas después del resultado" in render_entry(entry, "es")


def test_the_store_keeps_a_locked_prediction_and_the_notes(stores: Stores) -> None:
    from tutor.progress.notebook import PredictionLocked

    store = stores.open()
    entry = _entry()
    entry.lab_run_id = store.record_lab_run(lab_id="lab-gemm", lesson_id="lab-l1",
                                            result=LabResult.from_json(GEMM_RESULT))
    entry_id = save_entry(store, entry)
    with pytest.raises(PredictionLocked):
        entry.with_fields(prediction="41 GFLOP/s")
    rewritten = NotebookEntry.from_dict({**entry.to_dict(), "prediction": "41 GFLOP/s"})
    with pytest.raises(PredictionLocked):  # a writer that builds the entry by hand is refused by the store
        save_entry(store, rewritten, entry_id)
    noted = entry.with_note("later", at=1_800_000_000.0)
    save_entry(store, noted, entry_id)
    stored = store.notebook_entries()[0].entry
    assert stored.notes == noted.notes and stored.prediction == entry.prediction
    with pytest.raises(PredictionLocked):  # notes are append-only: none removed
        save_entry(store, entry, entry_id)
    assert store.notebook_entries()[0].entry.notes == noted.notes
    store.close()


async def test_the_notebook_screen_shows_the_prediction_locked_and_adds_a_note(tmp_path: Path) -> None:
    from textual.widgets import TextArea

    from tutor.content import load_course
    from tutor.ui.app import make_app
    from tutor.ui.screens.notebook import NotebookScreen

    store = ProgressStore(tmp_path / "p.sqlite3")
    entry = _entry()
    entry.lab_run_id = store.record_lab_run(lab_id="lab-gemm", lesson_id="lab-l1",
                                            result=LabResult.from_json(GEMM_RESULT))
    save_entry(store, entry)
    app = make_app(course=load_course(Path(__file__).parent / "fixtures" / "exercise_course"), store=store,
                   lang="es", telemetry="host")  # type: ignore[arg-type]
    async with app.run_test(size=(160, 48)) as pilot:
        app.push_screen(NotebookScreen(app.session, entry_id=1))
        await wait_for(pilot, lambda: bool(app.screen.query("#field-prediction")))
        await quiet(pilot)
        prediction = app.screen.query_one("#field-prediction", TextArea)
        assert prediction.read_only
        assert "Fijada al empezar la ejecución" in str(app.screen.query_one("#notebook-locked").render())
        prediction.focus()
        await pilot.press("4", "1")  # typing into the locked prediction changes nothing
        note = app.screen.query_one("#field-note", TextArea)
        note.focus()
        await pilot.press(*"eran 41")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(store.notebook_entries()[0].entry.notes))  # saved
        stored = store.notebook_entries()[0].entry
        assert stored.prediction == entry.prediction
        assert [n.text for n in stored.notes] == ["eran 41"]
        assert note.text == ""  # ready for the next note
        assert app.screen.query_one("#notebook-notes").display
