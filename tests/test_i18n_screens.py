"""The learner reads in Spanish: the telemetry panel, the exercise reveal and the lab's results follow ``app.lang``
(toggled with Pilot), while the core and the CLI keep their English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import Input, Static

from tests.support.exercise import app_for, fake_measure, open_exercise
from tests.support.pilot import wait_for
from tests.support.telemetry import TRACE, PanelApp, shown
from tutor.i18n.message import Message
from tutor.progress.notebook import summarise_result
from tutor.progress.rows import LabResult
from tutor.results import BenchReport
from tutor.telemetry import BackendStatus
from tutor.telemetry.host import HostBackend
from tutor.telemetry.nvml import _INIT_FAILURES, _WSL_NOTE
from tutor.ui.screens.lab import bench_markdown
from tutor.ui.widgets.telemetry_panel import TelemetryPanel, status_message, throttle_word


class LangPanelApp(PanelApp):
    """The panel's test app, with the language the tutor's app has."""

    lang: reactive[str] = reactive("en")


async def test_panel_switches_to_spanish_and_back() -> None:
    app = LangPanelApp(f"replay:{TRACE}")
    async with app.run_test(size=(120, 50)) as pilot:
        # the first replayed sample is drawn (the device's header alone comes before it: "waiting for the first sample")
        await wait_for(pilot, lambda: "GPU 0" in shown(app) and "power" in shown(app))
        english = shown(app)
        app.lang = "es"
        await wait_for(pilot, lambda: "potencia" in shown(app) and "(grabación)" in shown(app))
        spanish = shown(app)
        chart = app.query_one(TelemetryPanel).query_one("#telemetry-chart")
        chart_title = chart.plt._active.monitor.title  # type: ignore[attr-defined]
        app.lang = "en"
        await wait_for(pilot, lambda: "busy" in shown(app) and "(grabación)" not in shown(app))
        back = shown(app)
    assert app.feed is not None
    app.feed.close()
    assert "▶ REPLAY · Replay of rtx5090_gemm_synthetic.jsonl (nvml)" in english and "busy" in english
    assert "▶ REPLAY (grabación) · Replay de rtx5090_gemm_synthetic.jsonl (nvml) — cifras grabadas, no de esta " \
           "máquina" in spanish
    assert "activa" in spanish and "potencia" in spanish and "bus mem" in spanish
    assert "busy" not in spanish and "power" not in spanish
    assert "en los últimos minutos" in str(chart_title)
    assert back.splitlines()[0] == english.splitlines()[0] and "busy" in back and "activa" not in back


async def test_panel_without_a_lang_app_stays_english() -> None:
    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            with Vertical():
                yield TelemetryPanel()

    app = Bare()
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        banner = str(app.query_one("#telemetry-banner", Static).render())
    assert banner == "Telemetry: waiting for the first sample…"


async def test_host_panel_in_spanish() -> None:
    app = LangPanelApp("host")
    app.lang = "es"
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for(pilot, lambda: "carga" in shown(app))  # the first sample is drawn
        text = shown(app)
    assert app.feed is not None
    app.feed.close()
    assert "CPU y RAM de esta máquina (psutil)" in text and "carga" in text


def test_every_nvml_failure_has_a_spanish_banner_and_note() -> None:
    """The core hands the panel catalog messages; each failure reads in Spanish, and the English stays for the
    CLI (``status.message``)."""
    for code, name in _INIT_FAILURES.values():
        gpu = BackendStatus(backend="nvml", code=code, said=Message(f"tel.reason.{name}"),
                            noted=(Message(f"tel.note.{name}"),))
        status = HostBackend(fallback=gpu).probe()
        es = status_message(status, "es")
        assert es.startswith("Sin GPU NVIDIA (") and gpu.message not in es, es
        assert status_message(status, "en") == status.message == f"No NVIDIA GPU ({gpu.message}) — showing CPU and RAM"
        assert status.note_texts("es") != status.notes
    assert _WSL_NOTE.render("es").startswith("WSL2: NVML viene")
    assert Message.of("tel.note.mig", name="GPU 0").render("es").startswith("MIG está activado en GPU 0")
    lost = BackendStatus(backend="nvml+host", code="gpu_lost", said=Message.of(
        "tel.status.with_host", status=Message.of("tel.status.gpu_lost", names="GPU 0")))
    assert lost.message == "GPU 0 lost (NVML: GPU is lost) — it needs a reset or a reboot; host CPU and RAM"
    assert status_message(lost, "es").endswith("reiniciar el equipo; CPU y RAM del equipo")
    odd = BackendStatus(backend="nvml", code="error",
                        said=Message.of("tel.status.nvml_failed", error="weird driver text"))
    assert status_message(odd, "es") == "NVML no pudo arrancar (weird driver text)"
    unknown = BackendStatus(backend="nvml", code="error", said=Message.verbatim("something nobody wrote down"))
    assert status_message(unknown, "es") == "something nobody wrote down"  # the detail is kept
    assert throttle_word("software power cap", "es") == "límite de potencia por software"
    assert throttle_word("other (0x400)", "es") == "otro (0x400)"
    assert throttle_word("other (0x400)", "en") == "other (0x400)"


def test_a_status_survives_a_trace_round_trip_as_codes() -> None:
    status = HostBackend(fallback=BackendStatus(backend="nvml", code="no_devices", said=Message(
        "tel.reason.no_devices"))).probe()
    back = BackendStatus.from_dict(status.as_dict())
    assert back == status and back.text("es").startswith("Sin GPU NVIDIA (NVML no encontró")
    older = BackendStatus.from_dict({"backend": "nvml", "code": "ok", "message": "stubbed NVML", "notes": ["n"]})
    assert older.text("es") == "stubbed NVML" and older.notes == ("n",)  # a recorded sentence is shown as recorded


async def test_reveal_follows_the_language(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await open_exercise(app, pilot, "t-copy-bound", fake_measure)
        screen.query_one("#choice-memory").value = True  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("ctrl+l", "ctrl+r")
        await wait_for(pilot, lambda: screen.state == "revealed")
        english = str(screen.query_one("#ex-verdict", Static).render())
        await pilot.press("f2")  # the app's language key (l would go to a focused input)
        await pilot.pause()
        assert app.lang == "es"
        verdict = str(screen.query_one("#ex-verdict", Static).render())
        figures = str(screen.query_one("#ex-figures", Static).render())
        panel = "\n".join(str(screen.query_one(f"#telemetry-{p}", Static).render()) for p in ("banner", "readings"))
    assert "Memory-bound (bandwidth)" in english and "measured on Test CPU" in english
    assert "Tu predicción: Limitado por memoria (ancho de banda)" in verdict
    assert "medido en Test CPU (cpu): intensidad aritmética frente al punto de cresta medido" in verdict
    assert "mediana" in figures and "9 ejecuciones" in figures and "del techo de ancho de banda" in figures
    assert "roofline medido: 32,0 GB/s, punto de cresta 5 FLOP/byte" in figures and "32.0" not in figures
    assert "ficha técnica (Some GPU)" in figures and "GB/s (mejor)" in figures
    assert "CPU y RAM de esta máquina" in panel


async def test_number_reveal_in_spanish(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    app.lang = "es"
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await open_exercise(app, pilot, "t-copy-gbs", fake_measure)
        screen.query_one("#ex-number", Input).value = "18"
        await pilot.press("ctrl+l", "ctrl+r")
        await wait_for(pilot, lambda: screen.state == "revealed")
        verdict = str(screen.query_one("#ex-verdict", Static).render())
    assert "medido en Test CPU" in verdict and "measured on" not in verdict


def test_bench_and_vram_results_in_spanish() -> None:
    report: dict[str, Any] = {
        "kind": "bench", "schema": "gpu-tutor/bench/v1", "mode": "quick",
        "device": {"kind": "cpu", "name": "X", "fingerprint": "f"},
        "env": {"torch": "2.13", "cuda": None, "python": "3.12", "torch_threads": 4}, "duration_s": 3.0,
        "headline": {"peak_bandwidth_gbs": 30.1, "peak_flops_tflops": {"float32": 0.15}, "mfu": 0.42},
        "cv": {"peak_bandwidth_gbs": 0.01},
        "comparison": {"agree": True, "tolerance": 0.05,
                       "figures": [{"key": "peak_bandwidth_gbs", "ratio": 1.01, "agree": True}]},
        "notes": ["ridge point: fp32 matmul peak ÷ peak bandwidth"],
    }
    bench = BenchReport.from_json(report)
    es = bench_markdown(bench, "es")
    assert "| ancho de banda pico | 30,1 | GB/s | 1,0 % | ×1,010 coincide (±5,0 %) |" in es
    assert "| pico de matmul float32 | 150 | GFLOP/s |" in es
    assert "las dos pasadas coinciden dentro del 5 % (cada cifra dentro de máx(5 %, 2·√(CV₁² + CV₂²))" in es
    assert "Cómo se midieron" in es
    assert "peak bandwidth |" in bench_markdown(bench, "en")
    assert "| ancho de banda pico | 30,1 | GB/s | 1,0 % |" in summarise_result(LabResult.of(bench), "es")  # same table
    vram = {"kind": "vram", "display": "tiny", "mode": "inference", "dtype": "float16", "batch": 1, "seq_len": 128,
            "total_gb": 1.5, "label": "measured", "capacity_gb": 24, "fits": True,
            "peak_allocated_bytes": 1.2e9, "total_bytes": 1.5e9, "measured_over_formula": 1.1}
    text = summarise_result(LabResult.from_json(vram), "es")
    assert "**cabe**" in text and "| parte | GB |" in text and "| medido: pico asignado |" in text
    assert "Medido ÷ fórmula" in text
    assert "| part | GB |" in summarise_result(LabResult.from_json(vram), "en")
