"""Exact search of an ending, once every tile's place is known (one guessed deal).

With nothing left to draw, a hand is a game of perfect information for a given deal. The search
is minimax with alpha-beta pruning: the seats of the searching side maximise the outcome, every
other seat minimises it (with three or four players, as if they all played against us).
"""

from __future__ import annotations

from ..rules import Hand
from ..rules.tiles import RANK
from .playout import judge

# Tiles left in all hands together at most, for an ending to be searched exactly by default.
ENDING_TILES = 6


class Solver:
    """Alpha-beta over one guessed deal; ``nodes`` counts the positions visited (Hard's work)."""

    def __init__(
        self, side: int, before: tuple[int, ...], win_value: float, hand_value: float = 0.0
    ) -> None:
        self.side = side
        self.before = before
        self.win_value = win_value
        self.hand_value = hand_value
        self.nodes = 0

    def solve(self, hand: Hand) -> float:
        """The outcome of ``hand`` for the side under best play by everyone (see ``judge``)."""
        return self._search(hand, float("-inf"), float("inf"))

    def _search(self, hand: Hand, alpha: float, beta: float) -> float:
        self.nodes += 1
        if hand.result is not None:
            return judge(hand, self.side, self.before, self.win_value, self.hand_value)
        moves = hand.legal_moves()
        if len(moves) > 1:
            moves.sort(
                key=lambda m: -RANK[m.tile]
            )  # heavy tiles first: good moves early prune more
        maximising = hand.preset.side_of(hand.turn) == self.side
        best = float("-inf") if maximising else float("inf")
        for move in moves:
            hand.push(move)
            value = self._search(hand, alpha, beta)
            hand.pop()
            if maximising:
                if value > best:
                    best = value
                if best > alpha:
                    alpha = best
            else:
                if value < best:
                    best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best


def solve(hand: Hand, side: int, before: tuple[int, ...], win_value: float) -> float:
    """The outcome of ``hand`` for ``side`` under best play by everyone (see ``judge``)."""
    return Solver(side, before, win_value).solve(hand)
