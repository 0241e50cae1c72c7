"""The page's copy of a table (js/tablestate.js): every message a seat received in whole games,
applied in the browser from the first state on, gives the very state the hall sends on a resync."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import websockets

from web.live import first_offered_move
from web.table_view import TableView, comparable

from .conftest import Hall
from .test_profiles import _run

FOLD = """async (messages) => {
  const { applyUpdate, applyPresence } = await import('/static/js/tablestate.js');
  let state = null;
  for (const m of messages) {
    if (m.type === 'state') state = m.state;
    else if (m.type === 'update') state = applyUpdate(state, m);
    else if (m.type === 'presence') state = applyPresence(state, m);
  }
  return state;
}"""


async def _play(url: str, cookie: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play seat 0 with the first move offered until the game is over; every message received,
    and the whole state the hall then sends on a resync."""
    received: list[dict[str, Any]] = []
    async with websockets.connect(url, additional_headers={"Cookie": cookie}) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        table = TableView()  # the Python client's copy, to know what to play
        pressed, waiting = -1, False
        while True:
            message = json.loads(await ws.recv())
            if message["type"] in ("ack", "error"):
                assert message["type"] == "ack", message
                waiting = False
                continue
            if not table.take(message):
                continue  # welcome
            received.append(message)
            state = table.state
            if state["game"] is not None:
                break
            if waiting:
                continue
            hand = state["hand"]
            if state["table"]["phase"] == "between_hands" and hand["number"] > pressed:
                pressed, waiting = hand["number"], True
                await ws.send(json.dumps({"type": "next_hand"}))
            elif state["table"]["phase"] == "playing" and hand["moves"] is not None:
                waiting = True
                await ws.send(json.dumps(first_offered_move(hand["moves"])))
        await ws.send(json.dumps({"type": "resync"}))
        while (last := json.loads(await ws.recv()))["type"] != "state":
            pass
    return received, last["state"]


@pytest.mark.parametrize(("preset", "bots"), [("spinner-fives", ["easy"]), ("draw", ["easy"] * 3)])
def test_the_page_applies_updates_to_the_state_the_hall_has(
    hall: Hall, page: Any, preset: str, bots: list[str]
) -> None:
    with httpx.Client(base_url=hall.url) as http:
        http.post("/api/guest", json={"name": "Ann"}).raise_for_status()
        # The longest target: a game of one short hand could send too few updates to test.
        body = {"preset": preset, "bots": bots, "target": 200}
        answer = http.post("/api/play-with-bots", json=body)
        table = answer.json()["table"]["id"]
        cookie = f"dominohall={http.cookies['dominohall']}"
    url = f"ws://127.0.0.1:{hall.port}/ws/tables/{table}"
    result: dict[str, Any] = {}

    async def main() -> None:
        result["messages"], result["state"] = await _play(url, cookie)

    _run(main)
    messages = result["messages"]
    assert sum(m["type"] == "update" for m in messages) > 10
    folded = page.evaluate(FOLD, messages)
    assert comparable(folded) == comparable(result["state"])
