"""A turn-based table's part of the view: none at a real-time table; what happened since one's
last move leaves out one's own moves and what is not news, and keeps only the newest."""

from __future__ import annotations

import pytest

from dominohall.hall import turn_view
from dominohall.hall.turn_view import since_last_move, turn_based_json
from hall.helpers import ANN, BOB, play_first, running_hall, started_table, whose_turn
from hall.test_turn_based_tables import turn_based_table

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_real_time_table_has_no_turn_based_part(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB])
        state = (await hall.room(table)).state
        assert turn_based_json(state, 0, hall.clock.now()) is None


async def test_since_ones_move_lists_the_others_moves_and_keeps_the_newest(
    database_url: str, monkeypatch: pytest.MonkeyPatch
):
    async with running_hall(database_url) as hall:
        table = await turn_based_table(hall, [ANN, BOB])
        state = (await hall.room(table)).state
        first = await whose_turn(hall, table, [ANN, BOB])
        seat = state.seat_of(first.id)
        assert seat is not None
        before = since_last_move(state, seat)
        assert all(e["kind"] in turn_view.SINCE_KINDS for e in before)
        await play_first(hall, table, first)
        assert since_last_move(state, seat) == []  # nothing new since their own move
        while state.turn != seat:
            await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))
        since = since_last_move(state, seat)
        assert since and all(e["kind"] != "move" or e["seat"] != seat for e in since)
        assert [e["version"] for e in since] == sorted(e["version"] for e in since)
        monkeypatch.setattr(turn_view, "SINCE_MOST", 1)
        assert since_last_move(state, seat) == since[-1:]
        assert turn_based_json(state, None, hall.clock.now())["since_your_move"] is None
