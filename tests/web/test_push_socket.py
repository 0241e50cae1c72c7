"""A socket of pushes (``web/push_socket.py``), as the lobby's and a tournament's use it, over a
real WebSocket of the hall's app under Starlette's test client, following a source of the
test's own: the whole first, then each push in order; pings answered, other messages refused;
a ``HallError`` from the source closes it with 4404; closing it stops the listening and frees
its place among the sockets open."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from dominohall.hall import HallError, ManualClock
from dominohall.web import create_app
from dominohall.web.live_sockets import TOO_MANY_SOCKETS
from dominohall.web.push_socket import NO_SUCH, PushClient, serve_pushes
from dominohall.web.ratelimit import Limits

pytestmark = pytest.mark.timeout(60)

WHOLE = {"type": "lobby", "tables": [], "online": 0}


class Source:
    """What the sockets follow: each listener it was given, and how often one stopped."""

    def __init__(self) -> None:
        self.listeners: list[Callable[[str], None]] = []
        self.stopped = 0
        self.refusal: str | None = None  # set: listening is refused with this message

    async def listen(self, pushed: Callable[[str], None]) -> tuple[Any, Callable[[], None]]:
        if self.refusal is not None:
            raise HallError("no_such_thing", self.refusal)
        self.listeners.append(pushed)

        def stop() -> None:
            self.stopped += 1
            self.listeners.remove(pushed)

        return WHOLE, stop


class Pushes:
    def __init__(self, client: TestClient, source: Source) -> None:
        self.client = client
        self.source = source

    def push(self, text: str) -> None:
        """Push ``text`` to every listener, in the app's event loop (as the hall does)."""
        for pushed in list(self.source.listeners):
            self.client.portal.call(pushed, text)  # type: ignore[union-attr]


@pytest.fixture
def pushes(tmp_path) -> Iterator[Pushes]:
    app = create_app(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}",
        data=tmp_path,
        clock=ManualClock(),
        bot_delay=0,
        rng=random.Random(3),
        heartbeat=False,
        limits=Limits(sockets_per_address=1),
    )
    source = Source()

    async def pushing(ws: WebSocket) -> None:
        await serve_pushes(ws, PushClient(ws, "a test socket"), source.listen)

    app.router.add_websocket_route("/ws/test-pushes", pushing)
    with TestClient(app) as client:
        yield Pushes(client, source)


def test_a_socket_gets_the_whole_first_then_each_push_in_order(pushes: Pushes) -> None:
    with pushes.client.websocket_connect("/ws/test-pushes") as ws:
        assert ws.receive_json() == WHOLE
        pushes.push('{"type":"lobby_update","n":1}')
        pushes.push('{"type":"lobby_update","n":2}')
        ws.send_json({"type": "ping", "id": "p1"})
        pushes.push('{"type":"lobby_update","n":3}')
        seen = [ws.receive_json() for _ in range(4)]
    updates = [m["n"] for m in seen if m["type"] == "lobby_update"]
    assert updates == [1, 2, 3] and {"type": "pong", "id": "p1"} in seen


def test_a_message_other_than_a_ping_is_refused_and_the_socket_stays_open(pushes: Pushes) -> None:
    with pushes.client.websocket_connect("/ws/test-pushes") as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "id": 4})
        refused = ws.receive_json()
        assert (refused["type"], refused["id"], refused["code"]) == ("error", 4, "bad_message")
        ws.send_json({"type": "ping", "id": 5})
        assert ws.receive_json() == {"type": "pong", "id": 5}


def test_closing_the_socket_stops_its_listening_and_frees_its_place(pushes: Pushes) -> None:
    with pushes.client.websocket_connect("/ws/test-pushes") as ws:
        ws.receive_json()
        assert len(pushes.source.listeners) == 1
        with pushes.client.websocket_connect("/ws/test-pushes") as second:  # one per address
            with pytest.raises(WebSocketDisconnect) as refused:
                second.receive_json()
            assert refused.value.code == TOO_MANY_SOCKETS
        ws.close()
    assert pushes.source.listeners == [] and pushes.source.stopped == 1
    with pushes.client.websocket_connect("/ws/test-pushes") as again:  # its place is free
        assert again.receive_json() == WHOLE


def test_a_refused_listening_closes_the_socket_with_4404_and_the_message_cut_short(
    pushes: Pushes,
) -> None:
    pushes.source.refusal = "there is no such thing " + "x" * 200
    with (
        pushes.client.websocket_connect("/ws/test-pushes") as ws,
        pytest.raises(WebSocketDisconnect) as shut,
    ):
        ws.receive_json()
    assert shut.value.code == NO_SUCH == 4404
    assert shut.value.reason == pushes.source.refusal[:120]
    assert pushes.source.stopped == 0  # (it never listened)
    pushes.source.refusal = None
    with pushes.client.websocket_connect("/ws/test-pushes") as again:  # its place was freed
        assert again.receive_json() == WHOLE
