"""The game of many hands: who leads, running scores, and when the game ends (RULES.md 3, 5)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from dominohall.rules import (
    ConfigError,
    Game,
    HandOverError,
    IllegalMoveError,
    Move,
    draw_lots,
    mask_of,
    parse_tile,
)
from dominohall.rules.tiles import DOUBLES

from .deals import full_deal, make_hand, play, settle, tiles


class Lots(random.Random):
    """A seeded source whose lots (one tile per seat) are given; everything else is chance."""

    def __init__(self, lots: str) -> None:
        super().__init__(0)
        self.lots = tiles(lots)

    def sample(  # type: ignore[override]
        self, population: Sequence[int], k: int, *, counts: object = None
    ) -> list[int]:
        assert k == len(self.lots)
        return list(self.lots)


def blocked_tie(preset: str, game: Game, leader: int = 0) -> None:
    """Settle a blocked 3-player hand led by ``leader`` in which seats 0 and 1 tie on 4 pips."""
    holdings = ["4-0", "2-2", "6-6"]
    holdings[leader] = "1-1 " + holdings[leader]
    hand = make_hand(preset, holdings, leader=leader, scores=game.scores, target=game.target)
    play(hand, "1-1", "pass", "pass", "pass")
    assert hand.result is not None and hand.result.winner is None
    settle(game, hand)


# First lead ---------------------------------------------------------------------------------


def test_first_lead_highest_double_its_holder_must_open_with_it() -> None:
    """6-6 is in the boneyard: 5-5 is the highest double dealt, and seat 1 holds it."""
    holdings, boneyard = full_deal(
        ["4-4 6-1 5-2 4-3 2-0 1-0 3-1", "5-5 6-0 5-0 4-0 3-0 2-1 6-2"], "6-6"
    )
    game = Game("draw", 2, rng=random.Random(1))
    rule = game.lead_rule(holdings)
    assert (rule.leader, rule.must_lead) == (1, parse_tile("5-5"))
    with pytest.raises(IllegalMoveError, match="seat 0 may not open"):
        game.start_hand(holdings, boneyard, leader=0)
    hand = game.start_hand(holdings, boneyard)
    assert hand.leader == 1
    assert hand.legal_moves() == [Move.lead("5-5")]
    with pytest.raises(IllegalMoveError, match="must open with 5-5, not 6-0"):
        hand.push(Move.lead("6-0"))


def test_first_lead_highest_double_no_double_dealt_the_heaviest_tile_opens() -> None:
    """All seven doubles are in the boneyard: 6-5 (11 pips) is the heaviest tile dealt."""
    holdings, boneyard = full_deal(["6-4 5-4 6-3 5-3 6-2 4-3 5-2", "6-1 6-5 5-1 4-2 6-0 4-1 3-2"])
    assert not any(held & DOUBLES for held in holdings)
    hand = Game("block", 2).start_hand(holdings, boneyard)
    assert hand.leader == 1
    assert hand.legal_moves() == [Move.lead("6-5")]


def test_first_lead_highest_double_no_double_equal_pips_the_larger_half_opens() -> None:
    """No double dealt; 5-4 and 6-3 have the most pips (9): 6-3 is heavier, and seat 2 holds it."""
    holdings, boneyard = full_deal(
        ["5-4 2-1 1-0 3-2 4-1", "5-3 4-2 5-1 3-1 2-0", "6-3 6-2 6-1 6-0 4-3"]
    )
    hand = Game("draw", 3).start_hand(holdings, boneyard)
    assert hand.leader == 2
    assert hand.legal_moves() == [Move.lead("6-3")]


def test_first_lead_lot_the_highest_tile_drawn_leads() -> None:
    """Lots 5-2, 6-1, 4-3: equal pips, 6-1 is the highest tile, so seat 1 leads."""
    assert draw_lots(3, Lots("5-2 6-1 4-3")) == 1
    assert draw_lots(2, Lots("0-0 1-0")) == 1
    assert draw_lots(2, Lots("3-3 4-2")) == 1  # 6 pips each: no extra rank for a double
    game = Game("muggins", 3, rng=Lots("6-6 2-0 5-5"))
    hand = game.start_hand()
    assert hand.leader == 0


def test_first_lead_lot_the_leader_leads_any_tile() -> None:
    holdings, boneyard = full_deal(
        ["6-6 5-5 4-4 3-3 2-2", "6-5 6-4 6-3 6-2 6-1", "1-1 0-0 1-0 2-0 3-0"]
    )
    game = Game("spinner-fives", 3)
    rule = game.lead_rule(holdings)
    assert (rule.leader, rule.must_lead, rule.choices) == (None, -1, (0, 1, 2))
    hand = game.start_hand(holdings, boneyard, leader=2)
    assert hand.leader == 2
    assert len(hand.legal_moves()) == 5


def test_first_lead_random_a_uniformly_random_seat_leads_any_tile() -> None:
    leaders = set()
    for seed in range(60):
        hand = Game("cross-fives", 3, rng=random.Random(seed)).start_hand()
        leaders.add(hand.leader)
        assert hand.must_lead == -1
        assert len(hand.legal_moves()) == 5
    assert leaders == {0, 1, 2}
    holdings, boneyard = full_deal(
        ["6-6 5-5 4-4 3-3 2-2", "6-5 6-4 6-3 6-2 6-1", "1-1 0-0 1-0 2-0 3-0"]
    )
    assert Game("cross-threes", 3).start_hand(holdings, boneyard, leader=1).leader == 1


def test_first_lead_holder_6_6_must_lead_it() -> None:
    holdings, boneyard = full_deal(
        [
            "5-5 4-4 3-3 2-2 1-1 0-0 6-5",
            "6-4 6-3 6-2 6-1 6-0 5-4 5-3",
            "6-6 5-2 5-1 5-0 4-3 4-2 4-1",
            "4-0 3-2 3-1 3-0 2-1 2-0 1-0",
        ]
    )
    assert boneyard == []
    game = Game("partnership", 4)
    with pytest.raises(IllegalMoveError, match="holder_6_6, seat 2 opens"):
        game.start_hand(holdings, boneyard, leader=0)
    hand = game.start_hand(holdings, boneyard)
    assert hand.leader == 2
    assert hand.legal_moves() == [Move.lead("6-6")]


# Later hands --------------------------------------------------------------------------------


def test_next_lead_winner_leads_any_tile() -> None:
    game = Game("draw", 2)
    won = make_hand("draw", ["6-6 2-1", "6-0"], leader=0)
    play(won, "6-6", "6-0@0")
    assert won.result is not None and won.result.winner == 1
    settle(game, won)
    assert (game.scores, game.finished) == ([0, 3], False)
    holdings, boneyard = full_deal(["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-5 6-4 6-3 6-2 6-1 6-0 5-4"])
    with pytest.raises(IllegalMoveError, match="seat 0 may not open"):
        game.start_hand(holdings, boneyard, leader=0)
    hand = game.start_hand(holdings, boneyard)
    assert (hand.leader, hand.must_lead) == (1, -1)
    assert len(hand.legal_moves()) == 7


def test_next_lead_winner_leads_also_under_lot_and_random() -> None:
    for preset in ("muggins", "cross-fives"):
        game = Game(preset, 2, rng=random.Random(3))
        won = make_hand(preset, ["6-1 2-0", "1-0"], leader=0)
        play(won, "6-1", "1-0@1")
        settle(game, won)
        assert game.start_hand().leader == 1


@pytest.mark.parametrize(("opener", "next_leader"), [(0, 1), (1, 2), (2, 0)])
def test_next_lead_after_opener_with_no_sole_winner(opener: int, next_leader: int) -> None:
    game = Game("block", 3)
    blocked_tie("block", game, leader=opener)
    rule = game.lead_rule([0, 0, 0])
    assert (rule.leader, rule.by) == (next_leader, "after_opener")
    assert game.start_hand().leader == next_leader


def test_next_lead_lot_with_no_sole_winner_lots_are_drawn_again() -> None:
    game = Game("muggins", 3, rng=Lots("1-0 2-0 0-0"))
    blocked_tie("muggins", game)
    rule = game.lead_rule([0, 0, 0])
    assert (rule.leader, rule.choices, rule.by) == (None, (0, 1, 2), "lot")
    assert game.start_hand().leader == 1  # 2-0 is the highest lot; seat 2 was not tied


def test_next_lead_random_among_tied_only_a_tied_seat_may_lead() -> None:
    leaders = set()
    for seed in range(40):
        game = Game("cross-fives", 3, rng=random.Random(seed))
        blocked_tie("cross-fives", game, leader=2)
        assert game.lead_rule([0, 0, 0]).choices == (0, 1)
        leaders.add(game.start_hand().leader)
    assert leaders == {0, 1}
    game = Game("cross-fives", 3)
    blocked_tie("cross-fives", game)
    holdings, boneyard = full_deal(
        ["6-6 5-5 4-4 3-3 2-2", "6-5 6-4 6-3 6-2 6-1", "1-0 2-0 3-0 4-0 5-0"]
    )
    with pytest.raises(IllegalMoveError, match=r"one of seats \[0, 1\]"):
        game.start_hand(holdings, boneyard, leader=2)


def test_a_hand_starts_only_after_the_last_one_is_over_and_settled() -> None:
    game = Game("draw", 2, rng=random.Random(5))
    hand = game.start_hand()
    with pytest.raises(IllegalMoveError, match="not over"):
        game.start_hand()
    with pytest.raises(IllegalMoveError, match="not over"):
        game.end_hand()
    assert not hand.over


# End of the game ----------------------------------------------------------------------------


def test_game_end_hand_end_a_player_at_or_past_the_target_when_a_hand_ends_wins() -> None:
    game = Game("draw", 2, target=50)
    hand = make_hand("draw", ["6-6", "5-4 3-2"], scores=[36, 49])
    play(hand, "6-6")
    settle(game, hand)
    assert (game.scores, game.finished, game.winner) == ([50, 49], True, 0)
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.start_hand()


def test_game_end_hand_end_below_the_target_plays_another_hand() -> None:
    game = Game("draw", 2, target=50)
    hand = make_hand("draw", ["6-6", "5-4 3-2"], scores=[35, 49])
    play(hand, "6-6")
    settle(game, hand)
    assert (game.scores, game.finished, game.winner) == ([49, 49], False, None)
    assert game.start_hand().leader == 0


def test_game_end_immediate_mid_hand_the_game_ends_the_moment_the_target_is_reached() -> None:
    game = Game("all-fives", 2, target=50)
    hand = make_hand("all-fives", ["5-5 1-0", "6-6 6-4"], scores=[45, 0], target=50)
    play(hand, "5-5")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.cut_short) == (None, False, True)
    assert hand.scores == [55, 0]
    assert hand.legal_moves() == []
    with pytest.raises(HandOverError):
        hand.push(Move.play("6-6", 0))
    settle(game, hand)
    assert (game.finished, game.winner) == (True, 0)


def test_game_end_immediate_going_out_play_scores_its_count_and_the_bonus() -> None:
    """45 + the 5-5 lead's count 10 (already 55) + the bonus 22 -> 20: 75, not 55."""
    game = Game("all-fives", 2, target=50)
    hand = make_hand("all-fives", ["5-5", "6-6 6-4"], scores=[45, 0], target=50)
    play(hand, "5-5")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.bonus, hand.result.cut_short) == (0, 20, False)
    assert (hand.scores, hand.points) == ([75, 0], [30, 0])
    settle(game, hand)
    assert (game.finished, game.winner) == (True, 0)


