"""Games walked away from (issue 24): each real-time game a player abandoned (left, or put out
for a lost connection or timeouts; resigning is not abandoning), and each player's standing,
from which ``hall/abandonment.py`` tells how long they are held back from new games.

The rule itself (how long a hold lasts, when strikes are forgiven) is the hall's: this module
keeps the rows and changes a standing in one transaction with the function it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls


@dataclass(frozen=True)
class Standing:
    """A player's record of abandoning: the strikes that still count, when the last was,
    until when they are held back, and the games they finished since the last strike."""

    strikes: int = 0
    last_at: float = float("-inf")
    until: float = float("-inf")
    finished_since: int = 0


_a = schema.abandonments.c
_s = schema.abandonment_standings.c


@uninterrupted_calls
class Abandonments:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def strike(
        self,
        player_id: str,
        table_id: str,
        reason: str,
        at: float,
        rule: Callable[[Standing, float], Standing],
    ) -> Standing | None:
        """Count ``player_id``'s abandonment of ``table_id`` and change their standing by
        ``rule``, in one transaction; None when that table was counted already (a table is
        abandoned once, however its owner's work is repeated)."""
        for attempt in (1, 2):
            try:
                return await self._strike(player_id, table_id, reason, at, rule)
            except IntegrityError:
                # The table counted already, or the standing's first row made at the same moment
                # by another process: asked once more, which tells the two apart.
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _strike(
        self,
        player_id: str,
        table_id: str,
        reason: str,
        at: float,
        rule: Callable[[Standing, float], Standing],
    ) -> Standing | None:
        async with self.engine.begin() as conn:
            counted = await conn.execute(
                select(_a.at).where(_a.player_id == player_id, _a.table_id == table_id)
            )
            if counted.first() is not None:
                return None
            await conn.execute(
                insert(schema.abandonments).values(
                    player_id=player_id, table_id=table_id, reason=reason, at=at
                )
            )
            # Locked on PostgreSQL: two strikes of one player on two processes take turns.
            row = (
                await conn.execute(
                    select(_s.strikes, _s.last_at, _s.until, _s.finished_since)
                    .where(_s.player_id == player_id)
                    .with_for_update()
                )
            ).first()
            before = Standing(*row) if row is not None else Standing()
            after = rule(before, at)
            values = {
                "strikes": after.strikes,
                "last_at": after.last_at,
                "until": after.until,
                "finished_since": after.finished_since,
            }
            if row is None:
                await conn.execute(
                    insert(schema.abandonment_standings).values(player_id=player_id, **values)
                )
            else:
                await conn.execute(
                    update(schema.abandonment_standings)
                    .where(_s.player_id == player_id)
                    .values(**values)
                )
        return after

    async def finished(self, player_ids: Collection[str]) -> None:
        """These players played a real-time game to its end: one more game toward forgiveness."""
        if not player_ids:
            return
        async with self.engine.begin() as conn:
            await conn.execute(
                update(schema.abandonment_standings)
                .where(_s.player_id.in_(list(player_ids)))
                .values(finished_since=_s.finished_since + 1)
            )

    async def standing(self, player_id: str) -> Standing:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(_s.strikes, _s.last_at, _s.until, _s.finished_since).where(
                        _s.player_id == player_id
                    )
                )
            ).first()
        return Standing(*row) if row is not None else Standing()
