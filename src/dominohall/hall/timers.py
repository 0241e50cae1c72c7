"""The real-time clocks of RULES.md 6 as deadlines: the turn timer, the wait for the next hand and
the grace period of a dropped connection; when each falls due, and what happens then."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..rules import Game
from .clock import Clock
from .computer import whole_turn
from .deadlines import DeadlineKey, Due, LoopScheduler, Scheduler
from .table import Phase, move_event

if TYPE_CHECKING:
    from .hall import Room

Commit = Callable[["Room", list[dict[str, Any]]], Awaitable[int]]
Deal = Callable[[Game], dict[str, Any]]


class Timers:
    """Sets each table's deadlines as the table changes, and commits what follows when one is due.

    ``commit`` and ``deal`` are the hall's: the timers change a table the way a player does.
    """

    def __init__(
        self,
        clock: Clock,
        rooms: Mapping[str, Room],
        *,
        commit: Commit,
        deal: Deal,
        grace_seconds: float,
    ) -> None:
        self.clock = clock
        self.rooms = rooms
        self.commit = commit
        self.deal = deal
        self.grace_seconds = grace_seconds
        self.scheduler: Scheduler = LoopScheduler(clock, self._due)

    def schedule(self, room: Room) -> None:
        """Set the turn timer or the next-hand wait for the table as it is now, and no other."""
        state = room.state
        turn_key = DeadlineKey(room.id, Due.TURN)
        next_hand_key = DeadlineKey(room.id, Due.NEXT_HAND)
        if state.phase is Phase.BETWEEN_HANDS:
            self.scheduler.cancel(turn_key)
            self.scheduler.set(next_hand_key, state.next_hand_deadline)
            return
        self.scheduler.cancel(next_hand_key)
        turn = state.turn
        if turn is not None and state.seats[turn].is_person:
            self.scheduler.set(turn_key, state.turn_deadline)
        else:
            self.scheduler.cancel(turn_key)

    def start_grace(self, room: Room, seat: int) -> None:
        """A seat's person has no connection: they have the grace period to come back."""
        if room.connections.get(seat):
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

    # Each handler looks at the table again under its lock: a move may have come in while it
    # waited for the lock, and then the table's new deadline is already set.
    async def _turn_over(self, room: Room) -> None:
        async with room.lock:
            state = room.state
            turn, hand = state.turn, state.hand
            if turn is None or hand is None or not state.seats[turn].is_person:
                return
            if self.clock.now() < state.turn_deadline:
                return
            if state.seats[turn].timeouts:
                # Out of time twice running: out of the game (a computer player takes over).
                await self.commit(room, [{"kind": "out", "seat": turn, "reason": "timeout"}])
                return
            number = len(state.game.hands) - 1  # type: ignore[union-attr]
            moves = whole_turn(hand, turn, "normal")
            await self.commit(room, [move_event(turn, number, m, "timer") for m in moves])

    async def _next_hand_due(self, room: Room) -> None:
        async with room.lock:
            state = room.state
            if state.phase is not Phase.BETWEEN_HANDS:
                return
            if self.clock.now() < state.next_hand_deadline:
                return
            await self.commit(room, [self.deal(state.game)])  # type: ignore[arg-type]

    async def _grace_over(self, room: Room, seat: int) -> None:
        async with room.lock:
            state = room.state
            if self.scheduler.when(DeadlineKey(room.id, Due.GRACE, seat)) is not None:
                return  # they came back and left again meanwhile: a new grace period runs
            if room.connections.get(seat) or not state.seats[seat].is_person:
                return
            if state.phase is Phase.SEATING:
                await self.commit(room, [{"kind": "removed", "seat": seat}])
            elif state.phase is not Phase.FINISHED:
                await self.commit(room, [{"kind": "out", "seat": seat, "reason": "disconnected"}])
