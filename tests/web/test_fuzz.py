"""Arbitrary JSON to every HTTP endpoint and every socket message type: never a server error.

The endpoints are read from the app's own routes, so a new one is fuzzed without being listed.
A request the hall refuses leaves the table as it was (its version, which every change raises).
"""

from __future__ import annotations

import json
import random
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Route
from starlette.testclient import TestClient

from dominohall.hall import ManualClock
from dominohall.hall.table import Phase
from dominohall.web import create_app

pytestmark = pytest.mark.timeout(120)

FIELDS = [
    "name", "username", "password", "preset", "target", "seats", "timer", "private", "bots",
    "bot", "seat", "type", "id", "version", "tile", "arm", "until_fits",
]  # fmt: skip
ANSWER_WITHIN = 10.0  # seconds: the hall answers at once, so this is only a bound
KINDS = ["hello", "play", "draw", "pass", "next_hand", "leave", "ping"]

scalars = (
    st.none()
    | st.booleans()
    | st.integers()  # unbounded: numbers far beyond 64 bits too
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()  # any unicode, lone surrogates included (sent escaped)
    | st.sampled_from(["draw", "hard", "6-4", "quick", "Ann", "\u3164", "\u212aelvin", ""])
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
objects = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), values, max_size=6)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


raw_text = (
    objects.map(json.dumps)
    | values.map(json.dumps)
    | st.integers(1, 5_000).map(nested)
    | st.integers(1, 2_000).map(lambda d: '{"bots": ' + nested(d) + "}")
    | st.text(max_size=40)
)
bodies = raw_text.map(str.encode) | st.binary(max_size=60)


@pytest.fixture
def client(tmp_path):
    app = create_app(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}",
        data=tmp_path,
        clock=ManualClock(),
        bot_delay=0,
        rng=random.Random(5),
        heartbeat=False,
    )
    with TestClient(app) as client:
        yield client


def signed_in(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/guest", json={"name": name})
    client.cookies.clear()
    return {"Cookie": f"dominohall={answer.cookies['dominohall']}"}


def version_of(client: TestClient, table_id: str) -> int | None:
    room = client.app.state.hall.rooms.get(table_id)  # type: ignore[attr-defined]
    return None if room is None else room.state.version


def test_no_http_request_gets_a_server_error_and_a_refused_one_changes_nothing(client):
    ann = signed_in(client, "Ann")
    routes = [r for r in client.app.routes if isinstance(r, Route)]  # type: ignore[attr-defined]
    calls = [(method, r.path) for r in routes for method in sorted(set(r.methods or ()) - {"HEAD"})]
    assert ("POST", "/api/tables/{table_id}/join") in calls and len(calls) >= 19
    table_id = client.post("/api/tables", json={"seats": 3}, headers=ann).json()["table"]["id"]

    @settings(
        max_examples=400,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        call=st.sampled_from(calls),
        body=bodies,
        who=st.sampled_from([ann, {}]),
        target=st.sampled_from([table_id, "nosuchtb", "%2e%2e", "\u3164"]),
    )
    def request(call: tuple[str, str], body: bytes, who: dict[str, str], target: str) -> None:
        method, path = call
        url = path.replace("{table_id}", target).replace("{game_id}", target)
        before = version_of(client, table_id)
        headers = {**who, "Content-Type": "application/json"}  # the body is read as JSON
        answer = client.request(method, url, content=body, headers=headers)
        client.cookies.clear()
        assert answer.status_code < 500, (method, url, body, answer.text)
        if answer.status_code >= 400 and answer.headers["content-type"] == "application/json":
            error = answer.json()["error"]
            assert error["code"] and error["message"]
        if answer.status_code >= 400:
            assert version_of(client, table_id) == before, (method, url, body)

    request()


def test_no_socket_message_gets_a_server_error_and_a_refused_one_changes_nothing(client):
    ann, bob = signed_in(client, "Ann"), signed_in(client, "Bob")

    def new_table() -> str:
        answer = client.post("/api/tables", json={"seats": 2}, headers=ann)
        for _ in range(5):
            if answer.status_code != 403 or answer.json()["error"]["code"] != "held_back":
                break
            # Ann left the last game while Bob played (a strike: docs/protocol.md 4): the hold
            # is let pass on the hall's clock (its timers may put her out of another game
            # meanwhile: a longer hold, let pass too).
            clock = client.app.state.hall.clock  # type: ignore[attr-defined]
            client.portal.call(clock.advance, answer.json()["error"]["until"] - clock.now())  # type: ignore[union-attr]
            answer = client.post("/api/tables", json={"seats": 2}, headers=ann)
        assert answer.status_code == 200, answer.text
        tid = answer.json()["table"]["id"]
        client.post(f"/api/tables/{tid}/join", json={}, headers=bob)
        client.post(f"/api/tables/{tid}/start", json={}, headers=ann)
        client.cookies.clear()
        return tid

    tables = [new_table()]
    message = st.builds(
        lambda kind, extra: {"type": kind, **extra},
        st.sampled_from(KINDS) | st.text(max_size=6),
        objects,
    )
    texts = message.map(json.dumps) | raw_text

    @settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=texts)
    def send(text: str) -> None:
        room = client.app.state.hall.rooms.get(tables[-1])  # type: ignore[attr-defined]
        if room is None or room.state.phase is Phase.FINISHED:  # left or forfeited: a new game
            tables.append(new_table())
        table_id = tables[-1]
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=ann) as ws:
            ws.send_json({"type": "hello", "version": 0})
            assert ws.receive_json()["type"] == "welcome"
            assert _within(ws, ANSWER_WITHIN)["type"] == "state"  # hello's whole state
            before = version_of(client, table_id)
            ws.send_text(text)
            sent: Any = _loads(text)
            answer = _answer(ws, resync=isinstance(sent, dict) and sent.get("type") == "resync")
            assert answer.get("code") != "server_error", (text, answer)
            if isinstance(sent, dict) and _valid_id(sent.get("id")):
                assert answer.get("id", sent["id"]) == sent["id"]
            if answer["type"] == "error":
                assert answer["message"]
                assert version_of(client, table_id) == before, text

    send()


def _answer(ws: Any, resync: bool) -> dict[str, Any]:
    """The reply to the message just sent (states sent meanwhile skipped): a resync is answered
    by the state alone (docs/protocol.md 3)."""
    answers = ("error", "ack", "pong", "welcome", *(("state",) if resync else ()))
    while True:
        message = _within(ws, ANSWER_WITHIN)
        if message["type"] in answers:
            return message


def _within(ws: Any, seconds: float) -> dict[str, Any]:
    """The socket's next message; a hall that says nothing for ``seconds`` fails the test (a
    test client's receive would wait for ever)."""

    async def receive() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    try:
        frame = ws.portal.call(receive)
    except TimeoutError:
        raise AssertionError(f"no answer within {seconds} s") from None
    assert frame["type"] == "websocket.send", frame
    return json.loads(frame["text"])  # type: ignore[no-any-return]


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _valid_id(value: object) -> bool:
    if isinstance(value, str):
        return len(value) <= 64
    return isinstance(value, int | float) and not isinstance(value, bool)
