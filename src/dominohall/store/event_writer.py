"""Who commits the tables' events: whatever moves are waiting go in one transaction (group
commit), and each waiting caller wakes once its move is on disk.

On SQLite (``ThreadWriter``) one thread of its own, with a plain ``sqlite3`` connection, does
the writing: a batch costs one hand-over to the thread and one back to the event loop, and no
SQLAlchemy on the way. A thread and not the event loop, because a commit may wait for the write
lock another connection holds (a game's end being stored), and the loop must not wait with it.
Elsewhere (``TaskWriter``) one task writes through the async engine (on PostgreSQL, on a
connection of the pool that it keeps).

A job that carries a fencing token (``leases.py``) is written only if its table's lease still
carries that token, checked in the transaction that writes it; otherwise it is refused with
``Fenced`` and the rest of its batch goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any, Protocol

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import leases, schema
from .errors import (
    Conflict,
    Fenced,
    StoreClosed,
    StoreUnavailable,
    unavailable_or_not,
    unreachable,
)
from .leases import held_tokens, held_tokens_sqlite3

BATCH = 512  # most event writes committed in one transaction
# How long the task writer waits after a lone write for others to commit with it: each commit
# costs PostgreSQL a WAL flush and the hall a round trip, so at 1,000 moves a second a batch of
# several moves saves more CPU than this adds to a move's acknowledgement (6 ms against 2 ms:
# about 4% less CPU a move in all, and no worse a p99; docs/scaling.md).
GATHER_SECONDS = 0.006
EVENT_COLUMNS = ("table_id", "version", "at", "body", "token")


@dataclass
class Job:
    """Events of one table to commit together; ``done`` is settled once they are (or are not).
    With a ``token``, only while the table's lease carries it."""

    table_id: str
    rows: list[tuple[str, int, float, str]]  # (table_id, version, at, body)
    done: asyncio.Future[None]
    token: int | None = None

    def values(self) -> list[tuple[str, int, float, str, int | None]]:
        """The rows as inserted: each with the token it was committed under."""
        return [(*row, self.token) for row in self.rows]


class EventWriter(Protocol):
    def submit(self, job: Job) -> None:
        """Queue a job; its future is settled when it is committed or refused."""
        ...

    async def close(self) -> None: ...


def settle(job: Job, error: BaseException | None) -> None:
    if job.done.done():
        return  # its caller went away (cancelled)
    if error is None:
        job.done.set_result(None)
    else:
        job.done.set_exception(unavailable_or_not(error))  # (the database away: StoreUnavailable)


def _closed() -> StoreClosed:
    return StoreClosed("the store is closed: the hall is stopping")


def _refuse_waiting(jobs: queue.SimpleQueue[Job | None] | asyncio.Queue[Job | None]) -> None:
    """Settle every job still queued once the writer has stopped, so that no caller waits for
    a write that will never come (a shutdown would hang on it)."""
    while not jobs.empty():
        job = jobs.get_nowait()
        if job is not None:
            settle(job, _closed())


def _conflict(job: Job) -> Conflict:
    return Conflict(f"table {job.table_id} has moved on: try again")


def _fenced(job: Job) -> Fenced:
    assert job.token is not None, "a job with no token is never fenced"
    return Fenced.lost(job.table_id, job.token)


def _fenced_jobs(jobs: list[Job], held: dict[str, int]) -> list[bool]:
    """Which jobs their table's lease no longer allows (a job with no token is never fenced)."""
    return [job.token is not None and held.get(job.table_id) != job.token for job in jobs]


def _fenced_tables(jobs: list[Job]) -> list[str]:
    return [job.table_id for job in jobs if job.token is not None]


# A version taken already, through SQLAlchemy or straight from asyncpg.
_TAKEN = (IntegrityError, asyncpg.UniqueViolationError)

# The schema's events table (schema.py), written without SQLAlchemy on this path.
_INSERT = "INSERT INTO events (table_id, version, at, body, token) VALUES (?, ?, ?, ?, ?)"


class ThreadWriter:
    """The SQLite writer: a thread with its own connection to ``path``."""

    def __init__(self, path: str) -> None:
        # Opened here so that a bad path fails the store's opening; used by the thread only.
        self._connection = sqlite3.connect(
            path, timeout=30, isolation_level=None, check_same_thread=False
        )
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute("PRAGMA synchronous=NORMAL")
        self._loop = asyncio.get_running_loop()
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="store-writer", daemon=True)
        self._thread.start()

    def submit(self, job: Job) -> None:
        if self._closed:
            settle(job, _closed())
            return
        self._jobs.put(job)

    async def close(self) -> None:
        """Write what was queued before now, then stop; whatever comes later is refused."""
        self._closed = True
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)
        _refuse_waiting(self._jobs)

    def _run(self) -> None:
        connection = self._connection
        try:
            while True:
                first = self._jobs.get()
                if first is None:
                    return
                jobs = [first]
                while len(jobs) < BATCH:
                    try:
                        job = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if job is None:
                        self._jobs.put(None)  # stop after this batch
                        break
                    jobs.append(job)
                outcomes = write_batch(connection, jobs)
                with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits
                    self._loop.call_soon_threadsafe(_settle_all, jobs, outcomes)
        finally:
            connection.close()


