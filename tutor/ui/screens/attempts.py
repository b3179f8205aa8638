"""Every attempt of one exercise (issue 30 item 2): the prediction as it was locked, its confidence, the verdict and
score, the figures, what else ran on the machine, the date. Reached with F4 from the exercise and the progress
screen (its highlighted exercise or attempt), and shown in place of a revealed exercise when Esc closes it, so the
attempt just made stays in sight. The words come from :func:`tutor.practice.attempts.attempts_view`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from tutor.content.models import Exercise
from tutor.i18n import Lang, t
from tutor.practice.attempts import AttemptLine, AttemptsView, attempts_view
from tutor.ui.keys import bindings
from tutor.ui.screens.base import TutorScreen
from tutor.untrusted import clean, clean_line, widget_id

#: A verdict's colour, as the reveal draws it.
VERDICT_STYLES = {"correct": "green", "partly": "yellow", "wrong": "red", "inconclusive": "grey62"}


def attempt_block(line: AttemptLine, lang: Lang) -> Text:
    """One attempt as lines of plain text (pack text and the learner's own never read as markup)."""
    head = Text(clean_line(f"{t('attempts.number', lang, n=line.number)} · {line.when} · "
                           f"{t('attempts.pass', lang, n=line.pass_number)} · "), style="bold")
    head.append(clean_line(line.outcome), style=f"bold {VERDICT_STYLES.get(line.verdict or '', 'default')}")
    body = [head, Text(clean_line(t("attempts.prediction", lang, prediction=line.prediction,
                                    confidence=line.confidence)))]
    body += [Text(clean_line(f)) for f in line.figures]
    if line.interference:
        body.append(Text(clean(line.interference), style="italic"))
    return Text("\n").join(body)


class AttemptsScreen(TutorScreen[None]):
    """The attempts of one exercise, oldest first, each its own block; Esc goes back."""

    CSS_PATH = "../styles/attempts.tcss"
    BINDINGS = bindings("back", back="app.pop_screen")

    def __init__(self, exercise_id: str, view: Callable[[Lang], AttemptsView]) -> None:
        super().__init__(id=widget_id("attempts-", exercise_id))
        self.exercise_id = exercise_id
        self.view = view
        """The attempts worded in a language (read from the store each time the language changes)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="attempts-body"):
            yield Static(id="attempts-title")
            yield Static(id="attempts-list")
        yield Footer()

    def on_mount(self) -> None:
        self.lang_changed(self.lang)
        body = self.query_one("#attempts-body", VerticalScroll)
        body.focus()
        body.scroll_end(animate=False)  # the newest attempt, the one just made, in sight

    def lang_changed(self, lang: Lang) -> None:
        view = self.view(lang)
        self.sub_title = clean_line(view.title)
        self.query_one("#attempts-title", Static).update(Text(clean_line(view.title), style="bold"))
        blocks = [attempt_block(line, lang) for line in view.lines] or [Text(view.empty, style="italic")]
        self.query_one("#attempts-list", Static).update(Text("\n\n").join(blocks))


def attempts_screen(session: Any, exercise: Exercise) -> AttemptsScreen:
    """The attempts screen of ``exercise``, read from ``session``'s store each time its language changes."""
    return AttemptsScreen(exercise.id,
                          lambda lang: attempts_view(exercise, session.attempts(exercise.id), lang))


def exercise_on(screen: Any, course: Any) -> Exercise | None:
    """The exercise whose attempts ``screen`` offers: the exercise screen's own, or the progress screen's
    highlighted exercise or attempt."""
    own = getattr(screen, "exercise", None)
    if isinstance(own, Exercise):
        return own
    selected = getattr(screen, "_selected", None)
    if selected is None or not screen.query("#progress-exercises"):
        return None
    focused = getattr(screen.focused, "id", None)
    if focused == "progress-history":
        key = selected("#progress-history")  # "<attempt id>:<exercise id>"
        ex_id = key.partition(":")[2] if key else None
    else:
        key = selected("#progress-exercises")  # "ex:<exercise id>"
        ex_id = key[3:] if key and key.startswith("ex:") else None
    found = course.exercises.get(ex_id) if ex_id else None
    return found if isinstance(found, Exercise) else None
