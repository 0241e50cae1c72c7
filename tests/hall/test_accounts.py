"""The accounts service over the store: what it adds to the store's reads (pages that say where
the next starts, every game read a page at a time, ratings with their histories)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from dominohall.hall import accounts
from dominohall.hall.accounts import GameEntry, StoreAccounts, StoredPlayer
from dominohall.hall.ratings import POOLS, Speed, rated_game
from dominohall.store import Store
from dominohall.store.history import SeatEntry

pytestmark = pytest.mark.anyio
RECORD = {"format": "dominohall-record/1", "preset": "draw", "players": ["Ann", "Bob"]}


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(database_url)
    for pid in ("ann", "bob", "cid"):
        await store.add_player(StoredPlayer(pid, pid.title(), pid, None))
    yield store
    await store.close()


def game(table_id: str, at: float, private: bool = False) -> GameEntry:
    """A finished game of Ann (who won) and Bob."""
    seats = tuple(
        SeatEntry(seat, pid, pid.title(), None, seat == 0, seat + 1, 0, 0, 0, 0, None)
        for seat, pid in enumerate(("ann", "bob"))
    )
    return GameEntry(table_id, "draw", 50, private, None, "rules", 0, 1, at - 5, at, seats)


async def test_a_page_of_games_says_where_the_next_one_starts(store: Store) -> None:
    for n in (1, 2, 3, 4):
        await store.history.add(game(f"t{n}", float(n), private=n == 4))
    service = StoreAccounts(store)
    first = await service.games_page("ann", before=None, limit=2, viewer="cid")
    assert [g.table_id for g in first.games] == ["t3", "t2"]  # t4 is private to its players
    assert first.next == (2.0, "t2")
    last = await service.games_page("ann", before=first.next, limit=2, viewer="cid")
    assert [g.table_id for g in last.games] == ["t1"] and last.next is None
    whole = await service.games_page("ann", before=None, limit=4, viewer="bob")
    assert [g.table_id for g in whole.games] == ["t4", "t3", "t2", "t1"] and whole.next is None


async def test_every_game_of_a_player_is_read_page_by_page(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(accounts, "EXPORT_PAGE", 2)
    for n in range(1, 6):
        await store.history.add(game(f"t{n}", float(n), private=n % 2 == 0))
    games = await StoreAccounts(store).every_game_of("bob")
    assert [g.table_id for g in games] == ["t5", "t4", "t3", "t2", "t1"]  # private ones too


async def test_a_players_ratings_come_with_their_history(store: Store) -> None:
    for n, places in ((1, [1, 2]), (2, [2, 1])):
        await store.add_table(f"t{n}", n * 100.0)
        rated = rated_game(POOLS["draw"], Speed.REAL_TIME, ["ann", "bob"], places)
        await store.finish_table(f"t{n}", n * 100.0 + 50, RECORD, rated)
    [(rating, history)] = await StoreAccounts(store).ratings_of("ann")
    assert (rating.pool, rating.speed, rating.games) == ("draw", "real-time", 2)
    assert [(c.table_id, c.place) for c in history] == [("t1", 1), ("t2", 2)]
    assert history[-1].mu_after == rating.mu
    assert await StoreAccounts(store).ratings_of("cid") == []
