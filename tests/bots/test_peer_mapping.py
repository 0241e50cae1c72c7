"""The peer matches' mapping of tiles and moves (bench/peer_mapping.py), with no peer installed.

A model of each peer's move notation, written from its documentation (OpenSpiel: ``(player,
(low, high), edge)`` with ``open_edges`` kept sorted; abw333: ``(domino, left)`` on a board whose
first domino lies as given), is played alongside our engine over random hands: every one of our
moves must map to a move the model allows, and back to the same move or one leaving the same
position, and the two must agree on the ends after every move.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from dominohall.rules import PASS, Game, Move
from dominohall.rules.tiles import HIGH, LOW, iter_tiles, make_tile

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from peer_mapping import (  # noqa: E402
    abw_end,
    covered_number,
    move_covering,
    open_ends,
    pair_of,
    referee,
    tile_of_pair,
)


def test_tiles_map_both_ways() -> None:
    for tile in range(28):
        low, high = pair_of(tile)
        assert low <= high
        assert tile_of_pair(float(low), float(high)) == tile == tile_of_pair(high, low)
    assert pair_of(make_tile(6, 4)) == (4, 6)


class SpielLine:
    """OpenSpiel's line, as block_dominoes keeps it: a sorted list of open edges."""

    def __init__(self) -> None:
        self.edges: list[int] = []

    def legal(self, hand: list[tuple[int, int]]) -> set[tuple[tuple[int, int], int | None]]:
        if not self.edges:
            return {(t, None) for t in hand}
        out = set()
        for t in hand:
            if t[0] in self.edges:
                out.add((t, t[0]))
            if t[0] != t[1] and t[1] in self.edges:
                out.add((t, t[1]))
        return out

    def play(self, tile: tuple[int, int], edge: int | None) -> None:
        if edge is None:
            self.edges = list(tile)
        else:
            self.edges.remove(edge)
            self.edges.append(tile[0] if tile[0] != edge else tile[1])
        self.edges.sort()


class AbwLine:
    """abw333's board: the ends of a line whose first domino lies as given."""

    def __init__(self) -> None:
        self.left: int | None = None
        self.right: int | None = None

    def play(self, tile: int, left: bool, first: int | None = None) -> None:
        a, b = HIGH[tile], LOW[tile]
        if self.left is None:
            self.left = a if first is None else first
            self.right = a + b - self.left
            return
        end = self.left if left else self.right
        assert end in (a, b), "abw333 would raise EndsMismatchException"
        other = b if end == a else a
        if left:
            self.left = other
        else:
            self.right = other


@pytest.mark.parametrize(("preset", "players"), [("block", 2), ("partnership", 4)])
def test_moves_map_to_the_peers_and_back(preset: str, players: int) -> None:
    rng = random.Random(5)
    checked = 0
    for g in range(60):
        hand = Game(preset, players, rng=random.Random(g)).start_hand()
        spiel, abw = SpielLine(), AbwLine()
        while hand.result is None:
            moves = hand.legal_moves()
            seat = hand.turn
            if moves == [PASS]:
                referee(hand.holdings[seat], hand.layout, PASS)
                hand.push(PASS)
                continue
            held = [pair_of(t) for t in iter_tiles(hand.holdings[seat])]
            offered = spiel.legal(held)
            # Every move of ours is a move OpenSpiel offers, and every move it offers is one of
            # ours, but for the first lead, forced here and free there (the harness hands it over).
            mapped = {(pair_of(m.tile), covered_number(hand.layout, m)) for m in moves}
            if hand.layout.empty:
                assert len(mapped) == 1 and mapped <= offered
                offered = mapped
            else:
                assert mapped == offered
            for tile, edge in offered:
                back = move_covering(hand.layout, tile_of_pair(*tile), edge)
                assert back in moves or (edge is None and back.tile == hand.must_lead)
                assert covered_number(hand.layout, back) == edge
            move = rng.choice(moves)
            referee(hand.holdings[seat], hand.layout, move)
            if hand.layout.empty:
                abw.play(move.tile, True, move.first)
            else:
                left = abw_end(hand.layout, move, abw.left, abw.right)
                abw.play(move.tile, left)
            spiel.play(pair_of(move.tile), covered_number(hand.layout, move))
            hand.push(move)
            assert open_ends(hand.layout) == spiel.edges == sorted((abw.left, abw.right))
            checked += 1
    assert checked > 300


def test_the_referee_refuses_what_the_rules_forbid() -> None:
    hand = Game("block", 2, rng=random.Random(1)).start_hand()
    seat = hand.turn
    hand.push(hand.legal_moves()[0])
    other = hand.turn
    layout, holding = hand.layout, hand.holdings[other]
    not_held = next(t for t in range(28) if not holding >> t & 1 and t != layout.lead_tile)
    with pytest.raises(AssertionError, match="not held"):
        referee(holding, layout, Move.play(not_held, 0))
    misfit = [t for t in iter_tiles(holding) if not set(pair_of(t)) & set(open_ends(layout))]
    if misfit:
        with pytest.raises(AssertionError, match="laid on an end"):
            referee(holding, layout, Move.play(misfit[0], 0))
    fitting = [t for t in iter_tiles(holding) if set(pair_of(t)) & set(open_ends(layout))]
    if fitting:
        with pytest.raises(AssertionError, match="a pass while holding"):
            referee(holding, layout, PASS)
    assert seat != other
    with pytest.raises(ValueError, match="no open end shows"):
        missing = next(n for n in range(7) if n not in open_ends(layout))
        move_covering(layout, make_tile(missing, missing), missing)
