"""The games' index: every finished game and its seats, for histories, profiles and game pages.

A game is indexed from its table's log once it is over (``hall/history.py`` reads the log); the
index is derived data, so adding the same game twice is harmless and a game missing from it
(a crash between the result and the index) is found by ``unindexed`` and added later.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, case, exists, false, func, insert, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls


@dataclass(frozen=True)
class SeatEntry:
    """One seat of a finished game as the history shows it."""

    seat: int
    player_id: str | None  # None: a computer player's seat from the start
    name: str
    bot: str | None  # the computer player's level (also one that took over a person's seat)
    won: bool  # the seat, or its team, won the game
    place: int  # 1 is best; ties share
    score: int
    hands_out: int  # hands this seat (or its team) won by going out
    hands_block: int  # ... won when the hand was blocked
    timeouts: int  # turns the timer played for this seat
    out: str | None  # why its person went out of the game (timeout, left, disconnected)


@dataclass(frozen=True)
class GameEntry:
    """A finished game: its options, how it ended, its seats."""

    table_id: str
    preset: str
    target: int
    private: bool
    ranked: str | None  # the pool of a ranked game
    reason: str  # rules, forfeit, abandoned, aborted
    winner: int | None
    hands: int  # hands dealt
    started_at: float | None
    finished_at: float
    seats: tuple[SeatEntry, ...]
    speed: str = "real-time"  # or turn-based
    timer: str | None = None  # the table's timer option

    def has_player(self, player_id: str | None) -> bool:
        return player_id is not None and any(s.player_id == player_id for s in self.seats)


@dataclass(frozen=True)
class PresetStats:
    """A player's games of one preset, summed (aborted games left out)."""

    preset: str
    games: int
    won: int
    lost: int  # games someone else won (the rest ended with no winner)
    hands: int
    points: int
    hands_out: int
    hands_block: int
    timeouts: int
    walked_out: int = 0  # games its person left, or was put out of (timeouts, connection)


# Why a person went out of a game without playing it to its end (a resign concedes it instead).
WALKED_OUT = ("left", "disconnected", "timeout")

Cursor = tuple[float, str]  # (finished_at, table_id) of the last game of a page


