"""The doctor in the TUI: runs ``tutor doctor`` off the UI thread and shows each check, what was seen and the fix.

Pushed from the L2 lab (``DoctorScreen(session)``). The doctor itself (which imports torch inside
``gather``) runs in a child process (:mod:`tutor.doctor.isolated`), waited for by a thread worker, so torch never
enters the UI process; leaving the screen cancels the worker, which kills the child.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Header, LoadingIndicator, Static
from textual.worker import Worker, WorkerState

from tutor import i18n
from tutor.doctor.isolated import run_doctor_isolated
from tutor.doctor.report import STATUS_MARKS, DoctorReport, LockMode
from tutor.i18n import Lang
from tutor.i18n.numbers import format_number
from tutor.practice.failures import Failure
from tutor.practice.session import DoctorRunner, Session
from tutor.ui.keys import bindings
from tutor.ui.messages import ProgressChanged
from tutor.ui.plain import plain
from tutor.ui.screens.base import TutorScreen, worker_cancel_event
from tutor.untrusted import clean, clean_line


def isolated_runner(lock_path: Path | None) -> DoctorRunner:
    """The real doctor, in a child process (torch never enters the UI process; a hung driver cannot hang the UI),
    stopped when the worker that calls it is cancelled."""
    def run(mode: LockMode) -> DoctorReport:
        return run_doctor_isolated(mode, lock_path, cancel=worker_cancel_event())

    return run


class DoctorScreen(TutorScreen[None]):
    """Runs the doctor when shown; ``r`` runs it again, ``w`` writes the environment lock, ``escape`` goes back.

    ``runner`` is what runs the doctor (tests pass one built on a fake view); by default the session's
    ``doctor``, else the real :func:`~tutor.doctor.run_doctor` against ``lock_path`` (default: the data
    dir's lock) in a child process. Each run is recorded in the session's store, as C0 evidence, and a
    :class:`ProgressChanged` is posted. A run that fails is the app's one notice.
    """

    CSS_PATH = "../styles/doctor.tcss"
    BINDINGS = bindings("back", "run", "write_lock", "lang_letter", back="app.pop_screen", run="rerun")

    def __init__(self, session: Session, *, runner: DoctorRunner | None = None, lock_path: Path | None = None) -> None:
        super().__init__(id="doctor")
        self.session = session
        self._runner = runner
        self._lock_path = lock_path
        self.report: DoctorReport | None = None
        """The last report shown (None while the first run is going)."""
        self.failure: Failure | None = None
        """Why the last run did not finish (None while one runs or after one finished)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Vertical(id="doctor-body"):
            yield Static(id="doctor-headline")
            yield LoadingIndicator(id="doctor-loading")
            yield VerticalScroll(id="doctor-checks")
            yield Static(id="doctor-summary")
            with Horizontal(id="doctor-buttons"):
                yield Button(id="doctor-rerun", variant="primary")
                yield Button(id="doctor-write-lock")
        yield Footer()

    def on_mount(self) -> None:
        self._label()
        self.action_rerun()

    def lang_changed(self, lang: Lang) -> None:
        self._label()
        if self.report is not None:
            self.call_later(self._show, self.report)

    def _label(self) -> None:
        lang = self.lang
        self.query_one("#doctor-rerun", Button).label = i18n.t("doctor.rerun", lang)
        self.query_one("#doctor-write-lock", Button).label = i18n.t("doctor.write_lock", lang)
        if self.report is None:
            failed = self.failure.text(lang) if self.failure is not None else None
            self.query_one("#doctor-headline", Static).update(plain(failed or i18n.t("doctor.running", lang)))
            self.query_one("#doctor-headline", Static).set_class(failed is not None, "-failed")

    # -- running ---------------------------------------------------------------------------------------------

    def binding_label(self, key_id: str, lang: Lang) -> str | None:
        return i18n.t("doctor.rerun", lang) if key_id == "run" else None

    def action_rerun(self) -> None:
        self._start("auto")

    def action_write_lock(self) -> None:
        self._start("write")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "doctor-rerun":
            self.action_rerun()
        elif event.button.id == "doctor-write-lock":
            self.action_write_lock()

    def _start(self, mode: LockMode) -> None:
        self.failure = None
        self._label()
        self.query_one("#doctor-loading").display = True
        for button in self.query(Button):
            button.disabled = True
        self._run(mode)

    @work(thread=True, exclusive=True, exit_on_error=False, group="doctor")
    def _run(self, mode: LockMode) -> DoctorReport:
        runner = self._runner or self.session.doctor or isolated_runner(self._lock_path)
        report = runner(mode)
        self.session.record_doctor_run(report)
        return report

    def _ready(self) -> None:
        self.query_one("#doctor-loading").display = False
        for button in self.query(Button):
            button.disabled = False

    def work_failed(self, worker: Worker[object], failure: Failure) -> None:
        if worker.group == "doctor":
            self.failure = failure  # the headline says why (the notice too); r runs it again
            self._ready()
            self._label()

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "doctor" or event.state != WorkerState.SUCCESS:
            return
        self._ready()
        report = event.worker.result
        if isinstance(report, DoctorReport):
            await self._show(report)
            if report.lock is not None and report.lock.written:
                self.notify(clean(i18n.t("doctor.lock_written", self.lang, path=report.lock.path)), timeout=5,
                            markup=False)
            self.post_message(ProgressChanged())

    # -- showing ---------------------------------------------------------------------------------------------

    async def _show(self, report: DoctorReport) -> None:
        self.report = report
        lang = self.lang
        self.query_one("#doctor-headline", Static).update(plain(report.headline(lang)))
        checks = self.query_one("#doctor-checks", VerticalScroll)
        await checks.remove_children()
        rows = []
        for c in report.checks:
            text = Text()
            text.append(f"{STATUS_MARKS[c.status]} {i18n.t(f'doctor.status.{c.status}', lang)} ", style="bold")
            text.append(f"{clean_line(c.id)}\n", style="bold")
            text.append(clean(c.seen_in(lang)))
            fix = c.fix_in(lang)
            if fix:
                text.append(f"\n→ {clean(fix)}", style="italic")
            if c.id == "lock" and report.lock is not None:
                for d in report.lock.differences:
                    text.append(f"\n  · {clean_line(d.describe_in(lang))}")
            rows.append(Static(text, classes=f"doctor-check -{c.status}", id=f"check-{c.id}"))
        await checks.mount_all(rows)
        counts = report.counts()
        key = "doctor.passed" if report.passed else "doctor.failed"
        summary = self.query_one("#doctor-summary", Static)
        words = {"fail": "count.failure", "warn": "count.warning", "ok": "count.ok", "skip": "count.skip"}
        counted = {k: i18n.tn(words[k], int(n), self.lang) if k in words else n for k, n in counts.items()}
        summary.update(plain(i18n.t(key, self.lang, seconds=format_number(report.seconds, self.lang, ".1f"),
                                       **counted)))
        summary.set_class(not report.passed, "-failed")
