"""Seeded games between bots for the bots tests, with a check at every decision."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from dominohall.bots import Bot
from dominohall.rules import PRESETS, Game, Hand, Move, View

# Called before each bot move with the full hand, the seat's view and the move chosen.
Check = Callable[[Hand, View, Move], None]


def play_game(
    preset: str, bots: Sequence[Bot], seed: int, check: Check | None = None, max_hands: int = 60
) -> Game:
    """A whole game (or ``max_hands`` hands of it) between ``bots``, deals seeded by ``seed``."""
    game = Game(PRESETS[preset], len(bots), rng=random.Random(seed))
    while not game.finished and len(game.hands) < max_hands:
        hand = game.start_hand()
        while hand.result is None:
            view = hand.view(hand.turn)
            move = bots[hand.turn].choose(view)
            if check is not None:
                check(hand, view, move)
            hand.push(move)
        game.end_hand()
    return game


def moves_of(game: Game) -> list[list[Move]]:
    return [hand.move_stack for hand in game.hands]
