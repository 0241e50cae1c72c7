"""The broker's values as bytes and back: equal to what was encoded."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dominohall.hall.listing import Listing
from dominohall.hall.notices import (
    ChatSaid,
    Invitation,
    MutesChanged,
    Reminder,
    ResignAsked,
    ResignDeclined,
    Seated,
    SeatPresence,
    TableOver,
    Watchers,
    YourTurn,
)
from dominohall.hall.table_feed import WATCHER, Audience, TableChange
from dominohall.hall.wire import (
    WireError,
    audience_from,
    audience_key,
    decode_notice,
    decode_table,
    encode_notice,
    encode_table,
    sent_by,
)

AUDIENCES = [Audience(0), Audience(3), WATCHER, Audience(None, 2), Audience(1, 2)]


def test_each_audience_is_a_short_key_read_back_the_same():
    assert [audience_key(a) for a in AUDIENCES] == ["0", "3", "-", "out:2", "1:out:2"]
    assert [audience_from(audience_key(a)) for a in AUDIENCES] == AUDIENCES
    with pytest.raises(WireError):
        audience_from("seat three")


def test_a_change_and_a_presence_notice_come_back_equal_with_their_origin():
    change = TableChange(
        "t1",
        8,
        7,
        False,
        {"p_ann": Audience(0), "p_bob": Audience(None, 1)},
        {
            Audience(0): {"type": "update", "version": 8, "events": [{"kind": "moved"}]},
            WATCHER: {"type": "state", "version": 8, "state": {"x": None, "t": 1.5, "é": []}},
        },
    )
    assert decode_table(encode_table("me", change)) == ("me", change)
    bare = encode_table("me", change, with_messages=False)  # (nobody elsewhere heard the last)
    assert decode_table(bare) == ("me", replace(change, messages={}))
    summary = {"id": "t1", "created_at": 3.0, "seats": [{"seat": 0, "name": "Ann"}]}
    listed = replace(
        change,
        listing=Listing(summary, 1, 80.5, frozenset({1, 3}), 80.5, False),  # type: ignore[arg-type]
    )
    assert decode_table(encode_table("me", listed)) == ("me", listed)
    assert decode_table(encode_table("you", SeatPresence(2, True))) == (
        "you",
        SeatPresence(2, True),
    )
    assert decode_table(encode_table("you", Watchers(3))) == ("you", Watchers(3))
    with pytest.raises(WireError):
        decode_table(b'{"origin": "me"}')


def test_a_message_names_its_sender_before_anything_else():
    for value in (SeatPresence(2, True), Watchers(0)):
        sent = encode_table("0f3a9c", value)
        assert sent_by(sent, "0f3a9c")
        assert not sent_by(sent, "0f3a9") and not sent_by(sent, "0f3a9c1") and not sent_by(sent, "")


@pytest.mark.parametrize(
    "said",
    [
        ChatSaid(7, "players", "p_ann", 0, "Ann", "ann", "<b>gg</b> é 👩\u200d💻", None, 1.5),
        ChatSaid(8, "spectators", None, None, "Deleted player", None, None, "good_game", 2.0),
    ],
)
def test_a_chat_line_comes_back_equal(said: ChatSaid):
    assert decode_table(encode_table("me", said)) == ("me", said)
    with pytest.raises(WireError):
        decode_table(b'{"origin": "me", "chat": {"id": 1}}')


@pytest.mark.parametrize(
    "news",
    [
        ResignAsked(1, 3, 1700000030.5, 30.0),
        ResignDeclined(0, 2, "declined"),
        ResignDeclined(3, 1, "unanswered"),
    ],
)
def test_a_resign_request_s_news_comes_back_equal(news: ResignAsked | ResignDeclined):
    assert decode_table(encode_table("me", news)) == ("me", news)
    with pytest.raises(WireError):
        decode_table(b'{"origin": "me", "resign": {"kind": "resign_withdrawn"}}')


@pytest.mark.parametrize(
    "notice",
    [
        Seated("t1", 2),
        Seated("t1", None),
        YourTurn("t1", 0, 5, 1700000000.25),
        Reminder("t1", 1, 9, 1700000000.0, 600.5),
        Invitation("pairing", "t2", None),
        Invitation("rematch", "t2", "p_ann"),
        TableOver("t3"),
        MutesChanged(),
    ],
)
def test_every_kind_of_notice_comes_back_equal(notice):
    assert decode_notice(encode_notice(notice)) == notice


def test_an_unknown_notice_is_a_wire_error():
    with pytest.raises(WireError):
        decode_notice(b'{"kind": "party"}')
    with pytest.raises(WireError):
        decode_notice(b'{"kind": "seated", "table": "t1"}')
