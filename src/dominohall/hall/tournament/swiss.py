"""A swiss tournament as pure data (docs/tournaments.md): a fixed number of rounds, each pairing
entrants of equal or near score who have not met, a bye for an odd count, and the standings with
their tie-breaks.

An entrant is a player, or a fixed pair playing as one team (partnership presets: the pairing is
the same, the table seats each team's two players opposite). Points: a win 2, a draw 1, a loss 0,
a bye 2 (as a win; no points difference, no Sonneborn-Berger).

Pairing a round: a maximum matching of least cost (``matching.py``) over every two active entrants
who have not met, a pair costing ``1000 x (score gap)^2`` plus its gap in the standings (so score
groups first, then neighbours in the standings); with an odd count a bye takes part as one more
entrant, allowed only to those who have had no bye, costing as an entrant of no points would at
the bottom of the standings: the bye goes to the lowest score group first, its lowest placed. An entrant who missed a round (did not come to the game: the
opponent wins it, ``no_show``) is withdrawn and not paired again.

Standings: points, then head to head (the points scored in games among the entrants tied on
points), then points difference (the game points scored less those conceded, over every game),
then Sonneborn-Berger (the final points of each opponent beaten, and half of each drawn), then the
seed (the order of entry, rating first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .matching import least_cost_matching

BYE = "(bye)"
WIN_POINTS, DRAW_POINTS, BYE_POINTS = 2, 1, 2
SCORE_GAP_COST = 1000


class SwissError(ValueError):
    """What the swiss cannot do: a result for a game it did not pair, a round too many."""


@dataclass(frozen=True)
class Game:
    """A paired game of a round and, once played, its result: the game points of each side
    (``a_points``, ``b_points``) and the winner (None: a draw)."""

    round: int
    a: str
    b: str
    a_points: int = 0
    b_points: int = 0
    winner: str | None = None
    played: bool = False
    no_show: str | None = None  # the entrant who did not come (withdrawn after it)


@dataclass
class Entrant:
    id: str
    seed: int  # the order of entry (rating first): the first standing, the last tie-break
    withdrawn: bool = False
    byes: int = 0
    opponents: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Standing:
    id: str
    points: int
    head_to_head: int
    difference: int
    sonneborn_berger: float
    withdrawn: bool


class Swiss:
    """A swiss of ``rounds`` rounds over ``entrants`` (seed order: best first)."""

    def __init__(self, entrants: Sequence[str], rounds: int) -> None:
        if len(set(entrants)) != len(entrants) or len(entrants) < 2:
            raise SwissError("a swiss needs two or more distinct entrants")
        if rounds < 1 or rounds >= len(entrants) + (len(entrants) % 2):
            raise SwissError(f"{len(entrants)} entrants play 1 to {len(entrants) - 1} rounds")
        self.rounds = rounds
        self.entrants = {e: Entrant(e, i) for i, e in enumerate(entrants)}
        self.games: list[Game] = []
        self.byes: list[tuple[int, str]] = []  # (round, entrant)
        self.round = 0  # the rounds paired so far

    # -- results ------------------------------------------------------------------------------
    def points(self) -> dict[str, int]:
        out = dict.fromkeys(self.entrants, 0)
        for _, who in self.byes:
            out[who] += BYE_POINTS
        for g in self.games:
            if not g.played:
                continue
            if g.winner is None:
                out[g.a] += DRAW_POINTS
                out[g.b] += DRAW_POINTS
            else:
                out[g.winner] += WIN_POINTS
        return out

    def record(self, a: str, b: str, a_points: int, b_points: int, winner: str | None) -> None:
        """The result of this round's game of ``a`` and ``b``."""
        if winner not in (None, a, b):
            raise SwissError(f"{winner!r} did not play {a!r}-{b!r}")
        index = self._game_of(a, b)
        g = self.games[index]
        if (g.a, g.b) != (a, b):
            a_points, b_points = b_points, a_points
        self.games[index] = Game(g.round, g.a, g.b, a_points, b_points, winner, True)

    def no_show(self, absent: str, present: str) -> None:
        """``absent`` did not come to this round's game: ``present`` wins it, ``absent`` is
        withdrawn from the next round on."""
        index = self._game_of(absent, present)
        g = self.games[index]
        self.games[index] = Game(g.round, g.a, g.b, 0, 0, present, True, absent)
        self.entrants[absent].withdrawn = True

    def withdraw(self, entrant: str) -> None:
        self.entrants[entrant].withdrawn = True

    def _game_of(self, a: str, b: str) -> int:
        for i, g in enumerate(self.games):
            if g.round == self.round and {g.a, g.b} == {a, b}:
                if g.played:
                    raise SwissError(f"the game {a}-{b} of round {self.round} has its result")
                return i
        raise SwissError(f"{a!r}-{b!r} is not a game of round {self.round}")

    def round_over(self) -> bool:
        return all(g.played for g in self.games if g.round == self.round)

    # -- pairing ------------------------------------------------------------------------------
    def pair(self) -> list[Game]:
        """The next round's games (and its bye, in ``byes``)."""
        if not self.round_over():
            raise SwissError(f"round {self.round} is not over")
        if self.round >= self.rounds:
            raise SwissError(f"all {self.rounds} rounds are paired")
        self.round += 1
        table = [s.id for s in self.standings() if not s.withdrawn]
        points = self.points()
        place = {who: i for i, who in enumerate(table)}
        costs: dict[tuple[str, str], int] = {}
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                if b in self.entrants[a].opponents:
                    continue
                gap = points[a] - points[b]
                costs[(a, b)] = SCORE_GAP_COST * gap * gap + place[b] - place[a]
        nodes = list(table)
        if len(table) % 2:
            nodes.append(BYE)
            for who in table:
                if self.entrants[who].byes == 0:  # (a bye is met as a no-point entrant)
                    bye = SCORE_GAP_COST * points[who] ** 2 + len(table) - place[who]
                    costs[(who, BYE)] = bye
        pairs = least_cost_matching(nodes, costs)
        games = []
        for a, b in pairs:
            if b == BYE:
                self.byes.append((self.round, a))
                self.entrants[a].byes += 1
                continue
            self.entrants[a].opponents.append(b)
            self.entrants[b].opponents.append(a)
            games.append(Game(self.round, a, b))
        self.games += games
        return games

    @property
    def finished(self) -> bool:
        return self.round == self.rounds and self.round_over()

    def to_json(self) -> dict[str, Any]:
        """The whole swiss as JSON (stored, so that a restart goes on where it stood)."""
        return {
            "rounds": self.rounds,
            "round": self.round,
            "entrants": [asdict(e) for e in self.entrants.values()],
            "games": [asdict(g) for g in self.games],
            "byes": [list(bye) for bye in self.byes],
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Swiss:
        entrants = [Entrant(**e) for e in obj["entrants"]]
        swiss = cls([e.id for e in sorted(entrants, key=lambda e: e.seed)], obj["rounds"])
        swiss.entrants = {e.id: e for e in entrants}
        swiss.round = obj["round"]
        swiss.games = [Game(**g) for g in obj["games"]]
        swiss.byes = [(r, who) for r, who in obj["byes"]]
        return swiss

    # -- standings ----------------------------------------------------------------------------
    def standings(self) -> list[Standing]:
        points = self.points()
        played = [g for g in self.games if g.played]
        difference = dict.fromkeys(self.entrants, 0)
        berger = dict.fromkeys(self.entrants, 0.0)
        for g in played:
            difference[g.a] += g.a_points - g.b_points
            difference[g.b] += g.b_points - g.a_points
            for me, them in ((g.a, g.b), (g.b, g.a)):
                if g.winner == me:
                    berger[me] += points[them]
                elif g.winner is None:
                    berger[me] += points[them] / 2
        head = dict.fromkeys(self.entrants, 0)
        for g in played:
            if points[g.a] != points[g.b]:
                continue
            if g.winner is None:
                head[g.a] += DRAW_POINTS
                head[g.b] += DRAW_POINTS
            else:
                head[g.winner] += WIN_POINTS
        rows = [
            Standing(who, points[who], head[who], difference[who], berger[who], e.withdrawn)
            for who, e in self.entrants.items()
        ]
        seed = {who: e.seed for who, e in self.entrants.items()}
        return sorted(
            rows,
            key=lambda s: (
                -s.points,
                -s.head_to_head,
                -s.difference,
                -s.sonneborn_berger,
                seed[s.id],
            ),
        )
