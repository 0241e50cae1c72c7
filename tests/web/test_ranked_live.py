"""Ranked games against a real server process: two accounts queue, play over WebSockets to the
end, and their ratings change once, are stored, survive restarts and SIGKILL, and show on their
profiles, the game's page and the leaderboard."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from dominohall.cli.serve import database_url_for
from dominohall.store import Store
from dominohall.store.ratings import StoredRating

from .live import LiveServer, Player


@pytest.fixture
def server(tmp_path):
    live = LiveServer(tmp_path)
    live.start()
    yield live
    live.stop()


def account(server: LiveServer, username: str) -> tuple[str, str]:
    """A new account; returns (cookie header, player id)."""
    answer = httpx.post(
        server.base + "/api/accounts",
        json={"username": username, "password": "correct horse", "name": username.title()},
    )
    assert answer.status_code == 200, answer.text
    return f"dominohall={answer.cookies['dominohall']}", answer.json()["player"]["id"]


def ranked_game(server: LiveServer, first: str, second: str) -> str:
    """Both queue for a 2-player ranked draw game; returns the table the queue made."""
    waiting = server.post(first, "/api/ranked/queue", {"pool": "draw", "players": 2})
    assert waiting["seeking"] is not None, waiting
    paired = server.post(second, "/api/ranked/queue", {"pool": "draw", "players": 2})
    assert paired["table"] is not None, paired
    return str(paired["table"])


def play(server: LiveServer, table: str, cookies: list[str]) -> list[Player]:
    players = [Player(server.ws_url(table), c) for c in cookies]

    async def run() -> None:
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), timeout=60)

    asyncio.run(run())
    return players


def get(server: LiveServer, path: str) -> dict:
    answer = httpx.get(server.base + path)
    assert answer.status_code == 200, (path, answer.text)
    return answer.json()  # type: ignore[no-any-return]


def seed_games(data: Path, players: list[str], games: int) -> None:
    """Give each player ``games`` rated draw games already (1500, settled a little), straight in
    the store: one more game puts them on the leaderboard (10 games)."""

    async def seed() -> None:
        store = await Store.open(database_url_for(data))
        try:
            for player in players:
                await store.ratings.put(
                    StoredRating(player, "draw", "real-time", 25.0, 6.0, games, time.time())
                )
        finally:
            await store.close()

    asyncio.run(seed())


async def until_over(players: list[Player]) -> None:
    """Both play until the end; the second may lose its socket if the first kills the server."""
    outcomes = await asyncio.wait_for(
        asyncio.gather(*(p.play() for p in players), return_exceptions=True), timeout=60
    )
    assert outcomes[0] is None, outcomes


def stored_end(data: Path, table: str) -> tuple[bool, int, int]:
    """What the database file holds of a table's end: finished, its records, its rating changes."""
    database = sqlite3.connect(data / "dominohall.db")
    try:
        q = "SELECT (SELECT finished_at IS NOT NULL FROM tables WHERE id = ?),"
        q += " (SELECT count(*) FROM games WHERE table_id = ?),"
        q += " (SELECT count(*) FROM rating_changes WHERE table_id = ?)"
        finished, games, changes = database.execute(q, (table, table, table)).fetchone()
    finally:
        database.close()
    return bool(finished), games, changes


