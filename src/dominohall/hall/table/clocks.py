"""A table's clocks as arithmetic on plain numbers (RULES.md 6, S3; docs/protocol.md 7): what
runs out (``Due``), and a turn-based clock: the table keeps each seat's seconds left, when the
turn began, the seconds of it charged to no one (the hall down, a vacation replaced) and each
seat's vacation; these say what that means.

A vacation is a window (start, end) of seconds that no clock is charged for.
"""

from __future__ import annotations

from enum import StrEnum

from ..options import TurnBasedClock


class Due(StrEnum):
    """What runs out."""

    TURN = "turn"  # the turn timer of the seat to move
    NEXT_HAND = "next_hand"  # the wait between hands
    GRACE = "grace"  # the grace period of a seat whose connection dropped
    REMINDER = "reminder"  # turn-based: a quarter of the cap left on the clock of the seat to move
    RESIGN = "resign"  # a partner's time to answer a resign request (in memory only)
    WAKE = "wake"  # a table asleep (out of memory) is loaded for its next deadline (dormancy.py)


Window = tuple[float, float]


def overlap(start: float, end: float, window: Window | None) -> float:
    """Seconds of ``start``..``end`` that fall inside ``window``."""
    if window is None:
        return 0.0
    return max(0.0, min(end, window[1]) - max(start, window[0]))


def used(now: float, since: float, credit: float, vacation: Window | None) -> float:
    """Seconds of a turn begun at ``since`` charged to its clock by ``now``: not the ``credit``
    given back, nor the time on vacation."""
    return max(0.0, now - since - credit - overlap(since, now, vacation))


def left_after_turn(left: float, spent: float, clock: TurnBasedClock) -> float:
    """A clock holding ``left`` when its turn began, once the turn took ``spent``: what is left
    of it, plus the increment, never more than the cap."""
    return min(clock.cap, max(0.0, left - spent) + clock.increment)


def runs_out_at(since: float, credit: float, left: float, vacation: Window | None) -> float:
    """When the clock of a turn begun at ``since`` runs out: the vacation under way or to come
    pauses it."""
    return since + credit + left + overlap(since, float("inf"), vacation)


def remind_at(runs_out: float, clock: TurnBasedClock, vacation: Window | None) -> float:
    """When a quarter of the cap is left, or the vacation's end if that is later (nobody is
    reminded on vacation)."""
    when = runs_out - clock.cap / 4
    return max(when, vacation[1]) if vacation is not None else when


def on_vacation_until(vacation: Window | None, now: float) -> float | None:
    """When the vacation ends, while ``now`` is within it."""
    if vacation is not None and vacation[0] <= now < vacation[1]:
        return vacation[1]
    return None
