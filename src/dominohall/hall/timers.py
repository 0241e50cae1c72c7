"""The clocks of RULES.md 6 as deadlines: the turn timer (a turn-based clock too), the wait for the
next hand, the grace period of a dropped connection, a turn-based clock's reminder and a
partner's 30 s to answer a resign request; when each falls due, and what happens then."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from . import commands
from .clock import Clock
from .computer import turn_of
from .deadlines import DeadlineKey, Due, LoopScheduler, Scheduler
from .dormancy import Wakeups
from .errors import STORE_UNAVAILABLE, HallError
from .events import Reminded

if TYPE_CHECKING:
    from .command_path import CommandPath
    from .rooms import Room, Rooms

log = logging.getLogger("dominohall.hall")
WAKE_RETRY_SECONDS = 5.0  # a sleeping table that failed to load is tried again after this
WAKE_BATCH = 100  # tables asleep loaded at once when their minute falls due
Remind = Callable[["Room", int], None]  # tells the person at a seat that their clock runs low


class Timers:
    """Sets each table's deadlines as the table changes, and commits what follows when one is due.

    The timers are a part of the table's owner (they fire where the table is held): each sends
    its command through the owner's own way in, ``CommandPath.run_owned``, as a player's goes.
    """

    def __init__(
        self,
        clock: Clock,
        rooms: Rooms,
        owner: CommandPath,
        *,
        grace_seconds: float,
        remind: Remind | None = None,
    ) -> None:
        self.clock = clock
        self.rooms = rooms
        self.owner = owner
        self.grace_seconds = grace_seconds
        self.remind = remind
        # Presence's look at who is connected, made before a grace period ends (set by the hall).
        self.recount: Callable[[str], Awaitable[None]] | None = None
        self.scheduler: Scheduler = LoopScheduler(clock, self._due)
        self.wakeups = Wakeups(self.scheduler)  # the tables asleep (``dormancy.py``)

    def schedule(self, room: Room) -> None:
        """Set the table's own deadlines (the turn timer or the next-hand wait, a turn-based
        clock's reminder), and no other."""
        due = room.state.deadlines()
        for what in (Due.TURN, Due.NEXT_HAND, Due.REMINDER, Due.RESIGN):
            key = DeadlineKey(room.id, what)
            if what in due:
                self.scheduler.set(key, due[what])
            else:
                self.scheduler.cancel(key)

    def start_grace(self, table_id: str, seat: int) -> None:
        """A seat's person has no connection: they have the grace period to come back (on a
        real-time table held here: being away never costs a seat at a turn-based one)."""
        room = self.rooms.get(table_id)
        if room is None or seat in room.attended or room.state.options.turn_based is not None:
            return
        key = DeadlineKey(table_id, Due.GRACE, seat)
        self.scheduler.set(key, self.clock.now() + self.grace_seconds)

    def end_grace(self, room: Room, seat: int) -> None:
        self.scheduler.cancel(DeadlineKey(room.id, Due.GRACE, seat))

    def cancel(self, room: Room) -> None:
        """The table needs no clock any more (its game is over)."""
        self.scheduler.cancel_table(room.id)

    def close(self) -> None:
        self.scheduler.close()

    async def _due(self, key: DeadlineKey) -> None:
        try:
            await self._fire(key)
        except HallError as error:
            if error.code != STORE_UNAVAILABLE:
                raise
            # Fell due as the database went away (the outage has paused the scheduler): set
            # again, held, to fire once the outage is given back (a table's own deadlines are
            # set again from its state then anyway).
            self.scheduler.set(key, self.clock.now())

    async def _fire(self, key: DeadlineKey) -> None:
        if key.due is Due.WAKE:
            await self._wake(key)
            return
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
        elif key.due is Due.RESIGN:
            await self.owner.run_owned(room, commands.ResignUnanswered(self.clock.now()))

    async def _wake(self, key: DeadlineKey) -> None:
        """Tables asleep are due (``dormancy.py``): each loaded and resumed sets its own
        deadlines again, and those already past fire at once. One not loaded (the database
        away) is tried again a little later: its deadline is not lost."""
        tables = [t for t in self.wakeups.due(key) if self.rooms.is_asleep(t)]
        for first in range(0, len(tables), WAKE_BATCH):
            batch = tables[first : first + WAKE_BATCH]
            loaded = await asyncio.gather(
                *(self.rooms.load(t) for t in batch), return_exceptions=True
            )
            for table_id, outcome in zip(batch, loaded, strict=True):
                if isinstance(outcome, BaseException):
                    log.error("table %s: not loaded for its deadline", table_id, exc_info=outcome)
                    if self.rooms.is_asleep(table_id):
                        self.wakeups.set(table_id, self.clock.now() + WAKE_RETRY_SECONDS)

    # Each command is looked at again under the table's lock: a move may have come in while it
    # waited for the lock, and then the table's new deadline is already set.
    async def _turn_over(self, room: Room) -> None:
        state, now = room.state, self.clock.now()
        turn = state.turn
        autoplay = turn_of(state, turn) if turn is not None else ()
        await self.owner.run_owned(room, commands.TurnTimeUp(now, autoplay))

    async def _reminder_due(self, room: Room) -> None:
        events = await self.owner.run_owned(room, commands.Remind(self.clock.now()))
        for event in events:
            if isinstance(event, Reminded) and self.remind is not None:
                self.remind(room, event.seat)  # a reminder is noted in the log once, then told

    async def _next_hand_due(self, room: Room) -> None:
        await self.owner.run_owned(room, commands.DealNextHand(self.clock.now()))

    async def _grace_over(self, room: Room, seat: int) -> None:
        key = DeadlineKey(room.id, Due.GRACE, seat)

        def back(room: Room) -> bool:
            # They came back (and maybe left again meanwhile: a new grace period runs).
            return self.scheduler.when(key) is not None or seat in room.attended

        if self.recount is not None:
            await self.recount(room.id)  # a connection through another process may be news
        await self.owner.run_owned(room, commands.GraceOver(seat), unless=back)
