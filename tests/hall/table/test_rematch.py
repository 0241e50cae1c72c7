"""A rematch's decisions on a finished table: who is asked, when the offer stands, the new
table's seats, and each answer refused by name when it cannot be given."""

from __future__ import annotations

import pytest

from dominohall.hall import HallError, Phase
from dominohall.hall import commands as c
from dominohall.hall.events import Rematch, RematchTable, SeatAtStart, SeatKind
from dominohall.hall.table.rematch import (
    decide_rematch,
    rematch_open,
    rematch_people,
    rematch_seats,
)

from ..helpers import ANN, BOB, CID, running_hall, started_table
from ..test_after_game import finished_game
from ..test_table_rules import play_to_the_end

pytestmark = pytest.mark.anyio


def refusal(state, command) -> tuple[str, str]:
    with pytest.raises(HallError) as refused:
        decide_rematch(state, command)
    return refused.value.code, refused.value.message


async def test_the_people_seated_at_the_end_are_asked_and_answer_once(database_url: str):
    async with running_hall(database_url) as hall:
        table, state = await finished_game(hall, [ANN, BOB], ["easy"])
        assert rematch_people(state) == [0, 1]
        assert rematch_open(state)
        assert rematch_seats(state) == (
            SeatAtStart(SeatKind.HUMAN, ANN.id, ANN.name),
            SeatAtStart(SeatKind.HUMAN, BOB.id, BOB.name),
            SeatAtStart(SeatKind.BOT, None, "Easy", "easy"),
        )
        assert decide_rematch(state, c.AnswerRematch(BOB.id, True)) == [Rematch(1, True)]
        assert refusal(state, c.AnswerRematch(CID.id, True))[0] == "not_seated"

        await hall.rematch(BOB, table, True)
        assert decide_rematch(state, c.AnswerRematch(BOB.id, True)) == []  # said already
        assert decide_rematch(state, c.AnswerRematch(BOB.id, False)) == [Rematch(1, False)]


async def test_someone_gone_ends_the_offer_and_a_late_yes_is_refused_saying_who(
    database_url: str,
):
    async with running_hall(database_url) as hall:
        table, state = await finished_game(hall, [ANN, BOB], [])
        assert decide_rematch(state, c.GoneAfterTheEnd(1)) == [Rematch(1, False)]
        await hall.rematch(BOB, table, False)
        ended = state
        assert not rematch_open(ended)
        assert decide_rematch(ended, c.GoneAfterTheEnd(0)) == []  # nothing left to end
        assert decide_rematch(ended, c.AnswerRematch(ANN.id, False)) == []  # leaving: done
        assert refusal(ended, c.AnswerRematch(ANN.id, True)) == (
            "rematch_over",
            "Bob left: the rematch offer has ended",
        )


async def test_a_person_out_of_the_game_is_not_asked_and_their_computer_player_stays(
    database_url: str,
):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB], bots=["easy"], preset="block", target=50)
        await hall.leave(BOB, table)
        await play_to_the_end(hall, table, [ANN])
        state = (await hall.room(table)).state
        assert rematch_people(state) == [0]
        seats = rematch_seats(state)
        assert seats[0] == SeatAtStart(SeatKind.HUMAN, ANN.id, ANN.name)
        assert seats[1].kind is SeatKind.BOT and seats[1].player is None
        assert refusal(state, c.AnswerRematch(BOB.id, True))[0] == "not_seated"


async def test_no_rematch_is_offered_before_the_end(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB])
        state = (await hall.room(table)).state
        assert state.phase is Phase.PLAYING
        assert not rematch_open(state)
        assert refusal(state, c.AnswerRematch(ANN.id, True)) == (
            "not_over",
            "a rematch is offered once the game is over",
        )
        assert decide_rematch(state, c.GoneAfterTheEnd(0)) == []


async def test_the_last_yes_names_the_new_table_in_the_same_change(database_url: str):
    async with running_hall(database_url) as hall:
        table, state = await finished_game(hall, [ANN, BOB], [])
        last_yes = c.AnswerRematch(ANN.id, True, "newtable")
        assert decide_rematch(state, last_yes) == [Rematch(0, True)]  # Bob has not said yet
        await hall.rematch(BOB, table, True)
        assert decide_rematch(state, last_yes) == [Rematch(0, True), RematchTable("newtable")]
        with pytest.raises(ValueError, match="new table"):
            decide_rematch(state, c.AnswerRematch(ANN.id, True))
        version = state.version
        await hall.rematch(ANN, table, True)
        new = state.rematch_table
        assert new is not None and state.version == version + 2
        events = await hall.store.events(table)
        assert [body["kind"] for _, _, body in events[-2:]] == ["rematch", "rematch_table"]
        assert events[-2][1] == events[-1][1]  # one change: committed together
        opened = [body["kind"] for _, _, body in await hall.store.events(new)]
        assert opened[:3] == ["created", "started", "dealt"]
