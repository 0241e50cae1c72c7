"""Resigning (docs/protocol.md 4) at the table, on a hand-driven clock: with 2 players a forfeit,
with 3 or 4 a computer player in the seat, and in partnership a request the partner answers
(accepted: the team concedes; declined, or unanswered after 30 s: nothing changes)."""

from __future__ import annotations

from typing import Any

import pytest

from dominohall.hall import Hall, HallError, ManualClock, Options, Person, Phase
from dominohall.hall.notices import ResignAsked, ResignDeclined
from dominohall.hall.table_feed import TableChange
from dominohall.hall.views import rematch_json
from dominohall.rules.record import check_record

from .helpers import ANN, BOB, CID, DEE, idle, running_hall, started_table, view

pytestmark = pytest.mark.anyio

EVE = Person("p_eve", "Eve")  # never seated


def news_of(hall: Hall, table: str) -> list[ResignAsked | ResignDeclined]:
    """The resign requests' news told on the table's channel, from now on."""
    heard: list[ResignAsked | ResignDeclined] = []

    def listener(change: Any) -> None:
        if isinstance(change, ResignAsked | ResignDeclined):
            heard.append(change)
        else:
            assert isinstance(change, TableChange) or change.kind in ("presence", "chat")

    hall.broker.subscribe(table, listener)
    return heard


async def refused(code: str, call: Any) -> str:
    with pytest.raises(HallError) as caught:
        await call
    assert caught.value.code == code, caught.value
    return str(caught.value)


async def test_resigning_a_two_player_game_is_a_forfeit(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB])
        state = (await hall.room(table)).state
        await hall.resign(BOB, table)
        assert state.phase is Phase.FINISHED
        assert state.result == {"reason": "forfeit", "winner": 0, "placed_last": [1], "resigned": 1}
        seen = await view(hall, table, ANN)
        assert seen["seats"][1]["out"] is True and seen["seats"][1]["out_reason"] == "resigned"
        assert seen["game"]["reason"] == "forfeit" and seen["game"]["resigned"] == 1
        assert "agreed" not in seen["game"]
        # Resigning is conceding in the open, not leaving: the resigner is offered a rematch.
        assert rematch_json(state)["people"] == [0, 1]
        record = await hall.store.record(table)
        assert record["result"]["resigned"] == 1 and record["result"]["reason"] == "forfeit"
        assert check_record(record)["ok"]
        # Once over, there is nothing to resign.
        assert "over" in await refused("not_playing", hall.resign(ANN, table))


async def test_resigning_with_three_players_puts_a_computer_player_in_the_seat(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB, CID], preset="draw", target=100)
        state = (await hall.room(table)).state
        await hall.resign(CID, table)
        await idle(hall)
        assert state.phase is not Phase.FINISHED
        assert state.seats[2].kind == "bot" and state.seats[2].out == "resigned"
        assert state.placed_last == [2]
        assert state.takeovers[-1]["seat"] == 2 and state.takeovers[-1]["out"] == "resigned"
        seen = await view(hall, table, CID)
        assert seen["you"]["out"] == {"seat": 2, "reason": "resigned"}
        assert "out of this game" in await refused("out", hall.resign(CID, table))


async def test_a_partner_who_accepts_ends_the_game_for_the_team(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB, CID, DEE], preset="partnership")
        state = (await hall.room(table)).state
        heard = news_of(hall, table)
        version = state.version
        assert await hall.resign(BOB, table) == version  # asked: nothing stored, no version
        assert heard == [ResignAsked(1, 3, clock.now() + 30.0, 30.0)]
        assert state.phase is not Phase.FINISHED
        asked = {"seat": 1, "partner": 3, "deadline": clock.now() + 30.0, "seconds": 30.0}
        for person, shown in ((BOB, asked), (DEE, asked), (ANN, None), (CID, None)):
            assert (await view(hall, table, person))["you"]["resign"] == shown
        await hall.answer_resign(DEE, table, True)
        assert state.phase is Phase.FINISHED
        assert state.result == {
            "reason": "forfeit",
            "winner": 0,
            "placed_last": [1],
            "resigned": 1,
            "agreed": 3,
        }
        seen = await view(hall, table, DEE)
        assert seen["game"]["winner"] == 0 and seen["game"]["agreed"] == 3
        assert seen["you"]["resign"] is None and seen["seats"][1]["out_reason"] == "resigned"
        assert seen["seats"][3]["out"] is False
        record = await hall.store.record(table)
        assert record["result"]["resigned"] == 1 and record["result"]["agreed"] == 3
        assert check_record(record)["ok"]
        assert rematch_json(state)["people"] == [0, 1, 2, 3]


