"""What a play scores from the open ends, rounding, and the end-of-hand bonus (RULES.md 1, 2, 4)."""

from __future__ import annotations

import pytest

from dominohall.rules import PRESETS, Layout, in_units, parse_tile, play_score, round_to_five
from dominohall.rules.presets import Count, CountValue
from dominohall.rules.scoring import score_of_total

from .deals import make_hand, play


def laid(preset: str, lead: str, *plays: str) -> Layout:
    layout = Layout(PRESETS[preset].layout)
    layout.lead(parse_tile(lead), int(lead.split("-")[0]))
    for text in plays:
        tile, arm = text.split("@")
        layout.place(parse_tile(tile), int(arm))
    return layout


# Rounding -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "rounded"),
    [(0, 0), (20, 20), (21, 20), (22, 20), (23, 25), (24, 25), (25, 25), (3, 5), (2, 0)],
)
def test_round_to_nearest_five_remainders_0_to_2_down_3_to_4_up(x: int, rounded: int) -> None:
    assert round_to_five(x) == rounded


def test_round_to_nearest_five_23_is_25_and_22_is_20() -> None:
    assert round_to_five(23) == 25
    assert round_to_five(22) == 20


def test_bonus_in_units_is_rounded_total_over_five() -> None:
    assert in_units(23) == 5
    assert in_units(22) == 4
    assert in_units(2) == 0


# Count of a play ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "value", "total", "score"),
    [
        (Count.FIVES, CountValue.FULL, 15, 15),
        (Count.FIVES, CountValue.FULL, 10, 10),
        (Count.FIVES, CountValue.FULL, 12, 0),
        (Count.FIVES, CountValue.UNITS, 15, 3),
        (Count.FIVES, CountValue.UNITS, 20, 4),
        (Count.THREES, CountValue.FULL, 9, 9),
        (Count.THREES, CountValue.FULL, 10, 0),
        (Count.THREES, CountValue.UNITS, 15, 5),
        (Count.THREES, CountValue.UNITS, 12, 4),
        (Count.FIVES_THREES, CountValue.UNITS, 15, 8),
        (Count.FIVES_THREES, CountValue.UNITS, 10, 2),
        (Count.FIVES_THREES, CountValue.UNITS, 9, 3),
        (Count.FIVES_THREES, CountValue.UNITS, 30, 16),
        (Count.FIVES_THREES, CountValue.UNITS, 7, 0),
    ],
)
def test_count_scores_full_or_in_units(
    count: Count, value: CountValue, total: int, score: int
) -> None:
    assert score_of_total(count, value, total) == score


@pytest.mark.parametrize("count", [Count.FIVES, Count.THREES, Count.FIVES_THREES])
def test_a_count_of_0_never_scores(count: Count) -> None:
    for value in CountValue:
        assert score_of_total(count, value, 0) == 0
    zero = laid("all-fives", "0-0")
    assert zero.count_total() == 0
    assert play_score(PRESETS["all-fives"], zero) == 0
    assert play_score(PRESETS["cross-threes"], zero) == 0


def test_fives_full_a_6_6_lead_with_6_3_counts_15_and_scores_15() -> None:
    layout = laid("all-fives", "6-6", "6-3@0")
    assert layout.count_total() == 15
    assert play_score(PRESETS["all-fives"], layout) == 15
    assert play_score(PRESETS["muggins"], layout) == 15


def test_fives_units_15_scores_3() -> None:
    assert play_score(PRESETS["cross-fives"], laid("cross-fives", "6-6", "6-3@0")) == 3


def test_threes_units_15_scores_5_and_10_scores_nothing() -> None:
    assert play_score(PRESETS["cross-threes"], laid("cross-threes", "6-6", "6-3@0")) == 5
    assert play_score(PRESETS["cross-threes"], laid("cross-threes", "6-4")) == 0
    assert play_score(PRESETS["cross-threes"], laid("cross-threes", "6-3")) == 3


def test_fives_threes_15_scores_8() -> None:
    """15 is divisible by 5 and by 3: 15/5 + 15/3 = 3 + 5 = 8."""
    layout = laid("cross-fives-threes", "6-6", "6-3@0")
    assert play_score(PRESETS["cross-fives-threes"], layout) == 8


def test_fives_threes_played_in_a_hand_scores_8_for_15() -> None:
    hand = make_hand("cross-fives-threes", ["6-6 1-0", "6-3 2-0"])
    play(hand, "6-6")
    assert hand.points == [4, 0]  # 12: 12/3 = 4
    play(hand, "6-3@0")
    assert hand.points == [4, 8]
    assert hand.scores == [4, 8]


def test_no_play_scoring_where_count_is_none() -> None:
    for preset in ("draw", "block", "cross-draw", "partnership"):
        assert play_score(PRESETS[preset], laid(preset, "5-5")) == 0


