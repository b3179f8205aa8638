"""Memory sizes in the telemetry panel say their unit, and the unit is the one the figure was divided by (issue 31
item 2). The course budgets in GB (10⁹ B, n0-l3 "¿32 GB de qué?"); the OS and the driver report GiB (2³⁰ B). An
H200 reports 143,771 MiB: 140.4 GiB, 150.8 GB. A GiB figure labelled GB (or the reverse) would tell a learner that
141.1 GB of weights does not fit.

Every size the panel shows (``x / y GiB``, ``x GiB``, ``x GB``) is read back and must be one of the snapshot's byte
counts divided by the scale of the unit written after it."""

from __future__ import annotations

import re
import sys

import pytest

from tests.fixtures.telemetry import fake_pynvml as fake
from tests.support.telemetry import PanelApp, shown
from tests.test_telemetry_panel import snapshots
from tutor.telemetry import AutoBackend, TelemetrySnapshot
from tutor.telemetry import format as fmt
from tutor.telemetry.host import HostBackend
from tutor.telemetry.nvml import NvmlBackend
from tutor.ui.widgets.telemetry_panel import TelemetryPanel

SCALES = {"GiB": 2**30, "GB": 1e9}
_NUMBER = {"es": r"\d+(?:,\d)?", "en": r"\d+(?:\.\d)?"}


def _bytes_in(snap: TelemetrySnapshot) -> set[float]:
    """Every byte count the snapshot holds: each device's static totals, its latest sample's ``*_bytes`` figures
    and its processes' memory."""
    found: set[float] = set()
    for info in snap.devices:
        sample = snap.sample(info.id)
        values = dict(info.static) | (dict(sample.metrics) if sample is not None else {})
        for key, value in values.items():
            if key.endswith("_bytes") and isinstance(value, int | float) and not isinstance(value, bool):
                found.add(float(value))
        for proc in values.get("processes") or ():
            if isinstance(proc[2], int | float):
                found.add(float(proc[2]))
    return found


def sizes_shown(text: str, lang: str) -> list[tuple[str, str]]:
    """(number, unit) of every memory size in ``text``: both sides of ``x / y GiB`` and a lone ``x GB``."""
    n = _NUMBER[lang]
    out = []
    for m in re.finditer(rf"(?<![\d.,])({n})(?: / ({n}))? (GiB|GB)\b(?!/)", text):
        out += [(m.group(1), m.group(3))] + ([(m.group(2), m.group(3))] if m.group(2) else [])
    return out


def mislabelled(text: str, lang: str, known: set[float]) -> list[str]:
    wrong = []
    for number, unit in sizes_shown(text, lang):
        value = float(number.replace(",", "."))
        if not any(abs(b / SCALES[unit] - value) <= 0.05 for b in known):
            wrong.append(f"{number} {unit}")
    return wrong


async def _panel_text(monkeypatch: pytest.MonkeyPatch, lang: str) -> tuple[str, TelemetrySnapshot]:
    card = fake.h200()
    monkeypatch.setitem(sys.modules, "pynvml", fake.FakeNvml([card]).module())
    snap = snapshots(AutoBackend(NvmlBackend(wsl=False), HostBackend()))
    app = PanelApp()
    app.lang = lang
    async with app.run_test(size=(120, 50)) as pilot:
        panel = app.query_one(TelemetryPanel)
        panel.toggle_enlarged()
        panel.update_snapshot(snap)
        await pilot.pause()
        return shown(app), snap


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_every_size_the_panel_shows_is_in_the_unit_it_names(monkeypatch: pytest.MonkeyPatch,
                                                                  lang: str) -> None:
    text, snap = await _panel_text(monkeypatch, lang)
    sizes = sizes_shown(text, lang)
    assert ("140,4" if lang == "es" else "140.4", "GiB") in sizes  # the H200's 143,771 MiB
    assert ("150,8" if lang == "es" else "150.8", "GB") in sizes  # the same capacity in the course's GB
    assert ("96,0" if lang == "es" else "96.0", "GiB") in sizes  # a process's memory
    assert {u for _, u in sizes} == {"GiB", "GB"} and len(sizes) >= 8, sizes  # VRAM, RAM, swap, process, totals
    assert not mislabelled(text, lang, _bytes_in(snap)), (mislabelled(text, lang, _bytes_in(snap)), text)


async def test_a_gib_figure_labelled_gb_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself: the panel's text with one GiB total relabelled GB fails it, as the budget-vs-report
    confusion of the issue would."""
    text, snap = await _panel_text(monkeypatch, "en")
    planted = text.replace("/ 140.4 GiB", "/ 140.4 GB", 1)
    assert planted != text
    assert "140.4 GB" in mislabelled(planted, "en", _bytes_in(snap))
    assert "150.8 GiB" in mislabelled(text.replace("150.8 GB", "150.8 GiB"), "en", _bytes_in(snap))


def test_the_unit_decides_the_scale() -> None:
    """``used_of`` divides by the unit it writes: a caller asking for GB gets 10⁹-byte figures, never GiB ones."""
    h200 = 143_771 * 2**20
    assert fmt.used_of(97 * 2**30, h200, lang="en") == "97.0 / 140.4 GiB"
    assert fmt.used_of(97 * 2**30, h200, "GB", lang="es") == "104,2 / 150,8 GB"
    assert fmt.size(h200, "GB", lang="en") == "150.8 GB" and fmt.size(None, "GB") == "N/A"
    with pytest.raises(KeyError):
        fmt.size(h200, "TB")
