"""Chat lines in the database: kept with the game they were said at (not in its event log: chat
has no version and is not part of the record), for its replay, the sayer's export and the
operators' reading of a report; anonymised when their author's account is deleted, deleted after
the retention period.

The text kept is already clean (``hall/chat_text.py``): this module stores what it is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls


class Room(Enum):
    """Which chat of a table: the players' or the spectators'. They are apart so that spectators
    cannot pass the players what they see; the players do not read the spectators' room."""

    PLAYERS = "players"
    SPECTATORS = "spectators"


@dataclass(frozen=True)
class ChatLine:
    """One line: a typed ``text`` or a quick phrase's id (``phrase``), never both.
    ``player_id`` None: said by an account since deleted."""

    id: int
    table_id: str
    room: Room
    player_id: str | None
    text: str | None
    phrase: str | None
    at: float


_c = schema.chat_lines.c
_COLUMNS = (_c.id, _c.table_id, _c.room, _c.player_id, _c.text, _c.phrase, _c.at)


def _line(row: Any) -> ChatLine:
    # A row of ``_COLUMNS``.
    return ChatLine(
        row.id, row.table_id, Room(row.room), row.player_id, row.text, row.phrase, row.at
    )


@uninterrupted_calls
class Chat:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def add(
        self,
        table_id: str,
        room: Room,
        player_id: str,
        at: float,
        *,
        text: str | None = None,
        phrase: str | None = None,
    ) -> ChatLine:
        """Keep a line (a text or a quick phrase's id: exactly one); the line as kept."""
        if (text is None) == (phrase is None):
            raise ValueError("a chat line is a text or a quick phrase, exactly one of them")
        async with self.engine.begin() as conn:
            added = await conn.execute(
                insert(schema.chat_lines)
                .values(
                    table_id=table_id,
                    room=room.value,
                    player_id=player_id,
                    text=text,
                    phrase=phrase,
                    at=at,
                )
                .returning(_c.id)
            )
            line_id = added.scalar_one()
        return ChatLine(line_id, table_id, room, player_id, text, phrase, at)

    async def of_table(
        self, table_id: str, rooms: frozenset[Room] = frozenset(Room), last: int | None = None
    ) -> list[ChatLine]:
        """A table's lines in these rooms, in the order said (``last``: only the last so many,
        as a socket is sent on opening). Beside a finished game's replay both rooms may be shown
        to anyone who may see the game (the game is over: nothing left to pass on); during the
        game a player reads the players' room only."""
        query = select(*_COLUMNS).where(
            _c.table_id == table_id, _c.room.in_([room.value for room in rooms])
        )
        # The last ones are read newest first (the limit keeps them), then put in order.
        newest_first = last is not None
        query = query.order_by(_c.id.desc()).limit(last) if newest_first else query.order_by(_c.id)
        async with self.engine.connect() as conn:
            lines = [_line(row) for row in await conn.execute(query)]
        return lines[::-1] if newest_first else lines

    async def of_player(self, player_id: str) -> list[ChatLine]:
        """Every line the player said, oldest first (their data export)."""
        query = select(*_COLUMNS).where(_c.player_id == player_id).order_by(_c.id)
        async with self.engine.connect() as conn:
            return [_line(row) for row in await conn.execute(query)]

    async def line(self, line_id: int) -> ChatLine | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(*_COLUMNS).where(_c.id == line_id))).first()
        return _line(row) if row is not None else None

    async def around(self, line_id: int, lines: int = 10) -> list[ChatLine]:
        """The line and up to ``lines`` said before and after it in its room (an operator
        reading a report sees what it answered and what followed); empty when it is gone."""
        async with self.engine.connect() as conn:
            return await around(conn, line_id, lines)

    async def forget_before(self, at: float) -> int:
        """Delete the lines said before ``at`` (the retention period); how many went. A table
        with an open report keeps its lines until the report is closed: they are the evidence."""
        r = schema.reports.c
        reported_tables = (
            select(_c.table_id)
            .join_from(schema.reports, schema.chat_lines, _c.id == r.line_id)
            .where(r.closed_at.is_(None))
        )
        async with self.engine.begin() as conn:
            gone = await conn.execute(
                delete(schema.chat_lines).where(_c.at < at, _c.table_id.not_in(reported_tables))
            )
        return int(gone.rowcount)


async def around(conn: AsyncConnection, line_id: int, lines: int) -> list[ChatLine]:
    row = (await conn.execute(select(_c.table_id, _c.room).where(_c.id == line_id))).first()
    if row is None:
        return []
    same_room = and_(_c.table_id == row.table_id, _c.room == row.room)
    before = select(*_COLUMNS).where(same_room, _c.id < line_id).order_by(_c.id.desc()).limit(lines)
    after = select(*_COLUMNS).where(same_room, _c.id >= line_id).order_by(_c.id).limit(lines + 1)
    earlier = [_line(r) for r in await conn.execute(before)]
    later = [_line(r) for r in await conn.execute(after)]
    return earlier[::-1] + later


async def anonymise(conn: AsyncConnection, player_ids: list[str]) -> None:
    """These players' lines stay with their games, said by nobody (their accounts are gone)."""
    await conn.execute(
        update(schema.chat_lines).where(_c.player_id.in_(player_ids)).values(player_id=None)
    )
