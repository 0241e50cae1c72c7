"""Tournaments' rows (issue 25, migration ``0014_tournaments.py``): created once, read, listed,
counted per creator, and saved by compare and set on their version, so that of two processes
saving the same tournament one wins and the other reads it again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls

_t = schema.tournaments.c


@dataclass(frozen=True)
class StoredTournament:
    id: str
    name: str
    kind: str
    creator_id: str | None
    created_at: float
    starts_at: float
    status: str
    listed: bool
    body: dict[str, Any]
    version: int


def _row(r: Any) -> StoredTournament:
    return StoredTournament(
        r.id,
        r.name,
        r.kind,
        r.creator_id,
        r.created_at,
        r.starts_at,
        r.status,
        r.listed,
        orjson.loads(r.body),
        r.version,
    )


@uninterrupted_calls
class Tournaments:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def create(self, t: StoredTournament) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(schema.tournaments).values(
                    id=t.id,
                    name=t.name,
                    kind=t.kind,
                    creator_id=t.creator_id,
                    created_at=t.created_at,
                    starts_at=t.starts_at,
                    status=t.status,
                    listed=t.listed,
                    body=orjson.dumps(t.body).decode(),
                    version=t.version,
                )
            )

    async def get(self, tournament_id: str) -> StoredTournament | None:
        async with self.engine.connect() as conn:
            found = await conn.execute(select(schema.tournaments).where(_t.id == tournament_id))
            row = found.first()
        return None if row is None else _row(row)

    async def of_status(self, *statuses: str) -> list[StoredTournament]:
        """The tournaments in any of ``statuses``, by start time."""
        async with self.engine.connect() as conn:
            found = await conn.execute(
                select(schema.tournaments)
                .where(_t.status.in_(statuses))
                .order_by(_t.starts_at, _t.id)
            )
            return [_row(r) for r in found]

    async def created_since(self, creator_id: str, since: float) -> int:
        """How many tournaments ``creator_id`` created from ``since`` on (the limit)."""
        async with self.engine.connect() as conn:
            found = await conn.execute(
                select(func.count())
                .select_from(schema.tournaments)
                .where(_t.creator_id == creator_id, _t.created_at >= since)
            )
            return int(found.scalar_one())

    async def save(
        self, tournament_id: str, version: int, status: str, body: dict[str, Any]
    ) -> bool:
        """The tournament's new status and body, only if it is still at ``version`` (it then
        goes to ``version + 1``); False when another save came first."""
        async with self.engine.begin() as conn:
            done = await conn.execute(
                update(schema.tournaments)
                .where(_t.id == tournament_id, _t.version == version)
                .values(status=status, body=orjson.dumps(body).decode(), version=version + 1)
            )
            return bool(done.rowcount == 1)