def test_game_end_hand_end_highest_the_highest_score_wins() -> None:
    """Muggins to 100: seat 0's 5-0 lead counts 5 (101); the hand blocks and seat 1, with fewer
    pips, takes (12 + 6) -> 20 -> 4 units (103): both are past the target, the highest wins."""
    game = Game("muggins", 2, target=100)
    hand = make_hand("muggins", ["5-0 6-6", "4-2"], scores=[96, 99], target=100)
    play(hand, "5-0", "pass", "pass")
    assert hand.result is not None and hand.result.winner == 1
    assert not hand.result.cut_short
    settle(game, hand)
    assert (game.scores, game.finished, game.winner) == ([101, 103], True, 1)


def test_game_end_hand_end_highest_is_checked_only_when_a_hand_ends() -> None:
    hand = make_hand("muggins", ["5-0 6-6", "4-2 1-0"], "3-3", scores=[96, 0], target=100)
    play(hand, "5-0")
    assert hand.scores == [101, 0] and not hand.over


def test_game_end_hand_end_highest_tie_for_highest_plays_another_hand() -> None:
    """95 + 5 = 100 against 100; the hand blocks with 6 pips each: no bonus, a tie at 100."""
    game = Game("muggins", 2, target=100, rng=random.Random(2))
    hand = make_hand("muggins", ["5-0 4-2", "3-3"], scores=[95, 100], target=100)
    play(hand, "5-0", "pass", "pass")
    settle(game, hand)
    assert (game.scores, game.finished, game.winner) == ([100, 100], False, None)
    assert game.start_hand().scores == [100, 100]


