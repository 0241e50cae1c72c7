"""Tournaments' rows on SQLite and PostgreSQL: created, read back, listed by status, counted per
creator, and saved only at the version read (one of two racing saves wins)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from dominohall.store import Store
from dominohall.store.tournaments import StoredTournament

pytestmark = pytest.mark.anyio


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(database_url)
    yield store
    await store.close()


def _made(id_: str, creator: str | None, at: float, status: str = "created") -> StoredTournament:
    body = {"arena": {"start": at}, "entrants": ["p_ann"]}
    return StoredTournament(id_, f"Cup {id_}", "arena", creator, at, at + 60, status, True, body, 0)


async def test_a_tournament_is_kept_listed_counted_and_saved_once_per_version(store: Store) -> None:
    kept = store.tournaments
    await kept.create(_made("t1", "p_ann", 100.0))
    await kept.create(_made("t2", "p_ann", 200.0, "running"))
    await kept.create(_made("t3", None, 300.0, "finished"))
    assert await kept.get("t1") == _made("t1", "p_ann", 100.0)
    assert await kept.get("nope") is None
    assert [t.id for t in await kept.of_status("created", "running")] == ["t1", "t2"]
    assert await kept.created_since("p_ann", 150.0) == 1
    assert await kept.created_since("p_ann", 0.0) == 2
    assert await kept.save("t1", 0, "running", {"round": 1})
    assert not await kept.save("t1", 0, "running", {"round": 2})  # a racing save, too late
    again = await kept.get("t1")
    assert again is not None and (again.version, again.status, again.body) == (
        1,
        "running",
        {"round": 1},
    )
