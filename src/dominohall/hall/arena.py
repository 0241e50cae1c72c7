"""The arena's rules as numbers (``docs/arena.md`` says why): leagues, what a game's place is
worth in arena points, climbing, and what the season's end does (trophies, badges, relegation).

Pure functions on plain values; the store applies them (``store/arena.py``) and the season's
end is run by ``seasons.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from .ratings import RatingError


class League(IntEnum):
    BRONZE = 0
    SILVER = 1
    GOLD = 2
    PLATINUM = 3
    DIAMOND = 4
    ELITE = 5

    @property
    def title(self) -> str:
        return self.name.capitalize()


CLIMB = 6  # arena points that take a player up one league (then counted from 0 again)
TROPHIES = 3  # the best of Elite by season rating at the season's end win a trophy: 1st, 2nd, 3rd


class Outcome(Enum):
    """A game's result for one player, from the places (``ratings.placings``)."""

    WIN = "win"  # placed above every other side
    AHEAD = "ahead"  # above more sides than below (2nd of 4), not a win
    EVEN = "even"  # above as many as below (2nd of 3, a draw), or behind more (3rd of 4)
    LOSS = "loss"  # placed below every other side


def outcome(places: Sequence[int], seat: int, *, teams: bool = False) -> Outcome:
    """What ``seat``'s place means for the arena; partners (seats 0 and 2, 1 and 3) are one side.

    >>> outcome([1, 2], 0), outcome([1, 2], 1), outcome([1, 1], 0)
    (<Outcome.WIN: 'win'>, <Outcome.LOSS: 'loss'>, <Outcome.EVEN: 'even'>)
    >>> outcome([2, 1, 3, 4], 0), outcome([1, 3, 1, 3], 1, teams=True)
    (<Outcome.AHEAD: 'ahead'>, <Outcome.LOSS: 'loss'>)
    """
    n = len(places)
    if not 2 <= n <= 4 or not 0 <= seat < n:
        raise RatingError(f"seat {seat} of a {n}-seat game has no arena outcome")
    others = [s for s in range(n) if (s % 2 != seat % 2 if teams else s != seat)]
    if teams:
        others = others[:1]  # the other team, once
    above = sum(places[o] < places[seat] for o in others)
    below = sum(places[o] > places[seat] for o in others)
    if above == 0 and below > 0:
        return Outcome.WIN
    if below == 0 and above > 0:
        return Outcome.LOSS
    return Outcome.AHEAD if below > above else Outcome.EVEN


def points_for(league: League, result: Outcome) -> int:
    """The arena points a result is worth in ``league``: up to Gold a win is +2 and a loss -1
    (playing on climbs); from Platinum +1 and -1 (only winning more than losing climbs)."""
    low = league < League.PLATINUM
    return {
        Outcome.WIN: 2 if low else 1,
        Outcome.AHEAD: 1 if low else 0,
        Outcome.EVEN: 0,
        Outcome.LOSS: -1,
    }[result]


@dataclass(frozen=True)
class Standing:
    """Where a player stands in a season: league and points (Elite has none: its season
    rating orders it)."""

    league: League = League.BRONZE
    points: int = 0

    def after(self, result: Outcome) -> Standing:
        """The standing after a game: points never below the league's floor (0), and ``CLIMB``
        points take the player up a league, counting from 0 there.

        >>> Standing(League.BRONZE, 4).after(Outcome.WIN)
        Standing(league=<League.SILVER: 1>, points=0)
        >>> Standing(League.GOLD, 0).after(Outcome.LOSS)
        Standing(league=<League.GOLD: 2>, points=0)
        """
        if self.league is League.ELITE:
            return self
        points = max(0, self.points + points_for(self.league, result))
        if points >= CLIMB:
            return Standing(League(self.league + 1), 0)
        return Standing(self.league, points)

    @property
    def label(self) -> str:
        """As the seat cards and profiles show it: ``Gold 4``, ``Elite``."""
        return (
            self.league.title
            if self.league is League.ELITE
            else f"{self.league.title} {self.points}"
        )


def relegated(league: League) -> League:
    """The league a player starts the next season in: Elite -> Gold, Diamond -> Silver, the
    rest -> Bronze (a season's standing is earned again, but the best start a little up)."""
    if league is League.ELITE:
        return League.GOLD
    if league is League.DIAMOND:
        return League.SILVER
    return League.BRONZE


def trophy(rank_in_elite: int) -> int | None:
    """The trophy (1 gold, 2 silver, 3 bronze) of the ``rank_in_elite``-th (1-based) of Elite by
    season rating at the season's end; None past ``TROPHIES``."""
    return rank_in_elite if 1 <= rank_in_elite <= TROPHIES else None