def test_game_end_cross_draw_floor_a_player_at_minus_25_ends_the_game_highest_wins() -> None:
    game = Game("cross-draw", 3)
    hand = make_hand("cross-draw", ["1-1 3-0", "5-5 6-4", "6-6 6-5"], scores=[0, -21, 0])
    play(hand, "1-1", "pass", "pass", "pass")
    settle(game, hand)
    assert (game.scores, game.finished, game.winner) == ([8, -25, -5], True, 0)


def test_game_end_cross_draw_above_the_floor_plays_on() -> None:
    game = Game("cross-draw", 3)
    hand = make_hand("cross-draw", ["1-1 3-0", "5-5 6-4", "6-6 6-5"], scores=[0, -20, 0])
    play(hand, "1-1", "pass", "pass", "pass")
    settle(game, hand)
    assert (game.scores, game.finished) == ([8, -24, -5], False)


def test_game_end_cross_draw_floor_with_a_tie_for_highest_plays_another_hand() -> None:
    game = Game("cross-draw", 3, rng=random.Random(4))
    hand = make_hand("cross-draw", ["1-1 3-0", "5-5 6-4", "6-6 6-5"], scores=[0, -21, 13])
    play(hand, "1-1", "pass", "pass", "pass")
    settle(game, hand)
    assert (game.scores, game.finished, game.winner) == ([8, -25, 8], False, None)
    assert not game.start_hand().over


