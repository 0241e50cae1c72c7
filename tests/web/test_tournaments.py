"""Tournaments over HTTP (docs/protocol.md 14): created by an account, listed unless
invitation-only, joined, computer entrants by an operator, a pairing seating the player and
opening their next game (their socket's invitation), pause, the operator's cancel."""

from __future__ import annotations

import pytest

from .conftest import Hall
from .test_challenges import me_socket, notice, refused
from .test_chat_socket import account
from .test_moderation import operator

pytestmark = pytest.mark.timeout(60)


def _step(hall: Hall, tid: str) -> None:
    service = hall.client.app.state.tournaments  # type: ignore[attr-defined]
    hall.client.portal.call(service.step, tid)  # type: ignore[union-attr]


def test_an_arena_over_http_seats_the_player_and_opens_their_game(hall: Hall) -> None:
    ann, op = account(hall, "ann"), operator(hall, "opal")
    made = ann.post(
        "/api/tournaments",
        {"name": "Friday arena", "kind": "arena", "preset": "draw", "minutes": 20, "cap": 5},
    )
    assert made.status_code == 201, made.text
    t = made.json()["tournament"]
    assert (t["kind"], t["status"], t["options"]["cap"], t["link"]) == (
        "arena",
        "created",
        5,
        f"/tournaments/{t['id']}",
    )
    assert [x["id"] for x in hall.client.get("/api/tournaments").json()["tournaments"]] == [t["id"]]
    assert refused(ann.post(f"/api/tournaments/{t['id']}/computers", {"count": 1})) == (
        404,
        "not_operator",
    )
    assert op.post(f"/api/tournaments/{t['id']}/computers", {"count": 1}).status_code == 200
    with me_socket(ann) as socket:
        assert ann.post(f"/api/tournaments/{t['id']}/join", {}).status_code == 200
        _step(hall, t["id"])
        invited = notice(socket, "invitation")
    seen = hall.client.get(f"/api/tournaments/{t['id']}").json()["tournament"]
    assert seen["status"] == "running" and len(seen["games"]) == 1
    game = seen["games"][0]
    assert invited == {
        "kind": "invitation",
        "reason": "tournament",
        "table": game["table"],
        "from": "Friday arena",
    }
    assert sorted(game["entrants"]) == ["Bot 1", "ann"]
    table = hall.client.get(f"/api/tables/{game['table']}").json()["table"]
    assert table["cap"] == 5 and table["phase"] == "playing"
    assert ann.post(f"/api/tournaments/{t['id']}/pause", {}).status_code == 200
    assert refused(ann.post(f"/api/tournaments/{t['id']}/cancel", {})) == (404, "not_operator")
    cancelled = op.post(f"/api/tournaments/{t['id']}/cancel", {})
    assert cancelled.json()["tournament"]["status"] == "cancelled"
    assert hall.client.get("/api/tournaments").json()["tournaments"] == []


def test_creation_is_checked_and_limited(hall: Hall) -> None:
    bob = account(hall, "bob")
    plan = {"name": "Club swiss", "kind": "swiss", "rounds": 3, "starts_in": 600}
    assert refused(bob.post("/api/tournaments", {**plan, "rounds": 0}))[1] == "bad_option"
    assert refused(bob.post("/api/tournaments", {**plan, "cap": 0}))[1] == "bad_option"
    assert refused(bob.post("/api/tournaments", {**plan, "colour": "red"}))[1] == "bad_option"
    wrong = bob.post("/api/tournaments", {**plan, "rated": True, "preset": "draw", "target": 100})
    assert refused(wrong)[1] == "bad_option"
    assert "a rated tournament of draw plays to 50, not 100" in wrong.json()["error"]["message"]
    slow = bob.post("/api/tournaments", {**plan, "timer": "day"})
    assert "rounds last 1 to 30 days" in slow.json()["error"]["message"]
    rated = bob.post("/api/tournaments", {**plan, "rated": True, "preset": "block"})
    assert rated.json()["tournament"]["options"]["ranked"] == "block"
    for _ in range(2):
        assert bob.post("/api/tournaments", plan).status_code == 201
    assert refused(bob.post("/api/tournaments", plan)) == (429, "too_many_tournaments")
    secret = hall.guest("Gus")
    assert refused(secret.post("/api/tournaments", plan)) == (403, "account_needed")
    assert refused(hall.client.get("/api/tournaments/nope")) == (404, "no_tournament")
