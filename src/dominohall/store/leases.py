"""Leases with fencing tokens: which process owns a live table, or runs a once-only job.

A lease is held by one owner (a process's name) until it expires, unless renewed first. Each
acquisition gives out a new fencing token, larger than any the same table or job had before, and
an owner's writes carry it: the event log commits a write only while the table's lease still
carries the writer's token (``held_tokens``, checked in the write's own transaction), so a
process that lost its lease (paused past the expiry, cut off) can never commit for the table
again, whatever it believes.

Every operation is one short transaction; two processes racing for one lease are serialised by
the lease's row (PostgreSQL's row lock, SQLite's write lock), and exactly one of them wins.

>>> Lease("t1", "hall-a", 3, 130.0)
Lease(name='t1', owner='hall-a', token=3, expires_at=130.0)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import Insert, and_, or_, select, text, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls

TABLE = "table"
JOB = "job"
# Leases renewed by one statement (on SQLite two parameters each, well under its limit).
RENEW_BATCH = 500


@dataclass(frozen=True)
class Lease:
    """A lease as its owner got it: ``token`` fences its writes; it is held while
    ``now < expires_at`` (later, until another owner takes it)."""

    name: str  # the table's id, or the job's name
    owner: str
    token: int
    expires_at: float


@uninterrupted_calls
class Leases:
    """The leases of one kind of thing: live tables (``TableLeases``) or once-only jobs."""

    def __init__(self, engine: AsyncEngine, kind: str) -> None:
        self._engine = engine
        self.kind = kind

    async def acquire(self, name: str, owner: str, now: float, ttl: float) -> Lease | None:
        """Take ``name`` until ``now + ttl`` with a new, larger token; None when another owner
        holds it and it has not expired.

        An owner that asks again for what it holds gets a new token too: a restarted process
        that kept its name takes its tables back at once, and whatever its earlier life still
        had in flight is fenced off.
        """
        c = schema.leases.c
        async with self._engine.begin() as conn:
            # The row first (token 0: none given out), so that the update below has one to
            # take; on SQLite this first write also takes the write lock for the transaction.
            await conn.execute(
                _insert_absent(conn).values(
                    kind=self.kind, name=name, owner=None, token=0, expires_at=now
                )
            )
            # Of two owners racing, PostgreSQL makes the second wait for the first's row lock
            # and then evaluates the condition again on the row the first left: it fails.
            taken = await conn.execute(
                update(schema.leases)
                .where(
                    c.kind == self.kind,
                    c.name == name,
                    or_(c.owner.is_(None), c.owner == owner, c.expires_at <= now),
                )
                .values(owner=owner, token=c.token + 1, expires_at=now + ttl)
                .returning(c.token)
            )
            token = taken.scalar_one_or_none()
        return None if token is None else Lease(name, owner, token, now + ttl)

    async def renew(self, leases: Iterable[Lease], now: float, ttl: float) -> list[Lease]:
        """Hold each lease until ``now + ttl`` if its token is still the one given out (an
        expired lease nobody took meanwhile is kept too: no other owner wrote under it); the
        leases lost, which must not be used any more.

        One statement for each ``RENEW_BATCH`` leases, each in a transaction of its own: a
        process may hold thousands, and on SQLite the tables' moves wait for the write lock.
        """
        wanted = list(leases)
        lost: list[Lease] = []
        for start in range(0, len(wanted), RENEW_BATCH):
            batch = wanted[start : start + RENEW_BATCH]
            async with self._engine.begin() as conn:
                kept = await self._extend(conn, batch, now + ttl)
            lost.extend(lease for lease in batch if (lease.name, lease.token) not in kept)
        return lost

    async def _extend(
        self, conn: AsyncConnection, leases: Sequence[Lease], expires_at: float
    ) -> set[tuple[str, int]]:
        if conn.dialect.name == "postgresql":
            return await self._extend_postgresql(conn, leases, expires_at)
        # SQLite: its write lock serialises renewals and writes, so no row locks to order.
        c = schema.leases.c
        extended = await conn.execute(
            update(schema.leases)
            .where(
                c.kind == self.kind,
                c.owner.is_not(None),
                tuple_(c.name, c.token).in_([(lease.name, lease.token) for lease in leases]),
            )
            .values(expires_at=expires_at)
            .returning(c.name, c.token)
        )
        return {(name, token) for name, token in extended}

    async def _extend_postgresql(
        self, conn: AsyncConnection, leases: Sequence[Lease], expires_at: float
    ) -> set[tuple[str, int]]:
        """``_extend`` with the leases as two arrays (a parameter for each name and token, through
        SQLAlchemy, cost the hall 7 ms of CPU a round at 1,000 tables, 30 ms until done).
        The rows are locked in the order of their names, as the event writer locks them (FOR
        SHARE): two transactions taking the same rows in different orders could deadlock."""
        extended = await conn.execute(
            _EXTEND_POSTGRESQL,
            {
                "kind": self.kind,
                "names": [lease.name for lease in leases],
                "tokens": [lease.token for lease in leases],
                "expires_at": expires_at,
            },
        )
        return {(name, token) for name, token in extended}

    async def release(self, lease: Lease) -> bool:
        """Give the lease up, so that another owner may take it at once; False when it was
        lost already. Its token stays fenced: the next owner gets a larger one."""
        c = schema.leases.c
        async with self._engine.begin() as conn:
            released = await conn.execute(
                update(schema.leases)
                .where(
                    c.kind == self.kind,
                    c.name == lease.name,
                    c.token == lease.token,
                    c.owner.is_not(None),
                )
                .values(owner=None)
            )
        return bool(released.rowcount == 1)

    async def holder(self, name: str) -> Lease | None:
        """Who holds ``name`` by the last acquisition (None: nobody, or released); its
        ``expires_at`` says whether that still holds at a given time."""
        c = schema.leases.c
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(c.owner, c.token, c.expires_at).where(
                        c.kind == self.kind, c.name == name, c.owner.is_not(None)
                    )
                )
            ).first()
        return None if row is None else Lease(name, row[0], row[1], row[2])

    async def last_renewal(self, name: str, ttl: float) -> float | None:
        """When ``name``'s last owner last took or renewed it (its expiry less ``ttl``, the
        lease time they share), held or not; None: it was never leased. A process taking it
        over gives back the time since then: nobody played the table meanwhile."""
        c = schema.leases.c
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(c.expires_at, c.token).where(c.kind == self.kind, c.name == name)
                )
            ).first()
        return None if row is None or row[1] == 0 else row[0] - ttl


@uninterrupted_calls
class TableLeases(Leases):
    """The live tables' leases: a table is played by the one process that holds its lease."""

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__(engine, TABLE)

    async def claimable(self, now: float, limit: int) -> list[str]:
        """Up to ``limit`` live (unfinished) tables nobody holds at ``now``: never leased,
        released, or expired (their owner died or was cut off), oldest first. Only a hint:
        ``acquire`` decides, as another process may take one first."""
        t, c = schema.tables.c, schema.leases.c
        leased = and_(c.kind == self.kind, c.name == t.id)
        query = (
            select(t.id)
            .select_from(schema.tables.outerjoin(schema.leases, leased))
            .where(
                t.finished_at.is_(None),
                or_(c.name.is_(None), c.owner.is_(None), c.expires_at <= now),
            )
            .order_by(t.created_at, t.id)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return [row[0] for row in await conn.execute(query)]

    async def tokens(self, table_id: str) -> list[tuple[int, int | None]]:
        """Each event of a table as (version, the token it was committed under), oldest first:
        the evidence that its owners' commits never interleaved (the tokens never go down)."""
        e = schema.events.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(e.version, e.token).where(e.table_id == table_id).order_by(e.version)
            )
            return [(version, token) for version, token in rows]


