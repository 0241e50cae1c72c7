"""Follows in the database: who follows whom (one-way), to see them online and what they play."""

from __future__ import annotations

from sqlalchemy import delete, exists, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls

_f = schema.follows.c


@uninterrupted_calls
class Follows:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def follow(self, player_id: str, followed_id: str, at: float) -> None:
        """``player_id`` follows ``followed_id`` (again: nothing changes)."""
        there = exists().where(_f.player_id == player_id, _f.followed_id == followed_id)
        async with self.engine.begin() as conn:
            if not (await conn.execute(select(there))).scalar():
                await conn.execute(
                    insert(schema.follows).values(
                        player_id=player_id, followed_id=followed_id, at=at
                    )
                )

    async def unfollow(self, player_id: str, followed_id: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                delete(schema.follows).where(
                    _f.player_id == player_id, _f.followed_id == followed_id
                )
            )

    async def follows(self, player_id: str, followed_id: str) -> bool:
        there = exists().where(_f.player_id == player_id, _f.followed_id == followed_id)
        async with self.engine.connect() as conn:
            return bool((await conn.execute(select(there))).scalar())

    async def followed_by(self, player_id: str) -> list[tuple[str, float]]:
        """The players ``player_id`` follows, with when they began, in that order."""
        query = select(_f.followed_id, _f.at).where(_f.player_id == player_id).order_by(_f.at)
        async with self.engine.connect() as conn:
            return [(row[0], row[1]) for row in await conn.execute(query)]


async def forget_players(conn: AsyncConnection, player_ids: list[str]) -> None:
    """An account deleted: its follows, and others' of it, go."""
    await conn.execute(
        delete(schema.follows).where(_f.player_id.in_(player_ids) | _f.followed_id.in_(player_ids))
    )


async def unfollow_blocked(conn: AsyncConnection, player_id: str, blocked_id: str) -> None:
    """A block ends the blocked player's follow of the blocker."""
    await conn.execute(
        delete(schema.follows).where(_f.player_id == blocked_id, _f.followed_id == player_id)
    )
