"""The hall's notices as docs/protocol.md 8 writes them."""

from __future__ import annotations

from dominohall.hall.notices import (
    Invitation,
    Reminder,
    Seated,
    SeatPresence,
    TableOver,
    YourTurn,
)
from dominohall.web.notices import notice_json


def test_each_notice_is_its_kind_and_its_fields_as_documented():
    assert notice_json(Seated("t1", 2)) == {"kind": "seated", "table": "t1", "seat": 2}
    assert notice_json(YourTurn("t1", 0, 9, 50.0)) == {
        "kind": "your_turn",
        "table": "t1",
        "seat": 0,
        "version": 9,
        "deadline": 50.0,
    }
    assert notice_json(Reminder("t1", 1, 9, 50.0, 20.0))["left"] == 20.0
    assert notice_json(TableOver("t1")) == {"kind": "table_over", "table": "t1"}
    assert notice_json(SeatPresence(3, False)) == {
        "kind": "presence",
        "seat": 3,
        "connected": False,
    }


def test_an_invitation_says_from_whom_under_the_protocol_s_name():
    assert notice_json(Invitation("rematch", "t1", "Ann")) == {
        "kind": "invitation",
        "reason": "rematch",
        "table": "t1",
        "from": "Ann",
    }
    assert notice_json(Invitation("pairing", "t1", None))["from"] is None
