"""Normal: sheds its heaviest tile first; where plays score, takes the most points now.

It is also the autoplay for a player whose turn timer ran out (RULES.md section 6).
"""

from __future__ import annotations

from ..rules import RANK, Move, View
from .base import points_now


class NormalBot:
    name = "normal"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # Normal is deterministic; the seed is accepted for a uniform interface

    def choose(self, view: View) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        # Most points now, then the heaviest tile; the first arm offered breaks what is left.
        return max(moves, key=lambda m: (points_now(view, m), RANK[m.tile]))
