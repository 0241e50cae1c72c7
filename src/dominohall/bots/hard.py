"""Hard: searches the moves of everyone at the table over guesses at the hidden tiles.

Each guess is a deal of the hidden tiles that agrees with everything public (``inference``: what
passes and draws proved a seat lacks). By default (``method="ismcts"``, see ``ismcts``) one tree
of the players' choices is grown over a fresh guess each iteration, so that no seat's choice is
credited with knowing that guess; hands are finished by a quick Normal-like policy
(``playout``). The alternative (``method="pimc"``) plays every distinct move on each guessed deal,
finishes it by the policy, or searches the ending exactly when few tiles are left, and plays the
move with the best average.

A decision spends a budget (seconds, counted as work: see WORK_PER_SECOND) rather than a fixed
number of deals. The outcome counts this hand's points against the others' and, above that,
winning or losing the game where the hand's end decides it: so Hard knows the target (and an
exact target, which the engine enforces), its partner's interest (scores are per team), and that
setting up a big count for its next turn can be worth more than a small one now.
"""

from __future__ import annotations

import random
import time

from ..rules import Hand, Move, View
from ..rules.layout import NO_ARM, Layout
from ..rules.moves import MoveKind
from ..rules.presets import Count, Drawing
from .ending import Solver
from .inference import DealSampler, InconsistentViewError, infer
from .ismcts import Search
from .normal import NormalBot
from .play_model import Evidence, play_evidence
from .playout import judge, play_out, unwind

# Seconds a decision may take by default. The budget is spent as work (positions visited in
# playouts and searches) at WORK_PER_SECOND, about the rate measured on one core of the
# reference machine (``bench/hard_rate.py``; half that where plays score, as counting the ends
# of every move tried costs as much again), so that a seed still decides every choice;
# ``time_cap`` adds a wall-clock stop. Raised from 650,000 by 1.25, the least gain in work a
# CPU second that the faster sampling and playouts brought (measured side by side, every preset):
# a decision takes the time it took before, and spends the gain on more iterations. The default
# was 0.12 s; 0.3 s (most decisions stop earlier, at MAX_DEALS) won 52% of 400 Block first hands
# against 0.12 s, and stays well under the half second a player would wait.
DEFAULT_BUDGET = 0.3
WORK_PER_SECOND = 810_000
# The work of drawing one deal and setting it up, in positions (about what it costs in time).
DEAL_WORK = 40
# A decision tries at most this many deals (small endings are cheap: more deals add nothing).
MAX_DEALS = 1_000
# What winning the hand is worth, in points, beyond the points it brings. Where only a hand's end
# scores (Block, Draw, partnership: no count of the ends), the hand's winner takes every point
# there is, so Hard plays to win the hand first (40: a win of any size is the search's whole
# reward, see ``ismcts.REWARD_SCALE``), and only where plays score does it weigh points alone.
# Measured in Block (``bench/hard_versions.py``, 400 first hands): 53% of hands against the same
# Hard weighing points alone.
HAND_VALUE_NO_COUNT = 40.0
HAND_VALUE = 0.0
# A guess that the other seats' plays speak against (``play_model``) is kept only with its
# likelihood; after this many guesses in a row the likeliest of them is kept.
MOST_GUESSES = 16
# Tiles left in all hands together at most, for each sampled deal to be searched exactly (when
# nothing is left to draw) rather than played out by the quick policy (method "pimc").
EXACT_TILES = 6


