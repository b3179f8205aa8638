"""Waiting on the app under Pilot: poll a condition with a deadline instead of sleeping a fixed time."""

from __future__ import annotations

import time
from typing import Any

#: How long a test waits for something that must eventually happen on screen. A deadline against hanging, not a
#: speed check (a busy 2-core machine has taken over 5 s to mount a screen): tests of how fast something happens
#: use :func:`wait_timed` with their own limit, and speed itself is measured in ``bench/``.
PATIENCE_S = 30.0
#: How fast a cancel or a quit must answer in a test. The requirement is 1 s and a quiet machine answers in
#: 0.17–0.26 s; on a 2-core machine at load 5–11 a scheduling gap alone has exceeded 1 s, and with four test workers
#: beside two busy loops (load 7) a stopped worker's cancel took 3.08 s. 10 s still fails a cancel that waits on the
#: worker (which sleeps or hangs for 60 s in these tests); the speed itself is a bench figure.
RESPONSIVE_S = 10.0


def _holds(cond: Any) -> bool:
    try:
        return bool(cond())
    except Exception:  # asked before the widget it reads is mounted: not yet (the last try raises it)
        return False


async def wait_for(pilot: Any, cond: Any, timeout: float = PATIENCE_S) -> None:
    """Poll ``cond`` every 50 ms until it holds or ``timeout`` seconds pass, then assert it (a condition that
    raises, such as a query for a widget not mounted yet, counts as not holding until the last try)."""
    end = time.monotonic() + timeout
    while not _holds(cond) and time.monotonic() < end:
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
    """Let the screen settle: wait for ``cond`` (at most ``timeout`` s), then until the app is :func:`quiet`
    (its last paint included: each turn of :func:`quiet` updates the screen)."""
    await pilot.pause()
    await wait_for(pilot, cond, timeout)
    await quiet(pilot, timeout)


#: Worker groups that live as long as the app (the class lease's heartbeat): :func:`quiet` does not wait for them.
LONG_LIVED_GROUPS = frozenset({"lease-holder"})


def _pumps(app: Any) -> list[Any]:
    pumps = [app, *app.screen_stack]
    for screen in app.screen_stack:
        pumps.extend(screen.walk_children(with_self=False))
    return pumps


async def quiet(pilot: Any, timeout: float = PATIENCE_S, ignore: frozenset[str] = LONG_LIVED_GROUPS) -> None:
    """Wait until the app has nothing left to do: no worker running (but those of ``ignore``'s groups) and every
    message queue of the app, its screens and their widgets empty on two turns of the loop in a row. What a fixed
    pause hoped for ("a second notice, were there one, would be in by now"), as a condition."""
    app = pilot.app
    end = time.monotonic() + timeout

    def idle() -> bool:
        busy = [w for w in app.workers if w.group not in ignore and not w.is_finished]
        pumps = _pumps(app)
        # also nothing scheduled to run after the next refresh or on the next turn (focus after a pop, a scroll)
        return (not busy and all(p.message_queue_size == 0 for p in pumps)
                and not any(getattr(p, "_next_callbacks", None) for p in pumps)
                and not any(getattr(screen, "_callbacks", None) for screen in app.screen_stack))

    calm = 0
    while calm < 2:
        if time.monotonic() > end:
            raise AssertionError(f"the app was still busy after {timeout} s: "
                                 f"{[w.name for w in app.workers if not w.is_finished]}")
        if idle():
            calm += 1
            await pilot.pause(0)  # one turn of the loop: a message handled now may post another
        else:
            calm = 0
            await pilot.pause(0.02)  # a poll interval, not a wait for time to pass
