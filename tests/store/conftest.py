"""A store on the test's database (SQLite or PostgreSQL: the ``database_url`` fixture), and a
second one on the same database as another process would open it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from dominohall.store import Store


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(database_url)
    yield store
    await store.close()


@pytest.fixture
async def other(database_url: str, store: Store) -> AsyncIterator[Store]:
    """A second process's store: its own engine (its own connections) on the same database."""
    other = await Store.open(database_url)
    yield other
    await other.close()
