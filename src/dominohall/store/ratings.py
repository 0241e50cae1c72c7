"""Ranked ratings in the database: read them, and apply a game's change with its result.

The store knows rows, not rating maths: a rated game brings its own ``update`` (the hall's
openskill step), which the store calls inside the transaction that stores the game's result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import and_, exists, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls


@dataclass(frozen=True)
class StoredRating:
    """A player's skill in one pool at one speed."""

    player_id: str
    pool: str
    speed: str
    mu: float
    sigma: float
    games: int
    played_at: float


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to one player's rating."""

    table_id: str
    player_id: str
    pool: str
    speed: str
    seat: int
    place: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at: float


# (mu, sigma, games) per seat before the game.
Before = Sequence[tuple[float, float, int]]
# (mu, sigma) per seat after it.
After = Sequence[tuple[float, float]]


@dataclass(frozen=True)
class RatedGame:
    """A ranked game's players (per seat), their places, and how to compute their new skills."""

    pool: str
    speed: str
    players: tuple[str, ...]
    places: tuple[int, ...]
    update: Callable[[Before], After]
    new: tuple[float, float]  # (mu, sigma) of a player new to the pool and speed

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"a player sits twice in a rated game: {list(self.players)}")
        if len(self.places) != len(self.players):
            raise ValueError(f"{len(self.places)} places for {len(self.players)} players")


async def apply(conn: AsyncConnection, table_id: str, at: float, game: RatedGame) -> None:
    """Apply ``game``'s rating change within ``conn``'s transaction (which holds the write lock)."""
    r = schema.ratings.c
    rows = (
        await conn.execute(
            select(r.player_id, r.mu, r.sigma, r.games)
            .where(r.player_id.in_(game.players), r.pool == game.pool, r.speed == game.speed)
            .with_for_update()
        )
    ).all()
    found = {p: (mu, sigma, games) for p, mu, sigma, games in rows}
    before = [found.get(p, (*game.new, 0)) for p in game.players]
    after = game.update(before)
    changes = []
    for seat, (player, old, new) in enumerate(zip(game.players, before, after, strict=True)):
        mu, sigma = new
        key = and_(r.player_id == player, r.pool == game.pool, r.speed == game.speed)
        if player not in found:
            await conn.execute(
                insert(schema.ratings).values(
                    player_id=player,
                    pool=game.pool,
                    speed=game.speed,
                    mu=mu,
                    sigma=sigma,
                    games=1,
                    played_at=at,
                )
            )
        else:
            await conn.execute(
                update(schema.ratings)
                .where(key)
                .values(mu=mu, sigma=sigma, games=old[2] + 1, played_at=at)
            )
        changes.append(
            {
                "table_id": table_id,
                "player_id": player,
                "pool": game.pool,
                "speed": game.speed,
                "seat": seat,
                "place": game.places[seat],
                "mu_before": old[0],
                "sigma_before": old[1],
                "mu_after": mu,
                "sigma_after": sigma,
                "at": at,
            }
        )
    await conn.execute(insert(schema.rating_changes), changes)


@uninterrupted_calls
class Ratings:
    """Reads of ranked ratings (the writes happen in ``Store.finish_table``)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def of_player(self, player_id: str) -> list[StoredRating]:
        r = schema.ratings.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(*_RATING).where(r.player_id == player_id).order_by(r.pool, r.speed)
            )
            return [StoredRating(*row) for row in rows]

    async def changes(self, table_id: str) -> list[RatingChange]:
        """A game's rating changes, by seat."""
        c = schema.rating_changes.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(*_CHANGE).where(c.table_id == table_id).order_by(c.seat)
            )
            return [RatingChange(*row) for row in rows]

    async def history(self, player_id: str, pool: str, speed: str) -> list[RatingChange]:
        """A player's rated games in one pool and speed, oldest first."""
        c = schema.rating_changes.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(*_CHANGE)
                .where(c.player_id == player_id, c.pool == pool, c.speed == speed)
                .order_by(c.at, c.table_id)
            )
            return [RatingChange(*row) for row in rows]

    async def played_together_since(
        self, player_id: str, other_id: str, pool: str, speed: str, since: float
    ) -> bool:
        """Whether the two players sat at one rated game of the pool and speed since ``since``
        (the recent-opponent rule of ranked challenges)."""
        c = schema.rating_changes.c
        theirs = select(c.table_id).where(c.player_id == other_id, c.at >= since)
        there = exists().where(
            c.player_id == player_id,
            c.pool == pool,
            c.speed == speed,
            c.at >= since,
            c.table_id.in_(theirs),
        )
        async with self.engine.connect() as conn:
            return bool((await conn.execute(select(there))).scalar())

    async def leaderboard(
        self, pool: str, speed: str, *, min_games: int, since: float, limit: int
    ) -> list[tuple[StoredRating, str, str | None]]:
        """The best-rated players with ``min_games`` who played since ``since``, with name and username."""
        r, p = schema.ratings.c, schema.players.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(*_RATING, p.name, p.username)
                .join_from(schema.ratings, schema.players, p.id == r.player_id)
                .where(
                    r.pool == pool,
                    r.speed == speed,
                    r.games >= min_games,
                    r.played_at >= since,
                )
                .order_by(r.mu.desc(), r.player_id)
                .limit(limit)
            )
            return [(StoredRating(*row[:7]), row[7], row[8]) for row in rows]

    async def put(self, rating: StoredRating) -> None:
        """Set a rating outright (benchmarks and tests seed players this way; play never does)."""
        r = schema.ratings.c
        key = and_(r.player_id == rating.player_id, r.pool == rating.pool, r.speed == rating.speed)
        values = {"mu": rating.mu, "sigma": rating.sigma, "games": rating.games}
        async with self.engine.begin() as conn:
            changed = await conn.execute(
                update(schema.ratings).where(key).values(**values, played_at=rating.played_at)
            )
            if changed.rowcount == 0:
                await conn.execute(
                    insert(schema.ratings).values(
                        player_id=rating.player_id,
                        pool=rating.pool,
                        speed=rating.speed,
                        played_at=rating.played_at,
                        **values,
                    )
                )


_r = schema.ratings.c
_RATING = (_r.player_id, _r.pool, _r.speed, _r.mu, _r.sigma, _r.games, _r.played_at)
_c = schema.rating_changes.c
_CHANGE = (
    _c.table_id,
    _c.player_id,
    _c.pool,
    _c.speed,
    _c.seat,
    _c.place,
    _c.mu_before,
    _c.sigma_before,
    _c.mu_after,
    _c.sigma_after,
    _c.at,
)
