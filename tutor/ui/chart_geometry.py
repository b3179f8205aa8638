"""Where things go on a terminal chart — pure functions, no drawing, so a test can say where each point lands.

* :func:`axis_range` — the range an axis must cover: every value given (the measured point *and* the guess), padded,
  on a log axis rounded out to whole decades.
* :func:`wants_log` — a log axis when the data spans two decades or more.
* :func:`log_ticks` / :func:`linear_ticks` — evenly spaced ticks (every decade, or every 2nd, 3rd… when there are
  too many), never more than the axis has room for.
* :func:`cell` — the column (or row) a value lands in on an axis of ``cells`` cells.
* :func:`spread_labels` — text labels on one row moved right (or dropped) so they never overlap.
* :func:`legend_rows` — the legend as rows of text that go outside the plot area.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from tutor.i18n.numbers import significant

LOG_DECADES = 2.0
"""Data spanning at least this many decades goes on a log axis."""


@dataclass(frozen=True)
class Axis:
    """An axis: its range, whether it is logarithmic, and its ticks."""

    lo: float
    hi: float
    log: bool
    ticks: tuple[float, ...] = ()

    def cell(self, value: float, cells: int) -> int:
        """The cell (0 … cells-1) ``value`` lands in."""
        return cell(value, self.lo, self.hi, cells, log=self.log)

    def contains(self, value: float) -> bool:
        return self.lo <= value <= self.hi

    def frac(self, value: float) -> float:
        """Where ``value`` sits from ``lo`` (0) to ``hi`` (1); NaN for a value a log axis cannot hold."""
        if self.log:
            if value <= 0 or self.lo <= 0 or self.hi <= self.lo:
                return math.nan
            return (math.log10(value) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo))
        return (value - self.lo) / (self.hi - self.lo) if self.hi > self.lo else 0.0


def _positive(values: Iterable[float | None]) -> list[float]:
    return [float(v) for v in values if v is not None and math.isfinite(v) and v > 0]


def _finite(values: Iterable[float | None]) -> list[float]:
    return [float(v) for v in values if v is not None and math.isfinite(v)]


def wants_log(values: Iterable[float | None], decades: float = LOG_DECADES) -> bool:
    """True when the positive ``values`` span ``decades`` decades or more (and none is zero or negative)."""
    vals = list(values)
    pos = _positive(vals)
    if len(pos) < 2 or len(pos) != len(_finite(vals)):
        return False
    return math.log10(max(pos) / min(pos)) >= decades


def axis_range(values: Iterable[float | None], *, log: bool, pad: float = 0.08) -> tuple[float, float]:
    """The range covering every value: on a log axis the enclosing decades (one more on a side where a value sits
    on the edge); on a linear axis the span padded by ``pad`` on both sides, from 0 when all values are positive
    and near it."""
    if log:
        pos = _positive(values)
        if not pos:
            return 0.1, 10.0
        lo_e = math.floor(math.log10(min(pos)))
        hi_e = math.ceil(math.log10(max(pos)))
        if hi_e == lo_e:
            hi_e += 1
        lo, hi = 10.0**lo_e, 10.0**hi_e
        # a value exactly on a decade is drawn on the frame: give it room
        if math.isclose(min(pos), lo):
            lo /= 10
        if math.isclose(max(pos), hi):
            hi *= 10
        return lo, hi
    vals = _finite(values)
    if not vals:
        return 0.0, 1.0
    lo, hi = min(vals), max(vals)
    if lo == hi:
        lo, hi = (lo - 1.0, hi + 1.0) if lo == 0 else (lo - abs(lo) * 0.5, hi + abs(hi) * 0.5)
    span = hi - lo
    lo, hi = lo - span * pad, hi + span * pad
    if min(vals) >= 0 and lo < 0:
        lo = 0.0
    return lo, hi


def log_ticks(lo: float, hi: float, max_ticks: int = 6) -> tuple[float, ...]:
    """Powers of ten within ``[lo, hi]``, every k-th decade so that at most ``max_ticks`` remain (even spacing)."""
    if lo <= 0 or hi <= lo:
        return ()
    first, last = math.ceil(math.log10(lo) - 1e-9), math.floor(math.log10(hi) + 1e-9)
    exps = list(range(first, last + 1))
    if not exps:
        return ()
    step = max(1, math.ceil(len(exps) / max(1, max_ticks)))
    return tuple(10.0**e for e in exps[::step])


def linear_ticks(lo: float, hi: float, max_ticks: int = 6) -> tuple[float, ...]:
    """Round ticks (1, 2 or 5 × 10^k apart) within ``[lo, hi]``, at most ``max_ticks``."""
    if hi <= lo:
        return ()
    raw = (hi - lo) / max(1, max_ticks - 1)
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    start = math.ceil(lo / step) * step
    ticks: list[float] = []
    v = start
    while v <= hi + step * 1e-9 and len(ticks) < max_ticks + 1:
        ticks.append(round(v, 12))
        v += step
    return tuple(ticks[:max_ticks])


def make_axis(values: Sequence[float | None], *, log: bool | None = None, max_ticks: int = 6) -> Axis:
    """An axis for ``values``: log when they span decades (unless told), its range and its ticks."""
    use_log = wants_log(values) if log is None else log
    lo, hi = axis_range(values, log=use_log)
    ticks = log_ticks(lo, hi, max_ticks) if use_log else linear_ticks(lo, hi, max_ticks)
    return Axis(lo, hi, use_log, ticks)


def cell(value: float, lo: float, hi: float, cells: int, *, log: bool = False) -> int:
    """The cell (0 … cells-1, left to right or bottom to top) where ``value`` lands on an axis from lo to hi."""
    if cells <= 1:
        return 0
    if log:
        if value <= 0 or lo <= 0 or hi <= lo:
            return 0
        frac = (math.log10(value) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))
    else:
        frac = (value - lo) / (hi - lo) if hi > lo else 0.0
    return max(0, min(cells - 1, round(frac * (cells - 1))))


def spread_labels(labels: Sequence[tuple[int, str]], width: int, gap: int = 1) -> list[tuple[int, str]]:
    """Labels ``(column, text)`` on one row placed so none overlaps: each starts at its column or just after the
    previous one; a label that no longer fits in ``width`` is shortened with … or dropped."""
    placed: list[tuple[int, str]] = []
    end = -gap
    for col, text in sorted(labels, key=lambda item: item[0]):
        start = max(col, end + gap)
        room = width - start
        if room <= 1:
            continue
        shown = text if len(text) <= room else text[: room - 1] + "…"
        placed.append((start, shown))
        end = start + len(shown)
    return placed


def label_rows(labels: Sequence[tuple[int, int, str]], width: int, gap: int = 1) -> list[tuple[int, int, str]]:
    """Labels ``(column, row, text)`` placed so none overlaps another on its row (see :func:`spread_labels`)."""
    by_row: dict[int, list[tuple[int, str]]] = {}
    for col, row, text in labels:
        by_row.setdefault(row, []).append((col, text))
    out = []
    for row, items in by_row.items():
        out += [(col, row, text) for col, text in spread_labels(items, width, gap)]
    return sorted(out, key=lambda item: (item[1], item[0]))


def legend_layout(widths: Sequence[int], width: int, gap: int = 3) -> list[list[int]]:
    """Which legend entries (by index, in order) share each row, for entries ``widths`` wide in ``width`` columns."""
    rows: list[list[int]] = []
    used = 0
    for i, w in enumerate(widths):
        if rows and used + gap + w <= width:
            rows[-1].append(i)
            used += gap + w
        else:
            rows.append([i])
            used = w
    return rows


def legend_rows(entries: Sequence[tuple[str, str]], width: int) -> list[str]:
    """The legend, outside the plot: ``(marker, label)`` entries packed into rows no wider than ``width`` (an entry
    longer than a row is cut with …)."""
    items = [f"{marker} {label}" for marker, label in entries]
    items = [item if len(item) <= width else item[: max(1, width - 1)] + "…" for item in items]
    return ["   ".join(items[i] for i in row) for row in legend_layout([len(item) for item in items], width)]


def short_number(v: float, lang: str = "en") -> str:
    """A tick label in ``lang``: plain between 0.01 and 99 999 (``0,1`` in Spanish, ``0.1`` in English; no
    grouping), else as a power of ten (``1e6``, no decimal separator in either language)."""
    if v == 0:
        return "0"
    if 1e-2 <= abs(v) < 1e5:
        return significant(v, lang, 6)
    return f"{v:.0e}".replace("e+0", "e").replace("e-0", "e-").replace("e+", "e")


@dataclass(frozen=True)
class Mark:
    """A marker to place: its character, where (in data units), its style and its legend label."""

    char: str
    x: float
    y: float
    style: str = ""
    label: str = ""


class Canvas:
    """A character grid with a style per cell: what a terminal chart is before it becomes Rich text."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = max(1, width), max(1, height)
        self.chars = [[" "] * self.width for _ in range(self.height)]
        self.styles = [[""] * self.width for _ in range(self.height)]

    def put(self, col: int, row: int, char: str, style: str = "") -> None:
        if 0 <= row < self.height and 0 <= col < self.width:
            self.chars[row][col] = char
            self.styles[row][col] = style

    def write(self, col: int, row: int, text: str, style: str = "") -> None:
        for i, ch in enumerate(text):
            self.put(col + i, row, ch, style)

    def char_at(self, col: int, row: int) -> str:
        return self.chars[row][col]

    def find(self, char: str) -> list[tuple[int, int]]:
        """Every (col, row) holding ``char``."""
        return [(c, r) for r in range(self.height) for c in range(self.width) if self.chars[r][c] == char]

    def rows(self) -> list[tuple[str, list[tuple[int, int, str]]]]:
        """Each row as its text and its styled spans ``(start, end, style)``."""
        out = []
        for chars, styles in zip(self.chars, self.styles, strict=True):
            spans: list[tuple[int, int, str]] = []
            for i, style in enumerate(styles):
                if not style:
                    continue
                if spans and spans[-1][1] == i and spans[-1][2] == style:
                    spans[-1] = (spans[-1][0], i + 1, style)
                else:
                    spans.append((i, i + 1, style))
            out.append(("".join(chars), spans))
        return out


