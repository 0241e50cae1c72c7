"""The arena over HTTP (docs/protocol.md 5, docs/arena.md): a pool's season leaderboard, and a
player's leagues and awards as their profile shows them."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..hall import HallError, messages
from ..hall.arena import CLIMB, League, Standing
from ..hall.ratings import POOLS, RatingError, Skill, Speed, get_pool, get_speed
from ..hall.seasons import Seasons

LEADERBOARD_SIZE = 100


def _seasons(request: Request) -> Seasons:
    return request.app.state.seasons  # type: ignore[no-any-return]


async def leaderboard(request: Request) -> Response:
    """``GET /api/arena/{pool}?speed=&season=``: a season's standings (the current season
    unless ``season`` names one), with the trophies of an ended season."""
    try:
        pool = get_pool(request.path_params["pool"])
        speed = get_speed(request.query_params.get("speed", Speed.REAL_TIME.value))
    except RatingError as exc:
        code = "no_pool" if "pool" in str(exc) else "bad_request"
        raise HallError(code, str(exc)) from None
    asked = request.query_params.get("season")
    number: int | None = None
    if asked is not None:
        if not asked.isdigit() or int(asked) < 1:
            raise HallError("bad_request", "season is a number from 1, not {asked!r}", asked=asked)
        number = int(asked)
    seasons = _seasons(request)
    season = await seasons.season(pool.id, speed.value, number)
    if season is None:
        if number is None:
            raise HallError(
                "no_season",
                "the {pool_id} {speed_value} arena has no season yet",
                pool_id=pool.id,
                speed_value=speed.value,
            )
        raise HallError(
            "no_season",
            "the {pool_id} {speed_value} arena has no season {number}",
            pool_id=pool.id,
            speed_value=speed.value,
            number=number,
        )
    trophies = {a.player_id: a.trophy for a in await seasons.awards(season)}
    rows = await seasons.standings(season, LEADERBOARD_SIZE)
    return JSONResponse(
        {
            "pool": pool.id,
            "speed": speed.value,
            "pools": list(POOLS),
            "leagues": [league.title for league in League],
            "climb": CLIMB,
            "season": {
                "number": season.number,
                "starts_at": season.starts_at,
                "ends_at": season.ends_at,
                "ended": season.closed_at is not None,
            },
            "players": [
                {
                    "rank": rank,
                    "name": name,
                    "username": username,
                    **standing_json(s.league, s.points),
                    "season_rating": Skill(s.mu).shown,
                    "games": s.games,
                    "wins": s.wins,
                    "losses": s.losses,
                    "trophy": trophies.get(s.player_id),
                }
                for rank, (s, name, username) in enumerate(rows, 1)
            ],
        }
    )


def standing_json(league: int, points: int) -> messages.League:
    standing = Standing(League(league), points)
    return {"league": standing.league.title, "points": points, "label": standing.label}


async def arena_of(seasons: Seasons, player_id: str) -> messages.ArenaOf:
    """A profile's arena: the player's league and points in each current season they are in,
    and the badges and trophies of the seasons ended."""
    current: list[messages.ArenaStanding] = [
        {
            "pool": season.pool,
            "speed": season.speed,
            "season": season.number,
            **standing_json(s.league, s.points),
            "games": s.games,
        }
        for season, s in await seasons.of_player(player_id)
    ]
    awards: list[messages.ArenaAward] = [
        {
            "pool": a.pool,
            "speed": a.speed,
            "season": a.season,
            "league": League(a.league).title,
            "rank": a.rank,
            "trophy": a.trophy,
        }
        for a in await seasons.awards_of(player_id)
    ]
    return {"current": current, "awards": awards}
