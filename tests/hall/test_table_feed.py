"""What a table publishes after each change: a message for each audience listening, made at the
version it describes, that brings a copy of the previous state to the state ``view`` answers;
the first state through ``view``; who each person is at the table; who may watch."""

from __future__ import annotations

from typing import Any

import pytest

from dominohall.hall import Hall, HallError
from dominohall.hall.notices import SeatPresence
from dominohall.hall.table import Phase
from dominohall.hall.table_feed import WATCHER, Audience, TableChange, addressed, people_of
from hall.helpers import ANN, BOB, CID, idle, play_first, running_hall, started_table, whose_turn
from web.table_view import TableView, comparable

pytestmark = pytest.mark.anyio


def _listen(hall: Hall, table: str) -> list[TableChange]:
    heard: list[TableChange] = []

    def hear(change: TableChange | SeatPresence) -> None:
        if isinstance(change, TableChange):
            heard.append(change)

    hall.broker.subscribe(table, hear)
    return heard


async def test_each_listening_audience_gets_a_message_that_brings_its_copy_to_the_view(tmp_path):
    async with running_hall(tmp_path) as hall:
        table = await started_table(hall, [ANN, BOB], ["normal"])
        room = await hall.room(table)
        ann, watcher = Audience(0), WATCHER
        hall.listen(room.id, ann)
        hall.listen(room.id, watcher)
        copies = {}
        for audience, player in ((ann, ANN.id), (watcher, None)):
            copies[audience] = TableView()
            seen = await hall.owner.view(table, player)
            assert seen.audience == audience
            copies[audience].take(seen.message)
        heard = _listen(hall, table)
        taken = 0
        hands = 0
        while hands < 2:  # a hand to its end, and the deal of the next (a whole state)
            if room.state.phase is Phase.BETWEEN_HANDS:
                hands += 1
                for person in (ANN, BOB):
                    await hall.next_hand(person, table)
                await idle(hall)
            else:
                await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))
            for change in heard[taken:]:
                assert change.base == copies[ann].version  # each follows the one before
                assert set(change.messages) == {ann, watcher}  # Bob's seat has no socket here
                for audience, copy in copies.items():
                    copy.take(change.messages[audience])
            taken = len(heard)
            for audience, player in ((ann, ANN.id), (watcher, None)):
                seen = await hall.owner.view(table, player)
                assert copies[audience].version == seen.version
                assert comparable(copies[audience].state) == comparable(seen.message["state"])
        assert any(m["type"] == "state" for c in heard for m in c.messages.values())
        # What a watcher is sent never shows a hand that is not theirs.
        assert all(t == [] for t in _tiles_shown(heard, watcher))


def _tiles_shown(heard: list[TableChange], audience: Audience) -> list[Any]:
    shown = []
    for change in heard:
        message = change.messages[audience]
        hand = message["state"]["hand"] if message["type"] == "state" else message.get("hand")
        if hand and "tiles" in hand:
            shown.append(hand["tiles"])
    return shown


async def test_a_change_nobody_listens_to_carries_no_message_but_says_who_sits_where(tmp_path):
    async with running_hall(tmp_path) as hall:
        table = await started_table(hall, [ANN, BOB])
        heard = _listen(hall, table)
        await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))
        [change] = heard
        assert change.messages == {}
        assert change.audience_of(ANN.id) == Audience(0)
        assert change.audience_of(BOB.id) == Audience(1)
        assert change.audience_of(CID.id) == WATCHER
        assert change.audience_of(None) == WATCHER


async def test_a_person_taken_out_of_a_seat_watches_it_as_out(tmp_path):
    async with running_hall(tmp_path) as hall:
        table = await started_table(hall, [ANN, BOB, CID])
        await hall.leave(BOB, table)
        state = (await hall.room(table)).state
        assert people_of(state)[BOB.id] == Audience(None, 1)
        seen = await hall.owner.view(table, BOB.id)
        assert seen.audience == Audience(None, 1)
        you = seen.message["state"]["you"]
        assert you["seat"] is None and you["out"] == {"seat": 1, "reason": "left"}


async def test_a_private_table_s_game_is_watched_by_its_people_only(tmp_path):
    async with running_hall(tmp_path) as hall:
        table = await started_table(hall, [ANN, BOB, CID], private=True)
        heard = _listen(hall, table)
        await hall.leave(BOB, table)  # out of the game: watches on
        assert (await hall.owner.view(table, BOB.id)).audience == Audience(None, 1)
        assert await hall.connect(table, BOB) is None
        for stranger in ("p_dee", None):
            with pytest.raises(HallError) as refused:
                await hall.owner.view(table, stranger)
            assert refused.value.code == "not_open_to_watchers"
        with pytest.raises(HallError) as refused:
            await hall.connect(table, None)
        assert refused.value.code == "not_open_to_watchers"
        assert (await hall.room(table)).watching == 1  # Bob only: the refused were not counted
        assert heard and not any(change.watchable for change in heard)


async def test_a_reloaded_table_publishes_a_change_with_nothing_to_update_from(tmp_path):
    async with running_hall(tmp_path) as hall:
        table = await started_table(hall, [ANN, BOB])
        room = await hall.room(table)
        hall.listen(room.id, Audience(0))
        heard = _listen(hall, table)
        await hall.path.reload(room)
        [change] = heard
        assert change.base == -1 and change.messages == {}  # every socket asks for the state


def test_a_message_is_addressed_to_its_person_without_changing_the_shared_one():
    you = {"seat": 0, "player": None, "name": None, "host": True, "out": None}
    state = {"type": "state", "version": 3, "events": [], "state": {"you": you, "seats": []}}
    update = {"type": "update", "version": 4, "events": [], "you": dict(you)}
    mine = addressed(state, ANN.id, ANN.name)
    assert mine["state"]["you"]["player"] == "p_ann" and mine["state"]["you"]["name"] == "Ann"
    assert state["state"]["you"]["player"] is None  # shared by every socket of the audience
    assert addressed(update, ANN.id, ANN.name)["you"]["name"] == "Ann"
    assert update["you"]["name"] is None
    bare = {"type": "update", "version": 5, "events": []}
    assert addressed(bare, ANN.id, ANN.name) is bare  # nothing to fill in
    assert addressed(state, None, None) is state  # someone not signed in
