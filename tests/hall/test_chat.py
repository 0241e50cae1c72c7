"""The table chat's rules (hall/chat.py) on the real database: rooms, partnership phrases only
while a hand is played, guests phrases only, the rate limit, a time-out, stored before told,
a reader's mutes."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from dominohall.hall import Hall, HallError, ManualClock, Phase
from dominohall.hall.chat import ChatLimited, ChatRoom, Speaker, TableChat
from dominohall.hall.notices import ChatSaid
from dominohall.hall.wiring import HallSettings, running
from dominohall.store import Store, StoredPlayer
from dominohall.web.ratelimit import Limit, MemoryBuckets
from hall.helpers import ANN, BOB, CID, DEE, started_table

pytestmark = pytest.mark.anyio

PLAYERS, SPECTATORS = ChatRoom.PLAYERS, ChatRoom.SPECTATORS
# Ann, Bob, Cid and Dee have accounts; Gus is a guest.
SPEAKERS = {p.id: Speaker(p.id, p.name, p.name.lower()) for p in (ANN, BOB, CID, DEE)}
ann, bob, cid, dee = (SPEAKERS[p.id] for p in (ANN, BOB, CID, DEE))
gus = Speaker("p_gus", "Gus", None)


@dataclass
class Setting:
    hall: Hall
    store: Store
    clock: ManualClock
    chat: TableChat
    told: list[ChatSaid]

    def listen(self, table_id: str) -> None:
        self.hall.broker.subscribe(table_id, self._told)

    def _told(self, value: Any) -> None:
        if isinstance(value, ChatSaid):
            self.told.append(value)

    async def refused(self, speaker: Speaker, table_id: str, room: ChatRoom, **line: str) -> str:
        with pytest.raises(HallError) as refusal:
            await self.chat.say(speaker, table_id, room, **line)
        assert refusal.value.message
        return refusal.value.code


@pytest.fixture
async def setting(database_url: str) -> AsyncIterator[Setting]:
    clock = ManualClock()
    settings = HallSettings(
        database_url, clock=clock, bot_delay=0, rng=random.Random(2), heartbeat=False
    )
    async with running(settings) as opened:
        for speaker in SPEAKERS.values():
            player = StoredPlayer(speaker.id, speaker.name, speaker.username, None)
            await opened.store.add_player(player)
        limit = MemoryBuckets(Limit(3, 30), clock.now)  # 3 at once, then one each 10 s
        chat = TableChat(opened.store, opened.hall, limit)
        yield Setting(opened.hall, opened.store, clock, chat, [])


async def test_players_write_in_the_players_room_and_spectators_in_theirs(setting: Setting):
    tid = await started_table(setting.hall, [ANN, BOB])
    setting.listen(tid)
    said = await setting.chat.say(ann, tid, PLAYERS, text="  <b>hi</b>\u202e ")
    assert (said.room, said.seat, said.name, said.username) == ("players", 0, "Ann", "ann")
    assert said.text == "<b>hi</b>"  # cleaned of what hides, markup kept as the text it is
    watched = await setting.chat.say(cid, tid, SPECTATORS, phrase="good_luck")
    assert (watched.room, watched.seat, watched.phrase, watched.text) == (
        "spectators",
        None,
        "good_luck",
        None,
    )
    assert setting.told == [said, watched]

    assert await setting.refused(cid, tid, PLAYERS, text="psst, Bob holds 6-6") == (
        "chat_not_allowed"
    )
    assert await setting.refused(bob, tid, SPECTATORS, text="hello") == "chat_not_allowed"
    assert setting.told == [said, watched]


async def test_a_line_is_stored_before_it_is_told(setting: Setting, monkeypatch):
    tid = await started_table(setting.hall, [ANN, BOB])
    setting.listen(tid)
    said = await setting.chat.say(ann, tid, PLAYERS, phrase="hello")
    kept = await setting.store.chat.line(said.id)
    assert kept is not None and (kept.player_id, kept.phrase, kept.at) == (
        "p_ann",
        "hello",
        said.at,
    )

    async def failing(*args: object, **kwargs: object) -> None:
        raise OSError("the database is gone")

    monkeypatch.setattr(setting.store.chat, "add", failing)
    with pytest.raises(OSError):
        await setting.chat.say(bob, tid, PLAYERS, phrase="thanks")
    assert setting.told == [said]  # not stored: nobody was told


async def test_text_too_long_empty_and_unknown_phrases_are_refused_precisely(setting: Setting):
    tid = await started_table(setting.hall, [ANN, BOB])
    assert await setting.refused(ann, tid, PLAYERS, text="x" * 141) == "chat_too_long"
    assert await setting.refused(ann, tid, PLAYERS, text=" \u200b\n") == "chat_empty"
    assert await setting.refused(ann, tid, PLAYERS, phrase="you_lose") == "chat_phrase_unknown"
    assert (await setting.chat.say(ann, tid, PLAYERS, text="é" * 140)).text == "é" * 140


async def test_partnership_players_send_phrases_only_while_a_hand_is_played(setting: Setting):
    tid = await started_table(setting.hall, [ANN, BOB, CID, DEE], preset="partnership")
    assert (await setting.hall.room(tid)).state.phase is Phase.PLAYING
    code = await setting.refused(ann, tid, PLAYERS, text="I have the fives")
    assert code == "chat_not_allowed"
    assert (await setting.chat.say(ann, tid, PLAYERS, phrase="well_played")).phrase == "well_played"
    # Spectators may type: the players do not read them.
    spectator = Speaker("p_eve", "Eve", "eve")
    assert (await setting.chat.say(spectator, tid, SPECTATORS, text="nice")).text == "nice"


async def test_a_two_player_table_may_type_while_a_hand_is_played(setting: Setting):
    tid = await started_table(setting.hall, [ANN, BOB])
    assert (await setting.chat.say(bob, tid, PLAYERS, text="your move")).text == "your move"


async def test_guests_send_phrases_only_unless_the_operator_allows(setting: Setting):
    tid = await started_table(setting.hall, [ANN, BOB])
    assert await setting.refused(gus, tid, SPECTATORS, text="hi all") == "chat_not_allowed"
    assert (await setting.chat.say(gus, tid, SPECTATORS, phrase="hello")).phrase == "hello"
    setting.chat.guests_may_type = True
    assert (await setting.chat.say(gus, tid, SPECTATORS, text="hi all")).text == "hi all"


async def test_the_rate_limit_says_when_to_send_again(setting: Setting):
    tid = await started_table(setting.hall, [ANN, BOB])
    for _ in range(3):
        await setting.chat.say(ann, tid, PLAYERS, phrase="hello")
    with pytest.raises(ChatLimited) as limited:
        await setting.chat.say(ann, tid, PLAYERS, phrase="hello")
    assert limited.value.code == "chat_limited" and limited.value.retry_after == 10
    assert "10 s" in limited.value.message
    assert limited.value.to_json()["retry_after"] == 10
    await setting.chat.say(bob, tid, PLAYERS, phrase="hello")  # each player has their own
    await setting.clock.advance(10)
    await setting.chat.say(ann, tid, PLAYERS, phrase="hello")


async def test_a_timed_out_player_is_refused_until_the_time_out_ends(setting: Setting):
    tid = await started_table(setting.hall, [ANN, BOB])
    now = setting.clock.now()
    await setting.store.moderation.time_out("p_bob", now + 900, "p_op", "insults", now)
    code = await setting.refused(bob, tid, PLAYERS, phrase="sorry")
    assert code == "chat_timed_out"
    await setting.clock.advance(901)
    assert (await setting.chat.say(bob, tid, PLAYERS, phrase="sorry")).phrase == "sorry"


async def test_a_reader_does_not_get_the_lines_of_players_they_muted(setting: Setting):
    tid = await started_table(setting.hall, [ANN, BOB])
    await setting.chat.say(ann, tid, PLAYERS, text="one")
    await setting.chat.say(bob, tid, PLAYERS, text="two")
    await setting.chat.say(cid, tid, SPECTATORS, text="three")
    hidden = await setting.chat.reader("p_ann")
    lines = await setting.chat.recent(tid, PLAYERS, hidden)
    assert [(line.text, line.seat, line.name) for line in lines] == [
        ("one", 0, "Ann"),
        ("two", 1, "Bob"),
    ]
    await setting.chat.mute("p_ann", "p_bob")
    assert "p_bob" in hidden  # the socket's own object, changed in place
    assert [line.text for line in await setting.chat.recent(tid, PLAYERS, hidden)] == ["one"]
    await setting.chat.unmute("p_ann", "p_bob")
    assert "p_bob" not in hidden
    await setting.chat.block("p_ann", "p_bob")
    assert "p_bob" in hidden
    with pytest.raises(HallError):
        await setting.chat.mute("p_ann", "p_ann")


async def test_a_report_names_a_line_of_that_player_and_mutes_them(setting: Setting):
    tid = await started_table(setting.hall, [ANN, BOB])
    line = await setting.chat.say(bob, tid, PLAYERS, text="rude words")
    hidden = await setting.chat.reader("p_ann")
    with pytest.raises(HallError) as wrong:
        await setting.chat.report("p_ann", "p_cid", "rude", line.id)
    assert wrong.value.code == "no_line"
    report = await setting.chat.report("p_ann", "p_bob", "rude", line.id)
    assert "p_bob" in hidden
    [kept] = await setting.store.moderation.reports_by("p_ann")
    assert (kept.id, kept.line_id, kept.reason) == (report, line.id, "rude")
