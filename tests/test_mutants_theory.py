"""Tests that kill `make mutants` survivors in theory (issue 29 item 8; README, development section)."""

from __future__ import annotations
