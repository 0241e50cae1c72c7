"""Seating: a new table with its host in seat 0, and the commands of the seating phase (join, a
computer player seated or a seat emptied by the host, the start) and of leaving."""

from __future__ import annotations

import secrets
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import commands
from .command_path import CommandPath, OnCommit
from .errors import HallError
from .events import RematchTable, SeatAtStart, SeatKind
from .notices import Invitation, Seated
from .options import BotLevel, Options, check_table_bots
from .rematch import decide_rematch, rematch_people, rematch_seats
from .rooms import Room
from .table import TableState
from .timers import Timers

_ID_LETTERS = string.ascii_lowercase + string.digits


@dataclass(frozen=True)
class Person:
    """Who asks: a player's id and the name shown at the table."""

    id: str
    name: str


def new_table_id() -> str:
    return "".join(secrets.choice(_ID_LETTERS) for _ in range(8))


class Seating:
    def __init__(
        self, path: CommandPath, timers: Timers, turn_based_room: Callable[[str], None]
    ) -> None:
        self.path = path
        self.timers = timers
        self.turn_based_room = turn_based_room  # HallError: the player plays enough such games

    async def create_table(
        self, person: Person, options: Options, bots: Sequence[BotLevel | None] | None = None
    ) -> TableState:
        """A table in seating, ``person`` its host at seat 0; ``bots``: a computer player (or
        None) per seat."""
        bots = list(bots) if bots is not None else [None] * options.seats
        check_table_bots(options, bots)
        if options.turn_based is not None:
            self.turn_based_room(person.id)
        return await self._create(person, options, bots, start=False)

    async def play_with_bots(
        self,
        person: Person,
        bots: Sequence[BotLevel],
        preset: str | None = None,
        target: int | None = None,
    ) -> TableState:
        """A started table against 1-3 computer players (RULES.md 6, S1), one per level in
        ``bots``; ``preset`` and ``target`` as for a table."""
        if not 1 <= len(bots) <= 3:
            raise HallError("bad_option", f"'bots' lists 1 to 3 computer players, not {len(bots)}")
        options = Options.choose(preset, target, seats=1 + len(bots))
        return await self._create(person, options, [None, *bots], start=True)

    async def _create(
        self, person: Person, options: Options, bots: list[BotLevel | None], *, start: bool
    ) -> TableState:
        seats = []
        for seat, bot in enumerate(bots):
            if seat == 0:
                seats.append(SeatAtStart(SeatKind.HUMAN, person.id, person.name))
            elif bot is not None:
                seats.append(SeatAtStart(SeatKind.BOT, None, bot.title(), bot.value))
            else:
                seats.append(SeatAtStart(SeatKind.EMPTY))
        room = await self.open_table(options, tuple(seats), start=start)
        self.timers.start_grace(room, 0)
        return room.state

    async def open_table(
        self, options: Options, seats: tuple[SeatAtStart, ...], *, start: bool, table_id: str = ""
    ) -> Room:
        """A new table with these seats, maybe started (``table_id``: one chosen already)."""
        path = self.path
        table_id = table_id or new_table_id()
        await path.store.add_table(table_id, path.clock.now())
        room = path.rooms.add(Room(TableState(table_id)))
        async with room.lock:
            await path.run(room, commands.Open(options, seats, start))
        for seat in seats:
            if seat.player is not None:
                self._tell_seated(seat.player, table_id, room.state.seat_of(seat.player))
        return room

    async def rematch(self, person: Person, table_id: str, accept: bool) -> TableState:
        """Accept (or decline) a rematch of a finished game; the new table starts once every
        person seated at the end accepted. Declining (leaving) ends the offer for everyone."""
        answer = commands.AnswerRematch(person.id, accept, new_table_id())
        loaded = await self.path.rooms.load(table_id)
        decide_rematch(loaded.state, answer)  # a refusal leaves a finished table out of memory
        room = self.path.rooms.add(loaded)
        async with room.lock:
            state = room.state
            accepted_before = set(state.rematch_accepted)
            events, ending = state.decide_ending(answer, self.path.rng)
            if any(isinstance(e, RematchTable) for e in events):
                # The new table is opened before the old one names it: a crash between leaves
                # the offer standing, never a name of a table that does not exist.
                new = await self.open_table(
                    state.options, rematch_seats(state), start=True, table_id=answer.new_table
                )
                for other in rematch_people(state):
                    self.timers.start_grace(new, other)
            if events:
                await self.path.commit(room, events, ending=ending)
            if state.rematch_accepted - accepted_before and state.rematch_table is None:
                self._invite_to_rematch(state, person, accepted_before)
        return room.state

    async def join(self, person: Person, table_id: str, seat: int | None) -> int:
        room = await self.path.rooms.load(table_id)
        async with room.lock:
            if room.state.options.turn_based is not None and room.state.seat_of(person.id) is None:
                self.turn_based_room(person.id)
            await self.path.run(room, commands.Join(person.id, person.name, seat))
            seated = room.state.seat_of(person.id)
            assert seated is not None
            self.timers.start_grace(room, seated)
        self._tell_seated(person.id, table_id, seated)
        return seated

    def _tell_seated(self, player: str, table_id: str, seat: int | None) -> None:
        self.path.broker.tell(player, Seated(table_id, seat))

    def _invite_to_rematch(self, state: TableState, person: Person, answered: set[int]) -> None:
        """The first "yes" of each person is an invitation to those who have not answered yet."""
        for seat in rematch_people(state):
            player = state.seats[seat].player
            if seat in answered or seat in state.rematch_accepted or player is None:
                continue
            self.path.broker.tell(player, Invitation("rematch", state.id, person.name))

    async def seat_bot(self, person: Person, table_id: str, seat: int, bot: BotLevel) -> TableState:
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
