"""The command path, the one way a table changes: under the table's lock, the table decides the
command into events, the events are committed to the table's log (the key (table, version)
refuses a racing write), then applied to the table in memory and published. Nothing is
acknowledged or broadcast before it is on disk. Events that end the game are committed with the
game's end (the table finished, its record, a ranked game's ratings) in one transaction, so
whoever hears of the end finds it stored.

``TableOwner`` is the seam for running on several processes: every change of a table is a
command sent to the one place that owns the table (here: this process, ``CommandPath``), by the
table's id: ``open`` (a new table, owned where it opens), ``send`` (a command; the table as it
is after it, so that a caller needs no hold on the table), and the queries ``table`` (a table
asleep read from its log, left asleep), ``asleep`` and ``view``. No module outside the owner
takes a table's lock or commits its events (``tests/hall/test_command_path.py`` checks the
sources).

Inside the owner:

- What follows a change (``after_commit``: a finished game saved, a turn-based deal or forced
  move, the clocks, a computer player woken, the notices of a seat taken) runs after each
  commit, still under the table's lock, and is given ``Run``: the commands the table owes then
  are run by the owner under that same hold, one at a time, each followed in turn. ``send(...,
  settle=True)`` runs it even when the command changed nothing (a restart, a seat's last socket
  closed: a deal or a forced move may be owed without any new event).
- The owner's own parts, which fire only where the table is held (its clocks, its computer
  players), go through ``run_owned``: a command at a table this process holds, under its lock,
  with an optional ``unless`` looked at under the lock (a grace period whose person came back).
  It returns the events committed, for what a part does with them (a reminder told).
- A partnership's resign request and its refusal are decided into notes, not events
  (``deciding.Decided.notes``): the table takes them in memory and they are told on its
  channel, unversioned, before what follows runs (the request's 30 s clock).
- A command whose events name a rematch's new table opens that table first, under the finished
  table's lock: a crash between leaves the offer standing, never the name of a table that does
  not exist.

The database away (``outage.py``): a command is refused at once with ``store_unavailable``
(nothing done, nothing published), and one whose store call found it away says the same and
tells the outage, which stops the clocks until the database is back.

Several commands are never run under one hold from outside: each call site's sequence became
one command the table decides (``Resume``, ``GoneAfterTheEnd``, ``AnswerRematch``) followed by
what the owner settles.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import replace
from functools import partial
from typing import Protocol

from ..i18n import Phrase
from ..store import Conflict, Fenced, Finish, Store
from ..store.errors import unreachable
from .broker import Broker
from .clock import Clock
from .commands import Command, Open, Resume
from .errors import HallError, store_unavailable
from .events import Created, Event, Joined, RematchTable
from .notices import ResignNotice
from .outage import Outage, Part
from .ranked import rated_result
from .rooms import Room, Rooms
from .seasons import arena_game
from .table import Phase, TableState, applying, deciding
from .table.rematch import rematch_seats
from .table_feed import WATCHER, Audience, Before, Seen, audience_of, change_of, people_of, view

log = logging.getLogger("dominohall.hall")
# How long a cancelled command waits for its write under way to settle.
SETTLE_SECONDS = 5.0

OnCommit = Callable[[int], None]  # called with the table's version once the command is committed
# Runs a command at the table whose lock the owner holds (given to what follows a change):
# the events committed (none: the command changed nothing).
Run = Callable[[Command], Awaitable[list[Event]]]
# What follows a change: the table, the events just committed (none: ``settle``), and ``Run``.
AfterCommit = Callable[[Room, list[Event], Run], Awaitable[None]]


class Fence(Protocol):
    """The leases of a hall on several processes (``ownership.Ownership``): a table is written
    only with the fencing token of a lease this process holds."""

    def token(self, table_id: str) -> int | None:
        """The token to write the table with; None: this process does not hold it."""
        ...

    async def acquire(self, table_id: str) -> bool:
        """Take a new table's lease; False: someone else holds it."""
        ...

    def lost(self, table_id: str) -> None:
        """A write was fenced: the lease is gone, and the table must be let go."""
        ...


