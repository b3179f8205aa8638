"""The one error of the theory room."""

from __future__ import annotations


class FormulaError(ValueError):
    """A formula was given inputs outside its domain, or an unknown name or dtype (one-line human message)."""
