"""``dominohall bench server``: moves per second and move-to-ack times over loopback WebSockets.

Starts ``dominohall serve`` on a fresh SQLite file, seats two instant clients at each of N
tables, and measures for S seconds; then measures a raw WebSocket echo on the same server with
as many sockets, the limit a move could reach. The clients run in processes of their own (they
share the machine with the server) and report the CPU the server spent per move.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import click


def free_port() -> int:
    """A loopback port free now (for the benchmark's server, and the tests')."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


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


async def _player(url: str, cookie: str, meter: Meter, stop: asyncio.Event, pace: Pace) -> bool:
    """Play one seat until the game is over (True) or the measurement stops."""
    import orjson
    import websockets

    async with websockets.connect(
        url, additional_headers={"Cookie": cookie}, max_size=None, compression=None
    ) as ws:
        await ws.send('{"type":"hello","version":0}')
        sent_at: float | None = None
        pressed = -1
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
            if kind != "state" or sent_at is not None:
                continue
            state = message["state"]
            if state["game"] is not None:
                meter.games_over += 1
                meter.not_by_rules += state["game"]["reason"] != "rules"
                return True
            hand = state["hand"]
            request: dict[str, Any] | None = None
            if state["table"]["phase"] == "between_hands" and hand["number"] > pressed:
                pressed = hand["number"]
                request = {"type": "next_hand"}
            elif hand is not None and hand["moves"] is not None:
                request = {**first_offered_move(hand["moves"]), "version": message["version"]}
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


