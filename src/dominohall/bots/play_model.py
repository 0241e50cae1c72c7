"""What the other seats' plays suggest about their hands, where plays score.

A pass proves a seat lacks a number (``inference``); a play only suggests. Where the ends are
counted, most players take the points they see: a seat that scored 5 when a tile in its hand would
have scored 15 probably did not hold that tile. So each past play of another seat names the hidden
tiles that would have scored more right then, and a guessed deal that puts such a tile in that
seat's hand is less likely, by ``MISSED_POINTS_ODDS`` for each such play. Hard draws its guesses
from the passes' hard limits, then keeps each with that likelihood (``Evidence.weight``).

Only plays made since the seat last drew count: a tile it holds now may have come later. Leads
are left out (the first is often forced, and a lead is chosen for the hand ahead more than for its
points), and so is a game to an exact target, where a bigger count can overshoot and score nothing.

>>> from dominohall.bots.inference import infer
>>> from dominohall.rules import PRESETS, Hand, Move, parse_tile as t
>>> deal = ["5-5 6-1 2-0", "5-3 4-4 6-6", "1-0 3-0 4-0"]
>>> held = [{t(name) for name in tiles.split()} for tiles in deal]
>>> rest = [tile for tile in range(28) if not any(tile in h for h in held)]
>>> hand = Hand(PRESETS["all-fives"], held, rest, leader=0)
>>> hand.push(Move.lead("5-5"))  # the ends count 10: seat 0 scores 10
>>> hand.push(Move.play("5-3", 0))  # 3 + 10 = 13: seat 1 scores nothing; 5-0 would have made 10
>>> view = hand.view(2)  # what seat 2 can tell
>>> evidence = play_evidence(view, infer(view))
>>> evidence.weight([0, 1 << t("5-0"), 0]), evidence.weight([0, 1 << t("6-2"), 0])
(0.25, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import MoveKind, View
from ..rules.hand import legal_moves_of
from ..rules.layout import LAYOUT_CLASS
from ..rules.presets import Count, GameEnd
from ..rules.tiles import BIT, TileSet
from .base import play_points
from .inference import Knowledge

# How much less likely a deal is for each play where it gives the player a tile that would have
# scored more than the tile played. Not zero: people (and Hard, which looks ahead) pass up points
# for a better next turn or to keep a number.
MISSED_POINTS_ODDS = 0.25


@dataclass(frozen=True)
class Evidence:
    """Per past play that tells something: the seat, and the hidden tiles that would have scored
    more than what it played."""

    clues: tuple[tuple[int, TileSet], ...]

    def weight(self, holdings: list[TileSet]) -> float:
        """How likely the guessed ``holdings`` are, against a deal that no play speaks against
        (1.0 when none does)."""
        weight = 1.0
        for seat, better in self.clues:
            if holdings[seat] & better:
                weight *= MISSED_POINTS_ODDS
        return weight


NO_EVIDENCE = Evidence(())


def play_evidence(view: View, knowledge: Knowledge) -> Evidence:
    """The clues in ``view``'s history of the other seats' plays (none where plays do not
    score); ``knowledge``, what the view proves (``infer``), says which tiles are hidden."""
    preset = view.preset
    if preset.count is Count.NONE or preset.game_end is GameEnd.EXACT or view.seat is None:
        return NO_EVIDENCE
    history = view.history
    # Each seat's plays since its last draw are the ones its hand of now speaks for.
    since = [0] * view.players
    for i, public in enumerate(history):
        if public.move.kind is MoveKind.DRAW:
            since[public.seat] = i + 1
    hidden = knowledge.hidden
    layout = LAYOUT_CLASS[preset.layout](preset.layout)
    clues = []
    for i, public in enumerate(history):
        move = public.move
        if move.kind is not MoveKind.PLAY:
            continue
        if move.arm is not None and public.seat != view.seat and i >= since[public.seat]:
            scored = play_points(preset, layout, move)
            better = 0
            for other in legal_moves_of(layout, hidden, -1, False):
                if other.kind is not MoveKind.PLAY or better & BIT[other.tile]:
                    continue  # nothing hidden fits (a pass), or this tile already counts
                if play_points(preset, layout, other) > scored:
                    better |= BIT[other.tile]
            if better:
                clues.append((public.seat, better))
        if move.arm is None:
            layout.lead(move.tile, move.first)
        else:
            layout.place(move.tile, move.arm)
    return Evidence(tuple(clues))