class TableOwner(Protocol):
    """Where a table's commands go: the one place that owns the table."""

    async def open(self, table_id: str, command: Open) -> TableState:
        """A new table ``table_id`` (no events yet), opened by ``command``; owned where it opens."""
        ...

    async def send(
        self,
        table_id: str,
        command: Command,
        on_commit: OnCommit | None = None,
        *,
        settle: bool = False,
    ) -> TableState:
        """Run ``command`` at the table; the table as it is after it (HallError if refused).
        ``on_commit`` is called with the version once the command is committed, before anyone
        hears of it; ``settle``: what follows a change runs even when the command changed
        nothing."""
        ...

    async def command(
        self,
        table_id: str,
        command: Command,
        on_commit: OnCommit | None = None,
        *,
        settle: bool = False,
    ) -> int:
        """``send`` for a caller that needs only the table's version after the command (the
        version it was committed at, when another process owns the table): the table is not
        made here to answer it."""
        ...

    async def table(self, table_id: str) -> TableState:
        """The table as it is now, to look at (HallError ``no_table``); one asleep is read
        from its log and left asleep."""
        ...

    def asleep(self, table_id: str) -> bool:
        """The table is held by this process and asleep (``dormancy.py``): it has not changed
        since it fell asleep, since any command wakes it."""
        ...

    async def view(self, table_id: str, player: str | None, since: int | None = None) -> Seen:
        """The table's whole state as ``player`` sees it (``table_feed.view``): the first state a
        socket is sent, or again after it fell behind (``since``: the version it was last sent).
        The socket tier asks the owner itself: ``Hall`` has no forwarder for it."""
        ...