@uninterrupted_calls
class History:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def add(self, entry: GameEntry) -> bool:
        """Index a game; False when it was indexed already (nothing changes)."""
        g = entry
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    insert(schema.game_index).values(
                        table_id=g.table_id,
                        preset=g.preset,
                        target=g.target,
                        seats=len(g.seats),
                        private=g.private,
                        ranked=g.ranked,
                        reason=g.reason,
                        winner=g.winner,
                        hands=g.hands,
                        started_at=g.started_at,
                        finished_at=g.finished_at,
                        speed=g.speed,
                        timer=g.timer,
                    )
                )
                await conn.execute(
                    insert(schema.game_seats),
                    [
                        {
                            "table_id": g.table_id,
                            "seat": s.seat,
                            "player_id": s.player_id,
                            "name": s.name,
                            "bot": s.bot,
                            "won": s.won,
                            "place": s.place,
                            "score": s.score,
                            "hands_out": s.hands_out,
                            "hands_block": s.hands_block,
                            "timeouts": s.timeouts,
                            "out": s.out,
                            "finished_at": g.finished_at,
                        }
                        for s in g.seats
                    ],
                )
        except IntegrityError:
            return False
        return True

    async def unindexed(self, limit: int = 500) -> list[tuple[str, float]]:
        """Finished games with a record that are not indexed yet: (table, finished_at), oldest first."""
        g, i = schema.games.c, schema.game_index.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(g.table_id, g.finished_at)
                .where(~exists().where(i.table_id == g.table_id))
                .order_by(g.finished_at)
                .limit(limit)
            )
            return [(t, at) for t, at in rows]

    async def game(self, table_id: str) -> GameEntry | None:
        found = await self._entries([table_id])
        return found[0] if found else None

    async def games_of(
        self, player_id: str, *, before: Cursor | None, limit: int, viewer: str | None
    ) -> list[GameEntry]:
        """A player's games, newest first, after the cursor ``before``; a private game only when
        ``viewer`` sat at it too."""
        s, i = schema.game_seats.c, schema.game_index.c
        other = schema.game_seats.alias("other")
        visible = or_(
            i.private.is_(False),
            exists().where(other.c.table_id == s.table_id, other.c.player_id == viewer)
            if viewer is not None
            else false(),
        )
        query = (
            select(s.table_id)
            .join_from(schema.game_seats, schema.game_index, i.table_id == s.table_id)
            .where(s.player_id == player_id, visible)
            .order_by(s.finished_at.desc(), s.table_id.desc())
            .limit(limit)
        )
        if before is not None:
            at, table = before
            query = query.where(
                or_(s.finished_at < at, and_(s.finished_at == at, s.table_id < table))
            )
        async with self.engine.connect() as conn:
            ids = [row[0] for row in await conn.execute(query)]
        found = {e.table_id: e for e in await self._entries(ids)}
        return [found[t] for t in ids if t in found]

    async def stats(self, player_id: str) -> list[PresetStats]:
        """A player's games per preset, most played first (aborted games are not counted)."""
        s, i = schema.game_seats.c, schema.game_index.c
        lost = case((and_(i.winner.is_not(None), s.won.is_(False)), 1), else_=0)
        query = (
            select(
                i.preset,
                func.count(),
                func.sum(case((s.won.is_(True), 1), else_=0)),
                func.sum(lost),
                func.sum(i.hands),
                func.sum(s.score),
                func.sum(s.hands_out),
                func.sum(s.hands_block),
                func.sum(s.timeouts),
                func.sum(case((s.out.in_(WALKED_OUT), 1), else_=0)),
            )
            .join_from(schema.game_seats, schema.game_index, i.table_id == s.table_id)
            .where(s.player_id == player_id, i.reason != "aborted")
            .group_by(i.preset)
            .order_by(func.count().desc(), i.preset)
        )
        async with self.engine.connect() as conn:
            return [
                PresetStats(row[0], *(int(v or 0) for v in row[1:]))
                for row in await conn.execute(query)
            ]

    async def usernames(self, player_ids: Sequence[str]) -> dict[str, str]:
        """The usernames of those players that have an account (for links to their profiles)."""
        p = schema.players.c
        if not player_ids:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(p.id, p.username).where(p.id.in_(player_ids), p.username.is_not(None))
            )
            return {player: username for player, username in rows}

    async def _entries(self, ids: Sequence[str]) -> list[GameEntry]:
        if not ids:
            return []
        i, s = schema.game_index.c, schema.game_seats.c
        async with self.engine.connect() as conn:
            games = (await conn.execute(select(*_GAME).where(i.table_id.in_(ids)))).all()
            seats = (
                await conn.execute(
                    select(s.table_id, *_SEAT).where(s.table_id.in_(ids)).order_by(s.seat)
                )
            ).all()
        by_game: dict[str, list[SeatEntry]] = {}
        for row in seats:
            values: tuple[Any, ...] = tuple(row[1:])
            by_game.setdefault(row[0], []).append(SeatEntry(*values))
        entries = []
        for row in games:
            fields: dict[str, Any] = dict(row._mapping)  # the columns are named as the fields
            entries.append(GameEntry(**fields, seats=tuple(by_game.get(row[0], ()))))
        return entries


_i = schema.game_index.c
_GAME = (
    _i.table_id,
    _i.preset,
    _i.target,
    _i.private,
    _i.ranked,
    _i.reason,
    _i.winner,
    _i.hands,
    _i.started_at,
    _i.finished_at,
    _i.speed,
    _i.timer,
)
_s = schema.game_seats.c
_SEAT = (
    _s.seat,
    _s.player_id,
    _s.name,
    _s.bot,
    _s.won,
    _s.place,
    _s.score,
    _s.hands_out,
    _s.hands_block,
    _s.timeouts,
    _s.out,
)
