"""Whole games against a real server process over loopback: every preset, and SIGKILL mid-hand."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from dominohall.rules.record import check_record

from .live import Budget, LiveServer, Player, tiles_in

# Seats per preset: people, then computer players.
SEATS = {
    "draw": [None, None], "block": [None, None, None], "all-fives": [None, None],
    "spinner-fives": [None, None], "muggins": [None, None, "normal"],
    "five-up": [None, None], "cross-fives": [None, None, None, None],
    "cross-threes": [None, None, "easy"], "cross-fives-threes": [None, None],
    "cross-bergen": [None, None], "cross-draw": [None, None, None],
    "partnership": [None, None, None, "normal"],
}  # fmt: skip


@pytest.fixture
def server(tmp_path):
    live = LiveServer(tmp_path)
    live.start()
    yield live
    live.stop()


def table_with(server: LiveServer, preset: str, bots: list[str | None]) -> tuple[str, list[str]]:
    people = bots.count(None)
    cookies = [server.guest(f"Player {i}") for i in range(people)]
    options = {"preset": preset, "seats": len(bots), "bots": bots}
    table = server.post(cookies[0], "/api/tables", options)["table"]
    for cookie in cookies[1:]:
        server.post(cookie, f"/api/tables/{table['id']}/join")
    server.post(cookies[0], f"/api/tables/{table['id']}/start")
    return table["id"], cookies


def _norm(tile: str) -> str:
    a, b = tile.split("-")
    return f"{max(a, b)}-{min(a, b)}"


def own_tiles(record: dict[str, Any], hand: int, seat: int, moves: int) -> set[str]:
    """The tiles a seat has held in a hand by its first ``moves`` moves: dealt, and drawn."""
    h = record["hands"][hand]
    drawn = {m["draw"] for m in h["moves"][:moves] if m["seat"] == seat and "draw" in m}
    return {_norm(t) for t in h["dealt"][seat]} | {_norm(t) for t in drawn}


def left_in_hand(record: dict[str, Any], hand: int, seat: int) -> set[str]:
    """The tiles a seat held at the hand's end: dealt and drawn, less those it played."""
    moves = record["hands"][hand]["moves"]
    played = {_norm(m["play"]) for m in moves if m["seat"] == seat and "play" in m}
    return own_tiles(record, hand, seat, len(moves)) - played


def assert_nothing_hidden_shown(record: dict[str, Any], seat: int | None, player: Player) -> None:
    """No other seat's tile and nothing of the boneyard in any message before the hand is over
    (every message checked whole: a state, or an update with its events; the others, the
    unversioned ``presence`` and ``watchers`` among them, name no tile at all); once it is over,
    every seat's tiles left shown to everyone, watchers too (the hand's ``revealed``)."""
    checked = 0
    revealed = set()
    views = iter(player.views)
    for message in player.messages:
        if message["type"] not in ("state", "update"):
            assert not tiles_in(message), f"seat {seat} was told tiles in {message}"
            continue
        known = next(views)  # the table as the client knows it after this message
        for event in message["events"]:
            if event["kind"] == "move" and "draw" in event and event["seat"] != seat:
                assert event["draw"] is True, f"seat {seat} saw another seat's draw: {event}"
        hand = known["hand"]
        if hand is not None and hand["result"] is not None:
            shown = [{_norm(t) for t in tiles} for tiles in hand["result"]["revealed"]]
            number = hand["number"]
            assert shown == [left_in_hand(record, number, s) for s in range(len(shown))]
            revealed.add(number)
            continue
        if hand is None:
            continue
        played = {_norm(c["tile"]) for c in hand["layout"]["chain"]}
        moves = sum(1 for e in hand["log"] if e["kind"] == "move")  # made so far in this hand
        mine = own_tiles(record, hand["number"], seat, moves) if seat is not None else set()
        # The events of this hand (an earlier hand's end, shown to all, may ride along).
        now = [e for e in message["events"] if e.get("hand") in (hand["number"], None)]
        rest = {k: v for k, v in message.items() if k != "events"}
        shown = tiles_in(rest) | tiles_in(now)
        leaked = shown - played - mine
        assert not leaked, f"seat {seat} saw {sorted(leaked)} in hand {hand['number']}"
        checked += 1
    assert checked > 0
    assert revealed, f"seat {seat} was never shown a hand's end"