class HardBot:
    """Hard. ``budget``: seconds a decision may take (spent as work, see WORK_PER_SECOND);
    ``samples``: instead, exactly that many deals a decision (per distinct move with "ismcts").
    The same ``seed`` gives the same choices. ``time_cap`` (seconds) also stops a decision by the
    wall clock, after at least one deal, at the cost of that determinism. ``method``: "ismcts"
    or "pimc"; ``exact_tiles``: see EXACT_TILES; ``hand_value``: see HAND_VALUE_NO_COUNT (by
    default, as the preset counts)."""

    name = "hard"

    def __init__(
        self,
        seed: int | None = None,
        *,
        budget: float = DEFAULT_BUDGET,
        samples: int | None = None,
        time_cap: float | None = None,
        exact_tiles: int | None = None,
        hand_value: float | None = None,
        method: str = "ismcts",
    ) -> None:
        if samples is not None and samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        if not budget > 0:
            raise ValueError(f"budget must be a positive number of seconds, not {budget}")
        self.rng = random.Random(seed)
        self.budget = budget
        self.samples = samples
        self.time_cap = time_cap
        self.exact_tiles = exact_tiles
        self.hand_value = hand_value
        self.method = method

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
        can_draw = view.preset.drawing is Drawing.UNTIL_FITS and view.drawable > 0
        knowledge = infer(view)
        sampler = DealSampler(knowledge, self.rng, ordered_boneyard=can_draw)
        evidence = play_evidence(view, knowledge)
        side = view.preset.side_of(view.seat)
        hand_value = self.hand_value
        if hand_value is None:
            hand_value = HAND_VALUE_NO_COUNT if view.preset.count is Count.NONE else HAND_VALUE
        solver = Solver(side, view.scores, float(view.target), hand_value)
        totals = [0.0] * len(candidates)
        if self.samples is not None:
            deals, work_budget = self.samples, float("inf")
        else:
            rate = WORK_PER_SECOND if view.preset.count is Count.NONE else WORK_PER_SECOND // 2
            deals, work_budget = MAX_DEALS, self.budget * rate
        if self.method == "ismcts":
            return self._search_tree(
                view, candidates, sampler, evidence, deals, work_budget, started, hand_value
            )
        exact = exact_ending(
            view, self.exact_tiles
        )  # every sampled deal has the view's tile counts
        work = 0
        self.last_work = self.last_deals = 0
        hand: Hand | None = None
        for done in range(deals):
            if done and (
                work >= work_budget
                or self.time_cap is not None
                and time.perf_counter() - started > self.time_cap
            ):
                break
            hand, deal_work = self._guess(view, sampler, evidence, hand)
            for i, move in enumerate(candidates):
                hand.push(move)
                if exact:
                    totals[i] += solver.solve(hand)
                else:
                    made = play_out(hand)
                    work += made
                    totals[i] += judge(hand, side, view.scores, solver.win_value, hand_value)
                    unwind(hand, made)
                hand.pop()
            work += deal_work + solver.nodes + len(candidates)
            solver.nodes = 0
            self.last_deals = done + 1
        self.last_work = work
        return max(range(len(candidates)), key=lambda i: totals[i])

    def _search_tree(
        self,
        view: View,
        candidates: list[Move],
        sampler: DealSampler,
        evidence: Evidence,
        deals: int,
        work_budget: float,
        started: float,
        hand_value: float,
    ) -> int:
        assert view.seat is not None
        side = view.preset.side_of(view.seat)
        search = Search(candidates, side, view.scores, float(view.target), hand_value, self.rng)
        work = 0
        hand: Hand | None = None
        for done in range(deals * len(candidates)):
            if done and (
                work >= work_budget
                or self.time_cap is not None
                and time.perf_counter() - started > self.time_cap
            ):
                break
            hand, deal_work = self._guess(view, sampler, evidence, hand)
            work += deal_work + search.iterate(hand)
            self.last_deals = done + 1
        self.last_work = work
        return search.best()

    def _guess(
        self, view: View, sampler: DealSampler, evidence: Evidence, hand: Hand | None
    ) -> tuple[Hand, int]:
        """The view's position with a fresh guess at the hidden tiles, and the work it took. The
        hand of the last guess is reused: every search takes back each move it made, so it is at
        the view's position again and only the hidden tiles change (building a hand costs as much
        as a playout)."""
        assert view.seat is not None
        holdings, boneyard, guesses = likely_deal(sampler, evidence, self.rng)
        holdings[view.seat] = view.holding
        work = DEAL_WORK * guesses
        if hand is None:
            return view.hand_with(holdings, boneyard), work
        assert not hand.history, "a search left moves on the guessed hand"
        hand.holdings = holdings
        hand.boneyard = boneyard
        return hand, work


def likely_deal(
    sampler: DealSampler, evidence: Evidence, rng: random.Random
) -> tuple[list[int], list[int], int]:
    """A guess at the hidden tiles in proportion to how likely the others' plays make it, and how
    many guesses that took: each is kept with its likelihood (rejection sampling); when none of
    MOST_GUESSES is, the likeliest of them."""
    if not evidence.clues:
        return *sampler.sample(), 1
    best, best_weight = None, -1.0
    for tries in range(1, MOST_GUESSES + 1):
        guess = sampler.sample()
        weight = evidence.weight(guess[0])
        if weight >= 1.0 or rng.random() < weight:
            return *guess, tries
        if weight > best_weight:
            best, best_weight = guess, weight
    assert best is not None
    return *best, MOST_GUESSES


def exact_ending(view: View, most: int | None = None) -> bool:
    """Few enough tiles left in play (``most``, else EXACT_TILES) and nothing left to draw, to
    search each deal exactly."""
    if most is None:
        most = EXACT_TILES
    can_draw = view.preset.drawing is Drawing.UNTIL_FITS and view.drawable > 0
    return not can_draw and sum(view.tile_counts) <= most


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