def test_a_ranked_game_over_websockets_rates_both_and_survives_a_restart(server):
    (ann, ann_id), (bob, bob_id) = account(server, "ann"), account(server, "bob")
    seed_games(server.data, [ann_id, bob_id], 9)
    assert get(server, "/api/leaderboard/draw")["players"] == []
    table = ranked_game(server, ann, bob)
    players = play(server, table, [ann, bob])
    over = players[0].views[-1]["game"]
    assert over["reason"] == "rules"

    def seen() -> dict:
        ratings = get(server, f"/api/games/{table}/ratings")["ratings"]
        profiles = {u: get(server, f"/api/players/{u}") for u in ("ann", "bob")}
        board = get(server, "/api/leaderboard/draw")["players"]
        game = get(server, f"/api/games/{table}")
        return {"ratings": ratings, "profiles": profiles, "board": board, "game": game}

    now = seen()
    changes = {r["seat"]: r for r in now["ratings"]}
    winner = over["winner"]
    assert sorted(changes) == [0, 1]
    assert changes[winner]["change"] > 0 > changes[1 - winner]["change"]
    assert all(r["before"] == 1500 for r in now["ratings"])
    by_username = {"ann": 0, "bob": 1}  # the queue seats the first seeker first
    for username, profile in now["profiles"].items():
        [draw] = profile["ratings"]
        mine = changes[by_username[username]]
        assert (draw["games"], draw["rating"], draw["provisional"]) == (10, mine["after"], False)
        assert [(h["table"], h["change"]) for h in draw["history"]] == [(table, mine["change"])]
        assert [g["id"] for g in profile["recent"]] == [table]
        assert profile["recent"][0]["ranked"] == "draw"
        assert profile["stats"]["games"] == 1
        assert profile["stats"]["won"] == int(by_username[username] == winner)
    # Both on the leaderboard now, the winner first.
    assert [p["username"] for p in now["board"]] == (
        ["ann", "bob"] if winner == 0 else ["bob", "ann"]
    )
    assert now["game"]["ratings"] == now["ratings"]
    assert now["game"]["game"]["ranked"] == "draw"

    server.stop()
    server.start()
    assert seen() == now


def test_sigkill_after_the_last_move_leaves_the_game_finished_and_rated_once(server):
    # Asked at once when game_over arrives (then killed), killed the moment it arrives, and
    # killed once it has surely been stored. Fresh players each time: two who just played are
    # rated apart, and the queue would make them wait for its window to widen.
    for round_, when in enumerate(("ask", "at_once", "later")):
        names = (f"ann{round_}", f"bob{round_}")
        (first, _), (second, _) = account(server, names[0]), account(server, names[1])
        table = ranked_game(server, first, second)
        asked: list[object] = []

        def ask(first: str = first, table: str = table, asked: list[object] = asked) -> None:
            # Whoever hears of the end finds it stored: the ratings, and a player free to seek.
            asked.append(len(get(server, f"/api/games/{table}/ratings")["ratings"]))
            seek = {"pool": "draw", "players": 2}
            answer = httpx.post(
                server.base + "/api/ranked/queue", json=seek, headers={"Cookie": first}
            )
            asked.append(answer.status_code)
            server.kill_now()

        players = [Player(server.ws_url(table), c) for c in (first, second)]
        if when != "later":
            players[0].at_game_over = ask if when == "ask" else server.kill_now
        asyncio.run(until_over(players))
        assert players[0].views[-1]["game"] is not None
        assert any(m["type"] == "ack" for m in players[0].messages + players[1].messages)
        if when == "ask":
            assert asked == [2, 200], asked
        if when == "later":
            time.sleep(0.5)
        server.kill()
        # Before any restart could complete it: the game's end is on disk, whole.
        assert stored_end(server.data, table) == (True, 1, 2), when
        server.start()
        assert get(server, f"/api/tables/{table}")["table"]["phase"] == "finished"
        ratings = {r["seat"]: r for r in get(server, f"/api/games/{table}/ratings")["ratings"]}
        assert sorted(ratings) == [0, 1]
        for seat, username in enumerate(names):
            [draw] = get(server, f"/api/players/{username}")["ratings"]
            # Applied exactly once: one game counted, one point of history, from 1500.
            assert draw["games"] == 1, (when, username, draw)
            assert [h["table"] for h in draw["history"]] == [table]
            assert ratings[seat]["before"] == 1500
            assert draw["rating"] == ratings[seat]["after"] == draw["history"][0]["rating"]
        assert ratings[0]["change"] * ratings[1]["change"] < 0  # one won, one lost
