"""The one name for raw JSON at a boundary.

A result crosses the worker's pipe, a file (a bench report, a lock, a trace, an export) and the store as JSON; its
``to_json`` writes a :data:`JsonObject` and its ``from_json`` reads one through :class:`~tutor.results.reading.Reader`.
Inside the tutor, between rooms, results are their typed dataclasses: a :data:`JsonObject` is never passed from one
room to another for its fields to be read there."""

from __future__ import annotations

from typing import Any, TypeAlias

JsonObject: TypeAlias = dict[str, Any]
"""A JSON object as ``json.loads`` returns it or ``json.dumps`` takes it, at a process, file or store boundary."""
