"""Labs that teach from the result (issue 26 item 5): the learner's prediction next to what was measured, the
points that break the shape the lesson expects, the spread, and what other programs took of the machine.

Pure: reads a :class:`~tutor.progress.rows.LabResult` (typed), words nothing itself: each finding is a code with
figures (:class:`PointFlag`), and :func:`reading_lines` says them in the reader's language. The lab screen and
``tutor lab run`` show the same lines.

The shapes a sweep is expected to have:

- time grows with size: ``naive_vs_numpy`` (each series' ``time_s``) and ``gemm_sizes`` (2·N³ ÷ the rate): a
  bigger size that finished faster than a smaller one, by more than the noise, is flagged;
- ``working_set``: bandwidth does not rise with the working set (each level is slower than the one before): a
  bigger working set that moved data faster than a smaller one by more than the noise is flagged, and so is a
  point past the last-level cache above the measured roof's bandwidth;
- every point with a recorded spread (CV) above :data:`NOISY_CV` is flagged as noisy.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from tutor.content import Lab
from tutor.i18n import Lang, format_bytes, format_number, t
from tutor.progress.rows import LabPrediction, LabResult
from tutor.results import Interference, RooflineReference, SweepPoint
from tutor.untrusted import clean_line

#: A point whose own repeats spread more than this is flagged (the number exercises' full-marks tolerance).
NOISY_CV = 0.10
#: The smallest change between two points called a break of the shape (3 CVs when those are larger).
SHAPE_MARGIN = 0.10


@dataclass(frozen=True)
class PointFlag:
    """One point that breaks the expected shape: ``faster_when_bigger``, ``above_roof`` or ``noisy``."""

    code: str
    x: float
    series: str = "measured"
    figures: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class LabReading:
    """What the lab screen says under the plot."""

    predicted: float | None = None
    measured: float | None = None
    unit: str | None = None
    flags: tuple[PointFlag, ...] = ()
    spread: float | None = None
    """The largest CV among the points (None when they record none)."""
    interference: Interference | None = None
    dram_vs_roof: tuple[float, float, float, float] | None = None
    """For the working-set sweep: ``(x, gbs, roof_gbs, margin)`` of its largest point past the last-level cache
    against the machine's roof (the same copy kernel), or None."""
    roof: RooflineReference | None = None
    """The roof this run measured or was read against (its provisional stamp is part of the reading)."""

    @property
    def ratio(self) -> float | None:
        if self.predicted is None or self.measured is None or self.predicted <= 0 or self.measured <= 0:
            return None
        return self.measured / self.predicted


def figure_at(data: Any, path: str) -> float | None:
    """The number at a dotted ``path`` of a result's JSON; ``last`` names a list's last item
    (``points.last.gbs``)."""
    node = data
    for part in path.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and node and part == "last":
            node = node[-1]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    if isinstance(node, bool) or not isinstance(node, int | float) or not math.isfinite(node):
        return None
    return float(node)


def _margin(*cvs: float | None) -> float:
    noise = max((c for c in cvs if c is not None), default=0.0)
    return max(SHAPE_MARGIN, 3.0 * noise)


def _cv(point: SweepPoint) -> float | None:
    value = point.values.get("cv")
    if value is None and isinstance(point.values.get("time_s"), Mapping):
        value = point.values["time_s"].get("cv")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _seconds(sweep: str, point: SweepPoint) -> float | None:
    """How long the point's work took, where the sweep's expected shape is 'bigger takes longer'."""
    if sweep == "naive_vs_numpy":
        ts = point.values.get("time_s")
        value = ts.get("median", ts.get("min")) if isinstance(ts, Mapping) else ts
        return float(value) if isinstance(value, int | float) and value > 0 else None
    if sweep == "gemm_sizes" and point.x and point.y:
        return 2.0 * point.x ** 3 / (point.y * 1e9)
    return None


def shape_flags(sweep: str, points: tuple[SweepPoint, ...], *, roof_gbs: float | None = None,
                last_level_cache_bytes: float | None = None) -> list[PointFlag]:
    """The points of ``sweep`` that break its expected shape (see the module's docstring)."""
    flags: list[PointFlag] = []
    series: dict[str, list[SweepPoint]] = {}
    for p in points:
        if p.x is not None and not p.extrapolated:
            series.setdefault(p.series, []).append(p)
    for name, pts in series.items():
        pts.sort(key=lambda p: p.x or 0.0)
        for before, after in pairwise(pts):
            assert before.x is not None and after.x is not None
            if after.x <= before.x:
                continue
            margin = _margin(_cv(before), _cv(after))
            t0, t1 = _seconds(sweep, before), _seconds(sweep, after)
            if t0 is not None and t1 is not None and t1 < t0 / (1 + margin):
                flags.append(PointFlag("faster_when_bigger", after.x, name,
                                       {"smaller_x": before.x, "faster_by": t0 / t1}))
            if sweep == "working_set" and before.y and after.y and after.y > before.y * (1 + margin):
                flags.append(PointFlag("faster_when_bigger", after.x, name,
                                       {"smaller_x": before.x, "faster_by": after.y / before.y}))
        for p in pts:
            cv = _cv(p)
            if cv is not None and cv > NOISY_CV:
                flags.append(PointFlag("noisy", p.x or 0.0, name, {"cv": cv}))
            if sweep == "working_set" and roof_gbs and p.y and p.x and last_level_cache_bytes \
                    and p.x > last_level_cache_bytes and p.y > roof_gbs * (1 + _margin(cv)):
                flags.append(PointFlag("above_roof", p.x, name, {"gbs": p.y, "roof_gbs": roof_gbs}))
    return flags


