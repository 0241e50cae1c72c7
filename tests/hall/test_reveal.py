"""A finished hand's tiles shown to watchers (docs/protocol.md 3.3): a spectator's state holds no
seat's tile while the hand is played, and every seat's tiles left once it is over (the
``hand_over`` event's ``revealed``), as the seats' own views show them."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from dominohall.hall import Phase
from dominohall.rules.tiles import tile_name, tiles_of

from .helpers import ANN, BOB, play_first, running_hall, started_table, view, whose_turn

pytestmark = pytest.mark.anyio


async def test_a_watcher_sees_every_hand_only_once_the_hand_is_over(tmp_path: Path):
    async with running_hall(tmp_path) as hall:
        table = await started_table(hall, [ANN, BOB], preset="draw", target=50)
        state = (await hall.room(table)).state
        while state.phase is Phase.PLAYING:
            watched = await view(hall, table, None)
            hand = watched["hand"]
            assert hand["tiles"] == [] and hand["result"] is None and hand["moves"] is None
            text = orjson.dumps(watched).decode()
            for seat in (0, 1):  # nothing a seat holds is named anywhere in the watcher's state
                for tile in tiles_of(state.hand.holdings[seat]):
                    a, b = tile_name(tile).split("-")
                    assert f'"{a}-{b}"' not in text and f'"{b}-{a}"' not in text
            await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))
        assert state.phase is Phase.BETWEEN_HANDS or state.phase is Phase.FINISHED
        result = (await view(hall, table, None))["hand"]["result"]
        assert result is not None
        left = [sorted(tile_name(t) for t in tiles_of(h)) for h in state.hand.holdings]
        assert [sorted(tiles) for tiles in result["revealed"]] == left
        assert result == (await view(hall, table, ANN))["hand"]["result"]
