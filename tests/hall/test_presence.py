"""Presence: a seat is connected while any of its sockets is open; the table hears when that
changes (not for each socket, never for a spectator), and the last socket closing starts the
grace period. The spectators are counted: the table hears how many watch when that changes."""

from __future__ import annotations

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.notices import SeatPresence, Watchers

from .helpers import ANN, BOB, running_hall, started_table

pytestmark = pytest.mark.anyio


async def test_the_table_hears_when_a_seat_connects_or_drops_not_each_socket(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB], timer="relaxed")
        heard: list[object] = []
        hall.broker.subscribe(
            table, lambda n: heard.append(n) if isinstance(n, SeatPresence) else None
        )
        seat = await hall.connect(table, ANN)  # Ann's second socket (a second tab)
        room = await hall.room(table)
        assert seat == 0 and hall.presence.sockets(table, 0) == 2
        none = await hall.connect(table, None)
        await hall.disconnect(table, none)
        await hall.disconnect(room.id, 0)
        assert heard == []
        await hall.disconnect(room.id, 0)
        assert hall.presence.sockets(table, 0) == 0 and 0 not in room.connected()
        await hall.connect(table, ANN)
        assert heard == [
            SeatPresence(0, False),
            SeatPresence(0, True),
        ]


async def test_the_table_hears_how_many_watch_when_it_changes(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB], timer="relaxed")
        heard: list[object] = []
        hall.broker.subscribe(table, heard.append)
        room = await hall.room(table)
        assert room.watching == 0
        await hall.connect(table, None)
        await hall.connect(table, None)
        await hall.connect(table, ANN)  # a seat's socket is no watcher: nothing heard
        assert room.watching == 2 and hall.presence.watchers(table) == 2
        view = await hall.owner.view(table, None)
        assert view.message["state"]["watchers"] == 2  # a new socket's first state says it
        await hall.disconnect(table, None)
        await hall.reseat(table, None, 1)  # the last watcher sat down (Bob)
        assert heard == [Watchers(1), Watchers(2), Watchers(1), Watchers(0)]
        assert room.watching == 0 and hall.presence.watchers(table) == 0
        await hall.reseat(table, 1, None)  # and went out of the game: watches again
        assert heard[-1] == Watchers(1)


async def test_the_grace_period_starts_only_when_a_seats_last_socket_closes(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], timer="relaxed")
        await hall.connect(table, ANN)
        room = await hall.room(table)
        await hall.disconnect(room.id, 0)  # one of Ann's two tabs closed: still here
        await clock.advance(hall.grace_seconds + 1)
        state = room.state
        assert state.seats[0].out is None
        await hall.disconnect(room.id, 0)  # the last one
        await clock.advance(hall.grace_seconds - 1)
        assert state.seats[0].out is None
        await clock.advance(1)
        assert state.seats[0].out is not None
