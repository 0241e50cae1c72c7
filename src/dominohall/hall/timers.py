"""The clocks of RULES.md 6 as deadlines: the turn timer (a turn-based clock too), the wait for the
next hand, the grace period of a dropped connection and a turn-based clock's reminder; when each
falls due, and what happens then."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from . import commands
from .clock import Clock
from .deadlines import DeadlineKey, Due, LoopScheduler, Scheduler

if TYPE_CHECKING:
    from .rooms import Room, Rooms

Run = Callable[["Room", commands.Command], Awaitable[int]]
Remind = Callable[["Room", int], None]  # tells the person at a seat that their clock runs low


class Timers:
    """Sets each table's deadlines as the table changes, and commits what follows when one is due.

    ``run`` is the hall's command path: the timers change a table the way a player does.
    """

    def __init__(
        self,
        clock: Clock,
        rooms: Rooms,
        *,
        run: Run,
        grace_seconds: float,
        remind: Remind | None = None,
    ) -> None:
        self.clock = clock
        self.rooms = rooms
        self.run = run
        self.grace_seconds = grace_seconds
        self.remind = remind
        self.scheduler: Scheduler = LoopScheduler(clock, self._due)

    def schedule(self, room: Room) -> None:
        """Set the table's own deadlines (the turn timer or the next-hand wait, a turn-based
        clock's reminder), and no other."""
        due = room.state.deadlines()
        for what in (Due.TURN, Due.NEXT_HAND, Due.REMINDER):
            key = DeadlineKey(room.id, what)
            if what in due:
                self.scheduler.set(key, due[what])
            else:
                self.scheduler.cancel(key)

    def start_grace(self, room: Room, seat: int) -> None:
        """A seat's person has no connection: they have the grace period to come back (on a
        real-time table: being away never costs a seat at a turn-based one)."""
        if room.connections.get(seat) or room.state.options.turn_based is not None:
            return
        key = DeadlineKey(room.id, Due.GRACE, seat)
        self.scheduler.set(key, self.clock.now() + self.grace_seconds)

    def end_grace(self, room: Room, seat: int) -> None:
        self.scheduler.cancel(DeadlineKey(room.id, Due.GRACE, seat))

    def cancel(self, room: Room) -> None:
        """The table needs no clock any more (its game is over)."""
        self.scheduler.cancel_table(room.id)

    def close(self) -> None:
        self.scheduler.close()

    async def _due(self, key: DeadlineKey) -> None:
        room = self.rooms.get(key.table)
        if room is None:
            return
        if key.due is Due.TURN:
            await self._turn_over(room)
        elif key.due is Due.NEXT_HAND:
            await self._next_hand_due(room)
        elif key.due is Due.GRACE and key.seat is not None:
            await self._grace_over(room, key.seat)
        elif key.due is Due.REMINDER:
            await self._reminder_due(room)

    # Each handler looks at the table again under its lock: a move may have come in while it
    # waited for the lock, and then the table's new deadline is already set.
    async def _turn_over(self, room: Room) -> None:
        async with room.lock:
            await self.run(room, commands.TurnTimeUp(self.clock.now()))

    async def _reminder_due(self, room: Room) -> None:
        async with room.lock:
            state = room.state
            before, turn = state.version, state.turn
            await self.run(room, commands.Remind(self.clock.now()))
            if state.version != before and turn is not None and self.remind is not None:
                self.remind(room, turn)  # a reminder is noted in the log once, then told

    async def _next_hand_due(self, room: Room) -> None:
        async with room.lock:
            await self.run(room, commands.DealNextHand(self.clock.now()))

    async def _grace_over(self, room: Room, seat: int) -> None:
        async with room.lock:
            if self.scheduler.when(DeadlineKey(room.id, Due.GRACE, seat)) is not None:
                return  # they came back and left again meanwhile: a new grace period runs
            if room.connections.get(seat):
                return
            await self.run(room, commands.GraceOver(seat))
