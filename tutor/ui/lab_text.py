"""The lab screen's words and series that are not a widget's: a bench report as the lab shows it, a series'
legend, the final series of a sweep, why a run did not finish."""

from __future__ import annotations

import time

from tutor.content import Lab
from tutor.i18n import Lang, t
from tutor.practice.failures import Failure
from tutor.practice.lab_checks import series_text
from tutor.practice.labs import LabPrediction
from tutor.practice.roof_stamp import roof_stamp
from tutor.progress.notebook import sweep_points
from tutor.progress.rows import LabResult, LabRun
from tutor.results import BenchReport, RooflineReference, SweepPoint
from tutor.ui.widgets.lab_plot import LabPlot, PlotSeries
from tutor.untrusted import clean_line


def failure_text(failure: Failure, lang: Lang) -> str:
    """Why the run did not finish, for the status line (a class server's refusal comes worded already)."""
    return failure.detail if failure.code == "store" else failure.text(lang)


def bench_markdown(bench: BenchReport, lang: Lang) -> str:
    """A ``tutor bench`` report as the lab shows it: the engine's Markdown report in the learner's language,
    without its H1."""
    from tutor.measure.bench_report import render_markdown

    return render_markdown(bench, bench.comparison, lang, title=False)


def series_label(point: SweepPoint, sweep: str, lang: Lang) -> str:
    """A series' legend in ``lang``, worded from the point's own fields (its sweep, its ``series`` figure, whether
    it is extrapolated), never from the engine's English name for it."""
    base = point.values.get("series")
    if sweep == "naive_vs_numpy":
        key = "lab.series.extrapolated" if point.extrapolated else "lab.series.measured_of"
        return t(key, lang, series=clean_line(str(base or "python")))
    if sweep == "roofline_points":
        return t("lab.series.kernels", lang)
    return series_text(str(base) if base else "measured", lang)


def plot_series_of(result: LabResult, lang: Lang = "en") -> list[PlotSeries]:
    """The final series of a sweep result, in the shape :class:`LabPlot` draws."""
    series: dict[str, PlotSeries] = {}
    sweep = result.measurement.name or "" if result.measurement is not None else ""
    kind = "scatter" if sweep == "roofline_points" else "line"
    for p in sweep_points(result):
        label = series_label(p, sweep, lang)
        s = series.setdefault(label, PlotSeries(label, extrapolated=p.extrapolated, kind=kind))
        s.points.append(p.at())
        s.names.append(p.name)
    return list(series.values())


def goal_markdown(lab: Lab, lang: Lang) -> str:
    """The lab's title, goal and procedure (pack text, shown as Markdown that runs nothing)."""
    parts = [f"## {clean_line(lab.title.get(lang))}", f"**{t('lab.goal', lang)}:** {lab.goal.get(lang)}"]
    if lab.procedure is not None:
        parts.append(lab.procedure.get(lang))
    return "\n\n".join(parts)


def axis_label(lab: Lab, axis: str, lang: Lang) -> str:
    """The plot's ``x`` or ``y`` axis name in the learner's language (the roofline lab's are the roofline_points
    sweep's)."""
    from tutor.measure.registry import SWEEPS

    run = lab.run
    name = run.name if run.op == "sweep" else "roofline_points"
    key = f"plot.axis.{name}.{axis}"
    worded = t(key, lang)
    if worded != key:
        return worded
    sweep = SWEEPS.get(name or "")  # a sweep the catalog does not word yet: the registry's own name
    return (sweep.x_label if axis == "x" else sweep.y_label) if sweep else ""


def cache_levels(lang: Lang) -> dict[str, int]:
    """This machine's cache sizes to mark on a working-set plot from the start (sysfs only, no torch); a fake
    tree (``TUTOR_SYSFS_ROOT``) is never drawn as the learner's caches."""
    from tutor.measure.device import cache_sizes

    caches = cache_sizes()
    levels = dict(caches["levels"])
    if caches.get("simulated"):
        levels = {t("lab.plot.simulated_level", lang, level=k): v for k, v in levels.items()}
    return levels


def set_roofs(plot: LabPlot, roof: RooflineReference, lab: Lab, lang: Lang) -> None:
    """Draw ``roof`` on the plot, at the lab's dtype, with its stamp (when and how it was measured)."""
    plot.set_roofs(peak_bandwidth_gbs=roof.peak_bandwidth_gbs,
                   peak_gflops=roof.peak_for(str(lab.run.params.get("dtype", "float32"))),
                   label=t("lab.plot.roofline", lang), stamp=roof_stamp(roof, lang) or "")


def result_markdown(lab: Lab, prediction: LabPrediction | None, result: LabResult, lang: Lang) -> str:
    """The result as the lab reads it: the figures (a bench run's report), then the prediction next to the figure
    it asked about, the points that break the expected shape, the spread and the load."""
    from tutor.practice.lab_checks import read_lab, reading_lines
    from tutor.progress.notebook import summarise_result

    body = bench_markdown(result.bench, lang) if result.bench is not None else summarise_result(result, lang)
    reading = reading_lines(read_lab(lab, prediction, result), lab.run.name or "", lang)
    if reading:
        body += "\n\n" + "\n".join(f"- {line}" for line in reading)
    return f"### {t('lab.result', lang)}\n\n{body}"


def history_line(last: LabRun, runs: int, lang: Lang) -> str:
    """The lab reopened: when it last ran, how many runs it has, and the prediction the last one was measured
    against."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(last.created_at))
    shown = last.prediction.text if last.prediction is not None else None
    return t("lab.history", lang, when=when, n=runs, prediction=str(shown or "—"))
