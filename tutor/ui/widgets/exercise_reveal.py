"""The exercise's reveal: the verdict, the measured figures with their spread, the roofline chart with the
workload's point and the learner's guess, and the explanation filled in with this run's numbers.

The screen builds the view (:func:`tutor.practice.reveal.build_reveal`) and calls :meth:`ExerciseReveal.show`; a
roof measured again (F5) is set through :meth:`ExerciseReveal.set_roof`. Every text from a pack or the engine is
shown as plain text.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import ScrollableContainer, Vertical
from textual.widgets import Button, Static

from tutor.i18n import Lang, t
from tutor.practice import Outcome
from tutor.practice.reveal import RevealView, describe_prediction
from tutor.results import RooflineReference
from tutor.ui.plain import PackMarkdown
from tutor.ui.widgets.roofline_chart import ZERO_INTENSITY_AT, RooflineChart, RooflinePoint
from tutor.untrusted import clean, clean_line

VERDICT_STYLES = {"correct": "green", "partly": "yellow", "wrong": "red", "inconclusive": "yellow"}


class ExerciseReveal(Vertical):
    """What the measurement said of the prediction (``id`` ``ex-reveal``; hidden until the first reveal)."""

    def compose(self) -> ComposeResult:
        yield Static(id="ex-verdict")
        yield Static(id="ex-figures")
        yield RooflineChart(id="ex-chart")
        yield PackMarkdown(id="ex-explanation")
        yield Button(id="ex-next", variant="primary")

    def render_texts(self, lang: Lang) -> None:
        self.query_one("#ex-next", Button).label = f"{t('ex.next_pending', lang)} (ctrl+n)"

    def show(self, outcome: Outcome, view: RevealView, lang: Lang, roof: RooflineReference | None = None) -> None:
        """Show ``view`` of ``outcome``; the chart draws ``roof`` when one was measured since, else the run's."""
        self.display = True
        # Text.assemble takes the parts as text (no markup); clean() takes out the control characters.
        verdict = Text.assemble((f"{clean_line(view.verdict_line.label)}: ", "bold"),
                                (clean_line(view.verdict_line.text), VERDICT_STYLES.get(view.verdict, "")))
        for f in view.fields:
            verdict.append("\n")
            verdict.append_text(Text.assemble((f"{clean_line(f.label)}: ", "bold"), clean(f.text)))
        for line in (view.feedback, view.reproduced):
            if line:
                verdict.append(f"\n{clean(line)}")
        self.query_one("#ex-verdict", Static).update(verdict)
        figures = Text()
        if view.measured_on is not None:
            figures = Text.assemble((f"{clean_line(view.measured_on.label)}: ", "bold"), clean(view.measured_on.text))
            for line in view.figures:
                figures.append(f"\n  {clean(line)}")
        self.query_one("#ex-figures", Static).update(figures)
        chart = self.query_one("#ex-chart", RooflineChart)
        m = outcome.measurement
        run_roof = m.roofline if m is not None else None
        chart.display = run_roof is not None
        if m is not None and run_roof is not None:
            chart.lang = lang
            chart.dtype = m.dtype
            chart.roofline = roof or run_roof
            chart.points = tuple(chart_points(outcome, lang))
            chart.guess_bandwidth = guessed_bandwidth(outcome, lang)
        self.query_one("#ex-explanation", PackMarkdown).update(f"### {view.explanation_title}\n\n{view.explanation}")

    def bring_into_view(self, page: ScrollableContainer, still_wanted: Callable[[], bool],
                        deadline: float | None = None) -> None:
        """Scroll ``page`` so the reveal starts at its top, once it has been laid out.

        After a refresh is not enough: a refresh that falls inside a batch update (the explanation's Markdown mounts
        its blocks under ``app.batch_update()`` across awaits) runs its callbacks with the layout skipped, so the
        reveal, hidden until now, had no size yet and the scroll to it did nothing (the verdict stayed below the
        fold at 80×24, order- and load-dependent). So look again every 20 ms (for up to 5 s) until the reveal has
        its size, then scroll."""
        if not self.display or not still_wanted():
            return
        deadline = time.monotonic() + 5.0 if deadline is None else deadline
        if self.size.height == 0 and time.monotonic() < deadline:
            again = partial(self.bring_into_view, page, still_wanted, deadline)
            self.set_timer(0.02, partial(self.call_after_refresh, again))
            return
        page.scroll_to_widget(self, top=True, animate=False, immediate=True)

    def set_roof(self, roof: RooflineReference) -> RooflineReference | None:
        """Draw ``roof`` (measured again); the roof drawn before."""
        chart = self.query_one("#ex-chart", RooflineChart)
        before = chart.roofline
        chart.roofline = roof
        return before


def chart_points(outcome: Outcome, lang: Lang) -> list[RooflinePoint]:
    """The workload's measured point and, where it can be placed, the learner's guess."""
    m = outcome.measurement
    points: list[RooflinePoint] = []
    if m is None or m.arithmetic_intensity is None or m.achieved_gflops is None:
        return points
    ai, gflops = m.arithmetic_intensity, m.achieved_gflops
    name = m.workload or "workload"
    points.append(RooflinePoint(f"{t('ex.your_workload', lang)}: {name}", ai, gflops, "orange"))
    p = outcome.prediction
    x = ai if ai > 0 else ZERO_INTENSITY_AT
    guess_y: float | None = None
    # A bound choice says which roof applies, not where a point sits (a "compute" guess drawn at the compute peak
    # landed above the memory roof), and a GB/s guess is a roof of its own (guessed_bandwidth): neither is a point.
    if p.value is not None and outcome.exercise.unit in ("GFLOP/s", "TFLOP/s"):
        guess_y = p.value * (1e3 if outcome.exercise.unit == "TFLOP/s" else 1.0)
    if guess_y is not None and guess_y > 0:
        label = f"{t('ex.your_guess', lang)}: {describe_prediction(outcome.exercise, p, outcome.exercise.unit, lang)}"
        points.append(RooflinePoint(label, x, guess_y, "magenta", "x"))
    return points


def guessed_bandwidth(outcome: Outcome, lang: Lang) -> tuple[float, str] | None:
    """A GB/s guess and its legend label, drawn by the chart as the roof it would make."""
    p = outcome.prediction
    if p.value is None or p.value <= 0 or outcome.exercise.unit != "GB/s":
        return None
    return p.value, f"{t('ex.your_guess', lang)}: {describe_prediction(outcome.exercise, p, 'GB/s', lang)}"
