"""``serve --sockets-only`` beside a process that plays tables, as an operator runs them: two real
``serve`` processes on one PostgreSQL database and the machine's Redis. A whole game is made and
played through the sockets-only process alone (HTTP and WebSockets); the other process holds the
table and commits every move; a watcher's socket on the sockets-only process sees every move."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest
import redis

from dominohall.rules.record import check_record

from .live import LiveServer, Player
from .test_live import assert_nothing_hidden_shown, table_with

pytestmark = [pytest.mark.postgresql, pytest.mark.timeout(240)]

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def prefix() -> Iterator[str]:
    """The test's own prefix on the machine's Redis (``redis_prefix``, for a test that is not
    async itself: the processes are), its keys deleted after."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1)
    try:
        client.ping()
    except (redis.ConnectionError, OSError):
        pytest.skip("Redis is not running at 127.0.0.1:6379 (scripts/services.sh starts it)")
    name = f"test:{uuid.uuid4().hex}:"
    try:
        yield name
        keys = list(client.scan_iter(match=f"{name}*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def hall_process(folder: Path, database: str, prefix: str, *more: str) -> LiveServer:
    folder.mkdir()
    options = ["--redis-url", REDIS_URL, "--redis-prefix", prefix, *more]
    return LiveServer(folder, database, options)


async def store_rows(database: str, table_id: str) -> tuple[list[Any], list[Any]]:
    """The leases of tables (kind, name, owner, token), and the table's events' tokens."""
    conn = await asyncpg.connect(database.replace("+asyncpg", ""))
    try:
        leases = await conn.fetch("SELECT name, owner, token FROM leases WHERE kind = 'table'")
        tokens = await conn.fetch(
            "SELECT version, token FROM events WHERE table_id = $1 ORDER BY version", table_id
        )
    finally:
        await conn.close()
    return [tuple(r) for r in leases], [tuple(r) for r in tokens]


def assert_acks_come_first(messages: list[dict[str, Any]]) -> None:
    """Each ack comes before the update showing its version (docs/protocol.md 3), although the
    command went to the game process and the change came back to this one over Redis."""
    for i, message in enumerate(messages):
        if message["type"] == "ack":
            shown = [m for m in messages[:i] if m["type"] == "update"]
            assert all(m["version"] < message["version"] for m in shown), (message, shown[-1:])


def moves_in(messages: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Each move event a socket was sent, as (hand, seat), in order (one version each)."""
    seen: dict[int, tuple[int, int]] = {}
    for message in messages:
        if message["type"] == "update":
            for event in message["events"]:
                if event["kind"] == "move":
                    seen[event["version"]] = (event["hand"], event["seat"])
    return [seen[v] for v in sorted(seen)]


def test_a_whole_game_through_a_sockets_only_process(
    tmp_path: Path, postgres_database: str, prefix: str
) -> None:
    game = hall_process(tmp_path / "game", postgres_database, prefix)
    sockets = hall_process(tmp_path / "sockets", postgres_database, prefix, "--sockets-only")
    try:
        with ThreadPoolExecutor(2) as starting:  # (at once: neither waits for the other)
            list(starting.map(LiveServer.start, (game, sockets)))
        _play_through(sockets, game, postgres_database)
    finally:
        sockets.stop()
        game.stop()


def _play_through(sockets: LiveServer, game: LiveServer, database: str) -> None:
    # A person and a computer player: the person's moves go through the sockets-only process,
    # the computer's are made by the game process; the socket sees both.
    table_id, cookies = table_with(sockets, "draw", [None, "normal"])
    players = [Player(sockets.ws_url(table_id), c) for c in cookies]
    watcher = Player(sockets.ws_url(table_id), None)

    async def play() -> None:
        watching = asyncio.create_task(watcher.play())
        for _ in range(200):  # the watcher has the table's first state before any move
            if watcher.views:
                break
            await asyncio.sleep(0.02)
        # (generous: on a loaded machine a move through the two processes may take a second)
        await asyncio.wait_for(asyncio.gather(watching, *(p.play() for p in players)), 180)

    asyncio.run(play())
    record = httpx.get(f"{sockets.base}/games/{table_id}/record").json()
    check = check_record(record)
    assert check["ok"] and check["finished"], check
    # The watcher on the sockets-only process was sent every move of the game, in order, after
    # those its first state showed (a computer player may have led before it connected).
    made = [(h, m["seat"]) for h, hand in enumerate(record["hands"]) for m in hand["moves"]]
    first = next(m for m in watcher.messages if m["type"] == "state")["state"]["hand"]
    shown = [(first["number"], e["seat"]) for e in first["log"] if e["kind"] == "move"]
    assert shown + moves_in(watcher.messages) == made
    assert watcher.views[-1]["game"] is not None
    for seat, player in enumerate(players):
        assert player.acked and player.views[-1]["game"] is not None
        assert_acks_come_first(player.messages)
        assert_nothing_hidden_shown(record, seat, player)
    # In the store: the table's lease is the game process's, every event committed under its
    # token, and no table was ever leased by the sockets-only process.
    leases, tokens = asyncio.run(store_rows(database, table_id))
    assert game.process is not None and sockets.process is not None
    owners = {name: owner for name, owner, _ in leases}
    assert f"-{game.process.pid}-" in owners[table_id]
    assert not [o for o in owners.values() if o and f"-{sockets.process.pid}-" in o]
    [(_, _, token)] = [lease for lease in leases if lease[0] == table_id]
    assert {t for _, t in tokens} == {token}
