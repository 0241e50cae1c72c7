"""The interface every computer player has: given a seat's view, choose a legal move."""

from __future__ import annotations

import random
from typing import Protocol

from ..rules import View
from ..rules.layout import Layout
from ..rules.moves import Move, MoveKind
from ..rules.presets import Count, GameEnd, Preset
from ..rules.scoring import play_score


class Bot(Protocol):
    """A computer player. It sees a ``View`` only (scores, target and preset are in it)."""

    name: str

    def choose(self, view: View) -> Move:
        """A legal move for ``view.seat``, whose turn it is."""
        ...


def points_now(view: View, move: Move) -> int:
    """What ``move`` scores at once from the open ends (0 for draws, passes, non-count presets).

    Under an exact target, a play that would overshoot scores nothing.
    """
    if move.kind is not MoveKind.PLAY or view.preset.count is Count.NONE:
        return 0
    points = play_points(view.preset, view.layout, move)
    if view.preset.game_end is GameEnd.EXACT and view.seat is not None:
        side = view.preset.side_of(view.seat)
        if view.scores[side] + points > view.target:
            return 0
    return points


def play_points(preset: Preset, layout: Layout, move: Move) -> int:
    """What the play ``move`` would score on ``layout`` (laid, counted, taken back)."""
    token = (
        layout.lead(move.tile, move.first)
        if move.arm is None
        else layout.place(move.tile, move.arm)
    )
    try:
        return play_score(preset, layout)
    finally:
        layout.undo(token)


def new_rng(seed: int | None) -> random.Random:
    return random.Random(seed)
