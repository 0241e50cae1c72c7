"""Presence: which seats have a connection, and the grace period of a seat whose last socket
closed (RULES.md 6: not back in time, the person is out of the game).

Sockets may be on any process. Each process counts its own sockets a seat, and says on the
``SeatBoard`` when a seat gains its first socket there or loses its last; then it asks the
table's owner to look again (``recount``). Only the owner, reading the board, decides that a
seat is connected or not: it tells the table, starts or ends the seat's grace period, and runs
what follows a person gone. On one process the owner is this one and the board is in memory.

The watchers (sockets without a seat) are counted the same way: each process writes its count a
table on the board, and the owner sums them and tells the table when the sum changes (the
``watchers`` notice).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from .broker import Broker
from .errors import HallError
from .notices import SeatPresence, Watchers
from .rooms import Room, Rooms
from .seat_board import SeatBoard
from .table import Phase
from .timers import Timers

log = logging.getLogger("dominohall.hall")

Gone = Callable[[Room, int], Awaitable[None]]
Came = Callable[[Room], Awaitable[None]]
AskOwner = Callable[[str], Awaitable[None]]  # the table's owner: look again at who is connected


class Presence:
    def __init__(
        self,
        rooms: Rooms,
        timers: Timers,
        broker: Broker,
        gone: Gone,
        board: SeatBoard,
        *,
        ask_owner: AskOwner | None = None,
        renew_seconds: float | None = None,
        came: Came | None = None,
    ) -> None:
        """``ask_owner``: several processes, the way to the table's owner (None: this process
        owns every table); ``renew_seconds``: how often this process renews its seats on the
        board and looks again at its tables connected through others (None: no rounds)."""
        self.rooms = rooms
        self.timers = timers
        self.broker = broker
        self.gone = gone  # what follows a seat's last socket closing (sent to the table's owner)
        self.came = came  # what follows a seat's first socket anywhere
        self.board = board
        self.ask_owner = ask_owner
        self.renew_seconds = renew_seconds
        self._sockets: dict[tuple[str, int], int] = {}  # (table, seat) -> sockets on this process
        self._watchers: dict[str, int] = {}  # table -> sockets without a seat on this process
        self._task: asyncio.Task[None] | None = None

    def sockets(self, table_id: str, seat: int) -> int:
        """How many sockets this process has open for the seat."""
        return self._sockets.get((table_id, seat), 0)

    # A socket's side (any process) --------------------------------------------------------
    def watchers(self, table_id: str) -> int:
        """How many sockets without a seat this process has open on the table."""
        return self._watchers.get(table_id, 0)

    async def connect(self, table_id: str, seat: int | None) -> None:
        """A socket opens on a table for ``seat`` (None: a spectator)."""
        if seat is not None:
            await self._add(table_id, seat)
        else:
            await self._watch(table_id, +1)

    async def disconnect(self, table_id: str, seat: int | None) -> None:
        if seat is not None:
            await self._remove(table_id, seat)
        else:
            await self._watch(table_id, -1)
        room = self.rooms.get(table_id)
        if room is not None and _over_and_unwatched(room):
            self.rooms.let_go(room)

    async def reseat(self, table_id: str, old: int | None, new: int | None) -> None:
        """A socket's person changed seats (joined while watching, or went out of the game)."""
        if new is not None:
            await self._add(table_id, new)
        else:
            await self._watch(table_id, +1)
        if old is not None:
            await self._remove(table_id, old)
        else:
            await self._watch(table_id, -1)

    async def _watch(self, table_id: str, step: int) -> None:
        count = max(0, self._watchers.get(table_id, 0) + step)
        if count:
            self._watchers[table_id] = count
        else:
            self._watchers.pop(table_id, None)
        await self.board.watch(table_id, count)
        await self._changed(table_id)

    async def _add(self, table_id: str, seat: int) -> None:
        key = (table_id, seat)
        self._sockets[key] = self._sockets.get(key, 0) + 1
        if self._sockets[key] == 1:
            await self.board.arrive(table_id, seat)
            await self._changed(table_id)

    async def _remove(self, table_id: str, seat: int) -> None:
        key = (table_id, seat)
        left = self._sockets.get(key, 0) - 1
        if left > 0:
            self._sockets[key] = left
            return
        self._sockets.pop(key, None)
        await self.board.leave(table_id, seat)
        await self._changed(table_id)

    async def _changed(self, table_id: str) -> None:
        if self.ask_owner is None:
            await self.recount(table_id)
            return
        try:
            await self.ask_owner(table_id)
        except HallError as exc:
            # The board has it: the owner reads it on its rounds, and a new owner on taking over.
            log.warning("table %s: its owner not told of a seat's connection: %s", table_id, exc)

    # The owner's side ---------------------------------------------------------------------
    async def recount(self, table_id: str) -> None:
        """Look again at which seats of a table held here have a connection anywhere: tell the
        table what changed, and start or end grace periods."""
        room = self.rooms.get(table_id)
        if room is None:
            return
        async with room.seats_lock:  # one look at a time: a later one never lands first
            present = await self.board.present(table_id)
            watching = await self.board.watching(table_id)
            if present is None or watching is None:
                return  # the board is away: what was known stands (nobody put out for it)
            here = self.board.process_id
            room.attended_elsewhere = any(p != here for ps in present.values() for p in ps) or any(
                p != here for p in watching
            )
            self._count_watchers(room, sum(watching.values()))
            await self._attend(room, frozenset(present))

    def _count_watchers(self, room: Room, count: int) -> None:
        if count != room.watching:
            room.watching = count
            self.broker.notify(room.id, Watchers(count))

    async def _attend(self, room: Room, present: frozenset[int]) -> None:
        before, room.attended = room.attended, present
        for seat in sorted(present - before):
            self.timers.end_grace(room, seat)
            self._tell(room, seat, True)
        if present - before and self.came is not None:
            await self.came(room)
        for seat in sorted(before - present):
            state = room.state
            if state.phase is not Phase.FINISHED and state.seats[seat].is_person:
                self.timers.start_grace(room.id, seat)
            self._tell(room, seat, False)
            await self.gone(room, seat)

    def _tell(self, room: Room, seat: int, connected: bool) -> None:
        """Whether a seat has a connection now: an unversioned notice on the table's channel."""
        self.broker.notify(room.id, SeatPresence(seat, connected))

    # Rounds (several processes) -----------------------------------------------------------
    async def tick(self) -> None:
        """Renew this process's seats on the board; look again at each table held here that is
        connected through another process (which may have died: its seats then stop counting)."""
        await self.board.renew()
        for room in self.rooms:
            if room.attended_elsewhere:
                await self.recount(room.id)

    def start(self) -> None:
        if self.renew_seconds is not None:
            self._task = asyncio.create_task(self._loop())

    async def _loop(self) -> None:
        assert self.renew_seconds is not None
        while True:
            await asyncio.sleep(self.renew_seconds)
            try:
                await self.tick()
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("renewing the seats' connections failed")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None


def _over_and_unwatched(room: Room) -> bool:
    """A finished table, stored, that nobody looks at: it need not stay in memory."""
    finished = room.state.phase is Phase.FINISHED and room.saved_finish
    return finished and not room.attended and not room.listening