async def test_a_partner_who_declines_changes_nothing(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB, CID, DEE], preset="partnership")
        state = (await hall.room(table)).state
        heard = news_of(hall, table)
        await hall.resign(ANN, table)
        version = state.version
        await hall.answer_resign(CID, table, False)
        assert heard[-1] == ResignDeclined(0, 2, "declined")
        assert state.version == version and state.resign_request is None
        assert state.phase is not Phase.FINISHED and state.seats[0].out is None
        assert "nobody asked" in await refused(
            "no_resign_request", hall.answer_resign(CID, table, True)
        )
        # A new request may follow.
        await hall.resign(ANN, table)
        assert state.resign_request is not None


async def test_an_unanswered_request_is_declined_after_30_s(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(
            hall, [ANN, BOB, CID, DEE], preset="partnership", timer="relaxed"
        )
        state = (await hall.room(table)).state
        heard = news_of(hall, table)
        await hall.resign(DEE, table)
        version = state.version
        await clock.advance(29.9)
        assert state.resign_request is not None and len(heard) == 1
        await clock.advance(0.1)
        assert heard[-1] == ResignDeclined(3, 1, "unanswered")
        assert state.resign_request is None and state.version == version
        assert state.phase is not Phase.FINISHED
        await refused("no_resign_request", hall.answer_resign(BOB, table, True))


async def test_one_request_at_a_time(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB, CID, DEE], preset="partnership")
        state = (await hall.room(table)).state
        heard = news_of(hall, table)
        await hall.resign(ANN, table)
        assert "already" in await refused("resign_pending", hall.resign(ANN, table))
        assert "answer them" in await refused("resign_pending", hall.resign(CID, table))
        assert "partner's to answer" in await refused(
            "no_resign_request", hall.answer_resign(ANN, table, True)
        )
        # The other team is not asked, and may not answer.
        await refused("no_resign_request", hall.answer_resign(BOB, table, True))
        assert len(heard) == 1 and state.phase is not Phase.FINISHED


async def test_a_computer_player_as_partner_agrees_at_once(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(
            hall, [ANN], ["normal", "normal", "normal"], preset="partnership"
        )
        state = (await hall.room(table)).state
        await hall.resign(ANN, table)
        assert state.phase is Phase.FINISHED
        assert state.result == {"reason": "forfeit", "winner": 1, "placed_last": [0], "resigned": 0}


async def test_who_may_resign_and_when(database_url: str):
    async with running_hall(database_url) as hall:
        waiting = await hall.create_table(ANN, Options.choose(seats=2))
        assert "not started" in await refused("not_playing", hall.resign(ANN, waiting.id))
        table = await started_table(hall, [ANN, BOB])
        state = (await hall.room(table)).state
        version = state.version
        assert "no seat" in await refused("not_seated", hall.resign(EVE, table))
        await refused("not_seated", hall.answer_resign(EVE, table, True))
        # Not a partnership: there is no request to answer.
        await refused("no_resign_request", hall.answer_resign(BOB, table, True))
        assert state.version == version and state.phase is Phase.PLAYING


async def test_a_restart_forgets_a_pending_request(database_url: str):
    """The request is not stored (docs/protocol.md 4): after a restart it is as good as
    declined, and may be made again."""
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB, CID, DEE], preset="partnership")
        await hall.resign(ANN, table)
        version = (await hall.room(table)).state.version
    async with running_hall(database_url) as hall:
        state = (await hall.room(table)).state
        assert state.resign_request is None and state.version == version
        await refused("no_resign_request", hall.answer_resign(CID, table, True))
        await hall.resign(ANN, table)
        await hall.answer_resign(CID, table, True)
        assert state.result is not None and state.result["agreed"] == 2


async def test_a_request_lapses_when_its_asker_or_partner_goes_out(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB, CID, DEE], preset="partnership")
        state = (await hall.room(table)).state
        await hall.resign(ANN, table)
        await hall.leave(ANN, table)  # out as leaving: a computer player takes the seat
        assert state.resign_request is None and state.seats[0].out == "left"
        await refused("no_resign_request", hall.answer_resign(CID, table, True))
        assert state.phase is not Phase.FINISHED and state.placed_last == [0]
        assert (await view(hall, table, CID))["you"]["resign"] is None
