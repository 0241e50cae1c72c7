"""Ratings in the store: applied with the game's result in one transaction, once, kept."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.exc import IntegrityError

from dominohall.hall.ratings import NEW, POOLS, Skill, Speed, rate, rated_game
from dominohall.store import Store
from dominohall.store.store import StoredPlayer

pytestmark = pytest.mark.anyio
RECORD = {"format": "dominohall-record/1", "preset": "draw", "players": ["Ann", "Bob", "Cid"]}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(database_url)
    for pid, name in (("ann", "Ann"), ("bob", "Bob"), ("cid", "Cid")):
        await store.add_player(StoredPlayer(pid, name, name.lower(), "hash"))
    yield store
    await store.close()


async def _finish(store: Store, table_id: str, places: list[int], at: float = 100.0) -> None:
    await store.add_table(table_id, at - 10)
    game = rated_game(POOLS["draw"], Speed.REAL_TIME, ["ann", "bob", "cid"], places)
    await store.finish_table(table_id, at, RECORD, game)


async def test_a_rated_result_stores_openskills_ratings_and_their_history(
    store: Store, database_url: str
) -> None:
    await _finish(store, "t1", [1, 3, 2])
    await _finish(store, "t2", [2, 1, 3], at=200.0)
    first = rate([NEW, NEW, NEW], [1, 3, 2])
    second = rate(first, [2, 1, 3])
    await store.close()
    store = await Store.open(database_url)  # kept across a restart
    stored = {
        r.player_id: r for p in ("ann", "bob", "cid") for r in await store.ratings.of_player(p)
    }
    for pid, skill in zip(("ann", "bob", "cid"), second, strict=True):
        assert (stored[pid].mu, stored[pid].sigma) == pytest.approx((skill.mu, skill.sigma))
        assert (stored[pid].games, stored[pid].pool, stored[pid].speed) == (2, "draw", "real-time")
    changes = await store.ratings.changes("t2")
    assert [(c.player_id, c.place) for c in changes] == [("ann", 2), ("bob", 1), ("cid", 3)]
    assert [c.mu_before for c in changes] == pytest.approx([s.mu for s in first])
    history = await store.ratings.history("ann", "draw", "real-time")
    assert [h.table_id for h in history] == ["t1", "t2"]
    assert history[0].mu_before == NEW.mu
    board = await store.ratings.leaderboard("draw", "real-time", min_games=1, since=0, limit=10)
    assert [name for _, name, _ in board] == sorted(
        ("Ann", "Bob", "Cid"), key=lambda n: -stored[n.lower()].mu
    )
    await store.close()


async def test_a_failed_rating_leaves_no_result_and_a_failed_result_no_rating(store: Store) -> None:
    await store.add_table("t1", 0.0)
    game = rated_game(POOLS["draw"], Speed.REAL_TIME, ["ann", "bob"], [1, 2])

    def crash(before: object) -> list[tuple[float, float]]:
        raise RuntimeError("the process dies mid-update")

    broken = type(game)(game.pool, game.speed, game.players, game.places, crash, game.new)
    with pytest.raises(RuntimeError):
        await store.finish_table("t1", 10.0, RECORD, broken)
    assert await store.table_finished("t1") is False
    assert await store.record("t1") is None
    assert await store.ratings.of_player("ann") == []

    await store.finish_table("t1", 10.0, RECORD, game)
    # The same game again: its record exists, so nothing of it is applied a second time.
    with pytest.raises(IntegrityError):
        await store.finish_table("t1", 11.0, RECORD, game)
    [ann] = await store.ratings.of_player("ann")
    assert ann.games == 1 and ann.mu == pytest.approx(rate([NEW, NEW], [1, 2])[0].mu)


async def test_speeds_and_pools_are_rated_apart(store: Store) -> None:
    await store.add_table("t1", 0.0)
    game = rated_game(POOLS["draw"], Speed.TURN_BASED, ["ann", "bob"], [2, 1])
    await store.finish_table("t1", 10.0, RECORD, game)
    await store.add_table("t2", 0.0)
    game = rated_game(POOLS["block"], Speed.TURN_BASED, ["ann", "bob"], [2, 1])
    await store.finish_table("t2", 10.0, RECORD, game)
    keys = {(r.pool, r.speed, r.games) for r in await store.ratings.of_player("bob")}
    assert keys == {("draw", "turn-based", 1), ("block", "turn-based", 1)}
    # Each started from a new player's skill: the same result gives the same number.
    [a, b] = await store.ratings.of_player("ann")
    assert a.mu == b.mu < NEW.mu and Skill(a.mu).shown < 1500
