"""The event log's writers: a batch commits together, a version taken twice is refused to the
one who came second only, a write whose lease moved on is fenced off alone, no write is
acknowledged before its batch is committed, and what fails is told to whoever waits (a batch
that fails acknowledges none of its writes). On SQLite's thread writer, the task writer (on a
SQLite database in memory) and PostgreSQL's (one statement straight on asyncpg)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from typing import Any

import pytest
from sqlalchemy import select, text

from dominohall.store import Conflict, Fenced, Store, event_writer, schema
from dominohall.store.errors import StoreClosed, StoreUnavailable
from dominohall.store.event_writer import Job, write_batch

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["thread", "task"])
def url(request, tmp_path) -> str:
    # The thread writer serves a SQLite file; the task writer every other database, as here a
    # SQLite database in memory (which a second connection could not see).
    if request.param == "thread":
        return f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    return "sqlite+aiosqlite:///:memory:"


@pytest.fixture(params=["thread", "task", "postgresql"])
def every_writer(request, tmp_path) -> str:
    """``url``, and PostgreSQL, where the task writer writes straight on asyncpg."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("postgres_database"))
    if request.param == "thread":
        return f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    return "sqlite+aiosqlite:///:memory:"


async def _tokens(store: Store) -> list[tuple[str, int, int | None]]:
    """Every event's table, version and the token it was committed under."""
    e = schema.events.c
    async with store.engine.connect() as conn:
        rows = await conn.execute(select(e.table_id, e.version, e.token).order_by(e.table_id))
        return [(t, v, token) for t, v, token in rows]


async def test_moves_made_at_once_are_all_committed(url):
    store = await Store.open(url)
    try:
        await asyncio.gather(
            *(store.append(f"t{i}", 1, [{"kind": "n", "i": i}], 1.0) for i in range(50))
        )
        await store.append("t7", 2, [{"kind": "a"}, {"kind": "b"}], 2.0)
        assert [v for v, _, _ in await store.events("t7")] == [1, 2, 3]
        assert (await store.events("t7"))[2][2] == {"kind": "b"}
    finally:
        await store.close()


async def test_a_version_taken_twice_is_refused_only_to_the_second(every_writer):
    store = await Store.open(every_writer)
    try:
        await store.append("t1", 1, [{"kind": "first"}], 1.0)
        # Asked together (the task writer takes them in one batch; the thread writer may take
        # them in one or more): a good write, a version already there, another good one.
        results = await asyncio.gather(
            store.append("t2", 1, [{"kind": "x"}], 1.0),
            store.append("t1", 1, [{"kind": "again"}], 1.0),
            store.append("t1", 2, [{"kind": "next"}], 1.0),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], Conflict)
        assert [body for _, _, body in await store.events("t1")] == [
            {"kind": "first"},
            {"kind": "next"},
        ]
        assert len(await store.events("t2")) == 1
    finally:
        await store.close()


async def test_a_write_that_cannot_be_made_is_told_to_its_caller(tmp_path):
    path = tmp_path / "hall.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("DROP TABLE events")  # a broken database: nowhere to write
        other.close()
        with pytest.raises(sqlite3.OperationalError, match="events"):
            await store.append("t1", 1, [{"kind": "n"}], 1.0)
    finally:
        await store.close()


async def test_a_batch_with_a_conflict_commits_the_others_and_refuses_that_one(tmp_path):
    # The thread writer's batch, taken whole: its fallback to one transaction a job must keep
    # the good jobs and refuse only the one that lost its version.
    path = tmp_path / "hall.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    await store.append("t1", 1, [{"kind": "first"}], 1.0)
    await store.close()
    loop = asyncio.get_running_loop()

    def job(table_id: str, version: int) -> Job:
        return Job(table_id, [(table_id, version, 2.0, '{"kind": "n"}')], loop.create_future())

    connection = sqlite3.connect(path, isolation_level=None)
    try:
        outcomes = write_batch(connection, [job("t2", 1), job("t1", 1), job("t1", 2)])
        rows = connection.execute("SELECT table_id, version FROM events ORDER BY 1, 2").fetchall()
    finally:
        connection.close()
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], Conflict) and "t1" in str(outcomes[1])
    assert rows == [("t1", 1), ("t1", 2), ("t2", 1)]


