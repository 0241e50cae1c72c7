"""The command path, the one way a table changes: under the table's lock, the table decides the
command into events, the events are committed to the table's log (the key (table, version)
refuses a racing write), then applied to the table in memory and published. Nothing is
acknowledged or broadcast before it is on disk. Events that end the game are committed with the
game's end (the table finished, its record, a ranked game's ratings) in one transaction, so
whoever hears of the end finds it stored.

``TableOwner`` is the seam for running on several processes: a command for a table is sent to the
one place that owns the table (here: this process, ``CommandPath``).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ..store import Conflict, Finish, Store
from .broker import Broker
from .clock import Clock
from .commands import Command
from .errors import HallError
from .events import Created, Event, Joined
from .ranked import rated_result
from .rooms import Room, Rooms
from .table import Phase, TableState
from .table_feed import Before, Seen, audience_of, change_of, people_of, view

log = logging.getLogger("dominohall.hall")

OnCommit = Callable[[int], None]  # called with the table's version once the command is committed
AfterCommit = Callable[[Room], Awaitable[None]]


class TableOwner(Protocol):
    async def send(
        self, table_id: str, command: Command, on_commit: OnCommit | None = None
    ) -> TableState:
        """Run ``command`` at the table; the table as it is after it (HallError if refused)."""
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
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.clock = clock
        self.broker = broker
        self.rng = rng
        self.after_commit = after_commit  # what follows a change (a deal, the clocks, a bot)

    async def send(
        self, table_id: str, command: Command, on_commit: OnCommit | None = None
    ) -> TableState:
        room = await self.rooms.load(table_id)
        async with room.lock:
            await self.run(room, command, on_commit)
        return room.state

    async def run(self, room: Room, command: Command, on_commit: OnCommit | None = None) -> int:
        """Decide a command and commit its events (the caller holds the table's lock)."""
        events, ending = room.state.decide_ending(command, self.rng)
        if not events:
            if on_commit is not None:
                on_commit(room.state.version)
            return room.state.version
        return await self.commit(room, events, on_commit, ending=ending)

    async def commit(
        self,
        room: Room,
        events: list[Event],
        on_commit: OnCommit | None = None,
        *,
        ending: bool = True,
    ) -> int:
        """Commit events to the log, then apply and publish them (the caller holds the lock).
        ``ending``: whether they may end the game (``TableState.decide_ending``; when unknown,
        True: the end is worked out)."""
        state = room.state
        before = Before.of(state)
        at = self.clock.now()
        bodies = [event.to_body() for event in events]
        for player in _players_seated(events):  # noted first: a guest who sat somewhere is kept
            await self.store.add_seat(player, room.id)
        finish = await self._finish_of(room, events, bodies, at) if ending else None
        write = self.store.start_append(room.id, state.version + 1, bodies, at, finish)
        try:
            await asyncio.shield(write)
        except asyncio.CancelledError:
            # The caller was cancelled (a shutdown) while the write was under way; the store
            # commits it or not regardless, and the table in memory must stay what its log says
            # (taken back while the log kept it, the next command would find the log ahead:
            # refused as stale, and the table jumping a version). So wait for the outcome.
            await asyncio.wait([write])
            if not write.cancelled() and write.exception() is None:
                for event, body in zip(events, bodies, strict=True):
                    state.apply(event, at, body)
                room.finish_stored = finish is not None
                self.rooms.seats_changed(room)
                self.publish(room, before)
            raise
        except Conflict:
            # Someone else wrote this table's log: take the log as it is now.
            await self.reload(room)
            raise HallError("stale", "the table changed meanwhile: look again") from None
        for event, body in zip(events, bodies, strict=True):
            state.apply(event, at, body)
        room.finish_stored = finish is not None
        self.rooms.seats_changed(room)  # a seat taken, left or lost
        if on_commit is not None:
            on_commit(state.version)
        self.publish(room, before)
        try:
            await self.after_commit(room)
        except Exception:  # noqa: BLE001 - this change is committed; what follows is retried
            log.exception("after version %d of table %s", state.version, room.id)
        return state.version

    async def _finish_of(
        self, room: Room, events: list[Event], bodies: list[dict[str, Any]], at: float
    ) -> Finish | None:
        """The table's end if these events end it, to be stored with them (None: they do not).

        Worked out on a copy of the table replayed from its log, so that the table itself
        changes only once the events are committed; asked only for events that may end the game
        (a hand over, a seat out or emptied, a ranked first turn run out): once a hand, not a move.
        """
        copy = TableState.replay(room.id, await self.store.events(room.id))
        for event, body in zip(events, bodies, strict=True):
            copy.apply(event, at, body)
        if copy.phase is not Phase.FINISHED:
            return None
        return Finish(copy.record(), rated_result(copy))

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
            set(room.listening),
            connected=room.connected(),
            now=self.clock.now(),
            ratings=room.ratings,
        )
        self.broker.publish(room.id, change)

    async def view(self, table_id: str, player: str | None, since: int | None) -> Seen:
        """The table's whole state as ``player`` sees it (None: someone not signed in), and the
        audience they are of there (``table_feed.view``)."""
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
