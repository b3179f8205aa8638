"""The Lab Notebook screen: every entry in a list, the selected one in the course's template.

The learner writes the hypothesis, the procedure, the gap and its explanation, and the next question; the set-up
and the result come from the run and are shown, not edited. The prediction was locked when the run started (the
course rule "predict first"): it is shown read-only, and a later thought is added as a new, dated note beside it.
Changes are saved with Ctrl+S and whenever the learner moves to another entry or leaves; Ctrl+O exports the whole
notebook to Markdown.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Header, Label, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from tutor import paths
from tutor.i18n import Lang, t
from tutor.practice.session import Session
from tutor.progress.notebook import (
    HEADINGS,
    LEARNER_FIELDS,
    SECTIONS,
    NotebookEntry,
    StoredEntry,
    render_notebook,
    render_notes,
    word,
)
from tutor.ui.keys import bindings
from tutor.ui.plain import PackMarkdown, plain_line, styled
from tutor.ui.screens.base import TutorScreen
from tutor.untrusted import clean, clean_line


def export_notebook(entries: list[NotebookEntry], lang: Lang, target: Path | None = None) -> Path:
    """Write every entry as one Markdown file (default: a new file in the reports folder); returns its path."""
    if target is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = paths.reports_dir() / f"lab-notebook-{stamp}.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render_notebook(entries, lang), encoding="utf-8")
    return target


class NotebookScreen(TutorScreen[None]):
    """The Lab Notebook: one entry per lab run, editable where the learner writes."""

    CSS_PATH = "../styles/notebook.tcss"
    BINDINGS = bindings("back", "save", "export")

    def __init__(self, session: Session, *, entry_id: int | None = None) -> None:
        super().__init__(id="notebook")
        self.session = session
        self.entries: list[StoredEntry] = []
        self.current: StoredEntry | None = None
        self._wanted = entry_id
        self._dirty = False
        self._loading = False

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="notebook-body"):
            yield OptionList(id="notebook-list")
            with VerticalScroll(id="notebook-entry"):
                yield Static("", id="notebook-meta")
                for name in SECTIONS:
                    yield Label(HEADINGS[name][self.lang], classes="notebook-heading", id=f"heading-{name}")
                    if name in LEARNER_FIELDS:
                        yield TextArea("", id=f"field-{name}", classes="notebook-field", soft_wrap=True)
                    else:
                        yield PackMarkdown("", id=f"field-{name}", classes="notebook-evidence")
                    if name == "prediction":
                        yield Static(word("locked", self.lang), id="notebook-locked")
                        yield Label(word("notes", self.lang), classes="notebook-heading", id="heading-notes")
                        yield PackMarkdown("", id="notebook-notes", classes="notebook-evidence")
                        yield TextArea("", id="field-note", classes="notebook-field notebook-note", soft_wrap=True)
                yield Static("", id="notebook-empty")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = t("notebook.title", self.lang)
        self.reload()

    def lang_changed(self, lang: Lang) -> None:
        """The headings, the prompts and the words around the entry; what the learner wrote stays as it is."""
        self.sub_title = t("notebook.title", lang)
        for name in SECTIONS:
            self.query_one(f"#heading-{name}", Label).update(HEADINGS[name][lang])
        self.query_one("#heading-notes", Label).update(word("notes", lang))
        self.query_one("#notebook-locked", Static).update(word("locked", lang))
        self.query_one("#field-note", TextArea).placeholder = t("notebook.note_placeholder", lang)
        self.query_one("#notebook-empty", Static).update(t("notebook.empty", lang) if not self.entries else "")
        if self.current is not None:
            self._prompts(self.current.entry.lab_id)
            for name in SECTIONS:
                if name not in LEARNER_FIELDS:
                    shown = getattr(self.current.entry, name) or word("empty", lang)
                    note = t("notebook.from_run", lang)
                    self.query_one(f"#field-{name}", PackMarkdown).update(f"{shown}\n\n*{note}*")

    def reload(self) -> None:
        """Read the entries from the store and show the wanted one (the newest by default)."""
        self.entries = self.session.notebook_entries()
        options = []
        for item in self.entries:
            when = datetime.fromtimestamp(item.entry.created_at).strftime("%m-%d %H:%M")
            label = plain_line(f"#{item.id} {when}  {item.entry.title or item.entry.lab_id}")
            options.append(Option(label, id=str(item.id)))
        nav = self.query_one("#notebook-list", OptionList)
        nav.clear_options()
        nav.add_options(options)
        empty = not self.entries
        self.query_one("#notebook-empty", Static).update(t("notebook.empty", self.lang) if empty else "")
        for widget in self.query(".notebook-heading, .notebook-field, .notebook-evidence, #notebook-locked"):
            widget.display = not empty
        if empty:
            return
        ids = [e.id for e in self.entries]
        index = ids.index(self._wanted) if self._wanted in ids else len(ids) - 1
        nav.highlighted = index
        self.show_entry(self.entries[index])
        first = self.query_one(f"#field-{LEARNER_FIELDS[0]}", TextArea)
        if self._wanted is not None:
            gap = self.query_one("#field-gap", TextArea)
            (gap if first.text else first).focus()

    def show_entry(self, item: StoredEntry) -> None:
        self.current = item
        e = item.entry
        when = datetime.fromtimestamp(e.created_at).strftime("%Y-%m-%d %H:%M")
        rest = f"  ·  {e.lab_id}  ·  {when}" + (f"  ·  {e.device}" if e.device else "")
        if item.damaged:  # kept and said: the stored entry did not read, so its parts show empty
            rest += f"\n{t('notebook.w.damaged', self.lang, error=clean_line(item.damaged))}"
        self.query_one("#notebook-meta", Static).update(styled("[b]$title[/b]$rest", title=e.title or e.lab_id,
                                                               rest=rest))
        self._prompts(e.lab_id)
        self._loading = True
        try:
            for name in SECTIONS:
                text = getattr(e, name)
                if name in LEARNER_FIELDS:
                    area = self.query_one(f"#field-{name}", TextArea)
                    area.load_text(clean(text))
                    # a damaged entry's stored JSON did not read: kept, not overwritten; a locked prediction stays
                    area.read_only = bool(item.damaged) or (name == "prediction" and e.prediction_locked)
                else:
                    shown = text or word("empty", self.lang)
                    note = t("notebook.from_run", self.lang)
                    self.query_one(f"#field-{name}", PackMarkdown).update(f"{shown}\n\n*{note}*")
            self._show_notes(item)
        finally:
            self.call_after_refresh(self._done_loading)
        self._dirty = False

    def _show_notes(self, item: StoredEntry) -> None:
        """The prediction's lock line, the dated notes so far, and the editor for a new one (empty)."""
        notes = item.entry.notes
        locked = item.entry.prediction_locked and not item.damaged
        self.query_one("#notebook-locked", Static).display = locked
        self.query_one("#heading-notes", Label).display = bool(notes) or locked
        shown = self.query_one("#notebook-notes", PackMarkdown)
        shown.display = bool(notes)
        shown.update(render_notes(notes) if notes else "")
        area = self.query_one("#field-note", TextArea)
        area.load_text("")
        area.display = locked
        area.placeholder = t("notebook.note_placeholder", self.lang)

    def _prompts(self, lab_id: str) -> None:
        """The lab's own hypothesis and next question as prompts in the empty editors (never as their text, so
        what the learner types is theirs alone)."""
        lab = next((lab for lesson in self.session.course.lessons.values() for lab in lesson.labs if lab.id == lab_id),
                   None)
        for name in ("hypothesis", "next_question"):
            prompt = getattr(lab, name, None) if lab is not None else None
            text = prompt.get(self.lang) if prompt is not None else t(f"notebook.prompt.{name}", self.lang)
            self.query_one(f"#field-{name}", TextArea).placeholder = clean(text)

    def _done_loading(self) -> None:
        self._loading = False

    def on_text_area_changed(self, _event: TextArea.Changed) -> None:
        if not self._loading:
            self._dirty = True

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        target = next((e for e in self.entries if str(e.id) == event.option.id), None)
        if target is None or (self.current is not None and target.id == self.current.id):
            return
        self.save_if_dirty()
        self.show_entry(target)

    def edited_entry(self) -> NotebookEntry | None:
        """The current entry with what the learner has written in the editors."""
        if self.current is None:
            return None
        entry = self.current.entry
        changes = {name: self.query_one(f"#field-{name}", TextArea).text for name in LEARNER_FIELDS
                   if not (name == "prediction" and entry.prediction_locked)}
        entry = entry.with_fields(**changes)
        note = clean(self.query_one("#field-note", TextArea).text).strip()
        return entry.with_note(note) if note and entry.prediction_locked else entry

    def save_if_dirty(self) -> bool:
        if self._dirty:
            self.action_save(quiet=True)
            return True
        return False

    def action_save(self, quiet: bool = False) -> None:
        entry = self.edited_entry()
        if entry is None or self.current is None or self.current.damaged:  # a damaged entry is kept as it is
            return
        self.session.save_notebook_entry(entry, self.current.id)
        noted = len(entry.notes) > len(self.current.entry.notes)
        updated = replace(self.current, entry=entry)
        self.entries = [updated if e.id == updated.id else e for e in self.entries]
        self.current = updated
        self._dirty = False
        if noted:  # the note is filed: shown with its date above, and the editor is ready for the next one
            self._loading = True
            self._show_notes(updated)
            self.call_after_refresh(self._done_loading)
        if not quiet:
            self.notify(t("notebook.note_added" if noted else "notebook.saved", self.lang), timeout=2)

    def action_export(self) -> None:
        self.save_if_dirty()
        try:
            path = export_notebook([e.entry for e in self.entries], self.lang)
        except OSError as exc:
            self.notify(clean(t("notebook.export_failed", self.lang, reason=exc.strerror or exc)), severity="error",
                        markup=False)
            return
        self.last_export = path
        self.notify(clean(t("notebook.exported", self.lang, path=path)), timeout=8, markup=False)

    def action_back(self) -> None:
        self.save_if_dirty()
        self.app.pop_screen()