@dataclass(frozen=True)
class PlotArea:
    """Where the plot area sits in the canvas: columns ``left``…``right`` and rows ``top``…``bottom`` inclusive
    (row ``top`` is the highest value), and the two axes mapped onto it."""

    left: int
    right: int
    top: int
    bottom: int
    x: Axis
    y: Axis

    def col(self, value: float) -> int:
        """The column ``value`` lands in: the cell holding the Braille dot a line through it draws (so a marker
        sits on its line)."""
        frac = self.x.frac(value)
        dots = (self.right - self.left + 1) * 2
        sub = round(max(0.0, min(1.0, frac if math.isfinite(frac) else 0.0)) * (dots - 1))
        return self.left + sub // 2

    def row(self, value: float) -> int:
        """The row ``value`` lands in (row ``top`` holds the highest value), as :meth:`col`."""
        frac = self.y.frac(value)
        dots = (self.bottom - self.top + 1) * 4
        sub = round((1.0 - max(0.0, min(1.0, frac if math.isfinite(frac) else 0.0))) * (dots - 1))
        return self.top + sub // 4

    def value_at_col(self, col: int) -> float:
        frac = (col - self.left) / max(1, self.right - self.left)
        if self.x.log:
            return float(10 ** (math.log10(self.x.lo) + frac * (math.log10(self.x.hi) - math.log10(self.x.lo))))
        return self.x.lo + frac * (self.x.hi - self.x.lo)


