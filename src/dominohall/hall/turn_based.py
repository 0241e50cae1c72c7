"""A player's turn-based play across tables: the most games one may play at once, and vacations
(every turn-based clock of the player paused for some days, a few weeks a year at most).

A vacation is stored with the player (so the days taken this year can be counted) and written
into the log of each turn-based table the player plays, as a ``Vacation`` event: each table's
clocks are derived from its own log alone, so a restart finds the pause again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import commands
from .errors import HallError
from .messages import Vacation
from .options import DAY
from .table import Phase, TableState

if TYPE_CHECKING:
    from ..store import Store
    from .clock import Clock
    from .command_path import Run, TableOwner
    from .rooms import Room, Rooms

YEAR = 365 * DAY


@dataclass(frozen=True)
class TurnBasedSettings:
    """The operator's settings (``dominohall serve --turn-based-games``, ``--vacation-days``)."""

    games: int = 30  # unfinished turn-based games one player may play at once
    vacation_days: int = 21  # days of vacation a player may take in any 365 days


def plays_turn_based(state: TableState, player: str) -> bool:
    """``player`` plays an unfinished turn-based game at this table (seated, not out)."""
    return (
        state.options.turn_based is not None
        and state.phase is not Phase.FINISHED
        and state.seat_of(player) is not None
    )


class TurnBased:
    def __init__(
        self,
        settings: TurnBasedSettings,
        *,
        store: Store,
        clock: Clock,
        rooms: Rooms,
        path: TableOwner,
    ) -> None:
        self.settings = settings
        self.store = store
        self.clock = clock
        self.rooms = rooms
        self.path = path
        self._current: dict[str, tuple[float, float]] = {}  # player -> the vacation under way

    # The limit of games ------------------------------------------------------------------
    def games_of(self, player: str) -> int:
        """The unfinished turn-based games ``player`` plays: in memory, and asleep (each of
        those is one: ``dormancy.may_sleep``)."""
        awake = sum(plays_turn_based(room.state, player) for room in self.rooms.played_by(player))
        return awake + len(self.rooms.asleep_of(player))

    def check_room_for(self, player: str) -> None:
        """HallError when ``player`` already plays as many turn-based games as the hall allows."""
        most = self.settings.games
        playing = self.games_of(player)
        if playing >= most:
            raise HallError(
                "too_many_games",
                "you play {playing} turn-based games already, the most one player may play at "
                "once ({most}): finish one first",
                playing=playing,
                most=most,
            )

    # Vacations ---------------------------------------------------------------------------
    async def load(self) -> None:
        """At start: the vacations under way are kept in memory."""
        self._current = await self.store.vacations.under_way(self.clock.now())

    def current(self, player: str) -> tuple[float, float] | None:
        """The player's vacation (start, end) under way now."""
        vacation = self._current.get(player)
        if vacation is None or vacation[1] <= self.clock.now():
            return None
        return vacation

    async def vacation(self, player: str) -> Vacation:
        """The player's vacation as ``GET /api/me/vacation`` answers: under way, and days left."""
        now = self.clock.now()
        taken = await self.store.vacations.of_player(player, now - YEAR)
        used = sum(end - max(start, now - YEAR) for start, end in taken) / DAY
        current = self.current(player)
        return {
            "on_vacation": current is not None,
            "start": current[0] if current else None,
            "end": current[1] if current else None,
            "days_a_year": self.settings.vacation_days,
            "days_left": max(0.0, round(self.settings.vacation_days - used, 2)),
        }

    async def start_vacation(self, player: str, days: Any) -> Vacation:
        """Pause every turn-based clock of ``player`` for ``days`` days from now."""
        if self.current(player) is not None:
            raise HallError("on_vacation", "you are on vacation already: end it first")
        status = await self.vacation(player)
        left = math.floor(status["days_left"] + 1e-9)
        if not isinstance(days, int) or isinstance(days, bool) or days < 1:
            raise HallError(
                "bad_request",
                "'days' is a whole number of days (1 or more), not {days!r}",
                days=days,
            )
        if days > left:
            raise HallError(
                "no_vacation_left",
                "you have {left} days of vacation left (of {year} in any 365 days), not {days}",
                left=left,
                year=self.settings.vacation_days,
                days=days,
            )
        now = self.clock.now()
        end = now + days * DAY
        await self.store.vacations.add(player, now, end)
        self._current[player] = (now, end)
        await self._tell_tables(player, now, end)
        return await self.vacation(player)

    async def end_vacation(self, player: str) -> Vacation:
        """End ``player``'s vacation now (the days not taken stay theirs)."""
        current = self.current(player)
        if current is None:
            raise HallError("not_on_vacation", "you are not on vacation")
        now = self.clock.now()
        await self.store.vacations.end(player, current[0], now)
        self._current[player] = (current[0], now)
        await self._tell_tables(player, current[0], now)
        return await self.vacation(player)

    async def _tell_tables(self, player: str, start: float, end: float) -> None:
        tables = [r.id for r in self.rooms.played_by(player) if plays_turn_based(r.state, player)]
        for table_id in tables + self.rooms.asleep_of(player):  # (one asleep is loaded by it)
            await self.path.send(table_id, commands.SetVacation(player, start, end))

    async def cover(self, room: Room, run: Run) -> None:
        """A turn-based game under way pauses the clocks of its people on vacation (a game that
        started during one). Run by the table's owner after a change (``run``: under its hold)."""
        state = room.state
        if state.options.turn_based is None or state.phase is not Phase.PLAYING:
            return
        for seat in state.people():
            vacation = self.current(seat.player) if seat.player is not None else None
            known = state.vacations.get(seat.seat)
            if vacation is not None and (known is None or known[1] != vacation[1]):
                await run(commands.SetVacation(seat.player, *vacation))  # type: ignore[arg-type]
