"""Bots against bots: whole games, seats rotating over the same deals, and the tally of a series.

Game ``g`` of a series deals from a seed made of the series' seed and ``g // rotations``, and seats
the bots rotated by ``g % rotations``: every deal is played once from every seating, so that the
luck of the deal cancels out between the bots (as in duplicate bridge).

>>> result = play_game("block", ["normal", "easy"], seed="doc", bot_seed="doc")
>>> result.winner in (0, 1)
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..rules import PRESETS, Game, Preset
from . import make_bot

# A game that runs this many hands without ending is stopped (it cannot happen under the presets
# but for an endless run of tied hands; it is counted as won by nobody).
MAX_HANDS = 200


@dataclass
class GameResult:
    """One game between bots: who sat where, who won, points per hand, time per decision."""

    seats: list[str]
    winner: int | None  # a seat (partnership: the lower seat of the winning team)
    hands: int
    points: list[int]  # per seat: points its side scored in all hands together
    decisions: list[list[float]]  # per seat: seconds per decision


def seating(preset: Preset, bots: Sequence[str]) -> list[str]:
    """The bot of each seat: one per listed bot; in partnership two listed bots play as pairs."""
    if preset.teams and len(bots) == 2:
        return [bots[0], bots[1], bots[0], bots[1]]
    preset.check_players(len(bots))
    return list(bots)


def play_game(
    preset: Preset | str,
    seats: Sequence[str],
    *,
    seed: object,
    bot_seed: object,
    target: int | None = None,
) -> GameResult:
    """Play one whole game with bot ``seats[s]`` at seat ``s``; deals come from ``seed``."""
    game = Game(preset, len(seats), target, rng=random.Random(str(seed)))
    bots = [
        make_bot(name, seed=random.Random(f"{bot_seed}:{s}").getrandbits(32))
        for s, name in enumerate(seats)
    ]
    preset = game.preset
    decisions: list[list[float]] = [[] for _ in seats]
    points = [0] * len(seats)
    clock = time.perf_counter
    while not game.finished and len(game.hands) < MAX_HANDS:
        hand = game.start_hand()
        while hand.result is None:
            seat = hand.turn
            view = hand.view(seat)
            started = clock()
            move = bots[seat].choose(view)
            decisions[seat].append(clock() - started)
            hand.push(move)
        game.end_hand()
        for s in range(len(seats)):
            points[s] += hand.points[preset.side_of(s)]
    return GameResult(list(seats), game.winner, len(game.hands), points, decisions)


def series_game(
    preset_id: str, bots: Sequence[str], seed: int, g: int, target: int | None = None
) -> GameResult:
    """Game ``g`` of a series: the deal of ``g // rotations``, the seating rotated by ``g``."""
    preset = PRESETS[preset_id]
    base = seating(preset, bots)
    n = len(base)
    shift = g % n
    seats = base[shift:] + base[:shift]
    return play_game(preset, seats, seed=f"{seed}:{g // n}", bot_seed=f"{seed}:{g}", target=target)


@dataclass
class Tally:
    """One bot name's results over a series."""

    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    seat_hands: int = 0
    decisions: list[float] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        low, high = wilson(self.wins, self.games)
        times = sorted(self.decisions)
        return {
            "name": self.name,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "ci95": [low, high],
            "points_per_hand": self.points / self.seat_hands if self.seat_hands else 0.0,
            "decision_mean_s": sum(times) / len(times) if times else 0.0,
            "decision_p95_s": percentile(times, 0.95),
        }


def tally(preset: Preset, results: Iterable[GameResult]) -> list[Tally]:
    """Per distinct bot name, in order of first seat: games, wins, points, decision times.

    A name wins a game when a seat it holds wins it (in partnership, when its team wins).
    """
    tallies: dict[str, Tally] = {}
    for result in results:
        winning_side = None if result.winner is None else preset.side_of(result.winner)
        for name in dict.fromkeys(result.seats):
            t = tallies.setdefault(name, Tally(name))
            t.games += 1
            sides = {preset.side_of(s) for s, n in enumerate(result.seats) if n == name}
            t.wins += winning_side in sides
        for s, name in enumerate(result.seats):
            t = tallies[name]
            t.points += result.points[s]
            t.seat_hands += result.hands
            t.decisions.extend(result.decisions[s])
    return list(tallies.values())


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate.

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of already sorted values (nearest rank), 0.0 when there are none."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[rank - 1]
