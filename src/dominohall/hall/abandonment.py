"""Abandonment (docs/protocol.md 4): a player who walks away from real-time games with other
people in them is held back from starting new real-time games for a while, longer each time,
and forgiven after a spell of games played to the end or of time.

Walking away is leaving (``leave``) or being put out for a lost connection or for timeouts; a
resign is conceding in the open and never counts. The standing is stored
(``store/abandonment.py``), so the hold is the same on every process and after a restart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..i18n import N_
from ..store.abandonment import Abandonments, Standing
from .clock import Clock
from .errors import HallError
from .events import Event, Out, OutReason
from .messages import Refusal
from .table import Phase, TableState

FIRST_HOLD = 10 * 60.0  # the first strike's hold, in seconds
LONGEST_HOLD = 24 * 3600.0  # no hold is longer
FORGIVING_GAMES = 5  # games played to the end after a strike: the strikes are forgiven
FORGIVING_SECONDS = 7 * 24 * 3600.0  # a week with no strike forgives them too
WALKING_AWAY = frozenset({OutReason.LEFT, OutReason.DISCONNECTED, OutReason.TIMEOUT})


def hold_seconds(strikes: int) -> float:
    """The hold after the ``strikes``-th strike that counts: 10 min, doubled each time, 24 h
    at most.

    >>> [hold_seconds(n) / 60 for n in (1, 2, 3, 8, 9, 40)]
    [10.0, 20.0, 40.0, 1280.0, 1440.0, 1440.0]
    """
    return min(FIRST_HOLD * 2.0 ** min(strikes - 1, 32), LONGEST_HOLD)


def after_abandoning(standing: Standing, at: float) -> Standing:
    """The standing after a strike at ``at``: the strikes before count unless forgiven (enough
    games finished since the last, or a long enough time)."""
    forgiven = (
        standing.finished_since >= FORGIVING_GAMES or at - standing.last_at >= FORGIVING_SECONDS
    )
    strikes = 1 if forgiven else standing.strikes + 1
    return Standing(strikes, at, at + hold_seconds(strikes), 0)


class HeldBack(HallError):
    """``held_back``: the player walked away from real-time games lately; ``until`` is when they
    may start or join one again (seconds since the epoch)."""

    def __init__(self, until: float, now: float) -> None:
        minutes = max(1, math.ceil((until - now) / 60))
        super().__init__(
            "held_back",
            N_(  # (marked: the extraction knows HallError's own calls only)
                "you left real-time games unfinished lately: you may start or join a new one"
                " in {minutes} min (a turn-based game, or watching, you may now)"
            ),
            minutes=minutes,
        )
        self.until = until
        self.retry_after = max(1, math.ceil(until - now))

    def to_json(self) -> Refusal:
        return {**super().to_json(), "until": self.until}


def walked_away(state: TableState, events: Sequence[Event]) -> list[tuple[str, str]]:
    """The people these events (committed at ``state``'s table) put out of a real-time game for
    walking away, with the reason: only where another person still plays (a game against
    computer players alone, or one everyone else left already, harms nobody)."""
    if state.options.turn_based is not None:
        return []
    out = []
    for event in events:
        if not isinstance(event, Out) or event.reason not in WALKING_AWAY:
            continue
        player = state.seats[event.seat].player
        others = any(s.is_person for s in state.seats if s.seat != event.seat)
        if player is not None and others:
            out.append((player, event.reason.value))
    return out


def played_to_the_end(state: TableState) -> list[str]:
    """The people still seated at a finished real-time game with other people in it."""
    if state.phase is not Phase.FINISHED or state.game_over is None:
        return []
    if state.options.turn_based is not None:
        return []
    seated = [s.player for s in state.seats if s.is_person and s.player is not None]
    people = [s.player for s in state.seats if s.player is not None]
    return seated if len(people) > 1 else []


class Abandonment:
    """The rule over the stored standings: strikes counted, holds checked."""

    def __init__(self, store: Abandonments, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def check(self, player: str) -> None:
        """``HeldBack`` while ``player`` is held back from new real-time games."""
        standing = await self.store.standing(player)
        now = self.clock.now()
        if standing.until > now:
            raise HeldBack(standing.until, now)

    async def count(self, state: TableState, events: Sequence[Event]) -> None:
        """After a commit at ``state``'s table: a strike for each person it put out for walking
        away (counted once per table, however often the owner's work is repeated)."""
        now = self.clock.now()
        for player, reason in walked_away(state, events):
            await self.store.strike(player, state.id, reason, now, after_abandoning)

    async def finished(self, state: TableState) -> None:
        """A game over (told once, as it is saved): a game toward forgiveness for each person
        who played it to its end."""
        await self.store.finished(played_to_the_end(state))
