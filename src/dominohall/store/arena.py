"""Arena seasons in the database: the seasons, the standings, each arena game's change, and a
season's end (its standings frozen, awards, the next season) in one transaction.

The store knows rows, not the arena's rules: a game brings its own ``update`` and a season's
end its ``settle`` (``hall/arena.py``, ``hall/seasons.py``), called inside the transaction.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import and_, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import schema
from .uninterrupted import uninterrupted_calls


@dataclass(frozen=True)
class Season:
    pool: str
    speed: str
    number: int
    starts_at: float
    ends_at: float
    closed_at: float | None


@dataclass(frozen=True)
class SeasonStanding:
    """A player's standing in one season: league (``hall/arena.League``), points, the season
    rating, and the games counted."""

    player_id: str
    league: int
    points: int
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int


@dataclass(frozen=True)
class Award:
    """A season's end for one player: the league finished in, the rank, a trophy (1-3) or None."""

    player_id: str
    pool: str
    speed: str
    season: int
    league: int
    rank: int
    trophy: int | None
    at: float


# Per seat, its standing before the game -> (league, points, mu, sigma, won, lost) after it.
Update = Callable[[Sequence[SeasonStanding]], Sequence[tuple[int, int, float, float, bool, bool]]]


@dataclass(frozen=True)
class ArenaGame:
    """An arena game's players (per seat), their places, and how it changes their standings."""

    pool: str
    speed: str
    players: tuple[str, ...]
    places: tuple[int, ...]
    update: Update
    new: tuple[float, float]  # the season rating (mu, sigma) a player starts a season with
    # When the game started: it counts for the season open then (None: the latest open one).
    started_at: float | None = None


# A season's standings -> its awards (player, league, rank, trophy) and each player's league
# in the next season.
Settle = Callable[
    [Sequence[SeasonStanding]],
    tuple[Sequence[tuple[str, int, int, int | None]], Sequence[tuple[str, int]]],
]


async def apply(conn: AsyncConnection, table_id: str, at: float, game: ArenaGame) -> None:
    """Count ``game`` for the season of its pool and speed in which it started, within
    ``conn``'s transaction (which holds the write lock): a real-time game ending after its
    season's end counts for that season, still open while such games run (``Seasons``). A game
    whose season is closed already (or of unknown start) counts for the latest open one; one
    already counted (settled at a season's end) is not counted again; with no open season
    (none begun yet) it counts for none."""
    rc = schema.arena_results.c
    if (await conn.execute(select(rc.table_id).where(rc.table_id == table_id).limit(1))).first():
        return
    s = schema.arena_seasons.c
    # Locked: a season's end (which sets closed_at) waits for this game, or this game for it.
    rows = (
        await conn.execute(
            select(s.number, s.starts_at, s.ends_at)
            .where(s.pool == game.pool, s.speed == game.speed, s.closed_at.is_(None))
            .order_by(s.number.desc())
            .with_for_update()
        )
    ).all()
    if not rows:
        return
    started = game.started_at
    number = next(
        (n for n, start, end in rows if started is not None and start <= started < end),
        rows[0][0],
    )
    await _count(conn, table_id, at, game, number)


async def _count(
    conn: AsyncConnection, table_id: str, at: float, game: ArenaGame, season: int
) -> None:
    st = schema.arena_standings.c
    where = and_(st.pool == game.pool, st.speed == game.speed, st.season == season)
    rows = (
        await conn.execute(
            select(*_STANDING).where(where, st.player_id.in_(game.players)).with_for_update()
        )
    ).all()
    found = {r[0]: SeasonStanding(*r) for r in rows}
    before = [found.get(p, SeasonStanding(p, 0, 0, *game.new, 0, 0, 0)) for p in game.players]
    after = game.update(before)
    results = []
    for seat, (old, new) in enumerate(zip(before, after, strict=True)):
        league, points, mu, sigma, won, lost = new
        values = {
            "league": league,
            "points": points,
            "mu": mu,
            "sigma": sigma,
            "games": old.games + 1,
            "wins": old.wins + int(won),
            "losses": old.losses + int(lost),
        }
        if old.player_id in found:
            await conn.execute(
                update(schema.arena_standings)
                .where(where, st.player_id == old.player_id)
                .values(**values)
            )
        else:
            await conn.execute(
                insert(schema.arena_standings).values(
                    pool=game.pool,
                    speed=game.speed,
                    season=season,
                    player_id=old.player_id,
                    **values,
                )
            )
        results.append(
            {
                "table_id": table_id,
                "player_id": old.player_id,
                "pool": game.pool,
                "speed": game.speed,
                "season": season,
                "place": game.places[seat],
                "league_before": old.league,
                "points_before": old.points,
                "league_after": league,
                "points_after": points,
                "at": at,
            }
        )
    await conn.execute(insert(schema.arena_results), results)


