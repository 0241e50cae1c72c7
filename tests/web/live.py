"""A real ``dominohall serve`` process on 127.0.0.1 and WebSocket players that answer at once."""

from __future__ import annotations

import copy
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
import websockets

from dominohall.cli.bench.clients import first_offered_move

from .table_view import TableView

TILE = re.compile(r"^[0-6]-[0-6]$")


def free_port() -> int:
    """A loopback port free now, for a server of the tests."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(
        self, data: Path, database_url: str | None = None, options: Sequence[str] = ()
    ) -> None:
        """``options``: more of ``serve``'s (``--redis-url``, ``--sockets-only``, ...)."""
        self.data = data
        self.database = ["--database-url", database_url] if database_url else []  # else SQLite
        self.options = list(options)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cli = Path(sys.executable).with_name("dominohall")
        with open(self.data / "server.log", "ab") as log:
            self.process = subprocess.Popen(
                [str(cli), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
                + ["--data", str(self.data), "--bot-delay", "0", "--log-level", "warning"]
                + self.database
                + self.options,
                stdout=subprocess.DEVNULL,
                stderr=log,
                env={**os.environ, "PYTHONWARNINGS": "ignore"},
            )
        for _ in range(300):
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError((self.data / "server.log").read_text())
            time.sleep(0.05)
        raise RuntimeError("the server did not come up")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last write."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def kill_now(self) -> None:
        """SIGKILL, not waiting for the process to be gone (``kill`` then reaps it)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def guest(self, name: str) -> str:
        """Sign in a guest; returns the cookie header value."""
        answer = httpx.post(self.base + "/api/guest", json={"name": name})
        answer.raise_for_status()
        return f"dominohall={answer.cookies['dominohall']}"

    def post(self, cookie: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = httpx.post(self.base + path, json=body or {}, headers={"Cookie": cookie})
        answer.raise_for_status()
        return answer.json()  # type: ignore[no-any-return]

    def ws_url(self, table_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}"


choose = first_offered_move


class Budget:
    """How many more moves the players at one table may make before they stop."""

    def __init__(self, moves: int, *, last_unacknowledged: bool = False) -> None:
        self.moves = moves
        self.last_unacknowledged = last_unacknowledged  # send the last move, do not wait for it


class Player:
    """A client that plays every turn at once; keeps every message it got (with its copy of the
    table after it: updates applied, as the page keeps it) and every ack."""

    def __init__(self, url: str, cookie: str | None) -> None:
        self.url = url
        self.cookie = cookie
        self.messages: list[dict[str, Any]] = []
        self.views: list[dict[str, Any]] = []  # the table as known after each state or update
        self.acked: list[tuple[int, dict[str, Any]]] = []  # (version, the move)
        self.version = 0
        # Run the moment the game's end arrives, before anything else (a test's probe).
        self.at_game_over: Callable[[], None] | None = None

    async def play(self, budget: Budget | None = None) -> None:
        """Play until the game is over, or until the table's move budget is spent."""
        headers = {"Cookie": self.cookie} if self.cookie else {}
        table = TableView()
        async with websockets.connect(self.url, additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello", "version": self.version}))
            pending: dict[str, Any] | None = None
            pressed = -1
            async for raw in ws:
                message = json.loads(raw)
                self.messages.append(message)
                kind = message["type"]
                if kind == "error":
                    raise AssertionError(f"refused: {message} after {pending}")
                if kind == "ack":
                    if pending is not None and pending["type"] != "next_hand":
                        self.acked.append((message["version"], pending))
                    pending = None
                    continue
                if kind not in ("state", "update"):
                    continue
                table.take(message)
                self.views.append(copy.deepcopy(table.state))
                self.version = table.version
                state = table.state
                if state["game"] is not None:
                    if self.at_game_over is not None:
                        self.at_game_over()
                    return
                if pending is not None or state["you"]["seat"] is None:
                    continue
                if budget is not None and budget.moves <= 0:
                    return
                hand = state["hand"]
                if state["table"]["phase"] == "between_hands" and hand["number"] > pressed:
                    pressed = hand["number"]
                    pending = {"type": "next_hand"}
                elif hand is not None and hand["moves"] is not None:
                    pending = {**choose(hand["moves"]), "version": table.version}
                    if budget is not None:
                        budget.moves -= 1
                if pending is not None:
                    await ws.send(json.dumps(pending))
                    if budget is not None and budget.moves <= 0 and budget.last_unacknowledged:
                        return


def tiles_in(obj: Any) -> set[str]:
    """Every tile name anywhere in a JSON value, each written high half first."""
    found: set[str] = set()
    if isinstance(obj, str):
        if TILE.match(obj):
            a, b = obj.split("-")
            found.add(f"{max(a, b)}-{min(a, b)}")
    elif isinstance(obj, dict):
        for value in obj.values():
            found |= tiles_in(value)
    elif isinstance(obj, list):
        for value in obj:
            found |= tiles_in(value)
    return found
