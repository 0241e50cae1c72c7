"""The seat board (``seat_board.py``): each process's sockets a seat, written to Redis, counting
until their time is up unless renewed, and taken out when the process closes. On the machine's
Redis, with a hand-driven clock."""

from __future__ import annotations

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.seat_board import RENEW_CHUNK, MemorySeatBoard, RedisSeatBoard

from .conftest import REDIS_URL

pytestmark = pytest.mark.anyio


def board(prefix: str, process: str, clock: ManualClock) -> RedisSeatBoard:
    return RedisSeatBoard(REDIS_URL, prefix=prefix, process_id=process, clock=clock, seconds=10)


async def test_each_process_says_which_seats_it_has_sockets_for(redis_prefix: str) -> None:
    clock = ManualClock()
    a, b = board(redis_prefix, "a", clock), board(redis_prefix, "b", clock)
    try:
        await a.arrive("t1", 0)
        await b.arrive("t1", 0)
        await b.arrive("t1", 2)
        await b.arrive("t2", 1)
        assert await a.present("t1") == {0: {"a", "b"}, 2: {"b"}}
        await b.leave("t1", 0)
        assert await a.present("t1") == {0: {"a"}, 2: {"b"}}
        assert await a.present("t2") == {1: {"b"}}
        assert await a.present("t3") == {}
    finally:
        await a.close()
        await b.close()


async def test_a_seat_stops_counting_when_its_process_stops_renewing(redis_prefix: str) -> None:
    clock = ManualClock()
    alive, dead = board(redis_prefix, "alive", clock), board(redis_prefix, "dead", clock)
    try:
        await alive.arrive("t", 0)
        await dead.arrive("t", 1)
        await clock.advance(6)
        await alive.renew()  # "dead" renews nothing from now on
        await clock.advance(6)
        assert await alive.present("t") == {0: {"alive"}}
        await clock.advance(6)
        assert await alive.present("t") == {}
    finally:
        await alive.close()
        await dead.close()


async def test_a_process_closing_takes_its_seats_out(redis_prefix: str) -> None:
    clock = ManualClock()
    a, b = board(redis_prefix, "a", clock), board(redis_prefix, "b", clock)
    try:
        await a.arrive("t", 0)
        await a.arrive("t", 1)
        await b.arrive("t", 1)
        await a.close()
        assert await b.present("t") == {1: {"b"}}
    finally:
        await b.close()


async def test_an_unreachable_redis_answers_none_and_writes_nothing() -> None:
    # Nothing listens on port 1: every command fails to connect.
    gone = RedisSeatBoard(
        "redis://127.0.0.1:1/0", prefix="x:", process_id="a", clock=ManualClock(), seconds=10
    )
    await gone.arrive("t", 0)  # logged, not raised: the socket is open all the same
    await gone.renew()
    assert await gone.present("t") is None  # "could not be read", not "nobody is here"
    await gone.close()


async def test_the_board_in_memory_counts_this_process_only() -> None:
    memory = MemorySeatBoard()
    await memory.arrive("t", 0)
    await memory.arrive("t", 3)
    await memory.leave("t", 0)
    assert await memory.present("t") == {3: {memory.process_id}}
    await memory.leave("t", 3)
    assert await memory.present("t") == {}


async def test_each_process_says_how_many_watch_through_it(redis_prefix: str) -> None:
    clock = ManualClock()
    a, b = board(redis_prefix, "a", clock), board(redis_prefix, "b", clock)
    try:
        await a.watch("t", 2)
        await b.watch("t", 1)
        assert await a.watching("t") == {"a": 2, "b": 1}
        await a.watch("t", 0)
        assert await b.watching("t") == {"b": 1}
        await clock.advance(6)
        await b.renew()
        await a.watch("t", 4)
        await clock.advance(6)
        assert await a.watching("t") == {"a": 4, "b": 1}  # b renewed, a wrote at 6
        await clock.advance(6)  # nobody renewed since 6: both stop counting
        assert await a.watching("t") == {}
        await a.watch("t", 1)
        await b.close()
        assert await a.watching("t") == {"a": 1}
    finally:
        await a.close()
        await b.close()
    c = board(redis_prefix, "c", clock)
    try:
        assert await c.watching("t") == {}  # (closing took them out)
    finally:
        await c.close()


async def test_one_process_counts_its_watchers_in_memory() -> None:
    memory = MemorySeatBoard()
    await memory.watch("t", 3)
    assert await memory.watching("t") == {"here": 3}
    await memory.watch("t", 0)
    assert await memory.watching("t") == {}


async def test_a_renewal_of_more_tables_than_one_script_call_takes_renews_them_all(
    redis_prefix: str,
) -> None:
    clock = ManualClock()
    many, other = board(redis_prefix, "many", clock), board(redis_prefix, "other", clock)
    tables = [f"t{i}" for i in range(RENEW_CHUNK + 101)]
    try:
        for number, table_id in enumerate(tables):
            await many.arrive(table_id, number % 4)
            await many.watch(table_id, 1 + number % 3)
        last_seats = {(len(tables) - 1) % 4, (len(tables) + 1) % 4}
        await many.arrive(tables[-1], max(last_seats))  # (a table with two seats here)
        await clock.advance(6)
        await many.renew()
        await clock.advance(6)  # counted only if the renewal reached them: they were written at 0
        for number, table_id in enumerate(tables):
            seats = await other.present(table_id)
            assert seats is not None and seats[number % 4] == {"many"}
            assert await other.watching(table_id) == {"many": 1 + number % 3}
        assert set((await other.present(tables[-1])) or {}) == last_seats
        await clock.advance(6)
        assert await other.present(tables[0]) == {}
        assert await other.watching(tables[-1]) == {}
    finally:
        await many.close()
        await other.close()
