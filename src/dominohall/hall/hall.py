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

from ..rules import DRAW, Game, IllegalMoveError, InvalidTileError, Move, tile_name
from ..rules.game import deal
from ..rules.moves import MoveKind
from ..rules.tiles import iter_tiles, parse_halves
from ..store import Conflict, Store
from .broker import Broker, MemoryBroker
from .clock import Clock, SystemClock
from .computer import Thinkers, whole_turn
from .errors import HallError
from .options import BOT_LEVELS, Options
from .ranked import rated_result
from .ratings import get_pool
from .rematch import rematch_open, rematch_people, rematch_seats
from .table import Phase, TableState, move_event
from .timers import Timers
from .views import my_table, summary

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
        hard_budget: float | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.broker: Broker = broker or MemoryBroker()
        self.bot_delay = bot_delay
        self.grace_seconds = grace_seconds
        self.rng = rng or random.SystemRandom()
        self.thinkers = Thinkers(hard_budget=hard_budget)
        self.rooms: dict[str, Room] = {}
        self.timers = Timers(
            self.clock,
            self.rooms,
            commit=self._commit,
            deal=self._deal,
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
            if not events:
                state.phase, state.closed = Phase.FINISHED, True
                await self._save_finish(room)
                continue
            if state.phase is Phase.FINISHED:
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
            if room.state.clock_running and downtime > 0:
                await self._commit(room, [{"kind": "resumed", "downtime": downtime}])
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
        """A started table against 1-3 computer players (RULES.md 6, S1): ``bots`` lists their
        levels (``bot``, one level, is the older form), ``preset`` and ``target`` as for a table."""
        bots = request.get("bots")
        if bots is None:
            bots = [request.get("bot", "normal")]
        if not isinstance(bots, list) or not 1 <= len(bots) <= 3:
            raise HallError(
                "bad_option", f"'bots' lists 1 to 3 computer players' levels, not {bots!r}"
            )
        for k, bot in enumerate(bots):
            if bot not in BOT_LEVELS:
                raise HallError(
                    "bad_option",
                    f"computer player {k + 1}: a computer player is easy, normal or hard, "
                    f"not {bot!r}",
                )
        wanted: dict[str, Any] = {
            "preset": request.get("preset", "draw"),
            "seats": 1 + len(bots),
            "bots": [None, *bots],
        }
        if "target" in request:
            wanted["target"] = request["target"]
        options, seat_bots = Options.parse(wanted)
        return await self._create(person, options, seat_bots, start=True)

    async def _create(
        self, person: Person, options: Options, bots: list[str | None], *, start: bool
    ) -> TableState:
        seats = []
        for seat, bot in enumerate(bots):
            if seat == 0:
                seats.append(
                    {"kind": "human", "player": person.id, "name": person.name, "bot": None}
                )
            elif bot is not None:
                seats.append({"kind": "bot", "player": None, "name": bot.title(), "bot": bot})
            else:
                seats.append({"kind": "empty", "player": None, "name": None, "bot": None})
        room = await self._open_table(options, seats, start=start)
        self.timers.start_grace(room, 0)
        return room.state

    async def open_pairing(
        self, pool_id: str, people: list[Person], *, ranked: bool = True
    ) -> TableState:
        """A started table of ``pool_id`` for the people a pairing seated, in seat order: ranked,
        or casual quick play. Its options are the pool's, with the Normal timer (RULES.md 6)."""
        pool = get_pool(pool_id)
        if len(people) not in pool.players:
            raise HallError("bad_option", f"pool {pool.id} seats {pool.players}, not {len(people)}")
        ranked_in = pool.id if ranked else None
        options = Options(pool.preset, pool.target, len(people), "normal", False, ranked_in)
        seats = [{"kind": "human", "player": p.id, "name": p.name, "bot": None} for p in people]
        room = await self._open_table(options, seats, start=True)
        return room.state

    async def _open_table(
        self, options: Options, seats: list[dict[str, Any]], *, start: bool
    ) -> Room:
        """A new table with these seats (as its ``created`` event writes them), maybe started."""
        table_id = "".join(secrets.choice(_ID_LETTERS) for _ in range(8))
        bodies: list[dict[str, Any]] = [
            {"kind": "created", "options": options.to_json(), "seats": seats}
        ]
        if start:
            bodies += [
                {"kind": "started"},
                self._deal(Game(options.preset, options.seats, options.target)),
            ]
        await self.store.add_table(table_id, self.clock.now())
        room = Room(TableState(table_id))
        self.rooms[table_id] = room
        async with room.lock:
            await self._commit(room, bodies)
        return room

    async def join(self, person: Person, table_id: str, seat: int | None) -> int:
        room = await self.room(table_id)
        async with room.lock:
            state = self._seating(room)
            if state.was_seated(person.id) is not None:
                raise HallError(
                    "already_seated", f"you already sit at seat {state.was_seated(person.id)}", 409
                )
            free = state.free_seats()
            if seat is None:
                if not free:
                    raise HallError("no_seat", "every seat is taken", 409)
                seat = free[0]
            self._check_seat(state, seat)
            if seat not in free:
                raise HallError("seat_taken", f"seat {seat} is taken", 409)
            await self._commit(
                room, [{"kind": "joined", "seat": seat, "player": person.id, "name": person.name}]
            )
            self.timers.start_grace(room, seat)
        return seat

    async def seat_bot(self, person: Person, table_id: str, seat: int, bot: str) -> TableState:
        room = await self.room(table_id)
        async with room.lock:
            state = self._seating(room, host=person)
            self._check_seat(state, seat)
            if bot not in BOT_LEVELS:
                raise HallError(
                    "bad_option", f"a computer player is easy, normal or hard, not {bot!r}"
                )
            if state.seats[seat].kind != "empty":
                raise HallError("seat_taken", f"seat {seat} is taken", 409)
            await self._commit(room, [{"kind": "bot_seated", "seat": seat, "bot": bot}])
        return room.state

    async def remove(self, person: Person, table_id: str, seat: int) -> TableState:
        room = await self.room(table_id)
        async with room.lock:
            state = self._seating(room, host=person)
            self._check_seat(state, seat)
            if seat == state.host:
                raise HallError(
                    "bad_request", "the host cannot remove their own seat: leave instead"
                )
            if state.seats[seat].kind == "empty":
                raise HallError("no_seat", f"seat {seat} is empty")
            await self._commit(room, [{"kind": "removed", "seat": seat}])
        return room.state

    async def start_game(self, person: Person, table_id: str) -> TableState:
        room = await self.room(table_id)
        async with room.lock:
            state = self._seating(room, host=person)
            if state.free_seats():
                free = ", ".join(map(str, state.free_seats()))
                raise HallError(
                    "seats_not_filled", f"every seat must be filled first (free: {free})", 409
                )
            o = state.options
            await self._commit(
                room, [{"kind": "started"}, self._deal(Game(o.preset, o.seats, o.target))]
            )
        return room.state

    async def leave(
        self, person: Person, table_id: str, on_commit: OnCommit | None = None
    ) -> TableState:
        """Leave the table; the table as it is then (it may have closed or finished)."""
        room = await self.room(table_id)
        async with room.lock:
            state = room.state
            seat = state.seat_of(person.id)
            if seat is None:
                raise HallError("not_seated", "you have no seat at this table")
            if state.phase is Phase.SEATING:
                await self._commit(room, [{"kind": "removed", "seat": seat}], on_commit)
            elif state.phase is Phase.FINISHED:
                raise HallError("not_playing", "the game is over")
            else:
                await self._commit(
                    room, [{"kind": "out", "seat": seat, "reason": "left"}], on_commit
                )
        return room.state

    def _seating(self, room: Room, host: Person | None = None) -> TableState:
        state = room.state
        if state.phase is not Phase.SEATING:
            raise HallError("not_seating", "the game has started: seats are settled", 409)
        if host is not None and state.seat_of(host.id) != state.host:
            raise HallError("not_host", "only the host can do that", 403)
        return state

    @staticmethod
    def _check_seat(state: TableState, seat: int) -> None:
        if not 0 <= seat < len(state.seats):
            raise HallError(
                "no_seat", f"this table has seats 0 to {len(state.seats) - 1}, not {seat!r}"
            )

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
        room = await self.room(table_id)
        async with room.lock:
            state = room.state
            seat = self._player_seat(state, person)
            if version is not None and version != state.version:
                raise HallError(
                    "stale", f"the table is at version {state.version}, not {version}: look again"
                )
            hand = state.hand
            if state.phase is not Phase.PLAYING or hand is None or hand.over:
                raise HallError("not_playing", "no hand is being played now")
            if hand.turn != seat:
                raise HallError(
                    "not_your_turn",
                    f"it is seat {hand.turn}'s turn ({state.seats[hand.turn].name})",
                )
            made: list[Move] = []
            try:
                hand.push(move)
                made.append(hand.history[-1][1])
                while until_fits and move.kind is MoveKind.DRAW and hand.legal_moves() == [DRAW]:
                    hand.push(DRAW)
                    made.append(hand.history[-1][1])
            except IllegalMoveError as exc:
                raise HallError("illegal_move", str(exc)) from None
            finally:
                for _ in made:
                    hand.pop()
            number = len(state.game.hands) - 1  # type: ignore[union-attr]
            bodies = [move_event(seat, number, m, "player") for m in made]
            return await self._commit(room, bodies, on_commit)

    async def next_hand(
        self, person: Person, table_id: str, on_commit: OnCommit | None = None
    ) -> int:
        room = await self.room(table_id)
        async with room.lock:
            state = room.state
            seat = self._player_seat(state, person)
            if state.phase is not Phase.BETWEEN_HANDS:
                raise HallError("not_between_hands", "Next hand is pressed between hands only")
            if state.seats[seat].ready:
                if on_commit is not None:
                    on_commit(state.version)
                return state.version
            return await self._commit(room, [{"kind": "ready", "seat": seat}], on_commit)

    @staticmethod
    def _player_seat(state: TableState, person: Person) -> int:
        seat = state.seat_of(person.id)
        if seat is None:
            if state.was_seated(person.id) is not None:
                raise HallError("out", "you are out of this game: you may watch, not play")
            raise HallError("spectator", "you have no seat at this table: you may watch, not play")
        return seat

    # After the game -------------------------------------------------------------------------
    def tables_of(self, player: str) -> list[dict[str, Any]]:
        """The unfinished tables ``player`` is seated at: theirs to move first, then newest."""
        mine = []
        for room in self.rooms.values():
            state = room.state
            seat = state.seat_of(player) if state.phase is not Phase.FINISHED else None
            if seat is not None:
                mine.append(my_table(state, seat))
        mine.sort(key=lambda t: (not t["your_turn"], -t["created_at"]))
        return mine

    async def rematch(self, person: Person, table_id: str, accept: Any) -> TableState:
        """Accept (or decline) a rematch of a finished game; the new table starts once every
        person seated at the end accepted. Declining (leaving) ends the offer for everyone."""
        if not isinstance(accept, bool):
            raise HallError("bad_request", f"'accept' is true or false, not {accept!r}")
        room = await self.room(table_id)
        if room.state.phase is Phase.FINISHED:
            room = self.rooms.setdefault(room.id, room)
        async with room.lock:
            state = room.state
            if state.phase is not Phase.FINISHED or state.result is None:
                raise HallError("not_over", "a rematch is offered once the game is over", 409)
            seat = state.seat_of(person.id)
            if seat is None or seat not in rematch_people(state):
                raise HallError("not_seated", "only the people seated at the end are asked")
            if state.rematch_table is not None:
                return state
            if not rematch_open(state):
                who = state.seats[state.rematch_ended or 0].name
                raise HallError("rematch_over", f"{who} left: the rematch offer has ended", 409)
            if accept and seat in state.rematch_accepted:
                return state
            await self._commit(room, [{"kind": "rematch", "seat": seat, "accept": accept}])
            if accept and set(rematch_people(state)) <= state.rematch_accepted:
                new = await self._open_table(state.options, rematch_seats(state), start=True)
                for other in rematch_people(state):
                    self.timers.start_grace(new, other)
                await self._commit(room, [{"kind": "rematch_table", "table": new.id}])
        return room.state

    async def _left_after_the_end(self, room: Room, seat: int) -> None:
        """A person gone from a finished table has left it: the rematch offer ends."""
        state = room.state
        if rematch_open(state) and seat in rematch_people(state):
            await self._commit(room, [{"kind": "rematch", "seat": seat, "accept": False}])

    # Presence ---------------------------------------------------------------------------
    async def connect(self, table_id: str, person: Person | None) -> tuple[Room, int | None]:
        """A socket opens on a table: its seat (None: a spectator)."""
        room = await self.room(table_id)
        seat = room.state.seat_of(person.id) if person is not None else None
        if seat is not None:
            room = self.rooms.setdefault(room.id, room)  # a finished table: one shared copy
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
                await self._left_after_the_end(room, seat)
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
    async def _commit(
        self, room: Room, bodies: list[dict[str, Any]], on_commit: OnCommit | None = None
    ) -> int:
        """Commit events to the log, then apply and publish them (the caller holds the lock)."""
        state = room.state
        at = self.clock.now()
        for player in _players_seated(bodies):  # noted first: a guest who sat somewhere is kept
            await self.store.add_seat(player, room.id)
        try:
            await self.store.append(room.id, state.version + 1, bodies, at)
        except Conflict:
            # Someone else wrote this table's log: take the log as it is now.
            await self._reload(room)
            raise HallError("stale", "the table changed meanwhile: look again") from None
        for body in bodies:
            state.apply(body, at)
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
                await self._commit(room, [self._deal(state.game)])  # type: ignore[arg-type]

    async def _save_finish(self, room: Room) -> None:
        if room.saved_finish:
            return
        self.timers.cancel(room)
        state = room.state
        record = None if state.closed else state.record()
        # A ranked game's rating change is stored in the same transaction as its result.
        await self.store.finish_table(room.id, self.clock.now(), record, rated_result(state))
        room.saved_finish = True
        if not room.connections:
            self.rooms.pop(room.id, None)  # nobody looks at it: it loads again if someone does

    def _deal(self, game: Game) -> dict[str, Any]:
        """The next hand's deal and leader, chosen now and written in the log."""
        holdings, boneyard = deal(game.preset, game.players, self.rng)
        leader = game.choose_leader(game.lead_rule(holdings), self.rng)
        return {
            "kind": "dealt",
            "hand": len(game.hands),
            "dealt": [[tile_name(t) for t in iter_tiles(h)] for h in holdings],
            "boneyard": [tile_name(t) for t in boneyard],
            "leader": leader,
        }

    # Clocks and computer players -----------------------------------------------------------
    def _schedule(self, room: Room) -> None:
        """Set the clocks for the table as it is now, and wake a computer player whose turn it is."""
        self.timers.schedule(room)
        turn = room.state.turn
        thinking = room.bot_task is not None and not room.bot_task.done()
        if turn is not None and room.state.seats[turn].kind == "bot" and not thinking:
            room.bot_task = asyncio.create_task(self._computer_turns(room))

    async def _computer_turns(self, room: Room) -> None:
        """Play for computer players while it is one's turn, after a short natural delay."""
        try:
            turn_key = None
            while True:
                async with room.lock:
                    state = room.state
                    turn, hand = state.turn, state.hand
                    if turn is None or hand is None or state.seats[turn].kind != "bot":
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
                    state = room.state
                    hand = state.hand
                    if state.version != version or hand is None:
                        continue  # the table moved on while the computer thought
                    number = len(state.game.hands) - 1  # type: ignore[union-attr]
                    made = None
                    if move is not None:
                        try:
                            hand.push(move)
                        except IllegalMoveError as exc:
                            log.error("Hard chose an illegal move at table %s: %s", room.id, exc)
                        else:
                            made = [hand.history[-1][1]]  # a draw with its tile
                            hand.pop()
                    if made is None:
                        made = whole_turn(hand, turn, "normal" if level == "hard" else level)
                    await self._commit(room, [move_event(turn, number, m, "bot") for m in made])
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


def _players_seated(bodies: list[dict[str, Any]]) -> list[str]:
    """The players these events seat (the store notes them: see ``Store.forget_guests``)."""
    players = []
    for body in bodies:
        if body["kind"] == "created":
            players += [s["player"] for s in body["seats"] if s.get("player")]
        elif body["kind"] == "joined":
            players.append(body["player"])
    return players
