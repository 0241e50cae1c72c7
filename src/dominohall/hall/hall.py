"""The hall: the front of the service, wiring its parts and offering one method per request.

A move's path through ``hall/``: ``Hall.play`` builds a ``commands.MakeMove``; the
``command_path`` (the table's owner: every change of a table is sent there) takes the table's
lock (``rooms``), the ``table`` decides it into ``events`` (the move made once, on the table's
own hand), the path commits them to the store, applies them and publishes them through the
``broker``; then, still inside the owner, what follows the change runs (``_follow``, given the
owner's hold on the table to run what the table owes): a finished game saved, the next hand
dealt when everyone is ready (``presence``), the clocks set again (``timers`` over
``deadlines``), a computer player woken (``computer``). The hall takes no table's lock itself.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence

import orjson

from ..rules import Move
from ..store import Store, StoreUnavailable
from ..store.wakes import Note, Wake, Window, owed_since
from . import commands, views
from .abandonment import Abandonment
from .broker import Broker, Listener, MemoryBroker
from .clock import Clock, SystemClock
from .command_path import CommandPath, OnCommit, Run, TableOwner
from .computer import ComputerPlayers
from .dormancy import IDLE_SECONDS, listing_of, may_sleep, players_of, wake_at
from .errors import STORE_UNAVAILABLE, HallError
from .events import Event, SeatAtStart, SeatKind
from .listing import Listing
from .lobby import entry_of, seat_ratings
from .lobby_board import LobbyBoard, MemoryLobbyBoard
from .messages import MyTable, RematchAnswer, TableSummary
from .notices import Invitation, Reminder, TableOver, YourTurn
from .options import BotLevel, Options
from .outage import PROBE_SECONDS, Outage, Part
from .owner_link import OwnerLink
from .owners import Owners
from .ownership import Ownership
from .presence import Presence
from .ranked import rated_result, shown_ratings
from .ratings import RANKED_TIMERS, Speed, get_pool
from .rooms import Room, Rooms
from .seasons import standing_labels
from .seat_board import MemorySeatBoard, SeatBoard
from .seating import Person, Seating
from .table import Phase, TableState
from .table_feed import Audience, audience_of, check_watcher, people_of
from .timers import Timers
from .turn_based import TurnBased, TurnBasedSettings

log = logging.getLogger("dominohall.hall")
RESUME_BATCH = 200  # tables resumed at once at start
LOBBY_BATCH = 500  # lobby entries of tables asleep put on the board between two yields
SLEEP_ROUND_SECONDS = 60.0  # the most time between two looks for idle tables to put to sleep

GRACE_SECONDS = 60.0  # a dropped connection not back within this is out (RULES.md 6)
HEARTBEAT_SECONDS = 1.0  # how often the hall writes that it is alive (downtime is not charged)

__all__ = ["GRACE_SECONDS", "Hall", "OnCommit", "Person", "Room"]


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
        turn_based: TurnBasedSettings | None = None,
        ownership: Ownership | None = None,
        link: OwnerLink | None = None,
        seat_board: SeatBoard | None = None,
        board: LobbyBoard | None = None,
        probe_seconds: float = PROBE_SECONDS,
        idle_seconds: float | None = IDLE_SECONDS,
    ) -> None:
        """``ownership`` and ``link``: a hall of several processes, each holding the leases of
        the tables it plays (``ownership.py``) and sending the others' commands to their owner
        (``owners.py``); without them, one process that holds every table. ``seat_board``: where
        the processes say which seats they have sockets for (``presence.py``); ``board``:
        the tables the lobby shows, put there by their owners (``lobby_board.py``: in Redis on
        several processes). ``idle_seconds``: a turn-based table nobody used for this long falls
        asleep, out of memory (``dormancy.py``; None: none does, though a start still leaves
        those asleep that were)."""
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.broker: Broker = broker or MemoryBroker()
        self.grace_seconds = grace_seconds
        self.rng = rng or random.SystemRandom()
        self.rooms = Rooms(store)
        self.rooms.waker = self._wake
        self.idle_seconds = idle_seconds
        self._sleep_task: asyncio.Task[None] | None = None
        # The stretches one process was down, owed to the tables asleep (``store/wakes.py``).
        self._downtimes: list[Window] = []
        self._lobby_task: asyncio.Task[None] | None = None
        # Set once the lobby entries of the tables asleep at start are on the board.
        self.lobby_filled = asyncio.Event()
        self.board: LobbyBoard = board or MemoryLobbyBoard()
        self.path = CommandPath(
            store,
            self.rooms,
            clock=self.clock,
            broker=self.broker,
            rng=self.rng,
            after_commit=self._follow,
            fence=ownership,
        )
        self.ownership = ownership
        # Where a table's commands go: this process's path, or the table's owner wherever it is.
        self.owner: TableOwner = self.path
        self.owners: Owners | None = None
        if ownership is not None:
            assert link is not None, "several processes need the link between them"
            self.owners = Owners(self.path, ownership, link, store=store, clock=self.clock)
            self.owner = self.owners
            ownership.adopter = self
        self.timers = Timers(
            self.clock,
            self.rooms,
            self.path,
            grace_seconds=grace_seconds,
            remind=self._remind,
        )
        self.computers = ComputerPlayers(self.path, bot_delay=bot_delay, hard_budget=hard_budget)
        self.turn_based = TurnBased(
            turn_based or TurnBasedSettings(),
            store=store,
            clock=self.clock,
            rooms=self.rooms,
            path=self.owner,
        )
        # Who walked away from real-time games lately, held back from new ones (stored).
        self.abandonment = Abandonment(store.abandonments, self.clock)
        self.seating = Seating(
            self.owner,
            self.broker,
            self.timers,
            self.turn_based.check_room_for,
            self.abandonment.check,
        )
        self.presence = Presence(
            self.rooms,
            self.timers,
            self.broker,
            self._gone,
            seat_board or MemorySeatBoard(),
            ask_owner=None if self.owners is None else self.owners.seats_changed,
            renew_seconds=None if ownership is None else ownership.lease_seconds / 3,
            came=self._came,
        )
        self.timers.recount = self.presence.recount
        # The database or Redis away: the commands refused, the clocks stopped (``outage.py``).
        self.outage = Outage(
            self.clock,
            probe=lambda: store.meta("alive_at"),
            pause=self.timers.scheduler.pause,
            give_back=self._give_back,
            probe_seconds=probe_seconds,
        )
        self.path.outage = self.outage
        if ownership is not None:
            ownership.unreachable = lambda: self.outage.noticed(Part.STORE)
        if self.owners is not None:
            self.owners.recount = self.presence.recount
        self.ready = False
        self._heartbeat = heartbeat
        self._heartbeat_task: asyncio.Task[None] | None = None

    # Life -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Load every live table from the log and resume its clocks where they stopped (several
        processes: every live table this one can lease, and from then on those whose owner
        died)."""
        if self.ownership is not None:
            await self.turn_based.load()
            await self.ownership.tick()
            self.ownership.start()
            self.presence.start()
            self._start_sleeping()
            self.lobby_filled.set()  # (the board is in Redis: kept through a restart)
            self.ready = True
            if self.ownership.plays:
                log.info("hall ready: %d live tables held here", len(self.ownership.held))
            else:
                log.info("hall ready: sockets only, every table played by the game tier")
            return
        alive = float(await self.store.meta("alive_at") or 0.0)
        await self.turn_based.load()
        now = self.clock.now()
        # The tables asleep stay so: their downtime owed in their notes, their wake-ups armed,
        # their lobby entries put back; none is read from its log (``dormancy.py``).
        self._downtimes = await self.store.wakes.downtimes(now)
        asleep = await self.store.wakes.asleep()
        for wake in asleep:
            self._fall_asleep(wake)
        lobby = [(wake.table_id, wake.lobby) for wake in asleep if wake.lobby is not None]
        sleeping = {wake.table_id for wake in asleep}
        del asleep
        resuming = []
        for table_id in await self.store.live_tables():
            if table_id in sleeping:
                continue
            events = await self.store.events(table_id)
            room = self.rooms.add(Room(TableState.replay(table_id, events)))
            if not events or room.state.phase is Phase.FINISHED:  # (none: its creation failed)
                await self._save_finish(room)
                continue
            # The hall was alive until its last heartbeat, or its last write to this table.
            resuming.append(self._resume(room, now - max(alive, events[-1][1])))
        # Many tables' writes committed together, but a bounded number at once: what follows
        # each resumption reads the store too (the lobby's ratings), and 100,000 at once
        # waited past the connection pool's timeout.
        for first in range(0, len(resuming), RESUME_BATCH):
            await asyncio.gather(*resuming[first : first + RESUME_BATCH])
        await self.store.set_meta("alive_at", repr(now))
        if self._heartbeat:
            self._heartbeat_task = asyncio.create_task(self._beat())
        self._start_sleeping()
        self._lobby_task = asyncio.create_task(self._put_asleep_in_lobby(lobby))
        self.ready = True
        awake = sum(not r.saved_finish for r in self.rooms)
        log.info("hall ready: %d live tables in memory, %d asleep", awake, len(sleeping))

    async def adopt(self, table_id: str, since: float | None) -> None:
        """A table just taken over (``Ownership``): loaded from its log and resumed, the time
        since the later of its last event and its last owner's last renewal given back (nobody
        played it meanwhile). A room this process kept (its sockets) takes the log's state.
        A table whose note says it may sleep, with nobody connected, is left asleep, owed that
        time (``dormancy.py``)."""
        if self.rooms.get(table_id) is None and await self._adopt_asleep(table_id, since):
            return
        events = await self.store.events(table_id)
        state = TableState.replay(table_id, events)
        room = self.rooms.get(table_id)
        if room is None:
            room = self.rooms.add(Room(state))
        else:
            room.state = state
            self.rooms.seats_changed(room)
        if not events or state.phase is Phase.FINISHED:
            room.finish_stored = room.saved_finish = state.phase is Phase.FINISHED
            return
        last = max(events[-1][1], since or 0.0)
        await self.presence.recount(table_id)  # sockets on the other processes count at once
        await self._resume(room, max(0.0, self.clock.now() - last))
        # Its last owner may have died between a commit and its publication: the sockets behind
        # ask for the whole state now, not when the next change shows the gap.
        self.announce(room)

    async def _adopt_asleep(self, table_id: str, since: float | None) -> bool:
        """Take over a table asleep as it is (True), or not (False: loaded as usual)."""
        wake = await self.store.wakes.current(table_id)
        if wake is None:
            return False
        board = self.presence.board
        present, watching = await board.present(table_id), await board.watching(table_id)
        if present is None or watching is None or present or any(watching.values()):
            return False  # (sockets to tell of the state now: it is loaded and announced)
        owed = self.clock.now() - max(wake.at, since or 0.0)
        if owed > 0:
            await self.store.wakes.owe([table_id], owed)
        self._fall_asleep(wake)
        return True

    async def _put_asleep_in_lobby(self, entries: list[tuple[str, str]]) -> None:
        """The lobby entries of the tables asleep at start, put on the board once the hall is
        ready, a batch at a time (read from JSON, 100,000 of them take seconds); those woken
        meanwhile have put their own."""
        for first in range(0, len(entries), LOBBY_BATCH):
            for table_id, entry in entries[first : first + LOBBY_BATCH]:
                if self.rooms.is_asleep(table_id):
                    self.board.put(table_id, orjson.loads(entry))
            await asyncio.sleep(0)
        self.lobby_filled.set()

    def _owed(self, wake: Wake) -> float:
        """The downtime a table's note owes its clock: its own (a takeover, an outage) and the
        restarts since it was noted (one process)."""
        return wake.owed + owed_since(wake.at, self._downtimes)

    def _fall_asleep(self, wake: Wake) -> None:
        """Hold a table asleep as its note has it, its wake-up armed."""
        self.rooms.sleep(wake.table_id, frozenset(wake.players))
        if wake.wake_at is not None:
            self.timers.wakeups.set(wake.table_id, wake.wake_at)

    async def _wake(self, table_id: str) -> Room:
        """A table asleep loaded from its log and resumed with the downtime its note owes:
        what follows sets its clocks again (a deadline past fires at once). ``Rooms.load``
        calls it, once at a time per table."""
        events = await self.store.events(table_id)
        wake = await self.store.wakes.current(table_id)
        if not self.rooms.is_asleep(table_id):  # let go meanwhile: loaded as any other
            return await self.rooms.load(table_id)
        state = TableState.replay(table_id, events)
        self.timers.wakeups.cancel(table_id)
        room = self.rooms.add(Room(state, touched=self.clock.now()))
        if wake is not None and wake.version == state.version:
            room.noted = state.version
            room.lobby_entry = None if wake.lobby is None else orjson.loads(wake.lobby)
            if may_sleep(state):  # (its person was told of the turn before it slept)
                room.told_turn = (state.turn_since, state.turn)  # type: ignore[assignment]
        current = wake is not None and wake.version == state.version
        owed = self._owed(wake) if wake is not None and current else 0.0
        if state.phase is Phase.FINISHED:
            await self._save_finish(room)
            return room
        try:
            await self.path.wake(room, owed)
        except BaseException:
            self._put_to_sleep(room)  # (its note still owes the downtime)
            raise
        if self.owners is not None:
            await self.presence.recount(table_id)
        return room

    async def sleep_idle(self) -> int:
        """Put to sleep each table that may sleep, that nobody used for ``idle_seconds`` and
        that nothing holds in memory (a socket, a command, a computer player), its note written
        first; how many."""
        if self.idle_seconds is None:
            return 0
        before = self.clock.now() - self.idle_seconds
        idle = [room for room in self.rooms if room.touched <= before and self._unheld(room)]
        await self._note(idle)
        slept = 0
        for room in idle:
            # Looked at again: the table may have changed, or been used, while its note was
            # written (a note behind its table is never trusted, but the table would be lost).
            if room.touched <= before and room.noted == room.state.version and self._unheld(room):
                self._put_to_sleep(room)
                slept += 1
        return slept

    def _unheld(self, room: Room) -> bool:
        """The table may sleep and nothing holds it in memory here."""
        bot = room.bot_task
        return (
            self.rooms.get(room.id) is room
            and may_sleep(room.state)
            and not (room.attended or room.listening or room.watching)
            and not self.path.busy(room)
            and (bot is None or bot.done())
            and self.ownership_holds(room.id)
        )

    async def _note(self, rooms: list[Room]) -> None:
        """The notes of these tables (``dormancy.py``), each as it is now, written together
        (those already noted at their version left out); a failure is logged (those tables
        stay in memory, and load from their logs at the next start)."""
        rooms = [r for r in rooms if r.noted != r.state.version and may_sleep(r.state)]
        notes = [
            Note(
                room.id,
                room.state.version,
                wake_at(room.state),
                players_of(room.state),
                room.lobby_entry,  # type: ignore[arg-type]
                listing_of(room.state),
            )
            for room in rooms
        ]
        try:
            await self.store.wakes.note_many(notes)
        except Exception:  # noqa: BLE001 - only their next start is slower
            log.exception("the notes of %d tables to sleep on not written", len(notes))
            return
        for room, note in zip(rooms, notes, strict=True):
            room.noted = note.version

    def _put_to_sleep(self, room: Room) -> None:
        self.timers.cancel(room)
        state = room.state
        self.rooms.sleep(room.id, frozenset(players_of(state)))
        when = wake_at(state)
        if when is not None:
            self.timers.wakeups.set(room.id, when)

    def _start_sleeping(self) -> None:
        if self.idle_seconds is not None:
            self._sleep_task = asyncio.create_task(self._sleep_rounds(self.idle_seconds))

    async def _sleep_rounds(self, idle: float) -> None:
        while True:
            await asyncio.sleep(min(idle / 4, SLEEP_ROUND_SECONDS))
            try:
                await self.sleep_idle()
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("putting idle tables to sleep failed")

    def let_go(self, table_id: str) -> None:
        """Stop playing a table another process took over: its clocks stopped, its computer
        player cancelled, the table out of memory (asked for again, it goes to its owner)."""
        if self.rooms.is_asleep(table_id):
            self.rooms.forget_asleep(table_id)
            self.timers.wakeups.cancel(table_id)
            return
        room = self.rooms.get(table_id)
        if room is None:
            return
        self.timers.cancel(room)
        if room.bot_task is not None and room.bot_task is not asyncio.current_task():
            room.bot_task.cancel()
        self.rooms.let_go(room)

    def forget_tables_of(self, player: str) -> None:
        """Let go of the tables in memory at which ``player`` sits, so that each loads again
        from its log when asked for (their account was deleted: renamed there)."""
        for room in self.rooms:
            if any(seat.player == player for seat in room.state.seats):
                self.rooms.let_go(room)

    async def _resume(self, room: Room, downtime: float) -> None:
        """Carry on with a table after a restart; the time the hall was down is charged to no one.

        The give-back is an event in the table's log, so that the next restart replays it too.
        """
        for seat in room.state.people():
            self.timers.start_grace(room.id, seat.seat)
        # Settled even when nothing is given back: a turn-based table's forced move or deal may
        # be owed (the hall stopped between a commit and what follows it).
        await self.path.send(room.id, commands.Resume(downtime), settle=True)

    async def _give_back(self, seconds: float) -> None:
        """An outage is over (``outage.py``): the leases kept first (several processes: before
        another process finds them expired), every deadline moved ``seconds`` later, every live
        table held here resumed with ``seconds`` given back, then the clocks run again and
        every socket behind hears of its table. ``StoreUnavailable`` if the database went away
        again (the tables not yet resumed are resumed once it is back)."""
        if self.ownership is not None:
            await self.ownership.renew()
        self.timers.scheduler.shift(seconds)
        asleep = [t for t in self.rooms.asleep_ids() if self.ownership_holds(t)]
        await self.store.wakes.owe(asleep, seconds)  # (their clocks stopped too)
        rooms = [
            r
            for r in self.rooms
            if r.state.phase is not Phase.FINISHED and self.ownership_holds(r.id)
        ]
        outcomes = await asyncio.gather(
            *(self._resume_after_outage(room, seconds) for room in rooms), return_exceptions=True
        )
        for outcome in outcomes:
            if isinstance(outcome, StoreUnavailable):
                raise outcome
            if isinstance(outcome, BaseException):
                log.error("resuming a table after an outage", exc_info=outcome)
        self.timers.scheduler.unpause()
        for room in rooms:
            if self.ownership_holds(room.id) and self.rooms.get(room.id) is room:
                self.announce(room)

    async def _resume_after_outage(self, room: Room, seconds: float) -> None:
        for _ in range(2):  # (again once: a write the outage cut off was found committed)
            try:
                await self.path.give_back(room, seconds)
                return
            except HallError as error:
                if error.code == STORE_UNAVAILABLE:
                    raise StoreUnavailable(error.message) from error
                if error.code != "stale":
                    log.warning("table %s after an outage: %s", room.id, error.message)
                    return

    def announce(self, room: Room) -> None:
        """Tell every socket of the table (on any process) its version now: those behind it ask
        for the whole state at once (after a takeover or an outage, when a change may have been
        lost with no later one coming soon to show the gap)."""
        self.path.publish(room, None)

    async def stop(self) -> None:
        self.ready = False
        await self.outage.close()
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
        if self._sleep_task is not None:
            self._sleep_task.cancel()
        if self._lobby_task is not None:
            self._lobby_task.cancel()
        self.timers.close()
        self.computers.close(list(self.rooms))
        await self.presence.stop()
        # Every table that may sleep noted, so that the next start (or the process taking its
        # lease) leaves it asleep rather than reading its log.
        await self._note([r for r in self.rooms if self.ownership_holds(r.id)])
        if self.ownership is not None:
            await self.ownership.stop(release=True)  # the others take the tables at once
        try:
            await self.store.set_meta("alive_at", repr(self.clock.now()))
        except StoreUnavailable:  # stopped during an outage: the last heartbeat stands
            log.warning("stopping: the database is unreachable, the heartbeat not written")

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self.store.set_meta("alive_at", repr(self.clock.now()))
            except StoreUnavailable:
                self.outage.noticed(Part.STORE)  # (the clocks stop until it is back)
            except Exception:  # noqa: BLE001 - a missed beat only gives a little time back
                log.exception("heartbeat failed")

    # Lookups ----------------------------------------------------------------------------
    async def room(self, table_id: str) -> Room:
        """The table in memory; off its owner (several processes), a room of its own with the
        table as its log has it, not kept (this process does not play it)."""
        owners = self.owners
        if owners is not None and await owners.owner_of(table_id) is not None:
            return Room(await owners.replayed(table_id))
        return await self.rooms.load(table_id)

    async def summary(self, table_id: str) -> TableSummary:
        """The table as the lobby and the HTTP answers show it (``views.summary``)."""
        return views.summary((await self.room(table_id)).state)

    def ownership_holds(self, table_id: str) -> bool:
        return self.ownership is None or self.ownership.holds(table_id)

    async def open_tables_of(self, player: str) -> int:
        """How many unfinished real-time tables ``player`` plays a seat at (the limit on a
        player's tables counts these; turn-based ones have their own)."""
        mine = await self.tables_of(player, asleep=False)  # (a table asleep is turn-based)
        return sum(s.options.turn_based is None for s, _ in mine)

    # Seating ----------------------------------------------------------------------------
    # The web is answered with summaries (``views.summary``) and reads nothing of a table
    # itself: ``new_table`` and ``new_table_with_bots`` for it, while ``create_table`` and
    # ``play_with_bots`` give the hall's own callers (the matchmaker, tests) the table.
    async def create_table(
        self, person: Person, options: Options, bots: Sequence[BotLevel | None] | None = None
    ) -> TableState:
        return await self.seating.create_table(person, options, bots)

    async def new_table(
        self, person: Person, options: Options, bots: Sequence[BotLevel | None] | None = None
    ) -> TableSummary:
        """``create_table``, answered with the new table's summary (its host in seat 0)."""
        return views.summary(await self.create_table(person, options, bots))

    async def play_with_bots(
        self,
        person: Person,
        bots: Sequence[BotLevel],
        preset: str | None = None,
        target: int | None = None,
    ) -> TableState:
        return await self.seating.play_with_bots(person, bots, preset, target)

    async def new_table_with_bots(
        self,
        person: Person,
        bots: Sequence[BotLevel],
        preset: str | None = None,
        target: int | None = None,
    ) -> TableSummary:
        """``play_with_bots``, answered with the started table's summary (the person in seat 0)."""
        return views.summary(await self.play_with_bots(person, bots, preset, target))

    async def open_pairing(
        self,
        pool_id: str,
        people: list[Person],
        *,
        ranked: bool = True,
        speed: Speed = Speed.REAL_TIME,
        arena: bool = False,
    ) -> TableState:
        """A started table of ``pool_id`` for the people a pairing seated, in seat order: ranked,
        or casual quick play. Its options are the pool's, with the Normal timer, or 1 move per
        day when turn-based (RULES.md 6); an arena pairing's game also counts for the season."""
        pool = get_pool(pool_id)
        if len(people) not in pool.players:
            raise HallError(
                "bad_option",
                "pool {pool_id} seats {pool_players}, not {people_count}",
                pool_id=pool.id,
                pool_players=pool.players,
                people_count=len(people),
            )
        ranked_in = pool.id if ranked else None
        timer = RANKED_TIMERS[speed]
        options = Options(
            pool.preset, pool.target, len(people), timer, False, ranked_in, arena=arena and ranked
        )
        seats = tuple(SeatAtStart(SeatKind.HUMAN, p.id, p.name) for p in people)
        state = await self.seating.open_table(options, seats, start=True)
        for person in people:  # seated by the queue, not by their own click on this table
            self.broker.tell(person.id, Invitation("pairing", state.id, None))
        return state

    async def join(self, person: Person, table_id: str, seat: int | None) -> int:
        return await self.seating.join(person, table_id, seat)

    async def seat_bot(
        self, person: Person, table_id: str, seat: int, bot: BotLevel
    ) -> TableSummary:
        """A computer player in an empty seat; the table's summary after it."""
        return views.summary(await self.seating.seat_bot(person, table_id, seat, bot))

    async def remove(self, person: Person, table_id: str, seat: int) -> TableSummary:
        """A seat emptied by the host; the table's summary after it."""
        return views.summary(await self.seating.remove(person, table_id, seat))

    async def start_game(self, person: Person, table_id: str) -> TableSummary:
        """The host starts the game; the table's summary after it."""
        return views.summary(await self.seating.start_game(person, table_id))

    async def set_watching(self, person: Person, table_id: str, open_: bool) -> TableSummary:
        """The host opens a private table's game to watchers, or closes it (a watcher's socket
        then closes, on whichever process it is); the table's summary after it."""
        command = commands.SetWatching(person.id, open_)
        return views.summary(await self.owner.send(table_id, command))

    async def rename_seated(self, player_id: str, name: str) -> int:
        """An operator reset the player's name: each live table they play at shows the new one
        at once (a ``renamed`` event through the table's owner, so on any process); at how many
        tables it was asked."""
        asked = 0
        for table_id in await self.store.live_tables_of(player_id):
            try:
                await self.owner.send(table_id, commands.Rename(player_id, name))
            except HallError as error:  # over meanwhile, or the owner away: the game's end
                log.debug("rename of %s not shown at %s: %s", player_id, table_id, error)
                continue
            asked += 1
        return asked

    async def leave(
        self, person: Person, table_id: str, on_commit: OnCommit | None = None
    ) -> TableSummary:
        """Leave the table; the summary of the table as the leave left it (it may have closed
        or finished: no longer in memory, so not looked up again)."""
        return views.summary(await self.seating.leave(person, table_id, on_commit))

    async def resign(self, person: Person, table_id: str, on_commit: OnCommit | None = None) -> int:
        """Concede the game (docs/protocol.md 4): out as resigned; at a partnership table with a
        person as partner, their partner is asked first (and ``on_commit`` is called with the
        version unchanged: the request is not stored). The table's version after it."""
        command = commands.Resign(person.id, self.clock.now())
        return await self.owner.command(table_id, command, on_commit)

    async def answer_resign(
        self, person: Person, table_id: str, accept: bool, on_commit: OnCommit | None = None
    ) -> int:
        """A partner's answer to a resign request: accepted, the team concedes the game."""
        command = commands.AnswerResign(person.id, accept)
        return await self.owner.command(table_id, command, on_commit)

    # Play -------------------------------------------------------------------------------
    async def play(
        self,
        person: Person,
        table_id: str,
        move: Move,
        *,
        until_fits: bool = False,
        version: int | None = None,
        on_commit: OnCommit | None = None,
    ) -> int:
        """A seat's move (a draw with ``until_fits`` keeps drawing while nothing fits; ``version``:
        the table the person saw). Returns the table's version after it."""
        command = commands.MakeMove(person.id, move, until_fits, version)
        return await self.owner.command(table_id, command, on_commit)

    async def next_hand(
        self, person: Person, table_id: str, on_commit: OnCommit | None = None
    ) -> int:
        command = commands.PressNextHand(person.id)
        return await self.owner.command(table_id, command, on_commit)

    # Presence ---------------------------------------------------------------------------
    async def connect(self, table_id: str, person: Person | None) -> int | None:
        """A socket opens on a table: its seat (None: a spectator). The socket's presence is
        the table id and that seat (``presence``): it holds nothing of the table."""
        room = await self.room(table_id)
        if self.ownership_holds(table_id):
            room = self.rooms.add(room)  # (finished: kept while watched)
            if room.state.options.ranked is not None and room.ratings is None:
                room.ratings = await shown_ratings(self.store.ratings, room.state)
                # An arena game's seat cards show the league and points too (docs/arena.md).
                labels = await standing_labels(self.store, room.state)
                room.ratings = {
                    p: f"{r} · {labels[p]}" if p in labels else r for p, r in room.ratings.items()
                }
        seat = room.state.seat_of(person.id) if person is not None else None
        if seat is None:  # (a person taken out of a seat watches on: their audience is theirs)
            player = person.id if person is not None else None
            check_watcher(room.state, audience_of(people_of(room.state), player))
        await self.presence.connect(table_id, seat)
        return seat

    async def disconnect(self, table_id: str, seat: int | None) -> None:
        room = self.rooms.get(table_id)
        if room is not None:
            room.touched = self.clock.now()  # (idle from now: ``sleep_idle``)
        await self.presence.disconnect(table_id, seat)

    async def reseat(self, table_id: str, old: int | None, new: int | None) -> None:
        await self.presence.reseat(table_id, old, new)

    def listen(self, table_id: str, audience: Audience) -> None:
        """A socket is sent the messages made for ``audience`` (see ``table_feed``; several
        processes: each person's always are, see ``CommandPath._audiences``)."""
        room = self.rooms.get(table_id)
        if room is not None:
            room.listen(audience)

    def unlisten(self, table_id: str, audience: Audience) -> None:
        room = self.rooms.get(table_id)
        if room is not None:
            room.unlisten(audience)

    def follow_listing(self, table_id: str, listener: Listener) -> Callable[[], None]:
        """A player's socket keeps the table in its My games list from the table's changes:
        ``listener`` hears them, and on several processes they are made with the table's
        listing while it does (``CommandPath._listed``). Returns the function that stops."""
        listed = self.path.listed_here
        listed[table_id] += 1
        unsubscribe = self.broker.subscribe(table_id, listener)
        following = True

        def stop() -> None:
            nonlocal following
            if following:
                following = False
                unsubscribe()
                listed[table_id] -= 1
                if listed[table_id] <= 0:
                    del listed[table_id]

        return stop

    # After the game -------------------------------------------------------------------------
    async def tables_of(
        self, player: str, *, asleep: bool = True, skip: set[str] | None = None
    ) -> list[tuple[TableState, int]]:
        """The unfinished tables ``player`` is seated at, with their seat: those that wait for
        them first, the most urgent (the nearest deadline) first, then the others, newest first.
        One process: the tables in memory, and those asleep loaded (``asleep`` False: left
        out, for a caller counting real-time tables). Several: the player's live tables as the
        store notes them, each as its owner or its log has it now. ``skip``: tables left out."""
        skip = skip or set()
        if self.owners is None:
            states = [room.state for room in self.rooms.played_by(player)]
            if asleep:
                waking = [t for t in self.rooms.asleep_of(player) if t not in skip]
                states += [(await self.rooms.load(t)).state for t in waking]
        else:
            tables = [t for t in await self.store.live_tables_of(player) if t not in skip]
            states = [await self.owner.table(t) for t in tables]
        mine = []
        for state in states:
            seat = state.seat_of(player)
            if seat is not None and state.phase is not Phase.FINISHED:
                mine.append((state, seat))
        mine.sort(key=lambda mine: Listing.of(mine[0]).urgency(mine[1]))
        return mine

    async def listings_of(self, player: str) -> list[tuple[Listing, int]]:
        """``tables_of`` as "My games" lists them (``listing.py``), with the player's seat; a
        table asleep here as its note lists it (not loaded: ``dormancy.py``)."""
        asleep = self.rooms.asleep_of(player)
        noted = await self.store.wakes.listings(asleep)
        mine = []
        for table_id in asleep:
            if table_id in noted:
                data, owed, at = noted[table_id]
                seat = data["seats"].get(player)
                if seat is not None:
                    later = owed + owed_since(at, self._downtimes)
                    mine.append((Listing.from_json(data, later_by=later), int(seat)))
        awake = await self.tables_of(player, skip=set(noted))
        mine += [(Listing.of(state), seat) for state, seat in awake]
        mine.sort(key=lambda mine: mine[0].urgency(mine[1]))
        return mine

    async def my_tables(self, player: str) -> list[MyTable]:
        """``tables_of`` as "My games" and the player's socket show it."""
        mine = await self.listings_of(player)
        now = self.clock.now()
        return [listing.entry(seat, now) for listing, seat in mine]

    async def rematch(self, person: Person, table_id: str, accept: bool) -> TableState:
        return await self.seating.rematch(person, table_id, accept)

    async def answer_rematch(self, person: Person, table_id: str, accept: bool) -> RematchAnswer:
        """``rematch`` as the web answers it: the table's summary and the offer as it stands."""
        state = await self.rematch(person, table_id, accept)
        return {"table": views.summary(state), "rematch": views.rematch_json(state)}

    # What follows a change -----------------------------------------------------------------
    async def _gone(self, room: Room, seat: int) -> None:
        """A seat's last socket closed: a rematch offer ends, and, settled even when it had none,
        a person gone may be all Next hand waited for."""
        await self.owner.command(room.id, commands.GoneAfterTheEnd(seat), settle=True)

    async def _came(self, room: Room) -> None:
        """A seat's first socket anywhere: between hands, the people connected now may all be
        ready already (they pressed Next hand while nobody was counted connected: a takeover
        or a restart before their sockets came back), and the hand is dealt now rather than at
        the end of the wait."""
        if room.state.phase is Phase.BETWEEN_HANDS:
            await self.owner.command(room.id, commands.Resume(0.0), settle=True)

    async def _follow(self, room: Room, events: list[Event], run: Run) -> None:
        """What follows a change, run by the table's owner after the commit, under the table's
        lock (``run``: a command the table owes, under that same hold)."""
        try:
            self.seating.tell(room.state, events)
            await self._count_abandoned(room, events)
            await self._settle(room, run)
            await self._show_in_lobby(room)
        finally:
            self._schedule(room)
            room.touched = self.clock.now()

    async def _count_abandoned(self, room: Room, events: list[Event]) -> None:
        try:
            await self.abandonment.count(room.state, events)
        except Exception:  # noqa: BLE001 - the table goes on; the strike is lost, logged
            log.exception("table %s: counting who walked away failed", room.id)

    async def _show_in_lobby(self, room: Room) -> None:
        """The table put on the lobby's board as it shows now (``lobby.py``), or taken off,
        when that differs from what this process last put (or put nothing yet: a table taken
        over is put again). The board writes it (``lobby_board.py``); a failure here is logged:
        the lobby is not worth a change's follow-up."""
        state = room.state
        known = room.lobby_ratings
        try:
            if not state.options.private and any(
                s.player is not None and s.player not in known for s in state.seats
            ):
                room.lobby_ratings = await seat_ratings(self.store.ratings, state, known)
            entry = entry_of(state, room.lobby_ratings)
            if room.lobby_put and entry == room.lobby_entry:
                return
            self.board.put(room.id, entry)
        except Exception:  # noqa: BLE001 - the next change puts it again
            log.exception("lobby: table %s not put", room.id)
            return
        room.lobby_entry, room.lobby_put = entry, True

    async def _settle(self, room: Room, run: Run) -> None:
        """What follows from the table as it is now: a finished game stored, the next hand dealt."""
        state = room.state
        if state.phase is Phase.FINISHED:
            await self._save_finish(room)
        elif state.options.turn_based is not None:
            # Turn-based: the next hand starts at once, and a forced draw or pass is made at once.
            if state.phase is Phase.BETWEEN_HANDS:
                await run(commands.DealNextHand())
            elif state.phase is Phase.PLAYING:
                await self.turn_based.cover(room, run)  # a game begun during someone's vacation
                await run(commands.MakeForcedMoves())
        elif state.phase is Phase.BETWEEN_HANDS:
            people = [s for s in state.people() if s.seat in room.connected()]
            if people and all(s.ready for s in people):
                await run(commands.DealNextHand())

    async def _save_finish(self, room: Room) -> None:
        if room.saved_finish:
            return
        self.timers.cancel(room)
        if not room.finish_stored:
            # Ended by a log written before the end went with its events (an older hall): its
            # result, record and ratings in one transaction, now.
            state = room.state
            await self.store.finish_table(
                room.id, self.clock.now(), state.record(), rated_result(state)
            )
        room.saved_finish = True
        try:
            await self.abandonment.finished(room.state)
        except Exception:  # noqa: BLE001 - only forgiveness waits one game longer
            log.exception("table %s: counting who played it to the end failed", room.id)
        for seat in room.state.seats:
            if seat.player is not None:
                self.broker.tell(seat.player, TableOver(room.id))
        if not room.attended:
            self.rooms.let_go(room)  # nobody looks at it: it loads again if someone does

    def _schedule(self, room: Room) -> None:
        """Set the clocks for the table as it is now, and wake a computer player whose turn it is;
        tell the person whose turn began."""
        self.timers.schedule(room)
        self.computers.wake(room)
        state = room.state
        turn = state.turn
        if turn is None or not state.seats[turn].is_person:
            return
        key = (state.turn_since, turn)
        if room.told_turn != key:
            room.told_turn = key
            player = state.seats[turn].player
            assert player is not None
            notice = YourTurn(room.id, turn, state.version, state.turn_deadline)
            self.broker.tell(player, notice)

    def _remind(self, room: Room, seat: int) -> None:
        """Tell the person at ``seat`` that less than a quarter of their clock's cap is left."""
        state = room.state
        player = state.seats[seat].player
        if player is None or state.turn != seat:
            return
        now = self.clock.now()
        left = state.clock_left(seat, now)
        self.broker.tell(player, Reminder(room.id, seat, state.version, state.turn_deadline, left))
