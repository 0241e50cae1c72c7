"""The hall: every live table in memory, the commands that change them, clocks and computer players.

A change always takes the same path: check it against the table under the table's lock, commit
its events to the store (the version check is the log's key), apply them to the in-memory table,
then publish. Nothing is acknowledged or broadcast before it is on disk.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..rules import DRAW, Game, InvalidTileError, Move
from ..rules.tiles import parse_halves
from ..store import Conflict, Store
from . import commands
from .broker import Broker, MemoryBroker
from .clock import Clock, SystemClock
from .computer import Thinkers
from .errors import HallError
from .events import Created, Event, SeatAtStart, SeatKind, Started
from .options import BOT_LEVELS, Options
from .table import Phase, TableState, deal_next
from .timers import Timers
from .views import summary

log = logging.getLogger("dominohall.hall")

GRACE_SECONDS = 60.0  # a dropped connection not back within this is out (RULES.md 6)
HEARTBEAT_SECONDS = 1.0  # how often the hall writes that it is alive (downtime is not charged)
_ID_LETTERS = string.ascii_lowercase + string.digits

OnCommit = Callable[[int], None]


@dataclass(frozen=True)
class Person:
    """Who asks: a player's id and the name shown at the table."""

    id: str
    name: str


@dataclass
class Room:
    """A table in memory with what the hall keeps around it: its lock, sockets, computer player."""

    state: TableState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: dict[int, int] = field(default_factory=dict)  # seat -> open sockets
    bot_task: asyncio.Task[None] | None = None
    saved_finish: bool = False

    @property
    def id(self) -> str:
        return self.state.id

    def connected(self) -> set[int]:
        return {seat for seat, n in self.connections.items() if n > 0}


