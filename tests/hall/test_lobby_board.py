"""The lobby's board (``lobby_board.py``), and the open tables, My games and the table limit's
count on several processes (``Hall.open_tables``, ``Hall.tables_of``): whichever process is asked
answers for the tables of every process. Two halls on one PostgreSQL database and the machine's
Redis, as in ``test_owners.py``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dominohall.hall import HallError, ManualClock, Options, stream_pages
from dominohall.hall.lobby import entry_of
from dominohall.hall.lobby_board import RedisLobbyBoard
from dominohall.hall.messages import LobbyTable
from dominohall.hall.options import BotLevel
from dominohall.hall.views import summary
from own_servers import OwnRedis

from .conftest import REDIS_URL
from .helpers import ANN, BOB, CID, DEE
from .test_owners import two_halls
from .test_redis_broker import WAIT

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]


async def _written(*halls: Any) -> None:
    """Each process's puts written (its board writes them a moment after the change)."""
    for hall in halls:
        await hall.hall.board.written()


async def test_each_process_lists_the_open_tables_of_every_process(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        four = await a.hall.create_table(ANN, Options.choose(seats=4))
        await clock.advance(1)
        two = await b.hall.create_table(CID, Options.choose(seats=2))
        await b.hall.create_table(DEE, Options.choose(seats=2, private=True))  # never listed
        assert a.hall.ownership is not None and a.hall.ownership.holds(four.id)
        await _written(a, b)
        for hall in (a, b):
            listed = await hall.hall.board.listed()
            assert [t["id"] for t in listed] == [two.id, four.id]  # newest first
        # Joined through the process that does not hold it: the list says so on both.
        await b.hall.join(BOB, four.id, None)
        await a.hall.join(BOB, two.id, None)  # full: no longer open
        await _written(a, b)
        for hall in (a, b):
            listed = await hall.hall.board.listed()
            assert [t["id"] for t in listed] == [four.id]
            assert listed[0] == summary(await a.hall.owner.table(four.id))
            assert listed[0]["free_seats"] == 2
        await b.hall.seat_bot(ANN, four.id, 2, BotLevel("easy"))
        await _written(a, b)
        assert [t["free_seats"] for t in await a.hall.board.listed()] == [1]
        await b.hall.seat_bot(ANN, four.id, 3, BotLevel("easy"))
        await _written(a, b)
        assert await a.hall.board.listed() == [] and await b.hall.board.listed() == []


async def test_my_games_and_the_table_limit_count_the_tables_of_every_process(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        at_a = await a.hall.create_table(ANN, Options.choose(seats=2))
        at_b = await b.hall.create_table(ANN, Options.choose(seats=2))
        turn_based = await b.hall.create_table(ANN, Options.choose(seats=2, timer="day"))
        await a.hall.join(BOB, at_b.id, None)
        for hall in (a, b):
            mine = {state.id: seat for state, seat in await hall.hall.tables_of(ANN.id)}
            assert mine == {at_a.id: 0, at_b.id: 0, turn_based.id: 0}
            assert [t["id"] for t in await hall.hall.my_tables(BOB.id)] == [at_b.id]
            assert await hall.hall.open_tables_of(ANN.id) == 2  # real-time ones only
        await b.hall.leave(ANN, at_a.id)  # the last person leaving a seating table closes it
        for hall in (a, b):
            assert {s.id for s, _ in await hall.hall.tables_of(ANN.id)} == {at_b.id, turn_based.id}
            assert await hall.hall.open_tables_of(ANN.id) == 1


async def test_a_new_owner_takes_a_table_out_of_the_list_its_dead_owner_left_in(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        table = await a.hall.create_table(ANN, Options.choose(seats=2))
        assert a.hall.ownership is not None and b.hall.ownership is not None
        # A dies (kill -9) right after Bob's seat is committed, before the list is written.
        await a.hall.join(BOB, table.id, None)
        assert a.board is not None
        a.board.put(table.id, entry_of(table, {}))  # (the stale entry its death left)
        await a.board.written()
        await a.hall.ownership.stop(release=False)
        a.hall.timers.close()
        assert a.link is not None
        await a.link.close()
        await clock.advance(31)  # beyond the lease (30 s in these tests)
        await b.hall.ownership.tick()
        assert b.hall.ownership.holds(table.id)
        assert await b.hall.board.listed() == []


async def test_the_list_unreadable_is_refused_with_a_code_of_its_own() -> None:
    gone = RedisLobbyBoard("redis://127.0.0.1:1/0", prefix="x:")  # nothing listens on port 1
    try:
        with pytest.raises(HallError) as refused:
            await gone.listed()
        assert refused.value.code == "lobby_unreachable"
        gone.put("t", None)  # kept to be written, not raised
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(gone.written(), 0.3)
    finally:
        await gone.close()  # (gives up on the put after a moment)


async def test_puts_made_while_redis_is_away_are_written_once_it_is_back(
    redis_prefix: str,
) -> None:
    server = OwnRedis()  # (not started until the puts were refused)
    board = RedisLobbyBoard(server.url, prefix=redis_prefix, gather=0.01)
    reader = RedisLobbyBoard(server.url, prefix=redis_prefix)
    try:
        board.put("first", _open("first", 1.0))
        board.put("gone", _open("gone", 0.5))
        board.put("second", _open("second", 2.0))
        board.put("gone", None)  # (the latest put of a table is the one written)
        with pytest.raises(TimeoutError):  # tried and refused meanwhile
            await asyncio.wait_for(board.written(), 0.3)
        server.start()
        await server.up()
        await asyncio.wait_for(board.written(), WAIT)
        assert [t["id"] for t in await reader.listed()] == ["second", "first"]
    finally:
        await board.close()
        await reader.close()
        server.stop()


async def test_a_put_of_a_table_this_process_no_longer_holds_is_dropped(
    redis_prefix: str,
) -> None:
    board = RedisLobbyBoard(REDIS_URL, prefix=redis_prefix, gather=0.05)
    try:
        held = {"kept"}
        board.keeps = lambda table_id: table_id in held
        board.put("kept", _open("kept", 1.0))
        board.put("moved", _open("moved", 2.0))  # its lease moved on before the write
        await board.written()
        assert [t["id"] for t in await board.listed()] == ["kept"]
    finally:
        await board.close()


def _open(table_id: str, created_at: float) -> LobbyTable:
    summary = {"id": table_id, "created_at": created_at}
    entry = {"id": table_id, "kind": "open", "table": summary, "ratings": [], "rating": None}
    return {**entry, "scores": None}  # type: ignore[typeddict-item]


async def test_a_follower_hears_the_whole_board_then_each_put_in_order(redis_prefix: str) -> None:
    writer = RedisLobbyBoard(REDIS_URL, prefix=redis_prefix)
    reader = RedisLobbyBoard(REDIS_URL, prefix=redis_prefix)
    heard: list[tuple[str, LobbyTable | None]] = []
    wholes: list[dict[str, LobbyTable]] = []
    try:
        writer.put("old", _open("old", 1.0))
        writer.put("gone", _open("gone", 0.5))
        await writer.written()
        writer.put("gone", None)
        await writer.written()
        reader.follow(wholes.append, lambda t, e: heard.append((t, e)))
        for _ in range(500):
            if wholes:
                break
            await asyncio.sleep(0.01)
        assert wholes == [{"old": _open("old", 1.0)}]  # (puts before it are in the whole only)
        writer.put("new", _open("new", 2.0))
        writer.put("old", None)
        for _ in range(500):
            if len(heard) == 2:
                break
            await asyncio.sleep(0.01)
        assert heard == [("new", _open("new", 2.0)), ("old", None)]
        assert await reader.listed() == [_open("new", 2.0)["table"]]
    finally:
        await writer.close()
        await reader.close()


async def test_a_follower_behind_the_streams_trimming_reads_the_whole_board_again(
    redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stream_pages, "PAGE", 10)  # (the board reads its stream through it)
    board = RedisLobbyBoard(REDIS_URL, prefix=redis_prefix, kept=1)
    try:
        board.put("first", _open("first", 1.0))
        await board.written()
        [(first_id, _)] = await board._reader.xrange(board.stream)
        for n in range(300):  # the stream keeps about one node of 100 (MAXLEN ~ 1)
            board.put(f"t{n}", _open(f"t{n}", 2.0))
        await board.written()
        heard: list[str] = []
        assert await board._read_on(first_id.decode(), lambda t, e: heard.append(t)) is None
        assert heard == []  # (nothing told from a stream with a hole in it)
        # Not behind: the puts after it, and the cursor moved on.
        [(last_id, _)] = await board._reader.xrevrange(board.stream, count=1)
        board.put("later", _open("later", 3.0))
        await board.written()
        assert await board._read_on(last_id.decode(), lambda t, e: heard.append(t)) is not None
        assert heard == ["later"]
    finally:
        await board.close()
