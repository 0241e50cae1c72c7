"""Email notices' rows: a new address is not confirmed, a link confirms only the address it was
sent to, the turns emailed are kept by table and kind, and a forgotten guest's address goes."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest

from dominohall.store import Store
from dominohall.store.store import StoredPlayer

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(database_url)
    for pid, name in (("ann", "Ann"), ("bob", "Bob")):
        await store.add_player(StoredPlayer(pid, name, None, None))  # guests
    yield store
    await store.close()


async def test_only_a_confirmed_address_that_wants_notices_is_active(store: Store):
    emails = store.emails
    ann = await emails.set("ann", "ann@example.org", True)
    assert (ann.confirmed, ann.notify, ann.active) == (False, True, False)
    assert await emails.active_players() == []
    assert not await emails.confirm("ann", "other@example.org", 10.0)  # not the address she set
    assert await emails.confirm("ann", "ann@example.org", 10.0)
    assert await emails.active_players() == ["ann"]
    assert (await emails.set("ann", "ann@example.org", False)).confirmed  # same address: kept
    assert await emails.active_players() == []
    moved = await emails.set("ann", "ann@elsewhere.org", True)
    assert not moved.confirmed and moved.confirm_sent_at is None  # a new address: a new link
    assert not await emails.unsubscribe("ann", "ann@example.org")  # the old one is not hers
    assert (await emails.of("ann")).notify is True  # type: ignore[union-attr]


async def test_the_turns_emailed_are_kept_by_table_and_kind(store: Store):
    emails = store.emails
    await emails.set("ann", "ann@example.org", True)
    await emails.sent("ann", 5.0, {("t1", "your_turn"): "7", ("t2", "your_turn"): "3"})
    await emails.sent("ann", 9.0, {("t1", "your_turn"): "12", ("t1", "reminder"): "12"})
    assert await emails.turns_emailed("ann") == {
        ("t1", "your_turn"): "12",
        ("t1", "reminder"): "12",
        ("t2", "your_turn"): "3",
    }
    assert (await emails.of("ann")).last_sent_at == 9.0  # type: ignore[union-attr]
    assert await emails.turns_emailed("bob") == {}


async def test_a_forgotten_guest_takes_their_address_along(store: Store):
    await store.emails.set("ann", "ann@example.org", True)
    await store.emails.sent("ann", 5.0, {("t1", "your_turn"): "7"})
    await store.emails.set("bob", "bob@example.org", True)
    await store.add_table("t9", 1.0)
    await store.add_seat("bob", "t9")  # Bob has a game on: he is kept
    later = time.time() + 100 * 24 * 3600
    assert await store.forget_guests(later, later) == 1
    assert await store.emails.of("ann") is None
    assert await store.emails.turns_emailed("ann") == {}
    assert await store.emails.of("bob") is not None
