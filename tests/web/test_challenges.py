"""Challenges and follows end to end (docs/protocol.md 13): sent over HTTP, heard on the players'
own sockets (``/ws/me``), accepted into a table where both sit, declined, expired on the hall's
clock; refused by a block, by "nobody", by "friends only", and (ranked) by the recent-opponent
rule; follows with who is online and their public tables, a private one hidden."""

from __future__ import annotations

from typing import Any

import pytest

from dominohall.hall.ratings import Speed, get_pool, rated_game
from dominohall.store.ratings import apply

from .conftest import Guest, Hall
from .test_chat_socket import account

pytestmark = pytest.mark.timeout(60)

Message = dict[str, Any]


def me_socket(who: Guest) -> Any:
    return who.client.websocket_connect("/ws/me", headers=who.headers)


def notice(ws: Any, kind: str) -> Message:
    """The next notice of this kind on a player's socket (the list and other notices skipped)."""
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == "notice" and message["notice"]["kind"] == kind:
            return message["notice"]  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind} notice in 50 messages")


def refused(answer: Any) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"]


def test_a_challenge_accepted_seats_both_and_sends_both_there(hall: Hall):
    ann, bob = account(hall, "ann"), account(hall, "bob")
    with me_socket(ann) as a, me_socket(bob) as b:
        sent = ann.post("/api/challenges", {"username": "Bob", "preset": "draw", "target": 100})
        assert sent.status_code == 200, sent.text
        challenge = sent.json()["challenge"]
        assert challenge["from"] == {"username": "ann", "name": "ann"}
        assert challenge["to"] == {"username": "bob", "name": "bob"}
        assert challenge["state"] == "open" and challenge["options"]["target"] == 100
        heard = notice(b, "challenge")
        assert heard == {
            "kind": "challenge",
            "id": challenge["id"],
            "from": "ann",
            "from_name": "ann",
            "options": challenge["options"],
            "at": challenge["at"],
            "expires_at": challenge["at"] + 300,  # real-time: 5 minutes
        }
        # Both see it among their open challenges; a second one to the same player waits.
        assert [c["id"] for c in bob.get("/api/me/challenges").json()["challenges"]] == [
            challenge["id"]
        ]
        assert refused(ann.post("/api/challenges", {"username": "bob"})) == (
            409,
            "already_challenged",
        )
        # Only the challenged may accept.
        assert refused(ann.post(f"/api/challenges/{challenge['id']}/accept")) == (
            404,
            "no_challenge",
        )

        accepted = bob.post(f"/api/challenges/{challenge['id']}/accept").json()
        table_id = accepted["table"]
        for ws in (a, b):
            over = notice(ws, "challenge_over")
            assert over == {
                "kind": "challenge_over",
                "id": challenge["id"],
                "outcome": "accepted",
                "table": table_id,
            }
            invited = notice(ws, "invitation")
            assert invited == {
                "kind": "invitation",
                "reason": "challenge",
                "table": table_id,
                "from": "ann",
            }
    table = ann.get(f"/api/tables/{table_id}").json()["table"]
    assert [s["name"] for s in table["seats"]] == ["ann", "bob"]
    assert table["phase"] == "playing" and table["target"] == 100
    assert refused(bob.post(f"/api/challenges/{challenge['id']}/decline")) == (
        409,
        "challenge_over",
    )
    assert bob.get("/api/me/challenges").json()["challenges"] == []
    exported = ann.get("/api/me/export").json()
    assert [(c["id"], c["state"], c["table"]) for c in exported["challenges"]] == [
        (challenge["id"], "accepted", table_id)
    ]


def test_a_decline_a_cancel_and_an_expiry_are_told_to_both(hall: Hall):
    ann, bob = account(hall, "ann"), account(hall, "bob")
    with me_socket(ann) as a, me_socket(bob) as b:
        first = ann.post("/api/challenges", {"username": "bob"}).json()["challenge"]
        notice(b, "challenge")
        assert bob.post(f"/api/challenges/{first['id']}/decline").json()["state"] == "declined"
        for ws in (a, b):
            assert notice(ws, "challenge_over")["outcome"] == "declined"

        second = ann.post("/api/challenges", {"username": "bob"}).json()["challenge"]
        notice(b, "challenge")
        assert ann.post(f"/api/challenges/{second['id']}/cancel").json()["state"] == "cancelled"
        for ws in (a, b):
            assert notice(ws, "challenge_over")["outcome"] == "cancelled"

        # Turn-based: it waits for days (3 by default); then it expires on the hall's clock.
        third = ann.post("/api/challenges", {"username": "bob", "timer": "day"}).json()
        third = third["challenge"]
        assert third["expires_at"] - third["at"] == 3 * 86400
        notice(b, "challenge")
        hall.advance(3 * 86400 - 1)
        assert len(bob.get("/api/me/challenges").json()["challenges"]) == 1
        hall.advance(1)
        for ws in (a, b):
            over = notice(ws, "challenge_over")
            assert (over["id"], over["outcome"], over["table"]) == (third["id"], "expired", None)
        assert refused(bob.post(f"/api/challenges/{third['id']}/accept")) == (
            409,
            "challenge_over",
        )


