"""What one seat may know: a drawn tile only to the drawer, no deal and no player ids to anyone,
its own tiles heaviest first, its legal moves only on its turn."""

from __future__ import annotations

import pytest

from dominohall.hall import Phase
from dominohall.hall.seat_view import moves_of, own_tiles, public_event
from dominohall.rules.tiles import RANK

from .helpers import ANN, BOB, running_hall, started_table

pytestmark = pytest.mark.anyio


def test_a_drawn_tile_is_shown_only_to_the_seat_that_drew_it():
    drawn = {"kind": "move", "seat": 1, "draw": 17}
    assert public_event(drawn, 1) is drawn
    assert public_event(drawn, 0) == {"kind": "move", "seat": 1, "draw": True}
    assert public_event(drawn, None) == {"kind": "move", "seat": 1, "draw": True}
    played = {"kind": "move", "seat": 1, "tile": 17, "end": 0}
    assert public_event(played, 0) is played


def test_the_deal_and_who_sits_behind_a_seat_are_never_shown():
    dealt = {"kind": "dealt", "hand": 2, "dealt": [[1, 2], [3, 4]], "boneyard": [5, 6]}
    assert public_event(dealt, 0) == {"kind": "dealt", "hand": 2}
    joined = {"kind": "joined", "seat": 1, "player": "p_bob", "name": "Bob"}
    assert public_event(joined, 1) == {"kind": "joined", "seat": 1, "name": "Bob"}
    created = {"kind": "created", "options": {"seats": 2}, "seats": [], "at": 5}
    assert public_event(created, None) == {"kind": "created", "at": 5}
    nothing_to_hide = {"kind": "passed", "seat": 0, "player": "kept: not a secret here"}
    assert public_event(nothing_to_hide, None) is nothing_to_hide


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
