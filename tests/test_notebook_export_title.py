"""The notebook's Markdown export: every heading is one line (issue 28, forged lines). A lab's title comes from a
lesson pack or an imported entry; a line break in it ended the heading and started a block of its own choosing."""

from __future__ import annotations

from tutor.progress.notebook import render_notebook
from tutor.progress.rows import NotebookEntry

TITLE_LIMIT = 200
"""tutor.progress.notebook.TITLE_LIMIT: the longest heading."""
FORGED = "Roofline lab\n\n# ✓ C0 reached\n\nThe gap is explained"


def headings(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("#")]


def test_an_entry_title_with_line_breaks_is_one_heading() -> None:
    entry = NotebookEntry("n0-l4-lab-bench", title=FORGED, lesson_id="n0-l4", created_at=1.7e9)
    for lang in ("en", "es"):
        text = render_notebook([entry], lang)
        assert "# ✓ C0 reached" not in text.splitlines()
        assert "\nThe gap is explained\n" not in text
        assert "## Roofline lab⏎⏎# ✓ C0 reached⏎⏎The gap is explained" in text.splitlines()


def test_the_document_title_is_one_line_and_bounded() -> None:
    text = render_notebook([], "en", title="Mine\r\n# ✓ C0 reached\u2028" + "x" * 500)
    first = text.splitlines()[0]
    assert first.startswith("# Mine⏎# ✓ C0 reached⏎") and len(first) == 2 + TITLE_LIMIT and first.endswith("…")
    assert headings(text) == [first]


def test_an_entry_whose_title_is_only_breaks_is_named_by_its_lab() -> None:
    text = render_notebook([NotebookEntry("lab-1", title="\n\n", created_at=1.7e9)], "en")
    assert "## lab-1" in text.splitlines()
