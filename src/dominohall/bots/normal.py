"""Normal: sheds its heaviest tile first; where plays score, takes the most points now.

Where that leaves a choice of arms for the same tile, it plays where the next player is known to
have nothing (a pass or a draw showed it), else where its own other tiles still fit best. It is
also the autoplay for a player whose turn timer ran out (RULES.md section 6).
"""

from __future__ import annotations

from ..rules import RANK, Move, MoveKind, View
from ..rules.tiles import BIT
from .base import points_now


class NormalBot:
    name = "normal"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # Normal is deterministic; the seed is accepted for a uniform interface

    def choose(self, view: View) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        lacking = next_lacks(view)
        return max(
            moves,
            key=lambda m: (points_now(view, m), RANK[m.tile], *arm_merit(view, m, lacking)),
        )


def next_lacks(view: View) -> int:
    """The numbers the next seat is known to lack (bitmask), from its passes and draws since
    it last kept a drawn tile."""
    assert view.seat is not None
    nxt = (view.seat + 1) % view.players
    lacks = 0
    for public in view.history:
        if public.seat != nxt:
            continue
        kind = public.move.kind
        if kind is MoveKind.PASS:
            lacks |= public.open_numbers
        elif kind is MoveKind.DRAW:
            lacks = public.open_numbers  # what it held before is unknown again, but for these
    return lacks


def arm_merit(view: View, move: Move, lacking: int) -> tuple[int, int]:
    """(shuts out the next seat, how many of the seat's other tiles still fit) after ``move``."""
    if move.arm is None:
        return 0, 0
    layout = view.layout
    token = layout.place(move.tile, move.arm)
    try:
        shut = int(layout.open_suits & ~lacking == 0)
        return shut, layout.fitting(view.holding & ~BIT[move.tile]).bit_count()
    finally:
        layout.undo(token)
