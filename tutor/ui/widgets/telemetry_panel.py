"""The telemetry panel: this machine's GPU (or CPU and RAM) beside every lesson, with a history chart.

How the app wires it (attributes down, messages up):

* The app owns a :class:`TelemetryFeed` (made in ``start_telemetry``), which owns the
  :class:`~tutor.telemetry.Sampler`. The sampler thread posts :class:`TelemetryUpdated` to the app (thread-safe,
  and a newer one replaces an older one still queued); the app's handler calls ``feed.deliver(snapshot)``,
  which stores it as ``app.telemetry_snapshot`` and sets it on every :class:`TelemetryPanel` of the active
  screen (``panel.update_snapshot``). A panel mounted later picks up ``app.telemetry_snapshot`` at once.
* A panel posts :class:`TelemetryPanel.VisibilityChanged` to the app when it is shown or hidden (its column
  toggled, its screen covered or popped); the feed pauses the sampler while no panel is visible. Measurements
  use ``feed.sampler.recording()`` so their window is sampled even then.
* Enlarging: the panel adapts to its width — at 70 columns or more (the lesson screen's ``enlarged`` column)
  it shows per-core CPU, processes, notes and a ten-minute chart instead of five. ``toggle_enlarged()`` sets the
  ``-enlarged`` class on the panel itself for screens that have no column to widen.
"""

from __future__ import annotations

import time
from typing import Any

from textual import events
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static
from textual_plotext import PlotextPlot

from tutor.telemetry import (
    BackendSpecError,
    BackendStatus,
    DeviceInfo,
    DeviceSample,
    Sampler,
    TelemetryBackend,
    TelemetrySnapshot,
    open_backend,
)
from tutor.telemetry import format as fmt

WIDE_COLUMNS = 70
SPARK = "▁▂▃▄▅▆▇█"


class TelemetryUpdated(Message):
    """A new snapshot from the sampler thread, posted to the app. Only the newest one queued is kept."""

    def __init__(self, snapshot: TelemetrySnapshot) -> None:
        super().__init__()
        self.snapshot = snapshot

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, TelemetryUpdated)


def _bar(fraction: float | None, width: int) -> str:
    if fraction is None:
        return "·" * width
    full = round(fraction * width)
    return "█" * full + "░" * (width - full)


def _spark(values: tuple[Any, ...]) -> str:
    out = []
    for v in values:
        x = fmt.number(v)
        out.append("·" if x is None else SPARK[min(len(SPARK) - 1, max(0, int(x / 100 * len(SPARK))))])
    return "".join(out)