class Hall:
    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        broker: Broker | None = None,
        bot_delay: float = 0.8,
        grace_seconds: float = GRACE_SECONDS,
        rng: random.Random | None = None,
        heartbeat: bool = True,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.broker: Broker = broker or MemoryBroker()
        self.bot_delay = bot_delay
        self.grace_seconds = grace_seconds
        self.rng = rng or random.SystemRandom()
        self.thinkers = Thinkers()
        self.rooms: dict[str, Room] = {}
        self.timers = Timers(
            self.clock,
            self.rooms,
            run=self._run,
            grace_seconds=grace_seconds,
        )
        self.ready = False
        self._heartbeat = heartbeat
        self._heartbeat_task: asyncio.Task[None] | None = None

    # Life -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Load every live table from the log and resume its clocks where they stopped."""
        alive = float(await self.store.meta("alive_at") or 0.0)
        now = self.clock.now()
        resuming = []
        for table_id in await self.store.live_tables():
            events = await self.store.events(table_id)
            state = TableState.replay(table_id, events)
            room = Room(state)
            self.rooms[table_id] = room
            if not events or state.phase is Phase.FINISHED:  # (no events: its creation failed)
                await self._save_finish(room)
                continue
            # The hall was alive until its last heartbeat, or its last write to this table.
            resuming.append(self._resume(room, now - max(alive, events[-1][1])))
        await asyncio.gather(*resuming)  # one batch of writes, not one per table
        await self.store.set_meta("alive_at", repr(now))
        if self._heartbeat:
            self._heartbeat_task = asyncio.create_task(self._beat())
        self.ready = True
        log.info("hall ready: %d live tables", sum(not r.saved_finish for r in self.rooms.values()))

    async def _resume(self, room: Room, downtime: float) -> None:
        """Carry on with a table after a restart; the time the hall was down is charged to no one.

        The give-back is an event in the table's log, so that the next restart replays it too.
        """
        async with room.lock:
            await self._run(room, commands.Resume(downtime))
            for seat in room.state.people():
                self.timers.start_grace(room, seat.seat)
            self._schedule(room)

    async def stop(self) -> None:
        self.ready = False
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
        self.timers.close()
        for room in self.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
        await self.store.set_meta("alive_at", repr(self.clock.now()))
        self.thinkers.close()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self.store.set_meta("alive_at", repr(self.clock.now()))
            except Exception:  # noqa: BLE001 - a missed beat only gives a little time back
                log.exception("heartbeat failed")

    async def idle(self) -> None:
        """Wait until no computer player is about to move (tests)."""
        while True:
            tasks = [
                r.bot_task for r in self.rooms.values() if r.bot_task and not r.bot_task.done()
            ]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    # Lookups ----------------------------------------------------------------------------
    async def room(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        events = await self.store.events(table_id) if len(table_id) <= 32 else []
        if not events:
            raise HallError("no_table", f"there is no table {table_id!r}", 404)
        state = TableState.replay(table_id, events)
        if state.phase is Phase.FINISHED:
            return Room(state, saved_finish=True)  # to look at; nothing keeps it in memory
        return self.rooms.setdefault(table_id, Room(state))

    def open_tables(self) -> list[dict[str, Any]]:
        """Public tables still seating with a free seat, newest first."""
        rooms = [
            r.state
            for r in self.rooms.values()
            if r.state.phase is Phase.SEATING
            and not r.state.options.private
            and r.state.free_seats()
        ]
        rooms.sort(key=lambda s: -s.created_at)
        return [summary(s) for s in rooms]

    # Seating ----------------------------------------------------------------------------
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
            events += [
                Started(),
                deal_next(Game(options.preset, options.seats, options.target), self.rng),
            ]
        await self.store.add_table(table_id, self.clock.now())
        room = Room(TableState(table_id))
        self.rooms[table_id] = room
        async with room.lock:
            await self._commit(room, events)
            self.timers.start_grace(room, 0)
        return room.state

    async def join(self, person: Person, table_id: str, seat: int | None) -> int:
        room = await self.room(table_id)
        async with room.lock:
            await self._run(room, commands.Join(person.id, person.name, seat))
            seat = room.state.seat_of(person.id)
            assert seat is not None
            self.timers.start_grace(room, seat)
        return seat

    async def seat_bot(self, person: Person, table_id: str, seat: Any, bot: Any) -> TableState:
        return await self._command(table_id, commands.SeatBot(person.id, seat, bot))

    async def remove(self, person: Person, table_id: str, seat: Any) -> TableState:
        return await self._command(table_id, commands.Remove(person.id, seat))

    async def start_game(self, person: Person, table_id: str) -> TableState:
        return await self._command(table_id, commands.Start(person.id))

    async def leave(
        self, person: Person, table_id: str, on_commit: OnCommit | None = None
    ) -> TableState:
        """Leave the table; the table as it is then (it may have closed or finished)."""
        return await self._command(table_id, commands.Leave(person.id), on_commit)

    async def _command(
        self, table_id: str, command: commands.Command, on_commit: OnCommit | None = None
    ) -> TableState:
        room = await self.room(table_id)
        async with room.lock:
            await self._run(room, command, on_commit)
        return room.state

    # Play -------------------------------------------------------------------------------
    async def play(
        self,
        person: Person,
        table_id: str,
        kind: str,
        *,
        tile: str | None = None,
        arm: int | None = None,
        until_fits: bool = False,
        version: int | None = None,
        on_commit: OnCommit | None = None,
    ) -> int:
        """A seat's move: ``kind`` is play, draw or pass. Returns the table's version after it."""
        move = _move_of(kind, tile, arm)  # its shape first, then who and when, then the rules
        command = commands.MakeMove(person.id, move, until_fits, version)
        room = await self.room(table_id)
        async with room.lock:
            return await self._run(room, command, on_commit)

    async def next_hand(
        self, person: Person, table_id: str, on_commit: OnCommit | None = None
    ) -> int:
        room = await self.room(table_id)
        async with room.lock:
            return await self._run(room, commands.PressNextHand(person.id), on_commit)

    # Presence ---------------------------------------------------------------------------
    async def connect(self, table_id: str, person: Person | None) -> tuple[Room, int | None]:
        """A socket opens on a table: its seat (None: a spectator)."""
        room = await self.room(table_id)
        seat = room.state.seat_of(person.id) if person is not None else None
        if seat is not None:
            room.connections[seat] = room.connections.get(seat, 0) + 1
            self.timers.end_grace(room, seat)
            self.broker.publish(room.id, room.state.version)
        return room, seat

    async def disconnect(self, room: Room, seat: int | None) -> None:
        if seat is None:
            return
        room.connections[seat] = max(0, room.connections.get(seat, 0) - 1)
        if room.connections[seat] == 0:
            del room.connections[seat]
            if room.state.phase is not Phase.FINISHED and room.state.seats[seat].is_person:
                self.timers.start_grace(room, seat)
            async with room.lock:
                await self._settle(room)  # a person gone may be all Next hand waited for
        self.broker.publish(room.id, room.state.version)
        if room.state.phase is Phase.FINISHED and not room.connections and room.saved_finish:
            self.rooms.pop(room.id, None)

    def reseat(self, room: Room, old: int | None, new: int | None) -> None:
        """A socket's person changed seats (joined while watching, or went out of the game)."""
        if old is not None:
            room.connections[old] = room.connections.get(old, 1) - 1
            if room.connections[old] <= 0:
                del room.connections[old]
                if room.state.seats[old].is_person and room.state.phase is not Phase.FINISHED:
                    self.timers.start_grace(room, old)
        if new is not None:
            room.connections[new] = room.connections.get(new, 0) + 1
            self.timers.end_grace(room, new)

    # The commit path --------------------------------------------------------------------
    async def _run(
        self, room: Room, command: commands.Command, on_commit: OnCommit | None = None
    ) -> int:
        """Decide a command and commit its events (the caller holds the table's lock)."""
        events = room.state.decide(command, self.rng)
        if not events:
            if on_commit is not None:
                on_commit(room.state.version)
            return room.state.version
        return await self._commit(room, events, on_commit)

    async def _commit(
        self, room: Room, events: list[Event], on_commit: OnCommit | None = None
    ) -> int:
        """Commit events to the log, then apply and publish them (the caller holds the lock)."""
        state = room.state
        at = self.clock.now()
        try:
            await self.store.append(room.id, state.version + 1, [e.to_body() for e in events], at)
        except Conflict:
            # Someone else wrote this table's log: take the log as it is now.
            state.abandon()
            await self._reload(room)
            raise HallError("stale", "the table changed meanwhile: look again") from None
        except BaseException:
            state.abandon()  # nothing was written: the moves decided are taken back
            self.broker.publish(room.id, state.version)
            raise
        for event in events:
            state.apply(event, at)
        if on_commit is not None:
            on_commit(state.version)
        self.broker.publish(room.id, state.version)
        try:
            await self._settle(room)
        except Exception:  # noqa: BLE001 - this change is committed; what follows is retried
            log.exception("after version %d of table %s", state.version, room.id)
        self._schedule(room)
        return state.version

    async def _reload(self, room: Room) -> None:
        room.state = TableState.replay(room.id, await self.store.events(room.id))
        self.broker.publish(room.id, room.state.version)

    async def _settle(self, room: Room) -> None:
        """What follows from the table as it is now: a finished game stored, the next hand dealt."""
        state = room.state
        if state.phase is Phase.FINISHED:
            await self._save_finish(room)
        elif state.phase is Phase.BETWEEN_HANDS:
            people = [s for s in state.people() if s.seat in room.connected()]
            if people and all(s.ready for s in people):
                await self._run(room, commands.DealNextHand())

    async def _save_finish(self, room: Room) -> None:
        if room.saved_finish:
            return
        self.timers.cancel(room)
        state = room.state
        record = state.record()
        await self.store.finish_table(room.id, self.clock.now(), record)
        room.saved_finish = True
        if not room.connections:
            self.rooms.pop(room.id, None)  # nobody looks at it: it loads again if someone does

    # Clocks and computer players -----------------------------------------------------------
    def _schedule(self, room: Room) -> None:
        """Set the clocks for the table as it is now, and wake a computer player whose turn it is."""
        self.timers.schedule(room)
        turn = room.state.turn
        thinking = room.bot_task is not None and not room.bot_task.done()
        if turn is not None and room.state.seats[turn].kind is SeatKind.BOT and not thinking:
            room.bot_task = asyncio.create_task(self._computer_turns(room))

    async def _computer_turns(self, room: Room) -> None:
        """Play for computer players while it is one's turn, after a short natural delay."""
        try:
            turn_key = None
            while True:
                async with room.lock:
                    state = room.state
                    turn, hand = state.turn, state.hand
                    if turn is None or hand is None or state.seats[turn].kind is not SeatKind.BOT:
                        return
                    key = (len(state.game.hands), turn, state.turn_since)  # type: ignore[union-attr]
                    level = state.seats[turn].bot or "normal"
                    view = hand.view(turn) if level == "hard" else None
                    version = state.version
                if key != turn_key and self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                turn_key = key
                move = None
                if view is not None:  # Hard, in a worker process
                    try:
                        move = await self.thinkers.choose(level, view)
                    except Exception:  # noqa: BLE001 - a broken worker must not stop the game
                        log.exception("Hard failed at table %s: Normal plays this turn", room.id)
                        self.thinkers.close()
                async with room.lock:
                    await self._run(room, commands.ComputerTurn(turn, level, version, move))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player failed at table %s", room.id)


def _move_of(kind: str, tile: str | None, arm: int | None) -> Move:
    if kind == "draw":
        return DRAW
    if kind == "pass":
        return Move.pass_()
    try:
        a, b = parse_halves(tile)
    except InvalidTileError as exc:
        raise HallError("bad_tile", str(exc)) from None
    if arm is None:
        return Move.lead(f"{a}-{b}")
    return Move.play(f"{a}-{b}", arm)
