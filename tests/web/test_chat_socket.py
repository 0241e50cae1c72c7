"""Table chat over real WebSockets (docs/protocol.md 10): two players and a spectator, each room
to its own readers, markup back as the same text, a muted player's lines kept from the muter,
the room's last lines on hello."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from .conftest import Guest, Hall

pytestmark = pytest.mark.timeout(60)

IMG = '<img src=x onerror="window.pwned=1">'
_pings = itertools.count()


def account(hall: Hall, username: str) -> Guest:
    answer = hall.client.post(
        "/api/accounts", json={"username": username, "password": "long enough", "name": username}
    )
    assert answer.status_code == 200, answer.text
    cookie = answer.cookies["dominohall"]
    hall.client.cookies.clear()
    return Guest(hall.client, cookie)


def opened(ws: Any) -> list[dict[str, Any]]:
    """Say hello; what came up to the state's end (welcome, state, the chat's last lines)."""
    ws.send_json({"type": "hello"})
    return settled(ws)


def settled(ws: Any) -> list[dict[str, Any]]:
    """Every message until the answer to a ping: what the socket was sent so far."""
    ping = f"p{next(_pings)}"
    ws.send_json({"type": "ping", "id": ping})
    seen = []
    while (message := ws.receive_json()) != {"type": "pong", "id": ping}:
        seen.append(message)
    return seen


def chat_of(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] in ("chat", "error")]


def test_each_room_reaches_its_own_readers_as_text_and_a_mute_holds_back_lines(hall: Hall):
    ann, bob, cid = account(hall, "ann"), account(hall, "bob"), account(hall, "cid")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    bob.post(f"/api/tables/{tid}/join")
    ann.post(f"/api/tables/{tid}/start")
    with ann.socket(tid) as a, bob.socket(tid) as b, cid.socket(tid) as c:
        for ws in (a, b, c):
            assert not chat_of(opened(ws))  # nobody chatted yet: no chat_history either

        a.send_json({"type": "chat", "room": "players", "text": IMG})
        [line] = chat_of(settled(a))  # the sender gets its line as everyone does
        assert line == {
            "type": "chat",
            "room": "players",
            "id": line["id"],
            "seat": 0,
            "name": "ann",
            "username": "ann",
            "text": IMG,  # markup comes back as the same text
            "at": line["at"],
        }
        assert chat_of(settled(b)) == [line]
        assert chat_of(settled(c)) == []  # a spectator does not read the players' room

        c.send_json({"type": "chat", "room": "spectators", "phrase": "good_luck", "id": 7})
        [watched] = chat_of(settled(c))
        assert (watched["room"], watched["seat"], watched["phrase"]) == (
            "spectators",
            None,
            "good_luck",
        )
        assert "text" not in watched
        assert chat_of(settled(a)) == chat_of(settled(b)) == []  # players never read spectators

        c.send_json({"type": "chat", "room": "players", "text": "Bob has 6-6", "id": 8})
        [refused] = chat_of(settled(c))
        assert (refused["type"], refused["id"], refused["code"]) == ("error", 8, "chat_not_allowed")
        b.send_json({"type": "chat", "room": "players", "text": "x" * 141, "id": 9})
        assert chat_of(settled(b))[0]["code"] == "chat_too_long"

        answer = ann.post("/api/players/bob/mute")
        assert answer.json() == {"username": "bob", "muted": True}
        b.send_json({"type": "chat", "room": "players", "text": "you will not read this"})
        [own] = chat_of(settled(b))
        assert own["text"] == "you will not read this"
        assert chat_of(settled(a)) == []  # muted: not delivered to the muter

        # A socket opened later reads its room's last lines after the state, less the muted.
        with ann.socket(tid) as again, cid.socket(tid) as watcher:
            history = [m for m in opened(again) if m["type"] == "chat_history"]
            assert history == [{"type": "chat_history", "room": "players", "lines": [_bare(line)]}]
            history = [m for m in opened(watcher) if m["type"] == "chat_history"]
            assert history == [
                {"type": "chat_history", "room": "spectators", "lines": [_bare(watched)]}
            ]

        assert ann.post("/api/players/bob/unmute").json() == {"username": "bob", "muted": False}
        b.send_json({"type": "chat", "room": "players", "phrase": "sorry"})
        settled(b)
        assert [m["phrase"] for m in chat_of(settled(a))] == ["sorry"]


def test_a_guest_sends_phrases_only_and_a_socket_without_sign_in_reads_only(hall: Hall):
    ann, bob, gus = account(hall, "ann"), account(hall, "bob"), hall.guest("Gus")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    bob.post(f"/api/tables/{tid}/join")
    with gus.socket(tid) as g, hall.client.websocket_connect(f"/ws/tables/{tid}") as nobody:
        opened(g)
        opened(nobody)
        g.send_json({"type": "chat", "room": "spectators", "text": "hi", "id": 1})
        assert chat_of(settled(g))[0]["code"] == "chat_not_allowed"
        g.send_json({"type": "chat", "room": "spectators", "phrase": "hello"})
        [line] = chat_of(settled(g))
        assert (line["name"], line["username"], line["phrase"]) == ("Gus", None, "hello")
        assert chat_of(settled(nobody)) == [line]
        nobody.send_json({"type": "chat", "room": "spectators", "phrase": "hello", "id": 2})
        assert chat_of(settled(nobody))[0]["code"] == "chat_not_allowed"
        g.send_json({"type": "chat", "room": "lobby", "phrase": "hello", "id": 3})
        assert chat_of(settled(g))[0]["code"] == "bad_message"


def test_mute_block_and_report_over_http(hall: Hall):
    ann, bob = account(hall, "ann"), account(hall, "bob")
    assert ann.post("/api/players/nobody/mute").status_code == 404
    assert ann.post("/api/players/ann/block").status_code == 400
    assert ann.post("/api/players/bob/block").json() == {"username": "bob", "blocked": True}
    assert ann.post("/api/players/bob/unblock").json() == {"username": "bob", "blocked": False}
    answer = ann.post("/api/players/bob/report", {"reason": "spam", "line": 999})
    assert (answer.status_code, answer.json()["error"]["code"]) == (404, "no_line")
    answer = ann.post("/api/players/bob/report", {"reason": "spam"})
    assert answer.json() == {"username": "bob", "report": answer.json()["report"], "muted": True}
    assert hall.client.post("/api/players/bob/mute").status_code == 401
    export = ann.get("/api/me/export").json()
    assert [r["reason"] for r in export["reports"]] == ["spam"]
    assert bob  # (bob is the one reported)


def _bare(line: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k != "type"}
