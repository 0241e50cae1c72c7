"""Games walked away from, stored on SQLite and PostgreSQL: a table counted once, a standing
changed by the rule it is given, games finished toward forgiveness."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from dominohall.store import Store
from dominohall.store.abandonment import Standing

pytestmark = pytest.mark.anyio


def one_more(standing: Standing, at: float) -> Standing:
    return Standing(standing.strikes + 1, at, at + 10 * (standing.strikes + 1), 0)


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(database_url)
    yield store
    await store.close()


async def test_a_table_is_abandoned_once_and_the_standing_is_kept(store: Store) -> None:
    kept = store.abandonments
    assert await kept.standing("ann") == Standing()
    first = await kept.strike("ann", "t1", "left", 100.0, one_more)
    assert first == Standing(1, 100.0, 110.0, 0)
    assert await kept.strike("ann", "t1", "disconnected", 105.0, one_more) is None  # counted
    second = await kept.strike("ann", "t2", "timeout", 200.0, one_more)
    assert second == Standing(2, 200.0, 220.0, 0)
    await kept.finished(["ann", "bob"])  # (Bob has no standing: nothing to count toward)
    await kept.finished(["ann"])
    assert await kept.standing("ann") == Standing(2, 200.0, 220.0, 2)
    assert await kept.standing("bob") == Standing()
