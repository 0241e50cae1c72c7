"""Hard: tries out guesses at the hidden tiles and plays whatever does best on average.

For each of ``samples`` deals of the hidden tiles that agree with everything public (see
``inference``), every distinct legal move is played and the hand is finished by a quick Normal-like
policy (``playout``); when few tiles are left, the ending is instead searched exactly. The move
with the best average outcome is played. Every move is judged on the same deals, so that the
comparison between moves is not drowned in the luck of the deal.

The outcome counts this hand's points against the others' and, above that, winning or losing the
game where the hand's end decides it: so Hard knows the target (and an exact target, which the
engine enforces), its partner's interest (scores are per team), and that setting up a big count
for its next turn can be worth more than a small one now.
"""

from __future__ import annotations

import random
import time

from ..rules import Move, View
from ..rules.layout import NO_ARM, Layout
from ..rules.moves import MoveKind
from .ending import ENDING_TILES, solve
from .inference import DealSampler, InconsistentViewError, infer
from .normal import NormalBot
from .playout import judge, play_out, unwind

DEFAULT_SAMPLES = 100
# With more distinct moves than this, fewer deals are tried, so that a decision plays out at most
# ``samples * MOVES_AT_FULL_EFFORT`` hands (the lead, with seven tiles, is the widest choice).
MOVES_AT_FULL_EFFORT = 4


class HardBot:
    """Hard. ``samples``: deals tried per decision (fewer with more than four distinct moves);
    the same ``seed`` gives the same choices. ``time_cap`` (seconds) stops a decision early, after
    at least one deal, at the cost of that determinism."""

    name = "hard"

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int = DEFAULT_SAMPLES,
        time_cap: float | None = None,
    ) -> None:
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        self.rng = random.Random(seed)
        self.samples = samples
        self.time_cap = time_cap

    def choose(self, view: View) -> Move:
        moves = view.legal_moves()
        if not moves:
            raise ValueError(f"it is not seat {view.seat}'s turn")
        if len(moves) == 1:
            return moves[0]
        candidates = distinct_moves(view, moves)
        if len(candidates) == 1:
            return candidates[0]
        try:
            return candidates[self._best(view, candidates)]
        except InconsistentViewError:
            # Not a whole double-six set in play (a hand built by hand, in a test or a puzzle):
            # there is nothing sound to sample from, so play as Normal would.
            return NormalBot().choose(view)

    def _best(self, view: View, candidates: list[Move]) -> int:
        assert view.seat is not None
        started = time.perf_counter()
        sampler = DealSampler(infer(view), self.rng)
        side = view.preset.side_of(view.seat)
        before = view.scores
        win_value = float(view.target)
        totals = [0.0] * len(candidates)
        deals = min(self.samples, self.samples * MOVES_AT_FULL_EFFORT // len(candidates))
        exact = small_ending(view)  # every sampled deal has the view's tile counts
        for done in range(max(1, deals)):
            if self.time_cap is not None and done and time.perf_counter() - started > self.time_cap:
                break
            holdings, boneyard = sampler.sample()
            holdings[view.seat] = view.holding
            hand = view.hand_with(holdings, boneyard)
            for i, move in enumerate(candidates):
                hand.push(move)
                if exact:
                    totals[i] += solve(hand, side, before, win_value)
                else:
                    made = play_out(hand)
                    totals[i] += judge(hand, side, before, win_value)
                    unwind(hand, made)
                hand.pop()
        return max(range(len(candidates)), key=lambda i: totals[i])


def small_ending(view: View) -> bool:
    """Few enough tiles left in play (and nothing left to draw) to search the ending exactly."""
    return view.drawable <= 0 and sum(view.tile_counts) <= ENDING_TILES


def distinct_moves(view: View, moves: list[Move]) -> list[Move]:
    """The legal moves, less those that leave the same position as an earlier one (the same tile
    on an arm alike to another: same open end, same double there, scoring the same)."""
    layout = view.layout
    seen: set[tuple[object, ...]] = set()
    out: list[Move] = []
    for move in moves:
        if move.kind is not MoveKind.PLAY or move.arm is None:
            out.append(move)
            continue
        token = layout.place(move.tile, move.arm)
        key = (move.tile, *position_key(layout))
        layout.undo(token)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


def position_key(layout: Layout) -> tuple[object, ...]:
    """What the future of a layout depends on, not which arm is which."""
    arms = sorted(
        (
            layout.tips[k],
            layout.double_at(k),
            layout.is_bare(k),
            k >= 2,
            layout.waiting_ends[k] != NO_ARM,
        )
        for k in layout.open_arms
    )
    return (tuple(arms), layout.lead_spinner_waiting, layout.count_total())
