"""The sockets open in a process (``web/live_sockets.py``), through the hall app's own
``LiveSockets`` under Starlette's test client: a player counts online while one of their sockets
is open; an address's sockets are capped, a closed one giving its place back; an operator's
action as the moderation log has it, applied to the sockets here: a ban closes the account's
sockets and keeps new ones out until an unban; a time-out is told to the sockets showing chat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from dominohall.hall.moderating import Action
from dominohall.web.live_sockets import REFUSED, TOO_MANY_SOCKETS, LiveSockets
from dominohall.web.ratelimit import Limits

from .conftest import Guest, Hall, hall_with
from .test_chat_socket import opened, settled

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def capped(tmp_path) -> Iterator[Hall]:
    yield from hall_with(tmp_path, limits=Limits(sockets_per_address=2))


def _live(hall: Hall) -> LiveSockets:
    return hall.client.app.state.live_sockets  # type: ignore[attr-defined,no-any-return]


def _apply(hall: Hall, action: str, subject: str | None, **detail: Any) -> None:
    """An operator's action, as this process's follower of the moderation log hands it over."""
    entry = Action(1, 500.0, None, action, subject, detail.pop("reason", None), detail)
    hall.client.portal.call(_live(hall).apply, entry)  # type: ignore[union-attr]


def _online(hall: Hall, *players: str) -> tuple[int, set[str]]:
    online = _live(hall).online
    portal = hall.client.portal
    return portal.call(online.count), portal.call(online.which, players)  # type: ignore[union-attr]


def _id(guest: Guest) -> str:
    return guest.get("/api/me").json()["player"]["id"]  # type: ignore[no-any-return]


def _lobby(hall: Hall, guest: Guest | None = None) -> Any:
    headers = guest.headers if guest is not None else {}
    return hall.client.websocket_connect("/ws/lobby", headers=headers)


def _closed(ws: Any) -> tuple[int, str]:
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return closed.value.code, closed.value.reason


def test_a_player_is_online_while_one_of_their_sockets_is_open(hall: Hall) -> None:
    ann = hall.guest("Ann")
    ann_id = _id(ann)
    with _lobby(hall) as anyone:  # no one signed in: counted nowhere
        anyone.receive_json()
        assert _online(hall, ann_id) == (0, set())
        with _lobby(hall, ann) as one:
            one.receive_json()
            with _lobby(hall, ann) as two:
                two.receive_json()
                assert _online(hall, ann_id) == (1, {ann_id})
            assert _online(hall, ann_id) == (1, {ann_id})  # one socket of hers still open
    assert _online(hall, ann_id) == (0, set())


def test_an_address_s_sockets_are_capped_and_a_closed_one_gives_its_place_back(capped: Hall):
    with _lobby(capped) as one, _lobby(capped) as two:
        one.receive_json(), two.receive_json()
        with _lobby(capped) as three:
            assert _closed(three) == (
                TOO_MANY_SOCKETS,
                "at most 2 sockets open at once from one address",
            )
    with _lobby(capped) as again, _lobby(capped) as more:
        assert again.receive_json()["type"] == more.receive_json()["type"] == "lobby"


def test_a_ban_closes_the_account_s_sockets_and_keeps_new_ones_out_until_an_unban(
    hall: Hall,
) -> None:
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    ann_id = _id(ann)
    with _lobby(hall, ann) as a, _lobby(hall, bob) as b:
        a.receive_json(), b.receive_json()
        _apply(hall, "ban", ann_id, reason="spam")
        assert _closed(a) == (REFUSED, "this account is banned")
        b.send_json({"type": "ping", "id": 1})
        while (message := b.receive_json())["type"] != "pong":
            pass  # (the lobby's own updates)
        assert message["id"] == 1  # another account's socket is left alone
    with _lobby(hall, ann) as refused:  # (her cookie still works: only this process's door)
        assert _closed(refused) == (REFUSED, "this account is banned")
    _apply(hall, "unban", ann_id)
    with _lobby(hall, ann) as again:
        assert again.receive_json()["type"] == "lobby"
    _apply(hall, "ban", None)  # an action about no player: nothing to do here
    with _lobby(hall, bob) as b:
        assert b.receive_json()["type"] == "lobby"


def test_a_time_out_is_told_to_the_sockets_that_show_chat(hall: Hall) -> None:
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    ann_id = _id(ann)
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    with ann.socket(tid) as table, bob.socket(tid) as other, _lobby(hall, ann) as lobby:
        opened(table), opened(other), lobby.receive_json()
        _apply(hall, "time_out", ann_id, reason="calm down", until=900.0)
        told = [m for m in settled(table) if m["type"] == "chat_timed_out"]
        assert told == [{"type": "chat_timed_out", "until": 900.0, "reason": "calm down"}]
        _apply(hall, "time_out", ann_id)  # no end given: until the action's time; no reason
        told = [m for m in settled(table) if m["type"] == "chat_timed_out"]
        assert told == [{"type": "chat_timed_out", "until": 500.0, "reason": ""}]
        assert not [m for m in settled(other) if m["type"] == "chat_timed_out"]  # Bob's own
        lobby.send_json({"type": "ping", "id": 2})
        seen = []
        while (message := lobby.receive_json())["type"] != "pong":
            seen.append(message["type"])
        assert "chat_timed_out" not in seen  # the lobby's socket shows no chat
