"""Challenges in the database: one player asking another to a game, open until answered,
cancelled or expired, and whom each player accepts challenges from.

A challenge's end is written once: ``close`` changes an open challenge only (compare and set),
so that of two processes answering, expiring or cancelling the same challenge at once, one
wins and the other is told it is no longer open.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls


class ChallengeState(Enum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class AcceptFrom(Enum):
    """Whom a player accepts challenges from; ``friends``: the players they follow."""

    EVERYONE = "everyone"
    FRIENDS = "friends"
    NOBODY = "nobody"


@dataclass(frozen=True)
class StoredChallenge:
    id: str
    challenger_id: str
    challenged_id: str
    options: dict[str, Any]  # the table's options as ``hall/options.Options.to_json`` writes them
    at: float
    expires_at: float
    state: ChallengeState = ChallengeState.OPEN
    answered_at: float | None = None
    table_id: str | None = None  # the table opened when accepted


_c = schema.challenges.c
_COLUMNS = (
    _c.id,
    _c.challenger_id,
    _c.challenged_id,
    _c.options,
    _c.at,
    _c.expires_at,
    _c.state,
    _c.answered_at,
    _c.table_id,
)


def _challenge(row: Any) -> StoredChallenge:
    return StoredChallenge(
        row.id,
        row.challenger_id,
        row.challenged_id,
        json.loads(row.options),
        row.at,
        row.expires_at,
        ChallengeState(row.state),
        row.answered_at,
        row.table_id,
    )


@uninterrupted_calls
class Challenges:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def add(self, challenge: StoredChallenge) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(schema.challenges).values(
                    id=challenge.id,
                    challenger_id=challenge.challenger_id,
                    challenged_id=challenge.challenged_id,
                    options=json.dumps(challenge.options),
                    at=challenge.at,
                    expires_at=challenge.expires_at,
                    state=challenge.state.value,
                )
            )

    async def get(self, challenge_id: str) -> StoredChallenge | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(*_COLUMNS).where(_c.id == challenge_id))).first()
        return _challenge(row) if row is not None else None

    async def close(
        self, challenge_id: str, state: ChallengeState, at: float, table_id: str | None = None
    ) -> bool:
        """End an open challenge as ``state``; False (nothing changed) when it is not open."""
        async with self.engine.begin() as conn:
            closed = await conn.execute(
                update(schema.challenges)
                .where(_c.id == challenge_id, _c.state == ChallengeState.OPEN.value)
                .values(state=state.value, answered_at=at, table_id=table_id)
            )
        return bool(closed.rowcount)

    async def name_table(self, challenge_id: str, table_id: str) -> None:
        """The table an accepted challenge opened."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(schema.challenges).where(_c.id == challenge_id).values(table_id=table_id)
            )

    async def reopen(self, challenge_id: str) -> None:
        """An accepted challenge whose table could not open is open again (its answer undone)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(schema.challenges)
                .where(_c.id == challenge_id, _c.state == ChallengeState.ACCEPTED.value)
                .values(state=ChallengeState.OPEN.value, answered_at=None, table_id=None)
            )

    async def open_of(self, player_id: str) -> list[StoredChallenge]:
        """The open challenges the player sent or received, oldest first."""
        query = (
            select(*_COLUMNS)
            .where(
                _c.state == ChallengeState.OPEN.value,
                or_(_c.challenger_id == player_id, _c.challenged_id == player_id),
            )
            .order_by(_c.at, _c.id)
        )
        async with self.engine.connect() as conn:
            return [_challenge(row) for row in await conn.execute(query)]

    async def open_between(self, challenger_id: str, challenged_id: str) -> StoredChallenge | None:
        """The open challenge from one player to the other, if there is one."""
        query = select(*_COLUMNS).where(
            _c.state == ChallengeState.OPEN.value,
            _c.challenger_id == challenger_id,
            _c.challenged_id == challenged_id,
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return _challenge(row) if row is not None else None

    async def every_open(self) -> list[StoredChallenge]:
        """Every open challenge (a process sets their expiry at start)."""
        query = select(*_COLUMNS).where(_c.state == ChallengeState.OPEN.value).order_by(_c.at)
        async with self.engine.connect() as conn:
            return [_challenge(row) for row in await conn.execute(query)]

    async def of_player(self, player_id: str) -> list[StoredChallenge]:
        """Every challenge the player sent or received, oldest first (their data export)."""
        mine = or_(_c.challenger_id == player_id, _c.challenged_id == player_id)
        query = select(*_COLUMNS).where(mine).order_by(_c.at, _c.id)
        async with self.engine.connect() as conn:
            return [_challenge(row) for row in await conn.execute(query)]

    # Whom a player accepts challenges from -------------------------------------------------
    async def accept_from(self, player_id: str) -> AcceptFrom:
        s = schema.challenge_settings.c
        async with self.engine.connect() as conn:
            query = select(s.accept_from).where(s.player_id == player_id)
            value = (await conn.execute(query)).scalar_one_or_none()
        return AcceptFrom(value) if value is not None else AcceptFrom.EVERYONE

    async def set_accept_from(self, player_id: str, choice: AcceptFrom) -> None:
        s = schema.challenge_settings
        async with self.engine.begin() as conn:
            await conn.execute(delete(s).where(s.c.player_id == player_id))
            if choice is not AcceptFrom.EVERYONE:
                await conn.execute(insert(s).values(player_id=player_id, accept_from=choice.value))


async def forget_players(conn: AsyncConnection, player_ids: list[str]) -> None:
    """An account deleted (or an idle guest forgotten): its challenges, sent or received, and its
    setting go (a challenge is of no use once one of its two is gone)."""
    gone = or_(_c.challenger_id.in_(player_ids), _c.challenged_id.in_(player_ids))
    await conn.execute(delete(schema.challenges).where(gone))
    s = schema.challenge_settings.c
    await conn.execute(delete(schema.challenge_settings).where(s.player_id.in_(player_ids)))
