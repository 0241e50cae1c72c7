"""The lobby's socket (``/ws/lobby``, docs/protocol.md 12) over a real WebSocket under
Starlette's test client: the whole lobby first, then its changes as they are pushed; never a
private table; the people online; capped per address like the other sockets."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from dominohall.web.live_sockets import TOO_MANY_SOCKETS
from dominohall.web.ratelimit import Limits

from .conftest import Hall, hall_with

pytestmark = pytest.mark.timeout(60)

Message = dict[str, Any]


@pytest.fixture
def lobby_hall(tmp_path) -> Iterator[Hall]:
    yield from hall_with(
        tmp_path, limits=Limits(sockets_per_address=3), lobby_push=0.01, lobby_look=0.02
    )


class Lobby:
    """A lobby socket's messages, and the tables as a page keeps them."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.whole: Message = ws.receive_json()
        assert self.whole["type"] == "lobby"
        self.tables = {t["id"]: t for t in self.whole["tables"]}
        self.online = self.whole["online"]
        self.featured = self.whole["featured"]
        self.messages: list[Message] = [self.whole]

    def until(self, wanted: Callable[[], bool]) -> None:
        for _ in range(100):
            if wanted():
                return
            message = self.ws.receive_json()
            self.messages.append(message)
            assert message["type"] == "lobby_update", message
            self.tables.update({t["id"]: t for t in message["tables"]})
            for gone in message["gone"]:
                self.tables.pop(gone, None)
            self.featured = message["featured"]
            self.online = message.get("online", self.online)
        raise AssertionError(f"not heard: {self.messages}")


def test_a_lobby_socket_gets_the_lobby_then_each_table_as_it_opens_and_starts(lobby_hall):
    ann, bob = lobby_hall.guest("Ann"), lobby_hall.guest("Bob")
    first = ann.post("/api/tables", {"preset": "draw", "seats": 2}).json()["table"]
    with lobby_hall.client.websocket_connect("/ws/lobby") as ws:
        lobby = Lobby(ws)  # (nobody signed in: anyone may look at the lobby)
        assert list(lobby.tables) == [first["id"]]
        assert lobby.tables[first["id"]]["table"] == first
        assert lobby.whole["queues"] == [] and lobby.featured is None
        secret = bob.post("/api/tables", {"preset": "draw", "seats": 2, "private": True})
        second = bob.post("/api/tables", {"preset": "block", "seats": 3}).json()["table"]
        lobby.until(lambda: second["id"] in lobby.tables)
        assert lobby.tables[second["id"]]["ratings"] == ["1500?", None, None]
        # Bob joins Ann's table and she starts it: a game to watch, featured.
        assert bob.post(f"/api/tables/{first['id']}/join").status_code == 200
        assert ann.post(f"/api/tables/{first['id']}/start").status_code == 200
        lobby.until(lambda: lobby.tables.get(first["id"], {}).get("kind") == "game")
        assert lobby.featured == first["id"]
        assert lobby.tables[first["id"]]["scores"] == [0, 0]
        ws.send_json({"type": "ping", "id": 7})
        while (message := ws.receive_json())["type"] == "lobby_update":
            lobby.messages.append(message)
        assert message == {"type": "pong", "id": 7}
    private_id = secret.json()["table"]["id"]
    assert all(private_id not in str(m) for m in lobby.messages)


def test_the_lobby_counts_the_people_online_and_refuses_a_bad_message(lobby_hall):
    ann = lobby_hall.guest("Ann")
    with lobby_hall.client.websocket_connect("/ws/lobby") as ws:
        lobby = Lobby(ws)
        assert lobby.online == 0
        with lobby_hall.client.websocket_connect("/ws/me", headers=ann.headers):
            lobby.until(lambda: lobby.online == 1)
        lobby.until(lambda: lobby.online == 0)
        ws.send_json({"type": "move"})
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["code"] == "bad_message" and "ping" in message["message"]


def test_a_lobby_socket_from_another_site_gets_http_403(lobby_hall):
    connecting = lobby_hall.client.websocket_connect(
        "/ws/lobby", headers={"Origin": "http://evil.example"}
    )
    with pytest.raises(WebSocketDenialResponse) as refused, connecting:
        pass
    assert refused.value.status_code == 403
    assert refused.value.json()["error"]["code"] == "cross_site"


def test_lobby_sockets_count_toward_the_cap_per_address(lobby_hall):
    client = lobby_hall.client
    with (
        client.websocket_connect("/ws/lobby") as one,
        client.websocket_connect("/ws/lobby") as two,
        client.websocket_connect("/ws/lobby") as three,
    ):
        for ws in (one, two, three):
            assert ws.receive_json()["type"] == "lobby"
        with (
            client.websocket_connect("/ws/lobby") as four,
            pytest.raises(WebSocketDisconnect) as shut,
        ):
            four.receive_json()
        assert shut.value.code == TOO_MANY_SOCKETS
