"""The course map: levels → lessons → theory, labs and exercises, with progress marks."""

from __future__ import annotations

import bisect

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Header, Tree
from textual.widgets.tree import TreeNode

from tutor.content import InvalidFile
from tutor.i18n import Lang, format_number, t
from tutor.practice.session import Session
from tutor.ui.keys import bindings
from tutor.ui.map_detail import MapEntry, detail_markdown
from tutor.ui.marks import CourseMarks
from tutor.ui.messages import OpenExercise, OpenLab, OpenLesson
from tutor.ui.plain import PackMarkdown, plain_text
from tutor.ui.screens.base import TutorScreen
from tutor.ui.widgets.cut_text import ShowWhole, show_cut_header
from tutor.ui.widgets.map_tree import MapTree


def bold(text: str) -> Text:
    """A bold tree label, literal (no markup, no control characters)."""
    label = plain_text(text)
    label.stylize("bold")
    return label


class CourseMapScreen(TutorScreen[None]):
    """The first screen: the whole course as a tree, details of the highlighted entry beside it."""

    CSS_PATH = "../styles/course_map.tcss"
    BINDINGS = bindings("open", "second_pass", "progress", "expand", "lang_letter", "quit")

    def __init__(self, session: Session, marks: CourseMarks) -> None:
        super().__init__(id="course-map")
        self.session = session
        self.course = session.course
        self.marks = marks
        self._lesson_nodes: dict[str, TreeNode[MapEntry]] = {}
        self._level_nodes: dict[str, TreeNode[MapEntry]] = {}
        self._level_keys: dict[str, list[tuple[int, str]]] = {}
        self._invalid_group: TreeNode[MapEntry] | None = None
        self._filled: set[str] = set()
        self._stale = False

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="map-body"):
            yield MapTree("course", id="course-tree")
            with VerticalScroll(id="map-detail"):
                yield PackMarkdown(id="map-detail-text")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_map()
        self.query_one(Tree).focus()

    def lang_changed(self, lang: Lang) -> None:
        self.refresh_map()

    def update_marks(self, marks: CourseMarks) -> None:
        """New progress marks: redrawn now if the map is showing, else when the learner comes back to it."""
        self.marks = marks
        if self.is_active:
            self.refresh_map()
        else:
            self._stale = True

    def course_changed(self) -> None:
        """The course changed as a whole: redraw, keeping the cursor and the open lessons."""
        if self.is_active:
            self.refresh_map()
        else:
            self._stale = True

    def course_grew(self, lesson_ids: list[str], invalid: list[InvalidFile]) -> None:
        """More of the course has loaded: add its lessons (in course order) and flagged files to the map.

        Only the new nodes are added, so loading a big course costs the map time in proportion to each batch."""
        if self._stale or not all(self.course.lessons[i].level in self._level_nodes for i in lesson_ids):
            self.course_changed()  # a level nobody declared, or a redraw already due: draw it all
            return
        lang, course = self.lang, self.course
        for lesson_id in lesson_ids:
            lesson = course.lessons[lesson_id]
            keys = self._level_keys[lesson.level]
            key = (lesson.order, lesson.id)
            index = bisect.bisect(keys, key)
            keys.insert(index, key)
            parent = self._level_nodes[lesson.level]
            label = plain_text(f"{self.marks.lesson(course, lesson)} {lesson.title.get(lang)}")
            if index < len(parent.children):
                node = parent.add(label, MapEntry("lesson", lesson.id), before=index)
            else:
                node = parent.add(label, MapEntry("lesson", lesson.id))
            self._lesson_nodes[lesson.id] = node
        if invalid:
            tree: Tree[MapEntry] = self.query_one(Tree)
            if self._invalid_group is None:
                self._invalid_group = tree.root.add(bold(f"⚠ {t('map.invalid', lang)}"), MapEntry("group"))
                self._invalid_group.expand()
            for bad in invalid:
                self._invalid_group.add_leaf(plain_text(f"⚠ {bad.path.name}"), MapEntry("invalid", invalid=bad))

    def show_loading(self, progress: tuple[int, int] | None) -> None:
        """Say how much of the course has loaded (``None`` once it all has)."""
        if progress is None:
            self.sub_title = None  # the app's own subtitle again
            return
        done, total = progress
        lang = self.lang
        self.sub_title = t(
            "map.loading", lang, done=format_number(done, lang, ",d"), total=format_number(total, lang, ",d")
        )

    def on_screen_resume(self) -> None:
        if self._stale:
            self.refresh_map()

    def refresh_map(self) -> None:
        """Rebuild the tree in the current language, keeping the cursor and the expanded lessons where they were.

        Only levels and lessons are built here; a lesson's sections, labs and exercises are added when it is
        expanded, so a course of thousands of lessons draws at once."""
        self._stale = False
        if not self.query(Tree):  # marks that arrive before the map is composed: on_mount draws them
            return
        tree: Tree[MapEntry] = self.query_one(Tree)
        previous = tree.cursor_node.data if tree.cursor_node is not None else None
        cursor = tree.cursor_line
        expanded = {
            node.data.lesson_id for node in self._lesson_nodes.values() if node.is_expanded and node.data is not None
        }
        lang = self.lang
        course = self.course
        title = course.info.title.get(lang) if course.info else t("map.title", lang)
        tree.clear()
        self._lesson_nodes = {}
        self._level_nodes = {}
        self._level_keys = {}
        self._invalid_group = None
        self._filled = set()
        tree.root.set_label(plain_text(title))
        tree.root.data = MapEntry("root")
        tree.show_root = False
        for level in course.levels:
            level_node = tree.root.add(bold(level.title.get(lang)), MapEntry("level", item_id=level.id))
            level_node.expand()
            self._level_nodes[level.id] = level_node
            lessons = course.lessons_in(level.id)
            self._level_keys[level.id] = [(lesson.order, lesson.id) for lesson in lessons]
            for lesson in lessons:
                node = level_node.add(
                    plain_text(f"{self.marks.lesson(course, lesson)} {lesson.title.get(lang)}"),
                    MapEntry("lesson", lesson.id),
                )
                self._lesson_nodes[lesson.id] = node
                if lesson.id in expanded:
                    self._fill_lesson(node)
                    node.expand()
        if course.invalid:
            bad = self._invalid_group = tree.root.add(bold(f"⚠ {t('map.invalid', lang)}"), MapEntry("group"))
            bad.expand()
            for invalid in course.invalid:
                bad.add_leaf(plain_text(f"⚠ {invalid.path.name}"), MapEntry("invalid", invalid=invalid))
        tree.root.expand()
        target = self._find(tree, previous) if previous is not None else None
        last_line = tree.last_line  # lays the new lines out, so that the nodes know their line
        if target is not None and 0 <= target.line <= last_line:
            tree.move_cursor(target)
        else:
            tree.cursor_line = max(0, min(cursor, tree.last_line))
        self._show_detail(tree.cursor_node)

    def _find(self, tree: Tree[MapEntry], entry: MapEntry) -> TreeNode[MapEntry] | None:
        if entry.kind == "lesson" and entry.lesson_id in self._lesson_nodes:
            return self._lesson_nodes[entry.lesson_id]
        if entry.kind in ("section", "lab", "exercise", "group") and entry.lesson_id in self._lesson_nodes:
            parent = self._lesson_nodes[entry.lesson_id]
            if entry.lesson_id in self._filled:
                for group in parent.children:
                    if group.data == entry:
                        return group
                    for leaf in group.children:
                        if leaf.data == entry:
                            return leaf
            return parent
        return None

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[MapEntry]) -> None:
        entry = event.node.data
        if entry is not None and entry.kind == "lesson":
            self._fill_lesson(event.node)

    def _fill_lesson(self, node: TreeNode[MapEntry]) -> None:
        """Add a lesson's theory, labs and exercises under its node (once per build of the tree)."""
        entry = node.data
        if entry is None or entry.lesson_id is None or entry.lesson_id in self._filled:
            return
        lesson = self.course.lessons.get(entry.lesson_id)
        if lesson is None:
            return
        self._filled.add(lesson.id)
        lang, course, marks = self.lang, self.course, self.marks
        theory = node.add(t("map.sections", lang), MapEntry("group", lesson.id))
        for section in lesson.sections:
            theory.add_leaf(
                plain_text(f"{marks.section(lesson.id, section.id)} {section.title.get(lang)}"),
                MapEntry("section", lesson.id, section.id),
            )
        if lesson.labs:
            labs = node.add(t("map.labs", lang), MapEntry("group", lesson.id, "labs"))
            for lab in lesson.labs:
                labs.add_leaf(
                    plain_text(f"{marks.lab(lab.id)} {lab.title.get(lang)}"), MapEntry("lab", lesson.id, lab.id)
                )
            labs.expand()
        exercises = course.exercises_of(lesson)
        if exercises:
            group = node.add(t("map.exercises", lang), MapEntry("group", lesson.id, "exercises"))
            for ex in exercises:
                group.add_leaf(
                    plain_text(f"{marks.exercise(ex.id)} {ex.title.get(lang)}{marks.reproduced(ex.id, lang)}"),
                    MapEntry("exercise", lesson.id, ex.id),
                )
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
            self.notify(t("map.second_pass_hint", self.lang), severity="information", markup=False)

    def action_expand(self) -> None:
        """``z``: the highlighted entry's title whole when the tree shows it cut (…), else the header's."""
        tree = self.query_one(MapTree)
        node = tree.cursor_node
        if node is not None and tree.label_is_cut(node):
            self.post_message(ShowWhole(Content(str(node.label)), "title"))
            return
        show_cut_header(self, self.lang)

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
        entry = node.data if node is not None else None
        self.query_one("#map-detail-text", PackMarkdown).update(detail_markdown(self.course, entry, self.lang))
