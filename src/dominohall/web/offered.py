"""What a table or a seek may choose, as the page is offered it (``GET /api/presets``,
``GET /api/timers``): the timers with the turn-based clocks, and the ranked pools."""

from __future__ import annotations

from ..hall import messages
from ..hall.options import TURN_BASED, TURN_SECONDS
from ..hall.ratings import POOLS, RANKED_TIMERS, Pool
from ..hall.turn_view import clock_json
from ..rules import PRESETS


def timers_json() -> list[messages.Timer]:
    """Every timer a table may choose: the real-time ones, then the turn-based clocks."""
    real_time: list[messages.Timer] = [
        {"id": t, "speed": "real-time", "name": t.title(), "turn_seconds": s}
        for t, s in TURN_SECONDS.items()
    ]
    return real_time + [clock_json(c) for c in TURN_BASED.values()]


def pool_json(pool: Pool) -> messages.Pool:
    """A ranked pool as the page offers it (docs/ratings.md)."""
    return {
        "id": pool.id,
        "name": PRESETS[pool.preset].name,
        "preset": pool.preset,
        "target": pool.target,
        "players": list(pool.players),
        "teams": pool.teams,
        "timers": {speed.value: timer for speed, timer in RANKED_TIMERS.items()},
    }


def pools_json() -> list[messages.Pool]:
    return [pool_json(p) for p in POOLS.values()]