def write_batch(connection: sqlite3.Connection, jobs: list[Job]) -> list[BaseException | None]:
    """Commit the jobs in one transaction (but those their lease fences off); if one lost a
    race for its version, each in its own."""
    try:
        refused = _commit(connection, jobs)
        return [_fenced(job) if no else None for job, no in zip(jobs, refused, strict=True)]
    except sqlite3.IntegrityError:
        pass
    except Exception as exc:  # noqa: BLE001 - handed to every waiting caller
        return [exc] * len(jobs)
    outcomes: list[BaseException | None] = []
    for job in jobs:
        try:
            outcomes.append(_fenced(job) if _commit(connection, [job])[0] else None)
        except sqlite3.IntegrityError:
            outcomes.append(_conflict(job))
        except Exception as exc:  # noqa: BLE001 - handed to the waiting caller
            outcomes.append(exc)
    return outcomes


def _commit(connection: sqlite3.Connection, jobs: list[Job]) -> list[bool]:
    """Write the jobs their leases allow, in one transaction; which were fenced off."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        tables = _fenced_tables(jobs)
        held = held_tokens_sqlite3(connection, tables) if tables else {}
        refused = _fenced_jobs(jobs, held)
        rows = [
            row for job, no in zip(jobs, refused, strict=True) if not no for row in job.values()
        ]
        connection.executemany(_INSERT, rows)
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
    return refused


def _settle_all(jobs: list[Job], outcomes: list[BaseException | None]) -> None:
    for job, outcome in zip(jobs, outcomes, strict=True):
        settle(job, outcome)


class TaskWriter:
    """The writer on any other database: a task writing through the async engine."""

    def __init__(self, engine: AsyncEngine, gather: float = GATHER_SECONDS) -> None:
        self._engine = engine
        self._gather = gather
        self._jobs: asyncio.Queue[Job | None] = asyncio.Queue()
        self._closed = False
        # On PostgreSQL, a connection of the pool kept by the writer between batches (checked
        # out and in again at every batch, it cost about a tenth of the write's CPU); None until
        # the first batch, and again once it failed; and asyncpg's connection under it.
        self._held: AsyncConnection | None = None
        self._driver: Any = None
        self._task = asyncio.create_task(self._run(), name="store-writer")

    def submit(self, job: Job) -> None:
        if self._closed:
            settle(job, _closed())
            return
        self._jobs.put_nowait(job)

    async def close(self) -> None:
        """Write what was queued before now, then stop; whatever comes later is refused."""
        self._closed = True
        self._jobs.put_nowait(None)
        try:
            await asyncio.shield(self._task)
        except asyncio.CancelledError:
            self._task.cancel()  # the closer itself is cancelled: stop at once
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            raise
        finally:
            _refuse_waiting(self._jobs)
            await self._let_go()

    async def _let_go(self, *, broken: bool = False) -> None:
        """Give the kept connection back to the pool; ``broken`` (it failed, or was cut off
        mid-statement): for the pool to close, never to hand out again."""
        held, driver = self._held, self._driver
        self._held, self._driver = None, None
        if held is None:
            return
        if not broken:
            try:
                await driver.execute(_CUSTOM_PLANS)  # (the pool's other users plan as usual)
            except Exception:  # noqa: BLE001 - then it is not fit to be handed out again
                broken = True
        with contextlib.suppress(Exception):
            if broken:
                await held.invalidate()
            await held.close()

    async def _connection(self) -> Any:
        """asyncpg's connection the writer keeps, opened if it has none."""
        if self._driver is None:
            held = await self._engine.connect()
            try:
                driver = (await held.get_raw_connection()).driver_connection
                assert driver is not None, "a connection checked out of the pool is open"
                await driver.execute(_GENERIC_PLANS)
            except BaseException:
                await held.close()
                raise
            self._held, self._driver = held, driver
        return self._driver

    async def _run(self) -> None:
        while True:
            first = await self._jobs.get()
            if first is None:
                return
            jobs = [first]
            try:
                if self._gather and self._jobs.empty():
                    # Moves of other tables arriving within this moment share the commit.
                    await asyncio.sleep(self._gather)
                while len(jobs) < BATCH and not self._jobs.empty():
                    job = self._jobs.get_nowait()
                    if job is None:
                        self._jobs.put_nowait(None)  # stop after this batch
                        break
                    jobs.append(job)
                await self._write(jobs)
            except asyncio.CancelledError:
                for job in jobs:  # committed or not, nobody can tell now: not acknowledged
                    settle(job, _closed())
                raise

    async def _write(self, jobs: list[Job]) -> None:
        try:
            refused = await self._insert(jobs)
        except _TAKEN:
            for job in jobs:  # some job lost a race for its version: find out which
                try:
                    [no] = await self._insert([job])
                except _TAKEN:
                    settle(job, _conflict(job))
                except Exception as exc:  # noqa: BLE001 - handed to the waiting caller
                    settle(job, exc)
                else:
                    settle(job, _fenced(job) if no else None)
            return
        except Exception as exc:  # noqa: BLE001 - handed to every waiting caller
            for job in jobs:
                settle(job, exc)
            return
        for job, no in zip(jobs, refused, strict=True):
            settle(job, _fenced(job) if no else None)

    async def _insert(self, jobs: list[Job]) -> list[bool]:
        """Write the jobs their leases allow, in one transaction; which were fenced off."""
        if self._engine.dialect.driver == "asyncpg":
            return await self._insert_asyncpg(jobs)
        async with self._engine.begin() as conn:
            # The leases first: their row locks make a racing acquisition wait for this commit.
            tables = _fenced_tables(jobs)
            held = await held_tokens(conn, tables) if tables else {}
            refused = _fenced_jobs(jobs, held)
            rows = [
                dict(zip(EVENT_COLUMNS, row, strict=True))
                for job, no in zip(jobs, refused, strict=True)
                if not no
                for row in job.values()
            ]
            if rows:
                await conn.execute(insert(schema.events), rows)
        return refused

    async def _insert_asyncpg(self, jobs: list[Job]) -> list[bool]:
        """``_insert`` on PostgreSQL: one statement on the asyncpg connection the writer keeps,
        outside SQLAlchemy (building and compiling its statements took a fifth of a move's CPU)."""
        tables = sorted(set(_fenced_tables(jobs)))
        rows = [row for job in jobs for row in job.values()]
        columns = [list(column) for column in zip(*rows, strict=True)]
        driver = await self._connection()
        try:
            held = await driver.fetch(_INSERT_FENCED, leases.TABLE, tables, *columns)
        except asyncio.CancelledError:
            await self._let_go(broken=True)  # cut off mid-statement: not to be handed out again
            raise
        except Exception as exc:
            # A server restarted closes the pool's connections: asyncpg then says only
            # "connection is closed" (SQLAlchemy, bypassed here, would have said it was gone).
            if unreachable(exc) or driver.is_closed():
                await self._let_go(broken=True)  # the pool must not hand it out again
                gone = StoreUnavailable(f"the database cannot be reached just now: {exc}")
                raise gone from exc
            raise
        return _fenced_jobs(jobs, {name: token for name, token in held})


