"""Ranked play over HTTP (docs/protocol.md): the queue, a player's ratings, a pool's leaderboard."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..hall import HallError, Person, messages
from ..hall.accounts import Accounts, RatingChange, StoredRating
from ..hall.ratings import POOLS, RatingError, Skill, Speed, get_pool, get_speed
from ..hall.seeking import Matchmaker, SeekStatus
from .api import accounts_of, current_player, fields_of

LEADERBOARD_GAMES = 10  # rated games needed to appear (no longer provisional)
LEADERBOARD_DAYS = 30  # ... and played within this many days
LEADERBOARD_SIZE = 100


def _matchmaker(request: Request) -> Matchmaker:
    return request.app.state.matchmaker  # type: ignore[no-any-return]


async def _signed(request: Request) -> tuple[Person, bool]:
    player = await current_player(request)
    if player is None:
        raise HallError("not_signed_in", "sign in first (as a guest or with an account)")
    return Person(player.id, player.name), player.username is not None


async def join_queue(request: Request) -> Response:
    person, account = await _signed(request)
    body = await fields_of(request)
    body.only(("pool", "players", "speed", "ranked", "arena"))
    pool = body.text("pool", required=True)
    players = body.integer("players")
    speed = body.text("speed")
    ranked = body.flag("ranked")
    arena = body.flag("arena")  # the game also counts for the season (docs/arena.md)
    matchmaker = _matchmaker(request)
    await matchmaker.seek(
        person,
        account=account,
        pool=pool,
        players=players,
        speed=speed,
        ranked=True if ranked is None else ranked,
        arena=bool(arena),
    )
    return JSONResponse(seek_json(await matchmaker.status(person.id)))


async def cancel_queue(request: Request) -> Response:
    person, _ = await _signed(request)
    (await fields_of(request)).only(())
    return JSONResponse({"cancelled": await _matchmaker(request).cancel(person.id)})


async def play_computer(request: Request) -> Response:
    """Quick play's fallback: leave the queue for a table against computer players."""
    person, _ = await _signed(request)
    (await fields_of(request)).only(())
    matchmaker = _matchmaker(request)
    await matchmaker.play_computer(person)
    return JSONResponse(seek_json(await matchmaker.status(person.id)))


async def queue_status(request: Request) -> Response:
    person, _ = await _signed(request)
    matchmaker = _matchmaker(request)
    await matchmaker.looked(person.id)  # a seeker who looks is still there
    return JSONResponse(seek_json(await matchmaker.status(person.id)))


def seek_json(status: SeekStatus) -> messages.SeekAnswer:
    """A player's seek as docs/protocol.md 5 writes it."""
    seeker = status.seeker
    answer: messages.SeekAnswer = {"seeking": None, "table": status.table}
    if seeker is not None:
        b = seeker.bucket
        answer["seeking"] = {
            "pool": b.pool,
            "players": b.players,
            "speed": b.speed.value,
            "ranked": b.ranked,
            "arena": b.arena,
            "rating": seeker.rating if b.ranked else None,
            "waited": round(status.now - seeker.joined_at, 1),
        }
    if status.queue is not None:
        wait = status.queue.average_wait
        answer["queue"] = {
            "waiting": status.queue.waiting,
            "average_wait": None if wait is None else round(wait, 1),
        }
    if status.computer_after is not None:
        answer["computer_after"] = status.computer_after
    return answer


def rating_json(r: StoredRating) -> messages.Rating:
    skill = Skill(r.mu, r.sigma, r.games)
    return {
        "pool": r.pool,
        "speed": r.speed,
        "rating": skill.shown,
        "provisional": skill.provisional,
        "label": skill.label,
        "games": r.games,
    }


async def ratings_of(accounts: Accounts, player_id: str) -> list[messages.RatingWithHistory]:
    """A player's ratings per pool and speed, each with its history (one point per rated game)."""
    ratings: list[messages.RatingWithHistory] = []
    for r, history in await accounts.ratings_of(player_id):
        ratings.append(
            {
                **rating_json(r),
                "history": [
                    {
                        "table": h.table_id,
                        "at": h.at,
                        "place": h.place,
                        "rating": Skill(h.mu_after).shown,
                        "change": Skill(h.mu_after).shown - Skill(h.mu_before).shown,
                    }
                    for h in history
                ],
            }
        )
    return ratings


async def leaderboard(request: Request) -> Response:
    """The best players of a pool at one speed who have enough games and played lately."""
    try:
        pool = get_pool(request.path_params["pool"])
        speed = get_speed(request.query_params.get("speed", Speed.REAL_TIME.value))
    except RatingError as exc:
        code = "no_pool" if "pool" in str(exc) else "bad_request"
        raise HallError(code, str(exc)) from None
    since = request.app.state.hall.clock.now() - LEADERBOARD_DAYS * 86400
    rows = await accounts_of(request).leaderboard(
        pool.id, speed.value, min_games=LEADERBOARD_GAMES, since=since, limit=LEADERBOARD_SIZE
    )
    return JSONResponse(
        {
            "pool": pool.id,
            "speed": speed.value,
            "pools": list(POOLS),
            "min_games": LEADERBOARD_GAMES,
            "days": LEADERBOARD_DAYS,
            "players": [
                {"name": name, "username": username, **rating_json(r)} for r, name, username in rows
            ],
        }
    )


async def game_ratings(request: Request) -> Response:
    """A game's rating changes by seat, for the end-of-game screen (an empty list: unrated)."""
    accounts, game_id = accounts_of(request), request.path_params["game_id"]
    if await accounts.table_finished(game_id) is None:
        raise HallError("no_game", "there is no game {game_id!r}", game_id=game_id)
    changes = await accounts.rating_changes(game_id)
    return JSONResponse({"ratings": changes_json(changes)})


def changes_json(changes: list[RatingChange]) -> list[messages.RatingChange]:
    """A game's rating changes as clients see them (shown ratings, the change such as +12)."""
    return [
        {
            "seat": c.seat,
            "place": c.place,
            "pool": c.pool,
            "speed": c.speed,
            "before": Skill(c.mu_before).shown,
            "after": Skill(c.mu_after).shown,
            "change": Skill(c.mu_after).shown - Skill(c.mu_before).shown,
        }
        for c in changes
    ]
