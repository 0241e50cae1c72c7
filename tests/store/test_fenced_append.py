"""Appends fenced by a lease's token: a process that lost a table's lease writes nothing for it
(the moves' writer and a game's end alike), the new owner writes on, each event keeps the token
it was committed under, and a take-over racing the old owner's writes never interleaves them.
Without a token an append is as it always was."""

from __future__ import annotations

import asyncio

import pytest

from dominohall.store import Conflict, Fenced, Finish, Lease, Store

pytestmark = pytest.mark.anyio
TTL = 10.0
RECORD = {"format": "dominohall-record/1"}


async def lease(store: Store, table_id: str, owner: str, now: float) -> Lease:
    taken = await store.table_leases.acquire(table_id, owner, now, TTL)
    assert taken is not None
    return taken


async def test_a_lost_lease_writes_nothing_and_the_new_owner_writes_on(store: Store):
    await store.add_table("t", 0.0)
    a = await lease(store, "t", "a", 0.0)
    await store.append("t", 1, [{"kind": "a1"}, {"kind": "a2"}], 1.0, token=a.token)
    b = await lease(store, "t", "b", 10.0)  # a's lease ran out (a paused, or cut off)
    with pytest.raises(Fenced, match="table t"):
        await store.append("t", 3, [{"kind": "a3"}], 11.0, token=a.token)
    with pytest.raises(Fenced):  # a game's end goes the same way
        await store.append("t", 3, [{"kind": "end"}], 11.0, Finish(RECORD), token=a.token)
    assert [v for v, _, _ in await store.events("t")] == [1, 2]
    assert await store.table_finished("t") is False and await store.record("t") is None
    await store.append("t", 3, [{"kind": "b3"}], 12.0, token=b.token)
    await store.append("t", 4, [{"kind": "end"}], 13.0, Finish(RECORD), token=b.token)
    assert await store.table_finished("t") is True and await store.record("t") == RECORD
    assert await store.table_leases.tokens("t") == [
        (1, a.token),
        (2, a.token),
        (3, b.token),
        (4, b.token),
    ]


async def test_without_a_token_an_append_ignores_leases(store: Store):
    await store.add_table("t", 0.0)
    await store.append("t", 1, [{"kind": "x"}], 1.0)  # never leased: a single process
    await lease(store, "t", "a", 0.0)
    await store.append("t", 2, [{"kind": "y"}], 2.0)
    await store.append("t", 3, [{"kind": "end"}], 3.0, Finish(None))
    assert await store.table_leases.tokens("t") == [(1, None), (2, None), (3, None)]
    with pytest.raises(Conflict):  # the version check is as it was
        await store.append("t", 3, [{"kind": "again"}], 4.0)


async def test_a_token_the_table_never_had_or_gave_up_writes_nothing(store: Store):
    with pytest.raises(Fenced):  # never leased
        await store.append("t", 1, [{"kind": "x"}], 1.0, token=1)
    a = await lease(store, "t", "a", 0.0)
    await store.append("t", 1, [{"kind": "x"}], 1.0, token=a.token)
    assert await store.table_leases.release(a)
    with pytest.raises(Fenced):  # released: its owner let it go
        await store.append("t", 2, [{"kind": "y"}], 2.0, token=a.token)
    with pytest.raises(Fenced):  # a lease of a job by the table's name is not the table's
        job = await store.job_leases.acquire("t", "a", 3.0, TTL)
        assert job is not None
        await store.append("t", 2, [{"kind": "y"}], 3.0, token=job.token)
    assert [v for v, _, _ in await store.events("t")] == [1]


async def test_of_writes_made_at_once_only_the_fenced_ones_are_refused(store: Store):
    # Given together, they may share the writer's batch: a fenced job, or one that lost its
    # version, must not take the others down with it.
    tokens = {t: (await lease(store, t, "a", 0.0)).token for t in ("t1", "t2", "t3")}
    await lease(store, "t2", "b", 10.0)  # t2 lost
    await store.append("t3", 1, [{"kind": "x"}], 1.0)
    results = await asyncio.gather(
        store.append("t1", 1, [{"kind": "ok"}], 11.0, token=tokens["t1"]),
        store.append("t2", 1, [{"kind": "fenced"}], 11.0, token=tokens["t2"]),
        store.append("t3", 1, [{"kind": "taken"}], 11.0, token=tokens["t3"]),
        store.append("t3", 2, [{"kind": "ok"}], 11.0, token=tokens["t3"]),
        store.append("t4", 1, [{"kind": "no lease"}], 11.0),
        return_exceptions=True,
    )
    assert results[0] is None and results[3] is None and results[4] is None
    assert isinstance(results[1], Fenced) and isinstance(results[2], Conflict)
    assert await store.events("t2") == []
    assert [body["kind"] for _, _, body in await store.events("t3")] == ["x", "ok"]


async def test_a_take_over_racing_the_old_owners_writes_never_interleaves(
    store: Store, other: Store
):
    # The old owner (``store``) writes one event after another under its token; meanwhile the
    # new owner (``other``, another engine) takes the lease, reads the log and writes the next
    # version. Every old write either committed before the take-over (and the new owner saw
    # it) or was fenced: the new owner's write is never refused as stale, and by version the
    # tokens never go down.
    for table in ("t1", "t2", "t3"):
        await store.add_table(table, 0.0)
        old = await lease(store, table, "a", 0.0)
        refused, new = await race(store, other, table, old)
        assert isinstance(refused, Fenced)
        tokens = [token for _, token in await store.table_leases.tokens(table)]
        assert tokens == [old.token] * (len(tokens) - 1) + [new.token]


async def race(store: Store, other: Store, table: str, old: Lease) -> tuple[Exception, Lease]:
    """The old owner's writes until refused, and the new owner's take-over, at once."""
    written = 0

    async def old_owner() -> Exception:
        nonlocal written
        while True:
            try:
                await store.append(table, written + 1, [{"kind": "old"}], 1.0, token=old.token)
            except (Fenced, Conflict) as refused:
                return refused
            written += 1

    async def new_owner() -> Lease:
        while written < 5:  # the take-over comes while the old owner is writing
            await asyncio.sleep(0)
        new = await lease(other, table, "b", 20.0)
        version = len(await other.events(table))
        await other.append(table, version + 1, [{"kind": "new"}], 21.0, token=new.token)
        return new

    refused, new = await asyncio.gather(old_owner(), new_owner())
    return refused, new


async def test_renewing_while_writing_holds_up_neither(store: Store):
    # A process renews all its leases while its writer commits a batch for many of the same
    # tables: both lock the lease rows (the writer to read the tokens, the renewal to change
    # them), in the same order, so neither fails on a deadlock.
    tables = [f"t{i:02}" for i in range(40)]
    mine = [await lease(store, table, "a", 0.0) for table in tables]
    for version in range(1, 4):
        await asyncio.gather(
            store.table_leases.renew(reversed(mine), float(version), TTL),
            *(
                store.append(held.name, version, [{"kind": "x"}], 1.0, token=held.token)
                for held in mine
            ),
        )
    assert await store.table_leases.renew(mine, 5.0, TTL) == []
    for table in tables:
        assert [v for v, _ in await store.table_leases.tokens(table)] == [1, 2, 3]