# The writer's connection plans its one statement once: left to choose, PostgreSQL planned it
# again at every batch (a custom plan for the arrays' values), a fifth of its CPU for the write;
# the generic plan looks each lease up by its key all the same (EXPLAIN in docs/scaling.md).
_GENERIC_PLANS = "SET plan_cache_mode = force_generic_plan"
_CUSTOM_PLANS = "RESET plan_cache_mode"

# PostgreSQL's write of a batch, one statement that is its own transaction (one round trip, no
# BEGIN and COMMIT of their own): the leases of the batch's tables share-locked in name order
# (as ``Leases.renew`` locks them: a racing acquisition waits for this commit, and one that came
# first is seen), and every event whose job's token is the one its table's lease carries (or
# that has none) inserted; the leases read are returned, for the writer to tell which jobs were
# fenced off by the same rule (``_fenced_jobs``). A version taken already fails the whole
# statement (UniqueViolationError): nothing of the batch is written.
# Each lease is looked up by its key, one name after the other (a LATERAL subquery with LIMIT,
# which the planner cannot turn into a join): asked as ``name = ANY($2)``, the plan PostgreSQL
# settles on for a prepared statement read every table's lease at every batch (1,000 leases
# read at every batch at 1,000 live tables).
_INSERT_FENCED = """
WITH held AS MATERIALIZED (
    SELECT l.name, l.token
    FROM (SELECT unnest($2::varchar[]) AS name ORDER BY 1) AS wanted
    CROSS JOIN LATERAL (
        SELECT name, token FROM leases
        WHERE kind = $1 AND name = wanted.name AND owner IS NOT NULL
        LIMIT 1 FOR SHARE
    ) AS l
), written AS (
    INSERT INTO events (table_id, version, at, body, token)
    SELECT r.table_id, r.version, r.at, r.body, r.token
    FROM unnest($3::varchar[], $4::int[], $5::float8[], $6::text[], $7::bigint[])
        AS r(table_id, version, at, body, token)
    WHERE r.token IS NULL OR r.token = (SELECT h.token FROM held h WHERE h.name = r.table_id)
)
SELECT name, token FROM held
"""
