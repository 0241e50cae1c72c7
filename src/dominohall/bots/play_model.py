"""What the other seats' plays suggest about their hands.

A pass proves a seat lacks a number (``inference``); a play only suggests. Each past play of
another seat names the hidden tiles it would probably have played instead, had it held them, and a
guessed deal that puts such a tile in that seat's hand is less likely, by the clue's odds. Hard
draws its guesses from the passes' hard limits, then keeps each with that likelihood
(``Evidence.weight``).

- Where the ends are counted, most players take the points they see: a seat that scored 5 when a
  tile in its hand would have scored 15 probably did not hold that tile (``MISSED_POINTS_ODDS``).
  Not under an exact target, where a bigger count can overshoot and score nothing.
- Where only a hand's end scores (partnership only, for now: the one preset where it was
  measured), the hand is worth the pips left in the losers' hands, so players
  shed their heaviest tiles ("bota gorda"), above all with their first play of the hand, before
  the hand's shape gives them reasons to do otherwise: a seat that played a lighter tile than a
  hidden one that fitted probably did not hold the heavier (``HEAVIER_TILE_ODDS``, and
  ``FIRST_PLAY_ODDS`` for a seat's first play).

Only plays made since the seat last drew count: a tile it holds now may have come later. Leads
are left out (the first is often forced, and a lead is chosen for the hand ahead).

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
>>> evidence.clues[0][0], evidence.clues[0][2]  # seat 1's play, and its odds
(1, 0.25)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Move, MoveKind, View
from ..rules.hand import legal_moves_of
from ..rules.layout import LAYOUT_CLASS, Layout
from ..rules.presets import Count, GameEnd, Preset
from ..rules.tiles import BIT, PIPS, TileSet
from .base import play_points
from .inference import Knowledge

# How much less likely a deal is for each play where it gives the player a tile that would have
# scored more than the tile played. Not zero: people (and Hard, which looks ahead) pass up points
# for a better next turn or to keep a number.
MISSED_POINTS_ODDS = 0.25
# How much less likely a deal is for each play (where plays do not score) where it gives the player
# a fitting tile with more pips than the tile played. A seat's first play of a hand sheds its
# heaviest tile far more often than later plays do, which follow the hand's shape (what the
# partner needs, which numbers to keep).
FIRST_PLAY_ODDS = 0.2
HEAVIER_TILE_ODDS = 0.6

# A clue: the seat, the hidden tiles it probably lacks, and the odds for a deal that gives it one.
Clue = tuple[int, TileSet, float]


@dataclass(frozen=True)
class Evidence:
    """Per past play that tells something: the seat, the hidden tiles it would rather have played
    (that would have scored more, or shed more pips), and the odds of a deal giving it one."""

    clues: tuple[Clue, ...]

    def weight(self, holdings: list[TileSet]) -> float:
        """How likely the guessed ``holdings`` are, against a deal that no play speaks against
        (1.0 when none does)."""
        weight = 1.0
        for seat, better, odds in self.clues:
            if holdings[seat] & better:
                weight *= odds
        return weight


NO_EVIDENCE = Evidence(())


def play_evidence(view: View, knowledge: Knowledge) -> Evidence:
    """The clues in ``view``'s history of the other seats' plays; ``knowledge``, what the view
    proves (``infer``), says which tiles are hidden."""
    preset = view.preset
    by_points = preset.count is not Count.NONE
    if view.seat is None or by_points and preset.game_end is GameEnd.EXACT:
        return NO_EVIDENCE
    # The heavier-tile clue is measured only in partnership (issue 27): elsewhere Hard keeps the
    # model it was measured with, until Hard against Normal and Block against ISMCTS say so.
    if not by_points and not preset.teams:
        return NO_EVIDENCE
    history = view.history
    # Each seat's plays since its last draw are the ones its hand of now speaks for.
    since = [0] * view.players
    for i, public in enumerate(history):
        if public.move.kind is MoveKind.DRAW:
            since[public.seat] = i + 1
    played = [0] * view.players  # plays (not leads) each seat has made so far
    hidden = knowledge.hidden
    layout = LAYOUT_CLASS[preset.layout](preset.layout)
    clues: list[Clue] = []
    for i, public in enumerate(history):
        move = public.move
        if move.kind is not MoveKind.PLAY:
            continue
        seat = public.seat
        if move.arm is not None and seat != view.seat and i >= since[seat]:
            if by_points:
                better, odds = _missed_points(preset, layout, hidden, move), MISSED_POINTS_ODDS
            else:
                better = _heavier(layout, hidden, move.tile)
                odds = HEAVIER_TILE_ODDS if played[seat] else FIRST_PLAY_ODDS
            if better:
                clues.append((seat, better, odds))
        if move.arm is None:
            layout.lead(move.tile, move.first)
        else:
            played[seat] += 1
            layout.place(move.tile, move.arm)
    return Evidence(tuple(clues))


def _missed_points(preset: Preset, layout: Layout, hidden: TileSet, move: Move) -> TileSet:
    """The hidden tiles that would have scored more than ``move`` on ``layout``."""
    scored = play_points(preset, layout, move)
    better = 0
    for other in legal_moves_of(layout, hidden, -1, False):
        if other.kind is not MoveKind.PLAY or better & BIT[other.tile]:
            continue  # nothing hidden fits (a pass), or this tile already counts
        if play_points(preset, layout, other) > scored:
            better |= BIT[other.tile]
    return better


def _heavier(layout: Layout, hidden: TileSet, tile: int) -> TileSet:
    """The hidden tiles that fitted ``layout`` and have more pips than ``tile``."""
    better = 0
    for other in legal_moves_of(layout, hidden, -1, False):
        if other.kind is MoveKind.PLAY and PIPS[other.tile] > PIPS[tile]:
            better |= BIT[other.tile]
    return better
