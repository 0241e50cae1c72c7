"""A player's profile over HTTP: ratings with their history, statistics, the recent games."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ..hall import HallError, messages
from ..hall.accounts import PresetStats
from ..hall.ratings import PROVISIONAL_GAMES
from ..rules import get_preset
from .accounts import normal_username
from .api import accounts_of, current_player
from .arena import arena_of
from .games import games_json, indexer, json_answer
from .ranked import ratings_of

RECENT = 10  # games on the profile; the rest page by page (/api/players/{u}/games)


def _rate(won: int, games: int) -> float | None:
    return None if games == 0 else round(won / games, 3)


def stats_json(per_preset: list[PresetStats]) -> messages.Stats:
    """The profile's numbers: all games together, and per preset (docs/protocol.md section 6)."""

    def numbers(
        games: int, won: int, lost: int, out: int, block: int, timeouts: int, walked: int
    ) -> messages.StatNumbers:
        return {
            "games": games,
            "won": won,
            "lost": lost,
            "win_rate": _rate(won, games),
            "finished": games - walked,
            "finished_share": _rate(games - walked, games),
            "hands_won_out": out,
            "hands_won_block": block,
            "timeouts": timeouts,
        }

    total = numbers(
        *(
            sum(getattr(p, f) for p in per_preset)
            for f in ("games", "won", "lost", "hands_out", "hands_block", "timeouts", "walked_out")
        )
    )
    return {
        **total,
        "presets": [
            {
                "preset": p.preset,
                "preset_name": get_preset(p.preset).name,
                **numbers(
                    p.games, p.won, p.lost, p.hands_out, p.hands_block, p.timeouts, p.walked_out
                ),
                "hands": p.hands,
                "points": p.points,
                "points_per_hand": None if p.hands == 0 else round(p.points / p.hands, 2),
            }
            for p in per_preset
        ],
    }


async def player(request: Request) -> Response:
    """``GET /api/players/{username}``: who, ratings (with history), stats, recent games."""
    accounts = accounts_of(request)
    name = request.path_params["username"]
    found = await accounts.player_by_username(normal_username(name))
    if found is None or found.username is None:
        raise HallError("no_player", "there is no player {name!r}", name=name)
    await indexer(request).catch_up()
    viewer = await current_player(request)
    recent = await accounts.games_page(
        found.id, before=None, limit=RECENT, viewer=viewer.id if viewer else None
    )
    return json_answer(
        request,
        {
            "player": {"name": found.name, "username": found.username},
            "ratings": await ratings_of(accounts, found.id),
            "provisional_games": PROVISIONAL_GAMES,
            "arena": await arena_of(request.app.state.seasons, found.id),
            "stats": stats_json(await accounts.stats(found.id)),
            "recent": await games_json(accounts, recent.games, seat_of=found.id),
        },
    )
