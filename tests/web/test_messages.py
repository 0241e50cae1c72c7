"""Reading a socket's messages: each frame handled in turn; whatever is wrong with one is an
``error`` carrying its ``id``, and the socket reads on until it closes."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from dominohall.hall import HallError
from dominohall.web.fields import Fields
from dominohall.web.messages import as_text, read_messages

pytestmark = pytest.mark.anyio
KINDS = ("play", "pass")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Frames:
    """A socket that delivers ``frames`` (text, bytes, or None for a disconnect), then closes."""

    def __init__(self, *frames: str | bytes | None) -> None:
        self.frames = list(frames)

    async def receive(self) -> dict[str, Any]:
        if not self.frames:
            return {"type": "websocket.disconnect", "code": 1000}
        frame = self.frames.pop(0)
        if frame is None:
            return {"type": "websocket.disconnect", "code": 1000}
        if isinstance(frame, bytes):
            return {"type": "websocket.receive", "bytes": frame}
        return {"type": "websocket.receive", "text": frame}


async def read(*frames: str | bytes | None, refuse: str | None = None, fail: str | None = None):
    """What the handler was given and what was posted back, reading ``frames`` to the end."""
    handled: list[tuple[str, Any]] = []
    posted: list[dict[str, Any]] = []

    async def handle(fields: Fields, request_id: Any) -> None:
        kind = fields.obj["type"]
        if kind == refuse:
            raise HallError("not_your_turn", "wait for your turn")
        if kind == fail:
            raise OSError("disk full")
        handled.append((kind, request_id))

    socket = Frames(*frames)
    await read_messages(socket, KINDS, handle, posted.append, "a test table")  # type: ignore[arg-type]
    return handled, posted


async def test_messages_are_handled_in_turn_with_their_ids_until_the_socket_closes():
    handled, posted = await read(
        json.dumps({"type": "play", "id": "a1"}),
        json.dumps({"type": "pass", "id": 7}),
        json.dumps({"type": "play"}),
        None,
        json.dumps({"type": "pass", "id": "after the close"}),
    )
    assert handled == [("play", "a1"), ("pass", 7), ("play", None)]
    assert posted == []


async def test_a_bad_message_is_answered_with_its_id_and_the_socket_reads_on():
    handled, posted = await read(
        b'{"type": "play"}',
        "{not json",
        json.dumps({"type": "shout", "id": "x"}),
        json.dumps(["play"]),
        json.dumps({"type": "play", "id": "y" * 65}),
        json.dumps({"type": "pass", "id": True}),
        json.dumps({"type": "play", "id": "last"}),
    )
    assert handled == [("play", "last")]
    assert [(p["id"], p["code"]) for p in posted] == [
        (None, "bad_message"),
        (None, "bad_json"),
        ("x", "bad_message"),
        (None, "bad_message"),
        (None, "bad_message"),
        (None, "bad_message"),
    ]
    assert all(p["type"] == "error" for p in posted)
    assert "binary" in posted[0]["message"]
    assert posted[2]["message"] == "unknown message type 'shout' (known: play, pass)"
    assert "at most 64 characters" in posted[4]["message"]


async def test_a_refusal_is_its_own_error_and_a_failure_is_logged_and_said_plainly(caplog):
    with caplog.at_level(logging.ERROR, logger="dominohall.web"):
        handled, posted = await read(
            json.dumps({"type": "play", "id": 1}),
            json.dumps({"type": "pass", "id": 2}),
            json.dumps({"type": "play", "id": 3}),
            refuse="play",
            fail="pass",
        )
    assert handled == []
    assert [(p["id"], p["code"]) for p in posted] == [
        (1, "not_your_turn"),
        (2, "server_error"),
        (3, "not_your_turn"),
    ]
    assert "disk full" not in posted[1]["message"]
    assert [r.getMessage() for r in caplog.records] == ["request on a test table failed"]


def test_a_message_is_sent_as_compact_json_text():
    text = as_text({"type": "update", "tiles": [[6, 6]], "name": "Zoë"})
    assert isinstance(text, str)
    assert json.loads(text) == {"type": "update", "tiles": [[6, 6]], "name": "Zoë"}
    assert " " not in text