async def test_a_batch_with_a_fenced_job_commits_the_others_and_refuses_that_one(tmp_path):
    # The thread writer's batch, taken whole: a job whose table's lease has a newer token is
    # refused (nothing of it written), the others go in, each with the token it came with.
    path = tmp_path / "hall.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    old = await store.table_leases.acquire("t1", "a", 0.0, 10.0)
    mine = await store.table_leases.acquire("t2", "a", 0.0, 10.0)
    await store.table_leases.acquire("t1", "b", 10.0, 10.0)
    await store.close()
    assert old is not None and mine is not None
    loop = asyncio.get_running_loop()

    def job(table_id: str, token: int | None) -> Job:
        rows = [(table_id, 1, 2.0, '{"kind": "n"}')]
        return Job(table_id, rows, loop.create_future(), token)

    connection = sqlite3.connect(path, isolation_level=None)
    try:
        outcomes = write_batch(connection, [job("t1", old.token), job("t2", mine.token)])
        outcomes += write_batch(connection, [job("t3", None), job("t1", old.token)])
        rows = connection.execute("SELECT table_id, token FROM events ORDER BY 1").fetchall()
    finally:
        connection.close()
    assert isinstance(outcomes[0], Fenced) and isinstance(outcomes[3], Fenced)
    assert outcomes[1] is None and outcomes[2] is None
    assert rows == [("t2", mine.token), ("t3", None)]


async def test_closing_writes_what_was_queued_and_refuses_what_comes_after(url):
    # A caller left waiting for a write that never comes would hang the hall's shutdown.
    store = await Store.open(url)
    queued = store.start_append("t1", 1, [{"kind": "queued"}], 1.0)  # submitted, not yet done
    await store._writer.close()
    await queued
    with pytest.raises(StoreClosed, match="closed"):
        await asyncio.wait_for(store.append("t1", 2, [{"kind": "late"}], 2.0), 5)
    assert [body for _, _, body in await store.events("t1")] == [{"kind": "queued"}]
    await store.engine.dispose()


async def test_a_batch_writes_what_its_leases_allow_and_fences_off_the_rest(database_url):
    # Asked at once (one batch on PostgreSQL, where the leases are read in the statement that
    # writes): a table whose lease moved on is refused, the others committed with their tokens.
    store = await Store.open(database_url)
    try:
        leases = store.table_leases
        old = await leases.acquire("t1", "a", 0.0, 10.0)
        mine = await leases.acquire("t2", "a", 0.0, 10.0)
        assert old is not None and mine is not None
        newer = await leases.acquire("t1", "b", 10.0, 10.0)  # t1 taken over
        assert newer is not None and newer.token > old.token
        results = await asyncio.gather(
            store.append("t1", 1, [{"kind": "late"}], 11.0, token=old.token),
            store.append("t2", 1, [{"kind": "a"}, {"kind": "b"}], 11.0, token=mine.token),
            store.append("t3", 1, [{"kind": "one process"}], 11.0),
            store.append("t1", 1, [{"kind": "owner"}], 11.0, token=newer.token),
            return_exceptions=True,
        )
        assert isinstance(results[0], Fenced) and "t1" in str(results[0])
        assert results[1:] == [None, None, None]
        assert await _tokens(store) == [
            ("t1", 1, newer.token),
            ("t2", 1, mine.token),
            ("t2", 2, mine.token),
            ("t3", 1, None),
        ]
    finally:
        await store.close()


async def test_a_batch_on_postgresql_reads_only_its_own_tables_leases(postgres_database):
    # The plan PostgreSQL keeps for a prepared statement (its generic plan, used after a few
    # runs) looks each lease up by its key: no scan of every table's lease at every batch.
    store = await Store.open(postgres_database)
    try:
        for n in range(300):
            await store.table_leases.acquire(f"t{n}", "a", 0.0, 10.0)
        async with store.engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
            assert driver is not None
            await driver.execute("SET plan_cache_mode = force_generic_plan")
            types = "varchar, varchar[], varchar[], int[], float8[], text[], bigint[]"
            await driver.execute(f"PREPARE batch ({types}) AS {event_writer._INSERT_FENCED}")
            args = "'table', ARRAY['t7', 't3'], ARRAY['t7'], ARRAY[1], ARRAY[1.0], ARRAY['{}'], ARRAY[1]"
            plan = await driver.fetchval(f"EXPLAIN (FORMAT JSON) EXECUTE batch({args})")
            await driver.execute("DEALLOCATE batch; RESET plan_cache_mode")
        explained = json.loads(plan) if isinstance(plan, str) else plan  # (the pool decodes JSON)
        scans = _scans_of(explained[0]["Plan"], "leases")
        assert scans and all(s["Node Type"] == "Index Scan" for s in scans), scans
        assert all("name" in s["Index Cond"] for s in scans), scans  # (not the kind alone)
    finally:
        await store.close()


