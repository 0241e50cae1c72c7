"""Presence: who is connected at each seat, and the grace period of a seat whose last socket
closed (RULES.md 6: not back in time, the person is out of the game)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from .broker import Broker
from .notices import SeatPresence
from .rooms import Room, Rooms
from .table import Phase
from .timers import Timers


class Presence:
    def __init__(
        self,
        rooms: Rooms,
        timers: Timers,
        broker: Broker,
        gone: Callable[[Room, int], Awaitable[None]],
    ) -> None:
        self.rooms = rooms
        self.timers = timers
        self.broker = broker
        self.gone = gone  # what follows a seat's last socket closing (sent to the table's owner)

    def connect(self, room: Room, seat: int | None) -> None:
        """A socket opens on a table for ``seat`` (None: a spectator)."""
        if seat is not None:
            room.connections[seat] = room.connections.get(seat, 0) + 1
            self.timers.end_grace(room, seat)
            if room.connections[seat] == 1:
                self._tell(room, seat, True)

    async def disconnect(self, room: Room, seat: int | None) -> None:
        if seat is not None:
            room.connections[seat] = max(0, room.connections.get(seat, 0) - 1)
        if seat is not None and room.connections[seat] == 0:
            del room.connections[seat]
            if room.state.phase is not Phase.FINISHED and room.state.seats[seat].is_person:
                self.timers.start_grace(room.id, seat)
            self._tell(room, seat, False)
            await self.gone(room, seat)
        watched = room.connections or room.listening
        if room.state.phase is Phase.FINISHED and not watched and room.saved_finish:
            self.rooms.let_go(room)

    def _tell(self, room: Room, seat: int, connected: bool) -> None:
        """Whether a seat has a connection now: an unversioned notice on the table's channel."""
        self.broker.notify(room.id, SeatPresence(seat, connected))

    def reseat(self, room: Room, old: int | None, new: int | None) -> None:
        """A socket's person changed seats (joined while watching, or went out of the game)."""
        if old is not None:
            room.connections[old] = room.connections.get(old, 1) - 1
            if room.connections[old] <= 0:
                del room.connections[old]
                if room.state.seats[old].is_person and room.state.phase is not Phase.FINISHED:
                    self.timers.start_grace(room.id, old)
        if new is not None:
            room.connections[new] = room.connections.get(new, 0) + 1
            self.timers.end_grace(room, new)
