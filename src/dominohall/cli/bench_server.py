"""``dominohall bench server``: moves per second and move-to-ack times over loopback WebSockets.

Starts ``dominohall serve`` on a fresh SQLite file, seats two instant clients at each of N
tables, and measures for S seconds; then measures a raw WebSocket echo on the same server with
as many sockets, the limit a move could reach.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import click


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


class Meter:
    def __init__(self) -> None:
        self.measuring = False
        self.latencies: list[float] = []
        self.errors = 0
        self.games_over = 0
        self.not_by_rules = 0  # forfeits (a timer ran out twice, a player gone for 60 s)
        self.server_pid = 0
        self.server_cpu: float | None = None  # CPU seconds the server used while measured


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


async def _player(url: str, cookie: str, meter: Meter, stop: asyncio.Event) -> bool:
    """Play one seat until the game is over (True) or the measurement stops."""
    import websockets

    async with websockets.connect(
        url, additional_headers={"Cookie": cookie}, max_size=None, compression=None
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "version": 0}))
        sent_at: float | None = None
        pressed = -1
        while not stop.is_set():
            message = json.loads(await ws.recv())
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
                    sent_at = time.perf_counter()
                await ws.send(json.dumps(request))
    return False


async def _echo(url: str, meter: Meter, stop: asyncio.Event) -> None:
    import websockets

    payload = json.dumps({"type": "play", "tile": "6-4", "arm": 1})
    async with websockets.connect(url, compression=None) as ws:
        while not stop.is_set():
            sent = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            if meter.measuring:
                meter.latencies.append(time.perf_counter() - sent)


def _cpu_seconds(pid: int) -> float | None:
    """CPU time a process has used (Linux /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _measure(
    runners: list[Any],
    meter: Meter,
    stop: asyncio.Event,
    warmup: float,
    seconds: float,
    seated: asyncio.Queue[None] | None = None,
) -> float:
    tasks = [asyncio.create_task(r) for r in runners]
    if seated is not None:  # every table set up (and playing) before the warm-up starts
        for _ in runners:
            await seated.get()
    await asyncio.sleep(warmup)
    meter.measuring = True
    started = time.perf_counter()
    cpu_before = _cpu_seconds(meter.server_pid)
    await asyncio.sleep(seconds)
    meter.measuring = False
    cpu_after = _cpu_seconds(meter.server_pid)
    if cpu_before is not None and cpu_after is not None:
        meter.server_cpu = cpu_after - cpu_before
    elapsed = time.perf_counter() - started
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return elapsed


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
    seating: Seating, port: int, meter: Meter, stop: asyncio.Event, seated: asyncio.Queue[None]
) -> None:
    """One table kept busy: its two guests play at once, and start another game after each."""
    try:
        table, cookies = await seating.table()
    finally:
        seated.put_nowait(None)
    while not stop.is_set():
        url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
        await asyncio.gather(*(_player(url, cookie, meter, stop) for cookie in cookies))
        if not stop.is_set():
            table, cookies = await seating.table(cookies)


def _report(name: str, count: int, elapsed: float, latencies: list[float]) -> str:
    ms = [x * 1000 for x in latencies]
    return (
        f"{name:<22} {count / elapsed:>9.0f}/s   p50 {_percentile(ms, 50):6.1f} ms   "
        f"p99 {_percentile(ms, 99):6.1f} ms   (n={count}, mean {statistics.fmean(ms) if ms else 0:.1f} ms)"
    )


@click.command()
@click.option(
    "--tables", default=100, show_default=True, help="Concurrent tables (two clients each)."
)
@click.option("--seconds", default=10.0, show_default=True, help="Seconds to measure each part.")
@click.option("--warmup", default=2.0, show_default=True, help="Seconds of play before measuring.")
def server(tables: int, seconds: float, warmup: float) -> None:
    """Moves/s and move->ack p50/p99 of the hall, next to a raw WebSocket echo."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="dominohall-bench-") as folder:
        cli = Path(sys.executable).with_name("dominohall")
        command = [str(cli), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", folder]
        command += ["--bot-delay", "0", "--log-level", "warning", "--echo"]
        process = subprocess.Popen(command, env={**os.environ, "PYTHONWARNINGS": "ignore"})
        try:
            _wait_for(base, process)
            asyncio.run(_run(base, port, process.pid, tables, seconds, warmup))
        finally:
            process.terminate()
            process.wait(30)


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


async def _run(
    base: str, port: int, server_pid: int, tables: int, seconds: float, warmup: float
) -> None:
    click.echo(f"setting up {tables} tables ...")
    seating = Seating(base)
    moves, stop, seated = Meter(), asyncio.Event(), asyncio.Queue[None]()
    moves.server_pid = server_pid
    runners = [_table(seating, port, moves, stop, seated) for _ in range(tables)]
    elapsed = await _measure(runners, moves, stop, warmup, seconds, seated)
    await seating.client.aclose()
    echo, stop = Meter(), asyncio.Event()
    echo.server_pid = server_pid
    runners = [_echo(f"ws://127.0.0.1:{port}/ws/echo", echo, stop) for _ in range(2 * tables)]
    echo_elapsed = await _measure(runners, echo, stop, warmup, seconds)
    click.echo(f"{tables} tables, {2 * tables} sockets, {seconds:g} s each, {os.cpu_count()} cores")
    click.echo(_report("moves (move -> ack)", len(moves.latencies), elapsed, moves.latencies))
    click.echo(
        _report("raw echo (send -> echo)", len(echo.latencies), echo_elapsed, echo.latencies)
    )
    if moves.server_cpu is not None and moves.latencies:
        per_move = moves.server_cpu / len(moves.latencies) * 1000
        click.echo(
            f"server CPU while measuring moves: {moves.server_cpu:.1f} s "
            f"({per_move:.2f} ms per move, all its messages included)"
        )
    click.echo(
        f"refused moves: {moves.errors}; games finished meanwhile: {moves.games_over // 2}"
        f" ({moves.not_by_rules // 2} not by the rules)"
    )