def test_headers_a_4_4_lead_scores_2() -> None:
    assert play_score(PRESETS["cross-bergen"], laid("cross-bergen", "4-4")) == 2


def test_headers_a_pair_of_ends_scores_2() -> None:
    layout = laid("cross-bergen", "4-2", "2-4@1")
    assert play_score(PRESETS["cross-bergen"], layout) == 2


def test_headers_ends_all_different_score_nothing() -> None:
    assert play_score(PRESETS["cross-bergen"], laid("cross-bergen", "4-2")) == 0
    assert play_score(PRESETS["cross-bergen"], laid("cross-bergen", "4-2", "2-5@1")) == 0


def test_headers_a_double_at_one_end_and_the_same_number_at_another_scores_3() -> None:
    layout = laid("cross-bergen", "4-2", "2-4@1", "4-4@0")
    assert play_score(PRESETS["cross-bergen"], layout) == 3


def test_headers_three_ends_alike_score_3() -> None:
    """3-3 spinner covered on both sides; the ends 1, 1 and 1 show on arms 0, 1 and 2."""
    layout = laid("cross-bergen", "3-3", "3-0@0", "3-1@1", "0-1@0", "3-4@2", "4-1@2")
    assert layout.open_arms == [0, 1, 2, 3]
    assert play_score(PRESETS["cross-bergen"], layout) == 3


def test_headers_a_spinner_that_still_counts_and_its_number_at_another_end_score_3() -> None:
    """4-4 leads (one side covered, so it still shows 4 twice) and arm 0 ends in 4: three faces."""
    layout = laid("cross-bergen", "4-4", "4-1@0", "1-4@0")
    assert layout.header_count() == 3
    assert play_score(PRESETS["cross-bergen"], layout) == 3


def test_headers_score_raw_points_in_a_hand() -> None:
    """cross-bergen counts headers in raw points: the 4-4 lead scores 2, not 2 units of anything."""
    hand = make_hand("cross-bergen", ["4-4 6-0", "4-1 3-2"])
    play(hand, "4-4")
    assert hand.points == [2, 0]
    play(hand, "4-1@1")
    assert hand.points == [2, 2]  # 4-4 has one side covered: it still shows 4 twice


# The end-of-hand bonus (RULES.md 4) -----------------------------------------------------------


def test_bonus_others_the_winner_scores_all_other_hands_pips() -> None:
    hand = make_hand("draw", ["6-6", "5-4 3-2", "4-0"])
    play(hand, "6-6")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.bonus) == (0, False, 9 + 5 + 4)
    assert hand.scores == [18, 0, 0]
    assert hand.points == [18, 0, 0]