def _cpu_seconds(pid: int) -> float | None:
    """CPU time a process has used (Linux /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
        async with self.limit:
            if cookies is None:
                cookies = [await self.guest("Ann"), await self.guest("Bob")]
            a, b = cookies
            options = {"preset": "draw", "target": 200, "timer": "relaxed"}
            table = (await self.post("/api/tables", a, options))["table"]["id"]
            await self.post(f"/api/tables/{table}/join", b)
            await self.post(f"/api/tables/{table}/start", a)
            return table, cookies


async def _table(
    seating: Seating,
    port: int,
    meter: Meter,
    stop: asyncio.Event,
    seated: asyncio.Queue[None],
    interval: float,
) -> None:
    """One table kept busy: its two guests play (at once, or paced), and start another game
    after each."""
    pace = Pace(interval)
    try:
        table, cookies = await seating.table()
    finally:
        seated.put_nowait(None)
    while not stop.is_set():
        url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
        await asyncio.gather(*(_player(url, cookie, meter, stop, pace) for cookie in cookies))
        if not stop.is_set():
            table, cookies = await seating.table(cookies)


def _client_process(
    conn: Connection, base: str, port: int, part: str, count: int, interval: float
) -> None:
    """One client process: ``count`` tables (part "moves") or echo sockets (part "echo")."""
    asyncio.run(_client(conn, base, port, part, count, interval))


async def _client(
    conn: Connection, base: str, port: int, part: str, count: int, interval: float
) -> None:
    meter, stop = Meter(), asyncio.Event()
    seating = None
    if part == "moves":
        seating, seated = Seating(base), asyncio.Queue[None]()
        runners = [_table(seating, port, meter, stop, seated, interval) for _ in range(count)]
        tasks = [asyncio.create_task(r) for r in runners]
        for _ in runners:  # every table set up (and playing) before the warm-up starts
            await seated.get()
    else:
        url = f"ws://127.0.0.1:{port}/ws/echo"
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


@dataclass
class Part:
    """One measured part (moves or echo), all client processes together."""

    seconds: float
    latencies: list[float]
    errors: int
    games_over: int
    not_by_rules: int
    server_cpu: float | None  # CPU seconds the server used in the window
    client_cpu: float | None  # CPU seconds the client processes used in the window


@dataclass(frozen=True)
class Setup:
    """The server being measured and how the clients drive it."""

    base: str
    port: int
    server_pid: int
    processes: int
    warmup: float
    seconds: float
    interval: float  # seconds between one table's moves (0: at once)


def _measure(setup: Setup, part: str, count: int) -> Part:
    """Run ``count`` tables or sockets spread over client processes, and measure a window."""
    context = multiprocessing.get_context("spawn")  # a clean interpreter: no inherited loop
    n = setup.processes
    shares = [count // n + (i < count % n) for i in range(n)]
    pipes, children = [], []
    for share in (s for s in shares if s):
        here, there = context.Pipe()
        args = (there, setup.base, setup.port, part, share, setup.interval)
        child = context.Process(target=_client_process, args=args, daemon=True)
        child.start()
        pipes.append(here)
        children.append(child)
    try:
        for pipe in pipes:
            if pipe.recv() != "ready":
                raise click.ClickException("a client process failed to start")
        start = time.monotonic() + setup.warmup
        end = start + setup.seconds
        for pipe in pipes:
            pipe.send((start, end))
        time.sleep(max(0.0, start - time.monotonic()))
        pids = [c.pid or 0 for c in children]
        server_before, clients_before = _cpu_seconds(setup.server_pid), _cpu_total(pids)
        time.sleep(max(0.0, end - time.monotonic()))
        server_after, clients_after = _cpu_seconds(setup.server_pid), _cpu_total(pids)
        results = [pipe.recv() for pipe in pipes]
    except EOFError:
        raise click.ClickException("a client process died") from None
    finally:
        for child in children:
            child.join(30)
            if child.is_alive():
                child.kill()
    return Part(
        seconds=setup.seconds,
        latencies=[x for r in results for x in r["latencies"]],
        errors=sum(r["errors"] for r in results),
        games_over=sum(r["games_over"] for r in results),
        not_by_rules=sum(r["not_by_rules"] for r in results),
        server_cpu=_difference(server_before, server_after),
        client_cpu=_difference(clients_before, clients_after),
    )


def _cpu_total(pids: list[int]) -> float | None:
    times = [_cpu_seconds(pid) for pid in pids]
    return None if None in times else sum(t for t in times if t is not None)


def _difference(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None else after - before


def _report(name: str, part: Part) -> str:
    ms = [x * 1000 for x in part.latencies]
    count = len(ms)
    mean = statistics.fmean(ms) if ms else 0.0
    return (
        f"{name:<22} {count / part.seconds:>9.0f}/s   p50 {_percentile(ms, 50):6.1f} ms   "
        f"p99 {_percentile(ms, 99):6.1f} ms   (n={count}, mean {mean:.1f} ms)"
    )


def _cpu_report(what: str, part: Part) -> str:
    """CPU per move (or echo) of the server and of the clients, and how busy each was."""
    count = len(part.latencies)
    lines = []
    for who, cpu in (("server", part.server_cpu), ("clients", part.client_cpu)):
        if cpu is not None and count:
            lines.append(
                f"{who} CPU per {what}: {cpu / count * 1000:.3f} ms "
                f"({cpu / part.seconds:.0%} of a core)"
            )
    return "; ".join(lines)


@click.command()
@click.option(
    "--tables", default=100, show_default=True, help="Concurrent tables (two clients each)."
)
@click.option("--seconds", default=10.0, show_default=True, help="Seconds to measure each part.")
@click.option("--warmup", default=2.0, show_default=True, help="Seconds of play before measuring.")
@click.option(
    "--clients",
    default=2,
    show_default=True,
    help="Client processes sharing the tables (the clients must not be what is measured).",
)
@click.option(
    "--rate",
    type=float,
    default=None,
    help="Moves per second the tables offer together, each table's moves evenly spaced (as "
    "people thinking). Default: every client answers at once, so the move->ack time is "
    "mostly the queue of the other tables' moves.",
)
def server(tables: int, seconds: float, warmup: float, clients: int, rate: float | None) -> None:
    """Moves/s and move->ack p50/p99 of the hall, next to a raw WebSocket echo."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="dominohall-bench-") as folder:
        cli = Path(sys.executable).with_name("dominohall")
        command = [str(cli), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", folder]
        command += ["--bot-delay", "0", "--log-level", "warning", "--echo"]
        # The benchmark seats every table from one address at once: no table limits.
        command += ["--table-limit", "off", "--open-tables", "0"]
        process = subprocess.Popen(command, env={**os.environ, "PYTHONWARNINGS": "ignore"})
        try:
            _wait_for(base, process)
            click.echo(f"setting up {tables} tables in {clients} client processes ...")
            interval = tables / rate if rate else 0.0
            setup = Setup(base, port, process.pid, clients, warmup, seconds, interval)
            moves = _measure(setup, "moves", tables)
            echo = _measure(setup, "echo", 2 * tables)
        finally:
            process.terminate()
            process.wait(30)
    offered = f"offered {rate:g} moves/s" if rate else "clients answer at once"
    click.echo(
        f"{tables} tables ({offered}), {2 * tables} sockets, {seconds:g} s each, "
        f"{os.cpu_count()} cores, {clients} client processes"
    )
    click.echo(_report("moves (move -> ack)", moves))
    click.echo(_report("raw echo (send -> echo)", echo))
    click.echo(_cpu_report("move (all its messages included)", moves))
    click.echo(_cpu_report("echo", echo))
    click.echo(
        f"refused moves: {moves.errors}; games finished meanwhile: {moves.games_over // 2}"
        f" ({moves.not_by_rules // 2} not by the rules)"
    )


def _wait_for(base: str, process: subprocess.Popen[bytes]) -> None:
    import httpx

    for _ in range(600):
        if process.poll() is not None:
            raise click.ClickException("the server did not start")
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise click.ClickException("the server did not answer /healthz")
