"""Waiting on the app under Pilot: poll a condition with a deadline instead of sleeping a fixed time."""

from __future__ import annotations

import time
from typing import Any

#: How long a test waits for something that must eventually happen on screen. A deadline against hanging, not a
#: speed check (a busy 2-core machine has taken over 5 s to mount a screen): tests of how fast something happens
#: use :func:`wait_timed` with their own limit, and speed itself is measured in ``bench/``.
PATIENCE_S = 30.0
#: How fast a cancel or a quit must answer in a test. The requirement is 1 s and a quiet machine answers in
#: 0.17–0.26 s; on a 2-core machine at load 5–11 a scheduling gap alone has exceeded 1 s. 3 s still fails a cancel
#: that waits on the worker (which sleeps or hangs for 60 s in these tests); the speed itself is a bench figure.
RESPONSIVE_S = 3.0


async def wait_for(pilot: Any, cond: Any, timeout: float = PATIENCE_S) -> None:
    """Poll ``cond`` every 50 ms until it holds or ``timeout`` seconds pass, then assert it."""
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:
        await pilot.pause(0.05)
    assert cond()


async def wait_timed(pilot: Any, condition: Any, timeout: float) -> float:
    """Poll ``condition`` until it holds; the seconds it took. Fails once ``timeout`` seconds have passed."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"condition not met within {timeout} s")
        await pilot.pause(0.05)
    return time.monotonic() - start


async def settle(pilot: Any, cond: Any = lambda: True, timeout: float = 20.0) -> None:
    """Let the screen settle: wait for ``cond`` (at most ``timeout`` s), then a little more for the last paint."""
    end = time.monotonic() + timeout
    await pilot.pause(0.1)
    while not cond() and time.monotonic() < end:
        await pilot.pause(0.05)
    assert cond()
    await pilot.pause(0.2)
