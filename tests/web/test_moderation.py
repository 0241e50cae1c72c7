"""Moderation over HTTP and live sockets (docs/moderation.md): a banned player cannot sign in,
play, chat or watch as themselves, their open sockets close and their tables are handed over; a
banned address makes no guest or account; a time-out reaches a live socket without a reconnect;
the operators' page and API are refused to anyone else; sockets per address are capped.

Each action is written as the command line or the page writes it, then this process's follower
of the moderation log is made to read it (as it does every second): order of events, no wall
clock."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from dominohall.hall import ManualClock, messages
from dominohall.web import create_app
from dominohall.web.live_sockets import REFUSED, TOO_MANY_SOCKETS
from dominohall.web.ratelimit import Limits
from hall.test_messages import problems

from .conftest import Guest, Hall, hall_with
from .test_chat_socket import account, opened, settled

pytestmark = pytest.mark.timeout(60)


def follow(hall: Hall) -> None:
    """This process's follower has read the moderation log to its end (it does every second;
    made to now, so that what follows comes after it)."""
    follower = hall.client.app.state.moderation_follower  # type: ignore[attr-defined]
    hall.client.portal.call(follower.catch_up)  # type: ignore[union-attr]


def operator(hall: Hall, username: str) -> Guest:
    op = account(hall, username)
    moderating = hall.client.app.state.moderating  # type: ignore[attr-defined]
    hall.client.portal.call(moderating.add_operator, username)  # type: ignore[union-attr]
    return op


def player_id(guest: Guest) -> str:
    return guest.get("/api/me").json()["player"]["id"]  # type: ignore[no-any-return]


def closed_with(ws: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return closed.value.code


def test_the_operators_page_and_api_are_refused_to_anyone_else(hall: Hall) -> None:
    ann, olga = account(hall, "ann"), operator(hall, "olga")
    for who in (ann, Guest(hall.client, "no-such-session")):
        assert who.get("/mod").status_code == 404
        assert who.get("/api/mod/reports").status_code == 404
        refused = who.post("/api/mod/ban", {"player": player_id(olga), "reason": "coup"})
        assert (refused.status_code, refused.json()["error"]["code"]) == (404, "not_operator")
    assert olga.get("/mod").status_code == 200 and "<html" in olga.get("/mod").text.lower()
    assert olga.get("/api/mod/reports").json() == {"reports": []}


def test_a_report_read_with_its_chat_then_closed(hall: Hall) -> None:
    ann, bob, olga = account(hall, "ann"), account(hall, "bob"), operator(hall, "olga")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    bob.post(f"/api/tables/{tid}/join")
    with bob.socket(tid) as b:
        opened(b)
        b.send_json({"type": "chat", "room": "players", "text": "you are awful"})
        [line] = [m for m in settled(b) if m["type"] == "chat"]
    reported = ann.post("/api/players/bob/report", {"reason": "insult", "line": line["id"]})
    assert reported.status_code == 200, reported.text
    [report] = olga.get("/api/mod/reports").json()["reports"]
    assert problems(report, messages.ModReport) == []
    assert (report["reporter"]["username"], report["reported"]["username"]) == ("ann", "bob")
    assert [(c["name"], c["text"]) for c in report["context"]] == [("bob", "you are awful")]
    no_reason = olga.post("/api/mod/close-report", {"report": report["id"], "reason": " "})
    assert no_reason.status_code == 400 and "say why" in no_reason.json()["error"]["message"]
    closed = olga.post("/api/mod/close-report", {"report": report["id"], "reason": "warned"})
    assert closed.json() == {"report": report["id"], "closed": True}
    assert olga.get("/api/mod/reports").json() == {"reports": []}
    again = olga.post("/api/mod/close-report", {"report": report["id"], "reason": "warned"})
    assert (again.status_code, again.json()["error"]["code"]) == (404, "no_report")


def test_a_time_out_reaches_a_live_socket_without_a_reconnect(hall: Hall) -> None:
    ann, bob, olga = account(hall, "ann"), account(hall, "bob"), operator(hall, "olga")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    bob.post(f"/api/tables/{tid}/join")
    with bob.socket(tid) as b:
        opened(b)
        done = olga.post(
            "/api/mod/time-out", {"player": player_id(bob), "minutes": 30, "reason": "spam"}
        )
        assert done.status_code == 200, done.text
        until = done.json()["until"]
        follow(hall)
        told = [m for m in settled(b) if m["type"] == "chat_timed_out"]
        assert told == [{"type": "chat_timed_out", "until": until, "reason": "spam"}]
        b.send_json({"type": "chat", "room": "players", "text": "hi", "id": 1})
        [refused] = [m for m in settled(b) if m["type"] == "error"]
        assert refused["code"] == "chat_timed_out"
    with bob.socket(tid) as b:  # a socket opened meanwhile is told at its hello
        assert {"type": "chat_timed_out", "until": until, "reason": "spam"} in opened(b)


def test_a_banned_player_cannot_sign_in_play_chat_or_watch(hall: Hall) -> None:
    ann, bob, olga = account(hall, "ann"), account(hall, "bob"), operator(hall, "olga")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    bob.post(f"/api/tables/{tid}/join")
    bob_id = player_id(bob)
    with bob.socket(tid) as b, ann.socket(tid) as a:
        opened(b), opened(a)
        done = olga.post(
            "/api/mod/ban",
            {"player": bob_id, "reason": "abuse", "addresses": ["testclient"]},
        )
        assert done.status_code == 200, done.text
        # The cookie stops at once (the ban's transaction ended the sessions) ...
        assert bob.get("/api/me").json() == {"player": None}
        assert bob.post(f"/api/tables/{tid}/leave").status_code == 401
        # ... the socket as the follower reads the log; the seat is handed over as a leave.
        follow(hall)
        assert closed_with(b) == REFUSED
        seats = ann.get(f"/api/tables/{tid}").json()["table"]["seats"]
        assert [s["name"] if s else None for s in seats] == ["ann", None]
        assert any(m["type"] == "update" for m in settled(a))  # the others see it
    signed = hall.client.post("/api/sign-in", json={"username": "bob", "password": "long enough"})
    hall.client.cookies.clear()
    assert (signed.status_code, signed.json()["error"]["code"]) == (403, "banned")
    assert "abuse" in signed.json()["error"]["message"]
    # The address banned with it: no new guest, no new account from it.
    guest = hall.client.post("/api/guest", json={"name": "Bobby"})
    assert (guest.status_code, guest.json()["error"]["code"]) == (403, "banned")
    new = hall.client.post(
        "/api/accounts", json={"username": "bob2", "password": "long enough", "name": "b"}
    )
    assert (new.status_code, new.json()["error"]["code"]) == (403, "banned")
    # Unbanned: signs in again.
    lifted = hall.client.portal.call(  # type: ignore[union-attr]
        hall.client.app.state.moderating.unban,  # type: ignore[attr-defined]
        bob_id,
        player_id(olga),
        "served",
    )
    assert lifted == 1
    signed = hall.client.post("/api/sign-in", json={"username": "bob", "password": "long enough"})
    hall.client.cookies.clear()
    assert signed.status_code == 200


def test_a_socket_of_a_banned_account_is_refused_at_the_door(hall: Hall) -> None:
    ann, olga = account(hall, "ann"), operator(hall, "olga")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    moderating = hall.client.app.state.moderating  # type: ignore[attr-defined]
    ann_id = player_id(ann)
    hall.client.portal.call(moderating.ban, ann_id, player_id(olga), "x")  # type: ignore[union-attr]
    follow(hall)
    # A session that outlived the ban (say, one opened as it was committed) meets the door.
    token = "t" * 43
    hall.client.portal.call(  # type: ignore[union-attr]
        moderating.store.add_session, hashlib.sha256(token.encode()).hexdigest(), ann_id, 0.0, 1e12
    )
    late = Guest(hall.client, token)
    assert late.get("/api/me").json()["player"]["id"] == ann_id
    with late.socket(tid) as a:
        assert closed_with(a) == REFUSED
    with late.client.websocket_connect("/ws/me", headers=late.headers) as me:
        assert closed_with(me) == REFUSED


@pytest.fixture
def capped(tmp_path) -> Iterator[Hall]:
    yield from hall_with(tmp_path, limits=Limits(sockets_per_address=2))


def test_sockets_per_address_are_capped(capped: Hall) -> None:
    ann = capped.guest("Ann")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    with ann.socket(tid) as one, ann.socket(tid) as two:
        opened(one), opened(two)
        with ann.socket(tid) as three:
            assert closed_with(three) == TOO_MANY_SOCKETS
    with ann.socket(tid) as again:  # the others closed: room again
        assert any(m["type"] == "state" for m in opened(again))


@pytest.fixture
def proxied(tmp_path) -> Iterator[Hall]:
    """A hall behind a proxy on 127.0.0.1, each request saying which address it comes from."""
    clock = ManualClock()
    app = create_app(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}",
        data=tmp_path,
        clock=clock,
        bot_delay=0,
        rng=random.Random(3),
        heartbeat=False,
        trusted_proxies=["127.0.0.1"],
    )
    with TestClient(app, client=("127.0.0.1", 5000)) as client:
        yield Hall(client, clock)


def test_a_ban_with_addresses_takes_those_the_account_signed_in_from(proxied: Hall) -> None:
    hall = proxied

    def sign_in(frm: str) -> Guest:
        answer = hall.client.post(
            "/api/sign-in",
            json={"username": "bob", "password": "long enough"},
            headers={"X-Forwarded-For": frm},
        )
        assert answer.status_code == 200, answer.text
        hall.client.cookies.clear()
        return Guest(hall.client, answer.cookies["dominohall"])

    made = hall.client.post(
        "/api/accounts",
        json={"username": "bob", "password": "long enough", "name": "Bob"},
        headers={"X-Forwarded-For": "192.0.2.1"},
    )
    assert made.status_code == 200, made.text
    hall.client.cookies.clear()
    hall.advance(31 * 86400)  # 192.0.2.1: 31 days ago, no longer kept
    olga = operator(hall, "olga")
    sign_in("203.0.113.5")
    hall.advance(60)
    bob = sign_in("198.51.100.7")
    export = bob.get("/api/me/export").json()
    assert [(a["address"], a["last"] - a["first"]) for a in export["addresses"]] == [
        ("198.51.100.7", 0),
        ("203.0.113.5", 0),
    ]
    done = olga.post(
        "/api/mod/ban", {"player": player_id(bob), "reason": "abuse", "with_addresses": True}
    )
    assert done.status_code == 200, done.text
    assert done.json()["addresses"] == ["198.51.100.7", "203.0.113.5"]
    for frm, refused in (("203.0.113.5", True), ("198.51.100.7", True), ("192.0.2.1", False)):
        guest = hall.client.post(
            "/api/guest", json={"name": "Bobby"}, headers={"X-Forwarded-For": frm}
        )
        hall.client.cookies.clear()
        assert (guest.status_code == 403) is refused, (frm, guest.text)
    wrong = olga.post(
        "/api/mod/ban", {"player": player_id(olga), "reason": "x", "with_addresses": "yes"}
    )
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (400, "bad_request")


def test_a_rename_shows_at_once_at_the_tables_the_player_sits_at(hall: Hall) -> None:
    ann, bob, cid = (account(hall, n) for n in ("ann", "bob", "cid"))
    olga = operator(hall, "olga")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    bob.post(f"/api/tables/{tid}/join")
    ann.post(f"/api/tables/{tid}/start")
    other = bob.post("/api/tables", {"seats": 3}).json()["table"]["id"]  # one still seating
    moderating = hall.client.app.state.moderating  # type: ignore[attr-defined]
    with ann.socket(tid) as a, cid.socket(tid) as c:
        opened(a), opened(c)
        hall.client.portal.call(  # type: ignore[union-attr]
            moderating.rename, player_id(bob), "Player 7", player_id(olga), "offensive"
        )
        follow(hall)
        for ws in (a, c):  # a player and a watcher alike
            updates = [m for m in settled(ws) if m["type"] == "update"]
            [renamed] = [e for u in updates for e in u["events"] if e["kind"] == "renamed"]
            assert renamed == {
                "version": renamed["version"],
                "kind": "renamed",
                "seat": 1,
                "name": "Player 7",
            }  # never the player's id
            assert [s["name"] for s in updates[-1]["seats"]] == ["ann", "Player 7"]
    assert ann.get(f"/api/tables/{other}").json()["table"]["seats"][0]["name"] == "Player 7"
    follow(hall)  # read again (another process's follower): nothing more happens
    table = ann.get(f"/api/tables/{tid}").json()["table"]
    assert table["seats"][1]["name"] == "Player 7"
