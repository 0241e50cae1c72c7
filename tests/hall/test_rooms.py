"""The rooms' index of who plays where: it must always say what a look at every table would."""

from __future__ import annotations

import pytest

from dominohall.hall import Hall, Options
from dominohall.hall.rooms import Rooms

from .helpers import ANN, BOB, CID, PEOPLE, running_hall, started_table

pytestmark = pytest.mark.anyio


def by_scanning(rooms: Rooms, player: str) -> set[str]:
    return {r.id for r in rooms if r.state.seat_of(player) is not None}


def assert_index_agrees(hall: Hall) -> None:
    for person in PEOPLE:
        indexed = [r.id for r in hall.rooms.played_by(person.id)]
        assert len(indexed) == len(set(indexed))
        assert set(indexed) == by_scanning(hall.rooms, person.id), person.name


async def test_the_index_follows_seats_taken_and_left(database_url: str):
    async with running_hall(database_url) as hall:
        assert hall.rooms.played_by(ANN.id) == []
        waiting = await hall.create_table(ANN, Options.choose(seats=3))
        await hall.join(BOB, waiting.id, None)
        assert_index_agrees(hall)
        assert [r.id for r in hall.rooms.played_by(BOB.id)] == [waiting.id]

        await hall.leave(BOB, waiting.id)
        assert hall.rooms.played_by(BOB.id) == []
        assert_index_agrees(hall)

        playing = await started_table(hall, [ANN, CID])
        assert {r.id for r in hall.rooms.played_by(ANN.id)} == {waiting.id, playing}
        assert [state.id for state, _ in await hall.tables_of(CID.id)] == [playing]
        assert_index_agrees(hall)

        await hall.leave(CID, playing)  # out of a game under way: no longer playing a seat
        assert_index_agrees(hall)
        assert await hall.tables_of(CID.id) == []


async def test_a_table_let_go_or_loaded_again_is_indexed_with_it(database_url: str):
    async with running_hall(database_url) as hall:
        table = await started_table(hall, [ANN, BOB])
        room = await hall.room(table)
        hall.rooms.let_go(room)
        assert hall.rooms.played_by(ANN.id) == []
        await hall.room(table)  # loaded from its log
        assert [r.id for r in hall.rooms.played_by(ANN.id)] == [table]
        assert_index_agrees(hall)

    async with running_hall(database_url) as hall:  # a restart resumes the table, and its index
        assert [r.id for r in hall.rooms.played_by(BOB.id)] == [table]
        assert_index_agrees(hall)