class CommandPath:
    """Owns the tables of this process: runs their commands one at a time per table."""

    def __init__(
        self,
        store: Store,
        rooms: Rooms,
        *,
        clock: Clock,
        broker: Broker,
        rng: random.Random,
        after_commit: AfterCommit,
        fence: Fence | None = None,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.clock = clock
        self.broker = broker
        self.rng = rng
        self.after_commit = after_commit  # what follows a change (a deal, the clocks, a bot)
        # Several processes: every write carries this process's lease token (None: one process).
        self.fence = fence
        self.outage: Outage | None = None  # (set by the hall) the parts away, the clocks stopped
        # Tables a player's socket on this process keeps in a My games list, with how many
        # such sockets each (``Hall.follow_listing``).
        self.listed_here: Counter[str] = Counter()

    # The seam: what may be asked of the owner from outside --------------------------------
    async def open(self, table_id: str, command: Open) -> TableState:
        if self.fence is not None and not await self.fence.acquire(table_id):
            raise HallError(
                "not_owner", "table {table_id} is held by another process", table_id=table_id
            )
        await self.store.add_table(table_id, self.clock.now())
        room = self.rooms.add(Room(TableState(table_id)))
        await self.run_owned(room, command)
        return room.state

    async def send(
        self,
        table_id: str,
        command: Command,
        on_commit: OnCommit | None = None,
        *,
        settle: bool = False,
    ) -> TableState:
        self._refuse_in_outage()
        with self._store_errors():
            room = await self.rooms.load(table_id)
        if self.rooms.get(table_id) is not room:
            # A finished table loaded to look at: held from now on if the command applies (two
            # answers to its rematch share one lock), left out of memory if it is refused.
            deciding.decide(room.state, command, self.rng)
            room = self.rooms.add(room)
        await self.run_owned(room, command, on_commit, settle=settle)
        return room.state

    async def command(
        self,
        table_id: str,
        command: Command,
        on_commit: OnCommit | None = None,
        *,
        settle: bool = False,
    ) -> int:
        return (await self.send(table_id, command, on_commit, settle=settle)).version

    async def table(self, table_id: str) -> TableState:
        with self._store_errors():
            return await self.rooms.look(table_id)

    def asleep(self, table_id: str) -> bool:
        return self.rooms.is_asleep(table_id)

    async def give_back(self, room: Room, seconds: float) -> None:
        """An outage over (``outage.py``): the table resumed with ``seconds`` given back to its
        running clock, while the other commands are still refused, then what it owes settled."""
        await self.run_owned(room, Resume(seconds), settle=True, in_outage=True)

    def busy(self, room: Room) -> bool:
        """A command is running at the table now (its lock is held)."""
        return room.lock.locked()

    async def wake(self, room: Room, owed: float) -> None:
        """A table asleep, loaded again (``dormancy.py``): resumed with the downtime its note
        owes its clock, then what it owes settled. The lock is taken before anything else can
        run, so every command that found the room waits for the resumption."""
        await self.run_owned(room, Resume(owed), settle=True)

    # The owner's own way in (``send``, its clocks, its computer players) --------------------
    async def run_owned(
        self,
        room: Room,
        command: Command,
        on_commit: OnCommit | None = None,
        *,
        unless: Callable[[Room], bool] | None = None,
        settle: bool = False,
        in_outage: bool = False,
    ) -> list[Event]:
        """Run ``command`` at a table this process holds, under the table's lock (one command at
        a time per table): the events committed. ``unless``: looked at once the lock is held,
        True runs nothing (the table moved on while the caller waited). ``settle``: what follows
        a change runs even when the command changed nothing. ``in_outage``: run while the
        database's outage is being given back (its ``resumed``), when others are refused."""
        async with room.lock:
            if unless is not None and unless(room):
                return []
            if not in_outage:
                self._refuse_in_outage()
            events = await self._run(room, command, on_commit)
            if settle and not events:
                await self._follow(room, [])
            return events

    def _refuse_in_outage(self) -> None:
        if self.outage is not None and self.outage.store_down:
            raise store_unavailable()

    @contextlib.contextmanager
    def _store_errors(self) -> Iterator[None]:
        """An error saying the database is away raised as ``store_unavailable``."""
        try:
            yield
        except Exception as error:
            translated = self._unavailable(error)
            if translated is error:
                raise
            raise translated from error

    def _unavailable(self, error: Exception) -> Exception:
        """``error`` as the caller is to see it: ``store_unavailable`` when it says the
        database is away (and the outage is told), else itself."""
        if isinstance(error, HallError) or not unreachable(error):
            return error
        if self.outage is not None:
            self.outage.noticed(Part.STORE)
        return store_unavailable(
            Phrase(
                "not done, unless it was being committed as the connection dropped (the table's "
                "state says, once it is back)"
            )
        )

    async def _run(
        self, room: Room, command: Command, on_commit: OnCommit | None = None
    ) -> list[Event]:
        """Decide a command and commit its events (the lock is held): the events committed."""
        with self._store_errors():
            return await self._decide_and_commit(room, command, on_commit)

    async def _decide_and_commit(
        self, room: Room, command: Command, on_commit: OnCommit | None
    ) -> list[Event]:
        # The table's own modules called directly (not through ``TableState``'s methods): one
        # hop fewer each way on every move's path (ARCHITECTURE.md, the move's path).
        events, ending, notes = deciding.decide_ending(room.state, command, self.rng)
        if not events:
            if on_commit is not None:
                on_commit(room.state.version)  # (the ack before the notes' messages)
            if notes:
                self._note(room, notes)
                await self._follow(room, [])  # (the request's clock set, or stopped)
            return []
        assert not notes, "a resign request's notes come alone"
        for event in events:
            if isinstance(event, RematchTable):
                # The new table is opened before the old one names it (see the docstring).
                state = room.state
                # A rematch is rated but not an arena game: the arena pairs through its queue,
                # not the same two again and again (docs/arena.md).
                options = replace(state.options, arena=False)
                await self.open(event.table, Open(options, rematch_seats(state), True))
        await self._commit(room, events, on_commit, ending=ending)
        return events

    def _note(self, room: Room, notes: tuple[ResignNotice, ...]) -> None:
        """Notes decided but not stored (a partnership's resign request and its refusal): taken
        in by the table in memory and told on its channel, with no version (a restart forgets
        a pending request: as good as declined, docs/protocol.md 4)."""
        for note in notes:
            applying.note(room.state, note)
            self.broker.notify(room.id, note)

    async def _follow(self, room: Room, events: list[Event]) -> None:
        """What follows a change, with the owner's hold on the table to run what it owes."""
        try:
            await self.after_commit(room, events, partial(self._run, room))
        except Exception:  # noqa: BLE001 - this change is committed; what follows is retried
            log.exception("after version %d of table %s", room.state.version, room.id)

    async def _commit(
        self,
        room: Room,
        events: list[Event],
        on_commit: OnCommit | None = None,
        *,
        ending: bool = True,
    ) -> int:
        """Commit events to the log, then apply and publish them (the lock is held).
        ``ending``: whether they may end the game (``deciding.decide_ending``; when unknown,
        True: the end is worked out)."""
        state = room.state
        before = Before.of(state)
        at = self.clock.now()
        bodies = [event.to_body() for event in events]
        token = self._token(room)  # refused before anything is written when not held here
        for player in _players_seated(events):  # noted first: a guest who sat somewhere is kept
            await self.store.add_seat(player, room.id)
        finish = await self._finish_of(room, events, at) if ending else None
        write = self.store.start_append(room.id, state.version + 1, bodies, at, finish, token=token)
        try:
            await asyncio.shield(write)
        except asyncio.CancelledError:
            # The caller was cancelled (a shutdown) while the write was under way; the store
            # commits it or not regardless, and the table in memory must stay what its log says
            # (taken back while the log kept it, the next command would find the log ahead:
            # refused as stale, and the table jumping a version). So wait for the outcome.
            # Bounded: at a shutdown the store's writer may be cancelled too, and then nobody
            # ever settles the write (a test's event loop closing hung here).
            await asyncio.wait([write], timeout=SETTLE_SECONDS)
            if not write.done():
                log.warning("table %s: a write still unsettled at shutdown", room.id)
                raise
            if not write.cancelled() and write.exception() is None:
                for event in events:
                    applying.apply(state, event, at)
                room.finish_stored = finish is not None
                self.rooms.seats_changed(room)
                self.publish(room, before)
            raise
        except Conflict:
            # Someone else wrote this table's log: take the log as it is now.
            await self.reload(room)
            raise HallError("stale", "the table changed meanwhile: look again") from None
        except Fenced:
            # Another process took the table over: this one must never write it again.
            assert self.fence is not None
            self.fence.lost(room.id)
            raise HallError("not_owner", "the table moved to another process: try again") from None
        for event in events:
            applying.apply(state, event, at)
        room.finish_stored = finish is not None
        self.rooms.seats_changed(room)  # a seat taken, left or lost
        if on_commit is not None:
            on_commit(state.version)
        self.publish(room, before)
        await self._follow(room, events)
        return state.version

    def _token(self, room: Room) -> int | None:
        """The fencing token this process writes the table with (None: one process, no leases)."""
        if self.fence is None:
            return None
        token = self.fence.token(room.id)
        if token is None:
            raise HallError(
                "not_owner", "table {room_id} is not held by this process", room_id=room.id
            )
        return token

    async def _finish_of(self, room: Room, events: list[Event], at: float) -> Finish | None:
        """The table's end if these events end it, to be stored with them (None: they do not).

        Worked out on a copy of the table replayed from its log, so that the table itself
        changes only once the events are committed; asked only for events that may end the game
        (a hand over, a seat out or emptied, a ranked first turn run out): once a hand, not a move.
        """
        copy = TableState.replay(room.id, await self.store.events(room.id))
        for event in events:
            copy.apply(event, at)
        if copy.phase is not Phase.FINISHED:
            return None
        return Finish(copy.record(), rated_result(copy), arena_game(copy))

    async def reload(self, room: Room) -> None:
        room.state = TableState.replay(room.id, await self.store.events(room.id))
        self.rooms.seats_changed(room)
        self.publish(room, None)  # nothing to update from: every socket asks for the state

    def publish(self, room: Room, before: Before | None) -> None:
        """Publish the table's change since ``before``, with a message for each audience that
        listens, made now, at the version it describes."""
        state = room.state
        change = change_of(
            state,
            before,
            self._audiences(room),
            connected=room.connected(),
            now=self.clock.now(),
            ratings=room.ratings,
            listed=self._listed(room),
            watching=room.watching,
        )
        self.broker.publish(room.id, change)

    def _listed(self, room: Room) -> bool:
        """Whether a change is made with the table's My games listing: on several processes,
        when a player's socket here keeps the table in its list, or another process may hear
        the table (a socket of a player's there may). A socket that came since, sent a change
        without it, asks the store and the owners for its list."""
        if self.fence is None:
            return False  # (one process: a list is asked for, the store is at hand)
        return self.listed_here[room.id] > 0 or self.broker.heard_elsewhere(room.id)

    def _audiences(self, room: Room) -> set[Audience]:
        """Whom a change is made for: the audiences listening here; on several processes each
        person's (seated or taken out), since their sockets may be on any process and a
        registry of them would be one more thing to keep right across a crash (a few small
        messages a change, made once), and the watchers' when someone watches (here, or
        anywhere as last counted) or another process may hear the table (Redis counted someone
        hearing its last change). A socket sent a change without its message asks for the
        whole state."""
        if self.fence is None:
            return set(room.listening)
        audiences: set[Audience] = {*people_of(room.state).values()}
        if WATCHER in room.listening or room.watching or self.broker.heard_elsewhere(room.id):
            audiences.add(WATCHER)
        return audiences

    async def view(self, table_id: str, player: str | None, since: int | None = None) -> Seen:
        """The table's whole state as ``player`` sees it (None: someone not signed in), and the
        audience they are of there (``table_feed.view``)."""
        with self._store_errors():
            room = await self.rooms.load(table_id)
        state = room.state
        audience = audience_of(people_of(state), player)
        return view(
            state,
            audience,
            since,
            connected=room.connected(),
            now=self.clock.now(),
            ratings=room.ratings,
            watching=room.watching,
        )


def _players_seated(events: list[Event]) -> list[str]:
    """The players these events seat (the store notes them: see ``Store.forget_guests``)."""
    players: list[str] = []
    for event in events:
        if isinstance(event, Created):
            players += [s.player for s in event.seats if s.player]
        elif isinstance(event, Joined):
            players.append(event.player)
    return players
