"""What one seat may know: a drawn tile only to the drawer, no deal and no player ids to anyone,
its own tiles heaviest first, its legal moves only on its turn."""

from __future__ import annotations

import pytest

from dominohall.hall import Options, Phase, TableState
from dominohall.hall.event_view import shown
from dominohall.hall.events import (
    Created,
    Dealt,
    Joined,
    Moved,
    Out,
    OutReason,
    SeatAtStart,
    SeatKind,
)
from dominohall.hall.seat_view import moves_of, own_tiles, public_event
from dominohall.hall.table.happened import Happened
from dominohall.rules import Move
from dominohall.rules.tiles import RANK

from .helpers import ANN, BOB, running_hall, started_table

pytestmark = pytest.mark.anyio


def test_a_drawn_tile_is_shown_only_to_the_seat_that_drew_it():
    state = TableState("t1")
    drawn = Happened(7, Moved(1, 0, Move.draw("4-2")))
    whole = {"version": 7, "kind": "move", "seat": 1, "draw": "4-2", "hand": 0, "by": "player"}
    assert public_event(state, drawn, 1) == whole
    assert public_event(state, drawn, 1) is shown(state, drawn)  # the whole, not copied
    hidden = {**whole, "draw": True}
    assert public_event(state, drawn, 0) == hidden
    assert public_event(state, drawn, None) == hidden
    assert public_event(state, drawn, 0) is public_event(state, drawn, None)  # made once
    played = Happened(8, Moved(1, 0, Move.play("4-2", 1)), scored=0)
    assert public_event(state, played, 0) is shown(state, played)


def test_the_deal_and_who_sits_behind_a_seat_are_never_shown():
    state = TableState("t1")
    dealt = Happened(4, Dealt(2, (0b110, 0b11000), (5, 6), 1))
    assert public_event(state, dealt, 0) == {"version": 4, "kind": "dealt", "hand": 2, "leader": 1}
    joined = Happened(2, Joined(1, "p_bob", "Bob"))
    assert public_event(state, joined, 1) == {
        "version": 2,
        "kind": "joined",
        "seat": 1,
        "name": "Bob",
    }
    seats = (SeatAtStart(SeatKind.HUMAN, "p_ann", "Ann"), SeatAtStart(SeatKind.EMPTY))
    created = Happened(1, Created(Options(seats=2), seats))
    assert public_event(state, created, None) == {"version": 1, "kind": "created"}
    nothing_to_hide = Happened(9, Out(0, OutReason.LEFT))
    assert public_event(state, nothing_to_hide, None) is shown(state, nothing_to_hide)


async def test_a_seat_sees_its_own_tiles_heaviest_first_and_moves_only_on_its_turn(
    database_url: str,
):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB])
        state = (await hall.room(table)).state
        assert state.phase is Phase.PLAYING and state.hand is not None
        for seat in (0, 1):
            tiles = own_tiles(state, seat)
            assert len(tiles) == 7
            assert [RANK[t] for t in tiles] == sorted((RANK[t] for t in tiles), reverse=True)
        assert own_tiles(state, None) == []
        mover, other = state.turn, 1 - state.turn
        assert moves_of(state, mover) == state.hand.legal_moves()
        assert moves_of(state, other) is None
        assert moves_of(state, None) is None
