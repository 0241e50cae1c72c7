"""Deleting an account (``store/deletion.py``) on SQLite and PostgreSQL: its name goes from the
events of its tables' logs that named it (a seat joined, a name an operator reset), another
player's stay."""

from __future__ import annotations

import pytest

from dominohall.store import Store
from dominohall.store.deletion import ANONYMOUS, delete_account
from dominohall.store.store import StoredPlayer

pytestmark = pytest.mark.anyio


async def test_a_deleted_accounts_names_leave_its_tables_logs(store: Store) -> None:
    await store.add_player(StoredPlayer("p_ann", "Ann", "ann", "hash"))
    await store.add_table("t1", 1.0)
    for player in ("p_ann", "p_bob"):
        await store.add_seat(player, "t1")
    bodies = [
        {"kind": "joined", "seat": 0, "player": "p_ann", "name": "Ann"},
        {"kind": "joined", "seat": 1, "player": "p_bob", "name": "Bob"},
        {"kind": "renamed", "seat": 0, "player": "p_ann", "name": "Player 7"},
        {"kind": "renamed", "seat": 1, "player": "p_bob", "name": "Player 8"},
    ]
    await store.append("t1", 1, bodies, 2.0)
    await delete_account(store.engine, "p_ann")
    names = [body["name"] for _, _, body in await store.events("t1")]
    assert names == [ANONYMOUS, "Bob", ANONYMOUS, "Player 8"]
