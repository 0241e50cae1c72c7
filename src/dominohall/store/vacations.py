"""Turn-based vacations in the database: the ones a player took, and the one under way."""

from __future__ import annotations

from sqlalchemy import and_, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls


@uninterrupted_calls
class Vacations:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def of_player(self, player_id: str, since: float) -> list[tuple[float, float]]:
        """The player's vacations (start, end) that end after ``since``, oldest first."""
        v = schema.vacations
        query = (
            select(v.c.start, v.c.end)
            .where(and_(v.c.player_id == player_id, v.c.end > since))
            .order_by(v.c.start)
        )
        async with self.engine.connect() as conn:
            return [(row.start, row.end) for row in await conn.execute(query)]

    async def under_way(self, now: float) -> dict[str, tuple[float, float]]:
        """Every vacation under way at ``now``, by player."""
        v = schema.vacations
        query = select(v.c.player_id, v.c.start, v.c.end).where(
            and_(v.c.start <= now, v.c.end > now)
        )
        async with self.engine.connect() as conn:
            return {row.player_id: (row.start, row.end) for row in await conn.execute(query)}

    async def add(self, player_id: str, start: float, end: float) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(schema.vacations).values(player_id=player_id, start=start, end=end)
            )

    async def end(self, player_id: str, start: float, end: float) -> None:
        """The vacation that began at ``start`` ends at ``end`` (earlier than planned)."""
        v = schema.vacations
        async with self.engine.begin() as conn:
            await conn.execute(
                update(v)
                .where(and_(v.c.player_id == player_id, v.c.start == start))
                .values(end=end)
            )
