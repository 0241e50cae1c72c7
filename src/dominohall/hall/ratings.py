"""Ranked play's numbers: the pools, a finished game's placings, openskill updates, the shown rating.

The skill behind a rating is openskill's Plackett-Luce (mu, sigma). What players see is mu alone
on an Elo-like scale (``docs/ratings.md`` says why), marked provisional while they have few games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from openskill.models import PlackettLuce

from ..rules.presets import PRESETS
from ..store.ratings import After, Before, RatedGame
from .options import RANKED_REAL_TIME, RANKED_TURN_BASED

# openskill's defaults, spelled out: they are also the stored skill of a new player.
MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)

SHOWN_NEW = 1500
# Between two settled players Plackett-Luce gives the stronger one a win probability of
# 1 / (1 + exp(-gap / (beta * sqrt 2))); Elo gives 1 / (1 + 10 ** (-gap / 400)). One unit of mu is
# this many rating points, so that 400 points mean ten-to-one odds, as players know from chess.
POINTS_PER_MU = 400 / (math.log(10) * BETA * math.sqrt(2))
PROVISIONAL_GAMES = 10  # fewer rated games than this: the rating is shown as "1500?"


class Speed(Enum):
    REAL_TIME = "real-time"
    TURN_BASED = "turn-based"


# The timer of a ranked game at each speed: Normal in real time, 1 move per day turn-based.
RANKED_TIMERS = {Speed.REAL_TIME: RANKED_REAL_TIME, Speed.TURN_BASED: RANKED_TURN_BASED}


@dataclass(frozen=True)
class Pool:
    """A ranked pool (RULES.md section 6): one preset at its default target, for some player counts."""

    id: str
    preset: str
    target: int
    players: tuple[int, ...]
    teams: bool


def _pool(preset_id: str) -> Pool:
    preset = PRESETS[preset_id]
    return Pool(preset_id, preset_id, preset.default_target, preset.players, preset.teams)


POOLS: dict[str, Pool] = {
    p.id: p for p in map(_pool, ("draw", "block", "all-fives", "partnership"))
}


class RatingError(ValueError):
    """A pool, speed or result that ranked play cannot rate; the message says which and why."""


def get_pool(pool_id: object) -> Pool:
    if not isinstance(pool_id, str) or pool_id not in POOLS:
        raise RatingError(f"unknown pool {pool_id!r} (pools: {', '.join(POOLS)})")
    return POOLS[pool_id]


def get_speed(speed: object) -> Speed:
    for s in Speed:
        if s.value == speed:
            return s
    raise RatingError(f"unknown speed {speed!r} (speeds: {', '.join(s.value for s in Speed)})")


@dataclass(frozen=True)
class Skill:
    """A player's skill in one pool at one speed; ``games`` counts the rated games behind it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def label(self) -> str:
        """The rating as players read it: ``"1500?"`` while provisional, ``"1642"`` after."""
        return f"{self.shown}?" if self.provisional else str(self.shown)


NEW = Skill()


def shown(mu: float) -> int:
    """The displayed rating of a skill mu: rises and falls with mu only, never with sigma.

    >>> shown(25.0)
    1500
    >>> shown(26.0) > shown(25.0) > shown(24.0)
    True
    """
    return SHOWN_NEW + math.floor((mu - MU) * POINTS_PER_MU + 0.5)


def placings(
    scores: Sequence[int], winner: int | None, out: Sequence[int] = (), *, teams: bool = False
) -> list[int]:
    """Each seat's place (1 is best, ties share a place) in a finished game of RULES.md section 6.

    Seats that were out of the game (``out``, in the order they went out) are placed last, the first
    out lowest; the rest by final score, the rules' ``winner`` first. With ``teams`` (seats 0 and 2
    against 1 and 3, each seat showing its team's score) a team with a seat out is placed below.

    >>> placings([50, 20, 31], winner=0)
    [1, 3, 2]
    >>> placings([40, 40, 10], winner=None, out=[2])
    [1, 1, 3]
    >>> placings([12, 60, 30, 60], winner=1, out=[1, 3])
    [2, 4, 1, 3]
    """
    n = len(scores)
    if winner is not None and not 0 <= winner < n:
        raise RatingError(f"winner {winner} is not a seat of a {n}-player game")
    if len(set(out)) != len(out) or any(not 0 <= s < n for s in out):
        raise RatingError(f"seats out {list(out)} are not distinct seats of a {n}-player game")
    if teams and n != 4:
        raise RatingError(f"a partnership game has 4 seats, not {n}")
    # A sort key per seat, larger is better: (not out, how late it went out, winner, score).
    first_out = {seat: i for i, seat in enumerate(out)}

    def unit(seat: int) -> int:
        """Who places together: a seat, or in partnership its team (seats 0, 2 and 1, 3)."""
        return seat % 2 if teams else seat

    keys: dict[int, tuple[int, int, int, int]] = {}
    for seat in range(n):
        members = [s for s in range(n) if unit(s) == unit(seat)]
        outs = [first_out[s] for s in members if s in first_out]
        keys[seat] = (
            0 if outs else 1,
            min(outs) if outs else 0,
            1 if winner is not None and unit(winner) == unit(seat) else 0,
            scores[seat],
        )
    return [1 + sum(keys[o] > keys[seat] for o in range(n)) for seat in range(n)]


def rate(skills: Sequence[Skill], places: Sequence[int], *, teams: bool = False) -> list[Skill]:
    """Every seat's skill after a game: openskill Plackett-Luce over the places of ``placings``.

    Without ``teams`` each seat is its own side; with it, seats 0 and 2 play 1 and 3 and both
    partners share their team's place.
    """
    if len(skills) != len(places):
        raise RatingError(f"{len(skills)} skills for {len(places)} places")
    if not 2 <= len(skills) <= 4:
        raise RatingError(f"a rated game has 2 to 4 seats, not {len(skills)}")
    sides = [[0, 2], [1, 3]] if teams else [[s] for s in range(len(skills))]
    if teams and (len(skills) != 4 or places[0] != places[2] or places[1] != places[3]):
        raise RatingError(f"partners must share a place in a 4-seat game, not {list(places)}")
    rated = MODEL.rate(
        [[MODEL.rating(mu=skills[s].mu, sigma=skills[s].sigma) for s in side] for side in sides],
        ranks=[places[side[0]] for side in sides],
    )
    after = list(skills)
    for side, new in zip(sides, rated, strict=True):
        for seat, r in zip(side, new, strict=True):
            after[seat] = Skill(r.mu, r.sigma, skills[seat].games + 1)
    return after


def rated_game(
    pool: Pool, speed: Speed, players: Sequence[str], places: Sequence[int]
) -> RatedGame:
    """A finished ranked game as the store applies it, with the openskill step as its update."""
    if len(players) not in pool.players:
        raise RatingError(f"pool {pool.id} is played by {pool.players} players, not {len(players)}")

    def update(before: Before) -> After:
        after = rate([Skill(*b) for b in before], places, teams=pool.teams)
        return [(s.mu, s.sigma) for s in after]

    return RatedGame(pool.id, speed.value, tuple(players), tuple(places), update, (MU, SIGMA))