@uninterrupted_calls
class Arena:
    """The seasons and standings: reads, the first season begun, a season's end."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def begin_first(
        self, pairs: Sequence[tuple[str, str]], starts_at: float, ends_at: float
    ) -> None:
        """Begin the first season of each (pool, speed) of ``pairs`` that has none, in one
        statement (whichever process comes first: the key lets one in; a process that lost
        the race finds them begun)."""
        s = schema.arena_seasons.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(s.pool, s.speed).distinct())
            there = {(pool, speed) for pool, speed in rows}
        missing = [
            {"pool": pool, "speed": speed, "number": 1, "starts_at": starts_at, "ends_at": ends_at}
            for pool, speed in pairs
            if (pool, speed) not in there
        ]
        if not missing:
            return
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(schema.arena_seasons), missing)
        except IntegrityError:  # another process began some of them: the rest one by one
            for row in missing:
                with contextlib.suppress(IntegrityError):
                    async with self.engine.begin() as conn:
                        await conn.execute(insert(schema.arena_seasons).values(**row))

    async def open_seasons(self) -> list[Season]:
        """Every pool and speed's open season."""
        s = schema.arena_seasons.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(*_SEASON).where(s.closed_at.is_(None)))
            return [Season(*r) for r in rows]

    async def current(self, pool: str, speed: str) -> Season | None:
        """The open season of a pool and speed (None before its first)."""
        s = schema.arena_seasons.c
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(*_SEASON)
                    .where(s.pool == pool, s.speed == speed, s.closed_at.is_(None))
                    .order_by(s.number.desc())
                    .limit(1)
                )
            ).first()
        return Season(*row) if row is not None else None

    async def season(self, pool: str, speed: str, number: int) -> Season | None:
        s = schema.arena_seasons.c
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(*_SEASON).where(s.pool == pool, s.speed == speed, s.number == number)
                )
            ).first()
        return Season(*row) if row is not None else None

    async def begin_next(self, season: Season, following: tuple[float, float]) -> None:
        """The season after ``season`` begun (``following``: its start and end) unless it is
        already: games started from its start count there while ``season`` waits to close."""
        s = schema.arena_seasons.c
        key = and_(s.pool == season.pool, s.speed == season.speed, s.number == season.number + 1)
        async with self.engine.connect() as conn:
            if (await conn.execute(select(s.number).where(key))).first() is not None:
                return
        with contextlib.suppress(IntegrityError):  # (begun meanwhile by another process)
            async with self.engine.begin() as conn:
                await conn.execute(
                    insert(schema.arena_seasons).values(
                        pool=season.pool,
                        speed=season.speed,
                        number=season.number + 1,
                        starts_at=following[0],
                        ends_at=following[1],
                    )
                )

    async def close(
        self,
        season: Season,
        at: float,
        following: tuple[float, float],
        new: tuple[float, float],
        settled: Sequence[tuple[str, ArenaGame]],
        settle: Settle,
    ) -> bool:
        """End ``season`` once: in one transaction it is marked closed (only if it was open:
        False, nothing done, when another process or an earlier start closed it), the games
        ``settled`` at its end are counted in it, its awards written, and the next season begun
        (``following``: its start and end; unless ``begin_next`` began it) with the players'
        leagues as ``settle`` says, no points, and the season rating ``new`` (mu, sigma). A
        player who played in the next season already (it began while this one waited for its
        real-time games) keeps their points there, in the higher of the two leagues."""
        s, st = schema.arena_seasons.c, schema.arena_standings.c
        key = and_(s.pool == season.pool, s.speed == season.speed, s.number == season.number)
        async with self.engine.begin() as conn:
            closed = await conn.execute(
                update(schema.arena_seasons).where(key, s.closed_at.is_(None)).values(closed_at=at)
            )
            if closed.rowcount != 1:
                return False
            rc = schema.arena_results.c
            for table_id, game in settled:
                counted = select(rc.table_id).where(rc.table_id == table_id).limit(1)
                if (await conn.execute(counted)).first() is None:
                    await _count(conn, table_id, at, game, season.number)
            rows = await conn.execute(
                select(*_STANDING).where(
                    st.pool == season.pool, st.speed == season.speed, st.season == season.number
                )
            )
            standings = [SeasonStanding(*r) for r in rows]
            awards, leagues = settle(standings)
            if awards:
                await conn.execute(
                    insert(schema.arena_awards),
                    [
                        {
                            "player_id": player,
                            "pool": season.pool,
                            "speed": season.speed,
                            "season": season.number,
                            "league": league,
                            "rank": rank,
                            "trophy": trophy,
                            "at": at,
                        }
                        for player, league, rank, trophy in awards
                    ],
                )
            nxt = season.number + 1
            begun = select(s.number).where(
                s.pool == season.pool, s.speed == season.speed, s.number == nxt
            )
            if (await conn.execute(begun)).first() is None:
                await conn.execute(
                    insert(schema.arena_seasons).values(
                        pool=season.pool,
                        speed=season.speed,
                        number=nxt,
                        starts_at=following[0],
                        ends_at=following[1],
                    )
                )
            there = {
                r[0]: r[1]
                for r in await conn.execute(
                    select(st.player_id, st.league).where(
                        st.pool == season.pool, st.speed == season.speed, st.season == nxt
                    )
                )
            }
            for player, league in leagues:
                if player in there and league > there[player]:
                    await conn.execute(
                        update(schema.arena_standings)
                        .where(
                            st.pool == season.pool,
                            st.speed == season.speed,
                            st.season == nxt,
                            st.player_id == player,
                        )
                        .values(league=league)
                    )
            leagues = [(p, league) for p, league in leagues if p not in there]
            mu, sigma = new
            starting = [
                {
                    "pool": season.pool,
                    "speed": season.speed,
                    "season": nxt,
                    "player_id": player,
                    "league": league,
                    "points": 0,
                    "mu": mu,
                    "sigma": sigma,
                    "games": 0,
                    "wins": 0,
                    "losses": 0,
                }
                for player, league in leagues
            ]
            if starting:
                await conn.execute(insert(schema.arena_standings), starting)
            return True

    async def standings(
        self, pool: str, speed: str, season: int, limit: int
    ) -> list[tuple[SeasonStanding, str, str | None]]:
        """A season's standings with each player's name and username: by league, then Elite
        by season rating and the others by points, then games won (the order ``settle`` ranks
        by too)."""
        st, p = schema.arena_standings.c, schema.players.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(*_STANDING, p.name, p.username)
                .join_from(schema.arena_standings, schema.players, p.id == st.player_id)
                .where(st.pool == pool, st.speed == speed, st.season == season)
                .order_by(
                    st.league.desc(),
                    st.points.desc(),
                    st.mu.desc(),
                    st.wins.desc(),
                    st.player_id,
                )
                .limit(limit)
            )
            return [(SeasonStanding(*r[:8]), r[8], r[9]) for r in rows]

    async def of_player(self, player_id: str) -> list[tuple[Season, SeasonStanding]]:
        """A player's standings in the open seasons (those they have one in), the newest first
        of each pool and speed (a season past its end stays open while its real-time arena
        games finish, beside the next)."""
        s, st = schema.arena_seasons.c, schema.arena_standings.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(*_SEASON, *_STANDING)
                .join_from(
                    schema.arena_standings,
                    schema.arena_seasons,
                    and_(s.pool == st.pool, s.speed == st.speed, s.number == st.season),
                )
                .where(st.player_id == player_id, s.closed_at.is_(None))
                .order_by(s.pool, s.speed, s.number.desc())
            )
            return [(Season(*r[:6]), SeasonStanding(*list(r)[6:])) for r in rows]

    async def awards_of(self, player_id: str) -> list[Award]:
        """A player's awards of every season ended, newest first."""
        a = schema.arena_awards.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(a.player_id, a.pool, a.speed, a.season, a.league, a.rank, a.trophy, a.at)
                .where(a.player_id == player_id)
                .order_by(a.at.desc(), a.pool, a.speed)
            )
            return [Award(*r) for r in rows]

    async def awards(self, pool: str, speed: str, season: int) -> list[Award]:
        """A season's awards, by rank."""
        a = schema.arena_awards.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(a.player_id, a.pool, a.speed, a.season, a.league, a.rank, a.trophy, a.at)
                .where(a.pool == pool, a.speed == speed, a.season == season)
                .order_by(a.rank)
            )
            return [Award(*r) for r in rows]


_s = schema.arena_seasons.c
_SEASON = (_s.pool, _s.speed, _s.number, _s.starts_at, _s.ends_at, _s.closed_at)
_st = schema.arena_standings.c
_STANDING = (
    _st.player_id,
    _st.league,
    _st.points,
    _st.mu,
    _st.sigma,
    _st.games,
    _st.wins,
    _st.losses,
)
