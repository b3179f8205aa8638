"""The course map: levels → lessons → theory, labs and exercises, with progress marks."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Markdown, Tree
from textual.widgets.tree import TreeNode

from tutor.content import Course, InvalidFile
from tutor.i18n import Lang, t
from tutor.ui.marks import CourseMarks
from tutor.ui.messages import OpenExercise, OpenLab, OpenLesson


@dataclass(frozen=True)
class MapEntry:
    """What a node of the map stands for."""

    kind: str  # level, lesson, group, section, lab, exercise, invalid
    lesson_id: str | None = None
    item_id: str | None = None
    invalid: InvalidFile | None = None


class CourseMapScreen(Screen[None]):
    """The first screen: the whole course as a tree, details of the highlighted entry beside it."""

    CSS_PATH = "../styles/course_map.tcss"
    BINDINGS = [
        Binding("enter", "open", "Open", show=True),
        Binding("2", "second_pass", "2nd pass", show=True),
        Binding("p", "app.open_progress", "Progress", show=True),
        Binding("l", "app.toggle_lang", "es/en", show=True),
        Binding("q", "app.quit", "Quit", show=True),
    ]

    def __init__(self, course: Course, marks: CourseMarks) -> None:
        super().__init__(id="course-map")
        self.course = course
        self.marks = marks

    @property
    def lang(self) -> Lang:
        return self.app.lang  # type: ignore[attr-defined, no-any-return]

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="map-body"):
            yield Tree("course", id="course-tree")
            with VerticalScroll(id="map-detail"):
                yield Markdown(id="map-detail-text")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_map()
        self.watch(self.app, "lang", self._lang_changed, init=False)
        self.query_one(Tree).focus()

    def _lang_changed(self, _lang: Lang) -> None:
        self.refresh_map()

    def update_marks(self, marks: CourseMarks) -> None:
        self.marks = marks
        self.refresh_map()

    def refresh_map(self) -> None:
        """Rebuild the tree in the current language, keeping the cursor where it was."""
        if not self.query(Tree):  # marks that arrive before the map is composed: on_mount draws them
            return
        tree: Tree[MapEntry] = self.query_one(Tree)
        cursor = tree.cursor_line
        lang = self.lang
        course = self.course
        title = course.info.title.get(lang) if course.info else t("map.title", lang)
        tree.clear()
        tree.root.set_label(title)
        tree.root.data = MapEntry("root")
        tree.show_root = False
        for level in course.levels:
            level_node = tree.root.add(f"[b]{level.title.get(lang)}[/b]", MapEntry("level", item_id=level.id))
            level_node.expand()
            for lesson in course.lessons_in(level.id):
                self._add_lesson(level_node, lesson.id)
        if course.invalid:
            bad = tree.root.add(f"[b]⚠ {t('map.invalid', lang)}[/b]", MapEntry("group"))
            bad.expand()
            for invalid in course.invalid:
                bad.add_leaf(f"⚠ {invalid.path.name}", MapEntry("invalid", invalid=invalid))
        tree.root.expand()
        tree.cursor_line = max(0, min(cursor, tree.last_line))
        self._show_detail(tree.cursor_node)

    def _add_lesson(self, parent: TreeNode[MapEntry], lesson_id: str) -> None:
        lang, course, marks = self.lang, self.course, self.marks
        lesson = course.lessons[lesson_id]
        node = parent.add(f"{marks.lesson(course, lesson)} {lesson.title.get(lang)}", MapEntry("lesson", lesson.id))
        theory = node.add(t("map.sections", lang), MapEntry("group", lesson.id))
        for section in lesson.sections:
            theory.add_leaf(
                f"{marks.section(lesson.id, section.id)} {section.title.get(lang)}",
                MapEntry("section", lesson.id, section.id),
            )
        if lesson.labs:
            labs = node.add(t("map.labs", lang), MapEntry("group", lesson.id))
            for lab in lesson.labs:
                labs.add_leaf(f"{marks.lab(lab.id)} {lab.title.get(lang)}", MapEntry("lab", lesson.id, lab.id))
            labs.expand()
        exercises = course.exercises_of(lesson)
        if exercises:
            group = node.add(t("map.exercises", lang), MapEntry("group", lesson.id))
            for ex in exercises:
                group.add_leaf(f"{marks.exercise(ex.id)} {ex.title.get(lang)}{marks.reproduced(ex.id, lang)}",
                               MapEntry("exercise", lesson.id, ex.id))
            group.expand()
        theory.expand()

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[MapEntry]) -> None:
        self._show_detail(event.node)

    def on_tree_node_selected(self, event: Tree.NodeSelected[MapEntry]) -> None:
        self._open(event.node)

    def action_open(self) -> None:
        self._open(self.query_one(Tree).cursor_node)

    def action_second_pass(self) -> None:
        """Pass 2 of the highlighted exercise: hints and theory hidden, counts only if it reproduces pass 1."""
        node = self.query_one(Tree).cursor_node
        entry = node.data if node is not None else None
        if entry is not None and entry.kind == "exercise" and entry.item_id:
            self.post_message(OpenExercise(entry.item_id, pass_number=2))
        else:
            self.notify(t("map.second_pass_hint", self.lang), severity="information")

    def _open(self, node: TreeNode[MapEntry] | None) -> None:
        entry = node.data if node is not None else None
        if entry is None:
            return
        if entry.kind == "lesson" and entry.lesson_id:
            self.post_message(OpenLesson(entry.lesson_id))
        elif entry.kind == "section" and entry.lesson_id:
            self.post_message(OpenLesson(entry.lesson_id, entry.item_id))
        elif entry.kind == "exercise" and entry.item_id:
            self.post_message(OpenExercise(entry.item_id))
        elif entry.kind == "lab" and entry.lesson_id and entry.item_id:
            self.post_message(OpenLab(entry.lesson_id, entry.item_id))

    def _show_detail(self, node: TreeNode[MapEntry] | None) -> None:
        self.query_one("#map-detail-text", Markdown).update(self._detail_markdown(node))

    def _detail_markdown(self, node: TreeNode[MapEntry] | None) -> str:
        lang, course = self.lang, self.course
        entry = node.data if node is not None else None
        if entry is None or entry.kind in ("root",):
            return f"{t('map.empty', lang)}\n\n{t('map.hint', lang)}"
        if entry.kind == "invalid" and entry.invalid is not None:
            lines = "\n".join(f"- `{p.format()}`" for p in entry.invalid.problems)
            return f"## ⚠ {t('invalid.title', lang)}\n\n`{entry.invalid.path}`\n\n{t('invalid.body', lang)}\n\n{lines}"
        if entry.kind == "level" and entry.item_id:
            level = next(lv for lv in course.levels if lv.id == entry.item_id)
            summary = level.summary.get(lang) if level.summary else ""
            lessons = "\n".join(f"- {ls.title.get(lang)}" for ls in course.lessons_in(level.id))
            return f"# {level.title.get(lang)}\n\n{summary}\n\n{lessons}\n\n{t('map.hint', lang)}"
        lesson = course.lessons.get(entry.lesson_id or "")
        if lesson is None:
            return ""
        if entry.kind == "exercise" and entry.item_id in course.exercises:
            ex = course.exercises[entry.item_id]
            return f"## {ex.title.get(lang)}\n\n{ex.prompt.get(lang)}"
        if entry.kind == "lab" and entry.item_id:
            lab = next(lb for lb in lesson.labs if lb.id == entry.item_id)
            return f"## {lab.title.get(lang)}\n\n{lab.goal.get(lang)}"
        if entry.kind == "section" and entry.item_id:
            section = next(s for s in lesson.sections if s.id == entry.item_id)
            first = section.body.get(lang).strip().split("\n\n")
            preview = next((p for p in first if not p.lstrip().startswith("#")), "")
            return f"## {section.title.get(lang)}\n\n{preview}"
        summary = lesson.summary.get(lang) if lesson.summary else ""
        return (
            f"# {lesson.title.get(lang)}\n\n{summary}\n\n**{t('lesson.outcome', lang)}:** {lesson.outcome.get(lang)}"
            f"\n\n{t('map.hint', lang)}"
        )
