"""A player's way back to their tables, the end of a game (abandoned), a rematch, Play now's choices."""

from __future__ import annotations

import pytest

from dominohall.hall import HallError, ManualClock, Options, Phase
from dominohall.hall.options import BotLevel

from .helpers import ANN, BOB, CID, idle, play_first, running_hall, started_table, view, whose_turn

pytestmark = pytest.mark.anyio


async def test_a_player_finds_the_tables_they_sit_at_theirs_to_move_first(database_url: str):
    async with running_hall(database_url) as hall:
        seating = await hall.create_table(ANN, Options.choose(seats=2))
        playing = await started_table(hall, [ANN, BOB])
        await hall.create_table(BOB, Options.choose(seats=2))  # not Ann's
        mine = await hall.tables_of(ANN.id)
        assert {s.id for s, _ in mine} == {seating.id, playing}
        state = (await hall.room(playing)).state
        assert (state, 0) in mine and state.waits_for(0) == (state.turn == 0)
        if state.turn == 0:
            assert mine[0][0].id == playing  # your turn first
        await hall.leave(ANN, playing)  # out of it (a forfeit): no longer hers to go back to
        assert [s.id for s, _ in await hall.tables_of(ANN.id)] == [seating.id]


async def test_the_last_person_out_ends_the_game_abandoned_with_no_turn_left(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN], bots=["easy", "normal"], preset="draw")
        state = (await hall.room(table)).state
        for _ in range(2):  # out of time twice running on Ann's turns
            while state.turn != 0:
                await idle(hall)
            await clock.advance(25.0)
            await idle(hall)
        assert state.phase is Phase.FINISHED
        assert state.result == {"reason": "abandoned", "winner": None, "placed_last": [0]}
        seen = await view(hall, table, None)
        assert seen["hand"]["turn"] is None and seen["clock"] is None
        assert seen["seats"][0]["out_reason"] == "timeout"
        assert (await hall.store.record(table))["result"]["reason"] == "abandoned"
        assert seen["rematch"] == {
            "open": False,
            "people": [],
            "accepted": [],
            "ended_by": None,
            "table": None,
        }


async def finished_game(hall, people, bots):
    table = await started_table(hall, people, bots=bots, preset="block", target=50)
    state = (await hall.room(table)).state
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.BETWEEN_HANDS:
            for person in people:
                await hall.next_hand(person, table)
            await idle(hall)
        else:
            await play_first(hall, table, await whose_turn(hall, table, people))
    return table, state


async def test_a_rematch_starts_when_every_person_accepts(database_url: str):
    async with running_hall(database_url) as hall:
        table, state = await finished_game(hall, [ANN, BOB], ["easy"])
        with pytest.raises(HallError, match="only the people seated"):
            await hall.rematch(CID, table, True)
        await hall.rematch(ANN, table, True)
        offer = (await view(hall, table, ANN))["rematch"]
        assert offer == {
            "open": True,
            "people": [0, 1],
            "accepted": [0],
            "ended_by": None,
            "table": None,
        }
        await hall.rematch(BOB, table, True)
        new_id = state.rematch_table
        assert new_id is not None and new_id != table
        new = (await hall.room(new_id)).state
        assert new.phase is Phase.PLAYING and new.options == state.options
        assert [(s.kind, s.name, s.bot) for s in new.seats] == [
            ("human", "Ann", None),
            ("human", "Bob", None),
            ("bot", "Easy", "easy"),
        ]
        assert (await view(hall, table, BOB))["rematch"]["table"] == new_id
        assert {s.id for s, _ in await hall.tables_of(BOB.id)} == {new_id}


async def test_the_rematch_offer_ends_when_someone_leaves(database_url: str):
    async with running_hall(database_url) as hall:
        table, state = await finished_game(hall, [ANN, BOB], ["easy"])
        await hall.rematch(ANN, table, True)
        room = await hall.room(table)
        await hall.disconnect(room.id, 1)  # Bob closes the page
        offer = (await view(hall, table, ANN))["rematch"]
        assert offer["open"] is False and offer["ended_by"] == 1
        with pytest.raises(HallError, match="Bob left"):
            await hall.rematch(ANN, table, True)
        assert state.rematch_table is None
        # Bob's page said "no" as it closed, and the close got there first: the late "no" is
        # already done, so it succeeds and changes nothing.
        version = state.version
        await hall.rematch(BOB, table, False)
        await hall.rematch(ANN, table, False)
        assert state.version == version and state.rematch_ended == 1


async def test_a_rematch_is_refused_before_the_end_and_takes_a_yes_or_no(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN], bots=["easy"])
        with pytest.raises(HallError, match="once the game is over"):
            await hall.rematch(ANN, table, True)


async def test_play_now_takes_preset_target_and_a_level_per_computer_player(database_url: str):
    async with running_hall(database_url) as hall:
        state = await hall.play_with_bots(
            ANN, [BotLevel.EASY, BotLevel.HARD, BotLevel.NORMAL], preset="all-fives", target=200
        )
        assert state.options.preset == "all-fives" and state.options.target == 200
        assert [s.bot for s in state.seats] == [None, "easy", "hard", "normal"]
        assert state.phase is Phase.PLAYING
        one = await hall.play_with_bots(ANN, [BotLevel.EASY])
        assert [s.bot for s in one.seats] == [None, "easy"] and one.options.preset == "draw"
        team = await hall.play_with_bots(ANN, [BotLevel.NORMAL] * 3, preset="partnership")
        assert team.options.seats == 4


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        ({"bots": []}, "'bots' lists 1 to 3"),
        ({"bots": [BotLevel.EASY] * 4}, "'bots' lists 1 to 3"),
        ({"preset": "draw", "target": 7}, "Draw plays to"),
        ({"preset": "partnership"}, "seats 4 players, not 2"),
        ({"preset": "dominoes"}, "unknown game 'dominoes'"),
    ],
)
async def test_play_now_refuses_choices_it_does_not_offer(database_url: str, request_, words):
    async with running_hall(database_url) as hall:
        with pytest.raises(HallError, match=words):
            chosen = {"bots": [BotLevel.NORMAL], **request_}
            await hall.play_with_bots(ANN, **chosen)
        assert await hall.tables_of(ANN.id) == []
