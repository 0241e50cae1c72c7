"""What plays suggest: the clues are the right tiles for the right seats, and Hard's guesses follow
them without ever breaking what passes proved."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from dominohall.bots.hard import likely_deal
from dominohall.bots.inference import DealSampler, infer
from dominohall.bots.play_model import (
    FIRST_PLAY_ODDS,
    HEAVIER_TILE_ODDS,
    MISSED_POINTS_ODDS,
    Evidence,
    play_evidence,
)
from dominohall.rules import DRAW, PRESETS, Hand, Move, parse_tile
from dominohall.rules.presets import GameEnd
from dominohall.rules.tiles import BIT


def t(text: str) -> list[int]:
    return [parse_tile(x) for x in text.split()]


def clues(hand: Hand, seat: int) -> Evidence:
    """What ``seat`` can tell from the others' plays so far."""
    view = hand.view(seat)
    return play_evidence(view, infer(view))


def all_fives_hand(preset: str = "all-fives", teams: bool = False) -> Hand:
    """Two players: seat 0 leads 5-5 (10 points); seat 1 answers 5-3 (3 + 10: no points), when
    only 5-0, of the tiles it cannot see, would have scored (0 + 10)."""
    deal = [t("5-5 6-1 2-0 4-3 6-6 1-1 2-2"), t("5-3 4-4 6-4 3-3 6-3 2-1 1-0")]
    rest = [tile for tile in range(28) if tile not in deal[0] + deal[1]]
    rules = dataclasses.replace(PRESETS[preset], teams=True) if teams else PRESETS[preset]
    hand = Hand(rules, deal, rest, leader=0)
    hand.push(Move.lead("5-5"))
    hand.push(Move.play("5-3", 0))
    return hand


def test_a_play_that_passed_up_points_names_the_tiles_that_would_have_scored() -> None:
    evidence = clues(all_fives_hand(), 0)
    assert evidence.clues == ((1, BIT[parse_tile("5-0")], MISSED_POINTS_ODDS),)
    assert evidence.weight([0, BIT[parse_tile("5-0")]]) == MISSED_POINTS_ODDS
    assert evidence.weight([0, BIT[parse_tile("6-5")]]) == 1.0


def test_the_seat_itself_and_leads_tell_nothing() -> None:
    deal = [t("6-1 2-2 3-3 0-0 2-0 3-0 6-6"), t("1-0 5-3 6-2 4-4 3-2 2-1 6-3")]
    rest = [tile for tile in range(28) if tile not in deal[0] + deal[1]]
    hand = Hand(PRESETS["all-fives"], deal, rest, leader=0)
    hand.push(Move.lead("6-1"))  # 7: no points, when 5-5 or 6-4 would have led for 10
    hand.push(Move.play("1-0", 1))  # 6: no points, when 4-1 (10) or 6-4 (5) would have scored
    assert hand.points == [0, 0]
    # Seat 0 learns from seat 1's play; seat 1 learns nothing from its own, nor from the lead.
    assert clues(hand, 0).clues == (
        (1, BIT[parse_tile("4-1")] | BIT[parse_tile("6-4")], MISSED_POINTS_ODDS),
    )
    assert clues(hand, 1).clues == ()


def test_under_an_exact_target_a_missed_count_is_no_clue() -> None:
    exact = next(p.id for p in PRESETS.values() if p.game_end is GameEnd.EXACT)
    assert clues(all_fives_hand(exact), 0).clues == ()


def test_where_plays_do_not_score_a_lighter_tile_than_one_that_fitted_is_the_clue() -> None:
    # The same plays in Draw with partnership's reading of plays (the clue is used only where
    # teams play: issue 27 measured it there): seat 1 answered 5-5 with 5-3 (8 pips) when, of
    # the tiles seat 0 cannot see, 6-5 (11) and 5-4 (9) fitted too; 5-0 and 5-1 tell nothing.
    hand = all_fives_hand("draw", teams=True)
    heavier = BIT[parse_tile("6-5")] | BIT[parse_tile("5-4")]
    assert clues(hand, 0).clues == ((1, heavier, FIRST_PLAY_ODDS),)
    # Seat 0 lays 4-3 on the 3; seat 1 answers 4-4 (8 pips), when the hidden 6-5 (11), 6-4 (10)
    # and 5-4 (9) fitted: a later play, weaker odds. Seat 1 learns of seat 0's first play (4-3,
    # 7 pips, when 6-5 and 5-4 fitted the 5), nothing of its own.
    hand.push(Move.play("4-3", 0))
    hand.push(Move.play("4-4", 0))
    later = BIT[parse_tile("6-5")] | BIT[parse_tile("6-4")] | BIT[parse_tile("5-4")]
    assert clues(hand, 0).clues == ((1, heavier, FIRST_PLAY_ODDS), (1, later, HEAVIER_TILE_ODDS))
    assert clues(hand, 1).clues == ((0, heavier, FIRST_PLAY_ODDS),)
    evidence = clues(hand, 0)
    assert evidence.weight([0, BIT[parse_tile("6-5")]]) == FIRST_PLAY_ODDS * HEAVIER_TILE_ODDS
    assert evidence.weight([0, BIT[parse_tile("6-4")]]) == HEAVIER_TILE_ODDS
    assert evidence.weight([0, BIT[parse_tile("5-1")]]) == 1.0


