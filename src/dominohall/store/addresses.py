"""The addresses each player signed in from (a new guest, a new account, a sign-in), kept for a
short time only (``hall/moderating.py`` says how long): what lets an operator's ban cover an
account's addresses without typing them (docs/moderation.md). In the player's export; gone with
the account."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls

_a = schema.player_addresses.c


@dataclass(frozen=True)
class SeenAddress:
    address: str
    first_at: float  # first seen (since it was last forgotten)
    last_at: float


@uninterrupted_calls
class Addresses:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def saw(self, player_id: str, address: str, at: float, forget_before: float) -> None:
        """``player_id`` signed in from ``address`` at ``at``; every address last seen before
        ``forget_before`` (anyone's) goes in the same transaction, so none outlives its time
        by more than the hall's next sign-in."""
        upsert = sqlite_insert if self.engine.dialect.name == "sqlite" else postgresql_insert
        statement = upsert(schema.player_addresses).values(
            player_id=player_id, address=address, first_at=at, last_at=at
        )
        async with self.engine.begin() as conn:
            await conn.execute(delete(schema.player_addresses).where(_a.last_at < forget_before))
            await conn.execute(
                statement.on_conflict_do_update(
                    index_elements=[_a.player_id, _a.address], set_={"last_at": at}
                )
            )

    async def of(self, player_id: str, since: float) -> list[SeenAddress]:
        """The player's addresses seen since ``since``, the latest first."""
        query = (
            select(_a.address, _a.first_at, _a.last_at)
            .where(_a.player_id == player_id, _a.last_at >= since)
            .order_by(_a.last_at.desc(), _a.address)
        )
        async with self.engine.connect() as conn:
            return [SeenAddress(*row) for row in await conn.execute(query)]


async def forget_players(conn: AsyncConnection, player_ids: list[str]) -> None:
    """An account deleted (or an idle guest forgotten): its addresses go."""
    await conn.execute(delete(schema.player_addresses).where(_a.player_id.in_(player_ids)))
