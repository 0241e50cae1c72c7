"""Deleting an account: the person goes, their games stay under an anonymous name.

In one transaction: the player's name, username and password are cleared (the row stays, so that
the games' seats still point somewhere and the id is never given again), every session ends, the
email address is forgotten, the ratings and arena standings and awards go (off the
leaderboards; each game's rating change and arena result stay with the game), and every seat they held in an indexed game, and its record, shows the anonymous
name instead; so do the events that seated them in the tables' logs (``created``, ``joined``), so
that a table replayed from its log shows it too. The logs are otherwise never rewritten: this is
the one redaction. Their chat lines stay with their games, said by nobody (``chat.anonymise``:
the conversation still reads, nothing leads back to them); their mutes and blocks, and others'
of them, go, and their time-outs; reports, bans and the moderation log stay
(``moderation.forget_players``). Their challenges, sent or received, their follows and others'
of them go, and the addresses they signed in from (``addresses.py``).
"""

from __future__ import annotations

import json

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import addresses, challenges, chat, follows, moderation, schema
from .emails import forget_players
from .uninterrupted import uninterrupted

ANONYMOUS = "Deleted player"


@uninterrupted
async def delete_account(engine: AsyncEngine, player_id: str, anonymous: str = ANONYMOUS) -> int:
    """Delete a player's account as above; returns how many of their games were renamed."""
    p, s, gs, g = schema.players, schema.sessions, schema.game_seats, schema.games
    async with engine.begin() as conn:
        await conn.execute(
            update(p)
            .where(p.c.id == player_id)
            .values(name=anonymous, username=None, password_hash=None, legacy_cookie=False)
        )
        await conn.execute(delete(s).where(s.c.player_id == player_id))
        await conn.execute(delete(schema.ratings).where(schema.ratings.c.player_id == player_id))
        # Their arena standings and awards go too (off the season's leaderboard; each game's
        # arena result stays with the game, as its rating change does).
        for arena_table in (schema.arena_standings, schema.arena_awards):
            await conn.execute(delete(arena_table).where(arena_table.c.player_id == player_id))
        await forget_players(conn, [player_id])  # the email address, and what was sent to it
        await chat.anonymise(conn, [player_id])
        await moderation.forget_players(conn, [player_id])
        await challenges.forget_players(conn, [player_id])
        await follows.forget_players(conn, [player_id])
        await addresses.forget_players(conn, [player_id])  # where they signed in from
        held = (
            await conn.execute(select(gs.c.table_id, gs.c.seat).where(gs.c.player_id == player_id))
        ).all()
        await conn.execute(update(gs).where(gs.c.player_id == player_id).values(name=anonymous))
        seats_of: dict[str, list[int]] = {}
        for table_id, seat in held:
            seats_of.setdefault(table_id, []).append(seat)
        for table_id, seats in seats_of.items():
            row = (await conn.execute(select(g.c.record).where(g.c.table_id == table_id))).first()
            if row is None:
                continue
            record = json.loads(row[0])
            for seat in seats:
                record["players"][seat] = anonymous
            await conn.execute(
                update(g).where(g.c.table_id == table_id).values(record=json.dumps(record))
            )
        await _redact_logs(conn, player_id, anonymous)
    return len(seats_of)


async def _redact_logs(conn: AsyncConnection, player_id: str, anonymous: str) -> None:
    """The player's name in the events that seated or renamed them, at every table they sat at."""
    e, seats = schema.events.c, schema.seats.c
    tables = select(seats.table_id).where(seats.player_id == player_id)
    # A sleeping table's note shows the old name in its lobby entry: gone, so that the table
    # is loaded from its redacted log at the next start (``wakes.py``).
    wakes = schema.table_wakes.c
    await conn.execute(delete(schema.table_wakes).where(wakes.table_id.in_(tables)))
    rows = (
        await conn.execute(
            select(e.table_id, e.version, e.body).where(
                e.table_id.in_(tables), e.body.contains(player_id)
            )
        )
    ).all()
    for table_id, version, text in rows:
        body = json.loads(text)
        if body.get("kind") in ("joined", "renamed") and body.get("player") == player_id:
            body["name"] = anonymous
        elif body.get("kind") == "created":
            for seat in body.get("seats", []):
                if seat.get("player") == player_id:
                    seat["name"] = anonymous
        else:
            continue
        await conn.execute(
            update(schema.events)
            .where(e.table_id == table_id, e.version == version)
            .values(body=json.dumps(body))
        )
