"""Presence on several processes (``presence.py`` over ``seat_board.py``): a player connected
through a process that does not hold the table counts as connected at the table's owner; their
last socket closing there starts the grace period at the owner; a process that dies stops
counting once its seats' time is up; an owner taking a table over counts the sockets already
open elsewhere. The watchers (sockets without a seat) are summed over the processes by the
owner, and a dead process's stop counting too. Two halls on one PostgreSQL database and the machine's Redis, as in
``test_owners.py``, on one hand-driven clock."""

from __future__ import annotations

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.notices import SeatPresence, Watchers
from dominohall.hall.seat_board import RedisSeatBoard
from dominohall.hall.table import TableState
from dominohall.hall.wiring import OpenHall

from .conftest import REDIS_URL
from .helpers import ANN, BOB
from .test_owners import LEASE, open_tables, two_halls

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]


async def wait(clock: ManualClock, seconds: float, *halls: OpenHall) -> None:
    """Let ``seconds`` pass, each hall making its rounds as it would (its leases and its seats
    renewed every third of the lease time: the rounds' real pauses are longer than a test)."""
    step = LEASE / 3
    while seconds > 0:
        await clock.advance(min(step, seconds))
        seconds -= step
        for hall in halls:
            assert hall.hall.ownership is not None
            await hall.hall.ownership.tick()
            await hall.hall.presence.tick()


async def table_at(hall: OpenHall, table_id: str) -> TableState:
    return await hall.hall.owner.table(table_id)


async def test_a_player_connected_through_another_process_is_not_put_out(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        [table_id] = await open_tables(a, 1)
        assert a.hall.ownership is not None and a.hall.ownership.holds(table_id)
        heard: list[object] = []
        a.hall.broker.subscribe(
            table_id, lambda n: heard.append(n) if isinstance(n, SeatPresence) else None
        )
        # Ann's page is served by B, Bob's by A (the table's owner).
        ann_seat = await b.hall.connect(table_id, ANN)
        await a.hall.connect(table_id, BOB)
        held = a.hall.rooms.get(table_id)
        assert held is not None and held.connected() == {0, 1}
        assert heard == [SeatPresence(0, True), SeatPresence(1, True)]
        await wait(clock, a.hall.grace_seconds + 1, a, b)
        assert [s.out for s in (await table_at(a, table_id)).seats] == [None, None]
        # A second tab through B, then both closed: the owner hears it once, at the last.
        heard.clear()
        await b.hall.connect(table_id, ANN)
        await b.hall.disconnect(table_id, ann_seat)
        assert heard == [], heard
        await b.hall.disconnect(table_id, ann_seat)
        assert heard == [SeatPresence(0, False)]
        assert held.connected() == {1}
        await wait(clock, a.hall.grace_seconds - 1, a, b)
        assert (await table_at(a, table_id)).seats[0].out is None
        await wait(clock, 2, a, b)
        assert (await table_at(a, table_id)).seats[0].out is not None


async def test_a_dead_processes_sockets_stop_counting_and_the_grace_period_starts(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        [table_id] = await open_tables(a, 1)
        await a.hall.connect(table_id, BOB)
        # A third process with Ann's socket tells A, then dies (kill -9: it renews nothing and
        # takes nothing out).
        dying = RedisSeatBoard(
            REDIS_URL, prefix=redis_prefix, process_id="hall-c", clock=clock, seconds=LEASE
        )
        await dying.arrive(table_id, 0)
        assert a.hall.owners is not None
        await a.hall.owners.seats_changed(table_id)
        held = a.hall.rooms.get(table_id)
        assert held is not None and held.connected() == {0, 1}
        # Within its seats' time Ann counts; A's rounds renew A's own seats.
        await wait(clock, LEASE - 1, a, b)
        assert held.connected() == {0, 1}
        await wait(clock, 2, a, b)  # Ann's socket's time is up: her grace period starts now
        assert held.connected() == {1}
        await wait(clock, a.hall.grace_seconds - 1, a, b)
        assert (await table_at(a, table_id)).seats[0].out is None
        await wait(clock, 2, a, b)
        state = await table_at(a, table_id)
        assert state.seats[0].out is not None and state.seats[1].out is None
        await dying.close()


async def test_a_new_owner_counts_the_sockets_open_elsewhere(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        [table_id] = await open_tables(a, 1)
        # Both players' pages are served by B; A holds the table, then dies.
        for person in (ANN, BOB):
            await b.hall.connect(table_id, person)
        assert a.hall.ownership is not None and b.hall.ownership is not None
        # A dies as after kill -9: no renewal, no answer, no clock of its own fires any more.
        await a.hall.ownership.stop(release=False)
        a.hall.timers.close()
        assert a.link is not None
        await a.link.close()
        await wait(clock, LEASE + 1, b)
        await b.hall.ownership.tick()
        assert b.hall.ownership.holds(table_id)
        held = b.hall.rooms.get(table_id)
        assert held is not None and held.connected() == {0, 1}
        await wait(clock, b.hall.grace_seconds + 1, b)
        assert [s.out for s in (await table_at(b, table_id)).seats] == [None, None]


async def test_the_owner_counts_the_watchers_of_every_process(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        [table_id] = await open_tables(a, 1)
        assert a.hall.ownership is not None and a.hall.ownership.holds(table_id)
        heard: list[object] = []
        a.hall.broker.subscribe(
            table_id, lambda n: heard.append(n) if isinstance(n, Watchers) else None
        )
        # Two watchers through B, one through A (the owner), one through a third process that
        # then dies (it renews nothing and takes nothing out).
        await b.hall.connect(table_id, None)
        await b.hall.connect(table_id, None)
        await a.hall.connect(table_id, None)
        dying = RedisSeatBoard(
            REDIS_URL, prefix=redis_prefix, process_id="hall-c", clock=clock, seconds=LEASE
        )
        await dying.watch(table_id, 1)
        assert a.hall.owners is not None
        await a.hall.owners.seats_changed(table_id)
        held = a.hall.rooms.get(table_id)
        assert held is not None and held.watching == 4
        assert heard == [Watchers(1), Watchers(2), Watchers(3), Watchers(4)]
        seen = await b.hall.owner.view(table_id, None)  # a socket's first state, through B
        assert seen.message["state"]["watchers"] == 4
        await b.hall.disconnect(table_id, None)
        assert held.watching == 3 and heard[-1] == Watchers(3)
        # Within its time the dead process's watcher counts; then it stops, and the owner says so.
        await wait(clock, LEASE - 1, a, b)
        assert held.watching == 3
        await wait(clock, 2, a, b)
        assert held.watching == 2 and heard[-1] == Watchers(2)
        await dying.close()
