"""A part of the hall away mid-game and back (``outage.py``): PostgreSQL restarted under one
process and under two, Redis restarted under two. Each on a server of the test's own
(``tests/own_servers.py``), on a hand-driven clock: the clock is moved past every deadline while
the part is away, and nothing may fire; the real time a test waits is the servers' start and the
probe's (a short one)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from dominohall.hall import Hall, HallError, ManualClock, Options
from dominohall.hall.deadlines import Due
from dominohall.hall.events import Resumed, from_body
from dominohall.hall.notices import Missed
from dominohall.hall.table_feed import TableChange
from dominohall.hall.wiring import HallSettings, OpenHall, open_hall
from dominohall.rules import DRAW
from dominohall.store import StoreUnavailable
from own_servers import OwnPostgres, OwnRedis, own_postgres, own_redis

from .helpers import ANN, BOB, first_move, view, whose_turn

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]
__all__ = ["own_postgres", "own_redis"]  # (fixtures)

WAIT = 10.0  # real seconds an outage may take to be found over once its part is back
AWAY = 600.0  # clock seconds a part stays away: past every turn timer and grace period


def settings(
    url: str, clock: ManualClock, redis: OwnRedis | None = None, name: str = ""
) -> HallSettings:
    return HallSettings(
        url,
        clock=clock,
        bot_delay=0,
        rng=random.Random(name or 1),
        heartbeat=False,
        probe_seconds=0.02,
        redis_url=None if redis is None else redis.url,
        redis_prefix="outage:",
        process_id=name or None,
        lease_seconds=30.0,
    )


@contextlib.asynccontextmanager
async def opened(*all_settings: HallSettings) -> AsyncIterator[list[OpenHall]]:
    halls = [await open_hall(s) for s in all_settings]
    try:
        yield halls
    finally:
        await asyncio.gather(*(h.close() for h in halls))


async def started(hall: Hall) -> str:
    state = await hall.create_table(ANN, Options.choose(seats=2, timer="normal"))
    await hall.join(BOB, state.id, None)
    await hall.start_game(ANN, state.id)
    return state.id


async def play(through: Hall, table_id: str) -> int:
    person = await whose_turn(through, table_id, [ANN, BOB])
    move = first_move(await view(through, table_id, person))
    return await through.play(person, table_id, move, until_fits=move == DRAW)


async def ended(hall: Hall) -> None:
    await asyncio.wait_for(hall.outage.ended.wait(), WAIT)


async def logged(hall: Hall, table_id: str) -> list[tuple[int, object]]:
    return [(v, from_body(body)) for v, _, body in await hall.store.events(table_id)]


async def test_postgresql_restarted_mid_game_under_one_process(own_postgres: OwnPostgres) -> None:
    clock = ManualClock()
    async with opened(settings(own_postgres.url, clock)) as [one]:
        hall = one.hall
        table_id = await started(hall)
        heard: list[TableChange] = []
        hall.broker.subscribe(
            table_id, lambda c: heard.append(c) if isinstance(c, TableChange) else None
        )
        acked = await play(hall, table_id)
        deadline = (await hall.owner.table(table_id)).deadlines()[Due.TURN]
        heard.clear()

        own_postgres.stop()
        with pytest.raises(HallError) as refused:
            await play(hall, table_id)
        assert refused.value.code == "store_unavailable"
        assert hall.outage.down
        # Refused at once from now on, and nobody told of a move that was not made.
        with pytest.raises(HallError, match="database"):
            await play(hall, table_id)
        await clock.advance(AWAY)  # past the turn timer: nothing may fire
        assert heard == []
        assert (await hall.owner.table(table_id)).version == acked

        own_postgres.start()
        await ended(hall)
        # The acknowledged move kept; the outage given back (from the first failure to the
        # probe that found the database back: the clock stood still but for AWAY).
        log = await logged(hall, table_id)
        assert log[-1] == (acked + 1, Resumed(AWAY))
        state = await hall.owner.table(table_id)
        assert state.deadlines()[Due.TURN] == deadline + AWAY
        # The give-back told, then the table announced (at the same version: nobody behind).
        assert [c.version for c in heard] == [acked + 1, acked + 1]
        # The game goes on, and its clock runs again: the timer fires at its new deadline.
        moved = await play(hall, table_id)
        assert moved > acked + 1
        await clock.advance(state.options.turn_seconds + 1)
        assert (await hall.owner.table(table_id)).version > moved  # (the autoplay's turn)


async def test_postgresql_restarted_mid_game_under_two_processes(
    own_postgres: OwnPostgres, own_redis: OwnRedis
) -> None:
    await own_redis.up()
    clock = ManualClock()
    a_settings = settings(own_postgres.url, clock, own_redis, "a")
    b_settings = settings(own_postgres.url, clock, own_redis, "b")
    async with opened(a_settings, b_settings) as [a, b]:
        table_id = await started(a.hall)  # held by a
        assert a.hall.ownership is not None and a.hall.ownership.holds(table_id)
        heard: list[TableChange] = []
        assert b.broker is not None
        b.broker.subscribe(
            table_id, lambda c: heard.append(c) if isinstance(c, TableChange) else None
        )
        await b.broker.settled()
        acked = await play(b.hall, table_id)  # through b, committed by a
        deadline = (await a.hall.owner.table(table_id)).deadlines()[Due.TURN]

        own_postgres.stop()
        for through in (a.hall, b.hall):
            # (a read of the table off its owner finds the database away first: the web answers
            # StoreUnavailable as store_unavailable too)
            with pytest.raises((HallError, StoreUnavailable)) as refused:
                await play(through, table_id)
            code = getattr(refused.value, "code", "store_unavailable")
            assert code in {"store_unavailable", "owner_unreachable"}
        await clock.advance(AWAY)  # past the turn timer and the leases: nothing may fire
        assert a.hall.outage.down

        own_postgres.start()
        await ended(a.hall)
        # a kept its lease (renewed first once back): its table resumed there, the outage
        # given back, the acknowledged move kept; the sockets through b told.
        holder = await a.store.table_leases.holder(table_id)
        assert holder is not None and holder.owner == "a"
        log = await logged(a.hall, table_id)
        assert (acked, log[acked - 1][1]) == log[acked - 1]
        assert log[-1] == (acked + 1, Resumed(AWAY))
        assert (await a.hall.owner.table(table_id)).deadlines()[Due.TURN] == deadline + AWAY
        await asyncio.wait_for(_until(lambda: heard and heard[-1].version == acked + 1), WAIT)
        # The game goes on through either process.
        if b.hall.outage.down:
            await ended(b.hall)
        again = await play(b.hall, table_id)
        assert again > acked + 1
        assert await play(a.hall, table_id) > again


async def _retried(request: Callable[[], Awaitable[int]]) -> int:
    for _ in range(int(WAIT / 0.05)):
        try:
            return await request()
        except HallError as error:
            if error.code != "owner_unreachable":
                raise
        await asyncio.sleep(0.05)
    raise AssertionError(f"still unreachable after {WAIT} s")


async def _until(condition: object) -> None:
    assert callable(condition)
    while not condition():
        await asyncio.sleep(0.01)


async def test_redis_restarted_mid_game_under_two_processes(
    postgres_database: str, own_redis: OwnRedis
) -> None:
    await own_redis.up()
    clock = ManualClock()
    a_settings = settings(postgres_database, clock, own_redis, "a")
    b_settings = settings(postgres_database, clock, own_redis, "b")
    async with opened(a_settings, b_settings) as [a, b]:
        table_id = await started(a.hall)  # held by a
        heard: list[TableChange | Missed] = []
        assert b.broker is not None
        b.broker.subscribe(
            table_id, lambda c: heard.append(c) if isinstance(c, TableChange | Missed) else None
        )
        await b.broker.settled()
        acked = await play(b.hall, table_id)  # through b, committed by a
        # b hears it before Redis goes (a sends its changes in 2 ms batches, after the ack)
        versions = lambda: [c.version for c in heard if isinstance(c, TableChange)]  # noqa: E731
        await asyncio.wait_for(_until(lambda: acked in versions()), WAIT)

        own_redis.stop()
        await asyncio.wait_for(_until(lambda: a.hall.outage.down and b.hall.outage.down), WAIT)
        with pytest.raises(HallError) as refused:  # b cannot reach a
            await play(b.hall, table_id)
        assert refused.value.code == "owner_unreachable"
        # a's own sockets still play (the database is there); the clocks stand still.
        local = await play(a.hall, table_id)
        deadline = (await a.hall.owner.table(table_id)).deadlines()[Due.TURN]
        await clock.advance(AWAY)
        assert (await a.hall.owner.table(table_id)).version == local  # nothing fired

        own_redis.start()
        await own_redis.up()
        await ended(a.hall)
        log = await logged(a.hall, table_id)
        assert log[-1] == (local + 1, Resumed(AWAY))
        assert (await a.hall.owner.table(table_id)).deadlines()[Due.TURN] == deadline + AWAY
        # b's sockets missed the move made meanwhile: once b hears the table's channel again,
        # they are told so (and ask for the whole state).
        await asyncio.wait_for(_until(lambda: Missed() in heard), WAIT)
        assert acked in versions()
        # The game goes on through either process (b's requests reach a once a's link is
        # subscribed again: refused with owner_unreachable until then, as a client retries).
        await ended(b.hall)
        assert await _retried(lambda: play(b.hall, table_id)) > local + 1