def test_a_block_nobody_and_friends_only_refuse_and_a_guest_cannot_challenge(hall: Hall):
    ann, bob, cid = account(hall, "ann"), account(hall, "bob"), account(hall, "cid")
    assert bob.post("/api/players/ann/block").json()["blocked"] is True
    assert refused(ann.post("/api/challenges", {"username": "bob"})) == (403, "challenge_refused")
    assert refused(ann.post("/api/players/bob/follow")) == (403, "follow_refused")
    assert cid.post("/api/challenges", {"username": "bob"}).status_code == 200

    assert cid.post("/api/me/challenges", {"accept_from": "nobody"}).json() == {
        "accept_from": "nobody"
    }
    assert refused(bob.post("/api/challenges", {"username": "cid"})) == (403, "challenge_refused")
    cid.post("/api/me/challenges", {"accept_from": "friends"})
    assert refused(bob.post("/api/challenges", {"username": "cid"})) == (403, "challenge_refused")
    cid.post("/api/players/bob/follow")  # friends: the players cid follows
    assert bob.post("/api/challenges", {"username": "cid"}).status_code == 200
    assert refused(cid.post("/api/me/challenges", {"accept_from": "some"}))[1] == "bad_request"

    gus = hall.guest("Gus")
    assert refused(gus.post("/api/challenges", {"username": "bob"})) == (403, "account_needed")
    assert refused(ann.post("/api/challenges", {"username": "nobody-here"})) == (404, "no_player")


def test_a_ranked_challenge_takes_the_pools_options_and_the_recent_opponent_rule(hall: Hall):
    ann, _bob = account(hall, "ann"), account(hall, "bob")
    sent = ann.post("/api/challenges", {"username": "bob", "ranked": "draw"}).json()["challenge"]
    pool = get_pool("draw")
    assert sent["options"] == {
        "preset": pool.preset,
        "target": pool.target,
        "seats": 2,
        "timer": "normal",
        "private": False,
        "ranked": "draw",
    }
    partnership = ann.post("/api/challenges", {"username": "bob", "ranked": "partnership"})
    assert refused(partnership) == (400, "bad_option")  # a pool of four: no challenge
    ann.post(f"/api/challenges/{sent['id']}/cancel")

    # A rated game of the pool together a moment ago: no ranked challenge (a casual one is fine).
    ids = {who: hall.client.portal.call(_id_of, hall, who) for who in ("ann", "bob")}  # type: ignore[union-attr]
    hall.client.portal.call(_rated_together, hall, ids["ann"], ids["bob"])  # type: ignore[union-attr]
    assert refused(ann.post("/api/challenges", {"username": "bob", "ranked": "draw"})) == (
        409,
        "recent_opponent",
    )
    assert ann.post("/api/challenges", {"username": "bob"}).status_code == 200


async def _id_of(hall: Hall, username: str) -> str:
    player = await hall.client.app.state.accounts.player_by_username(username)  # type: ignore[attr-defined]
    return player.id  # type: ignore[no-any-return]


async def _rated_together(hall: Hall, one: str, other: str) -> None:
    store = hall.client.app.state.challenges.store  # type: ignore[attr-defined]
    game = rated_game(get_pool("draw"), Speed.REAL_TIME, [one, other], [1, 2])
    async with store.engine.begin() as conn:
        await apply(conn, "t_rated", hall.clock.now() - 60, game)


def test_follows_show_who_is_online_and_their_public_tables_only(hall: Hall):
    ann, bob, _cid = account(hall, "ann"), account(hall, "bob"), account(hall, "cid")
    assert ann.post("/api/players/bob/follow").json() == {"username": "bob", "following": True}
    ann.post("/api/players/cid/follow")
    public = bob.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    bob.post("/api/tables", {"seats": 2, "private": True})  # never shown

    def follows() -> list[Message]:
        return ann.get("/api/me/follows").json()["follows"]  # type: ignore[no-any-return]

    with me_socket(bob) as b:
        b.receive_json()  # (its list: the socket is counted by now)
        [seen_bob, seen_cid] = follows()
        assert (seen_bob["username"], seen_bob["online"]) == ("bob", True)
        assert [t["id"] for t in seen_bob["playing"]] == [public]
        assert (seen_cid["username"], seen_cid["online"], seen_cid["playing"]) == ("cid", False, [])
    assert [f["online"] for f in follows()] == [False, False]
    assert ann.post("/api/players/cid/unfollow").json()["following"] is False
    assert [f["username"] for f in follows()] == ["bob"]
    assert ann.get("/api/me/export").json()["follows"] == [
        {"username": "bob", "since": follows()[0]["since"]}
    ]
    # A block ends the blocked player's follow.
    bob.post("/api/players/ann/block")
    assert follows() == []


def test_reports_are_rate_limited_per_player(hall: Hall):
    ann, _bob = account(hall, "ann"), account(hall, "bob")
    for _ in range(10):  # the default: 10 an hour
        assert ann.post("/api/players/bob/report", {"reason": "spam"}).status_code == 200
    limited = ann.post("/api/players/bob/report", {"reason": "spam"})
    assert refused(limited) == (429, "too_many_reports") and limited.headers["Retry-After"]