def _scans_of(node: dict[str, Any], relation: str) -> list[dict[str, Any]]:
    """The plan's nodes that read ``relation``."""
    found = [node] if node.get("Relation Name") == relation else []
    for child in node.get("Plans", []):
        found += _scans_of(child, relation)
    return found


async def test_no_write_is_acknowledged_before_it_is_committed(database_url):
    # Another transaction holds the table's lease row (PostgreSQL: its row lock; SQLite: the
    # write lock): the write can be neither committed nor acknowledged until that one ends.
    store = await Store.open(database_url)
    other = await Store.open(database_url)
    try:
        lease = await store.table_leases.acquire("t1", "a", 0.0, 10.0)
        assert lease is not None
        async with other.engine.connect() as holder:
            await holder.execute(
                text("UPDATE leases SET expires_at = 20.0 WHERE name = 't1'")
            )  # (a transaction begun, not ended)
            write = store.start_append("t1", 1, [{"kind": "n"}], 1.0, token=lease.token)
            await asyncio.sleep(0.3)  # time enough to commit, were it not held up
            assert not write.done()
            await holder.commit()
        await write
        assert await _tokens(other) == [("t1", 1, lease.token)]
    finally:
        await other.close()
        await store.close()


@pytest.fixture(params=["task", "postgresql"])
def task_url(request) -> str:
    """The task writer's databases: writes asked in one go of the event loop are one batch
    (the thread writer may split them: its batches are tested through ``write_batch``)."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("postgres_database"))
    return "sqlite+aiosqlite:///:memory:"


async def test_a_batch_that_fails_acknowledges_none_of_its_writes(task_url):
    # Three writes asked at once, one of which cannot be stored (a version past any integer
    # column): nothing of the batch is committed, and each caller is told so.
    store = await Store.open(task_url)
    try:
        writes = [
            store.start_append("t1", 1, [{"kind": "n"}], 1.0),
            store.start_append("t2", 2**70, [{"kind": "n"}], 1.0),
            store.start_append("t3", 1, [{"kind": "n"}], 1.0),
        ]
        results = await asyncio.gather(*writes, return_exceptions=True)
        assert all(isinstance(r, Exception) for r in results), results
        assert await _tokens(store) == []
    finally:
        await store.close()


async def test_the_postgresql_writer_keeps_one_connection_and_gives_it_back_when_closed(
    postgres_database,
):
    store = await Store.open(postgres_database)
    try:
        for i in range(3):  # three batches, one after the other
            await store.append(f"t{i}", 1, [{"kind": "n"}], 1.0)
        assert store.engine.pool.checkedout() == 1  # the writer's, kept between them
        await store._writer.close()
        assert store.engine.pool.checkedout() == 0
    finally:
        await store.close()


async def test_the_postgresql_writer_plans_its_statement_once_and_gives_back_a_usual_connection(
    postgres_database,
):
    # Left to choose, PostgreSQL made a custom plan for every batch (its first five always);
    # the writer's connection uses the generic plan from the first. Given back to the pool, the
    # connection plans as any other.
    store = await Store.open(postgres_database)
    try:
        for i in range(8):
            await store.append(f"t{i}", 1, [{"kind": "n"}], 1.0)
        plans = await store._writer._driver.fetch(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements "
            "WHERE ltrim(statement, E' \\n') LIKE 'WITH held AS%'"  # (the writer's, not this)
        )
        assert [tuple(row) for row in plans] == [(8, 0)]
        await store._writer.close()
        async with store.engine.connect() as conn:
            mode = await conn.execute(text("SHOW plan_cache_mode"))
            assert mode.scalar_one() == "auto"
    finally:
        await store.close()


async def test_the_postgresql_writer_whose_connection_was_cut_writes_on_a_new_one(
    postgres_database,
):
    # The server ended the writer's connection between two batches (an administrator, a
    # restart): the next batch is refused as the database being away, none of it written, and
    # the one after goes through on a connection of its own.
    store = await Store.open(postgres_database)
    try:
        await store.append("t1", 1, [{"kind": "n"}], 1.0)
        async with store.engine.connect() as conn:
            ended = await conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            )
            assert [row[0] for row in ended] == [True]  # (the writer's: the only other one)
        with pytest.raises(StoreUnavailable, match="cannot be reached"):
            await store.append("t1", 2, [{"kind": "refused"}], 2.0)
        await store.append("t1", 2, [{"kind": "again"}], 3.0)
        assert [body for _, _, body in await store.events("t1")] == [
            {"kind": "n"},
            {"kind": "again"},
        ]
    finally:
        await store.close()
