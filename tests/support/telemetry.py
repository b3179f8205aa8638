"""A tiny app holding one telemetry panel fed by a backend, the recorded trace it replays, and the panel's text."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tutor.telemetry import TelemetrySnapshot
from tutor.ui.widgets.telemetry_panel import TelemetryFeed, TelemetryPanel, TelemetryUpdated

FIXTURES = Path(__file__).parents[1] / "fixtures" / "telemetry"
TRACE = FIXTURES / "rtx5090_gemm_synthetic.jsonl"




class PanelApp(App[None]):
    CSS = "#col { width: 52; }"

    def __init__(self, feed_spec: object = None) -> None:
        super().__init__()
        self.feed_spec = feed_spec
        self.telemetry_snapshot: TelemetrySnapshot | None = None  # what TelemetryHost asks of the app
        self.lang = "en"
        self.lease_holder: str | None = None
        self.feed: TelemetryFeed | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="col"):
            yield TelemetryPanel(id="panel")

    def on_mount(self) -> None:
        if self.feed_spec is not None:
            self.feed = TelemetryFeed.start(self, self.feed_spec, 0.25)  # type: ignore[arg-type]

    def on_telemetry_updated(self, message: TelemetryUpdated) -> None:
        if self.feed is not None:
            self.feed.deliver(message.snapshot)

    def on_telemetry_panel_visibility_changed(self, message: TelemetryPanel.VisibilityChanged) -> None:
        if self.feed is not None:
            self.feed.panel_visibility(message.panel, message.visible)


def shown(app: App[None]) -> str:
    panel = app.query_one(TelemetryPanel)
    return "\n".join(str(panel.query_one(f"#telemetry-{part}", Static).render()) for part in ("banner", "readings"))