# ``Leases._extend`` on PostgreSQL: the rows still carrying the tokens asked about locked in
# the order of their names, in a CTE (run once, in its own order), then extended.
_EXTEND_POSTGRESQL = text(
    """
WITH mine AS MATERIALIZED (
    SELECT l.name
    FROM leases l
    JOIN unnest(CAST(:names AS varchar[]), CAST(:tokens AS bigint[])) AS w(name, token)
        ON l.name = w.name AND l.token = w.token
    WHERE l.kind = :kind AND l.owner IS NOT NULL
    ORDER BY l.name
    FOR UPDATE OF l
)
UPDATE leases SET expires_at = :expires_at
FROM mine
WHERE leases.kind = :kind AND leases.name = mine.name
RETURNING leases.name, leases.token
"""
)


def _insert_absent(conn: AsyncConnection) -> Insert:
    """An insert of a lease's row that does nothing when the row is there (both databases say
    so alike, but each through its own dialect)."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(schema.leases).on_conflict_do_nothing()
    return sqlite.insert(schema.leases).on_conflict_do_nothing()


async def held_tokens(conn: AsyncConnection, table_ids: Iterable[str]) -> dict[str, int]:
    """The token each of these tables' leases carries now (a table that nobody holds is left
    out), read in the caller's transaction and kept so until it ends.

    FOR SHARE: an acquisition of one of these leases waits until the caller's transaction
    ends, and one that came first is seen (PostgreSQL reads the row again once its lock is
    free), so a write checked here commits before any new owner can read the table. In name
    order, as ``Leases.renew`` locks its rows.
    """
    c = schema.leases.c
    names = sorted(set(table_ids))
    rows = await conn.execute(
        select(c.name, c.token)
        .where(c.kind == TABLE, c.owner.is_not(None), c.name.in_(names))
        .order_by(c.name)
        .with_for_update(read=True)
    )
    return {name: token for name, token in rows}


def held_tokens_sqlite3(connection: sqlite3.Connection, table_ids: Iterable[str]) -> dict[str, int]:
    """``held_tokens`` for the SQLite writer's plain connection, inside its BEGIN IMMEDIATE
    (the write lock held: no acquisition can come between the check and the commit)."""
    names = sorted(set(table_ids))
    marks = ", ".join("?" * len(names))  # only placeholders go into the text
    rows = connection.execute(
        "SELECT name, token FROM leases WHERE kind = ? AND owner IS NOT NULL "
        f"AND name IN ({marks})",
        [TABLE, *names],
    )
    return {name: token for name, token in rows}
