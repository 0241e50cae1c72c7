"""Leases with fencing tokens: a held lease is refused to others, an expired or released one is
taken with a larger token, renewal tells the leases lost, the live tables nobody holds are
listed, job claims work alike, and two processes racing for one lease leave exactly one owner.

Times are explicit numbers (no wall clock): a lease taken at 0 for 10 is held until 10.
"""

from __future__ import annotations

import asyncio

import pytest

from dominohall.store import Lease, Store, leases

pytestmark = pytest.mark.anyio
TTL = 10.0


async def test_a_held_lease_is_refused_to_another_owner(store: Store):
    a = await store.table_leases.acquire("t1", "a", 0.0, TTL)
    assert a == Lease("t1", "a", 1, 10.0)
    assert await store.table_leases.acquire("t1", "b", 9.9, TTL) is None
    assert await store.table_leases.holder("t1") == a
    assert await store.table_leases.holder("t2") is None  # never leased


async def test_an_expired_lease_goes_to_the_next_owner_with_a_larger_token(store: Store):
    a = await store.table_leases.acquire("t1", "a", 0.0, TTL)
    b = await store.table_leases.acquire("t1", "b", 10.0, TTL)  # a's expired at 10
    assert a is not None and b is not None and b.token > a.token
    assert await store.table_leases.acquire("t1", "a", 15.0, TTL) is None
    again = await store.table_leases.acquire("t1", "a", 20.0, TTL)  # b's expired too
    assert again is not None and again.token > b.token


async def test_an_owner_asking_again_gets_a_new_token_and_its_old_one_is_lost(store: Store):
    # A restarted process that kept its name takes its table back without waiting for the
    # expiry; what its earlier life still held is no longer good.
    first = await store.table_leases.acquire("t1", "a", 0.0, TTL)
    second = await store.table_leases.acquire("t1", "a", 1.0, TTL)
    assert first is not None and second is not None and second.token > first.token
    assert await store.table_leases.renew([first, second], 2.0, TTL) == [first]


async def test_a_released_lease_is_free_at_once_and_its_token_never_given_again(store: Store):
    a = await store.table_leases.acquire("t1", "a", 0.0, TTL)
    assert a is not None
    assert await store.table_leases.release(a)
    assert not await store.table_leases.release(a)  # once
    assert await store.table_leases.holder("t1") is None
    b = await store.table_leases.acquire("t1", "b", 1.0, TTL)  # long before a's expiry
    assert b is not None and b.token > a.token
    assert not await store.table_leases.release(a)  # a's release does not free b's lease
    assert await store.table_leases.holder("t1") == b


async def test_renewal_keeps_what_is_still_held_and_tells_what_was_lost(
    store: Store, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(leases, "RENEW_BATCH", 3)  # several batches out of seven leases
    held = [await store.table_leases.acquire(f"t{i}", "a", 0.0, TTL) for i in range(7)]
    mine = [lease for lease in held if lease is not None]
    assert len(mine) == 7
    # t1 and t5 expire and are taken; t3 expires and nobody takes it (still a's: nobody else
    # could have written under another token); t6 is released.
    taken = [await store.table_leases.acquire(f"t{i}", "b", 10.0, TTL) for i in (1, 5)]
    assert await store.table_leases.release(mine[6])
    lost = await store.table_leases.renew(mine, 12.0, TTL)
    assert [lease.name for lease in lost] == ["t1", "t5", "t6"]
    for i in (0, 2, 3, 4):
        assert await store.table_leases.holder(f"t{i}") == Lease(f"t{i}", "a", 1, 22.0)
    assert await store.table_leases.acquire("t0", "b", 21.0, TTL) is None  # renewed to 22
    assert [await store.table_leases.holder(f"t{i}") for i in (1, 5)] == taken  # untouched
    assert await store.table_leases.renew([], 12.0, TTL) == []


async def test_the_claimable_tables_are_the_live_ones_nobody_holds(store: Store):
    for i in range(6):
        await store.add_table(f"t{i}", float(i))  # t0 is the oldest
    await store.finish_table("t5", 5.0, None)  # finished: nobody needs it
    await store.table_leases.acquire("t0", "a", 0.0, TTL)  # held until 10
    await store.table_leases.acquire("t1", "a", 0.0, 5.0)  # expired at 5
    released = await store.table_leases.acquire("t2", "a", 0.0, TTL)
    assert released is not None and await store.table_leases.release(released)
    await store.job_leases.acquire("t3", "a", 0.0, TTL)  # a job's name is not a table's
    assert await store.table_leases.claimable(6.0, 100) == ["t1", "t2", "t3", "t4"]
    assert await store.table_leases.claimable(6.0, 2) == ["t1", "t2"]
    assert await store.table_leases.claimable(10.0, 100) == ["t0", "t1", "t2", "t3", "t4"]


async def test_a_job_is_claimed_by_one_owner_until_released_or_expired(store: Store):
    jobs = store.job_leases
    mail = await jobs.acquire("email-notices", "a", 0.0, TTL)
    assert mail is not None
    assert await jobs.acquire("email-notices", "b", 5.0, TTL) is None
    index = await jobs.acquire("games-index", "b", 5.0, TTL)  # another job: its own claim
    assert index is not None
    assert await jobs.renew([mail], 9.0, TTL) == []  # held until 19 now
    assert await jobs.acquire("email-notices", "b", 15.0, TTL) is None
    after = await jobs.acquire("email-notices", "b", 19.0, TTL)  # a died: b runs the job
    assert after is not None and after.token > mail.token
    assert await jobs.renew([mail], 20.0, TTL) == [mail]
    assert await jobs.release(after)
    again = await jobs.acquire("email-notices", "a", 21.0, TTL)
    assert again is not None and again.token > after.token
    # The tables' leases are apart: a table with the job's name is free.
    assert await store.table_leases.acquire("email-notices", "c", 21.0, TTL) is not None


async def test_of_two_processes_racing_for_each_lease_exactly_one_wins(store: Store, other: Store):
    # Two engines, so two connections really racing (on PostgreSQL, each of the pair's
    # statements runs while the other's transaction is open); new rows and taken-over ones.
    names = [f"t{i}" for i in range(20)]
    for round_, now in enumerate((0.0, 10.0, 20.0)):  # each round after the last one expired
        results = await asyncio.gather(
            *(
                process.table_leases.acquire(name, owner, now, TTL)
                for name in names
                for process, owner in ((store, "a"), (other, "b"))
            )
        )
        for name, pair in zip(names, zip(results[::2], results[1::2], strict=True), strict=True):
            won = [lease for lease in pair if lease is not None]
            assert len(won) == 1, (name, pair)
            assert won[0].token == round_ + 1  # one token given out per round
            assert await store.table_leases.holder(name) == won[0]


async def test_of_two_processes_racing_for_a_job_exactly_one_runs_it(store: Store, other: Store):
    # Ten owners (five on each engine), each asking once.
    claims = await asyncio.gather(
        *(
            process.job_leases.acquire("pairing", f"{owner}{i}", 0.0, TTL)
            for i in range(5)
            for process, owner in ((store, "a"), (other, "b"))
        )
    )
    won = [claim for claim in claims if claim is not None]
    assert len(won) == 1
    assert await store.job_leases.holder("pairing") == won[0]
