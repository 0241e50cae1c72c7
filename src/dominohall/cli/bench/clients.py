"""The benchmark's clients, run in processes of their own: two instant players at each table
(the first move their state offers, at once or paced), or echo sockets."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any


class Meter:
    """What one client process saw; moves are counted only inside the measured window."""

    def __init__(self) -> None:
        self.measuring = False
        self.latencies: list[float] = []
        self.errors = 0
        self.games_over = 0
        self.not_by_rules = 0  # forfeits (a timer ran out twice, a player gone for 60 s)

    def result(self) -> dict[str, Any]:
        return {
            "latencies": self.latencies,
            "errors": self.errors,
            "games_over": self.games_over,
            "not_by_rules": self.not_by_rules,
        }


def first_offered_move(moves: dict[str, Any]) -> dict[str, Any]:
    """The first move a seat's state offers, as a message (a draw keeps drawing until a tile
    fits): the instant client of the benchmark and of the server's tests."""
    if moves["lead"]:
        return {"type": "play", "tile": moves["lead"][0]}
    if moves["play"]:
        return {
            "type": "play",
            "tile": moves["play"][0]["tile"],
            "arm": moves["play"][0]["arms"][0],
        }
    if moves["draw"]:
        return {"type": "draw", "until_fits": True}
    return {"type": "pass"}


