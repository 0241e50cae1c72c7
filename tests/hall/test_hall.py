"""What the hall answers the web with: tables' summaries made by the hall (the web reads nothing
of a table), and the count of a player's open real-time tables that the table limit takes."""

from __future__ import annotations

import pytest

from dominohall.hall import ManualClock, Options
from dominohall.hall.options import BotLevel
from dominohall.hall.views import rematch_json, summary

from .helpers import ANN, BOB, CID, running_hall, started_table

pytestmark = pytest.mark.anyio


async def test_the_seating_requests_answer_with_the_tables_summary(database_url: str):
    async with running_hall(database_url) as hall:
        made = await hall.new_table(ANN, Options.choose(seats=3))
        table = made["id"]
        state = (await hall.room(table)).state
        assert made == summary(state) and made["seats"][0]["name"] == ANN.name
        assert await hall.join(BOB, table, None) == 1
        assert await hall.summary(table) == summary(state)
        seated = await hall.seat_bot(ANN, table, 2, BotLevel.EASY)
        assert seated["seats"][2]["bot"] == "easy" and seated == summary(state)
        removed = await hall.remove(ANN, table, 1)
        assert removed["seats"][1]["kind"] == "empty" and removed == summary(state)
        await hall.join(CID, table, None)
        started = await hall.start_game(ANN, table)
        assert started["phase"] == "playing" and started == summary(state)
        with_bots = await hall.new_table_with_bots(BOB, [BotLevel.EASY], preset="block")
        assert with_bots == summary((await hall.room(with_bots["id"])).state)


async def test_leaving_answers_with_the_table_as_the_leave_left_it(database_url: str):
    async with running_hall(database_url) as hall:
        table = (await hall.new_table(ANN, Options.choose(seats=2)))["id"]
        left = await hall.leave(ANN, table)  # the last person out: the table closes
        assert left["phase"] == "finished" and left["free_seats"] == 2
        assert hall.rooms.get(table) is None  # not in memory to be looked up again


async def test_open_tables_are_public_seating_tables_newest_first_as_summaries(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        first = await hall.new_table(ANN, Options.choose(seats=2))
        await hall.new_table(BOB, Options.choose(seats=2, private=True))
        await clock.advance(1.0)
        second = await hall.new_table(CID, Options.choose(seats=3))
        assert await hall.board.listed() == [second, first]


async def test_a_players_open_tables_are_their_unfinished_real_time_seats(database_url: str):
    async with running_hall(database_url) as hall:
        assert await hall.open_tables_of(ANN.id) == 0
        seating = (await hall.new_table(ANN, Options.choose(seats=2)))["id"]
        await hall.new_table(ANN, Options.choose(seats=2, timer="day"))  # turn-based: not counted
        playing = await started_table(hall, [BOB, ANN])
        assert await hall.open_tables_of(ANN.id) == 2 and await hall.open_tables_of(BOB.id) == 1
        await hall.leave(ANN, playing)  # a forfeit: the game is over
        assert await hall.open_tables_of(ANN.id) == 1 and await hall.open_tables_of(BOB.id) == 0
        await hall.leave(ANN, seating)
        assert await hall.open_tables_of(ANN.id) == 0


async def test_forgetting_a_players_tables_lets_go_of_those_they_sit_at(database_url: str):
    async with running_hall(database_url) as hall:
        theirs = (await hall.new_table(ANN, Options.choose(seats=2)))["id"]
        others = (await hall.new_table(BOB, Options.choose(seats=2)))["id"]
        hall.forget_tables_of(ANN.id)
        assert hall.rooms.get(theirs) is None and hall.rooms.get(others) is not None
        assert (await hall.summary(theirs))["id"] == theirs  # loads again from its log


async def test_a_rematch_answer_is_the_tables_summary_and_the_offer(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB])
        await hall.leave(BOB, table)  # a forfeit: Ann alone is offered a rematch
        answer = await hall.answer_rematch(ANN, table, True)
        state = (await hall.room(table)).state
        assert answer == {"table": summary(state), "rematch": rematch_json(state)}
        assert answer["rematch"]["accepted"] == [0]
