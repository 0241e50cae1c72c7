"""A ranked table's end as a rating change: who is rated, their places, or nothing when aborted."""

from __future__ import annotations

from ..store.ratings import RatedGame, Ratings
from .ratings import NEW, Skill, Speed, get_pool, placings, rated_game
from .table import TableState


def rated_result(state: TableState) -> RatedGame | None:
    """The rating change a finished table brings (None: casual, closed, or aborted: unrated).

    Every seat of a ranked table was a person's when the game started; a computer player that
    took over a seat is not rated, and the person it replaced is, placed as RULES.md 6 says.
    """
    pool_id, result, game = state.options.ranked, state.result, state.game
    if pool_id is None or result is None or game is None or result["reason"] == "aborted":
        return None
    pool = get_pool(pool_id)
    players = [seat.player for seat in state.seats]
    if any(p is None for p in players):
        return None  # not a table the matchmaking seated: nothing to rate
    places = placings(game.seat_scores(), result["winner"], result["placed_last"], teams=pool.teams)
    speed = Speed.TURN_BASED if state.options.turn_based is not None else Speed.REAL_TIME
    return rated_game(pool, speed, [p for p in players if p is not None], places)


async def shown_ratings(ratings: Ratings, state: TableState) -> dict[str, str]:
    """Each player's rating at a ranked table as players read it (``"1642"``, ``"1500?"`` for
    one new to the pool), in the table's pool and speed, by player id; nothing when casual."""
    pool = state.options.ranked
    shown: dict[str, str] = {}
    if pool is None:
        return shown
    for seat in state.seats:
        if seat.player is None or seat.player in shown:
            continue
        stored = [
            r
            for r in await ratings.of_player(seat.player)
            if r.pool == pool and r.speed == state.options.speed
        ]
        skill = Skill(stored[0].mu, stored[0].sigma, stored[0].games) if stored else NEW
        shown[seat.player] = skill.label
    return shown