def test_game_end_exact_a_score_past_the_target_is_not_scored() -> None:
    """60 + the 5-5 lead's 2 units would be 62, past 61: not scored at all; play goes on."""
    hand = make_hand("cross-fives-threes", ["5-5 1-0", "6-6 6-4"], scores=[60, 0], target=61)
    play(hand, "5-5")
    assert (hand.scores, hand.points, hand.over) == ([60, 0], [0, 0], False)
    assert hand.turn == 1


def test_game_end_exact_reaching_the_target_exactly_wins_at_once() -> None:
    game = Game("cross-fives-threes", 2)
    hand = make_hand("cross-fives-threes", ["5-5 1-0", "6-6 6-4"], scores=[59, 0], target=61)
    play(hand, "5-5")
    assert hand.result is not None and hand.result.cut_short
    assert hand.scores == [61, 0]
    settle(game, hand)
    assert (game.finished, game.winner) == (True, 0)


def test_game_end_exact_going_out_count_and_bonus_overshoot_neither_is_scored() -> None:
    """59: the going-out 5-5 counts 2 units (61 alone, exactly) and the bonus 10 -> 2 units:
    together 63 overshoot, so neither is scored, and the game goes on."""
    game = Game("cross-fives-threes", 2)
    hand = make_hand("cross-fives-threes", ["5-5", "6-4"], scores=[59, 0], target=61)
    play(hand, "5-5")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.bonus) == (0, 0)
    assert (hand.scores, hand.points) == ([59, 0], [0, 0])
    settle(game, hand)
    assert (game.finished, game.winner) == (False, None)
    assert game.start_hand().leader == 0  # the winner still leads


def test_game_end_exact_going_out_count_and_bonus_reaching_the_target_wins() -> None:
    game = Game("cross-fives-threes", 2)
    hand = make_hand("cross-fives-threes", ["5-5", "6-4"], scores=[57, 0], target=61)
    play(hand, "5-5")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.bonus, hand.scores) == (0, 2, [61, 0])
    settle(game, hand)
    assert (game.finished, game.winner) == (True, 0)


def test_game_end_exact_is_not_won_past_the_target_at_a_hands_end() -> None:
    game = Game("cross-fives-threes", 2)
    hand = make_hand("cross-fives-threes", ["5-5", "6-4"], scores=[50, 0], target=61)
    play(hand, "5-5")
    settle(game, hand)
    assert (game.scores, game.finished) == ([54, 0], False)