class TelemetryPanel(Vertical):
    """Live telemetry of this machine: per device, bars for utilization, memory and power, temperature and
    clocks, throttle reasons, and a history chart; a banner says which backend is live and why."""

    DEFAULT_CSS = """
    TelemetryPanel {
        width: 1fr;
        height: 1fr;
        padding: 0 1;
    }
    TelemetryPanel #telemetry-banner {
        height: auto;
        color: $text-muted;
        margin-bottom: 1;
    }
    TelemetryPanel.-replay #telemetry-banner {
        color: $text-warning;
        text-style: bold;
    }
    TelemetryPanel.-problem #telemetry-banner {
        color: $text-warning;
    }
    TelemetryPanel #telemetry-readings {
        height: auto;
    }
    TelemetryPanel #telemetry-chart {
        height: 1fr;
        min-height: 8;
    }
    TelemetryPanel.-enlarged #telemetry-chart {
        min-height: 16;
    }
    """

    snapshot: reactive[TelemetrySnapshot | None] = reactive(None, init=False, always_update=True)
    """The figures on show; set by the app (``update_snapshot``), never by the panel itself."""

    wide: reactive[bool] = reactive(False, init=False)
    """True when the panel has room (or was enlarged) for per-core CPU, processes, notes and a longer chart."""

    class VisibilityChanged(Message):
        """The panel was shown or hidden (posted to the app, which pauses sampling while none is visible)."""

        def __init__(self, panel: TelemetryPanel, visible: bool) -> None:
            super().__init__()
            self.panel = panel
            self.visible = visible

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._visible: bool | None = None

    def compose(self) -> ComposeResult:
        yield Static("Telemetry: waiting for the first sample…", id="telemetry-banner")
        yield Static("", id="telemetry-readings")
        yield PlotextPlot(id="telemetry-chart")

    def on_mount(self) -> None:
        latest = getattr(self.app, "telemetry_snapshot", None)
        if isinstance(latest, TelemetrySnapshot):
            self.update_snapshot(latest)

    # -- the API the app and screens use ------------------------------------------------------------------
    def update_snapshot(self, snapshot: TelemetrySnapshot) -> None:
        """Show ``snapshot`` (call on the UI thread)."""
        self.snapshot = snapshot

    def toggle(self) -> None:
        """Show or hide the panel."""
        self.display = not self.display

    def toggle_enlarged(self) -> None:
        """Switch the ``-enlarged`` class: the wide layout and a taller chart, whatever the width."""
        self.toggle_class("-enlarged")
        self._update_wide()

    @property
    def enlarged(self) -> bool:
        return self.has_class("-enlarged")

    # -- visibility and size ------------------------------------------------------------------------------
    def _tell_visibility(self, visible: bool) -> None:
        if visible != self._visible:
            self._visible = visible
            self.app.post_message(self.VisibilityChanged(self, visible))

    def on_show(self, _event: events.Show) -> None:
        self._tell_visibility(True)

    def on_hide(self, _event: events.Hide) -> None:
        self._tell_visibility(False)

    def on_unmount(self) -> None:
        self._tell_visibility(False)

    def on_resize(self, _event: events.Resize) -> None:
        self._update_wide()

    def _update_wide(self) -> None:
        self.wide = self.enlarged or self.size.width >= WIDE_COLUMNS

    def watch_wide(self) -> None:
        if self.snapshot is not None:
            self._render_snapshot(self.snapshot)

    def watch_snapshot(self, snapshot: TelemetrySnapshot | None) -> None:
        if snapshot is not None:
            self._render_snapshot(snapshot)

    # -- rendering ----------------------------------------------------------------------------------------
    def _render_snapshot(self, snap: TelemetrySnapshot) -> None:
        status = snap.status
        self.set_class(snap.is_replay, "-replay")
        self.set_class(not status.ok and status.code != "replay", "-problem")
        self.query_one("#telemetry-banner", Static).update(self.banner_text(status))
        self.query_one("#telemetry-readings", Static).update(self.readings_text(snap))
        self._plot(snap)

    def banner_text(self, status: BackendStatus) -> Content:
        label = "▶ REPLAY" if status.backend == "replay" else status.backend
        lines = [Content.assemble((label, "bold"), " · ", status.message)]
        if self.wide or status.code != "ok":
            lines += [Content(f"  {note}") for note in status.notes[: None if self.wide else 1]]
        return Content("\n").join(lines)

    def _bar_width(self) -> int:
        return max(6, min(30, (self.size.width or 48) - 28))

    def _row(self, label: str, fraction: float | None, value: str) -> str:
        return f"{label:<8}{_bar(fraction, self._bar_width())} {value}"

    def readings_text(self, snap: TelemetrySnapshot) -> Content:
        if not snap.devices:
            return Content("No devices to show." if snap.samples or snap.seq > 1 else "Reading the devices…")
        lines: list[str] = []
        for info in snap.devices:
            sample = snap.sample(info.id)
            lines += self._gpu_lines(info, sample) if info.kind == "gpu" else self._host_lines(info, sample)
            lines.append("")
        if any(d.kind == "gpu" for d in snap.devices):
            lines.append("busy: share of time any kernel ran (not SM occupancy)")
            lines.append("mem bus: share of time memory was read or written")
        return Content("\n".join(lines).rstrip("\n"))

    def _value(self, info: DeviceInfo, sample: DeviceSample | None, key: str) -> Any:
        if sample is None or not info.supports(key):
            return None
        return sample.get(key)

    def _gpu_lines(self, info: DeviceInfo, sample: DeviceSample | None) -> list[str]:
        arch = info.static.get("sm_arch")
        index = info.static.get("index", info.id.removeprefix("gpu"))
        head = f"GPU {index} · {info.name}" + (f" · {arch}" if arch else "")
        if info.static.get("mig"):
            head += " · MIG"
        if sample is not None and sample.state == "lost":
            return [head, "  LOST — no readings (the GPU needs a reset or a reboot)"]
        if sample is None:
            return [head, "  waiting for the first sample…"]

        def v(key: str) -> Any:
            return self._value(info, sample, key)

        util, bus = v("gpu_util_pct"), v("mem_bus_util_pct")
        used, total = v("mem_used_bytes"), v("mem_total_bytes") or info.static.get("mem_total_bytes")
        power, limit = v("power_w"), v("power_limit_w") or info.static.get("power_limit_w")
        lines = [
            head,
            self._row("busy", fmt.ratio(util, 100), fmt.pct(util)),
            self._row("mem bus", fmt.ratio(bus, 100), fmt.pct(bus)),
            self._row("VRAM", fmt.ratio(used, total), fmt.used_of(used, total)),
            self._row("power", fmt.ratio(power, limit), f"{fmt.watts(power)} / {fmt.watts(limit)}"),
            f"temp {fmt.celsius(v('temp_c'))} · SM {fmt.mhz(v('sm_clock_mhz'))}/{fmt.mhz(v('sm_clock_max_mhz'))} MHz"
            f" · mem {fmt.mhz(v('mem_clock_mhz'))}/{fmt.mhz(v('mem_clock_max_mhz'))} MHz",
        ]
        if v("pcie_tx_bytes_s") is not None or v("pcie_rx_bytes_s") is not None:
            lines.append(f"PCIe TX {fmt.rate(v('pcie_tx_bytes_s'))} · RX {fmt.rate(v('pcie_rx_bytes_s'))}")
        reasons = fmt.words(v("throttle"))
        if reasons:
            lines.append("clocks held by: " + ", ".join(reasons))
        procs = v("processes")
        if self.wide and isinstance(procs, tuple) and procs:
            lines.append("processes:")
            for pid, name, mem in procs[:4]:
                lines.append(f"  {name} ({pid}) {fmt.gib(mem)} GiB")
        if self.wide:
            lines += [f"note: {n}" for n in info.notes]
        return lines

    def _host_lines(self, info: DeviceInfo, sample: DeviceSample | None) -> list[str]:
        cores = info.static.get("cores_logical")
        head = f"CPU · {info.name}" + (f" · {cores} cores" if cores else "")
        if sample is None:
            return [head, "  waiting for the first sample…"]

        def v(key: str) -> Any:
            return self._value(info, sample, key)

        cpu = v("cpu_pct")
        ram, ram_total = v("ram_used_bytes"), v("ram_total_bytes")
        swap, swap_total = v("swap_used_bytes"), v("swap_total_bytes")
        lines = [head, self._row("CPU", fmt.ratio(cpu, 100), fmt.pct(cpu))]
        per_core = v("cpu_per_core_pct")
        if self.wide and isinstance(per_core, tuple) and per_core:
            lines.append(f"{'cores':<8}{_spark(per_core)}")
        lines.append(self._row("RAM", fmt.ratio(ram, ram_total), fmt.used_of(ram, ram_total)))
        load = " ".join(fmt.NA if v(k) is None else f"{v(k):.2f}" for k in ("load_1", "load_5", "load_15"))
        lines.append(f"swap {fmt.used_of(swap, swap_total)} · load {load}")
        return lines

    def _plot(self, snap: TelemetrySnapshot) -> None:
        chart = self.query_one("#telemetry-chart", PlotextPlot)
        plt = chart.plt
        plt.clear_data()
        plt.clear_figure()
        minutes = 10 if self.wide else 5
        now = snap.t or time.time()
        plotted = False
        series: list[tuple[str, str, str | None, str]] = []
        for info in snap.devices:
            if info.kind == "gpu":
                name = f"GPU{info.static.get('index', '')}"
                series.append((info.id, "gpu_util_pct", None, f"{name} busy"))
                if self.wide:
                    series.append((info.id, "mem_used_bytes", "mem_total_bytes", f"{name} VRAM"))
            else:
                series.append((info.id, "cpu_pct", None, "CPU"))
                if self.wide:
                    series.append((info.id, "ram_used_bytes", "ram_total_bytes", "RAM"))
        for device, metric, total_key, label in series:
            s = snap.series(device, metric)
            if s is None:
                continue
            dev_info = snap.device(device)
            total = fmt.number(dev_info.static.get(total_key)) if (dev_info and total_key) else None
            if total_key and total is None:
                latest = snap.sample(device)
                total = fmt.number(latest.get(total_key)) if latest else None
            xs, ys = [], []
            for t, value in zip(s.times, s.values, strict=True):
                if value is None or now - t > minutes * 60:
                    continue
                y = value if total_key is None else (100.0 * value / total if total else None)
                if y is None:
                    continue
                xs.append((t - now) / 60.0)
                ys.append(y)
            if xs:
                plt.plot(xs, ys, label=label, marker="braille")
                plotted = True
        plt.ylim(0, 100)
        plt.xlim(-minutes, 0)
        plt.xlabel("minutes ago")
        plt.title("% over the last minutes" + (" (replay)" if snap.is_replay else ""))
        if not plotted:
            plt.title("history: no samples yet")
        chart.refresh()