def test_without_teams_a_lighter_tile_is_no_clue_yet() -> None:
    # Draw and Block keep the play model Hard was measured with against Normal and ISMCTS.
    assert clues(all_fives_hand("draw"), 0).clues == ()
    assert clues(all_fives_hand("block"), 0).clues == ()


def test_plays_before_the_seat_drew_tell_nothing_of_its_hand_now() -> None:
    deal = [t("5-5 4-3 6-1 2-0 1-1 2-2 0-0"), t("5-3 6-6 6-2 3-3 6-3 2-1 1-0")]
    rest = [tile for tile in range(28) if tile not in deal[0] + deal[1]]
    hand = Hand(PRESETS["all-fives"], deal, rest, leader=0)
    hand.push(Move.lead("5-5"))
    hand.push(Move.play("5-3", 0))  # passes up 5-0's 10 points
    hand.push(Move.play("4-3", 0))
    assert clues(hand, 0).clues == ((1, BIT[parse_tile("5-0")], MISSED_POINTS_ODDS),)
    assert hand.legal_moves() == [DRAW]  # seat 1 has no four and no five: it draws
    hand.push(DRAW)
    # The tile drawn may be 5-0, which seat 1 did not have when it played 5-3.
    assert clues(hand, 0).clues == ()


def test_likely_deals_keep_every_proven_void_and_follow_the_clues() -> None:
    view = all_fives_hand().view(0)
    knowledge = infer(view)
    sampler = DealSampler(knowledge, random.Random(3))
    evidence = play_evidence(view, knowledge)
    five_blank = BIT[parse_tile("5-0")]
    plain = Counter(bool(sampler.sample()[0][1] & five_blank) for _ in range(2000))
    weighted = Counter(
        bool(likely_deal(sampler, evidence, random.Random(i))[0][1] & five_blank)
        for i in range(2000)
    )
    # Seat 1 holds 6 of the 19 hidden tiles: about a third of plain guesses give it 5-0; with
    # the clue, odds of 1 to 4 against make that about an eighth.
    assert 0.25 < plain[True] / 2000 < 0.40
    assert 0.07 < weighted[True] / 2000 < 0.18


def test_in_partnership_a_first_play_below_the_heaviest_fitting_tile_makes_it_unlikely() -> None:
    # Seat 0 leads 6-6; seat 1 answers 6-1 when 6-5, 6-4, 6-3 and 6-2 may be anywhere hidden.
    deal = [
        t("6-6 0-0 1-1 2-2 3-3 4-4 5-5"),
        t("6-1 1-0 2-1 3-1 4-1 5-1 2-0"),
        t("6-5 6-4 3-0 4-0 5-0 3-2 4-2"),
        t("6-3 6-2 6-0 5-2 4-3 5-3 5-4"),
    ]
    hand = Hand(PRESETS["partnership"], deal, [], leader=0)
    hand.push(Move.lead("6-6"))
    hand.push(Move.play("6-1", 0))
    view = hand.view(0)
    knowledge = infer(view)
    evidence = play_evidence(view, knowledge)
    heavier = BIT[parse_tile("6-5")] | BIT[parse_tile("6-4")] | BIT[parse_tile("6-3")]
    heavier |= BIT[parse_tile("6-2")]
    assert evidence.clues == ((1, heavier, FIRST_PLAY_ODDS),)
    sampler = DealSampler(knowledge, random.Random(5))
    plain = sum(bool(sampler.sample()[0][1] & heavier) for _ in range(1000))
    weighted = sum(
        bool(likely_deal(sampler, evidence, random.Random(i))[0][1] & heavier) for i in range(1000)
    )
    # Seat 1 holds 6 of the 20 hidden tiles: most plain guesses give it one of the four sixes
    # (1 - C(16,6)/C(20,6), about 79%); weighted by odds of 1 to 5, about 0.79 * 0.2 / (0.79 *
    # 0.2 + 0.21), some 43%.
    assert 0.72 < plain / 1000 < 0.86
    assert 0.35 < weighted / 1000 < 0.51
