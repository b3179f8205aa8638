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

import re
import time
from typing import Any, Protocol, runtime_checkable

from textual import events
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static
from textual_plotext import PlotextPlot

from tutor.i18n import Lang, format_number, t
from tutor.i18n.message import Message as MessageCode
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
from tutor.untrusted import clean, clean_line

WIDE_COLUMNS = 70
COMPACT_ROWS = 5
"""At this height or less (the narrow layout's strip) the panel shows one summary line and a sparkline."""
SPARK = "▁▂▃▄▅▆▇█"


def status_message(status: BackendStatus, lang: Lang) -> str:
    """The banner's sentence for ``status`` in ``lang``: the core gives catalog messages, never English to parse.
    Replay stays labelled as replay in every language."""
    return status.text(lang)


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


def throttle_word(reason: str, lang: Lang) -> str:
    """A throttle reason (NVML's decoder's word, the metric's value) in ``lang``; an unknown bit, ``other
    (0x…)``, keeps its value."""
    if reason.startswith("other (") and reason.endswith(")"):
        return t("tel.throttle.other", lang, bits=reason.removeprefix("other (")[:-1])
    key = "tel.throttle." + re.sub(r"[^a-z]+", "_", reason.lower()).strip("_")
    text = t(key, lang)
    return reason if text == key else text


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
    TelemetryPanel #telemetry-stale {
        height: auto;
        display: none;
        color: $text-error;
        text-style: bold;
    }
    TelemetryPanel.-stale #telemetry-stale {
        display: block;
    }
    TelemetryPanel.-stale #telemetry-readings {
        opacity: 60%;
    }
    TelemetryPanel #telemetry-lease {
        height: auto;
        color: $text-warning;
        text-style: bold;
    }
    TelemetryPanel #telemetry-chart {
        height: 1fr;
        min-height: 8;
    }
    TelemetryPanel.-enlarged #telemetry-chart {
        min-height: 16;
    }
    TelemetryPanel.-compact {
        padding: 0 1;
    }
    TelemetryPanel.-compact #telemetry-banner, TelemetryPanel.-compact #telemetry-chart,
    TelemetryPanel.-compact #telemetry-lease {
        display: none;
    }
    """

    snapshot: reactive[TelemetrySnapshot | None] = reactive(None, init=False, always_update=True)
    """The figures on show; set by the app (``update_snapshot``), never by the panel itself."""

    lease_holder: reactive[str | None] = reactive(None, init=False)
    """In a class: the learner measuring on this device now (another learner's lease), else None."""

    wide: reactive[bool] = reactive(False, init=False)
    """True when the panel has room (or was enlarged) for per-core CPU, processes, notes and a longer chart."""

    compact: reactive[bool] = reactive(False, init=False)
    """True when the panel is a strip (the narrow layout): one line per device with a sparkline, no chart."""


    class VisibilityChanged(Message):
        """The panel was shown or hidden (posted to the app, which pauses sampling while none is visible)."""

        def __init__(self, panel: TelemetryPanel, visible: bool) -> None:
            super().__init__()
            self.panel = panel
            self.visible = visible

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._visible: bool | None = None

    @property
    def host(self) -> TelemetryHost | None:
        """The app, when it is one the panel can read (the tutor's); None in an app without telemetry (a demo)."""
        app = self.app
        return app if isinstance(app, TelemetryHost) else None

    @property
    def lang(self) -> Lang:
        """The app's language; English in an app that has none."""
        host = self.host
        return "es" if host is not None and host.lang == "es" else "en"

    def compose(self) -> ComposeResult:
        yield Static(t("tel.waiting_banner", self.lang), id="telemetry-banner")
        yield Static("", id="telemetry-stale")
        yield Static("", id="telemetry-lease")
        yield Static("", id="telemetry-readings")
        yield PlotextPlot(id="telemetry-chart")

    def on_mount(self) -> None:
        host = self.host
        if host is not None:
            self.watch(self.app, "lang", self._lang_changed, init=False)
            if host.telemetry_snapshot is not None:
                self.update_snapshot(host.telemetry_snapshot)
            self.lease_holder = host.lease_holder
        self._show_lease()
        # no new snapshot is news too: while a driver call blocks, the readings on show age into stale ones
        self.set_interval(0.5, self._on_tick)

    def _on_tick(self) -> None:
        self._show_staleness()
        self._repair_missed_show()

    def _repair_missed_show(self) -> None:
        """Say "visible" when the panel is on the current screen but its Show event never came.

        Textual sends Show from a full layout pass only; a container shown again while a scroll-only refresh runs
        can put the panel back on screen without one (seen under load), which would leave the sampler paused for
        good. A missed Hide only costs samples nobody sees, so only the missed Show is repaired."""
        if self._visible is True or not self.display:
            return
        try:
            on_screen = self.screen.is_current and self.is_on_screen
        except Exception:  # being unmounted
            return
        if on_screen:
            self._tell_visibility(True)

    def _show_staleness(self) -> None:
        """Mark the readings stale (older than two sampling intervals) and say how old, in the learner's
        language; clear the mark once fresh readings come."""
        snap = self.snapshot
        stale = snap is not None and snap.is_stale()
        self.set_class(stale, "-stale")
        if stale and snap is not None:
            self.query_one("#telemetry-stale", Static).update(
                t(stale_key(snap.backend), self.lang, age=format_number(snap.age(), self.lang, ".0f")))

    @property
    def stale(self) -> bool:
        """Whether the panel shows its readings as stale now."""
        return self.has_class("-stale")

    def watch_lease_holder(self) -> None:
        self._show_lease()

    def _show_lease(self) -> None:
        from tutor.progress.lease import holder_text

        lease = self.query_one("#telemetry-lease", Static)
        holder = self.lease_holder
        lease.display = holder is not None
        lease.update(Content(holder_text(holder, self.lang)) if holder else "")

    def _lang_changed(self) -> None:
        self._show_lease()
        if self.snapshot is not None:
            self._render_snapshot(self.snapshot)
        else:
            self.query_one("#telemetry-banner", Static).update(t("tel.waiting_banner", self.lang))

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
        self.compact = 0 < self.size.height <= COMPACT_ROWS

    def watch_compact(self, compact: bool) -> None:
        self.set_class(compact, "-compact")
        if self.snapshot is not None:
            self._render_snapshot(self.snapshot)

    def watch_wide(self) -> None:
        if self.snapshot is not None:
            self._render_snapshot(self.snapshot)

    def watch_snapshot(self, snapshot: TelemetrySnapshot | None) -> None:
        if snapshot is not None:
            self._render_snapshot(snapshot)

    # -- rendering ----------------------------------------------------------------------------------------
    def _render_snapshot(self, snap: TelemetrySnapshot) -> None:
        if not self.query("#telemetry-banner"):
            return  # not composed yet (a screen being pushed) or going away: on_mount shows the newest snapshot
        status = snap.status
        self.set_class(snap.is_replay, "-replay")
        self.set_class(not status.ok and status.code != "replay", "-problem")
        self.query_one("#telemetry-banner", Static).update(self.banner_text(status))
        if self.compact:
            self.query_one("#telemetry-readings", Static).update(self.strip_text(snap))
            self._show_staleness()
            return
        self.query_one("#telemetry-readings", Static).update(self.readings_text(snap))
        self._show_staleness()
        self._plot(snap)

    def strip_text(self, snap: TelemetrySnapshot) -> Content:
        """The compact strip: per device its name, utilization (or CPU), memory and a sparkline of the last
        minutes; the replay label stays visible, and the last line says how to expand."""
        lang = self.lang
        na = t("tel.na", lang)
        width = max(20, self.size.width or 78)
        lines: list[str] = []
        replay = t("tel.replay", lang) + " · " if snap.is_replay else ""
        for info in snap.devices:
            sample = snap.sample(info.id)
            if info.kind == "gpu":
                util_key, mem_key, total_key = "gpu_util_pct", "mem_used_bytes", "mem_total_bytes"
                name = f"GPU{info.static.get('index', '')} {info.name}"
                util_word = t("tel.busy", lang)
                mem_word = "VRAM"
            else:
                util_key, mem_key, total_key = "cpu_pct", "ram_used_bytes", "ram_total_bytes"
                name, util_word, mem_word = "CPU", "CPU", "RAM"
            util = self._value(info, sample, util_key)
            used = self._value(info, sample, mem_key)
            total = self._value(info, sample, total_key) or info.static.get(total_key)
            memory = fmt.used_of(used, total, na=na, lang=lang)
            head = f"{replay}{name} · {util_word} {fmt.pct(util, na=na, lang=lang)} · {mem_word} {memory}"
            history = snap.series(info.id, util_key)
            room = width - len(head) - 3
            spark = _spark(tuple(history.values[-room:])) if history is not None and room > 4 else ""
            lines.append(f"{head} · {spark}" if spark else head)
        if not lines:
            lines.append(status_message(snap.status, lang))
        rows = max(1, self.size.height or 2)
        if len(lines) < rows:
            lines.append(t("tel.expand_hint", lang))
        return Content("\n".join(lines[:rows]))

    def banner_text(self, status: BackendStatus) -> Content:
        lang = self.lang
        label = t("tel.replay", lang) if status.backend == "replay" else status.backend
        lines = [Content.assemble((clean_line(label), "bold"), " · ", clean(status_message(status, lang)))]
        if self.wide or status.code != "ok":
            lines += [Content(clean(f"  {note}")) for note in status.note_texts(lang)[: None if self.wide else 1]]
        return Content("\n").join(lines)

    def _bar_width(self) -> int:
        return max(6, min(30, (self.size.width or 48) - 28))

    def _row(self, label: str, fraction: float | None, value: str) -> str:
        # Eight columns hold the English labels; Spanish ``potencia`` needs one more to keep its gap.
        return f"{label:<{8 if self.lang == 'en' else 9}}{_bar(fraction, self._bar_width())} {value}"

    def readings_text(self, snap: TelemetrySnapshot) -> Content:
        lang = self.lang
        if not snap.devices:
            return Content(t("tel.no_devices" if snap.samples or snap.seq > 1 else "tel.reading", lang))
        lines: list[str] = []
        for info in snap.devices:
            sample = snap.sample(info.id)
            lines += self._gpu_lines(info, sample) if info.kind == "gpu" else self._host_lines(info, sample)
            lines.append("")
        if any(d.kind == "gpu" for d in snap.devices):
            lines.append(t("tel.busy_note", lang))
            lines.append(t("tel.mem_bus_note", lang))
        return Content(clean("\n".join(lines).rstrip("\n")))

    def _value(self, info: DeviceInfo, sample: DeviceSample | None, key: str) -> Any:
        if sample is None or not info.supports(key):
            return None
        return sample.get(key)

    def _gpu_lines(self, info: DeviceInfo, sample: DeviceSample | None) -> list[str]:
        lang = self.lang
        na = t("tel.na", lang)
        arch = info.static.get("sm_arch")
        index = info.static.get("index", info.id.removeprefix("gpu"))
        head = f"GPU {index} · {info.name}" + (f" · {arch}" if arch else "")
        if info.static.get("mig"):
            head += " · MIG"
        if sample is not None and sample.state == "lost":
            return [head, f"  {t('tel.lost', lang)}"]
        if sample is None:
            return [head, f"  {t('tel.waiting', lang)}"]

        def v(key: str) -> Any:
            return self._value(info, sample, key)

        util, bus = v("gpu_util_pct"), v("mem_bus_util_pct")
        used, total = v("mem_used_bytes"), v("mem_total_bytes") or info.static.get("mem_total_bytes")
        power, limit = v("power_w"), v("power_limit_w") or info.static.get("power_limit_w")
        def mhz(key: str) -> str:
            return fmt.mhz(v(key), na=na, lang=lang)

        lines = [
            head,
            self._row(t("tel.busy", lang), fmt.ratio(util, 100), fmt.pct(util, na=na, lang=lang)),
            self._row(t("tel.mem_bus", lang), fmt.ratio(bus, 100), fmt.pct(bus, na=na, lang=lang)),
            self._row("VRAM", fmt.ratio(used, total), fmt.used_of(used, total, na=na, lang=lang)),
            self._row(t("tel.power", lang), fmt.ratio(power, limit),
                      f"{fmt.watts(power, na=na, lang=lang)} / {fmt.watts(limit, na=na, lang=lang)}"),
            t("tel.clocks", lang, temp=fmt.celsius(v("temp_c"), na=na, lang=lang), sm=mhz("sm_clock_mhz"),
              sm_max=mhz("sm_clock_max_mhz"), mem=mhz("mem_clock_mhz"), mem_max=mhz("mem_clock_max_mhz")),
        ]
        if v("pcie_tx_bytes_s") is not None or v("pcie_rx_bytes_s") is not None:
            tx = fmt.rate(v("pcie_tx_bytes_s"), na=na, lang=lang)
            rx = fmt.rate(v("pcie_rx_bytes_s"), na=na, lang=lang)
            lines.append(f"PCIe TX {tx} · RX {rx}")
        reasons = fmt.words(v("throttle"))
        if reasons:
            lines.append(t("tel.clocks_held", lang) + ", ".join(throttle_word(r, lang) for r in reasons))
        procs = v("processes")
        if self.wide and isinstance(procs, tuple) and procs:
            lines.append(t("tel.processes", lang))
            for pid, name, mem in procs[:4]:
                lines.append(f"  {name} ({pid}) {fmt.size(mem, 'GiB', na=na, lang=lang)}")
        if self.wide and fmt.number(total) is not None:
            # the OS reports GiB, the course budgets GB (n0-l3): the same capacity in both, each named
            lines.append(t("tel.capacity", lang, gib=fmt.size(total, "GiB", lang=lang),
                           gb=fmt.size(total, "GB", lang=lang)))
        if self.wide:
            lines += [t("tel.note", lang, note=n) for n in info.note_texts(lang)]
        return lines

    def _host_lines(self, info: DeviceInfo, sample: DeviceSample | None) -> list[str]:
        lang = self.lang
        na = t("tel.na", lang)
        cores = info.static.get("cores_logical")
        head = f"CPU · {info.name}" + (f" · {cores} {t('tel.cores', lang)}" if cores else "")
        if sample is None:
            return [head, f"  {t('tel.waiting', lang)}"]

        def v(key: str) -> Any:
            return self._value(info, sample, key)

        cpu = v("cpu_pct")
        ram, ram_total = v("ram_used_bytes"), v("ram_total_bytes")
        swap, swap_total = v("swap_used_bytes"), v("swap_total_bytes")
        lines = [head, self._row("CPU", fmt.ratio(cpu, 100), fmt.pct(cpu, na=na, lang=lang))]
        per_core = v("cpu_per_core_pct")
        if self.wide and isinstance(per_core, tuple) and per_core:
            lines.append(f"{t('tel.cores', lang):<{8 if lang == 'en' else 9}}{_spark(per_core)}")
        lines.append(self._row("RAM", fmt.ratio(ram, ram_total), fmt.used_of(ram, ram_total, na=na, lang=lang)))
        if self.wide and fmt.number(ram_total) is not None:
            lines.append(t("tel.capacity", lang, gib=fmt.size(ram_total, "GiB", lang=lang),
                           gb=fmt.size(ram_total, "GB", lang=lang)))
        load = " ".join(fmt.load(v(k), na=na, lang=lang) for k in ("load_1", "load_5", "load_15"))
        lines.append(f"swap {fmt.used_of(swap, swap_total, na=na, lang=lang)} · {t('tel.load', lang)} {load}")
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
                series.append((info.id, "gpu_util_pct", None, f"{name} {t('tel.busy', self.lang)}"))
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
            for when, value in zip(s.times, s.values, strict=True):
                if value is None or now - when > minutes * 60:
                    continue
                y = value if total_key is None else (100.0 * value / total if total else None)
                if y is None:
                    continue
                xs.append((when - now) / 60.0)
                ys.append(y)
            if xs:
                plt.plot(xs, ys, label=label, marker="braille")
                plotted = True
        plt.ylim(0, 100)
        plt.xlim(-minutes, 0)
        # Whole numbers on both axes (plotext's own tick labels carry a decimal point in every language).
        plt.yticks([0.0, 25.0, 50.0, 75.0, 100.0], ["0", "25", "50", "75", "100"])
        step = 2 if minutes > 5 else 1
        xs_at = [float(x) for x in range(-minutes, 1, step)]
        plt.xticks(xs_at, [str(int(x)).replace("-", "−") for x in xs_at])
        lang = self.lang
        plt.xlabel(t("tel.minutes_ago", lang))
        plt.title(t("tel.chart_title", lang) + (t("tel.chart_replay", lang) if snap.is_replay else ""))
        if not plotted:
            plt.title(t("tel.chart_empty", lang))
        chart.refresh()


@runtime_checkable
class TelemetryHost(Protocol):
    """What a panel reads from the app it is in (:class:`~tutor.ui.app.TutorApp` has it): the language, the newest
    snapshot (panels mounted later show it at once) and, in a class, who else holds the device."""

    @property
    def lang(self) -> Lang: ...

    @property
    def telemetry_snapshot(self) -> TelemetrySnapshot | None: ...

    @property
    def lease_holder(self) -> str | None: ...


class TelemetryFeed:
    """The app's side of telemetry: owns the sampler, delivers snapshots to panels, pauses when none is visible.

    The app calls :meth:`start` from ``start_telemetry``, forwards :class:`TelemetryUpdated` to
    :meth:`deliver` and :class:`TelemetryPanel.VisibilityChanged` to :meth:`panel_visibility`, and calls
    :meth:`close` when it exits. ``sampler`` is ``None`` when telemetry is off or the spec was bad.
    """

    def __init__(self, app: App[Any], sampler: Sampler | None) -> None:
        self.app = app
        self.sampler = sampler
        self.latest: TelemetrySnapshot | None = None
        """The newest snapshot delivered (the app's ``telemetry_snapshot``)."""
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
            status = BackendStatus(backend="none", code="error",
                                   said=MessageCode.of("tel.status.off", error=exc.said))
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
        """On the UI thread: keep ``snapshot`` as :attr:`latest` and show it on the active screen."""
        self.latest = snapshot
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


def stale_key(backend: str) -> str:
    """Why readings can be old, said only of the backend that is live: a driver call that has not returned (NVML),
    a recorded trace with no newer sample, or a host sampler that has not run (a machine too busy to sample)."""
    if "nvml" in backend:
        return "tel.stale"
    return "tel.stale_replay" if backend.startswith("replay") else "tel.stale_host"
