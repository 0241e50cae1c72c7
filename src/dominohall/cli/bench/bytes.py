"""``dominohall bench bytes``: the bytes one seat's socket receives per move, whole games.

Starts ``dominohall serve`` (``--server-src`` runs another source tree's hall, to measure an
older protocol with the same client), plays whole games at seat 0 against computer players
with the first move offered, and counts what the seat's socket received: the text of every
message (uncompressed), and the bytes on the wire with permessage-deflate, counted by a
loopback relay between the client and the server. Moves are counted from the game record
(every play, draw and pass of every seat).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from .clients import Tracker, first_offered_move
from .ports import free_port
from .server import _wait_for

GAMES = {"all-fives": ["normal"], "partnership": ["normal", "normal", "normal"]}


@dataclass
class Count:
    games: int = 0
    moves: int = 0
    messages: int = 0
    text_bytes: int = 0  # the messages' text, uncompressed
    wire_bytes: int = 0  # server to client on the wire, permessage-deflate
    kinds: dict[str, int] = field(default_factory=dict)  # bytes by message type
    hands: int = 0
    not_by_rules: int = 0  # games that ended otherwise (a forfeit): the figures are suspect

    def figures(self) -> dict[str, Any]:
        per = max(1, self.moves)
        return {
            "games": self.games,
            "hands": self.hands,
            "not_by_rules": self.not_by_rules,
            "moves": self.moves,
            "messages": self.messages,
            "bytes_per_move": round(self.text_bytes / per, 1),
            "wire_bytes_per_move": round(self.wire_bytes / per, 1),
            "messages_per_move": round(self.messages / per, 2),
            "bytes_by_type": self.kinds,
        }


class Relay:
    """A loopback TCP relay that counts the bytes the server sends to the client."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.down = 0

    async def start(self) -> int:
        server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.server = server
        return int(server.sockets[0].getsockname()[1])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, down: bool) -> None:
            try:
                while data := await src.read(65536):
                    if down:
                        self.down += len(data)
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer, False), pipe(up_reader, writer, True))


async def _one_game(base: str, port: int, preset: str, bots: list[str], count: Count) -> None:
    import httpx
    import orjson
    import websockets

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        (await http.post("/api/guest", json={"name": "Ann"})).raise_for_status()
        # A table opened and started by its host (not play-with-bots, whose body has changed):
        # the same two requests in every version of the hall, to measure an older one.
        options = {"preset": preset, "seats": len(bots) + 1, "bots": [None, *bots]}
        answer = await http.post("/api/tables", json=options)
        answer.raise_for_status()
        table = answer.json()["table"]["id"]
        (await http.post(f"/api/tables/{table}/start", json={})).raise_for_status()
        cookie = f"dominohall={http.cookies['dominohall']}"
        relay = Relay(port)
        relay_port = await relay.start()
        url = f"ws://127.0.0.1:{relay_port}/ws/tables/{table}"
        tracker = Tracker()
        async with websockets.connect(
            url, additional_headers={"Cookie": cookie}, max_size=None, compression="deflate"
        ) as ws:
            handshake = relay.down  # the upgrade's answer is not a message
            await ws.send('{"type":"hello","version":0}')
            pressed = -1
            waiting = False
            while True:
                raw = await ws.recv(decode=False)
                message = orjson.loads(raw)
                kind = message["type"]
                count.messages += 1
                count.text_bytes += len(raw)
                count.kinds[kind] = count.kinds.get(kind, 0) + len(raw)
                if kind in ("ack", "error"):
                    waiting = False
                    continue
                tracker.take(message)
                if tracker.game is not None:
                    break
                if waiting:
                    continue
                if tracker.phase == "between_hands" and tracker.hand_number > pressed:
                    pressed = tracker.hand_number
                    await ws.send('{"type":"next_hand"}')
                elif tracker.phase == "playing" and tracker.moves is not None:
                    request = {**first_offered_move(tracker.moves), "version": tracker.version}
                    waiting = True
                    await ws.send(orjson.dumps(request), text=True)
        await asyncio.sleep(0.05)  # the relay has counted the close
        relay.server.close()
        count.wire_bytes += relay.down - handshake
        record = (await http.get(f"/games/{table}/record")).json()
        count.moves += sum(len(hand["moves"]) for hand in record["hands"])
        count.games += 1
        count.hands += len(record["hands"])
        count.not_by_rules += record["result"]["reason"] != "rules"


async def _games(base: str, port: int, games: int) -> dict[str, Any]:
    figures = {}
    for preset, bots in GAMES.items():
        count = Count()
        for _ in range(games):
            await _one_game(base, port, preset, bots, count)
        figures[preset] = count.figures()
    return figures


def _supported(command: list[str], env: dict[str, str], options: list[str]) -> list[str]:
    """The pairs of ``options`` (flag, value) that this ``serve`` knows: an older source tree's
    hall (``--server-src``) may predate some, and it is measured without them."""
    usage = subprocess.run(
        [*command[:3], "serve", "--help"], env=env, capture_output=True, text=True, check=True
    ).stdout
    pairs = zip(options[::2], options[1::2], strict=True)
    return [word for flag, value in pairs if flag in usage for word in (flag, value)]


@click.command("bytes")
@click.option("--games", default=3, show_default=True, help="Whole games of each kind.")
@click.option(
    "--server-src",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Serve from another source tree's src/ (e.g. an older checkout), to compare.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bytes_(games: int, server_src: Path | None, as_json: bool) -> None:
    """Bytes one seat's socket receives per move: all-fives 2p and partnership 4p, whole games."""
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    if server_src is not None:
        env["PYTHONPATH"] = str(server_src.resolve())
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="dominohall-bench-") as folder:
        serve = "from dominohall.cli.main import main; main()"
        command = [sys.executable, "-c", serve, "serve", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--data", folder, "--bot-delay", "0"]
        command += ["--log-level", "warning"]
        command += _supported(command, env, ["--table-limit", "off", "--open-tables", "0"])
        process = subprocess.Popen(command, env=env)
        try:
            _wait_for(base, process)
            figures = asyncio.run(_games(base, port, games))
        finally:
            process.terminate()
            process.wait(30)
    if as_json:
        click.echo(json.dumps({"server_src": str(server_src or "this"), **figures}))
        return
    for preset, f in figures.items():
        click.echo(
            f"{preset:<12} {f['games']} games ({f['hands']} hands, {f['not_by_rules']} not by "
            f"the rules), {f['moves']} moves: {f['bytes_per_move']:8.1f} "
            f"bytes/move uncompressed, {f['wire_bytes_per_move']:7.1f} on the wire (deflate), "
            f"{f['messages_per_move']:.2f} messages/move"
        )
