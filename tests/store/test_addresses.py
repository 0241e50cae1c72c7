"""The addresses players signed in from (``store/addresses.py``), on SQLite and PostgreSQL: one
row a player and address, its last sighting moved on; old ones (anyone's) forgotten at the next
sighting and never read; gone with a deleted account."""

from __future__ import annotations

import pytest

from dominohall.store import Store
from dominohall.store.addresses import SeenAddress
from dominohall.store.deletion import delete_account
from dominohall.store.store import StoredPlayer

pytestmark = pytest.mark.anyio


async def test_addresses_kept_for_a_while_then_forgotten(store: Store) -> None:
    kept = store.addresses
    await kept.saw("ann", "203.0.113.5", 100.0, forget_before=0.0)
    await kept.saw("ann", "198.51.100.7", 200.0, forget_before=0.0)
    await kept.saw("ann", "203.0.113.5", 300.0, forget_before=0.0)  # seen again: moved on
    await kept.saw("bob", "192.0.2.1", 150.0, forget_before=0.0)
    assert await kept.of("ann", since=0.0) == [
        SeenAddress("203.0.113.5", 100.0, 300.0),
        SeenAddress("198.51.100.7", 200.0, 200.0),
    ]
    assert await kept.of("ann", since=250.0) == [SeenAddress("203.0.113.5", 100.0, 300.0)]
    # Ann's next sign-in forgets whatever was last seen before 250: Bob's too.
    await kept.saw("ann", "203.0.113.5", 400.0, forget_before=250.0)
    assert await kept.of("ann", since=0.0) == [SeenAddress("203.0.113.5", 100.0, 400.0)]
    assert await kept.of("bob", since=0.0) == []


async def test_a_deleted_accounts_addresses_go(store: Store) -> None:
    await store.add_player(StoredPlayer("ann", "Ann", "ann", "hash"))
    await store.addresses.saw("ann", "203.0.113.5", 100.0, forget_before=0.0)
    await store.addresses.saw("bob", "203.0.113.5", 100.0, forget_before=0.0)
    await delete_account(store.engine, "ann")
    assert await store.addresses.of("ann", since=0.0) == []
    assert len(await store.addresses.of("bob", since=0.0)) == 1
