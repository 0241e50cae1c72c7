"""A tournament's socket (``/ws/tournaments/{id}``, docs/protocol.md 15) over a real WebSocket
under Starlette's test client: the tournament whole first, then again as it changes (a join, the
pairing that seats the player, with their game's players); ping; an unknown tournament closed
with 4404."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from .conftest import Hall
from .test_chat_socket import account
from .test_moderation import operator
from .test_tournaments import _step

pytestmark = pytest.mark.timeout(60)


def _until(ws: Any, wanted: Any) -> dict[str, Any]:
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == "tournament" and wanted(message["tournament"]):
            return dict(message["tournament"])
    raise AssertionError("not heard")


def test_a_tournament_socket_gets_it_whole_then_each_change(hall: Hall) -> None:
    ann, op = account(hall, "ann"), operator(hall, "opal")
    made = op.post("/api/tournaments", {"name": "Live arena", "kind": "arena", "minutes": 20})
    tid = made.json()["tournament"]["id"]
    with hall.client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        first = ws.receive_json()
        assert first["type"] == "tournament"
        assert (first["tournament"]["id"], first["tournament"]["entrants"]) == (tid, 0)
        assert op.post(f"/api/tournaments/{tid}/computers", {"count": 1}).status_code == 200
        assert ann.post(f"/api/tournaments/{tid}/join", {}).status_code == 200
        _until(ws, lambda t: t["entrants"] == 2)
        _step(hall, tid)
        running = _until(ws, lambda t: t["games"])
        assert running["status"] == "running"
        me = hall.client.get("/api/me", headers=ann.headers).json()["player"]
        [game] = running["games"]
        assert me["id"] in game["players"]
        ws.send_json({"type": "ping", "id": 7})
        while (message := ws.receive_json())["type"] != "pong":
            pass
        assert message["id"] == 7


def test_an_unknown_tournament_closes_its_socket_with_4404(hall: Hall) -> None:
    with (
        hall.client.websocket_connect("/ws/tournaments/nothere") as ws,
        pytest.raises(WebSocketDisconnect) as shut,
    ):
        ws.receive_json()
    assert shut.value.code == 4404


def test_a_tournament_socket_from_another_site_gets_http_403(hall: Hall) -> None:
    connecting = hall.client.websocket_connect(
        "/ws/tournaments/any", headers={"Origin": "http://evil.example"}
    )
    with pytest.raises(WebSocketDenialResponse) as refused, connecting:
        pass
    assert refused.value.status_code == 403
    assert refused.value.json()["error"]["code"] == "cross_site"
