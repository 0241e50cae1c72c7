"""Layouts of random hands, played out by the engine, as the page's layout code takes them."""

from __future__ import annotations

import random

from dominohall.rules import Game
from dominohall.rules.tiles import HIGH, LOW


def random_chain(preset: str, seed: int, players: int = 2) -> list[dict[str, int | None]]:
    """The tiles laid in one hand of random legal play: [{a, b, arm, match}] in play order."""
    return random_layout(preset, seed, players)[0]


def random_layout(
    preset: str, seed: int, players: int = 2
) -> tuple[list[dict[str, int | None]], list[dict[str, int]]]:
    """A random hand's chain, and its open ends at the end as [{arm, number}]."""
    rng = random.Random(seed)
    game = Game(preset, players, rng=random.Random(seed))
    hand = game.start_hand()
    while not hand.over:
        moves = hand.legal_moves()
        plays = [m for m in moves if m.is_play]
        hand.push(rng.choice(plays or moves))
    chain: list[dict[str, int | None]] = [
        {"a": HIGH[t], "b": LOW[t], "arm": None if arm < 0 else arm, "match": match}
        for t, arm, match in hand.layout.chain
    ]
    layout = hand.layout
    ends = [{"arm": k, "number": layout.tips[k]} for k in sorted(layout.open_arms)]
    return chain, ends


def open_numbers_by_play(preset: str, seed: int, players: int = 2) -> list[list[int]]:
    """The engine's open numbers (in its arm order) after each tile of the same random hand."""
    rng = random.Random(seed)
    game = Game(preset, players, rng=random.Random(seed))
    hand = game.start_hand()
    out: list[list[int]] = []
    while not hand.over:
        moves = hand.legal_moves()
        plays = [m for m in moves if m.is_play]
        move = rng.choice(plays or moves)
        hand.push(move)
        if move.is_play:
            out.append(hand.layout.open_numbers())
    return out
