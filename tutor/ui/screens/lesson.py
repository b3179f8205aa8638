"""The lesson view: theory in Markdown on the left, live telemetry of this machine on the right."""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, OptionList
from textual.widgets.option_list import Option

from tutor.content import Lesson
from tutor.i18n import Lang, t
from tutor.practice.session import Session
from tutor.progress.place import Place
from tutor.ui.keys import bindings
from tutor.ui.layout import toggle_telemetry
from tutor.ui.marks import CourseMarks
from tutor.ui.messages import OpenExercise, OpenLab, ProgressChanged
from tutor.ui.plain import PackMarkdown, plain_line
from tutor.ui.screens.base import TutorScreen
from tutor.ui.widgets.cut_text import CutFence, CutTable, cut_blocks, show_cut_header
from tutor.ui.widgets.telemetry_panel import TelemetryPanel
from tutor.untrusted import clean_line, widget_id


class LessonScreen(TutorScreen[None]):
    """One lesson: its sections, labs and exercises in a list, the selected section rendered beside it."""

    CSS_PATH = "../styles/lesson.tcss"
    BINDINGS = bindings("back", "next_section", "previous_section", "expand", "telemetry", "telemetry_enlarge",
                        "lang_letter", "second_pass", "quit", back="app.pop_screen")

    def __init__(self, session: Session, lesson: Lesson, marks: CourseMarks, section_id: str | None = None) -> None:
        super().__init__(id=widget_id("lesson-", lesson.id))
        self.session = session
        self.course = session.course
        self.lesson = lesson
        self.marks = marks
        ids = [s.id for s in lesson.sections]
        self.section_index = ids.index(section_id) if section_id in ids else 0
        self._unread: tuple[str, str] | None = None
        """The section on screen while the learner has not yet seen its end."""
        self._rendered: tuple[str, str] | None = None
        """The section whose text the view has finished rendering (before that, the scroll's end means nothing)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="lesson-body"):
            yield OptionList(id="lesson-nav")
            with VerticalScroll(id="lesson-main"):
                yield PackMarkdown(id="lesson-text")
            with Vertical(id="telemetry-column"):
                yield TelemetryPanel(id="telemetry-panel")
        yield Footer()

    def on_mount(self) -> None:
        main = self.query_one("#lesson-main", VerticalScroll)
        self.watch(main, "scroll_y", self._seen_to_the_end, init=False)
        self.watch(main, "virtual_size", self._seen_to_the_end, init=False)
        self._render_nav()
        self.show_section(self.section_index)
        main.focus()

    def lang_changed(self, lang: Lang) -> None:
        self._render_nav()
        self.show_section(self.section_index)

    def _render_nav(self) -> None:
        lang, lesson, marks = self.lang, self.lesson, self.marks
        nav = self.query_one("#lesson-nav", OptionList)
        keep = nav.highlighted_option.id if nav.highlighted_option is not None else None
        nav.clear_options()
        options: list[Option | None] = []
        for i, section in enumerate(lesson.sections):
            label = plain_line(f"{marks.section(lesson.id, section.id)} {section.title.get(lang)}")
            options.append(Option(label, id=f"s:{i}"))
        if lesson.labs:
            options.append(None)
            for lab in lesson.labs:
                options.append(Option(plain_line(f"{marks.lab(lab.id)} ▶ {lab.title.get(lang)}"), id=f"lab:{lab.id}"))
        exercises = self.course.exercises_of(lesson)
        if exercises:
            options.append(None)
            for ex in exercises:
                label = plain_line(f"{marks.exercise(ex.id)} ? {ex.title.get(lang)}{marks.reproduced(ex.id, lang)}")
                options.append(Option(label, id=f"ex:{ex.id}"))
        nav.add_options(options)
        # a rebuild (new marks, another language) keeps the learner's place in the list
        ids = [o.id for o in options if o is not None]
        nav.highlighted = nav.get_option_index(keep) if keep is not None and keep in ids else self.section_index

    def show_section(self, index: int) -> None:
        """Render section ``index``; it is recorded as read once the learner has seen its end (at once for a section
        that fits on the screen, after scrolling to the bottom for a longer one)."""
        lesson, lang = self.lesson, self.lang
        self.section_index = max(0, min(index, len(lesson.sections) - 1))
        section = lesson.sections[self.section_index]
        header = f"*{clean_line(lesson.title.get(lang))} · {self.section_index + 1}/{len(lesson.sections)}*\n\n"
        key = (lesson.id, section.id)
        self._unread = None if key in self.marks.read else key
        self._rendered = None
        done = self.query_one("#lesson-text", PackMarkdown).update(header + section.body.get(lang))
        self.query_one("#lesson-main", VerticalScroll).scroll_home(animate=False)
        self.sub_title = clean_line(section.title.get(lang))
        self._await_rendered(done, key)
        if self.is_current:  # the section being read is the learner's place (a redraw behind another screen is not)
            self.session.save_place(self.place)

    @property
    def place(self) -> Place:
        """The lesson and the section on screen: where the next start opens if the learner leaves from here."""
        return Place("lesson", self.lesson.id, self.lesson.sections[self.section_index].id)

    @work(exclusive=True, group="lesson-section")
    async def _await_rendered(self, done: Any, key: tuple[str, str]) -> None:
        await done
        self._rendered = key
        self.call_after_refresh(self._seen_to_the_end)  # once the new text is laid out

    def _seen_to_the_end(self, *_changed: object) -> None:
        key = self._unread
        if key is None or self._rendered != key:
            return
        main = self.query_one("#lesson-main", VerticalScroll)
        if main.size.height == 0 or main.scroll_y < main.max_scroll_y - 1:
            return
        self._unread = None
        self.session.mark_section_read(*key)
        self.post_message(ProgressChanged())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        kind, _, value = option_id.partition(":")
        if kind == "s":
            self.show_section(int(value))
            self.query_one("#lesson-main").focus()
        elif kind == "lab":
            self.post_message(OpenLab(self.lesson.id, value))
        elif kind == "ex":
            self.post_message(OpenExercise(value))

    def update_marks(self, marks: CourseMarks) -> None:
        self.marks = marks
        self._render_nav()

    def action_next_section(self) -> None:
        self.show_section(self.section_index + 1)

    def action_previous_section(self) -> None:
        self.show_section(self.section_index - 1)

    def action_second_pass(self) -> None:
        """Open the highlighted exercise (or the lesson's first) in pass 2: rebuild without looking."""
        nav = self.query_one("#lesson-nav", OptionList)
        highlighted = nav.highlighted_option
        option_id = highlighted.id if highlighted is not None else ""
        exercises = self.course.exercises_of(self.lesson)
        if option_id and option_id.startswith("ex:"):
            self.post_message(OpenExercise(option_id[3:], pass_number=2))
        elif exercises:
            self.post_message(OpenExercise(exercises[0].id, pass_number=2))
        else:
            self.notify(t("lesson.no_exercises", self.lang), severity="warning", markup=False)

    def action_expand(self) -> None:
        """``z``: show whole the formula or table that is focused, else the first one on screen shown cut (…), else
        the header's title if it is cut."""
        focused = self.focused
        if isinstance(focused, CutFence | CutTable) and focused.is_cut:
            focused.action_show_whole()
            return
        main = self.query_one("#lesson-main", VerticalScroll)
        blocks = cut_blocks(self.query_one("#lesson-text", PackMarkdown), main.region)
        if blocks:
            blocks[0].focus(scroll_visible=False)
            blocks[0].action_show_whole()
            return
        show_cut_header(self, self.lang)

    def action_toggle_telemetry(self) -> None:
        toggle_telemetry(self)

    def action_enlarge_telemetry(self) -> None:
        column = self.query_one("#telemetry-column")
        column.display = True
        column.toggle_class("enlarged")
