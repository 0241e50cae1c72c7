"""The player's own socket (docs/protocol.md 6): the list of their tables, kept current, and the
notices of their channel, under Starlette's test client on a hand-driven clock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from dominohall.hall.notices import MutesChanged, Reminder

from .live import first_offered_move
from .test_socket import Sock

pytestmark = pytest.mark.timeout(60)

Message = dict[str, Any]


def until(ws: Any, wanted: Callable[[Message], bool], seen: list[Message] | None = None) -> Message:
    """The next message ``wanted`` accepts (those before it are kept in ``seen``)."""
    for _ in range(50):
        message = ws.receive_json()
        if wanted(message):
            return message
        if seen is not None:
            seen.append(message)
    raise AssertionError(f"50 messages and not the one wanted: {seen}")


def tables(ws: Any) -> Message:
    return until(ws, lambda m: m["type"] == "tables")


def untimed(listed: list[Message]) -> list[Message]:
    return [{k: v for k, v in t.items() if k != "left"} for t in listed]


def notice(kind: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "notice" and m["notice"]["kind"] == kind


def test_the_socket_needs_a_sign_in_and_refuses_other_sites(hall):
    with hall.client.websocket_connect("/ws/me") as ws, pytest.raises(WebSocketDisconnect) as shut:
        ws.receive_json()
    assert shut.value.code == 4401
    ann = hall.guest("Ann")
    elsewhere = {**ann.headers, "Origin": "https://evil.example"}
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        hall.client.websocket_connect("/ws/me", headers=elsewhere),
    ):
        pass
    assert denied.value.status_code == 403
    assert denied.value.json()["error"]["code"] == "cross_site"


def test_on_connect_the_list_and_the_count_of_tables_waiting_for_you(hall):
    ann = hall.guest("Ann")
    with hall.client.websocket_connect("/ws/me", headers=ann.headers) as ws:
        first = tables(ws)
        assert first["tables"] == [] and first["your_turn"] == 0
    game = ann.post("/api/play-with-bots", {"bots": ["easy"]}).json()["table"]
    waiting = ann.post("/api/tables", {"seats": 2}).json()["table"]
    hall.idle()
    with hall.client.websocket_connect("/ws/me", headers=ann.headers) as ws:
        listed = tables(ws)
    over_http = ann.get("/api/me/tables").json()["tables"]
    assert untimed(listed["tables"]) == untimed(over_http), "one list, on the socket and over HTTP"
    ids = [t["id"] for t in listed["tables"]]
    assert set(ids) == {game["id"], waiting["id"]}
    mine = {t["id"]: t for t in listed["tables"]}
    assert mine[waiting["id"]]["your_turn"] is False and mine[waiting["id"]]["deadline"] is None
    playing = mine[game["id"]]
    assert playing["your_turn"] == (playing["turn"] == 0)
    assert listed["your_turn"] == sum(t["your_turn"] for t in listed["tables"])
    if playing["your_turn"]:
        assert ids[0] == game["id"], "the tables waiting for you come first"
        assert playing["deadline"] == pytest.approx(listed["now"] + playing["left"])
        assert 0 < playing["left"] <= playing["turn_seconds"]


def test_your_turn_and_the_count_follow_the_moves_at_a_table(hall):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    with hall.client.websocket_connect("/ws/me", headers=bob.headers) as mine:
        assert tables(mine)["tables"] == []
        bob.post(f"/api/tables/{tid}/join")
        seated = until(mine, notice("seated"))["notice"]
        assert seated == {"kind": "seated", "table": tid, "seat": 1}
        assert [t["id"] for t in tables(mine)["tables"]] == [tid]
        ann.post(f"/api/tables/{tid}/start")
        with ann.socket(tid) as a, bob.socket(tid) as b:
            socks = {0: Sock(a), 1: Sock(b)}
            for sock in socks.values():
                sock.hello()
            for _ in range(4):  # a few turns: Bob's count goes 1, 0, 1, ...
                turn = socks[0].state["hand"]["turn"]
                if turn == 1:
                    told = until(mine, notice("your_turn"))["notice"]
                    assert told["table"] == tid and told["seat"] == 1
                    assert told["version"] == socks[1].version
                count = int(turn == 1)
                listed = until(
                    mine, lambda m, n=count: m["type"] == "tables" and m["your_turn"] == n
                )
                assert listed["tables"][0]["turn"] == turn
                answer = socks[turn].ask(first_offered_move(socks[turn].moves))
                assert answer["type"] == "ack"
                socks[1 - turn].catch_up(answer["version"])
            assert socks[0].ask({"type": "leave"})["type"] == "ack"  # a forfeit: the game is over
            # (inside: the test client ends a socket's task with it, and the game's end is
            # saved after the ack)
            seen: list[Message] = []
            over = until(mine, notice("table_over"), seen)["notice"]
            assert over == {"kind": "table_over", "table": tid}
            mine.send_json({"type": "ping"})
            until(mine, lambda m: m["type"] == "pong", seen)
        last = [m for m in seen if m["type"] == "tables"][-1]
        assert last["tables"] == [] and last["your_turn"] == 0


def test_a_notice_passes_as_the_protocol_writes_it_and_ping_is_answered(hall):
    ann = hall.guest("Ann")
    player = ann.get("/api/me").json()["player"]["id"]
    broker = hall.client.app.state.hall.broker
    with hall.client.websocket_connect("/ws/me", headers=ann.headers) as ws:
        tables(ws)
        reminder = Reminder("k3x9q2fz", 1, 12, 9.0, 3600.0)
        hall.client.portal.call(broker.tell, player, MutesChanged())  # the hall's own: not sent
        hall.client.portal.call(broker.tell, player, reminder)
        skipped: list[Message] = []
        assert until(ws, notice("reminder"), skipped)["notice"] == {
            "kind": "reminder",
            "table": "k3x9q2fz",
            "seat": 1,
            "version": 12,
            "deadline": 9.0,
            "left": 3600.0,
        }
        assert not [m for m in skipped if m["type"] == "notice"]
        ws.send_json({"type": "ping", "id": 7})
        assert until(ws, lambda m: m["type"] == "pong") == {"type": "pong", "id": 7}
        ws.send_json({"type": "play", "id": "x"})
        error = until(ws, lambda m: m["type"] == "error")
        assert (
            error["id"] == "x" and error["code"] == "bad_message" and "'play'" in error["message"]
        )
        ws.send_text("{")
        assert until(ws, lambda m: m["type"] == "error")["code"] == "bad_json"
        ws.send_bytes(b"{}")
        assert until(ws, lambda m: m["type"] == "error")["code"] == "bad_message"
