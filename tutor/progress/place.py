"""Where the learner was: the lesson section, exercise or lab the app last showed, so the next start opens there.

One :class:`Place` per learner (the store's ``places`` table, schema 3). It is a bookmark, not evidence: it is never
exported, and a place whose lesson, exercise or lab is gone (a pack removed, a file now invalid) is only a notice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

__all__ = ["PLACE_KINDS", "Place", "PlaceKind"]

PlaceKind = Literal["lesson", "exercise", "lab"]
PLACE_KINDS: tuple[PlaceKind, ...] = ("lesson", "exercise", "lab")


@dataclass(frozen=True)
class Place:
    """A lesson (``item_id``: the section being read), an exercise (``item_id``: its id; ``pass_number``) or a lab
    (``item_id``: the lab's id) of lesson ``lesson_id``."""

    kind: PlaceKind
    lesson_id: str
    item_id: str | None = None
    pass_number: int = 1

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Place | None:
        """A stored row as a place; None for a row no version of the tutor wrote (another program's)."""
        kind, lesson_id, item_id, pass_number = row["kind"], row["lesson_id"], row["item_id"], row["pass"]
        if kind not in PLACE_KINDS or not isinstance(lesson_id, str) or not lesson_id:
            return None
        if item_id is not None and not isinstance(item_id, str):
            return None
        if kind != "lesson" and not item_id:
            return None
        if not isinstance(pass_number, int) or isinstance(pass_number, bool) or not 1 <= pass_number <= 1000:
            pass_number = 1
        return cls(cast(PlaceKind, kind), lesson_id, item_id, pass_number)