def test_bonus_others_in_a_blocked_hand() -> None:
    """Block: 2-1 leads; nobody else holds a 2 or a 1; seat 0 keeps 3-0 (3 pips), the least."""
    hand = make_hand("block", ["2-1 3-0", "6-6 5-5", "4-4"])
    play(hand, "2-1", "pass", "pass", "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.bonus) == (0, True, 22 + 8)
    assert hand.scores == [30, 0, 0]


@pytest.mark.parametrize(("others", "bonus"), [("6-6 6-5", 25), ("6-6 6-4", 20)])
def test_bonus_others_r5_rounds_the_others_total_to_the_nearest_five(
    others: str, bonus: int
) -> None:
    """All Fives: 23 pips -> 25, 22 -> 20 (the 6-1 lead counts 7, which scores nothing)."""
    hand = make_hand("all-fives", ["6-1", others])
    play(hand, "6-1")
    assert hand.result is not None and hand.result.bonus == bonus
    assert hand.scores == [bonus, 0]


def test_bonus_all_units_going_out() -> None:
    """Muggins: 23 pips left in the other hands -> 25 -> 5 units."""
    hand = make_hand("muggins", ["6-1", "6-6 6-5"])
    play(hand, "6-1")
    assert hand.result is not None and hand.result.bonus == 5
    assert hand.scores == [5, 0]


def test_bonus_all_units_includes_a_blocked_winners_own_pips() -> None:
    """Blocked: seat 0 keeps 3-0 (3 pips), seat 1 keeps 5-5 6-4 (20): 3 + 20 = 23 -> 25 -> 5
    units (without the winner's own 3 it would be 20 -> 4)."""
    hand = make_hand("muggins", ["1-1 3-0", "5-5 6-4"])
    play(hand, "1-1", "pass", "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.bonus) == (0, True, 5)
    assert hand.scores == [5, 0]


def test_bonus_net_units_going_out() -> None:
    hand = make_hand("cross-fives", ["6-1", "6-6 6-5"])
    play(hand, "6-1")
    assert hand.result is not None and hand.result.bonus == 5  # (23 - 0) -> 25 -> 5
    assert hand.scores == [5, 0]


def test_bonus_net_units_blocked_is_opponents_pips_less_own_pips() -> None:
    """Seat 0 keeps 3-0 (3); the others 20 and 21: (41 - 3) = 38 -> 40 -> 8 units."""
    hand = make_hand("cross-fives", ["1-1 3-0", "5-5 6-4", "6-6 5-4"])
    play(hand, "1-1", "pass", "pass", "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.bonus) == (0, True, 8)
    assert hand.scores == [8, 0, 0]


def test_bonus_net_penalty_winner_gains_net_units_and_every_other_player_loses_own_pips() -> None:
    """Cross Draw: seat 0 gains (20 + 23 - 3) = 40 -> 8; seat 1 loses 20 -> 4, seat 2 loses
    23 -> 25 -> 5 (each in units, rounded on its own)."""
    hand = make_hand("cross-draw", ["1-1 3-0", "5-5 6-4", "6-6 6-5"], scores=[10, 3, -4])
    play(hand, "1-1", "pass", "pass", "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.bonus) == (0, 8)
    assert hand.points == [8, -4, -5]
    assert hand.scores == [18, -1, -9]


def test_bonus_net_penalty_going_out() -> None:
    hand = make_hand("cross-draw", ["6-1", "6-6 6-5", "2-0"])
    play(hand, "6-1")
    assert hand.result is not None and hand.result.bonus == 5  # 23 + 2 = 25 -> 5
    assert hand.points == [5, -5, 0]  # 2 pips round to 0 units


def test_bonus_net_penalty_with_no_winner_nobody_gains_or_loses() -> None:
    """A blocked tie for fewest (4 and 4 pips): no winner, nobody gains or loses."""
    hand = make_hand("cross-draw", ["1-1 4-0", "2-2", "6-6"], scores=[1, 2, 3])
    play(hand, "1-1", "pass", "pass", "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.bonus) == (None, True, 0)
    assert hand.points == [0, 0, 0]
    assert hand.scores == [1, 2, 3]


def test_bonus_team_the_team_of_the_player_who_went_out_scores_the_losing_teams_pips() -> None:
    hand = make_hand("partnership", ["6-6", "5-4", "3-2", "6-5"], leader=0)
    play(hand, "6-6")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.bonus) == (0, 9 + 11)
    assert hand.scores == [20, 0]  # per team: seats 0 + 2, seats 1 + 3


def test_bonus_team_blocked_the_team_with_fewer_combined_pips_scores_the_others() -> None:
    """Team 0 holds 4 + 3 = 7 pips, team 1 holds 10 + 12 = 22: team 0 scores 22, and its member
    with fewer pips (seat 2, 3 pips) is the hand's winner."""
    hand = make_hand("partnership", ["1-1 4-0", "5-5", "3-0", "6-6"], leader=0)
    play(hand, "1-1", "pass", "pass", "pass", "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.bonus) == (2, True, 22)
    assert hand.scores == [22, 0]


def test_bonus_team_blocked_winner_is_the_lower_seat_when_teammates_tie() -> None:
    hand = make_hand("partnership", ["1-1 4-0", "6-6", "2-2", "5-5"], leader=0)
    play(hand, "1-1", "pass", "pass", "pass", "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.bonus) == (0, 22)


def test_bonus_team_blocked_tie_between_teams_nobody_scores() -> None:
    """Team 0 holds 4 + 2 pips, team 1 holds 6 + 0: a tie, so nobody scores."""
    hand = make_hand("partnership", ["1-1 4-0", "6-0", "2-0", "0-0"], leader=0)
    play(hand, "1-1", "pass", "pass", "pass", "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.blocked, hand.result.bonus) == (None, True, 0)
    assert hand.scores == [0, 0]


def test_bonus_in_units_is_always_over_five_also_in_cross_threes() -> None:
    """23 pips -> 25 -> 5 units (not 23 / 3)."""
    hand = make_hand("cross-threes", ["6-1", "6-6 6-5"])
    play(hand, "6-1")
    assert hand.result is not None and hand.result.bonus == 5


def test_going_out_play_scores_its_count_and_the_bonus() -> None:
    """Muggins: the 6-4 lead counts 10; 4-3 goes out leaving ends 2 and 3 (5), and seat 1's
    5-5 (10 pips) is worth 2 units: 10 + 5 + 2."""
    hand = make_hand("muggins", ["6-4 4-3", "6-2 5-5"])
    play(hand, "6-4", "6-2@0", "4-3@1")
    assert hand.result is not None and hand.result.bonus == 2
    assert hand.scores == [17, 0]
