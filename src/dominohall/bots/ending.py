"""Exact search of a small ending, once every tile's place is known (one guessed deal).

With nothing left to draw, a hand is a game of perfect information for a given deal. The search
is minimax with alpha-beta pruning: the seats of the searching side maximise the outcome, every
other seat minimises it (with three or four players, as if they all played against us).
"""

from __future__ import annotations

from ..rules import Hand
from ..rules.tiles import RANK
from .playout import judge

# Tiles left in all hands together at most, for an ending to be searched exactly.
ENDING_TILES = 6


def solve(hand: Hand, side: int, before: tuple[int, ...], win_value: float) -> float:
    """The outcome of ``hand`` for ``side`` under best play by everyone (see ``judge``)."""
    return _search(hand, side, before, win_value, float("-inf"), float("inf"))


def _search(
    hand: Hand, side: int, before: tuple[int, ...], win_value: float, alpha: float, beta: float
) -> float:
    if hand.result is not None:
        return judge(hand, side, before, win_value)
    moves = hand.legal_moves()
    if len(moves) > 1:
        moves.sort(key=lambda m: -RANK[m.tile])  # heavy tiles first: good moves early prune more
    maximising = hand.preset.side_of(hand.turn) == side
    best = float("-inf") if maximising else float("inf")
    for move in moves:
        hand.push(move)
        value = _search(hand, side, before, win_value, alpha, beta)
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
