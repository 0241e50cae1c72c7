"""Seating: a new table has its host in seat 0 and the computer players asked for; Play now starts
at once; each person seated hears of it; a bad request creates nothing."""

from __future__ import annotations

import string

import pytest

from dominohall.hall import HallError, Options, Phase
from dominohall.hall.events import SeatKind
from dominohall.hall.notices import Seated
from dominohall.hall.options import BotLevel

from .helpers import ANN, BOB, running_hall

pytestmark = pytest.mark.anyio


async def test_a_new_table_seats_its_host_first_and_the_computer_players_asked_for(
    database_url: str,
):
    async with running_hall(database_url) as hall:
        told: list[object] = []
        hall.broker.listen(ANN.id, told.append)
        state = await hall.create_table(ANN, Options.choose(seats=3), [None, None, BotLevel.HARD])
        assert state.phase is Phase.SEATING
        assert len(state.id) == 8 and set(state.id) <= set(string.ascii_lowercase + string.digits)
        assert [(s.kind, s.player, s.name, s.bot) for s in state.seats] == [
            (SeatKind.HUMAN, ANN.id, ANN.name, None),
            (SeatKind.EMPTY, None, None, None),
            (SeatKind.BOT, None, "Hard", "hard"),
        ]
        assert told == [Seated(state.id, 0)]


async def test_a_person_joining_is_told_their_seat(database_url: str):
    async with running_hall(database_url) as hall:
        state = await hall.create_table(ANN, Options.choose(seats=3))
        told: list[object] = []
        hall.broker.listen(BOB.id, told.append)
        seat = await hall.join(BOB, state.id, 2)
        assert seat == 2 and state.seats[2].player == BOB.id
        assert told == [Seated(state.id, 2)]


async def test_play_now_starts_at_once_against_one_to_three_computer_players(database_url: str):
    async with running_hall(database_url) as hall:
        state = await hall.play_with_bots(ANN, [BotLevel.EASY, BotLevel.NORMAL], "block", 100)
        assert state.phase is Phase.PLAYING and state.hand is not None
        assert (state.options.preset, state.options.target, state.options.seats) == (
            "block",
            100,
            3,
        )
        assert [s.bot for s in state.seats] == [None, "easy", "normal"]
        tables = {s.id for s, _ in await hall.tables_of(ANN.id)}
        for bots in ([], [BotLevel.EASY] * 4):
            with pytest.raises(HallError) as refused:
                await hall.play_with_bots(ANN, bots)
            assert refused.value.code == "bad_option"
            assert refused.value.message == f"'bots' lists 1 to 3 computer players, not {len(bots)}"
        with pytest.raises(HallError):
            await hall.create_table(ANN, Options.choose(seats=2), [BotLevel.EASY, None])
        assert {s.id for s, _ in await hall.tables_of(ANN.id)} == tables  # nothing was created
