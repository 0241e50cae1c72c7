"""Every bot only ever makes legal moves, in every preset and player count, and sees only a view."""

from __future__ import annotations

import inspect
import typing

import pytest

from dominohall.bots import BOT_NAMES, make_bot
from dominohall.bots.easy import EasyBot
from dominohall.bots.hard import HardBot
from dominohall.bots.normal import NormalBot
from dominohall.rules import PRESET_LIST, Hand, Move, View, tiles_of

from .games import play_game

CASES = [(p.id, n) for p in PRESET_LIST for n in p.players]


def legal_and_blind(hand: Hand, view: View, move: Move) -> None:
    assert move in hand.legal_moves(), f"{move!r} is not legal in {hand!r}"
    # The view given to the bot holds nothing hidden: its own tiles, and counts for the rest.
    assert view.holding == hand.holdings[view.turn]
    assert view.revealed is None
    for public in view.history:
        if public.seat != view.seat and public.move.kind.name == "DRAW":
            assert public.move.tile < 0


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_every_bot_plays_only_legal_moves(preset: str, players: int) -> None:
    seated = set()
    for seed in range(3):  # each bot at each seat of a two-player table
        names = [BOT_NAMES[(s + seed) % 3] for s in range(players)]
        bots = [
            HardBot(seed=seed, samples=6) if name == "hard" else make_bot(name, seed=seed)
            for name in names
        ]
        seated.update(names)
        game = play_game(preset, bots, seed=seed * 31 + players, check=legal_and_blind, max_hands=6)
        assert game.hands
    assert seated == set(BOT_NAMES)


def test_bots_are_given_a_view_and_nothing_else() -> None:
    for cls in (EasyBot, NormalBot, HardBot):
        hints = typing.get_type_hints(cls.choose)
        params = [p for p in inspect.signature(cls.choose).parameters if p != "self"]
        assert params == ["view"]
        assert hints["view"] is View


def test_hard_decides_the_same_whatever_the_hidden_tiles() -> None:
    # Two deals alike in public (seat 0's tiles and every public move) but not in what seat 1
    # holds or the boneyard's order: Hard, given the same seed, must choose the same.
    from dominohall.rules import PRESETS, parse_tile

    def t(text: str) -> list[int]:
        return [parse_tile(x) for x in text.split()]

    mine = "6-6 6-4 4-4 5-1 3-2 2-0 1-1"
    a = Hand(
        PRESETS["all-fives"],
        [t(mine), t("6-5 5-5 5-0 4-3 3-1 2-2 1-0")],
        t("6-3 6-2 6-1 6-0 5-4 5-3 5-2 4-2 4-1 4-0 3-3 3-0 2-1 0-0"),
        0,
    )
    b = Hand(
        PRESETS["all-fives"],
        [t(mine), t("6-5 2-1 3-0 4-1 0-0 6-0 6-1")],
        t("4-2 5-2 5-3 5-4 3-3 6-3 6-2 5-5 5-0 4-3 3-1 2-2 1-0 4-0"),
        0,
    )
    for hand in (a, b):
        hand.push(Move.lead("6-6"))
        hand.push(Move.play("6-5", arm=0))
    va, vb = a.view(0), b.view(0)
    assert tiles_of(va.holding) == tiles_of(vb.holding)
    assert HardBot(seed=5).choose(va) == HardBot(seed=5).choose(vb)