def read_lab(lab: Lab, prediction: LabPrediction | None, result: LabResult) -> LabReading:
    """The reading of one lab run: the prediction against the figure it asked about (the lab's
    ``prediction_metric``), the shape flags, the spread and the interference."""
    m = result.measurement
    data = result.bench.to_json() if result.bench is not None else (
        m.to_json() if m is not None else (result.roofline.to_json() if result.roofline is not None else {}))
    measured = figure_at(data, lab.prediction_metric) if lab.prediction_metric else None
    predicted = prediction.value if prediction is not None else None
    flags: list[PointFlag] = []
    spread = None
    dram_vs_roof = None
    interference = m.interference if m is not None else None
    if m is not None and m.kind == "sweep" and m.points:
        roof = m.roofline
        caches = m.figures.get("caches")
        llc = caches.get("last_level") if isinstance(caches, Mapping) else None
        flags = shape_flags(m.name or "", m.points, roof_gbs=roof.peak_bandwidth_gbs if roof is not None else None,
                            last_level_cache_bytes=float(llc) if isinstance(llc, int | float) else None)
        cvs = [c for c in (_cv(p) for p in m.points) if c is not None]
        spread = max(cvs) if cvs else None
        past = [p for p in m.points if p.x and p.y and isinstance(llc, int | float) and p.x > llc]
        if m.name == "working_set" and roof is not None and past:
            last = max(past, key=lambda p: p.x or 0.0)
            assert last.x is not None and last.y is not None
            margin = _margin(_cv(last), roof.bandwidth_cv, 0.05)
            dram_vs_roof = (last.x, last.y, roof.peak_bandwidth_gbs, margin)
    roof_used = result.roofline or (m.roofline if m is not None else None)
    return LabReading(predicted=predicted, measured=measured, unit=lab.prediction_unit, flags=tuple(flags),
                      spread=spread, interference=interference, dram_vs_roof=dram_vs_roof, roof=roof_used)


def _x_text(sweep: str, x: float, lang: Lang) -> str:
    if sweep == "working_set":
        return format_bytes(x, lang)
    return f"N = {format_number(x, lang, ',.0f')}"


def _figure(value: float, lang: Lang) -> str:
    """Three significant digits, never in exponent form (1,703 not 1.7e+03)."""
    return format_number(value, lang, ",.0f" if abs(value) >= 100 else ".3g")


def series_text(series: str, lang: Lang) -> str:
    """A series as a reading or a legend names it: the engine's one-series default (``measured``) in the
    learner's words; a named series (``python``, ``numpy``, a kernel) as the plain name it is."""
    return t("lab.series.measured", lang) if series == "measured" else clean_line(series)


def reading_lines(reading: LabReading, sweep: str, lang: Lang) -> list[str]:
    """The reading in ``lang``: one line each (Markdown-safe plain text; numbers in the locale's format)."""
    from tutor.practice.roof_stamp import interference_text, provisional_text

    lines = []
    unit = clean_line(reading.unit or "")  # a pack's text: one line, no control characters
    if reading.predicted is not None and reading.measured is not None:
        ratio = reading.ratio
        lines.append(t("lab.read.vs", lang, predicted=_figure(reading.predicted, lang),
                       measured=_figure(reading.measured, lang), unit=unit,
                       ratio=format_number(ratio, lang, ".2f") if ratio is not None else "—"))
    elif reading.predicted is not None:
        lines.append(t("lab.read.no_figure", lang, predicted=_figure(reading.predicted, lang),
                       unit=unit))
    provisional = provisional_text(reading.roof, lang) if reading.roof is not None else None
    if provisional:
        lines.append(provisional)
    for flag in reading.flags:
        where = _x_text(sweep, flag.x, lang)
        series = series_text(flag.series, lang)
        if flag.code == "faster_when_bigger":
            lines.append(t("lab.read.faster_when_bigger", lang, where=where, series=series,
                           smaller=_x_text(sweep, flag.figures["smaller_x"], lang),
                           by=format_number(flag.figures["faster_by"], lang, ".2f")))
        elif flag.code == "above_roof":
            lines.append(t("lab.read.above_roof", lang, where=where,
                           gbs=format_number(flag.figures["gbs"], lang, ",.1f"),
                           roof=format_number(flag.figures["roof_gbs"], lang, ",.1f")))
        elif flag.code == "noisy":
            lines.append(t("lab.read.noisy", lang, where=where, series=series,
                           cv=format_number(flag.figures["cv"], lang, ".0%")))
    if reading.dram_vs_roof is not None:
        x, gbs, roof, margin = reading.dram_vs_roof
        lines.append(t("lab.read.vs_roof", lang, where=_x_text(sweep, x, lang), gbs=format_number(gbs, lang, ",.1f"),
                       roof=format_number(roof, lang, ",.1f"), ratio=format_number(gbs / roof, lang, ".2f")))
        if abs(math.log(gbs / roof)) > math.log1p(margin):
            lines.append(t("lab.read.vs_roof_apart", lang, margin=format_number(margin, lang, ".0%")))
    if reading.flags:
        lines.append(t("lab.read.rerun", lang))
    if reading.spread is not None:
        lines.append(t("lab.read.spread", lang, cv=format_number(reading.spread, lang, ".1%")))
    busy = interference_text(reading.interference, lang)
    if busy:
        lines.append(busy)
    return lines
