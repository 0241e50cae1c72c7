"""What the lobby shows of a table: an open table waiting for players, or a game in progress
that anyone may watch; never a private table, never a tile (docs/protocol.md 12).

The table's owner makes its entry after each change (``Hall._follow``) and puts it on the lobby's
board (``lobby_board.py``) only when it differs from the last one it put: moves within a hand
change nothing here, so the lobby hears of a table a few times a game.
"""

from __future__ import annotations

from typing import Literal

from ..store.ratings import Ratings
from . import views
from .messages import LobbyTable
from .ratings import NEW, POOLS, Skill
from .table import Phase, TableState

_PLAYING = (Phase.PLAYING, Phase.BETWEEN_HANDS)


def entry_of(state: TableState, ratings: dict[str, str | None]) -> LobbyTable | None:
    """The table as the lobby shows it (None: not in the lobby). ``ratings``: each person's
    shown rating by player id (``seat_ratings``)."""
    if state.options.private:
        return None  # (a private table is never in the lobby, watchable by its link or not)
    if state.phase is Phase.SEATING and state.free_seats():
        kind: Literal["open", "game"] = "open"
    elif state.phase in _PLAYING and state.options.watchable:
        kind = "game"
    else:
        return None
    shown = [ratings.get(s.player) if s.player is not None else None for s in state.seats]
    numbers = [rating_number(r) for r in shown if r is not None]
    game = state.game
    return {
        "id": state.id,
        "kind": kind,
        "table": views.summary(state),
        "ratings": shown,
        "rating": round(sum(numbers) / len(numbers)) if numbers else None,
        "scores": game.seat_scores() if kind == "game" and game is not None else None,
    }


def rating_number(label: str) -> int:
    """A shown rating as a number ("1500?" is 1500).

    >>> rating_number("1642"), rating_number("1500?")
    (1642, 1500)
    """
    return int(label.rstrip("?"))


def featured(tables: list[LobbyTable]) -> str | None:
    """The game the lobby features: the highest-rated game in progress (people's mean rating),
    the newest among equals; None when no game is in progress."""
    games = [t for t in tables if t["kind"] == "game"]
    if not games:
        return None
    best = max(games, key=lambda t: (t["rating"] or 0, t["table"]["created_at"], t["id"]))
    return best["id"]


def pool_of(state: TableState) -> str | None:
    """The pool whose ratings the lobby shows for a table: its own when ranked, else the pool
    of its preset when that pool plays its number of seats (None: no pool, no ratings)."""
    if state.options.ranked is not None:
        return state.options.ranked
    pool = POOLS.get(state.options.preset)
    if pool is None or len(state.seats) not in pool.players:
        return None
    return pool.id


async def seat_ratings(
    store: Ratings, state: TableState, known: dict[str, str | None]
) -> dict[str, str | None]:
    """The shown rating of each person seated at the table, in its pool and speed (``pool_of``;
    "1500?" for one new to it, None with no pool), read from the store for those not ``known``
    yet: a table's owner reads each person once, when they sit down."""
    pool = pool_of(state)
    people = {s.player for s in state.seats if s.player is not None}
    ratings = {p: r for p, r in known.items() if p in people}
    for player in people - ratings.keys():
        if pool is None:
            ratings[player] = None
            continue
        stored = [
            r
            for r in await store.of_player(player)
            if r.pool == pool and r.speed == state.options.speed
        ]
        skill = Skill(stored[0].mu, stored[0].sigma, stored[0].games) if stored else NEW
        ratings[player] = skill.label
    return ratings
