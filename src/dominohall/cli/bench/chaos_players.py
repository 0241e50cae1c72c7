"""The chaos benchmark's people: one client a seat, playing over the WebSocket protocol through a
random hall process, and through another random one whenever its socket drops (catching up with
the whole state on ``hello``); it keeps what it was acknowledged, and the gaps it saw.

Refusals that say "try again" (``owner_unreachable``, ``not_owner``, ``server_error``,
``store_unavailable``: nothing was done) are tried again after a short pause; a move always
carries the version it was chosen at, so a move tried twice can never land twice (the second is
``stale``).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

from .clients import Tracker, first_offered_move

RETRY_CODES = frozenset({"owner_unreachable", "not_owner", "server_error", "store_unavailable"})
RETRY_SECONDS = 0.2  # pause before a request refused with a "try again" is tried again
QUIET_SECONDS = 10.0  # nothing heard while waiting this long: ask for the whole state


@dataclass(frozen=True)
class Ack:
    """A request the hall acknowledged: committed at ``version`` (its last event)."""

    table: str
    seat: int
    version: int
    request: dict[str, Any]
    at: float  # time.time() when the ack arrived


@dataclass
class PersonStats:
    """What one person's client saw."""

    acks: list[Ack] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)  # error code -> count
    connections: int = 0  # sockets opened (the first and every reconnection)
    dropped: int = 0  # sockets that closed under the client, or could not open
    gaps: int = 0  # updates that did not follow the client's version
    healed: int = 0  # gaps healed by the state that answered the resync
    quiet: int = 0  # times nothing came for QUIET_SECONDS while the client waited: resync asked
    waiting_for_state: bool = False  # a gap not healed (yet)
    game: dict[str, Any] | None = None  # the game's end as the client last saw it


class Pace:
    """Seconds between one table's moves, changed for every table at once (people thinking
    while the processes are killed, then at once to finish)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    async def wait(self, rng: random.Random) -> None:
        if self.seconds > 0:
            await asyncio.sleep(self.seconds * rng.uniform(0.5, 1.5))


class Person:
    """One seat's person at one table, until the table's game is over."""

    def __init__(
        self,
        table: str,
        cookie: str,
        ports: list[int],
        pace: Pace,
        rng: random.Random,
    ) -> None:
        self.table = table
        self.cookie = cookie
        self.ports = ports
        self.pace = pace
        self.rng = rng
        self.stats = PersonStats()
        self.seat: int | None = None
        self.done = asyncio.Event()
        self._ids = 0

    async def play(self) -> None:
        """Play until the game is over, reconnecting through a random process as needed."""
        import websockets

        while not self.done.is_set():
            port = self.rng.choice(self.ports)
            url = f"ws://127.0.0.1:{port}/ws/tables/{self.table}"
            self.stats.connections += 1
            try:
                async with websockets.connect(
                    url,
                    additional_headers={"Cookie": self.cookie},
                    max_size=None,
                    compression=None,
                    open_timeout=5,
                    ping_interval=None,
                ) as ws:
                    await self._session(ws)
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                pass
            if not self.done.is_set():
                self.stats.dropped += 1
                await asyncio.sleep(self.rng.uniform(0.05, 0.2))

    async def _session(self, ws: Any) -> None:
        import orjson

        await ws.send('{"type":"hello"}')
        table = Tracker()
        greeted = False
        pending: int | None = None  # the id of the request awaiting its answer
        sent: dict[int, dict[str, Any]] = {}
        retry_at = 0.0
        pressed = -1  # the last hand whose Next hand was acknowledged
        after = 0  # the version the table must reach before the next request (its ack's)
        waiting_since = time.monotonic()
        while True:
            request: dict[str, Any] | None = None
            ready = greeted and pending is None and table.version >= after
            if ready and not self.stats.waiting_for_state:
                request = self._next_request(table, pressed)
            timeout = QUIET_SECONDS
            if request is not None:
                timeout = max(0.0, retry_at - time.monotonic())
            try:
                raw = await asyncio.wait_for(ws.recv(decode=False), timeout)
            except TimeoutError:
                if request is not None:
                    if request["type"] != "next_hand":
                        await self.pace.wait(self.rng)
                    self._ids += 1
                    pending = self._ids
                    sent[pending] = request
                    await ws.send(orjson.dumps({**request, "id": pending}), text=True)
                    waiting_since = time.monotonic()
                elif time.monotonic() - waiting_since >= QUIET_SECONDS:
                    # Nothing came for long: a change lost with no later one to show the gap.
                    self.stats.quiet += 1
                    pending, after = None, 0
                    await ws.send('{"type":"resync"}' if greeted else '{"type":"hello"}')
                    waiting_since = time.monotonic()
                continue
            waiting_since = time.monotonic()
            message = orjson.loads(raw)
            kind = message["type"]
            if kind == "welcome":
                self.seat = message["you"]["seat"]
            elif kind == "ack":
                request_sent = sent.pop(message["id"], None)
                if request_sent is not None and self.seat is not None:
                    ack = Ack(self.table, self.seat, message["version"], request_sent, time.time())
                    self.stats.acks.append(ack)
                    if request_sent["type"] == "next_hand":
                        pressed = table.hand_number
                    after = max(after, message["version"])
                if pending is not None and message["id"] == pending:
                    pending = None
            elif kind == "error":
                code = message["code"]
                self.stats.refused[code] = self.stats.refused.get(code, 0) + 1
                sent.pop(message["id"], None)
                if pending is not None and message["id"] == pending:
                    pending = None
                    if code in RETRY_CODES:
                        retry_at = time.monotonic() + RETRY_SECONDS
                    elif code == "not_between_hands":
                        pressed = table.hand_number  # dealt meanwhile: nothing to press
                    else:  # (stale, not your turn ...): the table moved on; wait to see it
                        after = table.version + 1
            elif kind == "state":
                if self.stats.waiting_for_state:
                    self.stats.waiting_for_state = False
                    self.stats.healed += 1
                table.take(message)
                greeted = True
            elif kind == "update":
                if self.stats.waiting_for_state:
                    continue  # the state asked for has them
                events = message["events"]
                if events and events[0]["version"] != table.version + 1:
                    self.stats.gaps += 1
                    self.stats.waiting_for_state = True
                    await ws.send('{"type":"resync"}')
                    continue
                table.take(message)
            if table.game is not None and not self.stats.waiting_for_state:
                self.stats.game = table.game
                self.done.set()
                return

    def _next_request(self, table: Tracker, pressed: int) -> dict[str, Any] | None:
        if table.phase == "between_hands" and table.hand_number > pressed:
            return {"type": "next_hand"}
        if table.phase == "playing" and table.moves is not None:
            return {**first_offered_move(table.moves), "version": table.version}
        return None
