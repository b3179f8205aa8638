"""The progress screen: the C0 checklist with its evidence, per-lesson status, calibration and history.

It shows the same report as ``tutor progress`` (:func:`tutor.commands.progress.progress_report`). Reset of the
selected lesson (``r``), of the selected history row's exercise (``x``) or of everything (``R``) asks first.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, DataTable, Footer, Header, Static

from tutor.i18n import Lang, format_number, t, tn
from tutor.i18n.numbers import percent
from tutor.practice.reveal import verdict_word
from tutor.practice.session import Session
from tutor.progress.c0 import when
from tutor.progress.report import ProgressReport, damaged_lines
from tutor.ui.keys import bindings
from tutor.ui.messages import ProgressChanged
from tutor.ui.plain import plain, plain_text, styled
from tutor.ui.screens.base import TutorModal, TutorScreen
from tutor.untrusted import clean


def state_word(state: str, lang: Lang) -> str:
    """An attempt's state as the history table shows it (the store keeps the English ids; an unknown one shows as
    stored)."""
    key = f"progress.state.{state}"
    worded = t(key, lang)
    return state if worded == key else worded


def _pass_cell(score: float | None, attempt: int | None, lang: Lang) -> str:
    """One pass of one exercise: its score (in the learner's decimals) and the attempt it rests on, or nothing."""
    return "" if score is None else f"{format_number(score, lang, '.2f')} (#{attempt})"


class ConfirmReset(TutorModal[bool]):
    """Yes/no before anything is deleted."""

    BINDINGS = [Binding("escape", "dismiss(False)", t("key.cancel", "en"), id="cancel")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(plain(self.text), id="confirm-text")
            with Horizontal():
                yield Button(t("progress.yes", self.lang), id="confirm-yes", variant="error")
                yield Button(t("progress.no", self.lang), id="confirm-no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#confirm-no").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")


class ProgressScreen(TutorScreen[None]):
    """Where the learner stands: C0, lessons, calibration, history."""

    CSS_PATH = "../styles/progress.tcss"
    BINDINGS = bindings("back", "attempts", "reset_lesson", "reset_exercise", "reset_all", "lang_letter",
                        back="app.pop_screen")

    def __init__(self, session: Session) -> None:
        super().__init__(id="progress")
        self.session = session
        self.course = session.course
        self.report: ProgressReport | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with VerticalScroll(id="progress-body"):
            yield Static(id="progress-c0")
            yield Static(id="progress-unfinished")
            yield Static(id="progress-damaged")
            yield Static(id="progress-lessons-title", classes="section-title")
            yield DataTable(id="progress-lessons", cursor_type="row", zebra_stripes=True)
            yield Static(id="progress-exercises-title", classes="section-title")
            yield DataTable(id="progress-exercises", cursor_type="row", zebra_stripes=True)
            yield Static(id="progress-calibration")
            yield Static(id="progress-history-title", classes="section-title")
            yield DataTable(id="progress-history", cursor_type="row", zebra_stripes=True)
            yield Static(id="progress-store", classes="muted")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_report()
        # Open at the top (the C0 checklist first), the page itself focused so Home/PageUp/PageDown scroll it.
        body = self.query_one("#progress-body", VerticalScroll)
        body.focus()
        body.scroll_home(animate=False)

    def lang_changed(self, lang: Lang) -> None:
        self.refresh_report()

    def _show_unfinished(self) -> None:
        """Attempts locked and never measured (the tutor was killed mid-way): open the exercise to measure or
        discard one."""
        from tutor.practice.unfinished import describe

        box = self.query_one("#progress-unfinished", Static)
        try:
            left = self.session.all_unfinished()
        except Exception:
            left = []
        box.display = bool(left)
        if left:
            lines = [t("unfinished.title", self.lang)]
            lines += ["  " + describe(a, self.lang) for a in left]
            lines.append(t("unfinished.open_exercise", self.lang))
            box.update(plain("\n".join(lines)))

    def update_marks(self, _marks: Any) -> None:
        self.refresh_report()

    def refresh_report(self) -> None:
        self.report = self.session.progress_report()
        lang, rep = self.lang, self.report
        c0 = rep.c0
        head = "✓" if c0.passed else "·"
        lines = [styled("[b]$text[/b]", text=f"{head} {c0.name}")]
        if c0.cpu_only:
            lines.append(styled("[i]$text[/i]", text=t("progress.cpu", lang)))
        for cond in c0.conditions:
            mark = "[green]✓[/green]" if cond.passed else "[red]✗[/red]"
            lines.append(styled(f"{mark} $title", title=cond.title.render(lang)))
            lines.append(styled("    [dim]$evidence[/dim]", evidence=cond.evidence.render(lang)))
        self.query_one("#progress-c0", Static).update(Content("\n").join(lines))
        self._show_unfinished()
        damaged = self.query_one("#progress-damaged", Static)
        said = damaged_lines(rep.damaged, lang)
        damaged.display = bool(said)
        damaged.update(plain("\n".join(said)))
        self.query_one("#progress-lessons-title", Static).update(styled("[b]$t[/b]", t=t("progress.lessons", lang)))
        lessons = self.query_one("#progress-lessons", DataTable)
        lessons.clear(columns=True)
        lessons.add_columns(*t("progress.lesson_columns", lang).split("|"))
        exercises = self.query_one("#progress-exercises", DataTable)
        exercises.clear(columns=True)
        exercises.add_columns(*t("progress.exercise_columns", lang).split("|"))
        self.query_one("#progress-exercises-title", Static).update(f"[b]{t('progress.exercises', lang)}[/b]")
        for item in rep.lessons:
            n = len(item.exercises)
            lessons.add_row(plain_text(item.lesson_id), "✓" if item.passed else "·", f"{item.passed_count}/{n}",
                            f"{item.sections_read}/{item.sections_total}", f"{item.pass1_count}/{n}",
                            f"{item.pass2_count}/{n}", f"{item.reproduced_count}/{n}", key=item.lesson_id)
            for e in item.exercises:
                exercises.add_row(plain_text(e.exercise_id), plain_text(e.marks),
                                  _pass_cell(e.pass1_score, e.pass1_attempt, lang),
                                  _pass_cell(e.pass2_score, e.pass2_attempt, lang),
                                  t("progress.reproduced", lang) if e.reproduced else "", key=f"ex:{e.exercise_id}")
        cal = rep.calibration
        cal_lines = [styled("[b]$text[/b]", text=t("progress.calibration", lang))]
        if cal.n:
            cal_lines.append(plain(t("progress.brier", lang, brier=format_number(cal.brier or 0.0, lang, ".3f"),
                                     predictions=tn("count.prediction", cal.n, lang))))
            cal_lines.extend(plain(b.sentence(lang)) for b in cal.buckets)
        else:
            cal_lines.append(plain(t("progress.no_graded", lang)))
        self.query_one("#progress-calibration", Static).update(Content("\n").join(cal_lines))
        # where the learner's progress lives (a file, or the class server without secrets)
        where = self.session.store_where
        self.query_one("#progress-store", Static).update(plain(t("progress.stored_at", lang, where=where)))
        self.query_one("#progress-history-title", Static).update(styled("[b]$t[/b]", t=t("progress.history", lang)))
        history = self.query_one("#progress-history", DataTable)
        history.clear(columns=True)
        history.add_columns(*t("progress.history_columns", lang).split("|"))
        for h in rep.history:
            state = state_word(h.state, lang)
            verdict = verdict_word(h.verdict or "", lang)
            history.add_row(str(h.id), plain_text(when(h.created_at)), plain_text(h.exercise_id), str(h.pass_number),
                            plain_text(state), plain_text(verdict),
                            "" if h.score is None else format_number(h.score, lang, ".2f"),
                            percent(h.confidence * 100, lang),
                            str(h.hints_used), key=f"{h.id}:{h.exercise_id}")

    def _selected(self, table_id: str) -> str | None:
        table = self.query_one(table_id, DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return str(key) if key is not None else None

    def _confirm_reset(self, what: str, **kwargs: Any) -> None:
        session = self.session
        counts = session.reset_counts(**kwargs)
        summary = ", ".join(tn(f"store.table.{table}", int(n), self.lang) for table, n in counts.items())

        def done(yes: bool | None) -> None:
            if yes:
                session.reset(**kwargs)
                self.notify(clean(t("progress.deleted", self.lang, what=what)), markup=False)
                self.post_message(ProgressChanged())
                self.refresh_report()

        self.app.push_screen(ConfirmReset(t("progress.confirm", self.lang, what=what, summary=summary)), done)

    def action_reset_lesson(self) -> None:
        lesson = self._selected("#progress-lessons")
        if lesson:
            self._confirm_reset(t("progress.what_lesson", self.lang, id=lesson), lesson_id=lesson)

    def action_reset_exercise(self) -> None:
        row = self._selected("#progress-history")
        if row:
            exercise = row.split(":", 1)[1]
            self._confirm_reset(t("progress.what_exercise", self.lang, id=exercise), exercise_id=exercise)

    def action_reset_all(self) -> None:
        self._confirm_reset(t("progress.what_all", self.lang))
