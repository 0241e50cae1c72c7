"""Hard: determinism, distinct moves, the exact ending search, and the game's context."""

from __future__ import annotations

import random

import pytest

from dominohall.bots import make_bot
from dominohall.bots.ending import solve
from dominohall.bots.hard import DEFAULT_BUDGET, HardBot, distinct_moves, exact_ending
from dominohall.bots.normal import NormalBot
from dominohall.bots.playout import judge
from dominohall.rules import PRESETS, Game, Hand, Move, parse_tile

from .games import moves_of, play_game


def t(text: str) -> list[int]:
    return [parse_tile(x) for x in text.split()]


def test_the_same_seed_gives_the_same_game() -> None:
    games = [
        play_game("all-fives", [HardBot(seed=11, samples=10), NormalBot()], seed=4, max_hands=2)
        for _ in range(2)
    ]
    assert moves_of(games[0]) == moves_of(games[1])
    assert games[0].scores == games[1].scores


def test_a_tile_fitting_two_alike_arms_is_tried_once() -> None:
    for preset in ("draw", "spinner-fives"):
        hand = Hand(PRESETS[preset], [t("5-3 6-3 1-1"), t("3-3 2-0 4-4")], t("6-6"), leader=1)
        hand.push(Move.lead("3-3"))  # ends 3 and 3 (in spinner-fives, a spinner's two sides)
        view = hand.view(0)
        assert len(view.legal_moves()) == 4
        assert distinct_moves(view, view.legal_moves()) == [
            Move.play("5-3", arm=0),
            Move.play("6-3", arm=0),
        ]


def test_arms_that_differ_are_both_tried() -> None:
    hand = Hand(PRESETS["draw"], [t("5-3 1-0"), t("3-1 2-0 4-4")], t("6-6"), leader=1)
    hand.push(Move.lead("3-1"))  # ends 3 and 1
    view = hand.view(0)
    assert distinct_moves(view, view.legal_moves()) == view.legal_moves()


def test_hard_wins_the_game_on_the_spot_when_it_can() -> None:
    # All Fives to 50, Hard at 45. Seat 1 leads 4-1 (ends 4 and 1): only 6-1 on the 1 end scores
    # (4 + 6 = 10), and that ends the game at once.
    hand = Hand(
        PRESETS["all-fives"],
        [t("6-1 6-6 5-5 4-0 6-4 3-2 2-2"), t("4-1 2-1 3-1 6-2 6-3 1-0 0-0")],
        t("5-4 5-3 5-2 5-1 5-0 6-5 6-0 4-4 4-3 4-2 3-3 3-0 2-0 1-1"),
        leader=1,
        scores=[45, 0],
        target=50,
    )
    hand.push(Move.lead("4-1"))
    assert HardBot(seed=0).choose(hand.view(0)) == Move.play("6-1", arm=1)


def brute_force(hand: Hand, side: int, before: tuple[int, ...]) -> float:
    if hand.result is not None:
        return judge(hand, side, before, 50.0)
    values = []
    for move in hand.legal_moves():
        hand.push(move)
        values.append(brute_force(hand, side, before))
        hand.pop()
    mine = hand.preset.side_of(hand.turn) == side
    return max(values) if mine else min(values)


def test_the_ending_search_agrees_with_plain_minimax() -> None:
    rng = random.Random(3)
    checked = 0
    for seed in range(40):
        preset = ["block", "all-fives", "partnership"][seed % 3]
        players = 4 if preset == "partnership" else 2
        game = Game(preset, players, rng=random.Random(seed))
        hand = game.start_hand()
        # Play at random until few tiles are left and nothing can be drawn.
        while hand.result is None and (
            hand.drawable > 0 or sum(h.bit_count() for h in hand.holdings) > 6
        ):
            hand.push(rng.choice(hand.legal_moves()))
        if hand.result is not None:
            continue
        before = tuple(hand.scores)
        side = PRESETS[preset].side_of(hand.turn)
        assert solve(hand, side, before, 50.0) == brute_force(hand, side, before)
        checked += 1
    assert checked >= 10


def test_hard_plays_on_when_the_deal_is_not_a_whole_set() -> None:
    # A hand built from a few tiles: the hidden tiles cannot be inferred, so Hard plays as Normal.
    hand = Hand(PRESETS["draw"], [t("5-3 6-3 1-1"), t("3-3 2-0 4-4")], t("6-6"), leader=1)
    hand.push(Move.lead("3-3"))
    assert HardBot(seed=1).choose(hand.view(0)) == NormalBot().choose(hand.view(0))


def block_view_with(tiles_left: int) -> tuple[Hand, int]:
    """A block hand (2 players, 14 tiles in the boneyard that nobody draws) played on by Normal
    until at most ``tiles_left`` tiles are left in the hands, at a real choice."""
    for seed in range(200):
        hand = Game("block", 2, rng=random.Random(seed)).start_hand()
        normal = NormalBot()
        while hand.result is None:
            left = sum(h.bit_count() for h in hand.holdings)
            if (
                left <= tiles_left
                and len(distinct_moves(hand.view(hand.turn), hand.legal_moves())) > 1
            ):
                return hand, hand.turn
            hand.push(normal.choose(hand.view(hand.turn)))
    raise AssertionError("no such position")


def test_block_endings_are_searched_exactly_though_its_boneyard_is_not_empty() -> None:
    # Block never draws: its 14 undealt tiles stay out of play, so an ending is as exact as in
    # partnership. (Hard used to wait for an empty boneyard, so never searched Block exactly.)
    hand, seat = block_view_with(6)
    view = hand.view(seat)
    assert view.boneyard_count == 14
    assert exact_ending(view, 6)
    draw = Game("draw", 2, rng=random.Random(1)).start_hand()
    assert not exact_ending(draw.view(draw.turn), 28)  # tiles can still be drawn


def test_a_bigger_budget_does_more_work() -> None:
    hand, seat = block_view_with(13)
    view = hand.view(seat)
    for method in ("pimc", "ismcts"):
        small, big = (
            HardBot(seed=1, budget=0.01, method=method),
            HardBot(seed=1, budget=0.1, method=method),
        )
        small.choose(view)
        big.choose(view)
        assert 0 < small.last_work < big.last_work
        assert small.last_deals < big.last_deals


def test_make_bot_hands_hard_its_budget() -> None:
    hard = make_bot("hard", seed=1, budget=0.3)
    assert isinstance(hard, HardBot) and hard.budget == 0.3 and hard.time_cap == 0.6
    assert make_bot("hard", seed=1).budget == DEFAULT_BUDGET  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="budget"):
        HardBot(budget=0)
