"""Email notices in the database: each player's address, whether it is confirmed and wanted, when
the last notice went out (the rate limit), and the last turn of each table emailed about."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls


@dataclass(frozen=True)
class EmailAddress:
    """A player's address and what they chose."""

    player_id: str
    address: str
    notify: bool  # the player wants notices
    confirmed_at: float | None  # when the confirmation link was opened (None: not yet)
    confirm_sent_at: float | None
    last_sent_at: float | None

    @property
    def confirmed(self) -> bool:
        return self.confirmed_at is not None

    @property
    def active(self) -> bool:
        """Notices may go to it: wanted, and confirmed."""
        return self.notify and self.confirmed


@uninterrupted_calls
class Emails:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def of(self, player_id: str) -> EmailAddress | None:
        async with self.engine.connect() as conn:
            return await _of(conn, player_id)

    async def set(self, player_id: str, address: str, notify: bool) -> EmailAddress:
        """Set a player's address and choice; a new address is not confirmed (a link must be)."""
        e = schema.email_addresses
        async with self.engine.begin() as conn:
            old = await _of(conn, player_id)
            if old is None:
                await conn.execute(
                    insert(e).values(player_id=player_id, address=address, notify=notify)
                )
            elif old.address == address:
                await conn.execute(
                    update(e).where(e.c.player_id == player_id).values(notify=notify)
                )
            else:
                await conn.execute(
                    update(e)
                    .where(e.c.player_id == player_id)
                    .values(address=address, notify=notify, confirmed_at=None, confirm_sent_at=None)
                )
            now = await _of(conn, player_id)
        assert now is not None
        return now

    async def forget(self, player_id: str) -> None:
        """The player's address and what was sent to it are forgotten."""
        async with self.engine.begin() as conn:
            await forget_players(conn, [player_id])

    async def confirmation_sent(self, player_id: str, at: float) -> None:
        e = schema.email_addresses
        async with self.engine.begin() as conn:
            await conn.execute(
                update(e).where(e.c.player_id == player_id).values(confirm_sent_at=at)
            )

    async def confirm(self, player_id: str, address: str, at: float) -> bool:
        """Confirm the address, if it is still the player's; whether it is (now) confirmed."""
        e = schema.email_addresses
        async with self.engine.begin() as conn:
            mine = and_(e.c.player_id == player_id, e.c.address == address)
            await conn.execute(
                update(e).where(mine, e.c.confirmed_at.is_(None)).values(confirmed_at=at)
            )
            found = (await conn.execute(select(e.c.player_id).where(mine))).first()
        return found is not None

    async def unsubscribe(self, player_id: str, address: str) -> bool:
        """No more notices to ``address`` for this player; whether it was the player's address."""
        e = schema.email_addresses
        async with self.engine.begin() as conn:
            mine = and_(e.c.player_id == player_id, e.c.address == address)
            done = await conn.execute(update(e).where(mine).values(notify=False))
        return done.rowcount > 0

    async def active_players(self) -> list[str]:
        """The players notices may go to (confirmed and wanted)."""
        e = schema.email_addresses.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(e.player_id).where(e.notify.is_(True), e.confirmed_at.is_not(None))
            )
            return [r[0] for r in rows]

    async def turns_emailed(self, player_id: str) -> dict[tuple[str, str], str]:
        """The last turn emailed about, by (table, notice kind)."""
        t = schema.email_turns.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(t.table_id, t.kind, t.turn).where(t.player_id == player_id)
            )
            return {(table, kind): turn for table, kind, turn in rows}

    async def sent(self, player_id: str, at: float, turns: dict[tuple[str, str], str]) -> None:
        """A notice email went to the player at ``at`` about these turns, by (table, kind)."""
        e, t = schema.email_addresses, schema.email_turns
        async with self.engine.begin() as conn:
            await conn.execute(update(e).where(e.c.player_id == player_id).values(last_sent_at=at))
            for (table, kind), turn in turns.items():
                await conn.execute(
                    delete(t).where(
                        t.c.player_id == player_id, t.c.table_id == table, t.c.kind == kind
                    )
                )
                await conn.execute(
                    insert(t).values(
                        player_id=player_id, table_id=table, kind=kind, turn=turn, at=at
                    )
                )


async def _of(conn: AsyncConnection, player_id: str) -> EmailAddress | None:
    e = schema.email_addresses.c
    row = (
        await conn.execute(
            select(
                e.player_id,
                e.address,
                e.notify,
                e.confirmed_at,
                e.confirm_sent_at,
                e.last_sent_at,
            ).where(e.player_id == player_id)
        )
    ).first()
    return EmailAddress(*row) if row is not None else None


async def forget_players(conn: AsyncConnection, player_ids: list[str]) -> None:
    """Forget these players' addresses and what was sent to them (also when a guest is)."""
    for table in (schema.email_addresses, schema.email_turns):
        await conn.execute(delete(table).where(table.c.player_id.in_(player_ids)))
