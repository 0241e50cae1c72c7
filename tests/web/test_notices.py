"""The hall's notices as docs/protocol.md 8 writes them: each a ``messages.Notice``."""

from __future__ import annotations

import pytest

from dominohall.hall import Options, messages
from dominohall.hall.notices import (
    Challenged,
    ChallengeOver,
    Invitation,
    Reminder,
    Seated,
    SentNotice,
    TableOver,
    YourTurn,
)
from dominohall.web.notices import notice_json
from hall.test_messages import problems

RANKED = Options(preset="draw", seats=2, target=100, ranked="draw-2")


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
    assert notice_json(ChallengeOver("c1", "accepted", "t2")) == {
        "kind": "challenge_over",
        "id": "c1",
        "outcome": "accepted",
        "table": "t2",
    }


def test_an_invitation_and_a_challenge_say_from_whom_under_the_protocol_s_name():
    assert notice_json(Invitation("rematch", "t1", "Ann")) == {
        "kind": "invitation",
        "reason": "rematch",
        "table": "t1",
        "from": "Ann",
    }
    assert notice_json(Invitation("pairing", "t1", None))["from"] is None
    challenge = notice_json(Challenged("c1", "ann", "Ann", RANKED.to_json(), 10.0, 70.0))
    assert challenge == {
        "kind": "challenge",
        "id": "c1",
        "from": "ann",
        "from_name": "Ann",
        "options": {
            "preset": "draw",
            "target": 100,
            "seats": 2,
            "timer": "normal",
            "private": False,
            "ranked": "draw-2",
        },
        "at": 10.0,
        "expires_at": 70.0,
    }


@pytest.mark.parametrize(
    "notice",
    [
        Seated("t1", None),
        YourTurn("t1", 0, 9, 50.0),
        Reminder("t1", 1, 9, 50.0, 20.0),
        Invitation("tournament", "t1", "Spring arena"),
        TableOver("t1"),
        Challenged("c1", "ann", "Ann", RANKED.to_json(), 10.0, 70.0),
        ChallengeOver("c1", "expired", None),
    ],
)
def test_each_notice_has_exactly_the_keys_of_its_shape(notice: SentNotice):
    assert problems(notice_json(notice), messages.Notice) == []
