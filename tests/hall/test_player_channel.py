"""A player's own channel beside the table channels: their tables and "your turn" notices."""

from __future__ import annotations

import pytest

from dominohall.hall import Options

from .helpers import ANN, BOB, play_first, running_hall, whose_turn

pytestmark = pytest.mark.anyio


async def test_a_player_hears_of_their_seats_and_of_each_turn_of_theirs(tmp_path):
    heard: dict[str, list[dict]] = {ANN.id: [], BOB.id: []}
    async with running_hall(tmp_path) as hall:
        for player, notices in heard.items():
            hall.broker.listen(player, notices.append)
        state = await hall.create_table(ANN, Options.choose(seats=2))
        await hall.join(BOB, state.id, None)
        assert heard[ANN.id] == [{"kind": "seated", "table": state.id, "seat": 0}]
        assert heard[BOB.id] == [{"kind": "seated", "table": state.id, "seat": 1}]
        await hall.start_game(ANN, state.id)
        for _ in range(3):
            mover = await whose_turn(hall, state.id, [ANN, BOB])
            told = [n for n in heard[mover.id] if n["kind"] == "your_turn"]
            assert told[-1]["table"] == state.id
            assert told[-1]["version"] == state.version, "not told of the turn now played"
            others = [n for p, ns in heard.items() if p != mover.id for n in ns]
            assert not any(
                n["kind"] == "your_turn" and n["version"] == state.version for n in others
            )
            await play_first(hall, state.id, mover)
        turns = [n for ns in heard.values() for n in ns if n["kind"] == "your_turn"]
        assert len(turns) == len({(n["version"], n["seat"]) for n in turns}), "told twice"
        await hall.leave(ANN, state.id)  # a forfeit in a two-seat game: the table is over
        assert heard[BOB.id][-1] == {"kind": "table_over", "table": state.id}
