"""A player's own channel beside the table channels: their tables and "your turn" notices."""

from __future__ import annotations

from typing import Any

import pytest

from dominohall.hall import Options
from dominohall.hall.notices import Invitation, Seated, TableOver

from .helpers import ANN, BOB, play_first, running_hall, whose_turn
from .test_after_game import finished_game

pytestmark = pytest.mark.anyio


async def test_a_player_hears_of_their_seats_and_of_each_turn_of_theirs(database_url: str):
    heard: dict[str, list[Any]] = {ANN.id: [], BOB.id: []}
    async with running_hall(database_url) as hall:
        for player, notices in heard.items():
            hall.broker.listen(player, notices.append)
        state = await hall.create_table(ANN, Options.choose(seats=2))
        await hall.join(BOB, state.id, None)
        assert heard[ANN.id] == [Seated(state.id, 0)]
        assert heard[BOB.id] == [Seated(state.id, 1)]
        await hall.start_game(ANN, state.id)
        for _ in range(3):
            mover = await whose_turn(hall, state.id, [ANN, BOB])
            told = [n for n in heard[mover.id] if n.kind == "your_turn"]
            assert told[-1].table == state.id
            assert told[-1].version == state.version, "not told of the turn now played"
            others = [n for p, ns in heard.items() if p != mover.id for n in ns]
            assert not any(n.kind == "your_turn" and n.version == state.version for n in others)
            await play_first(hall, state.id, mover)
        turns = [n for ns in heard.values() for n in ns if n.kind == "your_turn"]
        assert len(turns) == len({(n.version, n.seat) for n in turns}), "told twice"
        await hall.leave(ANN, state.id)  # a forfeit in a two-seat game: the table is over
        assert heard[BOB.id][-1] == TableOver(state.id)


async def test_a_pairing_and_a_rematch_are_invitations(database_url: str):
    heard: dict[str, list[Any]] = {ANN.id: [], BOB.id: []}
    async with running_hall(database_url) as hall:
        for player, notices in heard.items():
            hall.broker.listen(player, notices.append)
        paired = await hall.open_pairing("draw", [ANN, BOB], ranked=False)
        for seat, person in enumerate([ANN, BOB]):
            assert [n for n in heard[person.id] if n.kind != "your_turn"] == [
                Seated(paired.id, seat),
                Invitation("pairing", paired.id, None),
            ]
        await hall.resign(BOB, paired.id)  # a forfeit: Ann alone is offered a rematch
        for notices in heard.values():
            notices.clear()

        table, state = await finished_game(hall, [ANN, BOB], ["easy"])
        for notices in heard.values():
            notices.clear()
        await hall.rematch(ANN, table, True)
        await hall.rematch(ANN, table, True)  # a second "yes" invites no one again
        invited = Invitation("rematch", table, "Ann")
        assert heard[BOB.id] == [invited] and heard[ANN.id] == []
        await hall.rematch(BOB, table, True)
        new = state.rematch_table
        seated = {p: [n for n in heard[p] if n.kind == "seated"] for p in heard}
        assert seated[ANN.id] == [Seated(new, 0)]
        assert seated[BOB.id] == [Seated(new, 1)]
        assert [n.kind for n in heard[BOB.id]].count("invitation") == 1
