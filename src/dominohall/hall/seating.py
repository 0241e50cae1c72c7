"""Seating: a new table with its host in seat 0, and the commands of the seating phase (join, a
computer player seated or a seat emptied by the host, the start), of leaving and of a rematch,
each sent to the table's owner (``TableOwner``) by the table's id; and the notices of a seat
taken and of a rematch accepted, which the owner has told after the commit (``tell``)."""

from __future__ import annotations

import secrets
import string
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from . import commands
from .broker import Broker
from .command_path import OnCommit, TableOwner
from .errors import HallError
from .events import Created, Event, Joined, Rematch, SeatAtStart, SeatKind
from .notices import Invitation, Seated
from .options import BotLevel, Options, check_table_bots
from .table import TableState
from .table.rematch import rematch_people
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
        self,
        owner: TableOwner,
        broker: Broker,
        timers: Timers,
        turn_based_room: Callable[[str], None],
        held_back: Callable[[str], Awaitable[None]],
    ) -> None:
        self.owner = owner
        self.broker = broker
        self.timers = timers
        self.turn_based_room = turn_based_room  # HallError: the player plays enough such games
        self.held_back = held_back  # HallError: the player walked away from real-time games

    async def create_table(
        self, person: Person, options: Options, bots: Sequence[BotLevel | None] | None = None
    ) -> TableState:
        """A table in seating, ``person`` its host at seat 0; ``bots``: a computer player (or
        None) per seat."""
        bots = list(bots) if bots is not None else [None] * options.seats
        check_table_bots(options, bots)
        if options.turn_based is not None:
            self.turn_based_room(person.id)
        elif any(bot is None for bot in bots[1:]):  # (others to play with: people may join)
            await self.held_back(person.id)
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
            raise HallError(
                "bad_option",
                "'bots' lists 1 to 3 computer players, not {bots_count}",
                bots_count=len(bots),
            )
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
        state = await self.open_table(options, tuple(seats), start=start)
        self.timers.start_grace(state.id, 0)
        return state

    async def open_table(
        self, options: Options, seats: tuple[SeatAtStart, ...], *, start: bool
    ) -> TableState:
        """A new table with these seats, maybe started."""
        return await self.owner.open(new_table_id(), commands.Open(options, seats, start))

    async def rematch(self, person: Person, table_id: str, accept: bool) -> TableState:
        """Accept (or decline) a rematch of a finished game; the new table starts once every
        person seated at the end accepted (the owner opens it before the old table names it).
        Declining (leaving) ends the offer for everyone."""
        if accept:
            table = await self.owner.table(table_id)
            if table.options.turn_based is None:
                await self.held_back(person.id)
        new_table = new_table_id()
        state = await self.owner.send(
            table_id, commands.AnswerRematch(person.id, accept, new_table)
        )
        if state.rematch_table == new_table:  # this answer opened it
            for other in rematch_people(state):
                self.timers.start_grace(new_table, other)
        return state

    async def join(self, person: Person, table_id: str, seat: int | None) -> int:
        table = await self.owner.table(table_id)
        if table.seat_of(person.id) is None:
            if table.options.turn_based is not None:
                self.turn_based_room(person.id)
            else:
                await self.held_back(person.id)
        state = await self.owner.send(table_id, commands.Join(person.id, person.name, seat))
        seated = state.seat_of(person.id)
        assert seated is not None
        self.timers.start_grace(table_id, seated)
        return seated

    def tell(self, state: TableState, events: list[Event]) -> None:
        """After a commit, told by the table's owner: each person seated by it hears where
        (``Seated``), and the first "yes" of each person to a rematch is an invitation to
        those who have not answered yet."""
        for event in events:
            if isinstance(event, Created):
                for seat in event.seats:
                    if seat.player is not None:
                        self.broker.tell(seat.player, Seated(state.id, state.seat_of(seat.player)))
            elif isinstance(event, Joined):
                self.broker.tell(event.player, Seated(state.id, event.seat))
            elif isinstance(event, Rematch) and event.accept and state.rematch_table is None:
                self._invite_to_rematch(state, state.seats[event.seat].name or "")

    def _invite_to_rematch(self, state: TableState, name: str) -> None:
        for seat in rematch_people(state):
            player = state.seats[seat].player
            if seat in state.rematch_accepted or player is None:
                continue
            self.broker.tell(player, Invitation("rematch", state.id, name))

    async def seat_bot(self, person: Person, table_id: str, seat: int, bot: BotLevel) -> TableState:
        return await self.owner.send(table_id, commands.SeatBot(person.id, seat, bot))

    async def remove(self, person: Person, table_id: str, seat: int) -> TableState:
        return await self.owner.send(table_id, commands.Remove(person.id, seat))

    async def start_game(self, person: Person, table_id: str) -> TableState:
        return await self.owner.send(table_id, commands.Start(person.id))

    async def leave(
        self, person: Person, table_id: str, on_commit: OnCommit | None = None
    ) -> TableState:
        """Leave the table; the table as it is then (it may have closed or finished)."""
        return await self.owner.send(table_id, commands.Leave(person.id), on_commit)