TickFormat = Callable[[float], str]


def plot_area(x: Axis, y: Axis, width: int, height: int, lang: str = "en", y_format: TickFormat | None = None,
              top: int = 1) -> PlotArea:
    """The plot area of a ``width``×``height`` chart: the y axis name on the row above it (``top`` rows are kept
    for it), the y tick labels (in ``lang``, or as ``y_format`` writes them) and the axis on the left, the x axis,
    its tick labels and its name on the three bottom rows."""
    fmt = y_format or (lambda v: short_number(v, lang))
    margin = max((len(fmt(t)) for t in y.ticks), default=1) + 1
    return PlotArea(left=margin + 1, right=width - 1, top=min(top, max(0, height - 6)),
                    bottom=max(1, height - 4), x=x, y=y)


def fit(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns: cut with an ellipsis (…) when it is longer, never silently."""
    if width <= 0:
        return ""
    return text if len(text) <= width else text[: width - 1] + "…"


def draw_axes(canvas: Canvas, area: PlotArea, x_name: str, y_name: str, style: str = "", lang: str = "en",
              x_format: TickFormat | None = None, y_format: TickFormat | None = None) -> None:
    """The frame: y ticks with labels on the left, x ticks with non-overlapping labels below (numbers written in
    ``lang``, or by ``x_format`` / ``y_format``), the x axis name centred under it and the y axis name whole on
    the row above the plot (cut with … only when the chart is narrower than the name)."""
    x_fmt = x_format or (lambda v: short_number(v, lang))
    y_fmt = y_format or (lambda v: short_number(v, lang))
    for row in range(area.top, area.bottom + 1):
        canvas.put(area.left - 1, row, "│", style)
    canvas.put(area.left - 1, area.bottom + 1, "└", style)
    for col in range(area.left, area.right + 1):
        canvas.put(col, area.bottom + 1, "─", style)
    for tick in area.y.ticks:
        row = area.row(tick)
        text = y_fmt(tick)
        canvas.write(area.left - 1 - len(text), row, text, style)
        canvas.put(area.left - 1, row, "┤", style)
    labels = []
    for tick in area.x.ticks:
        col = area.col(tick)
        canvas.put(col, area.bottom + 1, "┬", style)
        text = x_fmt(tick)
        labels.append((min(max(0, col - len(text) // 2), canvas.width - len(text)), text))
    for col, text in spread_labels(labels, canvas.width):
        canvas.write(col, area.bottom + 2, text, style)
    x_name = fit(x_name, canvas.width)
    canvas.write(max(0, (area.left + area.right - len(x_name)) // 2), area.bottom + 3, x_name, style)
    if area.top > 0:
        canvas.write(0, area.top - 1, fit(y_name, canvas.width), style)
    else:
        canvas.write(0, area.bottom + 3, fit(y_name, max(1, area.left - 1)), style)


# Braille: a cell holds 2 × 4 dots, so a line drawn in dots rises a quarter of a row at a time, not a whole row.
_BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
BRAILLE_EMPTY = 0x2800


def is_braille(char: str) -> bool:
    return len(char) == 1 and BRAILLE_EMPTY <= ord(char) <= BRAILLE_EMPTY + 0xFF


class Dots:
    """Lines drawn in Braille dots over a plot area (2 dots across and 4 down per cell): a slope-1 roof on log-log
    axes comes out a straight line, not a staircase of whole cells."""

    def __init__(self, area: PlotArea) -> None:
        self.area = area
        self.cols = (area.right - area.left + 1) * 2
        self.rows = (area.bottom - area.top + 1) * 4
        self.dots: set[tuple[int, int]] = set()

    def sub_x(self, value: float) -> float:
        return self.area.x.frac(value) * (self.cols - 1)

    def sub_y(self, value: float) -> float:
        return (1.0 - self.area.y.frac(value)) * (self.rows - 1)

    def set(self, sx: int, sy: int) -> None:
        if 0 <= sx < self.cols and 0 <= sy < self.rows:
            self.dots.add((sx, sy))

    def polyline(self, points: Sequence[tuple[float, float]], every: int = 1) -> None:
        """The segments joining ``points`` (data units), one dot per step of the longer side, so no gap opens on a
        steep segment; ``every`` > 1 draws a dotted line. Whatever falls outside the plot area is not drawn."""
        subs = [(self.sub_x(x), self.sub_y(y)) for x, y in points]
        subs = [(sx, sy) for sx, sy in subs if math.isfinite(sx) and math.isfinite(sy)]
        if len(subs) == 1:
            self.set(round(subs[0][0]), round(subs[0][1]))
        step = 0
        for (x0, y0), (x1, y1) in itertools.pairwise(subs):
            n = max(1, math.ceil(max(abs(x1 - x0), abs(y1 - y0))))
            for i in range(n + 1):
                if step % every == 0:
                    self.set(round(x0 + (x1 - x0) * i / n), round(y0 + (y1 - y0) * i / n))
                step += 1

    def cells(self) -> dict[tuple[int, int], str]:
        """The Braille character of every cell holding a dot, by (column, row) of the canvas."""
        bits: dict[tuple[int, int], int] = {}
        for sx, sy in self.dots:
            key = (self.area.left + sx // 2, self.area.top + sy // 4)
            bits[key] = bits.get(key, 0) | _BRAILLE_BITS[sy % 4][sx % 2]
        return {key: chr(BRAILLE_EMPTY | b) for key, b in bits.items()}

    def paint(self, canvas: Canvas, style: str) -> None:
        """Put the dots on ``canvas`` (merged with dots already there, never over a letter or a marker)."""
        for (col, row), char in self.cells().items():
            there = canvas.char_at(col, row) if 0 <= row < canvas.height and 0 <= col < canvas.width else " "
            if there == " ":
                canvas.put(col, row, char, style)
            elif is_braille(there):
                canvas.put(col, row, chr(ord(there) | ord(char)), style)


def roof_points(area: PlotArea, bandwidth: float, peak: float) -> list[tuple[float, float]]:
    """The roof min(peak, intensity × bandwidth) as three points: the left edge, the ridge, the right edge (on
    log-log axes both pieces are straight lines)."""
    ridge = peak / bandwidth
    pts = [(area.x.lo, min(peak, area.x.lo * bandwidth))]
    if area.x.lo < ridge < area.x.hi:
        pts.append((ridge, peak))
    pts.append((area.x.hi, min(peak, area.x.hi * bandwidth)))
    return pts


def draw_roof(canvas: Canvas, area: PlotArea, bandwidth: float, peak: float, style: str, every: int = 1) -> Dots:
    """The roof min(peak, intensity × bandwidth) in Braille dots: the memory roof a straight line of slope 1 (on
    log-log axes), the compute roof flat; ``every`` > 1 dots it. Returns the dots drawn (a test reads them)."""
    dots = Dots(area)
    dots.polyline(roof_points(area, bandwidth, peak), every)
    dots.paint(canvas, style)
    return dots


def draw_ridge(canvas: Canvas, area: PlotArea, ridge: float, peak: float, style: str) -> None:
    """A dotted vertical line from the x axis up to where the two roofs meet."""
    if not area.x.contains(ridge):
        return
    col, top = area.col(ridge), area.row(min(peak, area.y.hi))
    for row in range(top + 1, area.bottom + 1):
        if canvas.char_at(col, row) == " ":
            canvas.put(col, row, "┊", style)
