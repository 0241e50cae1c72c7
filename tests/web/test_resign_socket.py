"""Resigning over the WebSocket (docs/protocol.md 3.4, 4): 2 players, 3 players and a partnership,
the partner's answer, what the other team never hears, and every bad request refused."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from dominohall.hall import messages

from .test_socket import Sock, refused

pytestmark = pytest.mark.timeout(60)


@contextlib.contextmanager
def seated(hall: Any, seats: int, **options: Any) -> Iterator[tuple[str, list[Sock], list[Any]]]:
    """A started table of ``seats`` guests, each with a greeted socket (seat order)."""
    guests = [hall.guest(name) for name in ("Ann", "Bob", "Cid", "Dee")[:seats]]
    body = {"seats": seats, "timer": "relaxed", **options}
    tid = guests[0].post("/api/tables", body).json()["table"]["id"]
    for guest in guests[1:]:
        assert guests and guest.post(f"/api/tables/{tid}/join").status_code == 200
    assert guests[0].post(f"/api/tables/{tid}/start").status_code == 200
    with contextlib.ExitStack() as stack:
        socks = [Sock(stack.enter_context(g.socket(tid))) for g in guests]
        for sock in socks:
            sock.hello()
        yield tid, socks, guests


def settle(socks: list[Sock], version: int) -> None:
    for sock in socks:
        sock.catch_up(version)


def test_resign_in_a_two_player_game_is_a_forfeit(hall):
    with seated(hall, 2) as (tid, (ann, bob), guests):
        ann.ws.send_json({"type": "resign"})  # (no id: the ack repeats null)
        ack = ann.ws.receive_json()
        assert ack["type"] == "ack" and ack["id"] is None
        settle([ann, bob], ack["version"])
        out = [e for e in bob.events if e["kind"] == "out"]
        assert out == [
            {"version": out[0]["version"], "kind": "out", "seat": 0, "reason": "resigned"}
        ]
        game = bob.state["game"]
        assert game["reason"] == "forfeit" and game["winner"] == 1 and game["resigned"] == 0
        assert bob.state["seats"][0]["out_reason"] == "resigned"
        assert ann.state["you"]["seat"] == 0  # the game is over with the resigner still seated
        assert ann.state["rematch"]["people"] == [0, 1]  # still at the table: asked too
        record = guests[1].get(f"/games/{tid}/record").json()
        assert record["result"] == {
            "reason": "forfeit",
            "winner": 1,
            "placed_last": [0],
            "resigned": 0,
        }
        assert refused(bob, {"type": "resign"}) == "not_playing"


def test_resign_with_three_players_seats_a_computer_player(hall):
    with seated(hall, 3) as (tid, (ann, bob, cid), _):
        answer = bob.ask({"type": "resign"})
        assert answer["type"] == "ack"
        settle([ann, cid], answer["version"])
        for sock in (ann, bob, cid):
            seat = sock.state["seats"][1]
            assert (seat["kind"], seat["out"], seat["out_reason"]) == ("bot", True, "resigned")
        assert ann.state["game"] is None  # the game goes on
        assert bob.state["you"]["seat"] is None  # watching from now on
        assert refused(bob, {"type": "resign"}) == "out"


def test_resign_in_partnership_asks_the_partner_who_may_accept(hall):
    with seated(hall, 4, preset="partnership") as (tid, socks, guests):
        ann, bob, cid, dee = socks
        version = ann.version
        answer = ann.ask({"type": "resign"})
        assert answer == {"type": "ack", "id": "r1", "version": version}  # nothing stored
        asked = cid.ws.receive_json()
        assert asked["type"] == "resign_asked"
        assert (asked["seat"], asked["partner"], asked["seconds"]) == (0, 2, 30.0)
        assert ann.ws.receive_json() == asked  # the asker hears it too ("Asking your partner")
        assert messages.ResignAskedMessage.__required_keys__ == set(asked)
        cid.view.take(asked)
        ann.view.take(asked)
        assert cid.state["you"]["resign"]["partner"] == 2
        # A second request, from either partner, waits for the first's answer.
        assert refused(ann, {"type": "resign"}) == "resign_pending"
        assert refused(cid, {"type": "resign"}) == "resign_pending"
        assert refused(ann, {"type": "resign_answer", "accept": True}) == "no_resign_request"
        assert refused(bob, {"type": "resign_answer", "accept": True}) == "no_resign_request"
        # A page opened now finds the request in its first state, and only the team's does.
        with guests[2].socket(tid) as again, guests[1].socket(tid) as other:
            fresh, theirs = Sock(again), Sock(other)
            fresh.hello()
            theirs.hello()
            assert fresh.state["you"]["resign"] == {k: v for k, v in asked.items() if k != "type"}
            assert theirs.state["you"]["resign"] is None
        answer = cid.ask({"type": "resign_answer", "accept": True})
        assert answer["type"] == "ack"
        settle(socks, answer["version"])
        out = [e for e in dee.events if e["kind"] == "out"][-1]
        assert (out["seat"], out["reason"], out["agreed"]) == (0, "resigned", 2)
        for sock in socks:
            game = sock.state["game"]
            assert game["reason"] == "forfeit" and game["winner"] == 1
            assert (game["resigned"], game["agreed"]) == (0, 2)
            assert sock.state["you"]["resign"] is None
        record = guests[0].get(f"/games/{tid}/record").json()
        assert record["result"]["resigned"] == 0 and record["result"]["agreed"] == 2
        # The other team never heard of the request.
        for sock in (bob, dee):
            assert not [m for m in sock.messages if m["type"].startswith("resign")]


def test_a_declined_or_unanswered_request_changes_nothing(hall):
    with seated(hall, 4, preset="partnership") as (tid, socks, _):
        ann, bob, cid, dee = socks
        version = bob.version
        bob.ask({"type": "resign"})
        for sock in (bob, dee):
            assert sock.next_state()["type"] == "resign_asked"
        answer = dee.ask({"type": "resign_answer", "accept": False})
        assert answer == {"type": "ack", "id": "r1", "version": version}
        for sock in (bob, dee):
            declined = sock.next_state()
            assert declined == {
                "type": "resign_declined",
                "seat": 1,
                "partner": 3,
                "why": "declined",
            }
            assert sock.state["you"]["resign"] is None
        # Asked again and left unanswered: declined after 30 s.
        bob.ask({"type": "resign"})
        for sock in (bob, dee):
            assert sock.next_state()["type"] == "resign_asked"
        hall.advance(30.0)
        for sock in (bob, dee):
            assert sock.next_state()["why"] == "unanswered"
        assert refused(dee, {"type": "resign_answer", "accept": True}) == "no_resign_request"
        for sock in socks:
            assert sock.state["game"] is None and sock.version == version
            assert all(seat["out"] is False for seat in sock.state["seats"])


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        ({"type": "resign_answer"}, "bad_message", "'accept' is needed"),
        ({"type": "resign_answer", "accept": "yes"}, "bad_message", "'accept' is true or false"),
        ({"type": "resign_answer", "accept": 1}, "bad_message", "'accept' is true or false"),
        ({"type": "resign_answer", "accept": True}, "no_resign_request", "nobody asked"),
    ],
)
def test_a_bad_answer_is_refused_and_changes_nothing(hall, message, code, words):
    with seated(hall, 4, preset="partnership") as (tid, socks, _):
        version = socks[0].version
        socks[0].ws.send_json({"id": 7, **message})
        error = socks[0].ws.receive_json()
        assert error["type"] == "error" and error["id"] == 7
        assert error["code"] == code and words in error["message"], error
        assert socks[0].state["game"] is None and socks[0].version == version


def test_who_may_resign(hall):
    ann, bob, eve = hall.guest("Ann"), hall.guest("Bob"), hall.guest("Eve")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    with ann.socket(tid) as a:
        host = Sock(a)
        host.hello()
        assert refused(host, {"type": "resign"}) == "not_playing"  # not started
    bob.post(f"/api/tables/{tid}/join")
    ann.post(f"/api/tables/{tid}/start")
    with eve.socket(tid) as e, hall.client.websocket_connect(f"/ws/tables/{tid}") as anon:
        watcher, nobody = Sock(e), Sock(anon)
        watcher.hello()
        nobody.hello()
        for sock in (watcher, nobody):
            assert refused(sock, {"type": "resign"}) == "not_seated"
            assert refused(sock, {"type": "resign_answer", "accept": False}) == "not_seated"
        assert watcher.state["game"] is None
