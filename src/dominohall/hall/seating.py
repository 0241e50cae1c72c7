"""Seating: a new table with its host in seat 0, and the commands of the seating phase (join, a
computer player seated or a seat emptied by the host, the start) and of leaving."""

from __future__ import annotations

import secrets
import string
from dataclasses import dataclass
from typing import Any

from ..rules import Game
from . import commands
from .command_path import CommandPath, OnCommit
from .errors import HallError
from .events import Created, Event, SeatAtStart, SeatKind, Started
from .options import BOT_LEVELS, Options
from .rooms import Room
from .table import TableState, deal_next
from .timers import Timers

_ID_LETTERS = string.ascii_lowercase + string.digits


@dataclass(frozen=True)
class Person:
    """Who asks: a player's id and the name shown at the table."""

    id: str
    name: str


class Seating:
    def __init__(self, path: CommandPath, timers: Timers) -> None:
        self.path = path
        self.timers = timers

    async def create_table(self, person: Person, request: dict[str, Any]) -> TableState:
        options, bots = Options.parse(request)
        return await self._create(person, options, bots, start=False)

    async def play_with_bots(self, person: Person, request: dict[str, Any]) -> TableState:
        bot = request.get("bot", "normal")
        if bot not in BOT_LEVELS:
            raise HallError("bad_option", f"a computer player is easy, normal or hard, not {bot!r}")
        preset = request.get("preset", "draw")
        options, bots = Options.parse({"preset": preset, "seats": 2, "bots": [None, bot]})
        return await self._create(person, options, bots, start=True)

    async def _create(
        self, person: Person, options: Options, bots: list[str | None], *, start: bool
    ) -> TableState:
        path = self.path
        table_id = "".join(secrets.choice(_ID_LETTERS) for _ in range(8))
        seats = []
        for seat, bot in enumerate(bots):
            if seat == 0:
                seats.append(SeatAtStart(SeatKind.HUMAN, person.id, person.name))
            elif bot is not None:
                seats.append(SeatAtStart(SeatKind.BOT, None, bot.title(), bot))
            else:
                seats.append(SeatAtStart(SeatKind.EMPTY))
        events: list[Event] = [Created(options, tuple(seats))]
        if start:
            game = Game(options.preset, options.seats, options.target)
            events += [Started(), deal_next(game, path.rng)]
        await path.store.add_table(table_id, path.clock.now())
        room = path.rooms.add(Room(TableState(table_id)))
        async with room.lock:
            await path.commit(room, events)
            self.timers.start_grace(room, 0)
        path.broker.tell(person.id, {"kind": "seated", "table": table_id, "seat": 0})
        return room.state

    async def join(self, person: Person, table_id: str, seat: int | None) -> int:
        room = await self.path.rooms.load(table_id)
        async with room.lock:
            await self.path.run(room, commands.Join(person.id, person.name, seat))
            seated = room.state.seat_of(person.id)
            assert seated is not None
            self.timers.start_grace(room, seated)
        self.path.broker.tell(person.id, {"kind": "seated", "table": table_id, "seat": seated})
        return seated

    async def seat_bot(self, person: Person, table_id: str, seat: int, bot: str) -> TableState:
        return await self.path.send(table_id, commands.SeatBot(person.id, seat, bot))

    async def remove(self, person: Person, table_id: str, seat: int) -> TableState:
        return await self.path.send(table_id, commands.Remove(person.id, seat))

    async def start_game(self, person: Person, table_id: str) -> TableState:
        return await self.path.send(table_id, commands.Start(person.id))

    async def leave(
        self, person: Person, table_id: str, on_commit: OnCommit | None = None
    ) -> TableState:
        """Leave the table; the table as it is then (it may have closed or finished)."""
        return await self.path.send(table_id, commands.Leave(person.id), on_commit)
