"""Layouts of random hands, played out by the engine, as the page's layout code takes them."""

from __future__ import annotations

import random

from dominohall.hall.layout_view import layout_json
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
    # Which tiles are spinners, and the arms their ends open, as the hall tells the page.
    shown = layout_json(hand.layout)
    ends: dict[tuple[int | None, int], int] = {}
    for arm in shown["arms"]:
        if arm["from"] is not None:
            key = (arm["from"]["arm"], arm["from"]["index"])
            ends[key] = min(ends.get(key, arm["arm"]), arm["arm"])
    chain: list[dict[str, int | None]] = []
    count: dict[int, int] = {}
    for t, arm, match in hand.layout.chain:
        on = None if arm < 0 else arm
        index = 0 if on is None else count.get(on, 0)
        if on is not None:
            count[on] = index + 1
        chain.append({"a": HIGH[t], "b": LOW[t], "arm": on, "match": match})
        if (on, index) in ends:
            chain[-1]["ends"] = ends[(on, index)]
    layout = hand.layout
    ends = [{"arm": k, "number": layout.tips[k]} for k in sorted(layout.open_arms)]
    return chain, ends