def test_partnership_scores_are_kept_per_team_and_the_lower_seat_of_the_winners_wins() -> None:
    """Seat 1 goes out; team 0 (seats 0, 2) holds 6 + 4 pips: team 1 reaches 90 + 10 = 100."""
    game = Game("partnership", 4)
    hand = make_hand("partnership", ["6-0", "5-5", "4-0", "3-0"], leader=1, scores=[0, 90])
    play(hand, "5-5")
    settle(game, hand)
    assert game.scores == [0, 100]
    assert game.seat_scores() == [0, 100, 0, 100]
    assert (game.finished, game.winner) == (True, 1)


def test_partnership_teammates_share_their_teams_points() -> None:
    """Seat 2 goes out: team 0 scores seats 1 + 3's pips; seats 0 and 2 show the same score."""
    game = Game("partnership", 4)
    hand = make_hand("partnership", ["6-0 1-1", "5-0", "6-6", "3-0"], leader=2)
    play(hand, "6-6")
    assert hand.scores == [8, 0]
    settle(game, hand)
    assert game.seat_scores() == [8, 0, 8, 0]
    assert not game.finished
    assert game.start_hand().leader == 2


def test_partnership_blocked_the_winning_teams_member_with_fewer_pips_leads_next() -> None:
    game = Game("partnership", 4)
    hand = make_hand("partnership", ["1-1 4-0", "5-5", "3-0", "6-6"], leader=0)
    play(hand, "1-1", "pass", "pass", "pass", "pass")
    settle(game, hand)
    assert game.scores == [22, 0]
    assert game.start_hand().leader == 2


def test_game_end_exact_a_blocked_hands_bonus_past_the_target_is_not_scored() -> None:
    """60 + (20 + 21 - 3) -> 40 -> 8 units would pass 61: the bonus is thrown away."""
    game = Game("cross-fives-threes", 3)
    hand = make_hand(
        "cross-fives-threes", ["1-1 3-0", "5-5 6-4", "6-6 5-4"], scores=[60, 0, 0], target=61
    )
    play(hand, "1-1", "pass", "pass", "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.bonus) == (0, True, 0)
    settle(game, hand)
    assert (game.scores, game.finished) == ([60, 0, 0], False)


# Dealing ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "players", "size", "left"), [
    ("draw", 2, 7, 14), ("draw", 3, 5, 13), ("draw", 4, 5, 8), ("partnership", 4, 7, 0),
])  # fmt: skip
def test_the_deal_gives_each_seat_its_hand_size_and_the_rest_to_the_boneyard(
    preset: str, players: int, size: int, left: int
) -> None:
    hand = Game(preset, players, rng=random.Random(9)).start_hand()
    assert [h.bit_count() for h in hand.holdings] == [size] * players
    assert len(hand.boneyard) == left


def test_shuffles_use_a_secure_source_in_play_and_a_seeded_one_in_tests() -> None:
    assert isinstance(Game("draw", 2).rng, random.SystemRandom)
    a = Game("cross-fives", 3, rng=random.Random(11)).start_hand()
    b = Game("cross-fives", 3, rng=random.Random(11)).start_hand()
    assert (a.holdings, a.boneyard, a.leader) == (b.holdings, b.boneyard, b.leader)


@pytest.mark.parametrize(
    ("holdings", "boneyard", "error"),
    [
        (["6-6 5-5 4-4 3-3 2-2 1-1", "6-5 6-4 6-3 6-2 6-1 6-0 5-4"], "", "dealt 6 tiles, not 7"),
        (["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-6 6-4 6-3 6-2 6-1 6-0 5-4"], "", "another seat"),
        (["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-5 6-4 6-3 6-2 6-1 6-0 5-4"], "6-6", "also in a hand"),
        (["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-5 6-4 6-3 6-2 6-1 6-0 5-4"], "5-3", "28 tiles"),
    ],
)
def test_a_given_deal_must_be_the_28_tiles_in_the_presets_hand_sizes(
    holdings: list[str], boneyard: str, error: str
) -> None:
    with pytest.raises(ConfigError, match=error):
        Game("draw", 2).start_hand([mask_of(tiles(h)) for h in holdings], tiles(boneyard))
