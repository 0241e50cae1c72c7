"""What the lobby shows of a table (``lobby.py``): open tables and games to watch, the ratings of
the people seated, the featured game; never a private table, never a tile."""

from __future__ import annotations

import pytest

from dominohall.hall import Options
from dominohall.hall.lobby import entry_of, featured, pool_of
from dominohall.hall.messages import LobbyTable
from dominohall.store.ratings import StoredRating

from .helpers import ANN, BOB, CID, DEE, running_hall, started_table

pytestmark = pytest.mark.anyio


async def test_an_open_tables_entry_shows_the_ratings_of_those_seated(tmp_path) -> None:
    async with running_hall(tmp_path) as hall:
        await hall.store.ratings.put(StoredRating(ANN.id, "draw", "real-time", 30.0, 2.0, 12, 0.0))
        state = await hall.create_table(ANN, Options.choose(seats=3))
        room = hall.rooms.get(state.id)
        assert room is not None
        entry = room.lobby_entry
        assert entry is not None and entry["kind"] == "open"
        assert entry["table"] == (await hall.board.listed())[0]
        # Ann's settled rating in the draw pool; the free seat has none.
        assert entry["ratings"][0] is not None and not entry["ratings"][0].endswith("?")
        assert entry["ratings"][1:] == [None, None] and entry["scores"] is None
        assert entry["rating"] == int(entry["ratings"][0])
        await hall.join(BOB, state.id, None)
        entry = room.lobby_entry
        assert entry is not None and entry["kind"] == "open"
        assert entry["ratings"][1] == "1500?"  # Bob is new to the pool
        assert entry["rating"] == round((int(entry["ratings"][0]) + 1500) / 2)
        await hall.join(CID, state.id, None)  # full: out of the lobby until it starts
        assert room.lobby_entry is None


async def test_a_full_table_leaves_the_open_list_and_a_started_one_is_a_game(tmp_path) -> None:
    async with running_hall(tmp_path) as hall:
        table_id = await started_table(hall, [ANN, BOB])
        room = hall.rooms.get(table_id)
        assert room is not None and room.lobby_entry is not None
        assert room.lobby_entry["kind"] == "game"
        assert room.lobby_entry["scores"] == [0, 0]
        assert await hall.board.listed() == []
        await hall.leave(ANN, table_id)  # a 2-player game is over when one leaves
        assert room.lobby_entry is None


async def test_a_private_table_is_never_in_the_lobby_watchable_or_not(tmp_path) -> None:
    async with running_hall(tmp_path) as hall:
        closed = await started_table(hall, [ANN, BOB], private=True)
        opened = await started_table(hall, [CID, DEE], private=True, open_to_watchers=True)
        waiting = await hall.create_table(ANN, Options.choose(seats=4, private=True))
        for table_id in (closed, opened, waiting.id):
            room = hall.rooms.get(table_id)
            assert room is not None
            assert entry_of(room.state, {}) is None and room.lobby_entry is None


def _game(table_id: str, rating: int | None, created_at: float) -> LobbyTable:
    summary = {"created_at": created_at}
    return {
        "id": table_id,
        "kind": "game",
        "table": summary,  # type: ignore[typeddict-item]
        "ratings": [],
        "rating": rating,
        "scores": [0, 0],
    }


def test_the_featured_game_is_the_highest_rated_then_the_newest() -> None:
    assert featured([]) is None
    games = [_game("a", 1600, 1.0), _game("b", 1700, 0.5), _game("c", 1700, 2.0)]
    assert featured(games) == "c"
    assert featured([_game("a", None, 1.0), _game("b", 1400, 0.5)]) == "b"
    open_one: LobbyTable = {**_game("o", 2000, 3.0), "kind": "open"}
    assert featured([open_one, _game("a", None, 1.0)]) == "a"  # open tables are not games


async def test_ratings_come_from_the_pool_of_the_tables_preset(tmp_path) -> None:
    async with running_hall(tmp_path) as hall:
        draw = await hall.create_table(ANN, Options.choose(preset="draw", seats=2))
        muggins = await hall.create_table(BOB, Options.choose(preset="muggins", seats=2))
        assert pool_of(draw) == "draw" and pool_of(muggins) is None
        room = hall.rooms.get(muggins.id)
        assert room is not None and room.lobby_entry is not None
        assert room.lobby_entry["ratings"] == [None, None] and room.lobby_entry["rating"] is None
