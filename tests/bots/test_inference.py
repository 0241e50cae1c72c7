"""Inference is sound: it never rules out the truth, and sampled deals keep to what it proved."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominohall.bots.easy import EasyBot
from dominohall.bots.inference import DealSampler, infer
from dominohall.rules import PRESET_LIST, PRESETS, Hand, Move, MoveKind, View, parse_tile
from dominohall.rules.tiles import BIT, FITTING, SUIT

from .games import play_game


def t(text: str) -> list[int]:
    return [parse_tile(x) for x in text.split()]


def block_hand_after_a_pass() -> Hand:
    """Block, three players: seat 1 passes on 6-6, so it holds no six."""
    hand = Hand(
        PRESETS["block"],
        [t("6-6 6-1 0-0 3-1 2-0"), t("4-4 2-1 5-3 1-0 3-3"), t("5-0 6-5 6-2 4-1 2-2")],
        t("6-4 6-3 6-0 5-5 5-4 5-2 5-1 4-3 4-2 4-0 3-2 3-0 1-1"),
        leader=0,
    )
    hand.push(Move.lead("6-6"))
    hand.push(Move.pass_())
    return hand


def test_a_passer_is_never_sampled_with_a_tile_that_fitted() -> None:
    view = block_hand_after_a_pass().view(2)
    knowledge = infer(view)
    assert knowledge.lacks[1] == SUIT[6]
    sampler = DealSampler(knowledge, random.Random(1))
    for _ in range(300):
        holdings, boneyard = sampler.sample()
        assert holdings[1] & SUIT[6] == 0
        assert holdings[1].bit_count() == 5 and holdings[0].bit_count() == 4
        assert len(boneyard) == 13


def test_the_boneyard_is_shuffled_only_when_its_order_matters() -> None:
    view = block_hand_after_a_pass().view(2)
    shuffled = DealSampler(infer(view), random.Random(4))
    sorted_ = DealSampler(infer(view), random.Random(4), ordered_boneyard=False)
    orders = set()
    for _ in range(50):
        _, boneyard = shuffled.sample()
        orders.add(tuple(boneyard))
        holdings, kept = sorted_.sample()
        assert kept == sorted(kept) and len(kept) == 13
        assert sum(1 << t for t in kept) & (holdings[0] | holdings[1]) == 0
    assert len(orders) == 50  # 13! orders: a repeat would mean no shuffle


def test_the_sixes_go_elsewhere_in_proportion_to_the_room() -> None:
    # The five hidden sixes can be with seat 0 (4 tiles) or in the boneyard (13): never seat 1.
    view = block_hand_after_a_pass().view(2)
    sampler = DealSampler(infer(view), random.Random(2))
    at_seat_0 = Counter()
    for _ in range(2000):
        holdings, _ = sampler.sample()
        at_seat_0[(holdings[0] & SUIT[6]).bit_count()] += 1
    mean = sum(k * v for k, v in at_seat_0.items()) / 2000
    assert 0.9 < mean < 1.5  # 5 sixes * 4/17 = 1.18 when room alone decides


def test_draws_prove_what_did_not_fit_and_kept_tiles_stay_possible() -> None:
    # Draw: on ends 6|6, seat 1 draws 3-2 (it does not fit: kept), then 6-2, which it must play.
    hand = Hand(
        PRESETS["draw"],
        [t("6-6 1-1 4-0 5-5 3-3 2-0 1-0"), t("2-1 5-0 3-1 4-2 4-3 5-2 5-4")],
        t("3-2 6-2 6-5 4-4 0-0 6-1 2-2 6-0 6-3 6-4 5-1 3-0 5-3 4-1"),
        leader=0,
    )
    for move in (Move.lead("6-6"), Move.draw(), Move.draw(), Move.play("6-2", arm=1)):
        hand.push(move)
    knowledge = infer(hand.view(0))
    assert knowledge.lacks[1] == SUIT[6]
    assert knowledge.can_hold(1, parse_tile("3-2"))
    assert not knowledge.can_hold(1, parse_tile("6-5"))
    assert knowledge.can_hold(knowledge.boneyard, parse_tile("6-5"))
    assert knowledge.counts == (0, 8, 12)


def true_deal_agrees(hand: Hand, view: View, move: Move) -> None:
    knowledge = infer(view)
    for seat in range(hand.players):
        if seat != view.seat:
            assert hand.holdings[seat] & knowledge.lacks[seat] == 0, "inference ruled out the truth"
            assert hand.holdings[seat] & ~knowledge.possible(seat) == 0
    assert set(hand.boneyard_left) <= {x for x in range(28) if knowledge.hidden & BIT[x]}


@pytest.mark.parametrize(
    ("preset", "players"),
    [("draw", 2), ("block", 3), ("all-fives", 4), ("partnership", 4), ("five-up", 3)],
)
def test_inference_never_rules_out_the_true_deal(preset: str, players: int) -> None:
    for seed in range(4):
        bots = [EasyBot(seed * 10 + s) for s in range(players)]
        play_game(preset, bots, seed=seed, check=true_deal_agrees, max_hands=3)


def samples_keep_every_pass(hand: Hand, view: View, move: Move) -> None:
    knowledge = infer(view)
    sampler = DealSampler(knowledge, random.Random(len(view.history)))
    assert view.seat is not None
    for _ in range(5):
        holdings, boneyard = sampler.sample()
        assert holdings[view.seat] == 0
        seen = sum(holdings) + sum(BIT[x] for x in boneyard)
        assert seen == knowledge.hidden  # each hidden tile placed once
        for seat in range(view.players):
            if seat != view.seat:
                assert holdings[seat].bit_count() == view.tile_counts[seat]
        assert len(boneyard) == view.boneyard_count
        # Since a seat's last draw, each of its passes proves it lacks the numbers then open.
        for i, public in enumerate(view.history):
            later = view.history[i + 1 :]
            drew_later = any(p.seat == public.seat and p.move.kind is MoveKind.DRAW for p in later)
            if public.move.kind is MoveKind.PASS and not drew_later and public.seat != view.seat:
                assert holdings[public.seat] & FITTING[public.open_numbers] == 0


@pytest.mark.parametrize(
    ("preset", "players"), [("draw", 3), ("block", 4), ("partnership", 4), ("cross-fives", 2)]
)
def test_sampled_deals_have_exact_counts_and_keep_every_pass(preset: str, players: int) -> None:
    for seed in range(3):
        bots = [EasyBot(seed * 10 + s) for s in range(players)]
        play_game(preset, bots, seed=100 + seed, check=samples_keep_every_pass, max_hands=3)


@settings(max_examples=30, deadline=None)
@given(
    preset=st.sampled_from([p.id for p in PRESET_LIST]),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players_pick=st.integers(min_value=0, max_value=2),
)
def test_inference_is_sound_in_any_game(preset: str, seed: int, players_pick: int) -> None:
    choices = PRESETS[preset].players
    players = choices[players_pick % len(choices)]
    bots = [EasyBot(seed + s) for s in range(players)]

    def check(hand: Hand, view: View, move: Move) -> None:
        true_deal_agrees(hand, view, move)
        samples_keep_every_pass(hand, view, move)

    play_game(preset, bots, seed=seed, check=check, max_hands=2)
