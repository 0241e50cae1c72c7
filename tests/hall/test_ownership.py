"""Two processes' leases on one database: claimed, renewed, lost to the other, given up."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from dominohall.hall import ManualClock
from dominohall.hall import ownership as ownership_module
from dominohall.hall.ownership import Ownership, new_process_id
from dominohall.store import Store

pytestmark = pytest.mark.anyio
LEASE = 30.0


class Tables:
    """A hall's side (``Adopter``): the tables it was given and the ones it let go."""

    def __init__(self, failing: frozenset[str] = frozenset()) -> None:
        self.adopted: list[tuple[str, float | None]] = []
        self.let: list[str] = []
        self.failing = failing

    async def adopt(self, table_id: str, since: float | None) -> None:
        if table_id in self.failing:
            raise RuntimeError(f"table {table_id} cannot be loaded")
        self.adopted.append((table_id, since))

    def let_go(self, table_id: str) -> None:
        self.let.append(table_id)


class Process:
    """One process's ownership on its own connection to the database."""

    def __init__(self, store: Store, name: str, clock: ManualClock, tables: Tables) -> None:
        self.store = store
        self.tables = tables
        self.ownership = Ownership(store.table_leases, clock, process_id=name, lease_seconds=LEASE)
        self.ownership.adopter = tables


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def stores(database_url: str) -> AsyncIterator[tuple[Store, Store]]:
    one, two = await Store.open(database_url), await Store.open(database_url)
    try:
        for i in range(3):
            await one.add_table(f"t{i}", float(i))
        yield one, two
    finally:
        await one.close()
        await two.close()


def two_processes(
    stores: tuple[Store, Store], clock: ManualClock, failing: frozenset[str] = frozenset()
) -> tuple[Process, Process]:
    return Process(stores[0], "a", clock, Tables()), Process(stores[1], "b", clock, Tables(failing))


async def test_a_table_is_held_by_one_process_at_a_time(
    stores: tuple[Store, Store], clock: ManualClock
) -> None:
    a, b = two_processes(stores, clock)
    assert await a.ownership.acquire("t0")
    assert not await b.ownership.acquire("t0")
    assert a.ownership.holds("t0") and not b.ownership.holds("t0")
    lease = await a.store.table_leases.holder("t0")
    assert lease is not None and lease.owner == "a"
    assert a.ownership.token("t0") == lease.token and b.ownership.token("t0") is None
    # Asked to take over a table it holds, a keeps its token: a new one would fence its writes.
    assert await a.ownership.take_over("t0")
    assert a.ownership.token("t0") == lease.token and a.tables.adopted == []


async def test_the_live_tables_nobody_holds_are_taken_over_and_resumed(
    stores: tuple[Store, Store], clock: ManualClock
) -> None:
    a, b = two_processes(stores, clock)
    await a.store.finish_table("t2", 2.0, None)  # finished: nobody plays it again
    await b.ownership.acquire("t1")
    await a.ownership.tick()
    assert set(a.ownership.held) == {"t0"}
    assert a.tables.adopted == [("t0", None)]  # never held before: no time to give back
    await a.ownership.tick()  # held already: not taken again
    assert a.tables.adopted == [("t0", None)]


async def test_renewal_keeps_the_tables_past_the_first_lease(
    stores: tuple[Store, Store], clock: ManualClock
) -> None:
    a, b = two_processes(stores, clock)
    await a.ownership.acquire("t0")
    await clock.advance(LEASE - 1)
    await a.ownership.tick()
    assert a.ownership.held["t0"].expires_at == clock.now() + LEASE
    await clock.advance(LEASE - 1)  # past the first lease, within the renewed one
    await b.ownership.tick()
    assert "t0" not in b.ownership.held and ("t0", None) not in b.tables.adopted
    assert not await b.ownership.take_over("t0")
    assert a.ownership.holds("t0") and a.tables.let == []


async def test_a_process_that_stops_renewing_loses_its_tables_to_the_other(
    stores: tuple[Store, Store], clock: ManualClock
) -> None:
    a, b = two_processes(stores, clock)
    await a.ownership.tick()  # a takes the three live tables
    old = a.ownership.token("t0")
    await clock.advance(10)
    await a.ownership.tick()  # a's last renewal
    renewed = clock.now()
    await clock.advance(LEASE + 1)  # a paused past its lease
    await b.ownership.tick()
    assert set(b.ownership.held) == {"t0", "t1", "t2"}
    # The time since a's last renewal is given back (nobody played the tables meanwhile).
    assert sorted(b.tables.adopted) == [("t0", renewed), ("t1", renewed), ("t2", renewed)]
    new = b.ownership.token("t0")
    assert old is not None and new is not None and new > old
    # a wakes up: its renewal finds the leases taken, and it lets the tables go.
    await a.ownership.tick()
    assert a.ownership.held == {} and sorted(a.tables.let) == ["t0", "t1", "t2"]
    assert a.ownership.token("t0") is None
    a.ownership.lost("t0")  # told again (a fenced commit): nothing more to let go
    assert len(a.tables.let) == 3


async def test_a_clean_stop_gives_the_tables_up_at_once(
    stores: tuple[Store, Store], clock: ManualClock
) -> None:
    a, b = two_processes(stores, clock)
    await a.ownership.tick()
    assert set(a.ownership.held) == {"t0", "t1", "t2"}
    await a.ownership.stop(release=True)
    assert a.ownership.held == {}
    await b.ownership.tick()  # no time passed
    assert set(b.ownership.held) == {"t0", "t1", "t2"}


async def test_a_stop_that_keeps_the_leases_leaves_the_tables_until_they_expire(
    stores: tuple[Store, Store], clock: ManualClock
) -> None:
    a, b = two_processes(stores, clock)
    await a.ownership.tick()
    await a.ownership.stop(release=False)  # as after kill -9
    await b.ownership.tick()
    assert b.ownership.held == {}
    await clock.advance(LEASE)
    await b.ownership.tick()
    assert set(b.ownership.held) == {"t0", "t1", "t2"}


async def test_a_table_that_cannot_be_resumed_is_given_up_and_the_others_taken(
    stores: tuple[Store, Store], clock: ManualClock
) -> None:
    a, b = two_processes(stores, clock, failing=frozenset({"t1"}))
    with pytest.raises(RuntimeError, match="table t1 cannot be loaded"):
        await b.ownership.take_over("t1")
    assert not b.ownership.holds("t1")
    assert await b.store.table_leases.holder("t1") is None  # released, not left to expire
    await b.ownership.tick()  # one failure stops no other table
    assert set(b.ownership.held) == {"t0", "t2"}
    assert await a.ownership.take_over("t1")  # at once, by the other process
    assert a.tables.adopted == [("t1", clock.now())]  # b took it last, just now


async def test_a_round_takes_over_a_batch_of_tables_at_most(
    stores: tuple[Store, Store], clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ownership_module, "TAKE_BATCH", 2)
    a, _ = two_processes(stores, clock)
    await a.ownership.tick()
    assert len(a.ownership.held) == 2
    await a.ownership.tick()
    assert len(a.ownership.held) == 3


def test_each_start_of_a_process_has_a_name_of_its_own() -> None:
    names = {new_process_id() for _ in range(20)}
    assert len(names) == 20
    assert all(f"-{os.getpid()}-" in name for name in names)