class TelemetryFeed:
    """The app's side of telemetry: owns the sampler, delivers snapshots to panels, pauses when none is visible.

    The app calls :meth:`start` from ``start_telemetry``, forwards :class:`TelemetryUpdated` to
    :meth:`deliver` and :class:`TelemetryPanel.VisibilityChanged` to :meth:`panel_visibility`, and calls
    :meth:`close` when it exits. ``sampler`` is ``None`` when telemetry is off or the spec was bad.
    """

    def __init__(self, app: App[Any], sampler: Sampler | None) -> None:
        self.app = app
        self.sampler = sampler
        self._visible: set[int] = set()

    @classmethod
    def start(cls, app: App[Any], spec: str | TelemetryBackend | None, interval: float = 1.0) -> TelemetryFeed:
        """Open ``spec`` (``auto``, ``nvml``, ``host``, ``replay:FILE``, a backend, or ``None`` for off) and start
        sampling on a background thread (the driver is first touched there, never on the UI thread)."""
        if spec is None:
            return cls(app, None)
        try:
            backend = spec if isinstance(spec, TelemetryBackend) else open_backend(spec)
        except BackendSpecError as exc:
            feed = cls(app, None)
            status = BackendStatus(backend="none", code="error", message=f"Telemetry is off: {exc}")
            snapshot = TelemetrySnapshot(
                t=time.time(), seq=1, interval=interval, status=status, devices=(), samples=()
            )
            feed.deliver(snapshot)
            return feed
        feed = cls(app, None)
        sampler = Sampler(backend, interval, on_snapshot=feed._from_thread)
        feed.sampler = sampler
        sampler.pause()  # until a panel is shown; the first probe still runs now, off the UI thread
        sampler.start()
        return feed

    def _from_thread(self, snapshot: TelemetrySnapshot) -> None:
        self.app.post_message(TelemetryUpdated(snapshot))

    def deliver(self, snapshot: TelemetrySnapshot) -> None:
        """On the UI thread: keep ``snapshot`` as ``app.telemetry_snapshot`` and show it on the active screen."""
        self.app.telemetry_snapshot = snapshot  # type: ignore[attr-defined]
        try:
            panels = list(self.app.screen.query(TelemetryPanel))
        except Exception:  # no screen yet, or shutting down
            return
        for panel in panels:
            panel.update_snapshot(snapshot)

    def panel_visibility(self, panel: TelemetryPanel, visible: bool) -> None:
        if visible:
            self._visible.add(id(panel))
        else:
            self._visible.discard(id(panel))
        if self.sampler is not None:
            if self._visible:
                self.sampler.resume()
            else:
                self.sampler.pause()

    def close(self) -> None:
        if self.sampler is not None:
            self.sampler.close()