class Tracker:
    """What a seat's client needs to play, kept from the messages it receives: the whole
    ``state`` (on connect, on resync, at a hand's start) and each ``update`` after it (protocol
    2; a version 1 server sends only states)."""

    def __init__(self) -> None:
        self.version = 0
        self.phase: str | None = None
        self.hand_number = -1
        self.moves: dict[str, Any] | None = None
        self.game: dict[str, Any] | None = None

    def take(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "state":
            state = message["state"]
            self.version = message["version"]
            self.phase = state["table"]["phase"]
            hand = state["hand"]
            self.hand_number = hand["number"] if hand is not None else -1
            self.moves = hand["moves"] if hand is not None else None
            self.game = state["game"]
        elif kind == "update":
            self.version = message["version"]
            if "table" in message:
                self.phase = message["table"]["phase"]
            if "game" in message:
                self.game = message["game"]
            hand = message.get("hand")
            if hand is not None:
                self.moves = hand["moves"]


class Pace:
    """Spaces one table's moves ``interval`` seconds apart, as people thinking would (0: at
    once). A move the server was late for is not made up with a burst."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.next_at = time.monotonic() + random.uniform(0.0, interval)  # tables out of step

    async def wait(self) -> None:
        if self.interval <= 0:
            return
        now = time.monotonic()
        delay = self.next_at - now
        self.next_at = max(self.next_at, now) + self.interval
        if delay > 0:
            await asyncio.sleep(delay)


async def _player(
    url: str,
    cookie: str,
    meter: Meter,
    stop: asyncio.Event,
    pace: Pace,
    greeted: Callable[[], None],
) -> bool:
    """Play one seat until the game is over (True) or the measurement stops; ``greeted`` is
    called once the hall has answered the socket's hello with the table's state, and again at
    each state and when the socket ends (a socket that failed is not waited for)."""
    try:
        return await _play(url, cookie, meter, stop, pace, greeted)
    finally:
        greeted()


async def _play(
    url: str,
    cookie: str,
    meter: Meter,
    stop: asyncio.Event,
    pace: Pace,
    greeted: Callable[[], None],
) -> bool:
    import orjson
    import websockets

    async with websockets.connect(
        url, additional_headers={"Cookie": cookie}, max_size=None, compression=None
    ) as ws:
        await ws.send('{"type":"hello","version":0}')
        sent_at: float | None = None
        pressed = -1
        table = Tracker()
        while not stop.is_set():
            message = orjson.loads(await ws.recv(decode=False))  # bytes: no UTF-8 decode here
            kind = message["type"]
            if kind == "ack":
                if sent_at is not None and meter.measuring:
                    meter.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
                continue
            if kind == "error":
                meter.errors += 1
                sent_at = None
                continue
            if kind not in ("state", "update"):
                continue
            greeted()
            table.take(message)
            if sent_at is not None:
                continue
            if table.game is not None:
                meter.games_over += 1
                meter.not_by_rules += table.game["reason"] != "rules"
                return True
            request: dict[str, Any] | None = None
            if table.phase == "between_hands" and table.hand_number > pressed:
                pressed = table.hand_number
                request = {"type": "next_hand"}
            elif table.phase == "playing" and table.moves is not None:
                request = {**first_offered_move(table.moves), "version": table.version}
            if request is not None:
                if request["type"] != "next_hand":
                    await pace.wait()
                    sent_at = time.perf_counter()
                await ws.send(orjson.dumps(request), text=True)
    return False


async def _echo(url: str, meter: Meter, stop: asyncio.Event) -> None:
    import websockets

    payload = json.dumps({"type": "play", "tile": "6-4", "arm": 1})
    async with websockets.connect(url, compression=None) as ws:
        while not stop.is_set():
            sent = time.perf_counter()
            await ws.send(payload)
            await ws.recv(decode=False)
            if meter.measuring:
                meter.latencies.append(time.perf_counter() - sent)


class Seating:
    """Sets up tables over HTTP: two guests each, a Draw game to 200 on the Relaxed timer."""

    def __init__(self, base: str) -> None:
        import httpx

        self.base = base
        self.client = httpx.AsyncClient(timeout=60)
        self.limit = asyncio.Semaphore(32)

    async def guest(self, name: str) -> str:
        import httpx

        # A client of its own: a shared cookie jar would sign every guest in as the last one.
        async with httpx.AsyncClient(timeout=60) as own:
            answer = await own.post(self.base + "/api/guest", json={"name": name})
            answer.raise_for_status()
            return f"dominohall={answer.cookies['dominohall']}"

    async def post(self, path: str, cookie: str, body: Any = None) -> Any:
        answer = await self.client.post(
            self.base + path, json=body or {}, headers={"Cookie": cookie}
        )
        answer.raise_for_status()
        return answer.json()

    async def table(self, cookies: list[str] | None = None) -> tuple[str, list[str]]:
        """A table with two guests seated (made first when ``cookies`` is None), not started."""
        async with self.limit:
            if cookies is None:
                cookies = [await self.guest("Ann"), await self.guest("Bob")]
            a, b = cookies
            options = {"preset": "draw", "target": 200, "timer": "relaxed"}
            table = (await self.post("/api/tables", a, options))["table"]["id"]
            await self.post(f"/api/tables/{table}/join", b)
            return table, cookies

    async def start(self, table: str, cookie: str) -> None:
        async with self.limit:
            await self.post(f"/api/tables/{table}/start", cookie)


async def _table(
    seating: Seating,
    ports: list[int],
    meter: Meter,
    stop: asyncio.Event,
    seated: asyncio.Queue[None],
    interval: float,
) -> None:
    """One table kept busy: its two guests play (at once, or paced), and start another game
    after each; each guest's socket on a random one of the hall's processes (``ports``).

    Each game starts once the hall has greeted both sockets, and the table is told ``seated``
    once its first has: a hall still answering thousands of hellos when the measurement starts
    would have its greetings counted as the moves' CPU, and a game started before its people
    were greeted would have its clocks run meanwhile (a turn is 50 s on the Relaxed timer; the
    set-up of 1,000 tables takes longer)."""
    pace = Pace(interval)
    cookies: list[str] | None = None
    first = True
    while first or not stop.is_set():
        greetings = _Greetings()
        try:
            table, cookies = await seating.table(cookies)
            players = [
                asyncio.ensure_future(
                    _player(
                        f"ws://127.0.0.1:{random.choice(ports)}/ws/tables/{table}",
                        cookie,
                        meter,
                        stop,
                        pace,
                        greetings.of(seat),
                    )
                )
                for seat, cookie in enumerate(cookies)
            ]
            await greetings.done.wait()
            await seating.start(table, cookies[0])
        finally:
            if first:
                seated.put_nowait(None)  # (failed too: the set-up goes on, one table fewer)
                first = False
        await asyncio.gather(*players)


class _Greetings:
    """Set ``done`` once both seats' sockets of a table were greeted (or ended); each seat
    counts once, however often it says so."""

    def __init__(self) -> None:
        self.done = asyncio.Event()
        self._seats: set[int] = set()

    def of(self, seat: int) -> Callable[[], None]:
        def greeted() -> None:
            self._seats.add(seat)
            if len(self._seats) == 2:
                self.done.set()

        return greeted


def client_process(
    conn: Connection, base: str, ports: list[int], part: str, count: int, interval: float
) -> None:
    """One client process: ``count`` tables (part "moves") or echo sockets (part "echo")."""
    asyncio.run(_client(conn, base, ports, part, count, interval))


async def _client(
    conn: Connection, base: str, ports: list[int], part: str, count: int, interval: float
) -> None:
    meter, stop = Meter(), asyncio.Event()
    seating = None
    if part == "moves":
        seating, seated = Seating(base), asyncio.Queue[None]()
        runners = [_table(seating, ports, meter, stop, seated, interval) for _ in range(count)]
        tasks = [asyncio.create_task(r) for r in runners]
        for _ in runners:  # every table set up (and playing) before the warm-up starts
            await seated.get()
    else:
        url = f"ws://127.0.0.1:{ports[0]}/"
        tasks = [asyncio.create_task(_echo(url, meter, stop)) for _ in range(count)]
    conn.send("ready")
    start, end = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    meter.measuring = True
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    meter.measuring = False
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if seating is not None:
        await seating.client.aclose()
    conn.send(meter.result())
