"""The web's JSON helpers write the shapes ``hall/messages.py`` declares for the HTTP answers
and the player's notices (docs/protocol.md 1, 5, 6, 9, 13): each key its TypedDict requires, no
other, each value of its declared type; and the wire is as documented."""

from __future__ import annotations

from typing import Any

import pytest

from dominohall.hall import messages
from dominohall.hall.accounts import StoredPlayer
from dominohall.hall.follows import Followed
from dominohall.hall.matchmaking import Bucket, QueueStatus, Seeker
from dominohall.hall.ratings import Speed
from dominohall.hall.seeking import SeekStatus
from dominohall.store.chat import ChatLine, Room
from dominohall.store.emails import EmailAddress
from dominohall.store.history import PresetStats
from dominohall.store.moderation import Report
from dominohall.store.ratings import RatingChange, StoredRating
from dominohall.web.accounts import player_json
from dominohall.web.arena import standing_json
from dominohall.web.challenges import followed_json
from dominohall.web.language import languages_json
from dominohall.web.profiles import stats_json
from dominohall.web.ranked import changes_json, rating_json, seek_json
from dominohall.web.settings import chat_line_json, email_json, report_json
from hall.test_messages import problems

SEEKER = Seeker("p1", Bucket("draw-2", 2, Speed.REAL_TIME, True), 1520, 100.0)
RATING = StoredRating("p1", "draw-2", "real-time", 27.0, 7.0, 3, 90.0)
CHANGE = RatingChange("t1", "p1", "draw-2", "real-time", 0, 1, 25.0, 8.3, 27.0, 7.0, 95.0)


@pytest.mark.parametrize(
    ("value", "shape"),
    [
        (player_json(StoredPlayer("p1", "Ann", "ann", None)), messages.Player),
        (player_json(StoredPlayer("g1", "Guest", None, None)), messages.Player),
        (
            seek_json(SeekStatus(SEEKER, None, QueueStatus(3, 12.25), None, 130.0)),
            messages.SeekAnswer,
        ),
        (seek_json(SeekStatus(None, "t1", None, 30.0, 130.0)), messages.SeekAnswer),
        (rating_json(RATING), messages.Rating),
        (changes_json([CHANGE])[0], messages.RatingChange),
        (standing_json(2, 14), messages.League),
        (followed_json(Followed("bob", "Bob", 5.0, True, [])), messages.FollowedPlayer),
        (email_json(EmailAddress("p1", "a@example.org", True, 4.0, 3.0, None)), messages.KeptEmail),
        (
            chat_line_json(ChatLine(1, "t1", Room.PLAYERS, "p1", "hi", None, 9.0)),
            messages.ExportedChatLine,
        ),
        (
            chat_line_json(ChatLine(2, "t1", Room.SPECTATORS, None, None, "gg", 9.0)),
            messages.ExportedChatLine,
        ),
        (
            report_json(Report(1, "p1", "p2", None, "rude", 9.0), {"p2": "bob"}),
            messages.ExportedReport,
        ),
        (stats_json([]), messages.Stats),
        (stats_json([PresetStats("draw", 3, 2, 1, 9, 70, 4, 1, 2, 1)]), messages.Stats),
        (languages_json()[0], messages.LanguageChoice),
    ],
)
def test_each_answer_has_exactly_the_keys_of_its_shape(value: Any, shape: Any) -> None:
    assert problems(value, shape) == []


def test_a_seek_and_a_chat_line_keep_their_documented_keys() -> None:
    waiting = seek_json(SeekStatus(SEEKER, None, QueueStatus(3, 12.25), None, 130.0))
    assert waiting == {
        "seeking": {
            "pool": "draw-2",
            "players": 2,
            "speed": "real-time",
            "ranked": True,
            "arena": False,
            "rating": 1520,
            "waited": 30.0,
        },
        "table": None,
        "queue": {"waiting": 3, "average_wait": 12.2},
    }
    assert seek_json(SeekStatus(None, "t1", None, 30.0, 130.0)) == {
        "seeking": None,
        "table": "t1",
        "computer_after": 30.0,
    }
    line = chat_line_json(ChatLine(2, "t1", Room.SPECTATORS, None, None, "gg", 9.0))
    assert list(line.items()) == [
        ("table", "t1"),
        ("room", "spectators"),
        ("phrase", "gg"),
        ("at", 9.0),
    ]