def test_a_whole_game_of_every_preset_over_websockets(server):
    tables = {preset: table_with(server, preset, bots) for preset, bots in SEATS.items()}

    lobby: list[dict[str, Any]] = []  # every message a lobby socket got meanwhile

    async def play_all() -> dict[str, tuple[list[Player], Player]]:
        games = {}
        for preset, (table_id, cookies) in tables.items():
            players = [Player(server.ws_url(table_id), c) for c in cookies]
            games[preset] = (players, Player(server.ws_url(table_id), None))
        runs = [p.play() for players, watcher in games.values() for p in (*players, watcher)]
        async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/lobby") as ws:
            listening = asyncio.create_task(_keep(ws, lobby))
            await asyncio.wait_for(asyncio.gather(*runs), timeout=150)
            await asyncio.sleep(0.5)  # (the lobby's last push: the games gone)
            listening.cancel()
        return games

    games = asyncio.run(play_all())
    # The lobby socket showed the games in progress, and never a tile.
    shown = {t["id"] for m in lobby for t in m["tables"] if t["kind"] == "game"}
    assert shown == {table_id for table_id, _ in tables.values()}
    for message in lobby:
        assert not tiles_in(message), f"the lobby was told tiles in {message}"
    for preset, (table_id, _) in tables.items():
        answer = httpx.get(f"{server.base}/games/{table_id}/record")
        assert answer.status_code == 200, preset
        assert "attachment" in answer.headers["content-disposition"]
        record = answer.json()
        check = check_record(record)
        assert check["ok"] and check["finished"], (preset, check)
        assert record["result"]["reason"] == "rules"
        players, watcher = games[preset]
        for seat, player in enumerate(players):
            assert_nothing_hidden_shown(record, seat, player)
        assert_nothing_hidden_shown(record, None, watcher)


async def _keep(ws: Any, messages: list[dict[str, Any]]) -> None:
    async for raw in ws:
        messages.append(json.loads(raw))


def plays_by(record: dict[str, Any], seat: int) -> list[str]:
    return [
        _norm(m["play"])
        for h in record["hands"]
        for m in h["moves"]
        if m["seat"] == seat and "play" in m
    ]


def test_every_acknowledged_move_survives_sigkill(tmp_path, database_url):
    server = LiveServer(tmp_path, database_url)
    server.start()
    try:
        _every_acknowledged_move_survives_sigkill(server)
    finally:
        server.stop()


def _every_acknowledged_move_survives_sigkill(server: LiveServer) -> None:
    table_id, cookies = table_with(server, "all-fives", [None, None])
    players = [Player(server.ws_url(table_id), c) for c in cookies]

    async def play_for(budget: Budget | None) -> None:
        await asyncio.wait_for(asyncio.gather(*(p.play(budget) for p in players)), timeout=60)

    for budget in (Budget(3), Budget(4, last_unacknowledged=True)):
        # The players stop after some moves (the last one maybe still on its way), and the
        # server dies at once, mid-hand.
        asyncio.run(play_for(budget))
        server.kill()
        server.start()
    asyncio.run(play_for(None))
    record = httpx.get(f"{server.base}/games/{table_id}/record").json()
    assert check_record(record)["ok"] and check_record(record)["finished"]
    for seat, player in enumerate(players):
        acked = [_norm(move["tile"]) for _, move in player.acked if move["type"] == "play"]
        plays = plays_by(record, seat)
        assert acked, seat
        # Timer moves may come between them, but every acknowledged play is there, in order.
        assert _is_subsequence(acked, plays), (seat, acked, plays)


def _is_subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(item in it for item in short)
