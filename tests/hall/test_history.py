"""The games' index from the tables' logs: seats, places, hands won, timeouts, catching up."""

from __future__ import annotations

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.history import Indexer, entry_of
from dominohall.rules.record import check_record
from dominohall.store.deletion import ANONYMOUS, delete_account
from hall.helpers import ANN, BOB, CID, idle, running_hall, started_table, whose_turn
from hall.test_table_rules import play_to_the_end

pytestmark = pytest.mark.anyio


async def test_a_finished_game_is_indexed_once_with_its_seats_and_timeouts(database_url: str):
    clock = ManualClock()
    people = [ANN, BOB, CID]
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, people, preset="draw", target=50, private=True)
        mover = await whose_turn(hall, table, people)
        seat = (await hall.room(table)).state.seat_of(mover.id)
        await clock.advance(25.0)  # the timer plays the mover's turn once
        await idle(hall)
        await play_to_the_end(hall, table, people)
        indexer = Indexer(hall.store)
        assert await hall.store.history.game(table) is None  # not indexed until asked
        assert await indexer.catch_up() == 1
        assert await indexer.catch_up() == 0
        entry = await indexer.game(table)
        assert entry is not None and entry.private and entry.ranked is None
        report = check_record(await hall.store.record(table))
        assert entry.winner == report["winner"] and entry.hands == len(report["hands"])
        assert [s.player_id for s in entry.seats] == ["p_ann", "p_bob", "p_cid"]
        assert [s.score for s in entry.seats] == report["scores"]
        assert [s.timeouts for s in entry.seats] == [int(s == seat) for s in range(3)]
        assert [s.won for s in entry.seats] == [s == report["winner"] for s in range(3)]
        for s in entry.seats:
            won = [h for h in report["hands"] if h["winner"] == s.seat]
            assert s.hands_out == sum(not h["blocked"] for h in won)
            assert s.hands_block == sum(h["blocked"] for h in won)
        assert sorted(s.place for s in entry.seats)[0] == 1
        # Entries are the same whenever they are made from the log.
        finished_at = entry.finished_at
        assert entry_of(table, await hall.store.events(table), finished_at) == entry


async def test_a_deleted_account_leaves_its_games_under_an_anonymous_name(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB], preset="draw")
        await play_to_the_end(hall, table, [ANN, BOB])
        await Indexer(hall.store).catch_up()
        assert await delete_account(hall.store.engine, ANN.id) == 1
        entry = await hall.store.history.game(table)
        assert entry is not None
        assert [s.name for s in entry.seats] == [ANONYMOUS, "Bob"]
        record = await hall.store.record(table)
        assert record is not None and record["players"] == [ANONYMOUS, "Bob"]
        assert check_record(record)["ok"]
        # The table's log too: replayed, the table shows the anonymous name.
        hall.rooms.let_go(await hall.room(table))
        seats = (await hall.room(table)).state.seats
        assert [s.name for s in seats] == [ANONYMOUS, "Bob"]
        assert [s.player for s in seats] == [ANN.id, BOB.id]


async def test_a_game_whose_log_will_not_index_is_left_out_not_in_the_way(
    database_url: str, caplog
):
    async with running_hall(database_url) as hall:
        tables = []
        for _ in range(2):
            table = await started_table(hall, [ANN, BOB], preset="draw")
            await play_to_the_end(hall, table, [ANN, BOB])
            tables.append(table)
        # A record whose table has no log at all: nothing can index it.
        await hall.store.add_table("ghost", 1.0)
        await hall.store.finish_table("ghost", 2.0, await hall.store.record(tables[0]))
        indexer = Indexer(hall.store)
        assert await indexer.catch_up() == 2
        assert "game ghost cannot be indexed" in caplog.text
        assert await indexer.catch_up() == 0
        assert await indexer.game("ghost") is None
        assert [await indexer.game(t) is not None for t in tables] == [True, True]
