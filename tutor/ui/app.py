"""The GPU Tutor Textual app and the factory the CLI and the tests share.

This module must stay light: importing it never imports torch (measurements run in a worker process, see
``tutor.measure.worker``), so the first screen paints at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.worker import Worker, WorkerState, get_current_worker

from tutor.content import Course
from tutor.i18n import Lang, t
from tutor.practice.session import DoctorRunner, Session
from tutor.progress import StoreBase
from tutor.progress.place import Place
from tutor.telemetry import TelemetrySnapshot
from tutor.ui.course_source import CourseSource, merge
from tutor.ui.keys import bindings, translate_bindings
from tutor.ui.layout import BREAKPOINTS
from tutor.ui.marks import CourseMarks
from tutor.ui.messages import OpenExercise, OpenLab, OpenLesson, ProgressChanged, WorkFailed
from tutor.ui.palette import Command, CommandRegistry, LessonCommands
from tutor.ui.place import KEEP, screen_place
from tutor.ui.screens.course_map import CourseMapScreen
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.widgets.cut_text import ShowWhole
from tutor.ui.widgets.telemetry_panel import TelemetryFeed, TelemetryPanel, TelemetryUpdated
from tutor.untrusted import clean, clean_line

if TYPE_CHECKING:
    from tutor.measure.worker import MeasureWorker
    from tutor.ui.screens.login import LoginScreen

WORK_KINDS = ("exercise", "lab", "doctor", "course", "login", "roofline")
"""What a :class:`WorkFailed` notice can be about (its title); anything else is a background task."""

class TutorApp(App[None]):
    """The tutor: the course map first, lessons, exercises and labs pushed on top of it."""

    TITLE = "GPU Tutor"
    CSS_PATH = "styles/app.tcss"
    COMMANDS = App.COMMANDS | {LessonCommands}
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    BINDINGS = [
        Binding("ctrl+q", "quit", t("key.app.quit_all", "en"), show=False, priority=True, id="app.quit_all"),
        *bindings("help", "lang!", "notebook!", "class_report!", help="help", lang="toggle_lang",
                  notebook="open_notebook", class_report="open_class_report"),
    ]

    lang: reactive[Lang] = reactive[Lang]("es")
    """The language of the course and the UI; every screen watches it."""

    def __init__(
        self,
        *,
        course: Course | CourseSource,
        store: StoreBase | None,
        lang: Lang = "es",
        telemetry: Any = "auto",
        telemetry_interval: float = 1.0,
        login: Callable[[str, str], StoreBase] | None = None,
        measure_worker: MeasureWorker | None = None,
        doctor: DoctorRunner | None = None,
        resume: bool = True,
    ) -> None:
        super().__init__()
        # A CourseSource is loaded by a worker after the map has drawn; until then the map shows what has loaded.
        self.course_source = course if isinstance(course, CourseSource) else None
        self.course = Course(root=course.root) if isinstance(course, CourseSource) else course
        self.course_loaded = self.course_source is None
        # In a class served to the browser the store is the learner's, known only once they log in.
        self.session = Session(course=self.course, store=store, measure_worker=measure_worker, doctor=doctor)
        """The one door into practice, handed to every screen."""
        self.login = login
        self.palette_commands = CommandRegistry()
        """What the palette offers beside the screen's keys: the app fills it (today: every lesson)."""
        self.palette_commands.register(self._lesson_commands)
        self.palette_commands.register(self._exercise_commands)
        self.telemetry_spec = telemetry
        self.telemetry_interval = max(0.25, float(telemetry_interval))
        self.set_reactive(TutorApp.lang, lang)
        self.marks = CourseMarks.load(store) if store is not None else CourseMarks(frozenset(), {}, frozenset())
        self.resume = resume
        """Whether the start opens where the learner was (``tutor --map``: on the map)."""
        self._resume_place: Place | None = None
        """The place this start still has to open (once its lesson, exercise or lab has loaded)."""

    @property
    def store(self) -> StoreBase:
        """The learner's progress store (in a class, known once the learner has logged in)."""
        return self.session.store

    @property
    def logged_in(self) -> bool:
        """False only while a class's learner has not yet given a name and token the database accepts."""
        return self.session.logged_in

    def on_mount(self) -> None:
        self.sub_title = t("app.subtitle", self.lang)
        self.screen_change_signal.subscribe(self, self._translate_keys)
        self.screen_change_signal.subscribe(self, self._remember_place)
        if not self.logged_in:
            from tutor.ui.screens.login import LoginScreen

            self.push_screen(LoginScreen(self.login))
            return
        self._open_course()

    def on_login_screen_logged_in(self, message: LoginScreen.LoggedIn) -> None:
        self.session.log_in(message.store)
        self.marks = CourseMarks.load(self.store)
        self.pop_screen()
        self._open_course()

    def _open_course(self) -> None:
        # Read before the map is shown: showing it records the map as the place.
        self._resume_place = self.session.last_place() if self.resume else None
        course_map = CourseMapScreen(self.session, self.marks)
        self.push_screen(course_map)
        if self._resume_place is not None:
            self.call_after_refresh(self._resume, self.course_loaded)
        if self.course_source is not None:
            course_map.show_loading((0, len(self.course_source.files)))
            self.call_after_refresh(self._load_course, self.course_source)
        if self.store.shared:
            self.set_interval(self.lease_poll_s, self._poll_lease)
        from tutor.progress.report import recovery_notices

        # Every corrupt file moved aside and not yet acknowledged (this start's or an earlier headless command's).
        for line in recovery_notices(self.store, self.lang):
            self.notify(line, severity="warning", timeout=30, markup=False)
        self.start_telemetry()

    # -- a class's shared device: who is measuring on it now (shown by every telemetry panel) ---------------
    lease_poll_s: float = 2.0
    lease_holder: str | None = None
    """Another learner holding this machine's default device's lease, or None."""

    def _poll_lease(self) -> None:
        self._read_lease_holder()

    @work(thread=True, exclusive=True, exit_on_error=False, group="lease-holder")
    def _read_lease_holder(self) -> None:
        from tutor.progress.lease import lease_device
        from tutor.progress.store_errors import StoreError

        try:
            holder = self.store.device_holder(lease_device("auto"))
        except StoreError:
            return
        if holder == self.store.learner:
            holder = None  # one's own measurement: the screen already says so
        self.call_from_thread(self._set_lease_holder, holder)

    def _set_lease_holder(self, holder: str | None) -> None:
        if holder == self.lease_holder:
            return
        self.lease_holder = holder
        for panel in self.screen.query(TelemetryPanel):
            panel.lease_holder = holder

    # -- loading a course folder without blocking the map ----------------------------------------------------

    class CourseLoaded(Message):
        """A batch of the course has been loaded (posted from the loading worker)."""

        def __init__(self, part: Course, done: int, total: int) -> None:
            super().__init__()
            self.part = part
            self.done = done
            self.total = total

    @work(thread=True, exclusive=True, exit_on_error=False, group="course")
    def _load_course(self, source: CourseSource) -> None:
        worker = get_current_worker()
        done = 0
        for part, size in source.load_in_parts(should_stop=lambda: worker.is_cancelled):
            # A screen being opened gets the machine first: the next batch waits until it has drawn.
            while time.monotonic() < self._loading_held_until and not worker.is_cancelled:
                time.sleep(0.05)
            done += size
            self.post_message(self.CourseLoaded(part, done, len(source.files)))

    _loading_held_until = 0.0

    def hold_loading(self, seconds: float = 1.5) -> None:
        """Let a screen that is opening draw before the next batch of the course is read."""
        if not self.course_loaded:
            self._loading_held_until = time.monotonic() + seconds

    def on_tutor_app_course_loaded(self, message: CourseLoaded) -> None:
        before = set(self.course.lessons)
        had_info = self.course.info is not None
        invalid_before = len(self.course.invalid)
        merge(self.course, message.part)
        new_lessons = [i for i in self.course.lessons if i not in before]
        new_invalid = self.course.invalid[invalid_before:]
        finished = message.done >= message.total
        self.course_loaded = finished
        if self._resume_place is not None:
            self._resume(finished)
        for screen in self.screen_stack:
            if isinstance(screen, CourseMapScreen):
                if not had_info and self.course.info is not None:
                    screen.course_changed()  # the course's title and levels: draw the map again
                else:
                    screen.course_grew(new_lessons, new_invalid)
                screen.show_loading(None if finished else (message.done, message.total))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # The lease poll is best effort every two seconds: its failures say nothing (the next poll tries again).
        if (event.worker.node is self and event.state == WorkerState.ERROR and event.worker.error is not None
                and event.worker.group != "lease-holder"):
            from tutor.practice.failures import classify

            if event.worker.group == "course":
                self.course_loaded = True
            failure = classify(event.worker.error)
            self.post_message(WorkFailed(event.worker.group or "other", failure.code, failure.detail))

    def on_work_failed(self, message: WorkFailed) -> None:
        """The one error path: work that did not finish (a measurement, the doctor, loading the course), on any
        screen, becomes one notice worded by the catalog — never a traceback."""
        from tutor.practice.failures import CANCEL_CODES, failure_text

        lang = self.lang
        kind = message.kind if message.kind in WORK_KINDS else "other"
        if message.code == "engine" and kind not in ("exercise", "lab"):
            text = t("work.error", lang, detail=message.detail)  # a bug outside any measurement
        else:
            text = failure_text(message.code, message.detail, lang)
        cancelled = message.code in CANCEL_CODES
        self.notify(clean(text), title=t(f"work.{kind}", lang), severity="warning" if cancelled else "error",
                    timeout=4 if cancelled else 12, markup=False)

    # telemetry: wired by the telemetry issue (begin) — see tutor/ui/widgets/telemetry_panel.py
    telemetry: TelemetryFeed | None = None
    """Owns the sampler (``telemetry.sampler``; ``None`` when off): measurements use its ``recording()``."""

    @property
    def telemetry_snapshot(self) -> TelemetrySnapshot | None:
        """The newest telemetry snapshot; panels mounted later show it at once."""
        return self.telemetry.latest if self.telemetry is not None else None

    def start_telemetry(self) -> None:
        """Start sampling the telemetry backend named by ``telemetry_spec`` (on a background thread)."""
        if self.telemetry is None:
            self.telemetry = TelemetryFeed.start(self, self.telemetry_spec, self.telemetry_interval)
            self.session.sampler = self.telemetry.sampler  # a measurement records its window through it

    def on_telemetry_updated(self, message: TelemetryUpdated) -> None:
        if self.telemetry is not None:
            self.telemetry.deliver(message.snapshot)

    def on_telemetry_panel_visibility_changed(self, message: TelemetryPanel.VisibilityChanged) -> None:
        if self.telemetry is not None:
            self.telemetry.panel_visibility(message.panel, message.visible)

    def on_unmount(self) -> None:
        self.stop_everything()

    # telemetry: wired by the telemetry issue (end)

    def watch_lang(self, lang: Lang) -> None:
        self.sub_title = t("app.subtitle", lang)
        translate_bindings(self, lang)  # each screen rewords its own keys (TutorScreen's language watcher)

    def _translate_keys(self, screen: Screen[Any]) -> None:
        translate_bindings(self, self.lang)
        translate_bindings(screen, self.lang)

    def action_help(self) -> None:
        """``?`` / F1: the keys of the current screen, in the current language."""
        from tutor.ui.screens.help import HelpScreen

        screen = self.screen
        if isinstance(screen, HelpScreen):
            screen.dismiss(None)
            return
        self._push_help(screen, screen.sub_title or self.sub_title or self.title)

    def _push_help(self, screen: Screen[Any], title: str) -> None:
        from tutor.ui.screens.help import HelpScreen, screen_keys

        keys = screen_keys(self, screen, self.lang, in_class=self.session.in_class)
        self.push_screen(HelpScreen(keys, title))

    # -- where the learner was: recorded as screens change, opened again on the next start ------------------------

    def _remember_place(self, screen: Screen[Any]) -> None:
        """Record the lesson section, exercise or lab now on screen (the map: no place); other screens (help,
        progress, the notebook, an exercise's attempts) leave the place as it was."""
        if self.logged_in and not isinstance(screen, ModalScreen):
            place = screen_place(screen)
            if place is not KEEP:
                self.session.save_place(place)

    def _resume(self, final: bool) -> None:
        """Open the place this start resumes, over the map, once the course holds it. A place the course no longer
        has (a pack removed, a file now invalid) leaves the map with a notice once the whole course has loaded; a
        learner who has left the map in the meantime is not taken anywhere."""
        place = self._resume_place
        if place is None or not self.logged_in:
            return
        if not isinstance(self.screen, CourseMapScreen):
            self._resume_place = None
            return
        opening = self._opening(place)
        if opening is None and not final:
            return  # perhaps in a part of the course not loaded yet
        self._resume_place = None
        if opening is None:
            what = clean_line(place.lesson_id if place.kind == "lesson" else place.item_id)
            self.notify(t("app.resume_gone", self.lang, place=what), severity="warning", timeout=10, markup=False)
            return
        self.post_message(opening)

    def _opening(self, place: Place) -> Message | None:
        """The message that opens ``place``, or None if the course does not hold it."""
        course = self.course
        if place.kind == "exercise":
            known = place.item_id in course.exercises
            return OpenExercise(place.item_id, pass_number=place.pass_number) if known and place.item_id else None
        lesson = course.lessons.get(place.lesson_id)
        if lesson is None:
            return None
        if place.kind == "lab":
            known = any(lab.id == place.item_id for lab in lesson.labs)
            return OpenLab(lesson.id, place.item_id) if known and place.item_id else None
        sections = {s.id for s in lesson.sections}
        return OpenLesson(lesson.id, place.item_id if place.item_id in sections else None)

    def on_show_whole(self, message: ShowWhole) -> None:
        """A formula, table or title shown cut (…), whole in a view of its own (``z`` or Enter on it)."""
        from tutor.ui.screens.whole_text import WholeText

        if not isinstance(self.screen, WholeText):
            self.push_screen(WholeText(message.text, message.kind))

    def action_toggle_lang(self) -> None:
        self.lang = "en" if self.lang == "es" else "es"
        self.session.save_lang(self.lang)  # the next run opens in the language chosen last
        self.notify(t("lang.switched", self.lang), timeout=2, markup=False)

    def on_open_lesson(self, message: OpenLesson) -> None:
        self.hold_loading()
        if not self.logged_in:
            return
        lesson = self.course.lessons.get(message.lesson_id)
        if lesson is not None:
            screen = LessonScreen(self.session, lesson, self.marks, message.section_id)
            if not self._already_open(screen.id):
                self.push_screen(screen)

    def on_open_exercise(self, message: OpenExercise) -> None:
        self.hold_loading()
        if not self.logged_in:
            return
        from tutor.ui.screens.exercise import ExerciseScreen

        exercise = self.course.exercises.get(message.exercise_id)
        if exercise is None:
            self.notify(clean_line(t("app.no_exercise", self.lang, id=message.exercise_id)), severity="warning",
                        markup=False)
            return
        if message.pass_number > 1 and not self.session.exercise_status(exercise.id).pass2_open:
            self.notify(t("pass2.closed", self.lang), severity="warning")
            return
        screen = ExerciseScreen(self.session, exercise, pass_number=message.pass_number)
        if self._already_open(screen.id):
            return  # a second Enter in the same burst: the screen is open (or opening) already
        self.push_screen(screen)

    def _already_open(self, screen_id: str | None) -> bool:
        """Whether a screen with this id is on the stack: pushing another would raise DuplicateIds."""
        try:
            return screen_id is not None and any(s.id == screen_id for s in self.screen_stack)
        except Exception:  # no stack yet
            return False

    def on_open_lab(self, message: OpenLab) -> None:
        self.hold_loading()
        if not self.logged_in:
            return
        from tutor.ui.screens.lab import LabScreen

        lesson = self.course.lessons.get(message.lesson_id)
        lab = next((lab for lab in lesson.labs if lab.id == message.lab_id), None) if lesson else None
        if lesson is None or lab is None:
            self.notify(clean_line(t("app.no_lab", self.lang, id=message.lab_id)), severity="warning", markup=False)
            return
        screen = LabScreen(self.session, lesson, lab)
        if not self._already_open(screen.id):
            self.push_screen(screen)

    # labs and the Lab Notebook: wired by the lab issue (begin)

    async def action_quit(self) -> None:
        """Quit at once, whatever is in flight: a measurement (its process is stopped, even a hung or stopped
        one), a lab, a telemetry call that does not return."""
        self.stop_everything()
        self.exit()

    def stop_everything(self) -> None:
        """Cancel every worker (each thread sees its cancel through ``worker_cancel_event``) and stop the
        measurement process and the sampler, each within a bounded time (never joining a hung thread or process).
        Safe to call more than once."""
        self.workers.cancel_all()
        self.session.close()
        if self.telemetry is not None:
            self.telemetry.close()

    def action_open_notebook(self) -> None:
        if not self.logged_in:
            return
        from tutor.ui.screens.notebook import NotebookScreen

        self.push_screen(NotebookScreen(self.session))

    # labs and the Lab Notebook (end)

    def action_open_class_report(self) -> None:
        """The instructor's view of a class (a PostgreSQL store); alone there is no class to report on."""
        if not self.logged_in:
            return
        if self.store.engine != "postgresql":
            self.notify(t("app.no_class", self.lang), severity="warning")
            return
        from tutor.ui.screens.class_report import ClassReportScreen

        self.push_screen(ClassReportScreen(self.session))

    def action_open_progress(self) -> None:
        if not self.logged_in:
            return
        from tutor.ui.screens.progress import ProgressScreen

        self.push_screen(ProgressScreen(self.session))

    def action_open_attempts(self) -> None:
        """F4: every attempt of the exercise on screen (the exercise's own, or the one highlighted in Progress)."""
        from tutor.ui.screens.attempts import attempts_screen, exercise_on

        exercise = exercise_on(self.screen, self.course) if self.logged_in else None
        if exercise is None:
            self.notify(t("attempts.none_here", self.lang), markup=False)
            return
        self.push_screen(attempts_screen(self.session, exercise))

    def on_progress_changed(self, _message: ProgressChanged) -> None:
        self.marks = CourseMarks.load(self.store)
        from tutor.ui.screens.base import TutorScreen

        for screen in self.screen_stack:
            if isinstance(screen, TutorScreen):
                screen.update_marks(self.marks)

    def action_command_palette(self) -> None:
        """ctrl+p: the command palette, its own words (search field, "no matches") in the current language."""
        from textual.command import CommandPalette

        from tutor.ui.palette import TutorPalette

        if self.use_command_palette and not CommandPalette.is_open(cast("App[object]", self)):
            self.push_screen(TutorPalette(self.lang))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette: the current screen's own actions (the keymap's words), every screen, every lesson, lab and
        exercise — in the current language."""
        from tutor.ui.keys import KEYMAP, label

        # Textual's own commands (Theme, Keys, Quit, Screenshot, Maximize) speak English only: the tutor words its
        # own, from the catalog.
        lang = self.lang
        yield SystemCommand(t("palette.quit", lang), t("palette.quit_help", lang), self.action_quit)
        yield SystemCommand(t("palette.screenshot", lang), t("palette.screenshot_help", lang),
                            lambda: self.set_timer(0.1, self.deliver_screenshot))
        if not self.logged_in:  # nothing of the course before the login
            return
        here = screen.sub_title or screen.title or ""
        seen: set[str] = set()
        for items in list(screen._bindings.key_to_bindings.values()):
            for b in items:
                if b.id not in KEYMAP or b.id in seen or b.id in ("help", "back"):
                    continue
                if screen.check_action(b.action, ()) is False:
                    continue
                seen.add(b.id)
                yield SystemCommand(label(screen, b.id, lang), KEYMAP[b.id].keys.split(",")[0],
                                    lambda action=b.action, node=screen: self._run_on(node, action))
        yield SystemCommand(t("palette.help", lang), "F1 / ?",
                            lambda: self._push_help(screen, here))
        yield SystemCommand(t("palette.lang", lang), "F2", self.action_toggle_lang)
        yield SystemCommand(t("palette.map", lang), t("palette.map_help", lang), self.action_open_map)
        yield SystemCommand(t("palette.progress", lang), t("palette.progress_help", lang), self.action_open_progress)
        yield SystemCommand(t("palette.notebook", lang), t("palette.notebook_help", lang), self.action_open_notebook)
        yield SystemCommand(t("palette.doctor", lang), t("palette.doctor_help", lang), self.action_open_doctor)
        bench = self._bench_lab()
        if bench is not None:
            yield SystemCommand(t("palette.bench", lang), t("palette.bench_help", lang),
                                lambda: self.post_message(OpenLab(*bench)))
        # The lessons are offered by LessonCommands, which shows their titles as plain text.

    def _lesson_commands(self) -> Iterable[Command]:
        """Open any lesson of the course: its title as the pack wrote it (the palette shows it as plain text)."""
        lang = self.lang
        for lesson in self.course.ordered_lessons():
            yield Command(clean_line(t("palette.open_lesson", lang, title=lesson.title.get(lang))),
                          t("palette.lesson_help", lang, id=lesson.id), partial(self._open_lesson, lesson.id))

    def _exercise_commands(self) -> Iterable[Command]:
        """Open any exercise of the course, in course order: found by its title or its id."""
        lang = self.lang
        for lesson in self.course.ordered_lessons():
            for exercise in self.course.exercises_of(lesson):
                yield Command(clean_line(t("palette.open_exercise", lang, title=exercise.title.get(lang))),
                              t("palette.exercise_help", lang, id=exercise.id),
                              partial(self._open_exercise, exercise.id), listed=False)

    def _open_exercise(self, exercise_id: str) -> None:
        self.post_message(OpenExercise(exercise_id))

    def _open_lesson(self, lesson_id: str) -> None:
        self.post_message(OpenLesson(lesson_id))

    def _run_on(self, node: Any, action: str) -> None:
        self.call_later(self.run_action, action, node)

    def _bench_lab(self) -> tuple[str, str] | None:
        for lesson in self.course.ordered_lessons():
            for lab in lesson.labs:
                if lab.run.op == "bench":
                    return lesson.id, lab.id
        return None

    def action_open_map(self) -> None:
        """Back to the course map (the first screen), whatever is on top of it."""
        while len(self.screen_stack) > 2:
            self.pop_screen()

    def action_open_doctor(self) -> None:
        from tutor.ui.screens.doctor import DoctorScreen

        self.push_screen(DoctorScreen(self.session))


def make_app(
    *,
    course: Course | CourseSource,
    store: StoreBase | None,
    lang: Lang = "es",
    telemetry: Any = "auto",
    telemetry_interval: float = 1.0,
    login: Callable[[str, str], StoreBase] | None = None,
    measure_worker: MeasureWorker | None = None,
    doctor: DoctorRunner | None = None,
    resume: bool = True,
) -> TutorApp:
    """The one factory the CLI and the tests use; tests pass a replay telemetry backend and a temporary store.

    ``store=None`` with ``login(name, token) -> store`` opens a class's door first (``tutor serve``): nothing of
    the course is shown until the database accepts the learner. ``course`` is a loaded course, or a
    :class:`CourseSource` that the app loads after the map has drawn. ``measure_worker`` and ``doctor`` stand in
    for the measurement process and the doctor (tests inject failing or slow ones). ``resume=False``
    (``tutor --map``) starts on the map instead of where the learner was."""
    if store is None and login is None:
        raise ValueError("make_app needs a store, or a login that gives one")
    return TutorApp(
        course=course, store=store, lang=lang, telemetry=telemetry, telemetry_interval=telemetry_interval,
        login=login, measure_worker=measure_worker, doctor=doctor, resume=resume,
    )
