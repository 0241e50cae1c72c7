"""A player's choices about another's chat over HTTP (``web/chat.py``, docs/protocol.md 10):
mute, unmute, block, unblock and report, each answered with the other's username and what holds
now, the choice kept (the player's export lists it); a report needs a reason, may name a line,
mutes the reported and is rate-limited per player (a refused report counted too); refusals named precisely."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dominohall.web.ratelimit import Limit, Limits

from .conftest import Hall, hall_with
from .test_chat_socket import account

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def one_report(tmp_path) -> Iterator[Hall]:
    """A hall that keeps one report per player an hour."""
    yield from hall_with(tmp_path, limits=Limits(reports_per_player=Limit(1, 3600)))


def refused(answer: Any, status: int) -> tuple[str, str]:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    return error["code"], error["message"]


def test_each_choice_answers_what_holds_now_and_is_kept(hall: Hall) -> None:
    ann, _bob, _cy = (account(hall, n) for n in ("ann", "bob", "cyd"))
    assert ann.post("/api/players/BOB/mute").json() == {"username": "bob", "muted": True}
    assert ann.post("/api/players/cyd/block").json() == {"username": "cyd", "blocked": True}
    export = ann.get("/api/me/export").json()
    assert (export["muted"], export["blocked"]) == (["bob"], ["cyd"])
    assert ann.post("/api/players/bob/unmute").json() == {"username": "bob", "muted": False}
    assert ann.post("/api/players/cyd/unblock").json() == {"username": "cyd", "blocked": False}
    export = ann.get("/api/me/export").json()
    assert (export["muted"], export["blocked"]) == ([], [])


def test_reports_are_limited_per_player_a_refused_one_counted_too(one_report: Hall) -> None:
    ann, _bob = account(one_report, "ann"), account(one_report, "bob")
    body = {"reason": "spam", "line": 0}
    code, message = refused(ann.post("/api/players/bob/report", body), 400)
    assert (code, message) == ("bad_request", "'line' is a whole number from 1, not 0")
    code, _ = refused(ann.post("/api/players/bob/report", {"reason": "spam"}), 429)
    assert code == "too_many_reports"  # the refused report spent this hour's one
    assert ann.post("/api/players/bob/mute").json() == {"username": "bob", "muted": True}


def test_a_report_with_its_reason_is_kept_and_mutes_the_reported(hall: Hall) -> None:
    ann, _bob = account(hall, "ann"), account(hall, "bob")
    code, message = refused(ann.post("/api/players/bob/report", {}), 400)
    assert (code, message) == ("bad_request", "'reason' is needed: a string")
    code, _ = refused(ann.post("/api/players/bob/report", {"reason": "spam", "line": 12}), 404)
    assert code == "no_line"
    answer = ann.post("/api/players/bob/report", {"reason": "spam"}).json()
    assert answer == {"username": "bob", "report": answer["report"], "muted": True}
    assert isinstance(answer["report"], int)
    export = ann.get("/api/me/export").json()
    assert export["muted"] == ["bob"] and [r["reason"] for r in export["reports"]] == ["spam"]


def test_a_choice_is_refused_to_nobody_about_nobody_and_about_oneself(hall: Hall) -> None:
    ann = account(hall, "ann")
    code, _ = refused(hall.client.post("/api/players/ann/mute"), 401)
    assert code == "not_signed_in"
    assert refused(ann.post("/api/players/nobody/block"), 404) == (
        "no_player",
        "there is no player 'nobody'",
    )
    code, message = refused(ann.post("/api/players/Ann/mute"), 400)
    assert (code, message) == ("bad_request", "you cannot mute yourself")
    code, message = refused(ann.post("/api/players/ann/report", {"reason": "me"}), 400)
    assert (code, message) == ("bad_request", "you cannot report yourself")
